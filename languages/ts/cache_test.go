package ts

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// counting wraps the in-process transpiler, counting its calls.
type counting struct {
	mu sync.Mutex
	n  int
}

func (c *counting) transpile(_ context.Context, code, filename, tsconfig string) (*Program, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return TranspileWith(code, filename, tsconfig)
}

func (c *counting) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// The cache answers the same transpile (code, file name, tsconfig) with
// what the transpiler answered the first time: the program, or the syntax
// error at the same position; anything that differs is a transpile of its
// own, and what depends on the worker (a crash, a timeout) is asked again.
func TestTranspileCacheKeepsOutcomes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name                   string
		code, filename, config string
		wantSyntax             bool
	}{
		{name: "program", code: "interface P { x: number }\nconst p: P = { x: 2 };\np.x * 21"},
		{name: "program named tsx", code: "const e = <b>hi</b>;\ne", filename: "main.tsx"},
		{name: "program under a tsconfig", code: "let a: number | undefined; a ??= 1; a", config: `{"compilerOptions":{"target":"es2019"}}`},
		{name: "syntax error", code: "const x: number = 1;\nconst y = (;\n", wantSyntax: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewTranspileCache(0)
			var tr counting
			first, err1 := c.Transpile(ctx, tt.code, tt.filename, tt.config, tr.transpile)
			again, err2 := c.Transpile(ctx, tt.code, tt.filename, tt.config, tr.transpile)
			if tr.calls() != 1 {
				t.Fatalf("the transpiler ran %d times for the same code", tr.calls())
			}
			if tt.wantSyntax {
				var a, b *SyntaxError
				if !errors.As(err1, &a) || !errors.As(err2, &b) || *a != *b || a.Line != 2 || a == b {
					t.Fatalf("syntax errors: %#v then %#v (want equal copies at line 2)", err1, err2)
				}
				return
			}
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if first.JS != again.JS || string(first.SourceMap) != string(again.SourceMap) || first.Filename != again.Filename || first == again {
				t.Fatalf("a hit is not a fresh copy of the program:\n%+v\n%+v", first, again)
			}
			// A different name, tsconfig or code is not the same transpile.
			c.Transpile(ctx, tt.code, "other.ts", tt.config, tr.transpile)
			c.Transpile(ctx, tt.code, tt.filename, `{"compilerOptions":{"target":"es2015"}}`, tr.transpile)
			c.Transpile(ctx, tt.code+"\n", tt.filename, tt.config, tr.transpile)
			if tr.calls() != 4 {
				t.Fatalf("%d transpiles for 4 distinct inputs", tr.calls())
			}
		})
	}

	c := NewTranspileCache(0)
	n := 0
	crash := func(context.Context, string, string, string) (*Program, error) {
		n++
		return nil, &TranspileError{Reason: ReasonCrashed, Message: "the worker died"}
	}
	for range 2 {
		if _, err := c.Transpile(ctx, "1", "", "", crash); err == nil {
			t.Fatal("no error from a crashing transpiler")
		}
	}
	if n != 2 {
		t.Fatalf("a transpile error was answered from the cache (%d calls)", n)
	}
	if _, err := c.Transpile(ctx, strings.Repeat(" ", MaxSourceBytes+1), "", "", crash); err == nil || n != 2 {
		t.Fatalf("a source over the limit: %v after %d calls", err, n)
	}
}

// Hostile input can't grow the cache past its bound: distinct sources,
// however many, only evict older entries (tiny ones too: each is charged
// its overhead), an output over an eighth of the cache is not kept, and
// the heap after all of it holds no more than the cache's bytes.
func TestTranspileCacheBoundedByDistinctInputs(t *testing.T) {
	ctx := context.Background()
	const max = 1 << 20
	t.Run("real transpiles", func(t *testing.T) {
		c := NewTranspileCache(64 << 10)
		var tr counting
		for i := range 600 {
			if _, err := c.Transpile(ctx, fmt.Sprintf("const v%d: number = %d;\nv%d", i, i, i), "", "", tr.transpile); err != nil {
				t.Fatal(err)
			}
		}
		entries, bytes, _, misses := c.Stats()
		if bytes > 64<<10 || entries > (64<<10)/cacheEntryOverhead || misses != 600 {
			t.Fatalf("%d entries, %d bytes, %d misses: over the 64 KiB bound", entries, bytes, misses)
		}
	})
	t.Run("tiny entries", func(t *testing.T) {
		c := NewTranspileCache(max)
		tiny := func(_ context.Context, code, filename, _ string) (*Program, error) {
			return &Program{JS: "1", Filename: filename}, nil
		}
		for i := range 100_000 {
			c.Transpile(ctx, strings.Repeat("x", i%7)+fmt.Sprint(i), "", "", tiny)
		}
		if entries, bytes, _, _ := c.Stats(); bytes > max || entries > max/cacheEntryOverhead {
			t.Fatalf("%d entries, %d bytes: over the bound", entries, bytes)
		}
	})
	t.Run("an output too large to keep", func(t *testing.T) {
		c := NewTranspileCache(max)
		big := func(_ context.Context, code, filename, _ string) (*Program, error) {
			return &Program{JS: strings.Repeat("x", max/8), Filename: filename}, nil
		}
		c.Transpile(ctx, "1", "", "", big)
		if entries, _, _, _ := c.Stats(); entries != 0 {
			t.Fatal("an output over an eighth of the cache was kept")
		}
	})
	t.Run("heap", func(t *testing.T) {
		// 64 MiB of distinct outputs through a 1 MiB cache: what stays
		// reachable is the cache's bound plus slack, not the flood.
		c := NewTranspileCache(max)
		out := func(_ context.Context, code, filename, _ string) (*Program, error) {
			return &Program{JS: strings.Repeat(code[:1], 8<<10), SourceMap: make([]byte, 8<<10), Filename: filename}, nil
		}
		before := heapInUse()
		for i := range 4096 {
			c.Transpile(ctx, fmt.Sprintf("%c%d", 'a'+i%26, i), "", "", out)
		}
		grown := heapInUse() - before
		if _, bytes, _, _ := c.Stats(); bytes > max || grown > 4*max {
			t.Fatalf("cache %d bytes, heap grew %d bytes after 64 MiB of distinct transpiles (bound %d)", bytes, grown, max)
		}
		runtime.KeepAlive(c)
	})
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Concurrent transpiles of the same and of different code through one
// cache (run with -race) each get a correct program.
func TestTranspileCacheConcurrent(t *testing.T) {
	c := NewTranspileCache(32 << 10)
	var tr counting
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (g*7 + i) % 20
				p, err := c.Transpile(context.Background(), fmt.Sprintf("const n: number = %d;\nn", k), "", "", tr.transpile)
				if err != nil || !strings.Contains(p.JS, fmt.Sprintf("= %d;", k)) {
					t.Errorf("code %d: %v %+v", k, err, p)
					return
				}
			}
		}()
	}
	wg.Wait()
}
