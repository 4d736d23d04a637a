package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string // substring; "" means valid
	}{
		{"zero fields take defaults", Config{Path: "x.db"}, ""},
		{"all set", Config{Path: "x.db", CompletedTTL: time.Second, MaxCompleted: 1, MaxCodeBytes: 1, MaxEventsBytes: 1, MaxTombstones: 1, SweepInterval: time.Second}, ""},
		{"no path", Config{}, "Path (SQLite) or URL (PostgreSQL) is required"},
		{"path and url", Config{Path: "x.db", URL: "postgres://h/db"}, "not both"},
		{"not a postgres url", Config{URL: "mysql://u:secret@h/db"}, "must start with postgres://"},
		{"negative ttl", Config{Path: "x.db", CompletedTTL: -time.Second}, "CompletedTTL must be positive"},
		{"sub-millisecond ttl", Config{Path: "x.db", CompletedTTL: time.Microsecond}, "at least 1ms"},
		{"negative max completed", Config{Path: "x.db", MaxCompleted: -1}, "MaxCompleted must be a positive integer, got -1"},
		{"negative max code", Config{Path: "x.db", MaxCodeBytes: -5}, "MaxCodeBytes must be a positive integer, got -5"},
		{"negative max events", Config{Path: "x.db", MaxEventsBytes: -5}, "MaxEventsBytes must be a positive integer"},
		{"negative tombstones", Config{Path: "x.db", MaxTombstones: -5}, "MaxTombstones must be a positive integer"},
		{"negative sweep interval", Config{Path: "x.db", SweepInterval: -time.Second}, "SweepInterval must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			errContains(t, err, tt.wantErr)
			wantCode(t, "Validate", err, wasmexec.EInvalid)
			// Open refuses the same config, before touching the disk.
			if _, err := Open(context.Background(), tt.cfg); err == nil {
				t.Fatal("Open accepted an invalid config")
			}
		})
	}
	d := Config{Path: "x.db"}.withDefaults()
	if d.CompletedTTL != 300000*time.Millisecond || d.MaxCompleted != 1024 || d.MaxCodeBytes != 64<<10 ||
		d.MaxTombstones != 10240 || d.SweepInterval <= 0 || d.MaxEventsBytes <= 0 || d.Now == nil || d.Logger == nil {
		t.Fatalf("defaults: %+v", d)
	}
}

func TestOpenSetsPragmasAndMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "x.db")
	s := MustOpen(t, Config{Path: path})
	if s.Path() != path {
		t.Fatalf("Path() = %s, want %s", s.Path(), path)
	}
	for _, tt := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
	} {
		var got string
		if err := s.w.QueryRow("PRAGMA " + tt.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", tt.pragma, err)
		}
		if got != tt.want {
			t.Errorf("writer PRAGMA %s = %s, want %s", tt.pragma, got, tt.want)
		}
	}
	var qo int
	if err := s.r.QueryRow("PRAGMA query_only").Scan(&qo); err != nil || qo != 1 {
		t.Errorf("reader query_only = %d, %v; want 1", qo, err)
	}

	versions := func(s *Store) []int {
		rows, err := s.r.Query("SELECT version FROM migrations ORDER BY version")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var vs []int
		for rows.Next() {
			var v int
			rows.Scan(&v)
			vs = append(vs, v)
		}
		return vs
	}
	ms, err := loadMigrations(migrationFS, sqliteMigrations)
	if err != nil || len(ms) == 0 {
		t.Fatalf("loadMigrations: %v, %d", err, len(ms))
	}
	want := versions(s)
	if len(want) != len(ms) {
		t.Fatalf("applied versions %v, want %d", want, len(ms))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopening applies nothing twice.
	s2 := MustOpen(t, Config{Path: path})
	if got := versions(s2); !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopen versions %v, want %v", got, want)
	}
	// A database from a newer binary is refused.
	if _, err := s2.w.Exec("INSERT INTO migrations (version, name, applied_at_ms) VALUES (999, 'future', 0)"); err != nil {
		t.Fatal(err)
	}
	s2.Close()
	_, err = Open(context.Background(), Config{Path: path, Logger: discardLogger()})
	errContains(t, err, path, "schema version 999 is newer")
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T) string // returns the Path to open
		root    bool                      // meaningful when running as root
		wantErr []string
	}{
		{
			name: "garbage bytes",
			setup: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "x.db")
				garbage := []byte(strings.Repeat("this is not a database, just garbage bytes\x00\xff", 400))
				if err := os.WriteFile(p, garbage, 0o600); err != nil {
					t.Fatal(err)
				}
				return p
			},
			root:    true,
			wantErr: []string{"corrupt or not a SQLite database"},
		},
		{
			name: "valid header, garbage pages",
			setup: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "x.db")
				s := MustOpen(t, Config{Path: p})
				for i := range 20 {
					MustSave(t, s, newResult("id-"+string(rune('a'+i)), t0), makeEvents(1, 10))
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				for i := 100; i < len(b); i++ { // keep the 100-byte header only
					b[i] = byte(i*7 + 3)
				}
				if err := os.WriteFile(p, b, 0o600); err != nil {
					t.Fatal(err)
				}
				return p
			},
			root:    true,
			wantErr: []string{"corrupt or not a SQLite database"},
		},
		{
			name: "directory is a regular file",
			setup: func(t *testing.T) string {
				f := filepath.Join(t.TempDir(), "file")
				if err := os.WriteFile(f, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(f, "sub", "x.db")
			},
			root:    true,
			wantErr: []string{"create directory"},
		},
		{
			name: "path is a directory",
			setup: func(t *testing.T) string {
				return t.TempDir()
			},
			root:    true,
			wantErr: []string{"is a directory"},
		},
		{
			name: "unwritable directory",
			setup: func(t *testing.T) string {
				d := filepath.Join(t.TempDir(), "ro")
				if err := os.Mkdir(d, 0o500); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(d, 0o700) })
				return filepath.Join(d, "x.db")
			},
			root:    false, // root ignores permission bits
			wantErr: []string{"permission denied"},
		},
		{
			name: "immutable directory",
			setup: func(t *testing.T) string {
				d := filepath.Join(t.TempDir(), "imm")
				if err := os.Mkdir(d, 0o700); err != nil {
					t.Fatal(err)
				}
				chattr(t, "+i", d)
				return filepath.Join(d, "x.db")
			},
			root:    true,
			wantErr: []string{"cannot create lock file", "operation not permitted"},
		},
		{
			name: "immutable database file",
			setup: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "x.db")
				s := MustOpen(t, Config{Path: p})
				s.Close()
				chattr(t, "+i", p)
				return p
			},
			root:    true,
			wantErr: []string{"cannot open the database file for reading and writing", "readonly"},
		},
		{
			name: "read-only database file",
			setup: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "x.db")
				s := MustOpen(t, Config{Path: p})
				s.Close()
				if err := os.Chmod(p, 0o400); err != nil {
					t.Fatal(err)
				}
				return p
			},
			root:    false,
			wantErr: []string{"cannot open the database file for reading and writing"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.root && os.Geteuid() == 0 {
				t.Skip("running as root: permission bits do not stop root")
			}
			path := tt.setup(t)
			s, err := Open(context.Background(), Config{Path: path, Logger: discardLogger()})
			if err == nil {
				s.Close()
				t.Fatalf("Open(%s) succeeded", path)
			}
			t.Logf("Open error: %v", err)
			errContains(t, err, append([]string{"store:"}, tt.wantErr...)...)
			if !strings.Contains(err.Error(), filepath.Base(path)) && !strings.Contains(err.Error(), "file") {
				t.Fatalf("error %q does not name the path", err)
			}
		})
	}
}

