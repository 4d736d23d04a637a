package wasmexec

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Payload puts the texts of conversions and sources after the JSON, each
// as long as the JSON says, conversions first, sources in path order; a
// request with neither is plain JSON.
func TestControlRequestPayload(t *testing.T) {
	plain, err := ControlRequest{Op: "evaluate", Code: "1+1"}.Payload()
	if err != nil || bytes.IndexByte(plain, 0) >= 0 || !json.Valid(plain) {
		t.Fatalf("plain request: %q %v", plain, err)
	}
	c := ControlRequest{
		Op:          "evaluate",
		Code:        "x\x00y", // a NUL in code is escaped in the JSON
		Conversions: []Conversion{{Key: "k1", Code: "conv one"}, {Key: "k2", Code: ""}},
		Sources:     map[string]string{"/workspace/b.mjs": "bee\x00", "/workspace/a.mjs": "a"},
	}
	p, err := c.Payload()
	if err != nil {
		t.Fatal(err)
	}
	head, tail, ok := bytes.Cut(p, []byte{0})
	if !ok {
		t.Fatalf("no NUL in %q", p)
	}
	var w struct {
		Code        string
		Conversions []struct {
			Key string
			Len int
		}
		Sources []struct {
			Path string
			Len  int
		}
	}
	if err := json.Unmarshal(head, &w); err != nil {
		t.Fatalf("head %q: %v", head, err)
	}
	if w.Code != "x\x00y" || len(w.Conversions) != 2 || len(w.Sources) != 2 || w.Sources[0].Path != "/workspace/a.mjs" {
		t.Fatalf("head: %+v", w)
	}
	var got []string
	for _, n := range []int{w.Conversions[0].Len, w.Conversions[1].Len, w.Sources[0].Len, w.Sources[1].Len} {
		got = append(got, string(tail[:n]))
		tail = tail[n:]
	}
	if want := []string{"conv one", "", "a", "bee\x00"}; len(tail) != 0 || jsonOf(got) != jsonOf(want) {
		t.Fatalf("texts %q (left %q), want %q", got, tail, want)
	}
}

func jsonOf(s []string) string { b, _ := json.Marshal(s); return string(b) }
