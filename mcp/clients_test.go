package mcp_test

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// toolCall is what a client script records of one tool call.
type toolCall struct {
	IsError bool           `json:"isError"`
	Text    string         `json:"text"`
	Data    map[string]any `json:"data"`
}

// clientRun is what testdata/client.mjs and testdata/client.py print: the
// same calls, through the official TypeScript and Python SDKs.
type clientRun struct {
	Tools []struct {
		Name        string         `json:"name"`
		Annotations map[string]any `json:"annotations"`
		Schemas     string         `json:"schemas"`
	} `json:"tools"`
	Calls        map[string]toolCall `json:"-"`
	RunNotes     []string            `json:"runNotes"`
	InstallNotes []string            `json:"installNotes"`
	Anonymous    string              `json:"anonymous"`
}

// checkClientRun checks a client script's output: every tool listed with
// annotations and null-free schemas, and each call's answer.
func checkClientRun(t *testing.T, out []byte) {
	t.Helper()
	var got clientRun
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client printed %q: %v", out, err)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(out, &raw)
	got.Calls = map[string]toolCall{}
	for k, v := range raw {
		var c toolCall
		if json.Unmarshal(v, &c) == nil && (c.Text != "" || c.Data != nil) {
			got.Calls[k] = c
		}
	}
	var names []string
	for _, tool := range got.Tools {
		names = append(names, tool.Name)
		if tool.Annotations["title"] == nil || tool.Annotations["readOnlyHint"] == nil || tool.Annotations["destructiveHint"] == nil {
			t.Errorf("%s: annotations %v", tool.Name, tool.Annotations)
		}
		if strings.Contains(tool.Schemas, `"null"`) {
			t.Errorf("%s: a schema has a null type: %s", tool.Name, tool.Schemas)
		}
	}
	want := append(slices.Clone(allTools), "npm_install")
	slices.Sort(want)
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("tools: %v, want %v", names, want)
	}
	c := got.Calls
	ok := func(name string, cond bool) {
		t.Helper()
		if !cond {
			t.Errorf("%s: %+v", name, c[name])
		}
	}
	errCode := func(name string) any {
		e, _ := c[name].Data["error"].(map[string]any)
		return e["code"]
	}
	ok("run", c["run"].Data["value"] == float64(42) && c["run"].Data["stdout"] == "from node\n" && strings.Contains(c["run"].Text, "value: 42"))
	ok("binary", c["binary"].Data["stdout"] == base64.StdEncoding.EncodeToString([]byte{0xff, 0, 0x41}) && c["binary"].Data["stdoutEncoding"] == "base64" && strings.Contains(c["binary"].Text, "base64"))
	ok("limits", c["limits"].IsError && errCode("limits") == "cpu_limit")
	ok("bad", c["bad"].IsError && strings.Contains(c["bad"].Text, "language"))
	ok("streamed", !c["streamed"].IsError && c["streamed"].Data["stdout"] == "one\ntwo\n")
	if !slices.Equal(got.RunNotes, []string{"one\n", "two\n"}) {
		t.Errorf("run_code progress: %q", got.RunNotes)
	}
	ok("context", c["context"].Data["contextId"] == "ts1" && c["context"].Data["language"] == "typescript")
	ok("fork", c["fork"].Data["contextId"] == "ts2")
	ok("forked", c["forked"].Data["value"] == float64(42))
	ok("timeout", c["timeout"].IsError && c["timeout"].Data["outcome"] == "timed_out" && c["timeout"].Data["contextReset"] == true && strings.Contains(c["timeout"].Text, "variables"))
	ok("afterReset", c["afterReset"].Data["value"] == "undefined")
	ok("write", c["write"].Data["size"] == float64(5))
	ok("read", c["read"].Data["content"] == "hello" && c["read"].Data["encoding"] == "utf8")
	ok("list", len(asList(c["list"].Data["entries"])) == 1)
	ok("deleteFile", c["deleteFile"].Data["deleted"] == true)
	ok("reset", c["reset"].Data["contextId"] == "ts1")
	ok("contexts", len(asList(c["contexts"].Data["contexts"])) == 2)
	ok("check", c["check"].Data["hasErrors"] == true)
	ok("install", !c["install"].IsError && c["install"].Data["outcome"] == "succeeded")
	if len(got.InstallNotes) != 3 || got.InstallNotes[0] != "resolving left-pad" {
		t.Errorf("install progress: %q", got.InstallNotes)
	}
	ok("spawn", c["spawn"].Data["state"] == "running")
	ok("stdin", c["stdin"].Data["written"] == float64(3) && c["stdin"].Data["stdinClosed"] == true)
	ok("wait", c["wait"].Data["state"] == "exited")
	ok("output", len(asList(c["output"].Data["events"])) == 1 && strings.Contains(c["output"].Text, "echo hi"))
	ok("signal", !c["signal"].IsError)
	ok("signalled", c["signalled"].Data["exit"].(map[string]any)["outcome"] == "signalled")
	ok("processes", len(asList(c["processes"].Data["processes"])) == 2)
	ok("executions", len(asList(c["executions"].Data["executions"])) == 2 && c["executions"].Data["hasMore"] == true)
	ok("execution", c["execution"].Data["value"] == float64(42) && c["execution"].Data["kind"] == "evaluate")
	ok("deleteContext", c["deleteContext"].Data["deleted"] == true)
	if !strings.Contains(got.Anonymous, "unauthorized") || !strings.Contains(got.Anonymous, "does not use OAuth") {
		t.Errorf("without a key: %q", got.Anonymous)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