// chattr sets a file attribute (e.g. +i, which stops even root from
// writing) and undoes it at cleanup, or skips the test where that is not
// possible (no chattr, no CAP_LINUX_IMMUTABLE, a filesystem without it).
func chattr(t *testing.T, attr, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("chattr needs root; the permission-bit cases cover this")
	}
	out, err := osexec.Command("chattr", attr, path).CombinedOutput()
	if err != nil {
		t.Skipf("chattr %s %s: %v: %s", attr, path, err, out)
	}
	t.Cleanup(func() {
		undo := "-" + strings.TrimPrefix(attr, "+")
		if out, err := osexec.Command("chattr", undo, path).CombinedOutput(); err != nil {
			t.Errorf("chattr %s %s: %v: %s", undo, path, err, out)
		}
	})
}

func TestOpenTwiceIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	s := MustOpen(t, Config{Path: path})
	_, err := Open(context.Background(), Config{Path: path, Logger: discardLogger()})
	errContains(t, err, path+".lock", "already open")
	s.Close()
	MustOpen(t, Config{Path: path}) // the lock went with Close
}

func TestSaveGetRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		long := strings.Repeat("é", 40) // 80 bytes; a cap of 41 must not split a rune
		tests := []struct {
			name   string
			cfg    Config
			mutate func(r *wasmexec.Result)
			check  func(t *testing.T, in, got *wasmexec.Result)
		}{
			{
				name: "every field",
				check: func(t *testing.T, in, got *wasmexec.Result) {
					want := *in
					want.CodeSHA256 = sha256hex(in.Code)
					if !reflect.DeepEqual(got, &want) {
						t.Fatalf("got  %+v\nwant %+v", got, &want)
					}
				},
			},
			{
				name:   "streams not captured stay nil, captured empty stays empty",
				mutate: func(r *wasmexec.Result) { r.Stdout = nil; r.Stderr = strp("") },
				check: func(t *testing.T, in, got *wasmexec.Result) {
					if got.Stdout != nil || got.Stderr == nil || *got.Stderr != "" {
						t.Fatalf("stdout %v stderr %v", got.Stdout, got.Stderr)
					}
				},
			},
			{
				name:   "bytes that are not UTF-8 survive",
				mutate: func(r *wasmexec.Result) { r.Stdout = strp("a\xff\xfeb\x00c") },
				check: func(t *testing.T, in, got *wasmexec.Result) {
					if *got.Stdout != "a\xff\xfeb\x00c" {
						t.Fatalf("stdout %q", *got.Stdout)
					}
				},
			},
			{
				name:   "largest fuel",
				mutate: func(r *wasmexec.Result) { r.FuelConsumed = ^uint64(0) },
				check: func(t *testing.T, in, got *wasmexec.Result) {
					if got.FuelConsumed != ^uint64(0) {
						t.Fatalf("fuel %d", got.FuelConsumed)
					}
				},
			},
			{
				name:   "code over the cap is cut on a rune boundary, hashed whole",
				cfg:    Config{MaxCodeBytes: 41},
				mutate: func(r *wasmexec.Result) { r.Code = long },
				check: func(t *testing.T, in, got *wasmexec.Result) {
					if got.Code != strings.Repeat("é", 20) {
						t.Fatalf("code %q (%d bytes)", got.Code, len(got.Code))
					}
					if got.CodeSHA256 != sha256hex(long) {
						t.Fatalf("hash %s", got.CodeSHA256)
					}
				},
			},
			{
				name:   "caller's hash kept",
				mutate: func(r *wasmexec.Result) { r.CodeSHA256 = "abc" },
				check: func(t *testing.T, in, got *wasmexec.Result) {
					if got.CodeSHA256 != "abc" {
						t.Fatalf("hash %s", got.CodeSHA256)
					}
				},
			},
			{
				name: "minimal result",
				mutate: func(r *wasmexec.Result) {
					*r = wasmexec.Result{ExecutionID: r.ExecutionID, Kind: wasmexec.KindExecute, Language: wasmexec.Python, Outcome: wasmexec.Succeeded}
				},
				check: func(t *testing.T, in, got *wasmexec.Result) {
					want := *in
					want.CompletedAtMs = clock.Now().UnixMilli() // 0 means "now"
					if !reflect.DeepEqual(got, &want) {
						t.Fatalf("got  %+v\nwant %+v", got, &want)
					}
				},
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				cfg := tt.cfg
				cfg.Now, cfg.manualSweep = clock.Now, true
				s := b.open(t, cfg)
				r := newResult("exec-1", clock.Now())
				if tt.mutate != nil {
					tt.mutate(r)
				}
				in := *r
				MustSave(t, s, r, nil)
				if !reflect.DeepEqual(*r, in) {
					t.Fatal("Save modified its argument")
				}
				tt.check(t, &in, MustGet(t, s, "exec-1"))
			})
		}
	})
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestSaveRejects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{manualSweep: true})
		MustSave(t, s, newResult("dup", t0), nil)
		tests := []struct {
			name     string
			r        *wasmexec.Result
			events   []wasmexec.Event
			wantCode string
			wantMsg  string
		}{
			{"nil result", nil, nil, wasmexec.EInvalid, "no execution result"},
			{"no id", &wasmexec.Result{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Outcome: wasmexec.Succeeded}, nil, wasmexec.EInvalid, "no executionId"},
			{"running work", &wasmexec.Result{ExecutionID: "r", Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript}, nil, wasmexec.EInvalid, "only completed executions are stored"},
			{"unknown outcome", &wasmexec.Result{ExecutionID: "r", Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Outcome: "running"}, nil, wasmexec.EInvalid, "not a completed outcome"},
			{"no kind", &wasmexec.Result{ExecutionID: "r", Language: wasmexec.JavaScript, Outcome: wasmexec.Succeeded}, nil, wasmexec.EInvalid, "no kind"},
			{"no language", &wasmexec.Result{ExecutionID: "r", Kind: wasmexec.KindEvaluate, Outcome: wasmexec.Succeeded}, nil, wasmexec.EInvalid, "no language"},
			{"sequence zero", newResult("r", t0), []wasmexec.Event{{Sequence: 0}}, wasmexec.EInvalid, "sequences must increase"},
			{"sequence repeats", newResult("r", t0), []wasmexec.Event{{Sequence: 1}, {Sequence: 1}}, wasmexec.EInvalid, "sequences must increase"},
			{"sequence goes back", newResult("r", t0), []wasmexec.Event{{Sequence: 5}, {Sequence: 2}}, wasmexec.EInvalid, "sequences must increase"},
			{"duplicate id", newResult("dup", t0), nil, wasmexec.EConflict, "already stored"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := s.Save(context.Background(), tt.r, tt.events, false)
				wantCode(t, "Save", err, tt.wantCode)
				errContains(t, err, tt.wantMsg)
			})
		}
		if n, _, _ := s.Stats(context.Background()); n != 1 {
			t.Fatalf("count %d after rejected saves, want 1", n)
		}
	})
}

