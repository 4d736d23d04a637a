package npm

import (
	"container/list"
	"sync"
	"time"
)

// Packuments are cached on the host between installs, so a warm install
// (every tarball in the content-addressed cache) asks the registry
// nothing: each packument is kept for Client.PackumentTTL (default 5
// minutes: a version published meanwhile is seen once it expires), and
// the cache holds at most Client.PackumentCacheBytes of registry documents
// (default 64 MiB, counted as the bytes the registry sent), the least
// recently used going first.

const (
	// DefaultPackumentTTL is how long a cached packument is used.
	DefaultPackumentTTL = 5 * time.Minute
	// DefaultPackumentCacheBytes bounds the packument cache.
	DefaultPackumentCacheBytes = 64 << 20
)

type packumentEntry struct {
	name    string
	doc     *packument
	bytes   int64
	fetched time.Time
}

// packumentCache is an LRU of parsed packuments bounded by the bytes of
// their documents.
type packumentCache struct {
	mu    sync.Mutex
	lru   *list.List // of *packumentEntry, most recent first
	byKey map[string]*list.Element
	bytes int64
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) packumentTTL() time.Duration {
	if c.PackumentTTL != 0 {
		return c.PackumentTTL
	}
	return DefaultPackumentTTL
}

func (c *Client) packumentCacheBytes() int64 {
	if c.PackumentCacheBytes != 0 {
		return c.PackumentCacheBytes
	}
	return DefaultPackumentCacheBytes
}

// cachedPackument returns name's packument when cached and fresh.
func (c *Client) cachedPackument(name string) (*packument, bool) {
	pc := &c.packuments
	pc.mu.Lock()
	defer pc.mu.Unlock()
	el, ok := pc.byKey[name]
	if !ok {
		return nil, false
	}
	e := el.Value.(*packumentEntry)
	if c.packumentTTL() < 0 || c.now().Sub(e.fetched) >= c.packumentTTL() {
		pc.remove(el)
		return nil, false
	}
	pc.lru.MoveToFront(el)
	return e.doc, true
}

// storePackument caches name's packument (size: its document's bytes),
// evicting the least recently used past the bound. A document larger than
// the whole bound is not kept.
func (c *Client) storePackument(name string, doc *packument, size int64) {
	max := c.packumentCacheBytes()
	if c.packumentTTL() < 0 || size > max {
		return
	}
	pc := &c.packuments
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.lru == nil {
		pc.lru, pc.byKey = list.New(), map[string]*list.Element{}
	}
	if el, ok := pc.byKey[name]; ok {
		pc.remove(el)
	}
	pc.byKey[name] = pc.lru.PushFront(&packumentEntry{name: name, doc: doc, bytes: size, fetched: c.now()})
	pc.bytes += size
	for pc.bytes > max {
		pc.remove(pc.lru.Back())
	}
}

func (pc *packumentCache) remove(el *list.Element) {
	e := pc.lru.Remove(el).(*packumentEntry)
	delete(pc.byKey, e.name)
	pc.bytes -= e.bytes
}
