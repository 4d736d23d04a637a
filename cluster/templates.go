package cluster

// Templates in a cluster (docs/TEMPLATES.md "Cluster mode"): one row per
// template in cluster_templates, shared by every node, and its capture
// stored once. The templates package decides what to do; this file keeps
// the rows, the same way contexts are kept:
//
//   - A build is claimed by one node: the row's builder_node, generation
//     and lease, as a context's owner. Create inserts the row claimed by
//     its node (INSERT … ON CONFLICT: an id, or an implicit template's
//     set, is built once); a build whose lease ran out (its node died) or
//     whose capture was refused is claimed by UPDATE … generation+1 WHERE
//     the generation is still the one read. The builder renews its lease
//     every Lease/4; every write of a build (renew, store, fail) is
//     fenced by its generation and node.
//   - The capture is the context snapshot's format (snapshot.go: a zstd
//     tar of the record, then the workspace), stored in chunks beside the
//     row with its SHA-256, which a fetch checks before anything is used:
//     a row is data another node wrote.
//   - Quotas: a tenant's maxTemplates is checked and its row inserted,
//     and its maxTemplateBytes checked and its capture stored, each in
//     one transaction under the tenant's advisory lock, so nodes creating
//     at once can't together pass them.

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/wasmexec/wasmexec"
)

// captureChunk is the size of one row of a stored capture: small enough
// for a statement, large enough that a capture is a few dozen rows.
const captureChunk = 4 << 20

// tenantTemplatesLock is the advisory lock of a tenant's template quotas.
const tenantTemplatesLock = `pg_advisory_xact_lock(hashtextextended('wasmexec templates of ' || $1::text, 0))`

const templateColumns = `template_id, tenant, implicit, state, meta, COALESCE(builder_node, ''), generation,
	lease_expires_at_ms - ` + nowMs + `, COALESCE(capture_sha256, ''), capture_bytes, bytes, builds, created_at_ms, last_used_at_ms`

func scanTemplate(row interface{ Scan(...any) error }) (*wasmexec.SharedTemplate, error) {
	var t wasmexec.SharedTemplate
	var state string
	err := row.Scan(&t.ID, &t.Tenant, &t.Implicit, &state, &t.Meta, &t.Builder, &t.Generation, &t.LeaseLeftMs, &t.Sum, &t.CaptureBytes, &t.Bytes, &t.Builds, &t.CreatedAtMs, &t.LastUsedAtMs)
	t.State = wasmexec.TemplateState(state)
	return &t, err
}

// TemplateLease is how long a build stays its node's without a renewal.
func (c *Cluster) TemplateLease() time.Duration { return c.cfg.Lease }