func TestGetUnknownIsNotFound(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{})
		_, err := s.Get(context.Background(), "nope")
		wantCode(t, "Get", err, wasmexec.ENotFound)
	})
}

// TestTTLBoundaries pins the expiry rule: a record is present until
// completedAt+TTL and expired from exactly completedAt+TTL on; reading it
// meanwhile does not extend its life.
func TestTTLBoundaries(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		const ttl = 300000 * time.Millisecond
		tests := []struct {
			name     string
			at       time.Duration // after completion
			wantCode string
		}{
			{"ttl-1ms present", ttl - time.Millisecond, ""},
			{"ttl expired", ttl, wasmexec.EExpired},
			{"ttl+1ms expired", ttl + time.Millisecond, wasmexec.EExpired},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				clock := newFakeClock()
				s := b.open(t, Config{CompletedTTL: ttl, Now: clock.Now, manualSweep: true})
				ctx := context.Background()
				MustSave(t, s, newResult("x", t0), makeEvents(1, 3))

				// Reads along the way must not extend the TTL.
				for _, d := range []time.Duration{0, time.Millisecond, ttl / 2, ttl - 2*time.Millisecond} {
					clock.Set(t0.Add(d))
					MustGet(t, s, "x")
					if _, err := s.Output(ctx, "x", "", 0); err != nil {
						t.Fatalf("Output at +%v: %v", d, err)
					}
				}

				clock.Set(t0.Add(tt.at))
				// Not swept yet: the row is still there, and still reads as expired.
				if rawCount(t, s, "executions") != 1 {
					t.Fatal("row gone before any sweep")
				}
				check := func(when string) {
					t.Helper()
					_, err := s.Get(ctx, "x")
					wantCode(t, when+": Get", err, tt.wantCode)
					_, err = s.Output(ctx, "x", "", 0)
					wantCode(t, when+": Output", err, tt.wantCode)
					page, err := s.List(ctx, wasmexec.HistoryFilter{})
					if err != nil {
						t.Fatal(err)
					}
					if listed := len(page.Executions) == 1; listed != (tt.wantCode == "") {
						t.Fatalf("%s: listed=%v", when, listed)
					}
				}
				check("before sweep")

				expired, _ := mustSweep(t, s)
				if want := map[bool]int{true: 0, false: 1}[tt.wantCode == ""]; expired != want {
					t.Fatalf("sweep expired %d, want %d", expired, want)
				}
				check("after sweep") // a tombstone keeps the answer
				if tt.wantCode != "" {
					if rawCount(t, s, "executions") != 0 || rawCount(t, s, "events") != 0 {
						t.Fatal("sweep left the row or its events")
					}
					_, err := s.Get(ctx, "x")
					errContains(t, err, "has expired")
				}
			})
		}
	})
}

