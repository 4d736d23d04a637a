package wasmexec

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Install is what an npm or pip install into a context shares: its
// timeout rule and its history record (kind npm_install or pip_install).
type Install struct {
	Kind      Kind
	Language  Language
	ContextID string
	// Tool names the install in messages ("npm install").
	Tool string
	// Unchanged says what a failed install left alone ("the workspace is
	// unchanged"); it ends every error message.
	Unchanged string
	Timeout   time.Duration
	Started   time.Time
}

// progressKey carries an install's progress observer in a ctx.
type progressKey struct{}

// WithInstallProgress returns ctx carrying progress, told each progress
// line of the install it asks for as it happens (the MCP tools send them
// on as progress notifications). Like WithLiveOutput, it is request-scoped
// and crosses the guards around the install services unchanged.
func WithInstallProgress(ctx context.Context, progress func(line string)) context.Context {
	return context.WithValue(ctx, progressKey{}, progress)
}

// InstallProgress returns the observer WithInstallProgress put in ctx, or
// nil.
func InstallProgress(ctx context.Context) func(line string) {
	p, _ := ctx.Value(progressKey{}).(func(string))
	return p
}

// ProgressLog returns the Progress function of an install: each line is
// appended to out (the record's stdout) and told to ctx's observer.
func ProgressLog(ctx context.Context, out *strings.Builder) func(line string) {
	tell := InstallProgress(ctx)
	return func(line string) {
		out.WriteString(line + "\n")
		if tell != nil {
			tell(line)
		}
	}
}

// InstallTimeout is the timeout of an install asking for timeoutMs (0:
// def), refused with EInvalid when negative or over max.
func InstallTimeout(timeoutMs int64, def, max time.Duration) (time.Duration, error) {
	if timeoutMs < 0 {
		return 0, Errorf(EInvalid, "timeoutMs must not be negative")
	}
	timeout := def
	if timeoutMs > 0 {
		timeout = time.Duration(timeoutMs) * time.Millisecond
	}
	if timeout > max {
		return 0, Errorf(EInvalid, "timeoutMs is over the maximum %d", max.Milliseconds())
	}
	return timeout, nil
}

// InstallRecord builds the completed record of the install from its outcome: err
// nil is success; the end of the install's own deadline is timed_out, of
// ctx (the caller's) cancelled; an error failure recognizes (returning
// non-nil) is failed with that error data; any other error is a service
// failure, returned as is. stdout is the progress log, req the request
// (kept as the record's code) and installed its packages (extra).
func InstallRecord[P any](ctx context.Context, in Install, err error, failure func(error) *ErrorData, stdout string, req any, installed []P) (*Result, []P, error) {
	rec := &Result{
		ExecutionID:   NewID("exe"),
		Kind:          in.Kind,
		Language:      in.Language,
		ContextID:     in.ContextID,
		Outcome:       Succeeded,
		StartedAtMs:   Millis(in.Started),
		CompletedAtMs: Millis(time.Now()),
		DurationMs:    float64(time.Since(in.Started).Microseconds()) / 1000,
	}
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		rec.Outcome = TimedOut
		rec.Error = &ErrorData{Code: "timeout", Name: "TimeoutError", Message: in.Tool + " did not finish within " + in.Timeout.String() + "; " + in.Unchanged}
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		rec.Outcome = Cancelled
		rec.Error = &ErrorData{Code: "cancelled", Message: in.Tool + " was cancelled; " + in.Unchanged}
	default:
		data := failure(err)
		if data == nil {
			return nil, nil, err
		}
		rec.Outcome, rec.Error = Failed, data
	}
	if rec.Outcome != Succeeded || installed == nil {
		installed = []P{}
	}
	rec.Stdout = &stdout
	body, _ := json.Marshal(req)
	rec.Code = string(body)
	rec.Extra, _ = json.Marshal(map[string]any{"installed": installed})
	return rec, installed, nil
}
