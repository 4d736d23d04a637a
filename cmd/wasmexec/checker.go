package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/server"
)

// checker adapts the TypeScript checkers to server.Checker and records
// each check as a completed execution (kind typescript_check) with its
// diagnostics. TypeScript 7 (tscheck.NativePool) is the default and warms
// up in well under a second after runs are served; TypeScript 5.9
// (tscheck.Pool, in goja) serves requests with "typescriptVersion": "5.9"
// and starts on the first of them, so its warm-up (seconds of CPU) costs
// nothing to servers whose clients never pin it.
type checker struct {
	native  *tscheck.NativePool // nil: TypeScript 7 is not in the image
	legacy  *tscheck.Pool       // nil: 5.9 disabled or not built
	persist func(ctx context.Context, r *wasmexec.Result, log *wasmexec.OutputLog) error
	log     *slog.Logger

	mu    sync.Mutex
	state string // checkerWarming, checkerReady or checkerFailed (TypeScript 7)
	err   error
	done  chan struct{} // closed when TypeScript 7's start ended

	legacyOnce  sync.Once
	legacyState string // "" (not started), checkerWarming, checkerReady, checkerFailed
	legacyErr   error
	legacyDone  chan struct{}
	closing     chan struct{}
}

// States of a checker, as /readyz reports them.
const (
	checkerWarming  = "warming up"
	checkerReady    = "ready"
	checkerFailed   = "failed"
	checkerIdle     = "idle (starts on first use)"
	checkerDisabled = "disabled"  // --tscheck-workers 0
	checkerNotBuilt = "not built" // no typescript image
)

func newCheckerFront(native *tscheck.NativePool, legacy *tscheck.Pool, persist func(context.Context, *wasmexec.Result, *wasmexec.OutputLog) error, log *slog.Logger) *checker {
	c := &checker{native: native, legacy: legacy, persist: persist, log: log, state: checkerWarming,
		done: make(chan struct{}), legacyDone: make(chan struct{}), closing: make(chan struct{})}
	if native == nil {
		c.state, c.err = checkerFailed, errNoTS7
		close(c.done)
	}
	return c
}

var errNoTS7 = wasmexec.Errorf(wasmexec.EUnavailable, "TypeScript 7 is not in the typescript image (rebuild it: guest-images/build-cached.sh typescript)")

// start starts TypeScript 7's workers and waits until they are warm or
// ctx ends.
func (c *checker) start(ctx context.Context, log *slog.Logger) {
	if c.native == nil {
		return
	}
	t := time.Now()
	err := c.native.Start(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(c.done)
	if err != nil {
		c.state, c.err = checkerFailed, err
		if ctx.Err() == nil {
			log.Error("the TypeScript 7 checker failed to start; /v1/typescript/check answers 503", "err", err)
		}
		return
	}
	c.state = checkerReady
	log.Info("TypeScript checker ready", "typescript", c.native.Version(), "took", time.Since(t).Round(time.Millisecond).String())
}

// startLegacy starts the 5.9 workers once, in the background.
func (c *checker) startLegacy() {
	c.legacyOnce.Do(func() {
		c.mu.Lock()
		c.legacyState = checkerWarming
		c.mu.Unlock()
		go func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				select {
				case <-c.closing:
					cancel()
				case <-ctx.Done():
				}
			}()
			err := c.legacy.Start(ctx)
			c.mu.Lock()
			c.legacyState, c.legacyErr = checkerReady, nil
			if err != nil {
				c.legacyState, c.legacyErr = checkerFailed, err
				c.log.Error("the TypeScript 5.9 checker failed to start", "err", err)
			}
			c.mu.Unlock()
			close(c.legacyDone)
		}()
	})
}

func (c *checker) close() {
	close(c.closing)
	if c.native != nil {
		c.native.Close()
	}
	if c.legacy != nil {
		c.legacy.Close()
	}
}

// versionStatus is one checker's part of /readyz and GET /v1/typescript.
func (c *checker) versionStatus(major string) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch major {
	case "7":
		st := map[string]any{"major": "7", "ready": c.state == checkerReady, "state": c.state, "default": true}
		if c.native != nil {
			st["version"] = c.native.Version()
			warmUps, cpu, niced := c.native.Stats()
			st["warming"] = c.native.Warming()
			st["warmUps"] = warmUps
			st["warmUpCpuMs"] = cpu.Milliseconds()
			if niced != "" {
				st["niced"] = niced
			}
		}
		if c.err != nil {
			st["error"] = c.err.Error()
		}
		return st
	default:
		st := map[string]any{"major": "5.9", "ready": false, "state": checkerDisabled, "default": false}
		if c.legacy != nil {
			st["version"] = c.legacy.Version()
			st["state"] = c.legacyState
			if c.legacyState == "" {
				st["state"] = checkerIdle
			}
			st["ready"] = c.legacyState == checkerReady
		}
		if c.legacyErr != nil {
			st["error"] = c.legacyErr.Error()
		}
		return st
	}
}

// status reports the checkers' part of /readyz: TypeScript 7's state (the
// default checker) and each version's.
func (c *checker) status() map[string]any {
	v7, v5 := c.versionStatus("7"), c.versionStatus("5.9")
	st := map[string]any{"ready": v7["ready"], "state": v7["state"], "versions": []any{v7, v5}}
	if v, ok := v7["version"]; ok && v7["ready"] == true {
		st["typeScriptVersion"] = v
	}
	if e, ok := v7["error"]; ok {
		st["error"] = e
	}
	return st
}

// info is GET /v1/typescript.
func (c *checker) info() any {
	return map[string]any{"default": "7", "versions": []any{c.versionStatus("7"), c.versionStatus("5.9")}}
}