func TestCap(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		const max = 5
		tests := []struct {
			name        string
			saves       int
			wantEvicted int
		}{
			{"cap-1", max - 1, 0},
			{"cap", max, 0},
			{"cap+1 evicts the oldest", max + 1, 1},
			{"2cap+3", 2*max + 3, max + 3},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				clock := newFakeClock()
				s := b.open(t, Config{MaxCompleted: max, Now: clock.Now, manualSweep: true})
				ids := make([]string, tt.saves)
				for i := range ids {
					ids[i] = "id-" + string(rune('A'+i))
					MustSave(t, s, newResult(ids[i], clock.Now()), makeEvents(1, 2))
					clock.Add(time.Millisecond)
				}
				for i, id := range ids {
					_, err := s.Get(context.Background(), id)
					if i < tt.wantEvicted {
						wantCode(t, "Get "+id, err, wasmexec.EExpired)
						errContains(t, err, "evicted")
					} else {
						wantCode(t, "Get "+id, err, "")
					}
				}
				n, _, err := s.Stats(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if want := min(tt.saves, max); n != want || storedCount(t, s) != want {
					t.Fatalf("Stats count %d, s.count %d, want %d", n, s.count, want)
				}
				if got := rawCount(t, s, "events"); got != 2*min(tt.saves, max) {
					t.Fatalf("%d events left, want %d (evicted records take their events)", got, 2*min(tt.saves, max))
				}
			})
		}
	})
}

func TestCapEvictsOldestCompletionNotOldestInsert(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{MaxCompleted: 2, Now: newFakeClock().Now, manualSweep: true})
		MustSave(t, s, newResult("b", t0.Add(2*time.Second)), nil)
		MustSave(t, s, newResult("a", t0.Add(1*time.Second)), nil) // saved later, completed earlier
		MustSave(t, s, newResult("c", t0.Add(3*time.Second)), nil)
		_, err := s.Get(context.Background(), "a")
		wantCode(t, "Get a", err, wasmexec.EExpired)
		MustGet(t, s, "b")
		MustGet(t, s, "c")
	})
}

func TestCapLoweredAtRestartIsEnforcedBySweep(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		loc := b.fresh(t)
		clock := newFakeClock()
		s := b.open(t, at(loc, Config{MaxCompleted: 10, Now: clock.Now, manualSweep: true}))
		for i := range 10 {
			MustSave(t, s, newResult(string(rune('a'+i)), t0.Add(time.Duration(i)*time.Second)), nil)
		}
		s.Close()
		s = b.open(t, at(loc, Config{MaxCompleted: 4, Now: clock.Now, manualSweep: true}))
		if _, evicted := mustSweep(t, s); evicted != 6 {
			t.Fatalf("evicted %d, want 6", evicted)
		}
		_, err := s.Get(context.Background(), "f")
		wantCode(t, "Get f", err, wasmexec.EExpired)
		MustGet(t, s, "g")
	})
}

