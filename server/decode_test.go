package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wasmexec/wasmexec"
)

func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       string
	}{
		{"ok", `{"language":"javascript","code":"1"}`, ""},
		{"ok with whitespace after", "{\"code\":\"1\"} \r\n\t", ""},
		{"inputs at the depth limit", `{"code":"1","inputs":` + nested(MaxJSONDepth-1) + `}`, ""},
		{"inputs one deeper", `{"code":"1","inputs":` + nested(MaxJSONDepth) + `}`, wasmexec.EInvalid},
		{"inputs 9000 deep", `{"code":"1","inputs":` + nested(9000) + `}`, wasmexec.EInvalid},
		{"brackets in strings don't nest", `{"code":"` + strings.Repeat("[{", 2000) + `"}`, ""},
		{"escaped quote in a string", `{"code":"\"[[[\\\"` + strings.Repeat("[", 2000) + `"}`, ""},
		{"invalid UTF-8 in a string", "{\"code\":\"'\xff'\"}", wasmexec.EInvalid},
		{"truncated UTF-8", "{\"code\":\"\xe2\x82\"}", wasmexec.EInvalid},
		{"surrogate half encoded as UTF-8", "{\"code\":\"\xed\xa0\x80\"}", wasmexec.EInvalid},
		{"valid UTF-8", `{"code":"ünïcødé ✓ 🎉"}`, ""},
		{"trailing data", `{"code":"1"} {}`, wasmexec.EInvalid},
		{"trailing bracket", `{"code":"1"}}`, wasmexec.EInvalid},
		{"empty", ``, wasmexec.EInvalid},
		{"unknown field", `{"cod":"1"}`, wasmexec.EInvalid},
		{"over the size limit", `{"code":"` + strings.Repeat("x", 100) + `"}`, wasmexec.ETooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req wasmexec.Request
			limit := int64(1 << 20)
			if tc.code == wasmexec.ETooLarge {
				limit = 64
			}
			body := http.MaxBytesReader(httptest.NewRecorder(), readCloser{strings.NewReader(tc.body)}, limit)
			err := decodeJSON(body, limit, &req)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				return
			}
			if wasmexec.ErrorCode(err) != tc.code {
				t.Fatalf("decode: %v, want %s", err, tc.code)
			}
		})
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

// fuzzDecoder checks one request decoder: whatever the body, decodeJSON
// never panics, fails only with invalid_argument or payload_too_large, and
// accepts only valid UTF-8 JSON no deeper than MaxJSONDepth whose value
// decodes again once encoded.
func fuzzDecoder[T any](f *testing.F, seeds ...string) {
	for _, s := range append(seeds, ``, `{}`, `null`, `[]`, `{"x":1}`, "{\"code\":\"\xff\"}", `{"code":"1"} x`, nested(MaxJSONDepth+1), `{"inputs":`+nested(50)+`}`) {
		f.Add([]byte(s))
	}
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, body []byte) {
		var v T
		err := decodeJSON(http.MaxBytesReader(httptest.NewRecorder(), readCloser{strings.NewReader(string(body))}, limit), limit, &v)
		if err != nil {
			if c := wasmexec.ErrorCode(err); c != wasmexec.EInvalid && c != wasmexec.ETooLarge {
				t.Fatalf("decode %q: %v (code %s)", body, err, c)
			}
			return
		}
		if !utf8.Valid(body) || !json.Valid(body) || checkDepth(body, MaxJSONDepth) != nil {
			t.Fatalf("accepted %q", body)
		}
		again, err := json.Marshal(&v)
		if err != nil {
			t.Fatalf("re-encode %q: %v", body, err)
		}
		var w T
		if err := decodeJSON(bytes.NewReader(again), 1<<30, &w); err != nil {
			t.Fatalf("decode of the re-encoded %q (%s): %v", body, again, err)
		}
	})
}

func FuzzDecodeRunRequest(f *testing.F) {
	fuzzDecoder[wasmexec.Request](f,
		`{"language":"javascript","code":"1+1"}`,
		`{"language":"python","code":"print(1)","inputs":{"a":[1,{"b":null}]},"stdin":"x","env":{"A":"1"},"args":["a"],"cwd":"/workspace","files":{"a.txt":"x"},"timeoutMs":100,"limits":{"fuel":1,"memoryBytes":2,"outputBytes":3},"output":{"capture":"all","retainEvents":true},"format":"module","contextId":"c"}`,
		`{"language":"javascript","code":1}`)
}

func FuzzDecodeContextSpec(f *testing.F) {
	fuzzDecoder[wasmexec.ContextSpec](f, `{"contextId":"c","language":"javascript"}`, `{"language":"python","env":{"A":"1"},"limits":{"memoryBytes":1}}`)
}

func FuzzDecodeSpawnRequest(f *testing.F) {
	fuzzDecoder[wasmexec.SpawnRequest](f, `{"language":"javascript","code":"for(;;){}"}`, `{"language":"python","file":"app.py","contextId":"c","args":["a"],"timeoutMs":5}`)
}

func FuzzDecodeStdinBody(f *testing.F) {
	fuzzDecoder[stdinBody](f, `{"data":"hello\n"}`, `{"data":"aGk=","encoding":"base64"}`)
}

func FuzzDecodeSignalBody(f *testing.F) {
	fuzzDecoder[signalBody](f, `{"signal":"SIGTERM"}`, `{"signal":9}`)
}

func FuzzDecodeCheckRequest(f *testing.F) {
	fuzzDecoder[wasmexec.TypeScriptCheckRequest](f, `{"code":"let x: number = 1"}`, `{"files":{"a.ts":"export {}"},"filePath":"a.ts","compilerOptions":{"strict":true},"timeoutMs":100}`)
}
