package cluster

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

func openTemplates(t *testing.T, url, node string, lease time.Duration, maxCapture int64) *Cluster {
	t.Helper()
	c, err := Open(context.Background(), Config{URL: url, NodeID: node, AdvertURL: "http://" + node + ".invalid", Lease: lease, MaxSnapshotBytes: maxCapture,
		Adopt: func(context.Context, string, []byte, func(string) error) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A build is claimed once: the id by one create, a build whose lease is
// over by one of the nodes claiming it at once; the old builder's writes
// are fenced.
func TestTemplateBuildClaims(t *testing.T) {
	pgtest.Shared(t)
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	n1 := openTemplates(t, url, "n1", 400*time.Millisecond, 0)
	n2 := openTemplates(t, url, "n2", 400*time.Millisecond, 0)
	n3 := openTemplates(t, url, "n3", 400*time.Millisecond, 0)
	row := &wasmexec.SharedTemplate{ID: "t1", Tenant: "a", Meta: []byte(`{}`)}
	if err := n1.CreateTemplate(ctx, row, -1); err != nil {
		t.Fatal(err)
	}
	if err := n2.CreateTemplate(ctx, &wasmexec.SharedTemplate{ID: "t1", Tenant: "b", Meta: []byte(`{}`)}, -1); wasmexec.ErrorCode(err) != wasmexec.ETemplateConflict {
		t.Fatalf("a second create of t1: %v", err)
	}
	// n1 stops renewing: once its lease is over, two nodes claim it at once.
	// The database's lease clock, not ours, says when it is over.
	var r *wasmexec.SharedTemplate
	poll.Until(t, 10*time.Second, "n1's lease on t1 to end", func() bool {
		var err error
		if r, err = n2.GetTemplate(ctx, "t1"); err != nil {
			t.Fatal(err)
		}
		return r.LeaseLeftMs <= 0
	})
	var wg sync.WaitGroup
	gens := make([]int64, 2)
	for i, c := range []*Cluster{n2, n3} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gens[i], _ = c.ClaimTemplateBuild(ctx, "t1", r.Generation, false, nil)
		}()
	}
	wg.Wait()
	if (gens[0] == 0) == (gens[1] == 0) {
		t.Fatalf("claims of one stale build: generations %v, want exactly one", gens)
	}
	// The old builder is fenced.
	if ok, err := n1.RenewTemplateBuild(ctx, "t1", 1); err != nil || ok {
		t.Fatalf("n1 renewed a build taken over: %v %v", ok, err)
	}
	if ok, err := n1.FailTemplate(ctx, "t1", 1, []byte(`{}`)); err != nil || ok {
		t.Fatalf("n1 failed a build taken over: %v %v", ok, err)
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "f"), []byte("x"), 0o644)
	if sum, err := n1.StoreTemplate(ctx, row, 1, recordOf("rec"), ws, nil); err != nil || sum != "" {
		t.Fatalf("n1 stored a build taken over: %q %v", sum, err)
	}
	// A ready template is not claimed as stale; a rebuild claims it.
	winner := n2
	if gens[0] == 0 {
		winner = n3
	}
	gen := max(gens[0], gens[1])
	if sum, err := winner.StoreTemplate(ctx, row, gen, recordOf("rec"), ws, nil); err != nil || sum == "" {
		t.Fatalf("the new builder's store: %q %v", sum, err)
	}
	if g, err := n1.ClaimTemplateBuild(ctx, "t1", gen, false, nil); err != nil || g != 0 {
		t.Fatalf("a ready template claimed as a stale build: %d %v", g, err)
	}
	if g, err := n1.ClaimTemplateBuild(ctx, "t1", gen, true, nil); err != nil || g != gen+1 {
		t.Fatalf("a rebuild's claim: %d %v", g, err)
	}
}

// The tenant's maxTemplates and maxTemplateBytes hold for nodes creating
// and storing at once.
func TestTemplateQuotasAcrossNodes(t *testing.T) {
	pgtest.Shared(t)
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	nodes := []*Cluster{openTemplates(t, url, "n1", time.Minute, 0), openTemplates(t, url, "n2", time.Minute, 0)}
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = nodes[i%2].CreateTemplate(ctx, &wasmexec.SharedTemplate{ID: "q" + string(rune('a'+i)), Tenant: "q", Meta: []byte(`{}`)}, 3)
		}()
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case wasmexec.ErrorCode(err) != wasmexec.EQuota:
			t.Fatal(err)
		}
	}
	if made != 3 {
		t.Fatalf("%d templates made under maxTemplates 3: %v", made, errs)
	}
	// Three builds of 40 bytes end at once under maxTemplateBytes 100:
	// two are stored.
	rows, err := nodes[0].ListTemplates(ctx, "q", false)
	if err != nil || len(rows) != 3 {
		t.Fatalf("list: %v %v", rows, err)
	}
	ws := t.TempDir()
	stored := make([]string, len(rows))
	for i, r := range rows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := nodes[0]
			if r.Builder == "n2" {
				c = nodes[1]
			}
			r.Bytes = 40
			stored[i], errs[i] = c.StoreTemplate(ctx, r, r.Generation, recordOf("rec"), ws, func(used int64) error {
				if used+40 > 100 {
					return wasmexec.Errorf(wasmexec.EQuota, "over")
				}
				return nil
			})
		}()
	}
	wg.Wait()
	ok := 0
	for i := range rows {
		if stored[i] != "" {
			ok++
		} else if wasmexec.ErrorCode(errs[i]) != wasmexec.EQuota {
			t.Fatalf("store %d: %v", i, errs[i])
		}
	}
	if ok != 2 {
		t.Fatalf("%d of three 40-byte templates stored under 100 bytes", ok)
	}
}

