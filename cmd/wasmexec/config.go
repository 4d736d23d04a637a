package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// envName maps a flag to its environment variable by the fixed rule of
// DESIGN.md: --execution-completed-ttl-ms → WASMEXEC_EXECUTION_COMPLETED_TTL_MS.
func envName(flagName string) string {
	return "WASMEXEC_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// applyEnv sets every flag not given on the command line from its
// environment variable, so a flag always wins over the environment.
func applyEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []string
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Sprintf("%s=%q: %v", envName(f.Name), v, err))
			}
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("bad configuration: %s", strings.Join(errs, "; "))
	}
	return nil
}

func defaultCacheDir() string {
	if d := os.Getenv("WASMEXEC_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return d + "/wasmexec"
	}
	return "./data/cache"
}

// defaultScratchDir puts one-shot workspaces on /dev/shm when there is one:
// creating and removing a directory there costs ~30 µs against ~0.5-1 ms on
// the ext4 disks measured here, and every one-shot run does both.
func defaultScratchDir() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return fmt.Sprintf("/dev/shm/wasmexec-%d", os.Getuid())
	}
	return ""
}
