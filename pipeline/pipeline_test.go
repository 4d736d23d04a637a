package pipeline_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/pipeline/pipelinetest"
)

// These tests run the pipeline's steps around a fake driver
// (pipelinetest): what they check is the order and the contracts of the
// steps, not a guest.

// fakeStore records saves and fails them with err when set.
type fakeStore struct {
	mu    sync.Mutex
	saved []*wasmexec.Result
	err   error
	pings int
}

func (s *fakeStore) Save(_ context.Context, r *wasmexec.Result, _ []wasmexec.Event, _ bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.saved = append(s.saved, r)
	return nil
}

func (s *fakeStore) Ping(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pings++
	return s.err
}

type fakeTenants struct {
	mu      sync.Mutex
	running int
	max     int
}

func (f *fakeTenants) StartRun(context.Context) (func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running >= f.max {
		return nil, wasmexec.Errorf(wasmexec.EQuota, "quota maxConcurrentRuns (%d) reached", f.max)
	}
	f.running++
	return func() { f.mu.Lock(); f.running--; f.mu.Unlock() }, nil
}

func newPipeline(t *testing.T, cfg pipeline.Config) *pipeline.Pipeline {
	t.Helper()
	if cfg.Driver == nil {
		cfg.Driver = &pipelinetest.Driver{}
	}
	cfg.Languages = map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: fakeLang{}}
	cfg.Policy = wasmexec.DefaultPolicy()
	p, err := pipeline.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeLang is the JavaScript driver's control request for the fake image.
type fakeLang struct{}

func (fakeLang) Image() string { return pipelinetest.Image }
func (fakeLang) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	return js.Driver{}.Prepare(ctx, req)
}

// run runs code and says how often opts.Started was called; a call with
// an error other than the one Run returns counts as -1.
func run(p *pipeline.Pipeline, ctx context.Context, code string, opts wasmexec.RunOptions) (*wasmexec.Result, error, int) {
	calls := 0
	var startedErr error
	opts.Started = func(err error) { calls++; startedErr = err }
	res, err := p.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: code}, opts)
	if startedErr != nil && startedErr != err {
		calls = -1
	}
	return res, err, calls
}

func TestStepsInOrder(t *testing.T) {
	ctx := context.Background()
	down := errors.New("disk gone")
	for _, tc := range []struct {
		name     string
		cfg      func(*pipeline.Config, *fakeStore)
		opts     wasmexec.RunOptions
		code     string
		wantCode string // the run's error code, "" for a result
		saved    int
	}{
		{name: "a result is saved before it is returned", code: "42", saved: 1},
		{name: "a guest failure is a result", code: "throw boom", saved: 1},
		{name: "not ready: unavailable, nothing runs", cfg: func(c *pipeline.Config, _ *fakeStore) {
			c.Ready = func() error { return wasmexec.Errorf(wasmexec.EUnavailable, "loading") }
		}, code: "1", wantCode: wasmexec.EUnavailable},
		{name: "the tenant's quota: refused before a slot", cfg: func(c *pipeline.Config, _ *fakeStore) {
			c.Tenants = &fakeTenants{max: 0}
		}, code: "1", wantCode: wasmexec.EQuota},
		{name: "a record that could not be stored is the run's error", cfg: func(_ *pipeline.Config, s *fakeStore) {
			s.err = down
		}, code: "1", wantCode: wasmexec.EInternal},
		{name: "a store that can't be reached is unavailable", cfg: func(_ *pipeline.Config, s *fakeStore) {
			s.err = wasmexec.Errorf(wasmexec.EUnavailable, "no connection")
		}, code: "1", wantCode: wasmexec.EUnavailable},
		{name: "a process's exit is reported even when its record is lost", cfg: func(_ *pipeline.Config, s *fakeStore) {
			s.err = down
		}, opts: wasmexec.RunOptions{Kind: wasmexec.KindProcess}, code: "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &fakeStore{}
			cfg := pipeline.Config{}
			if tc.cfg != nil {
				tc.cfg(&cfg, st)
			}
			cfg.Recorder = pipeline.NewRecorder(st, nil)
			p := newPipeline(t, cfg)
			res, err, started := run(p, ctx, tc.code, tc.opts)
			if started != 1 {
				t.Fatalf("Started was called %d times (want exactly once, and with the error when Run fails)", started)
			}
			if tc.wantCode != "" {
				if wasmexec.ErrorCode(err) != tc.wantCode || res != nil {
					t.Fatalf("got %v %+v, want error %s", err, res, tc.wantCode)
				}
			} else if err != nil || res == nil {
				t.Fatalf("got %v, want a result", err)
			}
			if len(st.saved) != tc.saved {
				t.Fatalf("%d records saved, want %d", len(st.saved), tc.saved)
			}
		})
	}
}

