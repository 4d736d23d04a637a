package js_test

import (
	"context"
	"encoding/json"
	"testing"

	wexec "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/js"
)

// Bytes written to process.stdout and process.stderr arrive as those
// bytes, as Node writes them: a Buffer or Uint8Array (or the part of an
// ArrayBuffer it views) is not decoded as UTF-8 first, and a string with
// an encoding is written in it. The result carries non-UTF-8 output as
// base64 (stdoutEncoding).
func TestStdoutWritesBytes(t *testing.T) {
	r := mustRunner(t, js.Driver{})
	for _, tc := range []struct {
		name, code     string
		stdout, stderr string
		stdoutIsBase64 bool
	}{
		{"a Buffer", `process.stdout.write(Buffer.from([0xff, 0]))`, "\xff\x00", "", true},
		{"a Uint8Array", `process.stdout.write(new Uint8Array([0x80, 0x41, 0xc3]))`, "\x80A\xc3", "", true},
		{"a view into a larger buffer", `process.stdout.write(new Uint8Array(new Uint8Array([1, 0xfe, 0xfd, 2]).buffer, 1, 2))`, "\xfe\xfd", "", true},
		{"a subarray of a Buffer", `process.stdout.write(Buffer.from('abcdef').subarray(2, 4))`, "cd", "", false},
		{"to stderr", `process.stderr.write(Buffer.from([0xfe]))`, "", "\xfe", false},
		{"UTF-8 bytes stay text", `process.stdout.write(Buffer.from('café ✓'))`, "café ✓", "", false},
		{"a string in latin1", `process.stdout.write('\xff\x00', 'latin1')`, "\xff\x00", "", true},
		{"a string in hex, then a callback", `process.stdout.write('ff00', 'hex'); process.stdout.write('!', () => {})`, "\xff\x00!", "", true},
		{"a string as before", `process.stdout.write('plain ' + 1)`, "plain 1", "", false},
		{"in order with console.log", `console.log('a'); process.stdout.write(Buffer.from([0xff])); console.log('b')`, "a\n\xffb\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), &wexec.Request{Kind: wexec.KindExecute, Language: wexec.JavaScript, Code: tc.code}, wexec.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != wexec.Succeeded {
				t.Fatalf("%s %+v", res.Outcome, res.Error)
			}
			if res.Stdout == nil || *res.Stdout != tc.stdout {
				t.Fatalf("stdout %q, want %q", deref(res.Stdout), tc.stdout)
			}
			if deref(res.Stderr) != tc.stderr {
				t.Fatalf("stderr %q, want %q", deref(res.Stderr), tc.stderr)
			}
			// the wire form: base64 exactly when the bytes are not UTF-8
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			var wire struct {
				Stdout         string `json:"stdout"`
				StdoutEncoding string `json:"stdoutEncoding"`
			}
			if err := json.Unmarshal(b, &wire); err != nil {
				t.Fatal(err)
			}
			if got := wire.StdoutEncoding == "base64"; got != tc.stdoutIsBase64 {
				t.Fatalf("stdoutEncoding %q in %s, want base64: %v", wire.StdoutEncoding, b, tc.stdoutIsBase64)
			}
			var back wexec.Result
			if err := json.Unmarshal(b, &back); err != nil || deref(back.Stdout) != tc.stdout {
				t.Fatalf("decoded stdout %q (%v), want %q", deref(back.Stdout), err, tc.stdout)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
