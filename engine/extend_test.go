package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// An extension adds env, preopens (relative to the image directory, as
// guest.json's) and workspace directories; bad ones are refused at load.
func TestExtendSpec(t *testing.T) {
	root := t.TempDir()
	img := filepath.Join(root, "images", "python")
	layer := filepath.Join(root, "images", "pylibs", "site")
	if err := os.MkdirAll(img, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(layer, 0o755); err != nil {
		t.Fatal(err)
	}
	e := &Engine{cfg: EngineConfig{Extensions: map[string]ImageExtension{"python": {
		Env:           map[string]string{"PYTHONPATH": "/x", "A": "b"},
		Preopens:      map[string]string{layer: "/usr/local/lib/python3.11/dist-packages"},
		WorkspaceDirs: []string{".python-packages"},
	}}}}
	spec := ImageSpec{Name: "python", Env: map[string]string{"A": "a", "K": "k"}, Preopens: map[string]string{"lib": "/usr/local/lib"}}
	if err := e.extend(img, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Env["A"] != "b" || spec.Env["K"] != "k" || spec.Env["PYTHONPATH"] != "/x" {
		t.Fatalf("env %v", spec.Env)
	}
	if spec.Preopens["lib"] != "/usr/local/lib" || spec.Preopens["../pylibs/site"] != "/usr/local/lib/python3.11/dist-packages" {
		t.Fatalf("preopens %v", spec.Preopens)
	}
	other := ImageSpec{Name: "js"}
	if err := e.extend(img, &other); err != nil || other.Env != nil || other.WorkspaceDirs != nil {
		t.Fatalf("another image changed: %+v %v", other, err)
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "taken"), []byte("mine"), 0o644)
	spec.WorkspaceDirs = append(spec.WorkspaceDirs, "taken")
	if err := makeWorkspaceDirs(spec, ws); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(ws, ".python-packages")); err != nil || !st.IsDir() {
		t.Fatal("the workspace directory was not made")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "taken")); string(b) != "mine" {
		t.Fatal("a file of the workspace was replaced")
	}
	for _, bad := range []ImageExtension{
		{Preopens: map[string]string{filepath.Join(root, "missing"): "/x"}},
		{WorkspaceDirs: []string{"../out"}},
		{WorkspaceDirs: []string{"/abs"}},
	} {
		e.cfg.Extensions["python"] = bad
		s := ImageSpec{Name: "python"}
		if err := e.extend(img, &s); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
