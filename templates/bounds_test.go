package templates_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Every bound of a build, hit by a hostile one: the build ends failed
// with the usual code, and leaves nothing behind but its descriptor.
func TestHostileBuilds(t *testing.T) {
	const quota = 4 << 20
	e := newEnv(t, setup{maxState: 24 << 20, quota: quota})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		spec wasmexec.TemplateSpec
		code string // the failure's code
		msg  string // in its message
	}{
		{"busy loop", wasmexec.TemplateSpec{SetupCode: "while (true) {}", TimeoutMs: 500}, "timeout", ""},
		{"fuel", wasmexec.TemplateSpec{SetupCode: "let i = 0; while (true) { i++ }", Limits: wasmexec.Limits{Fuel: 50_000_000}}, wasmexec.CodeCPULimit, ""},
		{"timer bomb", wasmexec.TemplateSpec{SetupCode: "function f() { setTimeout(f, 0); setTimeout(f, 0) } f(); new Promise(() => {})", TimeoutMs: 1000}, "timeout", ""},
		{"huge heap", wasmexec.TemplateSpec{SetupCode: "globalThis.a = []; while (true) a.push(new Array(1 << 20).fill(1.5))", Limits: wasmexec.Limits{MemoryBytes: 96 << 20}}, wasmexec.CodeMemoryLimit, ""},
		{"files past the quota (written)", wasmexec.TemplateSpec{SetupCode: "require('fs').writeFileSync('big.bin', Buffer.alloc(8 << 20))"}, wasmexec.CodeQuotaExceeded, ""},
		{"files past the quota (seeded)", wasmexec.TemplateSpec{Files: map[string]string{"big.txt": strings.Repeat("x", 5<<20)}}, wasmexec.ETooLarge, "quota"},
		{"state past --template-max-state-bytes", wasmexec.TemplateSpec{SetupCode: "globalThis.data = new Uint8Array(40 << 20); for (let i = 0; i < 640; i++) crypto.getRandomValues(data.subarray(i << 16, (i + 1) << 16)); 0"}, "template_state_too_large", "more than --template-max-state-bytes"},
		{"exception", wasmexec.TemplateSpec{SetupCode: "throw new Error('no')"}, wasmexec.CodeException, "no"},
		{"syntax error", wasmexec.TemplateSpec{SetupCode: "let = ;"}, wasmexec.CodeSyntaxError, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Language = wasmexec.JavaScript
			d := e.build(t, ctx, tc.spec)
			if d.State != wasmexec.TemplateFailed || d.Error == nil {
				t.Fatalf("build ended %s, want failed: %+v", d.State, d)
			}
			if d.Error.Code != tc.code || !strings.Contains(d.Error.Message, tc.msg) {
				t.Fatalf("failure %+v, want code %s with %q", d.Error, tc.code, tc.msg)
			}
			t.Logf("%s: %s", d.Error.Code, d.Error.Message)
			if d.StateBytes != 0 || d.WorkspaceBytes != 0 {
				t.Fatalf("a failed template holds bytes: %+v", d)
			}
			// Nothing left: no workspace, no state in its record, no
			// temporary file.
			wantNothingLeft(t, e.dir, d.TemplateID)
			_, err := e.runner.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Template: d.TemplateID, Code: "1"}, wasmexec.RunOptions{})
			if wasmexec.ErrorCode(err) != wasmexec.EConflict {
				t.Fatalf("a run from a failed template: %v, want conflict", err)
			}
			if err := e.tpl.Delete(ctx, d.TemplateID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// wantNothingLeft checks that template id holds no workspace and no state.
func wantNothingLeft(t *testing.T, dir, id string) {
	t.Helper()
	ws, _ := os.ReadDir(filepath.Join(dir, "workspaces"))
	for _, de := range ws {
		t.Errorf("a workspace is left: %s", de.Name())
	}
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".tmp") {
			t.Errorf("a temporary file is left: %s", de.Name())
		}
	}
	fi, err := os.Stat(filepath.Join(dir, id+".tpl"))
	if err != nil {
		t.Fatalf("the failed template's record: %v", err)
	}
	if fi.Size() > 64<<10 {
		t.Errorf("the failed template's record holds %d bytes", fi.Size())
	}
}