func TestTombstonesAreBounded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		s := b.open(t, Config{MaxCompleted: 2, MaxTombstones: 3, Now: clock.Now, manualSweep: true})
		for i := range 10 {
			MustSave(t, s, newResult(string(rune('a'+i)), clock.Now()), nil)
			clock.Add(time.Millisecond)
		}
		// 8 evicted (a..h); only the newest 3 tombstones (f, g, h) remain.
		if n := rawCount(t, s, "tombstones"); n != 3 {
			t.Fatalf("%d tombstones, want 3", n)
		}
		for _, tt := range []struct{ id, code string }{
			{"a", wasmexec.ENotFound}, {"e", wasmexec.ENotFound},
			{"f", wasmexec.EExpired}, {"h", wasmexec.EExpired},
			{"i", ""}, {"j", ""},
		} {
			_, err := s.Get(context.Background(), tt.id)
			wantCode(t, "Get "+tt.id, err, tt.code)
		}
		// Expiry tombstones share the bound.
		clock.Add(DefaultCompletedTTL)
		mustSweep(t, s)
		if n := rawCount(t, s, "tombstones"); n != 3 {
			t.Fatalf("%d tombstones after sweep, want 3", n)
		}
	})
}

// TestRestart closes and reopens the same file: the records are there, with
// the expiry they were saved with, and keep expiring on schedule.
func TestRestart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		const ttl = 10 * time.Second
		loc := b.fresh(t)
		clock := newFakeClock()
		s := b.open(t, at(loc, Config{CompletedTTL: ttl, Now: clock.Now, manualSweep: true}))
		for i, id := range []string{"first", "second", "third"} {
			MustSave(t, s, newResult(id, t0.Add(time.Duration(i)*time.Second)), makeEvents(1, 4))
		}
		clock.Set(t0.Add(ttl)) // "first" expires now
		mustSweep(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(loc.Path + "-wal"); loc.Path != "" && err == nil {
			if fi, _ := os.Stat(loc.Path + "-wal"); fi.Size() != 0 {
				t.Errorf("WAL not checkpointed on Close: %d bytes", fi.Size())
			}
		}

		// Reopen with a different TTL: existing records keep the expiry they were saved with.
		s = b.open(t, at(loc, Config{CompletedTTL: time.Hour, Now: clock.Now, manualSweep: true}))
		ctx := context.Background()
		_, err := s.Get(ctx, "first")
		wantCode(t, "first after restart", err, wasmexec.EExpired)
		got := MustGet(t, s, "second")
		if got.CompletedAtMs != t0.Add(time.Second).UnixMilli() {
			t.Fatalf("second completedAt %d", got.CompletedAtMs)
		}
		replay, err := s.Output(ctx, "third", "", 0)
		if err != nil || len(replay.Events) != 4 {
			t.Fatalf("Output third: %v, %d events", err, len(replay.Events))
		}
		if storedCount(t, s) != 2 {
			t.Fatalf("count after reopen %d, want 2", storedCount(t, s))
		}

		clock.Set(t0.Add(time.Second + ttl - time.Millisecond))
		MustGet(t, s, "second")
		clock.Set(t0.Add(time.Second + ttl))
		_, err = s.Get(ctx, "second")
		wantCode(t, "second at its ttl", err, wasmexec.EExpired)
		if expired, _ := mustSweep(t, s); expired != 1 {
			t.Fatalf("swept %d, want 1", expired)
		}
		MustGet(t, s, "third")
		clock.Set(t0.Add(2*time.Second + ttl))
		if expired, _ := mustSweep(t, s); expired != 1 {
			t.Fatalf("swept %d, want 1", expired)
		}
		n, _, _ := s.Stats(ctx)
		if n != 0 {
			t.Fatalf("%d records left", n)
		}
	})
}

