package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"time"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/server"
)

// checker adapts tscheck.Pool to server.Checker and records each check as a
// completed execution (kind typescript_check) with its diagnostics.
type checker struct {
	pool    *tscheck.Pool
	persist func(ctx context.Context, r *exec.Result, log *exec.OutputLog) error
}

func (c *checker) Check(ctx context.Context, req *server.CheckRequest) (any, error) {
	var opts tscheck.CompilerOptions
	if len(req.CompilerOptions) > 0 {
		dec := json.NewDecoder(bytes.NewReader(req.CompilerOptions))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return nil, exec.Errorf(exec.EInvalid, "compilerOptions: %v", err)
		}
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

// tscheckWorker is `wasmexec tscheck-worker`: one checker worker process,
// speaking the pool's protocol on stdin/stdout.
func tscheckWorker() error {
	return tscheck.WorkerMain(os.Stdin, os.Stdout)
}
