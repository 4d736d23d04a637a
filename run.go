package wasmexec

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Request is one evaluate or execute call, as the HTTP API receives it.
type Request struct {
	Kind      Kind              `json:"-"`
	Language  Language          `json:"language"`
	Code      string            `json:"code"`
	ContextID string            `json:"contextId,omitempty"`
	Inputs    json.RawMessage   `json:"inputs,omitempty"`
	Stdin     string            `json:"stdin,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	Files     map[string]string `json:"files,omitempty"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	Limits    Limits            `json:"limits"`
	Output    OutputOptions     `json:"output"`
	Format    string            `json:"format,omitempty"`
	// FilePath (JavaScript and TypeScript) names a workspace file, relative
	// to the workspace, to run as the entry point instead of Code.
	FilePath string `json:"filePath,omitempty"`
	// TsconfigPath (JavaScript and TypeScript) names a workspace
	// tsconfig.json whose compilerOptions (paths, baseUrl, jsx, ...) apply
	// to the files the guest converts and resolves.
	TsconfigPath string `json:"tsconfigPath,omitempty"`
	// Packages (one-shot runs) are npm packages (JavaScript, TypeScript)
	// or PEP 508 requirements (Python) installed into the run's workspace
	// before it starts.
	Packages []string `json:"packages,omitempty"`
	// Template (one-shot runs) starts the run's guest from a template: its
	// state restored copy-on-write, its workspace a copy of the
	// template's (docs/TEMPLATES.md).
	Template string `json:"template,omitempty"`
	// Network opens the run to the hosts it allows (within the operator's
	// ceiling); nil: no network (in a context: the context's).
	Network *Network `json:"network,omitempty"`
	// Secrets are values the guest sees only as placeholders in its
	// environment (see Secret). In a context they are fixed at creation.
	Secrets map[string]Secret `json:"secrets,omitempty"`
	// Outputs choose the formats of the run's rich outputs (Python:
	// figures as png and/or svg); nil: png.
	Outputs *OutputsOptions `json:"outputs,omitempty"`
	// Filename names the code in stack traces (a process's workspace
	// file); "" lets the language choose (main.js, main.ts, main.py).
	Filename string `json:"-"`
	// Tsconfig is the text of the TsconfigPath file when it is not in
	// Files (a context reads it from its workspace), for the host's
	// transpile of TypeScript code; "" when there is none.
	Tsconfig string `json:"-"`
}

// TsconfigText returns the text of req's TsconfigPath file as the host
// knows it: from Files, else Tsconfig; "" when there is none.
func (req *Request) TsconfigText() string {
	if req.TsconfigPath == "" {
		return ""
	}
	if t, ok := req.Files[req.TsconfigPath]; ok {
		return t
	}
	return req.Tsconfig
}

// OutputOptions say what a run returns and keeps of its output.
type OutputOptions struct {
	Capture      Capture `json:"capture,omitempty"`
	RetainEvents bool    `json:"retainEvents,omitempty"`
}

// ControlRequest is the control-protocol request a driver receives
// (docs/PROTOCOL.md).
type ControlRequest struct {
	Op           string          `json:"op"`
	Code         string          `json:"code"`
	Filename     string          `json:"filename"`
	Inputs       json.RawMessage `json:"inputs,omitempty"`
	Args         []string        `json:"args,omitempty"`
	Format       string          `json:"format,omitempty"`
	Cwd          string          `json:"cwd,omitempty"`
	FilePath     string          `json:"filePath,omitempty"`
	TsconfigPath string          `json:"tsconfigPath,omitempty"`
	// Conversions are modules the host converted ahead (JavaScript). They
	// and Sources travel after the JSON (Payload).
	Conversions []Conversion `json:"-"`
	// Sources are module files of the request (JavaScript: by absolute
	// guest path), which the guest takes instead of reading them through
	// WASI. They are sent only to a guest whose workspace is the run's own
	// and holds exactly them when the run starts (a one-shot run): the
	// runner drops them otherwise.
	Sources map[string]string `json:"-"`
	// Live says readers follow the output while the run goes on (a
	// process): the driver hands over every write at once instead of
	// coalescing adjacent writes into chunks (docs/PROTOCOL.md).
	Live bool `json:"live,omitempty"`
	// MemoryBytes is the run's memory limit, so a driver with a garbage
	// collector can collect harder as it nears it (the JS driver's soft
	// limit).
	MemoryBytes int64 `json:"memoryBytes,omitempty"`
	// Outputs bound and shape the run's rich outputs (display data).
	Outputs *ControlOutputs `json:"outputs,omitempty"`
}

