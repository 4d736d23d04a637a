package wasmexec

import (
	"regexp"
	"sort"
)

// Network vocabulary: a run's outbound HTTP(S), made by the host
// on the guest's behalf (package egress), never by the guest itself.

// Network opens a run (or every run of a context) to the hosts its allow
// list names: `network: {"allow": ["api.example.com:443", "*.example.org",
// "http://127.0.0.1:9000"]}`. Each pattern must lie within the operator's
// ceiling (--network-allow), else the request is invalid_argument naming
// the pattern.
type Network struct {
	Allow []string `json:"allow"`
}

// Secret is a value the guest never sees: its environment holds
// SecretPlaceholder(name) instead, and the host puts the value in place of
// the placeholder in request headers and URL query strings of requests to
// Hosts only (patterns of the allow-list syntax; one without a scheme means
// https only). The value is scrubbed from responses and never stored.
type Secret struct {
	Value string   `json:"value"`
	Hosts []string `json:"hosts"`
}

// NetworkCeiling checks a run's network and secrets against the operator's
// settings. egress implements it; nil in a Policy means no network.
type NetworkCeiling interface {
	// CheckNetwork returns invalid_argument naming the first pattern beyond
	// the ceiling, or a malformed one.
	CheckNetwork(n *Network, secrets map[string]Secret) error
}

var secretNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// MaxSecrets bounds the secrets of one request or context.
const MaxSecrets = 64

// MaxSecretBytes bounds one secret's value.
const MaxSecretBytes = 16 << 10

// MaxSecretsTotalBytes bounds the values of all secrets of one request or
// context together: the scrubber's automaton grows with them (about 80
// bytes of it per byte of value in the worst case), so this keeps it to a
// few MiB per run, whatever the client sends.
const MaxSecretsTotalBytes = 64 << 10

// SecretPlaceholder is what the guest's environment variable name holds in
// place of the secret's value. It is URL-safe, so it survives a query string.
func SecretPlaceholder(name string) string { return "wasmexec-secret-" + name }

// SecretEnv returns env with each secret's placeholder added under the
// secret's name (a new map; env is not modified).
func SecretEnv(env map[string]string, secrets map[string]Secret) map[string]string {
	if len(secrets) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(secrets))
	for k, v := range env {
		out[k] = v
	}
	for name := range secrets {
		out[name] = SecretPlaceholder(name)
	}
	return out
}

// CheckNetwork validates a run's network and secrets against the policy's
// ceiling: invalid_argument for a malformed or forbidden pattern, a bad
// secret, or a secret whose name is also an env variable.
func (p Policy) CheckNetwork(n *Network, secrets map[string]Secret, env map[string]string) error {
	if len(secrets) > MaxSecrets {
		return Errorf(EInvalid, "secrets: %d secrets; at most %d", len(secrets), MaxSecrets)
	}
	names := make([]string, 0, len(secrets))
	for name := range secrets {
		names = append(names, name)
	}
	sort.Strings(names)
	total := 0
	for _, name := range names {
		s := secrets[name]
		if total += len(s.Value); total > MaxSecretsTotalBytes {
			return Errorf(EInvalid, "secrets: their values hold more than %d bytes together", MaxSecretsTotalBytes)
		}
		switch {
		case !secretNameRE.MatchString(name):
			return Errorf(EInvalid, "secrets: name %q must be an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128)", name)
		case s.Value == "":
			return Errorf(EInvalid, "secrets.%s: value is required", name)
		case len(s.Value) > MaxSecretBytes:
			return Errorf(EInvalid, "secrets.%s: value is %d bytes; at most %d", name, len(s.Value), MaxSecretBytes)
		case len(s.Hosts) == 0:
			return Errorf(EInvalid, "secrets.%s: hosts is required (the hosts the value may be sent to)", name)
		}
		if _, ok := env[name]; ok {
			return Errorf(EInvalid, "secrets.%s: also set in env; a secret's variable holds its placeholder", name)
		}
	}
	if (n == nil || len(n.Allow) == 0) && len(secrets) == 0 {
		return nil
	}
	if p.Network == nil {
		if n != nil && len(n.Allow) > 0 {
			return Errorf(EInvalid, "network.allow %q: the network is disabled on this server (--network-allow is empty)", n.Allow[0])
		}
		return Errorf(EInvalid, "secrets need network access, which is disabled on this server (--network-allow is empty)")
	}
	return p.Network.CheckNetwork(n, secrets)
}

// NetworkRequest is one HTTP request a run made through the host (one per
// redirect hop), as its execution record lists it. URL never holds a
// secret's value (placeholders stay placeholders).
type NetworkRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status; 0 when the request failed (Error says why).
	Status int    `json:"status"`
	Bytes  int64  `json:"bytes"` // response body bytes received
	Ms     int64  `json:"ms"`
	Error  string `json:"error,omitempty"`
	// Secrets names the secrets substituted into this request.
	Secrets []string `json:"secrets,omitempty"`
}

// Network is the channel of an output event that records one request
// (its chunk is the NetworkRequest as JSON).
const NetworkChannel Channel = "network"
