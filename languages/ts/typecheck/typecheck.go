// Package typecheck is the TypeScript type-check service behind POST
// /v1/typescript/check, GET /v1/typescript and the MCP typescript_check
// tool: it builds the checkers of package tscheck from the typescript guest
// image, picks one by the request's typescriptVersion, reports their
// warm-up in /readyz, and records each check as a completed execution
// (kind typescript_check) with its diagnostics.
//
// TypeScript 7 (tscheck.NativePool) is the default and warms up in well
// under a second after runs are served; TypeScript 5.9 (tscheck.Pool, in
// goja) serves requests with "typescriptVersion": "5.9" and starts on the
// first of them, so its warm-up (seconds of CPU) costs nothing to servers
// whose clients never pin it.
package typecheck

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
)

// Config says which checkers to build and how.
type Config struct {
	// ImageDir is the typescript guest image (build/images/typescript):
	// ts7/tsc is TypeScript 7, typescript.js is 5.9.
	ImageDir string
	// Workers are TypeScript 7's worker processes (0: no checker).
	Workers int
	// LegacyWorkers are TypeScript 5.9's (0: 5.9 disabled).
	LegacyWorkers int
	// MemoryLimitBytes caps each worker (0: no cap).
	MemoryLimitBytes int64
	// Nice is the nice value of warm-ups (0: no change).
	Nice int
	// WarmDOM warms the dom lib: in TypeScript 7's warm-up, in idle 5.9
	// workers once started. PrewarmDOM also warms it in 5.9's start.
	WarmDOM, PrewarmDOM bool
	// NativeLaunch is the command that becomes TypeScript 7's compiler
	// (`wasmexec tscheck7-launch`, tscheck.LaunchMain); LegacyWorker is a
	// 5.9 worker's (`wasmexec tscheck-worker`, tscheck.WorkerMain).
	NativeLaunch, LegacyWorker []string
	// Persist records each check (nil: not recorded).
	Persist func(ctx context.Context, r *wasmexec.Result, log *wasmexec.OutputLog) error
	Logger  *slog.Logger
}

// New builds the checkers, not started (Start). When there is nothing to
// build it returns nil and why: Disabled or NotBuilt.
func New(cfg Config) (*Service, string, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir := cfg.ImageDir
	ts7, ts59 := exists(filepath.Join(dir, "ts7", "tsc")), exists(filepath.Join(dir, "typescript.js"))
	switch {
	case cfg.Workers == 0:
		return nil, Disabled, nil
	case !ts59 && !ts7:
		log.Warn("TypeScript checker image not built; /v1/typescript/check is unavailable (run make guest-images)", "dir", dir)
		return nil, NotBuilt, nil
	}
	var native *tscheck.NativePool
	if ts7 {
		// The default lib set last: a worker keeps the last project open,
		// and the first check updates it rather than load another.
		warm := [][]string{{"es2022"}}
		if cfg.WarmDOM || cfg.PrewarmDOM {
			warm = [][]string{{"es2022", "dom"}, {"es2022"}}
		}
		var err error
		native, err = tscheck.NewNativePool(tscheck.NativeConfig{
			Size:             cfg.Workers,
			Dir:              filepath.Join(dir, "ts7"),
			MemoryLimitBytes: cmp.Or(cfg.MemoryLimitBytes, -1), // 0: no cap
			WarmLibs:         warm,
			WarmNice:         cmp.Or(cfg.Nice, -1),
			LaunchCommand:    cfg.NativeLaunch,
			Logger:           log,
		})
		if err != nil {
			return nil, "", err
		}
	} else {
		log.Warn("TypeScript 7 is not in the typescript image; checks need typescriptVersion 5.9 until it is rebuilt (make guest-images)", "dir", dir)
	}
	var legacy *tscheck.Pool
	if cfg.LegacyWorkers > 0 && ts59 {
		prewarm := [][]string{{"es2022"}}
		if cfg.PrewarmDOM {
			prewarm = append(prewarm, []string{"es2022", "dom"})
		}
		var err error
		legacy, err = tscheck.NewPool(tscheck.PoolConfig{
			Size:             cfg.LegacyWorkers,
			WorkerCommand:    cfg.LegacyWorker,
			ImageDir:         dir,
			MemoryLimitBytes: cmp.Or(cfg.MemoryLimitBytes, -1), // 0: no cap
			PrewarmLibs:      prewarm,
			BackgroundLibs:   backgroundLibs(cfg.WarmDOM),
			Nice:             max(cfg.Nice, 0),
			Logger:           log,
		})
		if err != nil {
			if native != nil {
				native.Close()
			}
			return nil, "", err
		}
	}
	return newService(native, legacy, cfg.Persist, log), "", nil
}

