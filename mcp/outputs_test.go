package mcp_test

import (
	"bytes"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/mcp"
	"github.com/wasmexec/wasmexec/server"
)

// run_code returns a Python run's figure as image content the model can
// see, after the text, and describes it in the structured result.
func TestRunCodeFigureIsImageContent(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{python.ImageName: testenv.Image(t, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.Python: python.Driver{}},
	})
	h := mcp.Handler(mcp.Config{Runner: r, BodyLimit: 1 << 20})
	srv := httptest.NewServer(server.New(server.Config{Runner: r, MCP: h}).Handler())
	t.Cleanup(srv.Close)
	s := MustSession(t, srv.URL, nil)
	res, m := call(t, s, "run_code", map[string]any{"language": "python", "mode": "execute",
		"code": "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title('three points')\nplt.show()\nprint('drawn')"})
	if m["outcome"] != "succeeded" {
		t.Fatalf("%v: %s", m, textOf(res))
	}
	if len(res.Content) != 2 {
		t.Fatalf("%d content items, want the text and one image", len(res.Content))
	}
	img, ok := res.Content[1].(*sdk.ImageContent)
	if !ok || img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
		t.Fatalf("second item: %#v", res.Content[1])
	}
	outs, _ := m["outputs"].([]any)
	if len(outs) != 1 {
		t.Fatalf("outputs = %v", m["outputs"])
	}
	if o := outs[0].(map[string]any); o["type"] != "image/png" || o["width"].(float64) < 100 {
		t.Fatalf("output = %v", o)
	}
}
