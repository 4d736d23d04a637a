package main

import (
	"strings"
	"testing"
)

// --max-memory-bytes is bounded by what a 32-bit guest can address: above
// 4 GiB the server refuses to start, naming the flag and the range.
func TestOptionsMaxMemoryBytes(t *testing.T) {
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{"268435456", true},
		{"4294967296", true},
		{"4294967297", false},
		{"8589934592", false},
		{"0", false},
	} {
		t.Run(tc.value, func(t *testing.T) {
			o, err := parseOptions("serve", []string{"--max-memory-bytes", tc.value})
			if err != nil {
				t.Fatal(err)
			}
			err = o.validate(nil)
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "--max-memory-bytes") || !strings.Contains(err.Error(), "1..4294967296") {
				t.Fatalf("error = %v, want one naming --max-memory-bytes and 1..4294967296", err)
			}
		})
	}
}

// A workspace's default quota holds a real project's node_modules (issue
// 14): 256 MiB unless --workspace-quota-bytes says otherwise.
func TestOptionsWorkspaceQuotaDefault(t *testing.T) {
	o, err := parseOptions("serve", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.workspaceQuota != 256<<20 {
		t.Fatalf("default --workspace-quota-bytes = %d, want %d (256 MiB)", o.workspaceQuota, 256<<20)
	}
}