// Payload encodes the request for its driver (docs/PROTOCOL.md): the JSON
// request and, when it ships conversions or sources, a NUL byte and their
// texts back to back, conversions first, which the JSON lists with their
// lengths ("conversions": [{"key", "len"}], "sources": [{"path", "len"}],
// sources in path order). A guest built with Go decodes a JSON string at
// ~290 instructions a byte and copies bytes at next to none, and module
// texts are most of such a request.
func (c ControlRequest) Payload() ([]byte, error) {
	type entry struct {
		Key  string `json:"key,omitempty"`
		Path string `json:"path,omitempty"`
		Len  int    `json:"len"`
	}
	w := struct {
		ControlRequest
		Conversions []entry `json:"conversions,omitempty"`
		Sources     []entry `json:"sources,omitempty"`
	}{ControlRequest: c}
	size := 0
	for _, conv := range c.Conversions {
		w.Conversions = append(w.Conversions, entry{Key: conv.Key, Len: len(conv.Code)})
		size += len(conv.Code)
	}
	paths := make([]string, 0, len(c.Sources))
	for p, src := range c.Sources {
		paths = append(paths, p)
		size += len(src)
	}
	slices.Sort(paths)
	for _, p := range paths {
		w.Sources = append(w.Sources, entry{Path: p, Len: len(c.Sources[p])})
	}
	head, err := json.Marshal(w)
	if err != nil || (len(w.Conversions) == 0 && len(w.Sources) == 0) {
		return head, err
	}
	out := make([]byte, 0, len(head)+1+size)
	out = append(out, head...)
	out = append(out, 0)
	for _, conv := range c.Conversions {
		out = append(out, conv.Code...)
	}
	for _, p := range paths {
		out = append(out, c.Sources[p]...)
	}
	return out, nil
}

// Prepared is a request a LanguageDriver made ready for its guest.
type Prepared struct {
	Control ControlRequest
	// Failure, when set, ends the run before any guest runs (e.g. a
	// TypeScript syntax error found while transpiling).
	Failure *ErrorData
	// Finish, when set, post-processes the result (e.g. source maps).
	Finish func(*Result)
	// Seed, when set, writes into a one-shot run's workspace (dir, on the
	// host) before its files: e.g. the request's npm packages.
	Seed func(ctx context.Context, dir string) error
}

// LanguageDriver adapts a language to a guest image.
type LanguageDriver interface {
	// Image names the guest image the language runs in.
	Image() string
	// Prepare builds the control request. It is called once the run holds
	// its slot, with the run's ctx (deadline and cancellation): slow work
	// such as a transpile queues and times out like the run itself. Errors
	// are client errors (invalid_argument) or service errors; a failure of
	// the code itself (a syntax error) is Prepared.Failure.
	Prepare(ctx context.Context, req *Request) (*Prepared, error)
}

// WorkspaceFactory creates the directories mounted at /workspace of
// one-shot runs.
type WorkspaceFactory interface {
	NewWorkspace() (dir string, err error)
	// SeedWorkspace writes files into dir, stopping when ctx ends.
	SeedWorkspace(ctx context.Context, dir string, files map[string]string) error
	RemoveWorkspace(dir string) error
}

// WorkspaceQuota is implemented by WorkspaceFactories that bound a
// workspace: one-shot runs are then watched while they run.
type WorkspaceQuota interface {
	// WatchWorkspace returns the check of dir against its bounds (nil when
	// it has none).
	WatchWorkspace(dir string) QuotaCheck
}

// Guest is a running guest as the pipeline and a guest's owner (a
// context) see it. The engine implements it: a guest of one run serves
// one Call and Close discards it with the workspace it made; a kept guest
// (a context's) serves Calls until it dies or is closed, and its owner
// passes it back in RunOptions.
type Guest interface {
	// Call runs one request in the guest. The ctx's deadline is the run's
	// wall-clock deadline; cancelling ctx cancels the run. A guest failure
	// is a result; Call never returns an error.
	Call(ctx context.Context, in CallInput) CallResult
	// Workspace is the host directory mounted at /workspace.
	Workspace() string
	// Alive reports whether the guest can take another request.
	Alive() bool
	// ProtocolViolation says how the guest's driver broke the control
	// protocol (docs/PROTOCOL.md), or "" when it didn't. The host stops
	// such a guest; its owner replaces it instead of treating it as an
	// unexpected death.
	ProtocolViolation() string
	// Close stops the guest (waiting up to a couple of seconds for a stuck
	// one). It never removes the workspace it was started with.
	Close()
}

