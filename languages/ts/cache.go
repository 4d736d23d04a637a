package ts

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"runtime/debug"
	"sync"
)

// A transpile in a worker costs ~0.3 ms of esbuild's fixed work per
// transform (it links its runtime module into every one) plus a round trip
// to another process, which on a loaded machine waits for a CPU: most of
// what a TypeScript one-shot run costs over the same JavaScript. Agents run
// the same code again (a retry, a script over new inputs or files, a cell a
// context replays), and a transform is a pure function of the code, its
// file name, the tsconfig and esbuild, so its outcome is kept by content.
//
// The cache holds only the bytes a transform returned, each entry charged
// its length plus a fixed overhead, so its memory is bounded by MaxBytes
// whatever the sources: an attacker sending distinct code evicts the oldest
// entries, no more. A hit returns a fresh Program: the source map index a
// failed run decodes is that run's garbage, never the cache's.

// DefaultTranspileCacheBytes bounds a TranspileCache made with 0 bytes.
const DefaultTranspileCacheBytes = 16 << 20

// cacheEntryOverhead is what an entry costs beyond its bytes: the list
// element, the entry, its map slot and headers, rounded up. It is charged
// so that many tiny entries are bounded by MaxBytes too.
const cacheEntryOverhead = 256

// TranspileCache keeps the outcomes of transpiles by content (see above):
// a Program, or a *SyntaxError (esbuild's answer to that code, every
// time). A *TranspileError is not kept: a timeout or a worker's death
// depends on the worker's limits and the machine's load, not on the code
// alone. It is safe for concurrent use; create it with NewTranspileCache.
type TranspileCache struct {
	max int64

	mu    sync.Mutex
	lru   *list.List // of *cacheEntry, most recent first
	byKey map[[sha256.Size]byte]*list.Element
	bytes int64
	hits  uint64
	miss  uint64
}

type cacheEntry struct {
	key       [sha256.Size]byte
	js        string
	filename  string
	sourceMap []byte
	syntax    *SyntaxError
	size      int64
}

// NewTranspileCache returns a cache of at most maxBytes
// (DefaultTranspileCacheBytes when 0). An entry over an eighth of it is not
// kept, so one large program cannot empty the cache of everyone else's.
func NewTranspileCache(maxBytes int64) *TranspileCache {
	if maxBytes == 0 {
		maxBytes = DefaultTranspileCacheBytes
	}
	return &TranspileCache{max: maxBytes, lru: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}
}

// TranspileFunc transpiles code named filename under tsconfig: Transpile
// in this process or in Workers.
type TranspileFunc func(ctx context.Context, code, filename, tsconfig string) (*Program, error)

// Transpile returns the kept outcome of transpiling code named filename
// under tsconfig, or calls transpile and keeps what it returns when that is
// a Program or a *SyntaxError. Errors: transpile's, and wasmexec.ETooLarge
// past MaxSourceBytes (before anything is hashed).
func (c *TranspileCache) Transpile(ctx context.Context, code, filename, tsconfig string, transpile TranspileFunc) (*Program, error) {
	if filename == "" {
		filename = DefaultFilename
	}
	if err := checkSize(code); err != nil {
		return nil, err
	}
	key := transpileKey(code, filename, tsconfig)
	if e, ok := c.get(key); ok {
		return e.outcome()
	}
	p, err := transpile(ctx, code, filename, tsconfig)
	var se *SyntaxError
	switch {
	case err == nil:
		c.put(&cacheEntry{key: key, js: p.JS, filename: p.Filename, sourceMap: p.SourceMap})
	case errors.As(err, &se):
		c.put(&cacheEntry{key: key, syntax: se})
	}
	return p, err
}

// Stats reports the cache's entries, the bytes charged for them, and its
// hits and misses so far.
func (c *TranspileCache) Stats() (entries int, bytes int64, hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.bytes, c.hits, c.miss
}

func (c *TranspileCache) get(key [sha256.Size]byte) (*cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		c.miss++
		return nil, false
	}
	c.hits++
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

// outcome is what the transpile that made e returned, as new values the
// caller may keep (entries are never changed once stored).
func (e *cacheEntry) outcome() (*Program, error) {
	if e.syntax != nil {
		se := *e.syntax
		return nil, &se
	}
	return &Program{JS: e.js, Filename: e.filename, SourceMap: e.sourceMap}, nil
}

func (c *TranspileCache) put(e *cacheEntry) {
	e.size = cacheEntryOverhead + int64(len(e.js)+len(e.filename)+len(e.sourceMap))
	if e.syntax != nil {
		e.size += int64(len(e.syntax.Filename) + len(e.syntax.Message))
	}
	if e.size > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[e.key]; ok {
		return // a concurrent miss on the same code kept it first
	}
	c.byKey[e.key] = c.lru.PushFront(e)
	c.bytes += e.size
	for c.bytes > c.max {
		old := c.lru.Remove(c.lru.Back()).(*cacheEntry)
		delete(c.byKey, old.key)
		c.bytes -= old.size
	}
}

// transpileKey is what a transform's outcome depends on: esbuild's version
// (the options are this build's transformOptions), the file name (which
// picks the loader and names the program), the tsconfig and the code, each
// length-prefixed so no two inputs share a key.
func transpileKey(code, filename, tsconfig string) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range [...]string{esbuildVersion, filename, tsconfig, code} {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// esbuildVersion is the esbuild module this binary was built with.
var esbuildVersion = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/evanw/esbuild" {
				if d.Replace != nil {
					return d.Replace.Path + "@" + d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return "unknown"
}()
