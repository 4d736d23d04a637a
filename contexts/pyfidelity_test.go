package contexts_test

import (
	"context"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// execute in a context runs in the context's namespace, as evaluate does
// (and as JavaScript's execute does): what a program defines, with or
// without top-level await, is there for the next request.
func TestPythonExecuteKeepsState(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "px", Language: wasmexec.Python})
	for _, tc := range []struct {
		name, code, check, want string
	}{
		{"top-level await", "import asyncio\nawait asyncio.sleep(0)\nretained_answer = 41", "retained_answer + 1", "42"},
		{"plain program", "plain = 5\ndef twice(x):\n    return 2 * x", "twice(plain)", "10"},
		{"async def and await", "import asyncio\nasync def f():\n    return 3\nawaited = await f()", "awaited", "3"},
		{"__name__ and __file__", "import sys\nseen = [__name__, __file__, sys.argv]", "seen", `["__main__","main.py",["main.py"]]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, m, "px", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, Code: tc.code})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("execute: %s %+v", res.Outcome, res.Error)
			}
			wantValue(t, pyRun(t, m, "px", tc.check), tc.want)
		})
	}
	// And the other way: execute sees what evaluate defined.
	pyRun(t, m, "px", "from_cell = 7")
	res := MustRun(t, m, "px", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, Code: "print(from_cell * 6)"})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "42\n" {
		t.Fatalf("execute after evaluate: %s %+v %q", res.Outcome, res.Error, *res.Stdout)
	}
}

// A new Python context's workspace is empty, seen from the guest and from
// the file API: the packages directory appears only with an install.
func TestPythonWorkspaceStartsEmpty(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "pe", Language: wasmexec.Python})
	wantValue(t, pyRun(t, m, "pe", "import os\nos.listdir('/workspace')"), "[]")
	entries, err := m.ListFiles(context.Background(), "pe", "")
	if err != nil || len(entries) != 0 {
		t.Fatalf("ListFiles: %v %+v", err, entries)
	}
	// A package directory made while the guest lives (as pip install
	// makes it) is on sys.path at the next request.
	if _, err := m.WriteFile(context.Background(), "pe", ".python-packages/late_pkg.py", []byte("VALUE = 'found'\n")); err != nil {
		t.Fatal(err)
	}
	wantValue(t, pyRun(t, m, "pe", "import late_pkg\nlate_pkg.VALUE"), `"found"`)
}

// filePath runs a workspace file as the program: __main__, sys.argv from
// args, __file__ absolute, its directory first on sys.path (so its
// siblings import), and what it defines stays in the context.
func TestPythonFilePathInContext(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "pf", Language: wasmexec.Python})
	ctx := context.Background()
	for p, src := range map[string]string{
		"tools/helper.py": "def greet(n):\n    return 'hello ' + n\n",
		"tools/main.py":   "import sys, helper\nprint(__name__, __file__, sys.argv, sys.path[0])\nprint(helper.greet(sys.argv[1]))\nlast_run = sys.argv[1]\nif len(sys.argv) > 2:\n    sys.exit(int(sys.argv[2]))\n",
		"broken.py":       "def (\n",
	} {
		if _, err := m.WriteFile(ctx, "pf", p, []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	res := MustRun(t, m, "pf", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, FilePath: "tools/main.py", Args: []string{"world"}})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "__main__ /workspace/tools/main.py ['tools/main.py', 'world'] /workspace/tools\nhello world\n" {
		t.Fatalf("filePath: %s %+v %q", res.Outcome, res.Error, *res.Stdout)
	}
	wantValue(t, pyRun(t, m, "pf", "import sys\n[last_run, sys.path[0]]"), `["world",""]`)
	res = MustRun(t, m, "pf", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, FilePath: "tools/main.py", Args: []string{"x", "3"}})
	if res.Outcome != wasmexec.Failed || res.ExitCode != 3 {
		t.Fatalf("exit: %s %d %+v", res.Outcome, res.ExitCode, res.Error)
	}
	res = MustRun(t, m, "pf", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, FilePath: "missing.py"})
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != "FileNotFoundError" {
		t.Fatalf("missing: %s %+v", res.Outcome, res.Error)
	}
	res = MustRun(t, m, "pf", wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.Python, FilePath: "broken.py"})
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeSyntaxError || res.Error.Details["filename"] != "/workspace/broken.py" {
		t.Fatalf("syntax error: %s %+v", res.Outcome, res.Error)
	}
	// evaluate by filePath: the file as a cell, its last expression's value.
	if _, err := m.WriteFile(ctx, "pf", "cell.py", []byte("# -*- coding: latin-1 -*-\ns = '\xe9'\nlen(s)\n")); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "pf", wasmexec.Request{Language: wasmexec.Python, FilePath: "cell.py"}), "1")
}