// majorOf maps typescriptVersion to a checker: "" and 7.x → "7", 5.9.x → "5.9".
func majorOf(v string) (string, error) {
	switch {
	case v == "" || v == "7" || strings.HasPrefix(v, "7."):
		return "7", nil
	case v == "5" || v == "5.9" || strings.HasPrefix(v, "5.9."):
		return "5.9", nil
	}
	return "", wasmexec.Errorf(wasmexec.EInvalid, "typescriptVersion %q: this server checks with 7 (the default, TypeScript 7.0) or 5.9", v)
}

func (c *checker) Check(ctx context.Context, req *server.CheckRequest) (any, error) {
	major, err := majorOf(req.TypeScriptVersion)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	var res *tscheck.Result
	if major == "5.9" {
		res, err = c.checkLegacy(ctx, req)
	} else {
		res, err = c.checkNative(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	rec := &wasmexec.Result{
		ExecutionID:   wasmexec.NewID("exe"),
		Kind:          wasmexec.KindTypeScriptCheck,
		Language:      wasmexec.TypeScript,
		Outcome:       res.Outcome,
		Error:         res.Error,
		StartedAtMs:   wasmexec.Millis(started),
		CompletedAtMs: wasmexec.Millis(time.Now()),
		DurationMs:    res.DurationMs,
	}
	code := req.Code
	if code == "" {
		b, _ := json.Marshal(req.Files)
		code = string(b)
	}
	sum := sha256.Sum256([]byte(code))
	rec.CodeSHA256, rec.Code = hex.EncodeToString(sum[:]), code
	rec.Extra, _ = json.Marshal(map[string]any{"hasErrors": res.HasErrors, "diagnostics": res.Diagnostics, "typeScriptVersion": res.TypeScriptVersion})
	if c.persist != nil {
		c.persist(context.WithoutCancel(ctx), rec, nil)
	}
	return struct {
		ExecutionID string `json:"executionId"`
		*tscheck.Result
	}{rec.ExecutionID, res}, nil
}

// warmUpWait bounds how long a check waits for TypeScript 7's warm-up (well
// under a second) instead of answering 503 at once.
const warmUpWait = 10 * time.Second

func (c *checker) checkNative(ctx context.Context, req *server.CheckRequest) (*tscheck.Result, error) {
	var opts map[string]json.RawMessage
	if len(req.CompilerOptions) > 0 && string(req.CompilerOptions) != "null" {
		if err := json.Unmarshal(req.CompilerOptions, &opts); err != nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions: want an object of TypeScript 7 compiler options: %v", err)
		}
	}
	select {
	case <-c.done:
	case <-time.After(warmUpWait):
	case <-ctx.Done():
	}
	c.mu.Lock()
	state, startErr := c.state, c.err
	c.mu.Unlock()
	switch state {
	case checkerWarming:
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript checker is still warming up; retry shortly (GET /v1/typescript says when it is ready)")
	case checkerFailed:
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript 7 checker failed to start: %v", startErr)
	}
	return c.native.Check(ctx, tscheck.Request{
		Code:         req.Code,
		Files:        req.Files,
		FilePath:     req.FilePath,
		Options:      opts,
		TsconfigPath: req.TsconfigPath,
		Timeout:      time.Duration(req.TimeoutMs) * time.Millisecond,
	})
}

func (c *checker) checkLegacy(ctx context.Context, req *server.CheckRequest) (*tscheck.Result, error) {
	if c.legacy == nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "typescriptVersion 5.9 is not enabled on this server (--tscheck-legacy-workers 0); omit typescriptVersion to check with TypeScript 7")
	}
	var opts tscheck.CompilerOptions
	if req.TsconfigPath != "" {
		text, ok := req.Files[req.TsconfigPath]
		if !ok {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath %q is not one of the files", req.TsconfigPath)
		}
		o, err := tscheck.OptionsFromTsconfig(text, req.TsconfigPath)
		if err != nil {
			return nil, err
		}
		opts = o
	}
	// compilerOptions override the tsconfig's, option by option.
	if len(req.CompilerOptions) > 0 {
		dec := json.NewDecoder(bytes.NewReader(req.CompilerOptions))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions: %v", err)
		}
	}
	c.startLegacy()
	// The first 5.9 check waits for its workers (seconds), within its own
	// deadline.
	select {
	case <-c.legacyDone:
	case <-ctx.Done():
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript 5.9 checker is still warming up (it starts on first use); retry shortly")
	}
	c.mu.Lock()
	state, startErr := c.legacyState, c.legacyErr
	c.mu.Unlock()
	if state == checkerFailed {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript 5.9 checker failed to start: %v", startErr)
	}
	return c.legacy.Check(ctx, tscheck.Request{
		Code:            req.Code,
		Files:           req.Files,
		FilePath:        req.FilePath,
		CompilerOptions: opts,
		Timeout:         time.Duration(req.TimeoutMs) * time.Millisecond,
	})
}

// loadingChecker answers checks while the guest images load, before the
// checker exists: 503 with Retry-After, like a checker warming up.
type loadingChecker struct{}

func (loadingChecker) Check(context.Context, *server.CheckRequest) (any, error) {
	return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is still loading; the TypeScript checker starts after the guest images (see /readyz)")
}

// tscheckWorker is `wasmexec tscheck-worker`: one TypeScript 5.9 checker
// worker process, speaking the pool's protocol on stdin/stdout.
func tscheckWorker() error {
	return tscheck.WorkerMain(os.Stdin, os.Stdout)
}

// tscheck7Launch is `wasmexec tscheck7-launch TSC ARGS...`: caps itself,
// drops privileges and becomes TypeScript 7's compiler (a checker worker).
func tscheck7Launch(args []string) error {
	return tscheck.LaunchMain(args)
}
