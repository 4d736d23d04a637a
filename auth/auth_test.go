package auth_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/auth"
)

func mustWrite(tb testing.TB, s string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "keys.json")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"not JSON", `{"keys": [`, "not a keys file"},
		{"unknown field", `{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"0123456789abcdef"}],"extra":1}`, "unknown field"},
		{"no keys", `{"tenants":{"a":{}},"keys":[]}`, "no keys"},
		{"unknown tenant", `{"tenants":{"a":{}},"keys":[{"tenant":"b","key":"0123456789abcdef"}]}`, "not in tenants"},
		{"short key", `{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"short"}]}`, "shorter"},
		{"bad hash", `{"tenants":{"a":{}},"keys":[{"tenant":"a","sha256":"xyz"}]}`, "64 hex"},
		{"both", `{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"0123456789abcdef","sha256":"` + auth.HashKey("x") + `"}]}`, "not both"},
		{"neither", `{"tenants":{"a":{}},"keys":[{"tenant":"a"}]}`, "required"},
		{"twice", `{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"0123456789abcdef"},{"tenant":"a","sha256":"` + auth.HashKey("0123456789abcdef") + `"}]}`, "twice"},
		{"negative quota", `{"tenants":{"a":{"maxContexts":-1}},"keys":[{"tenant":"a","key":"0123456789abcdef"}]}`, "negative"},
		{"bad tenant name", `{"tenants":{"a b":{}},"keys":[{"tenant":"a b","key":"0123456789abcdef"}]}`, "tenant name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := auth.Load(mustWrite(t, tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := auth.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing file loads")
	}
}

func TestAuthenticate(t *testing.T) {
	p := mustWrite(t, `{"tenants":{"a":{"maxRunsPerMinute":0},"b":{}},"keys":[{"tenant":"a","key":"plain-key-0123456789"},{"tenant":"b","sha256":"`+auth.HashKey("hashed-key-0123456789")+`"}]}`)
	k, err := auth.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if tn := k.Authenticate("plain-key-0123456789"); tn == nil || tn.ID != "a" || tn.Quotas.MaxRunsPerMinute == nil || *tn.Quotas.MaxRunsPerMinute != 0 {
		t.Fatalf("plain key: %+v", tn)
	}
	if tn := k.Authenticate("hashed-key-0123456789"); tn == nil || tn.ID != "b" || tn.Quotas.MaxContexts != nil {
		t.Fatalf("hashed key: %+v", tn)
	}
	for _, bad := range []string{"", "plain-key-012345678", auth.HashKey("hashed-key-0123456789"), "plain-key-0123456789 "} {
		if tn := k.Authenticate(bad); tn != nil {
			t.Fatalf("%q authenticates as %s", bad, tn.ID)
		}
	}
	// A bad reload keeps the old keys.
	os.WriteFile(p, []byte(`nonsense`), 0o600)
	if err := k.Reload(); err == nil {
		t.Fatal("a bad file reloads")
	}
	if k.Authenticate("plain-key-0123456789") == nil {
		t.Fatal("a bad reload dropped the keys")
	}
}

// BenchmarkAuthenticate: a token is found by its digest, so the cost is
// one SHA-256 whatever the number of keys.
func BenchmarkAuthenticate(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			var keys []string
			for i := 0; i < n; i++ {
				keys = append(keys, fmt.Sprintf(`{"tenant":"a","key":"plain-key-%010d"}`, i))
			}
			k, err := auth.Load(mustWrite(b, `{"tenants":{"a":{}},"keys":[`+strings.Join(keys, ",")+`]}`))
			if err != nil {
				b.Fatal(err)
			}
			last := fmt.Sprintf("plain-key-%010d", n-1)
			for b.Loop() {
				if k.Authenticate(last) == nil {
					b.Fatal("no tenant")
				}
			}
		})
	}
}
