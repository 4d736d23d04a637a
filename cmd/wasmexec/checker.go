package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/server"
)

// checker adapts tscheck.Pool to server.Checker and records each check as a
// completed execution (kind typescript_check) with its diagnostics. Its
// workers warm up in the background (seconds) after runs are already
// served; until they are warm a check is 503 unavailable with Retry-After.
type checker struct {
	pool    *tscheck.Pool
	persist func(ctx context.Context, r *exec.Result, log *exec.OutputLog) error

	mu    sync.Mutex
	state string // checkerWarming, checkerReady or checkerFailed
	err   error
}

// States of the checker, as /readyz reports them.
const (
	checkerWarming  = "warming up"
	checkerReady    = "ready"
	checkerFailed   = "failed"
	checkerDisabled = "disabled"  // --tscheck-workers 0
	checkerNotBuilt = "not built" // no typescript image
)

// start starts the workers and waits until they are warm or ctx ends.
func (c *checker) start(ctx context.Context, log *slog.Logger) {
	t := time.Now()
	err := c.pool.Start(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.state, c.err = checkerFailed, err
		if ctx.Err() == nil {
			log.Error("the TypeScript checker failed to start; /v1/typescript/check answers 503", "err", err)
		}
		return
	}
	c.state = checkerReady
	log.Info("TypeScript checker ready", "took", time.Since(t).Round(time.Millisecond).String())
}

// status reports the checker's part of /readyz.
func (c *checker) status() map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := map[string]any{"ready": c.state == checkerReady, "state": c.state}
	if c.state == checkerReady {
		st["typeScriptVersion"] = c.pool.Version()
	}
	if c.err != nil {
		st["error"] = c.err.Error()
	}
	return st
}

func (c *checker) Check(ctx context.Context, req *server.CheckRequest) (any, error) {
	var opts tscheck.CompilerOptions
	if req.TsconfigPath != "" {
		text, ok := req.Files[req.TsconfigPath]
		if !ok {
			return nil, exec.Errorf(exec.EInvalid, "tsconfigPath %q is not one of the files", req.TsconfigPath)
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
			return nil, exec.Errorf(exec.EInvalid, "compilerOptions: %v", err)
		}
	}
	c.mu.Lock()
	state, startErr := c.state, c.err
	c.mu.Unlock()
	switch state {
	case checkerWarming:
		return nil, exec.Errorf(exec.EUnavailable, "the TypeScript checker is still warming up (about 10 s after the server starts); retry shortly (GET /readyz says when it is ready)")
	case checkerFailed:
		return nil, exec.Errorf(exec.EUnavailable, "the TypeScript checker failed to start: %v", startErr)
	}
	started := time.Now()
	res, err := c.pool.Check(ctx, tscheck.Request{
		Code:            req.Code,
		Files:           req.Files,
		FilePath:        req.FilePath,
		CompilerOptions: opts,
		Timeout:         time.Duration(req.TimeoutMs) * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	rec := &exec.Result{
		ExecutionID:   exec.NewID("exe"),
		Kind:          exec.KindTypeScriptCheck,
		Language:      exec.TypeScript,
		Outcome:       res.Outcome,
		Error:         res.Error,
		StartedAtMs:   exec.Millis(started),
		CompletedAtMs: exec.Millis(time.Now()),
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

// loadingChecker answers checks while the guest images load, before the
// checker exists: 503 with Retry-After, like a checker warming up.
type loadingChecker struct{}

func (loadingChecker) Check(context.Context, *server.CheckRequest) (any, error) {
	return nil, exec.Errorf(exec.EUnavailable, "the server is still loading; the TypeScript checker starts after the guest images (see /readyz)")
}

// tscheckWorker is `wasmexec tscheck-worker`: one checker worker process,
// speaking the pool's protocol on stdin/stdout.
func tscheckWorker() error {
	return tscheck.WorkerMain(os.Stdin, os.Stdout)
}