// Capturer is a Guest that can be captured between runs (engine.Guest):
// Capture returns its encoded state; with keep it goes on serving,
// without it is closed. Errors: conflict (not capturable now: files open,
// an image that can't suspend), internal.
type Capturer interface {
	Capture(ctx context.Context, keep bool) ([]byte, error)
}

// FileCapturer is a Capturer that can write its state straight into a
// file (engine.Guest): CaptureTo writes it at offsets 0 to the size it
// returns of w (an io.OffsetWriter places it after a header). Errors as
// Capture's; a write error leaves the guest as it was.
type FileCapturer interface {
	CaptureTo(ctx context.Context, keep bool, w io.WriterAt) (int64, error)
}

// ResidentMeter is a Guest that can say how much of the host's memory its
// linear memory takes now (engine.Guest): total, the bytes of its pages
// mapped in (what the process's RSS counts for it); private, those of
// them that are its alone (written, or mapped from its state's file).
// Never its reserved or grown size. Not during a Call.
type ResidentMeter interface {
	Resident() (total, private int64)
}

// Trimmer is a Guest that can give back the pages of its image it only
// read (engine.Guest): they stay shared in the page cache and are mapped
// again when read. Trim returns the bytes given back. Not during a Call.
type Trimmer interface {
	Trim() int64
}

// GuestSpec says how to start a kept guest.
type GuestSpec struct {
	Language    Language // the guest is of this language's family
	Env         map[string]string
	MemoryBytes int64
	Workspace   string // host directory mounted at /workspace (required)
	// Spare (RestoreGuestFile) says the guest is restored from a
	// template's state ahead of the one-shot run that will take it: the
	// pages earlier runs from that state wrote are copied in now, off that
	// run's path. StateChecked says an earlier restore in this process
	// read the state's file whole and found it intact (a template's
	// record is never written in place).
	Spare, StateChecked bool
}

// Family is the guest image a language runs in: languages of one family
// (javascript, typescript) can share a guest.
type Family struct {
	Name           string
	MinMemoryBytes int64
}

// QuotaCheck reports, when polled, whether the workspace a run writes to
// is over its bounds: nil while it is within them, else the failure that
// stops the run (code quota_exceeded).
type QuotaCheck func() *ErrorData

// RunOptions say how one run differs from a plain one-shot run. The zero
// value is a one-shot run: a run slot, a fresh guest (pre-started when one
// fits) in a fresh workspace, both thrown away afterwards, stdin and
// events per the request.
type RunOptions struct {
	// Guest runs the request in this kept guest (a context's) instead of a
	// fresh one; it is not closed afterwards (Alive says whether it
	// survived).
	Guest Guest
	// Workspace is the host directory a fresh guest mounts (a context's,
	// for a process in it); "" makes a throwaway one.
	Workspace string
	// Unslotted runs without one of the global run slots (processes, which
	// are bounded by their own maximum).
	Unslotted bool
	// Timeout replaces the request's resolved timeoutMs (processes have
	// their own bounds).
	Timeout time.Duration
	// Stdin replaces the request's stdin (a process's live stdin).
	Stdin *Stdin
	// Log replaces the retained event log (a process's live log, read by
	// streams while the run goes on); the run closes it at the end.
	Log *OutputLog
	// NoOutputLimit keeps the run going past limits.outputBytes: captured
	// text stops at the limit, the event log keeps its own cap.
	NoOutputLimit bool
	// Kind, ExecutionID and PID replace the result's (processes).
	Kind        Kind
	ExecutionID string
	PID         int64
	// Seed, when set, replaces writing req.Files into the workspace (a
	// context writes them as uploads, within its quota).
	Seed func(ctx context.Context) error
	// Quota is polled while the guest runs; a failure stops the run.
	Quota QuotaCheck
	// Started is called exactly once: with nil when the run is under way
	// (Run will return a result), or with the error Run is about to return.
	Started func(error)
	// QueuedAt is when the run began waiting for its turn (a context's
	// queue), the start of its queue wait (a metric); zero: when Run is
	// called.
	QueuedAt time.Time
	// Settle adjusts the result before it is persisted and returned (a
	// context's quota rollback, a process's exit).
	Settle func(*Result)
}

// liveOutputKey carries a run's live output log in a ctx.
type liveOutputKey struct{}

// WithLiveOutput returns ctx carrying log, the live output log of the run
// it asks for (a streamed run). A context run takes it from there into its
// RunOptions.Log: the log is request-scoped, like the tenant and the
// request id, and reaches the contexts manager through the guards around
// it without each of them having to pass it on (as httptrace does for an
// HTTP request's observer).
func WithLiveOutput(ctx context.Context, log *OutputLog) context.Context {
	return context.WithValue(ctx, liveOutputKey{}, log)
}

