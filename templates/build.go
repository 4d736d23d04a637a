package templates

// A template's build: a workspace of its own, a kept guest started in it,
// one run of the pipeline (packages staged and copied in, files seeded,
// the setup code executed: limits, timeout, quota and record as for any
// run, the record of kind template_build), then the guest captured into
// the template's record. A build that fails at any step leaves nothing
// behind but the descriptor saying why.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Failure codes of a build (wasmexec.Template.Error.Code), besides the run's
// own (cpu_limit, memory_limit, timeout, quota_exceeded, exception, ...).
const (
	CodeStateTooLarge = "template_state_too_large"
	CodeBuildFailed   = "template_build_failed"
)

// startBuildLocked starts t's build on behalf of from (its tenant and
// request id are the build's: its record is theirs). m.mu held.
func (m *Manager) startBuildLocked(t *tmpl, from context.Context) {
	if from == nil {
		// A template loaded from its record (a rebuild after a restart):
		// the build is still its tenant's, whose record it leaves.
		from = context.Background()
		if t.d.Tenant != "" {
			from = wasmexec.WithTenant(from, &wasmexec.Tenant{ID: t.d.Tenant})
		}
	}
	t.build = context.WithoutCancel(from)
	ctx, cancel := context.WithCancel(t.build)
	stop := context.AfterFunc(m.ctx, cancel)
	done := make(chan struct{})
	t.d.State, t.d.Error, t.done, t.cancel = wasmexec.TemplateBuilding, nil, done, cancel
	d := describe(t)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer stop()
		defer cancel()
		defer close(done)
		m.emit(EventBuilding, d)
		m.build(ctx, t)
	}()
}

// built is what a build made: its record (a temporary file, renamed into
// place once the build is accepted) and workspace.
type built struct {
	tmp      string
	off      int64
	ws       string
	packages []wasmexec.TemplatePackage
	state    int64
	wsBytes  int64
	execID   string
}

func (b *built) discard() {
	if b == nil {
		return
	}
	if b.tmp != "" {
		os.Remove(b.tmp)
	}
	if b.ws != "" {
		os.RemoveAll(b.ws)
	}
}

