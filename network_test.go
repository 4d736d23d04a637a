package wasmexec

import (
	"fmt"
	"strings"
	"testing"
)

// Secrets a client sends are bounded one by one and together: the host
// builds a matcher over all their values for every run that has them.
func TestCheckNetworkSecretBounds(t *testing.T) {
	many := func(n, size int) map[string]Secret {
		m := map[string]Secret{}
		for i := range n {
			m[fmt.Sprintf("S%d", i)] = Secret{Value: strings.Repeat("x", size), Hosts: []string{"api.example.com"}}
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		secrets map[string]Secret
		want    string // "" for accepted (the network check comes after)
	}{
		{"one at the size limit", many(1, MaxSecretBytes), "which is disabled"},
		{"one past the size limit", many(1, MaxSecretBytes+1), "at most 16384"},
		{"too many", many(MaxSecrets+1, 8), "at most 64"},
		{"the most values together", many(4, MaxSecretsTotalBytes/4), "which is disabled"},
		{"past the total", many(5, MaxSecretsTotalBytes/4), "together"},
		{"every secret at its limit", many(MaxSecrets, MaxSecretBytes), "together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Policy{}.CheckNetwork(nil, tc.secrets, nil)
			if err == nil || ErrorCode(err) != EInvalid || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want invalid_argument with %q", err, tc.want)
			}
		})
	}
}
