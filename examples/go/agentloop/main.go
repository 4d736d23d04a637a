// Command agentloop is an agent loop over wasmexec: the model asks for
// code, the sandbox runs it, the result goes back to the model, until it
// answers.
//
// The model here is scripted (scriptedModel) so the example runs against a
// local server without an API key; it reads the tool results it gets back,
// so the loop is real: its first attempt fails, it sees the error and
// corrects itself, and its answer quotes the values the sandbox computed.
// To use a real model, give your provider tools and put its chat call
// behind the model interface: the rest stays as it is.
//
//	WASMEXEC_URL=http://127.0.0.1:8080 go run ./examples/go/agentloop
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
)

// tools is the tool as a model sees it (the JSON Schema most providers take).
var tools = []map[string]any{{
	"name":        "run_code",
	"description": "Run Python in a persistent sandbox: variables and files stay between calls. The value of the last expression comes back, with stdout, stderr and any error.",
	"input_schema": map[string]any{
		"type":       "object",
		"properties": map[string]any{"code": map[string]any{"type": "string", "description": "Python source"}},
		"required":   []string{"code"},
	},
}}

const task = "Daily temperatures this week were 18.5, 21, 23.5, 19, 25.5, 22 and 21 °C. What was the mean, and which day was the hottest?"

type toolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Args struct {
		Code string `json:"code"`
	} `json:"arguments"`
}

type message struct {
	Role       string     `json:"role"` // user, assistant, tool
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
}

// model is what an LLM provider's chat call does.
type model interface {
	Complete(ctx context.Context, messages []message, tools []map[string]any) (message, error)
}

// scriptedModel stands in for an LLM: the same turns every time, built
// from what the tools answered.
type scriptedModel struct{}

func (scriptedModel) Complete(_ context.Context, messages []message, _ []map[string]any) (message, error) {
	var results []toolOutput
	for _, m := range messages {
		if m.Role == "tool" {
			var r toolOutput
			if err := json.Unmarshal([]byte(m.Content), &r); err != nil {
				return message{}, err
			}
			results = append(results, r)
		}
	}
	call := func(id, code string) message {
		tc := toolCall{ID: id, Name: "run_code"}
		tc.Args.Code = code
		return message{Role: "assistant", ToolCalls: []toolCall{tc}}
	}
	switch len(results) {
	case 0: // a first try with a mistake: lists have no .mean()
		return call("call_1", "temps = [18.5, 21, 23.5, 19, 25.5, 22, 21]\ntemps.mean()"), nil
	case 1:
		if results[0].Outcome != "failed" {
			return message{}, fmt.Errorf("expected the first try to fail: %+v", results[0])
		}
		return call("call_2", "import statistics\nprint('n =', len(temps))\nround(statistics.mean(temps), 2)"), nil
	case 2:
		return call("call_3", "temps.index(max(temps)) + 1"), nil
	}
	return message{Role: "assistant", Content: fmt.Sprintf("The mean temperature was %s °C; day %s was the hottest.", results[1].Value, results[2].Value)}, nil
}

// toolOutput is what goes back to the model: small, JSON, errors included.
type toolOutput struct {
	Outcome string          `json:"outcome"`
	Value   json.RawMessage `json:"value,omitempty"`
	Stdout  string          `json:"stdout,omitempty"`
	Stderr  string          `json:"stderr,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func toolResult(res *wasmexec.Result) string {
	out := toolOutput{Outcome: string(res.Outcome), Value: res.Value}
	if res.Stdout != nil {
		out.Stdout = *res.Stdout
	}
	if res.Stderr != nil {
		out.Stderr = *res.Stderr
	}
	if res.Error != nil {
		name := res.Error.Name
		if name == "" {
			name = res.Error.Code
		}
		out.Error = name + ": " + res.Error.Message
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// runAgent runs the loop in context contextID, logging to w, and returns
// the model's answer.
func runAgent(ctx context.Context, c *client.Client, contextID string, m model, task string, w io.Writer) (string, error) {
	messages := []message{{Role: "user", Content: task}}
	for turn := 0; turn < 10; turn++ {
		reply, err := m.Complete(ctx, messages, tools)
		if err != nil {
			return "", err
		}
		messages = append(messages, reply)
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		for _, tc := range reply.ToolCalls {
			fmt.Fprintf(w, "--> run_code:\n%s\n", tc.Args.Code)
			res, err := c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, ContextID: contextID, Code: tc.Args.Code},
				client.OnStdout(func(b []byte) { fmt.Fprintf(w, "    stdout: %s", b) }))
			if err != nil {
				return "", err // a service failure; a guest failure is a result and goes back to the model
			}
			content := toolResult(res)
			fmt.Fprintf(w, "<-- %s\n", content)
			messages = append(messages, message{Role: "tool", ToolCallID: tc.ID, Content: content})
		}
	}
	return "", fmt.Errorf("the model did not answer within 10 turns")
}

func run(ctx context.Context, base string, w io.Writer) (string, error) {
	c := client.New(base, client.WithAPIKey(os.Getenv("WASMEXEC_API_KEY")))
	sc, err := c.CreateContext(ctx, &wasmexec.ContextSpec{Language: wasmexec.Python})
	if err != nil {
		return "", err
	}
	defer c.DeleteContext(context.WithoutCancel(ctx), sc.ContextID)
	return runAgent(ctx, c, sc.ContextID, scriptedModel{}, task, w)
}

func main() {
	base := os.Getenv("WASMEXEC_URL")
	if base == "" {
		base = "http://127.0.0.1:8080"
	}
	answer, err := run(context.Background(), strings.TrimRight(base, "/"), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
	fmt.Println("answer:", answer)
}