// build runs t's build to its end: ready, failed, or (the server closing)
// building still, to be built again at the next start.
func (m *Manager) build(ctx context.Context, t *tmpl) {
	var gen int64
	if m.cfg.Shared != nil {
		// The lease is renewed from the start: a build waiting for its
		// slot is this node's too.
		m.mu.Lock()
		gen = t.gen
		stop := t.cancel
		m.mu.Unlock()
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go m.renewShared(rctx, t, gen, stop)
	}
	select {
	case m.builds <- struct{}{}:
		defer func() { <-m.builds }()
	case <-ctx.Done():
	}
	m.mu.Lock()
	spec, key := t.spec, t.key
	m.mu.Unlock()
	var b *built
	var failure *wasmexec.ErrorData
	if ctx.Err() == nil {
		b, failure = m.make(ctx, t, spec, key)
	}
	if m.cfg.Shared != nil {
		m.finishShared(ctx, t, gen, b, failure)
		return
	}
	m.mu.Lock()
	if t.deleted || m.closed || (ctx.Err() != nil && failure == nil) {
		// Deleted or closing: nothing to keep (a template found building
		// at the next start is built again from its record).
		m.mu.Unlock()
		b.discard()
		return
	}
	if failure == nil {
		failure = m.admitLocked(ctx, t, b)
	}
	if failure != nil {
		b.discard()
		if b != nil && b.execID != "" {
			t.d.BuildExecutionID = b.execID
		}
		t.d.State, t.d.Error, t.d.StateBytes, t.d.WorkspaceBytes, t.cancel = wasmexec.TemplateFailed, failure, 0, 0, nil
		t.d.Builds++
		t.spec.Files = nil // its recipe's files go too: a failed build holds nothing (its descriptor lists their names)
		if err := m.writeRecord(t, nil); err != nil {
			m.log.Error("write a failed template's record", "templateId", t.d.TemplateID, "err", err)
		}
		d := describe(t)
		m.mu.Unlock()
		m.log.Info("template build failed", "templateId", d.TemplateID, "code", failure.Code, "reason", failure.Message)
		m.emit(EventFailed, d)
		return
	}
	path := m.recordPath(t.d.TemplateID)
	if err := commit(b.tmp, path); err != nil {
		m.mu.Unlock()
		b.discard()
		m.fail(t, &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its record could not be written: " + err.Error()})
		return
	}
	t.cur = &generation{record: path, off: b.off, ws: b.ws}
	t.d.State, t.d.Error, t.cancel = wasmexec.TemplateReady, nil, nil
	t.d.ReadyAtMs = m.cfg.Now().UnixMilli()
	t.d.Builds++
	m.usedLocked(t)
	d := describe(t)
	evicted := m.evictLocked()
	m.mu.Unlock()
	m.log.Info("template ready", "templateId", d.TemplateID, "stateBytes", d.StateBytes, "workspaceBytes", d.WorkspaceBytes)
	m.emit(EventReady, d)
	for _, e := range evicted {
		m.emit(EventDeleted, e)
	}
}

// fail ends t's build failed after its output was accepted and could not
// be kept.
func (m *Manager) fail(t *tmpl, failure *wasmexec.ErrorData) {
	m.mu.Lock()
	t.d.State, t.d.Error, t.d.StateBytes, t.d.WorkspaceBytes, t.cancel = wasmexec.TemplateFailed, failure, 0, 0, nil
	t.spec.Files = nil
	m.writeRecord(t, nil)
	d := describe(t)
	m.mu.Unlock()
	m.emit(EventFailed, d)
}

// admitLocked fills t's descriptor from b, after checking the tenant's
// maxTemplateBytes: what the tenant's other templates hold plus b's is
// counted here, under the manager's lock, so concurrent builds can't
// together pass it. Implicit templates are the server's (bounded by
// MaxImplicitBytes). m.mu held.
func (m *Manager) admitLocked(ctx context.Context, t *tmpl, b *built) *wasmexec.ErrorData {
	size := b.state + b.wsBytes
	quota := t.quota // held to it when rebuilt after a restart too
	if tn := wasmexec.TenantFrom(ctx); tn != nil && tn.Quotas.MaxTemplateBytes != nil {
		quota = tn.Quotas.MaxTemplateBytes
	}
	if quota != nil && !t.d.Implicit {
		used := int64(0)
		for _, o := range m.byID {
			if o != t && !o.deleted && !o.d.Implicit && o.d.Tenant == t.d.Tenant {
				used += o.d.Bytes()
			}
		}
		if used+size > *quota {
			return quotaData(*quota, used, b)
		}
	}
	t.d.Packages, t.d.StateBytes, t.d.WorkspaceBytes, t.d.BuildExecutionID = b.packages, b.state, b.wsBytes, b.execID
	return nil
}

// make builds spec's template: its workspace and its record in a
// temporary file, or the failure.
func (m *Manager) make(ctx context.Context, t *tmpl, spec wasmexec.TemplateSpec, key string) (*built, *wasmexec.ErrorData) {
	ws, err := m.ws.New(workspacePrefix)
	if err != nil {
		return nil, &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its workspace could not be made: " + err.Error()}
	}
	b := &built{ws: ws.Root}
	m.mu.Lock()
	mem := t.d.MemoryBytes
	m.mu.Unlock()
	g, err := m.cfg.Runner.StartGuest(ctx, wasmexec.GuestSpec{Language: spec.Language, Env: spec.Env, MemoryBytes: mem, Workspace: ws.Root})
	if err != nil {
		b.discard()
		return nil, errorData(err, "its guest could not be started")
	}
	captured := false
	defer func() {
		if !captured {
			g.Close()
		}
	}()
	code := spec.SetupCode
	if key != "" {
		code = implicitSetup(spec.Language, spec.Packages)
	}
	if strings.TrimSpace(code) == "" {
		code = noSetup(spec.Language)
	}
	limits := spec.Limits
	limits.MemoryBytes = mem
	req := &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: spec.Language, Code: code, Packages: spec.Packages, Files: spec.Files, Env: spec.Env, Limits: limits, TimeoutMs: spec.TimeoutMs}
	res, err := m.cfg.Runner.Run(ctx, req, wasmexec.RunOptions{Guest: g, Kind: wasmexec.KindTemplateBuild, Quota: ws.Watch("the template's build")})
	if err != nil {
		b.discard()
		return nil, errorData(err, "its setup run could not run")
	}
	b.execID = res.ExecutionID
	if res.Outcome != wasmexec.Succeeded {
		b.discard()
		f := res.Error
		if f == nil {
			f = &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its setup run ended " + string(res.Outcome)}
		}
		f = withPrefix(f, "its setup run: ")
		return b, f
	}
	seal(ctx, spec.Language, g)
	if !g.Alive() {
		b.discard()
		return b, &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its guest did not survive its setup run"}
	}
	if u, err := ws.Check(ctx); err == nil && u.Over() {
		b.discard()
		return b, withPrefix(u.Failure("the template's build"), "")
	}
	if b.wsBytes, err = ws.Usage(); err != nil {
		b.discard()
		return b, &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its workspace could not be measured: " + err.Error()}
	}
	b.packages = resolvedPackages(spec, res, ws.Root)
	// A template's state is laid out for runs to map (wasmexec.TemplateCapturer);
	// a guest that can't do that is captured as a context's would be.
	capture := func(w io.WriterAt) (int64, error) {
		return 0, wasmexec.Errorf(wasmexec.EConflict, "its guest can't be captured")
	}
	if tc, ok := g.(wasmexec.TemplateCapturer); ok {
		capture = func(w io.WriterAt) (int64, error) { return tc.CaptureTemplateTo(ctx, false, w) }
	} else if fc, ok := g.(wasmexec.FileCapturer); ok {
		capture = func(w io.WriterAt) (int64, error) { return fc.CaptureTo(ctx, false, w) }
	}
	// The record's head says ready with what is known now; its state's
	// size is the file's (durable.go).
	m.mu.Lock()
	head := *t
	head.d.State, head.d.Error = wasmexec.TemplateReady, nil
	head.d.Packages, head.d.WorkspaceBytes, head.d.BuildExecutionID = b.packages, b.wsBytes, b.execID
	head.d.ReadyAtMs, head.d.Builds = m.cfg.Now().UnixMilli(), head.d.Builds+1
	m.mu.Unlock()
	bw := &bounded{max: m.cfg.MaxStateBytes}
	tmp, off, n, err := m.writeTemp(&head, b.ws, func(w io.WriterAt) (int64, error) {
		bw.w = w
		return capture(bw)
	})
	captured = err == nil // a failed capture leaves the guest as it was
	switch {
	case err != nil && bw.over.Load():
		err = nil // the size says it all
	case err != nil:
		b.discard()
		return b, errorData(err, "its guest could not be captured")
	}
	if n > m.cfg.MaxStateBytes {
		if tmp != "" {
			os.Remove(tmp)
		}
		b.discard()
		return b, &wasmexec.ErrorData{Code: CodeStateTooLarge, Name: "TemplateTooLarge",
			Message: fmt.Sprintf("its state is %d bytes, more than --template-max-state-bytes (%d)", n, m.cfg.MaxStateBytes),
			Details: map[string]any{"maxStateBytes": m.cfg.MaxStateBytes, "stateBytes": n}}
	}
	b.tmp, b.off, b.state = tmp, off, n
	return b, nil
}