// LiveOutput returns the log WithLiveOutput put in ctx, or nil.
func LiveOutput(ctx context.Context) *OutputLog {
	l, _ := ctx.Value(liveOutputKey{}).(*OutputLog)
	return l
}

// Runner is the one run lifecycle (implemented by pipeline.Pipeline):
// validate, admit, a run slot, prepare, a guest, seed, execute, classify,
// settle, persist, publish. One-shot runs, context runs and processes all
// go through Run; the guests a context keeps between runs are started and
// restored through it too.
type Runner interface {
	// Run runs req to its result. A guest failure is in the Result; an
	// error is a client or service error (invalid_argument, overloaded,
	// unavailable, internal), and so is a result whose record could not
	// be stored.
	Run(ctx context.Context, req *Request, opts RunOptions) (*Result, error)
	// StartGuest starts a guest kept across runs (a context's).
	StartGuest(ctx context.Context, spec GuestSpec) (Guest, error)
	// RestoreGuest starts a kept guest from a captured state. A state
	// that doesn't fit (corrupt, another image or engine) is an error for
	// which StateRefused is true.
	RestoreGuest(ctx context.Context, spec GuestSpec, state []byte) (Guest, error)
	// RestoreGuestFile is RestoreGuest of the state stored in f, from off
	// to the file's end: a large state's pages may be mapped from the
	// file copy-on-write rather than copied, so the file must never be
	// written in place while the guest lives, only replaced by rename or
	// removed.
	RestoreGuestFile(ctx context.Context, spec GuestSpec, f *os.File, off int64) (Guest, error)
	// StateRefused reports whether err is a restore's refusal of a state.
	StateRefused(err error) bool
	// Family returns the guest image lang runs in (invalid_argument for an
	// unknown language, unavailable when its image isn't loaded).
	Family(lang Language) (Family, error)
	// Policy returns the limits policy.
	Policy() Policy
}

// NewID returns a random identifier with a prefix, e.g. exe_3f9c...
func NewID(prefix string) string {
	var b [10]byte
	rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}

// WorkspacePath turns a client's cwd (relative to /workspace, or absolute
// under it) into an absolute guest path, refusing anything outside
// (invalid_argument).
func WorkspacePath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", Errorf(EInvalid, "cwd contains a NUL byte")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/workspace/" + p
	}
	clean := path.Clean(p)
	if clean != "/workspace" && !strings.HasPrefix(clean, "/workspace/") {
		return "", Errorf(EInvalid, "cwd %q is outside /workspace", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", Errorf(EInvalid, "cwd %q may not contain ..", p)
		}
	}
	return clean, nil
}

// ValidateEnv checks environment names and values (invalid_argument).
func ValidateEnv(env map[string]string) error {
	for k, v := range env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return Errorf(EInvalid, "env name %q is not valid", k)
		}
		if strings.ContainsRune(v, 0) {
			return Errorf(EInvalid, "env %s contains a NUL byte", k)
		}
	}
	return nil
}

// Conversion is an ES module converted to CommonJS on the host for the JS
// guest (see languages/ts.ModuleConverter): esbuild's output for the
// source whose ConversionKey is Key. The guest uses it when it loads a
// file (or runs a cell) with that key, instead of converting in wasm.
type Conversion struct {
	Key  string `json:"key"`
	Code string `json:"code"`
}

// ConversionKey is the hex SHA-256 of what a conversion depends on: the
// file name the guest converts it under, the run's tsconfig text and the
// source, each preceded by its length (8 bytes, little endian). The JS
// guest computes the same (guest-images/js/esm.go conversionKey).
func ConversionKey(file, tsconfig, src string) string {
	h := sha256.New()
	for _, s := range []string{file, tsconfig, src} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CallInput is one request for a guest.
type CallInput struct {
	Payload []byte // the control-protocol request (JSON)
	Fuel    uint64
	Stdin   *Stdin  // nil: empty
	Output  *Output // required
	// MaxReply caps the driver's reply (0: the output limit plus
	// ReplyEnvelopeBytes). A larger one is not copied: the run fails with
	// output_limit and the guest lives on.
	MaxReply int64
}

// ReplyEnvelopeBytes is what a driver's reply may hold beyond the value
// (status, an error's message and stack).
const ReplyEnvelopeBytes = 64 << 10

// CallResult is how a call ended. Response is the driver's reply; when it is
// nil the guest died or was interrupted and Outcome/Error say why.
type CallResult struct {
	Response     []byte
	Outcome      Outcome
	Error        *ErrorData
	ExitCode     int
	FuelConsumed uint64
	Duration     time.Duration
	// Died is true when the guest can't take another request.
	Died bool
}
