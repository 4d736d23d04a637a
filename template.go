package wasmexec

import (
	"context"
	"io"
	"os"
)

// Template vocabulary (docs/TEMPLATES.md). A template is a guest prepared
// once (packages installed, files seeded, setup code run), captured with
// its workspace and never run itself: runs, processes and contexts start
// from a copy of it, its state mapped copy-on-write. The templates
// package implements it; server/ speaks it on the wire.

// KindTemplateBuild is the record of a template's build (its setup run).
const KindTemplateBuild Kind = "template_build"

// TemplateState is where a template is in its life.
type TemplateState string

const (
	// TemplateBuilding: its build (install, seed, setup run, capture) is
	// under way; a run from it waits for it.
	TemplateBuilding TemplateState = "building"
	// TemplateReady: runs start from it.
	TemplateReady TemplateState = "ready"
	// TemplateFailed: its build failed (Error says why); it holds nothing
	// but its descriptor, until deleted.
	TemplateFailed TemplateState = "failed"
)

// TemplateSpec creates a template: POST /v1/templates.
type TemplateSpec struct {
	// TemplateID is chosen by the client (1-64 of [A-Za-z0-9_-]) or, when
	// empty, generated (tpl_...).
	TemplateID string   `json:"templateId,omitempty"`
	Language   Language `json:"language"`
	// Packages are npm packages (JavaScript, TypeScript) or PEP 508
	// requirements (Python) installed into its workspace.
	Packages []string `json:"packages,omitempty"`
	// Files are written into its workspace (path → content).
	Files map[string]string `json:"files,omitempty"`
	// SetupCode runs once in its guest (evaluated, as /v1/evaluate in a
	// context: its top-level names are the globals of every run), after
	// the packages and files: what it imports and defines is in the state
	// every run starts from.
	SetupCode string            `json:"setupCode,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	// Limits bound the build (fuel, outputBytes) and the guests started
	// from it (memoryBytes, fixed like a context's).
	Limits    Limits `json:"limits"`
	TimeoutMs int64  `json:"timeoutMs,omitempty"`
}

// TemplatePackage is a package a template holds, at its resolved version.
type TemplatePackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Template is a template descriptor: GET /v1/templates/:id.
type Template struct {
	TemplateID string        `json:"templateId"`
	Language   Language      `json:"language"`
	State      TemplateState `json:"state"`
	// Implicit: made by the server for a one-shot run's packages (shared,
	// evicted least recently used first).
	Implicit    bool  `json:"implicit,omitempty"`
	CreatedAtMs int64 `json:"createdAtMs"`
	ReadyAtMs   int64 `json:"readyAtMs,omitempty"`
	// LastUsedAtMs is when a run last started from it.
	LastUsedAtMs int64             `json:"lastUsedAtMs,omitempty"`
	Packages     []TemplatePackage `json:"packages"`
	Files        []string          `json:"files,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	MemoryBytes  int64             `json:"memoryBytes"`
	// StateBytes is the size of its captured guest state, WorkspaceBytes
	// what its workspace holds (counted as a workspace quota counts).
	StateBytes     int64 `json:"stateBytes"`
	WorkspaceBytes int64 `json:"workspaceBytes"`
	// BuildExecutionID names its build's record in history (kind
	// template_build).
	BuildExecutionID string `json:"buildExecutionId,omitempty"`
	// Builds counts its builds: more than one after a rebuild.
	Builds int64 `json:"builds"`
	// Runs counts the runs and contexts started from it.
	Runs int64 `json:"runs"`
	// Error says why a failed build failed.
	Error *ErrorData `json:"error,omitempty"`
	// Notice says why it was last rebuilt (its state made for another
	// image or engine).
	Notice string `json:"notice,omitempty"`
	// Tenant owns it ("" on an open server, and for implicit templates).
	Tenant string `json:"-"`
}

// Bytes is what a template holds: its state and its workspace.
func (t *Template) Bytes() int64 { return t.StateBytes + t.WorkspaceBytes }

// TemplateImage is a ready template as a run starts from it: its guest's
// settings, its state (in State from StateOffset to its end: mapped
// copy-on-write, so never written in place) and its workspace (a
// directory to copy, never to write). It is held until Release.
type TemplateImage struct {
	ID          string
	Language    Language
	Env         map[string]string
	MemoryBytes int64
	State       *os.File
	StateOffset int64
	Workspace   string
	// Checked says an earlier restore in this process checked State
	// whole (it is never written in place): a restore may map its raw
	// pages without reading them for their checksums. Restored tells the
	// owner that a restore checked it.
	Checked  bool
	Restored func()
	// Refused tells the template's owner that its state was refused (made
	// for another image or engine, corrupt): it is rebuilt from its recipe.
	Refused func(reason string)
	// Spare, when set, returns a copy of Workspace made ahead of the run
	// (then the caller's, to remove), or "" when none is ready: copying a
	// workspace of many files is then off the run's path.
	Spare func() string
	// SpareGuest, when set, returns a guest restored from State ahead of
	// the run, in a copy of Workspace (dir: then the caller's, to
	// remove), or a nil guest when none is ready. done, when not nil, is
	// to be called once the run's guest is closed: the next spare is
	// made then, not while the run goes on.
	SpareGuest func() (g Guest, dir string, done func())
	// Release ends the hold (State is closed; a guest mapping it keeps
	// its own reference).
	Release func()
}

// TemplateCapturer is a FileCapturer that can also capture a guest as a
// template (engine.Guest): a state laid out for runs to map, not decode.
type TemplateCapturer interface {
	CaptureTemplateTo(ctx context.Context, keep bool, w io.WriterAt) (int64, error)
}

// TemplateSource is where runs and contexts find templates
// (templates.Manager). Both calls see only the caller's tenant's
// templates (and implicit ones): another's is ETemplateNotFound.
type TemplateSource interface {
	// Template describes template id without waiting for it.
	Template(ctx context.Context, id string) (*Template, error)
	// Open waits, within ctx, until template id is ready (built, or
	// rebuilt) and holds it. A failed build is EConflict.
	Open(ctx context.Context, id string) (*TemplateImage, error)
}

// ImplicitTemplates is a TemplateSource that also keeps the server's own
// templates of one-shot runs' package sets (templates.Manager).
type ImplicitTemplates interface {
	// Implicit returns the ready implicit template of language lang with
	// packages, held, or nil: then it starts building one in the
	// background (once per set, whoever asks), and the run goes on
	// without it.
	Implicit(ctx context.Context, lang Language, packages []string, memoryBytes int64) *TemplateImage
}

// SharedTemplate is a template's row in a cluster's database (package
// cluster): what every server of the cluster knows of it. The templates
// package fills Meta with its own encoding (descriptor and recipe); the
// cluster stores it as it is.
type SharedTemplate struct {
	ID       string
	Tenant   string
	Implicit bool
	State    TemplateState
	Meta     []byte
	// Builder is the node building it (State building) or that built it
	// last; Generation fences the build under way (+1 at every claim),
	// whose lease has LeaseLeftMs left (≤ 0: over, another node may
	// claim the build).
	Builder     string
	Generation  int64
	LeaseLeftMs int64
	// Sum is the SHA-256 (hex) of its stored capture and CaptureBytes its
	// size (ready); Bytes what it holds as quotas count it (its state and
	// workspace); Builds the builds that ended.
	Sum          string
	CaptureBytes int64
	Bytes        int64
	Builds       int64
	CreatedAtMs  int64
	LastUsedAtMs int64
}