// TestSweeperRunsOnItsOwn uses the real clock and the background sweeper: a
// Save wakes it, it sleeps until the earliest expiry, deletes, and does the
// same again after a restart, with SweepInterval far away.
func TestSweeperRunsOnItsOwn(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		loc := b.fresh(t)
		cfg := at(loc, Config{CompletedTTL: 150 * time.Millisecond, SweepInterval: time.Hour})
		waitEmpty := func(s *Store) time.Duration {
			t.Helper()
			start := time.Now()
			poll.Until(t, 10*time.Second, "the sweeper to delete the expired records", func() bool {
				n, _, _ := s.Stats(context.Background())
				return n == 0
			})
			return time.Since(start)
		}

		s := b.open(t, cfg)
		for _, id := range []string{"a", "b"} {
			MustSave(t, s, newResult(id, time.Now()), makeEvents(1, 2))
		}
		took := waitEmpty(s)
		t.Logf("swept after %v", took)
		_, err := s.Get(context.Background(), "a")
		wantCode(t, "Get a", err, wasmexec.EExpired)

		// Saved, closed before expiry, reopened: the new sweeper picks them up.
		MustSave(t, s, newResult("c", time.Now()), nil)
		s.Close()
		s = b.open(t, cfg)
		waitEmpty(s)
		if rawCount(t, s, "tombstones") != 3 {
			t.Fatalf("tombstones %d, want 3", rawCount(t, s, "tombstones"))
		}
	})
}

func TestClosedStore(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{})
		MustSave(t, s, newResult("a", time.Now()), nil)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		ctx := context.Background()
		wantCode(t, "Save", s.Save(ctx, newResult("b", time.Now()), nil, false), wasmexec.EUnavailable)
		_, err := s.Get(ctx, "a")
		wantCode(t, "Get", err, wasmexec.EUnavailable)
		_, err = s.List(ctx, wasmexec.HistoryFilter{})
		wantCode(t, "List", err, wasmexec.EUnavailable)
		_, err = s.Output(ctx, "a", "", 0)
		wantCode(t, "Output", err, wasmexec.EUnavailable)
		_, _, err = s.Stats(ctx)
		wantCode(t, "Stats", err, wasmexec.EUnavailable)
	})
}

// TestCloseDuringSaves: Close waits for the Save in flight; the others get
// EUnavailable; nothing races or hangs, and what Save acknowledged is kept.
func TestCloseDuringSaves(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		loc := b.fresh(t)
		s := b.open(t, at(loc, Config{}))
		var wg sync.WaitGroup
		acked := make(chan string, 10000)
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					id := fmt.Sprintf("w%d-%d", w, i)
					err := s.Save(context.Background(), newResult(id, time.Now()), makeEvents(1, 3), false)
					if err != nil {
						if wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
							t.Errorf("Save %s: %v", id, err)
						}
						return
					}
					acked <- id
				}
			}()
		}
		// Close once every writer is saving (each has acknowledged some).
		for deadline := time.Now().Add(10 * time.Second); len(acked) < 8; {
			if time.Now().After(deadline) {
				t.Fatal("the writers acknowledged nothing")
			}
			runtime.Gosched()
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		close(acked)
		s = b.open(t, at(loc, Config{}))
		n := 0
		for id := range acked {
			MustGet(t, s, id)
			n++
		}
		if n == 0 {
			t.Fatal("no Save finished before Close")
		}
		t.Logf("%d saves acknowledged before Close, all present after reopen", n)
	})
}

func TestStatsSize(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{})
		_, empty, err := s.Stats(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			MustSave(t, s, newResult("id"+string(rune('A'+i%26))+string(rune('a'+i/26)), time.Now()), makeEvents(1, 10))
		}
		n, size, err := s.Stats(context.Background())
		if err != nil || n != 100 || size <= empty {
			t.Fatalf("Stats = %d, %d, %v (empty %d)", n, size, err, empty)
		}
		t.Logf("store size: %d bytes for %d records with 10 events each: %.0f bytes/record", size, n, float64(size-empty)/float64(n))
	})
}
