package js_test

import (
	"context"
	"testing"

	wexec "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
)

// fs.symlink makes links in the workspace as Node does on Linux, but for
// an absolute target inside /workspace, stored relative to the link
// (readlink shows that form); a link that climbs out leads nowhere.
func TestSymlinks(t *testing.T) {
	r := mustRunner(t, js.Driver{})
	code := `const fs = require("fs")
fs.mkdirSync("d"); fs.writeFileSync("d/f.txt", "hi")
fs.symlinkSync("d", "l"); fs.symlinkSync("/workspace/d/f.txt", "a"); fs.symlinkSync("../../etc/passwd", "up")
const tryRead = p => { try { return fs.readFileSync(p, "utf8") } catch (e) { return e.code } }
JSON.stringify([fs.readFileSync("l/f.txt", "utf8"), fs.readlinkSync("a"), tryRead("a"), fs.lstatSync("l").isSymbolicLink(),
  fs.readdirSync("l/"), fs.readlinkSync("up"), tryRead("up") !== "hi" && !String(tryRead("up")).includes("root:")])`
	res, err := r.Run(context.Background(), &wexec.Request{Kind: wexec.KindEvaluate, Language: wexec.JavaScript, Code: code}, wexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `"[\"hi\",\"d/f.txt\",\"hi\",true,[\"f.txt\"],\"../../etc/passwd\",true]"`
	if res.Outcome != wexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %+v\n got %s\nwant %s", res.Outcome, res.Error, res.Value, want)
	}
}

// mustRunner is a pipeline that runs JavaScript with driver d in the js
// image.
func mustRunner(tb testing.TB, d js.Driver) *pipeline.Pipeline {
	return testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)},
		Languages: map[wexec.Language]wexec.LanguageDriver{wexec.JavaScript: d},
	})
}
