package wasmexec

import (
	"strings"
	"testing"
)

// A 32-bit guest addresses at most 4 GiB; a larger maximum is refused.
func TestPolicyRefusesMemoryAbove4GiB(t *testing.T) {
	p := DefaultPolicy()
	p.Max.MemoryBytes = MaxMemoryBytes
	if err := p.Validate(); err != nil {
		t.Fatalf("4 GiB refused: %v", err)
	}
	p.Max.MemoryBytes = MaxMemoryBytes + 1
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "4 GiB") {
		t.Fatalf("4 GiB + 1 accepted (%v)", err)
	}
}