// bounded refuses writes past max: a state larger than a template may
// hold stops its capture rather than fill the disk first (the capture
// still reports the state's size).
type bounded struct {
	w    io.WriterAt
	max  int64
	over atomic.Bool
}

func (b *bounded) WriteAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > b.max {
		b.over.Store(true)
		return 0, fmt.Errorf("the state passes %d bytes", b.max)
	}
	return b.w.WriteAt(p, off)
}

// errorData turns a service or client error of a build into its failure.
func errorData(err error, what string) *wasmexec.ErrorData {
	code := wasmexec.ErrorCode(err)
	if code == wasmexec.EInternal || code == "" {
		code = CodeBuildFailed
	}
	return &wasmexec.ErrorData{Code: code, Message: what + ": " + wasmexec.ErrorMessage(err)}
}

func withPrefix(f *wasmexec.ErrorData, prefix string) *wasmexec.ErrorData {
	c := *f
	c.Message = prefix + c.Message
	return &c
}

// noSetup is a setup run that does nothing, for a template of packages
// and files only.
func noSetup(lang wasmexec.Language) string {
	if lang == wasmexec.Python {
		return "pass"
	}
	return "undefined"
}

// resolvedPackages says which versions the build installed: Python's from
// its run's record (extra.packages.installed), npm's from the package.json
// of each package asked for.
func resolvedPackages(spec wasmexec.TemplateSpec, res *wasmexec.Result, ws string) []wasmexec.TemplatePackage {
	out := []wasmexec.TemplatePackage{}
	if len(spec.Packages) == 0 {
		return out
	}
	if spec.Language == wasmexec.Python {
		var extra struct {
			Packages struct {
				Installed []wasmexec.TemplatePackage `json:"installed"`
			} `json:"packages"`
		}
		if json.Unmarshal(res.Extra, &extra) == nil {
			for _, p := range extra.Packages.Installed {
				out = append(out, wasmexec.TemplatePackage{Name: p.Name, Version: p.Version})
			}
		}
		return out
	}
	for _, p := range spec.Packages {
		name := npmName(p)
		b, err := os.ReadFile(filepath.Join(ws, "node_modules", filepath.FromSlash(name), "package.json"))
		var pj struct {
			Version string `json:"version"`
		}
		if err == nil && json.Unmarshal(b, &pj) == nil {
			out = append(out, wasmexec.TemplatePackage{Name: name, Version: pj.Version})
		}
	}
	return out
}

