package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/wasmexec/wasmexec/auth"
)

// frontDoor loads the API keys of --auth-keys-file and reloads them on
// SIGHUP (a bad file keeps the old keys, saying why in the log). Without
// keys the server is open, so it listens only on a loopback address unless
// --insecure-open says otherwise.
func frontDoor(o options, log *slog.Logger) (*auth.Keys, error) {
	if o.authKeysFile == "" {
		if !isLoopback(o.addr) {
			if !o.insecureOpen {
				return nil, fmt.Errorf("refusing to listen on %s without API keys: anyone who can reach it could run code and read every context; give --auth-keys-file (WASMEXEC_AUTH_KEYS_FILE), listen on a loopback address, or pass --insecure-open", o.addr)
			}
			log.Warn("INSECURE: serving without API keys on a non-loopback address (--insecure-open); anyone who reaches it can run code and read every context", "addr", o.addr)
		}
		return nil, nil
	}
	keys, err := auth.Load(o.authKeysFile)
	if err != nil {
		return nil, err
	}
	tenants, n := keys.Count()
	log.Info("API keys loaded", "file", o.authKeysFile, "tenants", tenants, "keys", n)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		for range hup {
			if err := keys.Reload(); err != nil {
				log.Error("reload API keys failed; keeping the keys loaded before", "err", err)
				continue
			}
			tenants, n := keys.Count()
			log.Info("API keys reloaded", "file", o.authKeysFile, "tenants", tenants, "keys", n)
		}
	}()
	return keys, nil
}

// isLoopback reports whether addr (host:port) listens on loopback only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