// After a record could not be stored because the store is unreachable,
// new runs are refused at once until a ping gets through.
func TestStoreDownRefusesRuns(t *testing.T) {
	st := &fakeStore{err: wasmexec.Errorf(wasmexec.EUnavailable, "no connection")}
	d := &pipelinetest.Driver{}
	p := newPipeline(t, pipeline.Config{Driver: d, Recorder: pipeline.NewRecorder(st, nil)})
	if _, err, _ := run(p, context.Background(), "1", wasmexec.RunOptions{}); wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
		t.Fatalf("first run: %v", err)
	}
	calls := d.Calls.Load()
	if _, err, _ := run(p, context.Background(), "1", wasmexec.RunOptions{}); wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
		t.Fatalf("second run: %v", err)
	}
	if d.Calls.Load() != calls {
		t.Fatal("a run reached a guest while the store was down")
	}
}

// Each one-shot or context run publishes execution.started when it is
// under way and execution.completed with its outcome; a process's are its
// spawner's.
func TestRunEvents(t *testing.T) {
	hub := events.New(0)
	p := newPipeline(t, pipeline.Config{Events: hub})
	ctx := wasmexec.WithRequestID(context.Background(), "req-1")
	if _, err, _ := run(p, ctx, "7", wasmexec.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err, _ := run(p, ctx, "7", wasmexec.RunOptions{Kind: wasmexec.KindProcess}); err != nil {
		t.Fatal(err)
	}
	page := hub.Read(ctx, 0, 10, func(*events.Event) bool { return true })
	if len(page.Events) != 2 || page.Events[0].Type != events.ExecutionStarted || page.Events[1].Type != events.ExecutionCompleted ||
		page.Events[1].Outcome != string(wasmexec.Succeeded) || page.Events[0].RequestID != "req-1" {
		t.Fatalf("events: %+v", page.Events)
	}
}

// A run holding its slot past the queue's patience makes the next one
// overloaded; its deadline ends it as timed_out, a result.
func TestSlotsAndDeadline(t *testing.T) {
	p := newPipeline(t, pipeline.Config{MaxConcurrent: 1, MaxQueued: 1, QueueTimeout: 10 * time.Millisecond})
	done := make(chan *wasmexec.Result)
	go func() {
		res, _ := p.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "block", TimeoutMs: 2000}, wasmexec.RunOptions{})
		done <- res
	}()
	poll.Until(t, time.Minute, "the first run to take its slot", func() bool { return p.Live() == 1 })
	if _, err, _ := run(p, context.Background(), "1", wasmexec.RunOptions{}); wasmexec.ErrorCode(err) != wasmexec.EOverloaded {
		t.Fatalf("second run: %v", err)
	}
	if res := <-done; res.Outcome != wasmexec.TimedOut {
		t.Fatalf("blocked run: %+v", res)
	}
}

// The validate step refuses a bad outputs option before any guest, for
// every caller of the pipeline (HTTP, MCP, contexts), not only HTTP.
func TestValidateRefusesBadOutputs(t *testing.T) {
	d := &pipelinetest.Driver{}
	p := newPipeline(t, pipeline.Config{Driver: d})
	for _, tc := range []struct {
		name    string
		formats []string
	}{
		{"unknown format", []string{"jpeg"}},
		{"too many", []string{"png", "svg", "png"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "1",
				Outputs: &wasmexec.OutputsOptions{Formats: tc.formats}}
			if _, err := p.Run(context.Background(), req, wasmexec.RunOptions{}); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("got %v, want invalid_argument", err)
			}
		})
	}
	if d.Calls.Load() != 0 {
		t.Fatal("a run with bad outputs reached a guest")
	}
}