// npmName is the name of an npm package spec (name@range, @scope/name@range).
func npmName(spec string) string {
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return spec
	}
	return spec[:at]
}

// sealCode is what runs in a Python template's guest after its setup,
// before the capture: a collection, then gc.freeze(), which moves every
// object the setup left into the collector's permanent generation. A
// collection in a run from the template (matplotlib's end of a run that
// drew text collects in full, to close its fonts) then never walks the
// template's objects; walking them wrote to each one's header, and in a
// run from the template each page so written is a copy-on-write fault
// (~4,900 pages for a matplotlib template: ~20 ms of CPU per run, more
// than the same run in a context spends). Frozen objects are still freed
// by their reference counts; only garbage cycles among them stay (a
// context made from the template keeps a cycle of the setup's objects it
// drops), as for the image's own objects, which its build froze.
const sealCode = "__import__('gc').collect()\n__import__('gc').freeze()"

// seal readies a built guest for its capture (Python: sealCode). It is an
// optimization only: a failure leaves the guest as its setup did, and a
// guest it killed is found dead by the caller.
func seal(ctx context.Context, lang wasmexec.Language, g wasmexec.Guest) {
	if lang != wasmexec.Python {
		return
	}
	payload, err := wasmexec.ControlRequest{Op: string(wasmexec.KindEvaluate), Code: sealCode, Filename: "<template>"}.Payload()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, sealTimeout)
	defer cancel()
	g.Call(ctx, wasmexec.CallInput{Payload: payload, Fuel: sealFuel, Output: wasmexec.NewOutput("", 4<<10, nil)})
}

// sealTimeout and sealFuel bound seal (a collection of a large heap takes
// tens of milliseconds).
const (
	sealTimeout = 10 * time.Second
	sealFuel    = 2_000_000_000
)
