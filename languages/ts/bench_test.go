package ts

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"
)

// bench50 is a typical 50-line agent snippet: interfaces, a generic, an
// enum, a class, async code and a final expression.
const bench50 = `// users.ts: a typical agent snippet
interface User {
  id: number;
  name: string;
  email?: string;
  tags: string[];
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

enum Role { Admin = "admin", Member = "member", Guest = "guest" }

function groupBy<T, K extends string | number>(items: T[], key: (t: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) {
    const k = key(item);
    (out[k] ??= []).push(item);
  }
  return out;
}

class Repo<T extends { id: number }> {
  private items = new Map<number, T>();
  constructor(private readonly name: string) {}
  add(item: T): this {
    this.items.set(item.id, item);
    return this;
  }
  find(pred: (t: T) => boolean): Result<T> {
    for (const v of this.items.values()) if (pred(v)) return { ok: true, value: v };
    return { ok: false, error: ` + "`" + `${this.name}: not found` + "`" + ` };
  }
  get size(): number { return this.items.size; }
}

async function load(n: number): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < n; i++) {
    users.push({ id: i, name: "user" + i, tags: i % 2 ? ["odd"] : ["even"] });
  }
  return users;
}

const repo = new Repo<User>("users");
const users = await load(10);
users.forEach((u) => repo.add(u));
const byTag = groupBy(users, (u) => u.tags[0]);
const found = repo.find((u) => u.name === "user3");
const role: Role = Role.Member;
({ size: repo.size, odd: byTag["odd"]?.length, found: found.ok, role })
`

func BenchmarkTranspile(b *testing.B) {
	if n := strings.Count(bench50, "\n"); n != 50 {
		b.Fatalf("bench50 has %d lines", n)
	}
	durs := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		if _, err := Transpile(bench50, "main.ts"); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(start))
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	if len(durs) > 0 {
		b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns/op")
		b.ReportMetric(float64(durs[len(durs)*99/100].Nanoseconds()), "p99-ns/op")
	}
}

// BenchmarkMapStack measures the error path: decoding the source map (paid
// once per Program, on its first MapStack/MapPosition) and a mapped stack.
func BenchmarkMapStack(b *testing.B) {
	const stack = "Error: boom\n\tat find (main.ts:30:9(12))\n\tat main.ts:54:1(40)\n"
	b.Run("decode", func(b *testing.B) {
		p, _ := Transpile(bench50, "main.ts")
		for b.Loop() {
			if _, err := decodeSourceMap(p.SourceMap, p.JS); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		p, _ := Transpile(bench50, "main.ts")
		p.MapStack(stack)
		for b.Loop() {
			p.MapStack(stack)
		}
	})
}

// BenchmarkWorkersTranspile is Transpile through a worker process: the
// server's path (pipe round trip and JSON framing included).
func BenchmarkWorkersTranspile(b *testing.B) {
	w := MustStartWorkers(b, WorkersConfig{Size: 1})
	for b.Loop() {
		if _, err := w.Transpile(context.Background(), bench50, "main.ts"); err != nil {
			b.Fatal(err)
		}
	}
}