// backgroundLibs are the lib sets checker workers warm when idle: dom, or
// nothing (an empty, non-nil list).
func backgroundLibs(dom bool) [][]string {
	if dom {
		return [][]string{{"es2022", "dom"}}
	}
	return [][]string{}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Part is the checker's part of /readyz: s's status, or why there is no
// service (Disabled, NotBuilt; "" while the server has not built it yet).
func Part(s *Service, why string) map[string]any {
	switch {
	case s != nil:
		return s.Status()
	case why != "":
		return map[string]any{"ready": false, "state": why}
	}
	return map[string]any{"ready": false, "state": loading}
}

// Loading answers checks while the server loads its guest images, before
// the checkers exist: 503, like a checker warming up.
type Loading struct{}

// Check answers unavailable.
func (Loading) Check(context.Context, *wasmexec.TypeScriptCheckRequest) (any, error) {
	return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is still loading; the TypeScript checker starts after the guest images (see /readyz)")
}

// Service is the checkers behind POST /v1/typescript/check (a
// server.Checker): it picks one by typescriptVersion and records each
// check.
type Service struct {
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
	checkerWarming = "warming up"
	checkerReady   = "ready"
	checkerFailed  = "failed"
	checkerIdle    = "idle (starts on first use)"
	// Disabled: no checker workers asked for (Config.Workers 0).
	Disabled = "disabled"
	// NotBuilt: no typescript image.
	NotBuilt = "not built"
	// loading: the server has not built its checkers yet.
	loading = "loading"
)

// newService is the service over the pools (either may be nil).
func newService(native *tscheck.NativePool, legacy *tscheck.Pool, persist func(context.Context, *wasmexec.Result, *wasmexec.OutputLog) error, log *slog.Logger) *Service {
	c := &Service{native: native, legacy: legacy, persist: persist, log: log, state: checkerWarming,
		done: make(chan struct{}), legacyDone: make(chan struct{}), closing: make(chan struct{})}
	if native == nil {
		c.state, c.err = checkerFailed, errNoTS7
		close(c.done)
	}
	return c
}

var errNoTS7 = wasmexec.Errorf(wasmexec.EUnavailable, "TypeScript 7 is not in the typescript image (rebuild it: guest-images/build-cached.sh typescript)")

// Start starts TypeScript 7's workers and waits until they are warm or
// ctx ends.
func (c *Service) Start(ctx context.Context) {
	log := c.log
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
func (c *Service) startLegacy() {
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

// Close stops the workers.
func (c *Service) Close() {
	close(c.closing)
	if c.native != nil {
		c.native.Close()
	}
	if c.legacy != nil {
		c.legacy.Close()
	}
}

// versionStatus is one checker's part of /readyz and GET /v1/typescript.
func (c *Service) versionStatus(major string) map[string]any {
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
		st := map[string]any{"major": "5.9", "ready": false, "state": Disabled, "default": false}
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

// Status reports the checkers' part of /readyz: TypeScript 7's state (the
// default checker) and each version's.
func (c *Service) Status() map[string]any {
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

// Info is GET /v1/typescript (a server.CheckerInfo).
func (c *Service) Info() any {
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

// Check checks req with the checker its typescriptVersion picks and
// records it as a completed execution; type errors are a result
// (hasErrors), not an error.
func (c *Service) Check(ctx context.Context, req *wasmexec.TypeScriptCheckRequest) (any, error) {
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

func (c *Service) checkNative(ctx context.Context, req *wasmexec.TypeScriptCheckRequest) (*tscheck.Result, error) {
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

func (c *Service) checkLegacy(ctx context.Context, req *wasmexec.TypeScriptCheckRequest) (*tscheck.Result, error) {
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
