package auth

import "testing"

// FuzzParse: any keys file either parses into keys that each name a known
// tenant, or is an error; never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"tenants":{"a":{"maxContexts":1}},"keys":[{"tenant":"a","key":"0123456789abcdef"}]}`))
	f.Add([]byte(`{"tenants":{"a":{}},"keys":[{"tenant":"a","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}]}`))
	f.Add([]byte(`{"keys":[{}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		set, err := parse(b)
		if err != nil {
			return
		}
		if len(set.keys) == 0 {
			t.Fatal("a keys file without keys parsed")
		}
		for _, k := range set.keys {
			if k.tenant == nil || set.tenants[k.tenant.ID] != k.tenant {
				t.Fatalf("a key names an unknown tenant: %+v", k)
			}
		}
	})
}