// A stored capture is data another node wrote: it is checked whole
// before anything of it is used. A tampered one, one longer than its row
// says, a hostile archive (with a checksum that matches) and one over the
// cap are refused, and nothing is written outside the fetch's directory.
func TestFetchTemplateHostile(t *testing.T) {
	pgtest.Shared(t)
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	const limit = 64 << 10
	c := openTemplates(t, url, "n1", time.Minute, limit)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	store := func(id string) string {
		t.Helper()
		r := &wasmexec.SharedTemplate{ID: id, Tenant: "a", Meta: []byte(`{}`)}
		if err := c.CreateTemplate(ctx, r, -1); err != nil {
			t.Fatal(err)
		}
		sum, err := c.StoreTemplate(ctx, r, 1, recordOf("the record"), ws, nil)
		if err != nil || sum == "" {
			t.Fatalf("store %s: %q %v", id, sum, err)
		}
		return sum
	}
	// Intact: the record and workspace come back.
	sum := store("good")
	dir := t.TempDir()
	if refused, err := c.FetchTemplate(ctx, "good", sum, dir); err != nil || refused != "" {
		t.Fatalf("fetch: %q %v", refused, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "record")); string(b) != "the record" {
		t.Fatalf("record %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "workspace", "a.txt")); string(b) != "hello" {
		t.Fatalf("workspace file %q", b)
	}
	// Too large to store.
	big := t.TempDir()
	os.WriteFile(filepath.Join(big, "big"), make([]byte, limit+1), 0o644)
	r := &wasmexec.SharedTemplate{ID: "big", Tenant: "a", Meta: []byte(`{}`)}
	if err := c.CreateTemplate(ctx, r, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := c.StoreTemplate(ctx, r, 1, recordOf("r"), big, nil); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("a capture over the cap stored: %v", err)
	}

	archive := hostile(t, &tar.Header{Name: recordEntry, Size: 3, Typeflag: tar.TypeReg, Mode: 0o600},
		&tar.Header{Name: "workspace/../../escape", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644})
	archiveSum := sha256.Sum256(archive)
	tests := []struct {
		name   string
		tamper string // SQL run on the stored rows of template id
		want   string
	}{
		{"a flipped byte", `UPDATE cluster_template_chunks SET data = set_byte(data, 10, (get_byte(data, 10) + 1) % 256) WHERE template_id = $1`, "failed its checksum"},
		{"a chunk appended", `INSERT INTO cluster_template_chunks (template_id, seq, data) VALUES ($1, 99, '\x00')`, "longer than its row says"},
		{"a hostile archive with its checksum", `UPDATE cluster_template_chunks SET data = '\x` + hex.EncodeToString(archive) + `' WHERE template_id = $1;
			UPDATE cluster_templates SET capture_sha256 = '` + hex.EncodeToString(archiveSum[:]) + `', capture_bytes = ` + itoa(len(archive)) + ` WHERE template_id = $1`, "can't be unpacked"},
		{"a row over the cap", `UPDATE cluster_templates SET capture_bytes = ` + itoa(limit+1) + ` WHERE template_id = $1;
			INSERT INTO cluster_template_chunks (template_id, seq, data) VALUES ($1, 1, decode(repeat('00', ` + itoa(limit) + `), 'hex'))`, "longer than its row says"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := "bad" + itoa(i)
			store(id)
			for _, stmt := range strings.Split(tt.tamper, ";") {
				if _, err := db.Exec(stmt, id); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			r, err := c.GetTemplate(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			parent := t.TempDir()
			dir := filepath.Join(parent, "a", "b")
			os.MkdirAll(dir, 0o755)
			refused, err := c.FetchTemplate(ctx, id, r.Sum, dir)
			if err != nil || !strings.Contains(refused, tt.want) {
				t.Fatalf("fetch: refused %q, err %v; want refused with %q", refused, err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(parent, "escape")); err == nil {
				t.Fatal("a file was written outside the fetch's directory")
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
