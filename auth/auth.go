// Package auth reads API keys and the tenants they name from a keys file
// (--auth-keys-file) and checks bearer tokens against them.
//
// The file is JSON:
//
//	{
//	  "tenants": {
//	    "acme":  {"maxContexts": 8, "maxConcurrentRuns": 4, "maxProcesses": 2,
//	              "maxRunsPerMinute": 600, "maxWorkspaceBytes": 104857600},
//	    "intern": {"maxRunsPerMinute": 0}
//	  },
//	  "keys": [
//	    {"tenant": "acme", "key": "wx_live_3b1f...at least 16 characters"},
//	    {"tenant": "acme", "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
//	  ]
//	}
//
// A key is given in plain text ("key") or as the hex SHA-256 of its text
// ("sha256"); either way only the hash is kept in memory. An absent quota
// is unlimited; a quota of 0 allows nothing. A token is checked by hashing
// it, finding its SHA-256 digest in a map of the keys' digests, and
// comparing the digest found with the token's in constant time: the time
// taken depends on the digest only (which reveals nothing about a key),
// never on how many of a key's characters a guess got right, and not on
// the number of keys.
package auth

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync/atomic"

	"github.com/wasmexec/wasmexec"
)

// MinKeyLength is the shortest plain-text key the file may give.
const MinKeyLength = 16

// File is the keys file's shape.
type File struct {
	Tenants map[string]wasmexec.Quotas `json:"tenants"`
	Keys    []KeyEntry                 `json:"keys"`
}

// KeyEntry is one key of the file.
type KeyEntry struct {
	Tenant string `json:"tenant"`
	Key    string `json:"key,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

type key struct {
	hash   [sha256.Size]byte
	tenant *wasmexec.Tenant
}

type keySet struct {
	keys    map[[sha256.Size]byte]*key // by digest
	tenants map[string]*wasmexec.Tenant
}

// Keys is a loaded keys file, safe for concurrent use; Reload swaps it.
type Keys struct {
	path string
	set  atomic.Pointer[keySet]
}

var tenantID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Load reads the keys file at path. A file that doesn't parse, or names
// no key, is an error (the server refuses to start).
func Load(path string) (*Keys, error) {
	k := &Keys{path: path}
	if err := k.Reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// Reload reads the file again. On error the keys loaded before are kept.
func (k *Keys) Reload() error {
	b, err := os.ReadFile(k.path)
	if err != nil {
		return fmt.Errorf("read the keys file: %w", err)
	}
	set, err := parse(b)
	if err != nil {
		return fmt.Errorf("keys file %s: %w", k.path, err)
	}
	k.set.Store(set)
	return nil
}

// parse checks and hashes a keys file's content.
func parse(b []byte) (*keySet, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a keys file: %v", err)
	}
	if len(f.Keys) == 0 {
		return nil, errors.New("no keys")
	}
	set := &keySet{keys: map[[sha256.Size]byte]*key{}, tenants: map[string]*wasmexec.Tenant{}}
	for id, q := range f.Tenants {
		if !tenantID.MatchString(id) {
			return nil, fmt.Errorf("tenant name %q: use 1-64 of [A-Za-z0-9_.-]", id)
		}
		for name, v := range map[string]*int64{"maxContexts": q.MaxContexts, "maxConcurrentRuns": q.MaxConcurrentRuns, "maxProcesses": q.MaxProcesses, "maxRunsPerMinute": q.MaxRunsPerMinute, "maxWorkspaceBytes": q.MaxWorkspaceBytes} {
			if v != nil && *v < 0 {
				return nil, fmt.Errorf("tenant %s: %s must not be negative", id, name)
			}
		}
		set.tenants[id] = &wasmexec.Tenant{ID: id, Quotas: q}
	}
	for i, e := range f.Keys {
		t := set.tenants[e.Tenant]
		if t == nil {
			return nil, fmt.Errorf("key %d names tenant %q, which is not in tenants", i+1, e.Tenant)
		}
		var h [sha256.Size]byte
		switch {
		case e.Key != "" && e.SHA256 != "":
			return nil, fmt.Errorf("key %d: give key or sha256, not both", i+1)
		case e.Key != "":
			if len(e.Key) < MinKeyLength {
				return nil, fmt.Errorf("key %d is shorter than %d characters", i+1, MinKeyLength)
			}
			h = sha256.Sum256([]byte(e.Key))
		case e.SHA256 != "":
			d, err := hex.DecodeString(e.SHA256)
			if err != nil || len(d) != sha256.Size {
				return nil, fmt.Errorf("key %d: sha256 must be 64 hex digits", i+1)
			}
			copy(h[:], d)
		default:
			return nil, fmt.Errorf("key %d: key or sha256 is required", i+1)
		}
		if set.keys[h] != nil {
			return nil, fmt.Errorf("key %d is given twice", i+1)
		}
		set.keys[h] = &key{hash: h, tenant: t}
	}
	return set, nil
}

// Authenticate returns the tenant of token, or nil: the key with the
// token's SHA-256 digest, its digest compared again in constant time.
func (k *Keys) Authenticate(token string) *wasmexec.Tenant {
	set := k.set.Load()
	if set == nil || token == "" {
		return nil
	}
	h := sha256.Sum256([]byte(token))
	e := set.keys[h]
	if e == nil || subtle.ConstantTimeCompare(h[:], e.hash[:]) != 1 {
		return nil
	}
	return e.tenant
}

// Count returns how many tenants and keys are loaded.
func (k *Keys) Count() (tenants, keys int) {
	set := k.set.Load()
	return len(set.tenants), len(set.keys)
}

// HashKey returns the hex SHA-256 of a key, the form a keys file may give.
func HashKey(k string) string {
	h := sha256.Sum256([]byte(k))
	return hex.EncodeToString(h[:])
}
