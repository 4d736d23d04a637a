package wasmexec

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestResultStreamsJSON(t *testing.T) {
	p := func(s string) *string { return &s }
	for _, tt := range []struct {
		name      string
		out       *string
		truncated bool
		wantOut   string // JSON of stdout, "" for absent
		wantEnc   string
		roundTrip string // what decoding gives back
	}{
		{"text", p("héllo\n"), false, `"héllo\n"`, "", "héllo\n"},
		{"absent", nil, false, "", "", ""},
		{"binary", p("\xff\x00a"), false, `"/wBh"`, "base64", "\xff\x00a"},
		{"cut mid-character", p("ab\xc3"), true, `"ab"`, "", "ab"},
		{"invalid and cut", p("\xffab\xc3"), true, `"/2Fiww=="`, "base64", "\xffab\xc3"},
		{"incomplete, not cut", p("ab\xc3"), false, `"YWLD"`, "base64", "ab\xc3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Result{ExecutionID: "exe_1", Outcome: Succeeded, Stdout: tt.out, StdoutTruncated: tt.truncated}
			b, err := json.Marshal(&r)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if string(m["stdout"]) != tt.wantOut {
				t.Errorf("stdout JSON %s, want %s", m["stdout"], tt.wantOut)
			}
			enc := ""
			if m["stdoutEncoding"] != nil {
				json.Unmarshal(m["stdoutEncoding"], &enc)
			}
			if enc != tt.wantEnc || m["stderrEncoding"] != nil {
				t.Errorf("stdoutEncoding %q (stderrEncoding %s), want %q", enc, m["stderrEncoding"], tt.wantEnc)
			}
			if !strings.Contains(string(b), `"executionId":"exe_1"`) {
				t.Errorf("other fields lost: %s", b)
			}
			var back Result
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if got := ""; back.Stdout != nil && *back.Stdout != tt.roundTrip || back.Stdout == nil && tt.out != nil {
				if back.Stdout != nil {
					got = *back.Stdout
				}
				t.Errorf("decoded stdout %q, want %q", got, tt.roundTrip)
			}
		})
	}
}