// CreateTemplate inserts t's row, building and claimed by this node at
// generation 1, unless its id exists (template_conflict) or, for a
// template that is not implicit and maxTemplates ≥ 0, its tenant has
// maxTemplates already (quota_exceeded).
func (c *Cluster) CreateTemplate(ctx context.Context, t *wasmexec.SharedTemplate, maxTemplates int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return unavailable("create the template", err)
	}
	defer tx.Rollback()
	if !t.Implicit && maxTemplates >= 0 {
		if _, err := tx.ExecContext(ctx, `SELECT `+tenantTemplatesLock, t.Tenant); err != nil {
			return unavailable("lock the tenant's templates", err)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM cluster_templates WHERE tenant = $1 AND NOT implicit`, t.Tenant).Scan(&n); err != nil {
			return unavailable("count the tenant's templates", err)
		}
		if n >= maxTemplates {
			return wasmexec.Errorf(wasmexec.EQuota, "quota maxTemplates (%d) reached: delete a template first", maxTemplates)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO cluster_templates (template_id, tenant, implicit, state, meta, builder_node, generation, lease_expires_at_ms, created_at_ms)
		VALUES ($1, $2, $3, 'building', $4, $5, 1, `+nowMs+` + $6, $7) ON CONFLICT (template_id) DO NOTHING`,
		t.ID, t.Tenant, t.Implicit, t.Meta, c.cfg.NodeID, c.cfg.Lease.Milliseconds(), t.CreatedAtMs)
	if err != nil {
		return unavailable("create the template", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return wasmexec.Errorf(wasmexec.ETemplateConflict, "template %q exists", t.ID)
	}
	if err := tx.Commit(); err != nil {
		return unavailable("create the template", err)
	}
	t.Builder, t.Generation, t.State, t.LeaseLeftMs = c.cfg.NodeID, 1, wasmexec.TemplateBuilding, c.cfg.Lease.Milliseconds()
	return nil
}

// GetTemplate reads template id's row (nil when there is none).
func (c *Cluster) GetTemplate(ctx context.Context, id string) (*wasmexec.SharedTemplate, error) {
	t, err := scanTemplate(c.db.QueryRowContext(ctx, `SELECT `+templateColumns+` FROM cluster_templates WHERE template_id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable("read the template", err)
	}
	return t, nil
}

// ListTemplates reads the rows of tenant's templates (every tenant's when
// all), oldest first.
func (c *Cluster) ListTemplates(ctx context.Context, tenant string, all bool) ([]*wasmexec.SharedTemplate, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT `+templateColumns+` FROM cluster_templates WHERE $2 OR tenant = $1 ORDER BY created_at_ms, template_id`, tenant, all)
	if err != nil {
		return nil, unavailable("list the templates", err)
	}
	defer rows.Close()
	var out []*wasmexec.SharedTemplate
	for rows.Next() {
		t, err := scanTemplate(rows)
		if err != nil {
			return nil, unavailable("list the templates", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("list the templates", err)
	}
	return out, nil
}

// ClaimTemplateBuild claims the build of template id if its row is still
// at generation gen and either building with its lease over (its node
// stopped) or, when rebuild, ready (its capture was refused). meta, when
// not nil, replaces the row's. It returns the new generation, or 0 when
// the row changed since it was read (another node was quicker).
func (c *Cluster) ClaimTemplateBuild(ctx context.Context, id string, gen int64, rebuild bool, meta []byte) (int64, error) {
	err := c.db.QueryRowContext(ctx, `UPDATE cluster_templates SET state = 'building', builder_node = $1, generation = generation + 1,
		lease_expires_at_ms = `+nowMs+` + $2, meta = COALESCE($3, meta)
		WHERE template_id = $4 AND generation = $5 AND ((state = 'building' AND lease_expires_at_ms <= `+nowMs+`) OR (state = 'ready' AND $6))
		RETURNING generation`, c.cfg.NodeID, c.cfg.Lease.Milliseconds(), meta, id, gen, rebuild).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, unavailable("claim the template's build", err)
	}
	return gen, nil
}

// RenewTemplateBuild extends the lease of this node's build of id at gen;
// false when it is no longer this node's (deleted, or claimed by another).
func (c *Cluster) RenewTemplateBuild(ctx context.Context, id string, gen int64) (bool, error) {
	res, err := c.db.ExecContext(ctx, `UPDATE cluster_templates SET lease_expires_at_ms = `+nowMs+` + $1
		WHERE template_id = $2 AND generation = $3 AND builder_node = $4 AND state = 'building'`, c.cfg.Lease.Milliseconds(), id, gen, c.cfg.NodeID)
	if err != nil {
		return false, unavailable("renew the template build's lease", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// FailTemplate ends this node's build of id at gen failed (meta says why);
// its stored capture, if any, goes. False: fenced.
func (c *Cluster) FailTemplate(ctx context.Context, id string, gen int64, meta []byte) (bool, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return false, unavailable("record the template's failure", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE cluster_templates SET state = 'failed', meta = $1, bytes = 0, capture_sha256 = NULL, capture_bytes = 0,
		builds = builds + 1, lease_expires_at_ms = 0 WHERE template_id = $2 AND generation = $3 AND builder_node = $4 AND state = 'building'`, meta, id, gen, c.cfg.NodeID)
	if err != nil {
		return false, unavailable("record the template's failure", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM cluster_template_chunks WHERE template_id = $1`, id); err != nil {
		return false, unavailable("record the template's failure", err)
	}
	if err := tx.Commit(); err != nil {
		return false, unavailable("record the template's failure", err)
	}
	return true, nil
}

// StoreTemplate ends this node's build of id at gen ready: its capture
// (record, read to its end, and the workspace directory ws, packed as a
// context's snapshot, at most MaxSnapshotBytes) is stored in chunks with
// its SHA-256, and the row says ready with meta and bytes. Unless the
// template is implicit, admit is called first, under the tenant's lock,
// with the bytes the tenant's other templates hold: its error (a quota)
// stores nothing and is returned. It returns the capture's SHA-256, or ""
// when the build is no longer this node's (fenced).
func (c *Cluster) StoreTemplate(ctx context.Context, t *wasmexec.SharedTemplate, gen int64, record *io.SectionReader, ws string, admit func(used int64) error) (string, error) {
	limit := limitOf(c.cfg.MaxSnapshotBytes)
	f, err := os.CreateTemp("", "wasmexec-template-capture-")
	if err != nil {
		return "", fmt.Errorf("store the template's capture: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	h := sha256.New()
	if err := packTo(io.MultiWriter(f, h), record, ws, limit); err != nil {
		return "", fmt.Errorf("pack the template's capture: %w", err)
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return "", err
	}
	if size > limit {
		return "", fmt.Errorf("the template's capture is %d bytes, more than %d", size, limit)
	}
	sum := hex.EncodeToString(h.Sum(nil))

	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return "", unavailable("store the template", err)
	}
	defer tx.Rollback()
	// The tenant's lock before the row's, in the order CreateTemplate
	// takes them.
	if !t.Implicit {
		if _, err := tx.ExecContext(ctx, `SELECT `+tenantTemplatesLock, t.Tenant); err != nil {
			return "", unavailable("lock the tenant's templates", err)
		}
	}
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM cluster_templates WHERE template_id = $1 AND generation = $2 AND builder_node = $3 AND state = 'building' FOR UPDATE`,
		t.ID, gen, c.cfg.NodeID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", unavailable("store the template", err)
	}
	if !t.Implicit && admit != nil {
		var used int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(sum(bytes), 0) FROM cluster_templates WHERE tenant = $1 AND NOT implicit AND template_id <> $2`, t.Tenant, t.ID).Scan(&used); err != nil {
			return "", unavailable("sum the tenant's templates", err)
		}
		if err := admit(used); err != nil {
			return "", err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM cluster_template_chunks WHERE template_id = $1`, t.ID); err != nil {
		return "", unavailable("store the template", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	buf := make([]byte, captureChunk)
	for seq := 0; ; seq++ {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO cluster_template_chunks (template_id, seq, data) VALUES ($1, $2, $3)`, t.ID, seq, buf[:n]); err != nil {
				return "", unavailable("store the template's capture", err)
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return "", err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE cluster_templates SET state = 'ready', meta = $1, bytes = $2, capture_sha256 = $3, capture_bytes = $4,
		builds = builds + 1, lease_expires_at_ms = 0 WHERE template_id = $5`, t.Meta, t.Bytes, sum, size, t.ID); err != nil {
		return "", unavailable("store the template", err)
	}
	if err := tx.Commit(); err != nil {
		return "", unavailable("store the template", err)
	}
	return sum, nil
}

// FetchTemplate writes the stored capture of template id, whose SHA-256
// the caller read as sum, into dir: the record as dir/record, the
// workspace under dir/workspace. The capture is read in one statement
// (one snapshot of the rows) into a temporary file and checked whole
// before anything of it is used. refused says why a capture can't be
// used (its checksum, a malformed archive): then dir holds nothing
// useful. An error is a service error, or the capture changed since the
// caller read sum (read the row again).
func (c *Cluster) FetchTemplate(ctx context.Context, id, sum, dir string) (refused string, err error) {
	limit := limitOf(c.cfg.MaxSnapshotBytes)
	f, err := os.CreateTemp("", "wasmexec-template-fetch-")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	rows, err := c.db.QueryContext(ctx, `SELECT COALESCE(t.capture_sha256, ''), t.capture_bytes, c.data FROM cluster_templates t
		JOIN cluster_template_chunks c USING (template_id) WHERE t.template_id = $1 ORDER BY c.seq`, id)
	if err != nil {
		return "", unavailable("fetch the template's capture", err)
	}
	defer rows.Close()
	h := sha256.New()
	var stored string
	var want, total int64
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&stored, &want, &data); err != nil {
			return "", unavailable("fetch the template's capture", err)
		}
		if stored != sum {
			return "", errors.New("the template's capture changed meanwhile")
		}
		if total += int64(len(data)); total > limit || total > want {
			return fmt.Sprintf("its stored capture is longer than its row says (%d bytes)", want), nil
		}
		h.Write(data)
		if _, err := f.Write(data); err != nil {
			return "", err
		}
	}
	if err := rows.Err(); err != nil {
		return "", unavailable("fetch the template's capture", err)
	}
	if stored == "" && total == 0 {
		return "", errors.New("the template's capture is gone (deleted or rebuilt meanwhile)")
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum || total != want {
		return fmt.Sprintf("its stored capture failed its checksum (SHA-256 %s of %d bytes, want %s of %d)", got, total, sum, want), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	if err := unpackCapture(f, dir, limit); err != nil {
		return "its stored capture can't be unpacked: " + err.Error(), nil
	}
	return "", nil
}

// unpackCapture writes a capture's record to dir/record and its
// workspace under dir/workspace.
func unpackCapture(r io.Reader, dir string, limit int64) error {
	zr, err := zstd.NewReader(r, zstd.WithDecoderMaxMemory(uint64(limit)+1<<20))
	if err != nil {
		return err
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	h, err := tr.Next()
	if err != nil || h.Name != recordEntry || h.Size > limit {
		return errors.New("not a template capture (no record first)")
	}
	if err := os.MkdirAll(filepath.Join(dir, "workspace"), 0o755); err != nil {
		return err
	}
	rf, err := os.OpenFile(filepath.Join(dir, "record"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.CopyN(rf, tr, h.Size)
	if cerr := rf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(filepath.Join(dir, "workspace"))
	if err != nil {
		return err
	}
	defer root.Close()
	return extractWorkspace(tr, root, limit)
}

// DeleteTemplate removes template id's row and capture; false when there
// was none.
func (c *Cluster) DeleteTemplate(ctx context.Context, id string) (bool, error) {
	res, err := c.db.ExecContext(ctx, `DELETE FROM cluster_templates WHERE template_id = $1`, id)
	if err != nil {
		return false, unavailable("delete the template", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// StaleTemplateBuilds lists up to limit templates whose build's lease is
// over: their node stopped before the build ended.
func (c *Cluster) StaleTemplateBuilds(ctx context.Context, limit int) ([]*wasmexec.SharedTemplate, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT `+templateColumns+` FROM cluster_templates
		WHERE state = 'building' AND lease_expires_at_ms <= `+nowMs+` ORDER BY lease_expires_at_ms LIMIT $1`, limit)
	if err != nil {
		return nil, unavailable("list the stale template builds", err)
	}
	defer rows.Close()
	var out []*wasmexec.SharedTemplate
	for rows.Next() {
		t, err := scanTemplate(rows)
		if err != nil {
			return nil, unavailable("list the stale template builds", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
