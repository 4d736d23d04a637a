package typecheck_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/ts/typecheck"
)

// There is no service to build without workers or without the image,
// and /readyz says which; before the server builds it, it is loading.
func TestNothingToBuild(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     typecheck.Config
		wantWhy string
	}{
		{"no workers", typecheck.Config{ImageDir: t.TempDir(), Workers: 0}, typecheck.Disabled},
		{"no image", typecheck.Config{ImageDir: t.TempDir(), Workers: 1}, typecheck.NotBuilt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, why, err := typecheck.New(tc.cfg)
			if s != nil || why != tc.wantWhy || err != nil {
				t.Fatalf("got %v %q %v, want nil %q", s, why, err, tc.wantWhy)
			}
			if p := typecheck.Part(nil, why); p["ready"] != false || p["state"] != tc.wantWhy {
				t.Fatalf("part %v", p)
			}
		})
	}
	if p := typecheck.Part(nil, ""); p["state"] != "loading" {
		t.Fatalf("before it is built: %v", p)
	}
	_, err := typecheck.Loading{}.Check(context.Background(), &wasmexec.TypeScriptCheckRequest{Code: "1"})
	if wasmexec.ErrorCode(err) != wasmexec.EUnavailable || !strings.Contains(err.Error(), "still loading") {
		t.Fatalf("a check while loading: %v", err)
	}
}

// An image with TypeScript 5.9 only (built before TypeScript 7 was in it)
// and 5.9 disabled: the default checker is failed, saying how to rebuild,
// and each typescriptVersion is routed (and refused) as documented.
func TestVersionsWithoutTypeScript7(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "typescript.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, why, err := typecheck.New(typecheck.Config{ImageDir: dir, Workers: 1})
	if s == nil || why != "" || err != nil {
		t.Fatalf("New: %v %q %v", s, why, err)
	}
	defer s.Close()
	s.Start(context.Background()) // nothing to start: returns at once
	st := typecheck.Part(s, "")
	if st["ready"] != false || st["state"] != "failed" || !strings.Contains(st["error"].(string), "TypeScript 7 is not in the typescript image") {
		t.Fatalf("status %v", st)
	}
	versions := s.Info().(map[string]any)["versions"].([]any)
	if v59 := versions[1].(map[string]any); v59["major"] != "5.9" || v59["state"] != typecheck.Disabled {
		t.Fatalf("5.9 in GET /v1/typescript: %v", v59)
	}
	for _, tc := range []struct {
		version  string
		wantCode string
		wantIn   string
	}{
		{"", wasmexec.EUnavailable, "TypeScript 7 checker failed to start"},
		{"7.0.2", wasmexec.EUnavailable, "TypeScript 7 checker failed to start"},
		{"5.9", wasmexec.EInvalid, "typescriptVersion 5.9 is not enabled"},
		{"5.9.3", wasmexec.EInvalid, "typescriptVersion 5.9 is not enabled"},
		{"4.9", wasmexec.EInvalid, "this server checks with 7"},
	} {
		t.Run("version "+tc.version, func(t *testing.T) {
			_, err := s.Check(context.Background(), &wasmexec.TypeScriptCheckRequest{Code: "let x: number = 1", TypeScriptVersion: tc.version})
			if wasmexec.ErrorCode(err) != tc.wantCode || !strings.Contains(err.Error(), tc.wantIn) {
				t.Fatalf("got %v, want %s with %q", err, tc.wantCode, tc.wantIn)
			}
		})
	}
}
