// Package cluster lets several wasmexec servers that share one PostgreSQL
// database serve the same contexts (docs/DEPLOY.md).
//
// Every context has one row in cluster_contexts: its tenant, the node that
// owns it (owner_node, owner_url), a generation and a lease expiry, and its
// last snapshot (the context's durable record, contexts/durable.go, plus
// its workspace as a zstd tar). The owner serves the context; any other
// node forwards the context's requests to it (server/cluster.go).
//
//   - Ownership: a context is owned by the node that created it (Register).
//     The owner renews the leases of all its contexts in one statement every
//     Lease/4. A node that cannot renew stops serving a context when its own
//     monotonic deadline (the time the last successful renew was sent, plus
//     two thirds of the lease) passes, so it never serves past the moment
//     another node may claim it.
//   - Fencing: every write about a context (renew, snapshot, delete,
//     release) carries the generation this node holds; zero rows means
//     another node has claimed it, and this node drops the context at once
//     (Config.Lost).
//   - Claim: a node asked for a context whose lease has expired (or that was
//     released) takes it with UPDATE … generation+1 WHERE the lease is
//     over RETURNING the snapshot, and restores it from that (Config.Adopt:
//     the same path a single server takes for a record at start-up).
//   - Drain: Release hands every context back (owner NULL, generation+1)
//     after the contexts manager has snapshotted them at shutdown.
//
// The tables (schema.sql) live beside the store's in the same database,
// created at start under an advisory lock by idempotent statements (a
// later change adds statements that are idempotent too), not in the
// store's numbered migrations: the store knows nothing of the cluster.
//
// Lease times are PostgreSQL's clock (clock_timestamp), so nodes' clocks
// don't need to agree; each node's local deadline is its own monotonic
// clock. Processes can't move: a pid carries the number of the node that
// runs it (PIDBase), and the node's URL is in cluster_nodes.
//
// Templates are shared the same way (templates.go): a row per template,
// a build claimed by one node under a lease, the capture stored once.
//
// Size: contexts and templates share one database pool, one schema, one
// lease clock and one snapshot format; each file is one of those concerns.
//
// Errors: context_conflict (Register: the id exists on some node),
// context_not_found (Route: another tenant's context), unavailable (Route:
// the owner is alive but this request can't reach it; RetryAfter says
// when its lease ends), internal.
package cluster

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/wasmexec/wasmexec"
)

// DefaultLease is the lease of a context when Config.Lease is zero.
const DefaultLease = 15 * time.Second

// maxBytea is the largest snapshot stored: a bytea value is at most 1 GB
// in PostgreSQL. A bigger one is not stored (the previous one stays).
const maxBytea = 1<<30 - 1<<20

// PIDShift is where a node's number sits in the pids it gives out: pid =
// node<<PIDShift + n (wasmexec.PIDShift, which the processes use too).
const PIDShift = wasmexec.PIDShift

//go:embed schema.sql
var schema string

// schemaLockKey serializes the schema set-up of nodes starting at once
// ("wasmexec" + 0x10, beside the store's keys).
const schemaLockKey int64 = 0x7761736d65786573

// Config wires a Cluster.
type Config struct {
	URL       string // PostgreSQL (the store's --store-url)
	NodeID    string // unique among live nodes
	AdvertURL string // how other nodes reach this one: http://host:port
	// Lease is how long a context stays this node's without a renew
	// (default DefaultLease).
	Lease time.Duration
	// MaxSnapshotBytes caps one context's snapshot (record + workspace,
	// compressed; at most, and by default, maxBytea); a bigger one is not
	// stored (the previous stays). It is built in memory.
	MaxSnapshotBytes int64
	// Lost is called (on its own goroutine) with a context this node must
	// stop serving at once: its lease was taken or ran out.
	Lost func(id string)
	// Adopt restores a claimed context from its snapshot's record and
	// workspace archive (contexts.Manager.Adopt with Unpack).
	Adopt func(ctx context.Context, id string, record []byte, unpack func(dir string) error) error
	// AdoptBelow: once StartAdopting was called, each renewal tick claims
	// a few contexts nobody serves (released by a drain, or their server's
	// lease over) while this node holds fewer than AdoptBelow, so they are
	// listed, and ready, before anyone asks. 0: only on request.
	AdoptBelow int
	Logger     *slog.Logger
}

// held is a context this node owns.
type held struct {
	gen      int64
	deadline time.Time // local, monotonic: stop serving after it
}

// Cluster is this node's view of context ownership. Safe for concurrent use.
type Cluster struct {
	cfg  Config
	db   *sql.DB
	log  *slog.Logger
	node int64 // this node's number (pids)

	mu     sync.Mutex
	held   map[string]held
	owners map[string]ownerEntry // other nodes' contexts, briefly (cachedOwner)
	claim  sync.Mutex            // one claim at a time on this node (claims are rare)

	adopting atomic.Bool // StartAdopting was called

	stop chan struct{}
	done chan struct{}
}

// nowMs is PostgreSQL's clock in milliseconds: leases are compared on one
// clock whatever the nodes' clocks say.
const nowMs = `(extract(epoch from clock_timestamp())*1000)::bigint`

// Open connects, creates the tables if needed, registers this node (its
// number and URL), hands back the contexts an earlier process with this
// node id owned (it died: they are claimed from their snapshots) and
// starts the lease renewal loop.
func Open(ctx context.Context, cfg Config) (*Cluster, error) {
	if cfg.NodeID == "" || cfg.AdvertURL == "" {
		return nil, errors.New("cluster: a node id and an advertised URL are required")
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.MaxSnapshotBytes <= 0 || cfg.MaxSnapshotBytes > maxBytea {
		cfg.MaxSnapshotBytes = maxBytea
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	pc, err := pgx.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if pc.ConnectTimeout == 0 {
		pc.ConnectTimeout = 10 * time.Second
	}
	db := stdlib.OpenDB(*pc)
	db.SetMaxOpenConns(8)
	c := &Cluster{cfg: cfg, db: db, log: cfg.Logger.With("component", "cluster", "node", cfg.NodeID), held: map[string]held{}, owners: map[string]ownerEntry{}, stop: make(chan struct{}), done: make(chan struct{})}
	if err := c.setUp(ctx); err != nil {
		db.Close()
		return nil, err
	}
	go c.renewLoop()
	return c, nil
}

func (c *Cluster) setUp(ctx context.Context) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLockKey); err != nil {
		return fmt.Errorf("cluster: schema lock: %w", err)
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("cluster: create tables: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO cluster_nodes (node_id, url, started_at_ms, seen_at_ms) VALUES ($1, $2, `+nowMs+`, `+nowMs+`)
		ON CONFLICT (node_id) DO UPDATE SET url = EXCLUDED.url, started_at_ms = EXCLUDED.started_at_ms, seen_at_ms = EXCLUDED.seen_at_ms RETURNING node_num`,
		c.cfg.NodeID, c.cfg.AdvertURL).Scan(&c.node); err != nil {
		return fmt.Errorf("cluster: register node %s: %w", c.cfg.NodeID, err)
	}
	if c.node<<PIDShift>>PIDShift != c.node || c.node >= 1<<(53-PIDShift) {
		return fmt.Errorf("cluster: node number %d is past what pids can carry", c.node)
	}
	// Contexts an earlier process of this node held: it is gone (node ids
	// are unique among live nodes), so they are free to claim now.
	res, err := tx.ExecContext(ctx, `UPDATE cluster_contexts SET owner_node = NULL, owner_url = NULL, generation = generation + 1 WHERE owner_node = $1`, c.cfg.NodeID)
	if err != nil {
		return fmt.Errorf("cluster: release the contexts of an earlier process: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		c.log.Info("released the contexts an earlier process of this node owned", "count", n)
	}
	// And the template builds it had under way: any node takes them over.
	if _, err := tx.ExecContext(ctx, `UPDATE cluster_templates SET lease_expires_at_ms = 0 WHERE builder_node = $1 AND state = 'building'`, c.cfg.NodeID); err != nil {
		return fmt.Errorf("cluster: release the template builds of an earlier process: %w", err)
	}
	return tx.Commit()
}

// NodeID is this node's id.
func (c *Cluster) NodeID() string { return c.cfg.NodeID }

// PIDBase is the first pid of this node (node<<PIDShift + 1).
func (c *Cluster) PIDBase() int64 { return c.node<<PIDShift + 1 }

// Owns reports whether this node serves id now.
func (c *Cluster) Owns(id string) bool {
	c.mu.Lock()
	h, ok := c.held[id]
	c.mu.Unlock()
	return ok && time.Now().Before(h.deadline)
}

// Register records a new context owned by this node. Errors:
// context_conflict (the id exists on some node), unavailable.
func (c *Cluster) Register(ctx context.Context, id, tenant string) error {
	sent := time.Now()
	res, err := c.db.ExecContext(ctx, `INSERT INTO cluster_contexts (context_id, tenant, owner_node, owner_url, generation, lease_expires_at_ms, created_at_ms)
		VALUES ($1, $2, $3, $4, 1, `+nowMs+` + $5, `+nowMs+`) ON CONFLICT (context_id) DO NOTHING`,
		id, tenant, c.cfg.NodeID, c.cfg.AdvertURL, c.cfg.Lease.Milliseconds())
	if err != nil {
		return unavailable("register the context", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return wasmexec.Errorf(wasmexec.EContextConflict, "context %q already exists", id)
	}
	c.hold(id, 1, sent)
	return nil
}

func (c *Cluster) hold(id string, gen int64, sent time.Time) {
	c.mu.Lock()
	c.held[id] = held{gen: gen, deadline: c.deadline(sent)}
	c.mu.Unlock()
}

// tick is how often the leases are renewed: a quarter of the lease.
func (c *Cluster) tick() time.Duration { return c.cfg.Lease / 4 }

// deadline is when this node stops serving under a lease granted by a
// statement sent at sent: two thirds of the lease later. Renewals come
// every quarter, so a working node stays well ahead of it (a late renewal
// has 5/12 of the lease of slack); requests check it, and a node whose
// renewals fail drops its contexts at the tick after a renewal that timed
// out (three quarters of the lease at worst): before another node may
// claim them. A request that finds its context past the deadline renews
// that one lease itself before giving it up (renewOne).
func (c *Cluster) deadline(sent time.Time) time.Time {
	return sent.Add(c.cfg.Lease * 2 / 3)
}

func (c *Cluster) generation(id string) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.held[id]
	return h.gen, ok
}

// lose forgets id, if this node still holds it at generation gen, and
// tells the contexts manager to drop it.
func (c *Cluster) lose(id string, gen int64, why string) {
	c.mu.Lock()
	h, ok := c.held[id]
	ok = ok && h.gen == gen
	if ok {
		delete(c.held, id)
	}
	c.mu.Unlock()
	if ok {
		c.log.Warn("this node stops serving a context", "contextId", id, "reason", why)
		if c.cfg.Lost != nil {
			// Not on the caller's goroutine (a snapshot write holds the
			// context's slot, which dropping it takes). Under the claim
			// lock: a claim of the same id on this node meanwhile must
			// not have its fresh copy dropped.
			go func() {
				c.claim.Lock()
				defer c.claim.Unlock()
				if !c.Owns(id) {
					c.cfg.Lost(id)
				}
			}()
		}
	}
}

// ErrFenced says another node owns the context now.
var ErrFenced = errors.New("another node owns this context now")

// Save stores a context's snapshot: its record (streamed from record,
// the file as written, not copied through memory first) and its workspace
// (the directory ws, which holds wsBytes as the workspace quota counts
// them).
// Fenced: ErrFenced when this node no longer owns it (the context is then
// dropped here).
func (c *Cluster) Save(ctx context.Context, id string, record *io.SectionReader, ws string, wsBytes int64) error {
	gen, ok := c.generation(id)
	if !ok {
		return ErrFenced
	}
	blob, err := pack(record, ws, c.cfg.MaxSnapshotBytes)
	if err != nil {
		return fmt.Errorf("pack the snapshot of %s: %w", id, err)
	}
	res, err := c.db.ExecContext(ctx, `UPDATE cluster_contexts SET snapshot = $1, snapshot_at_ms = `+nowMs+`, workspace_bytes = $5
		WHERE context_id = $2 AND owner_node = $3 AND generation = $4`, blob, id, c.cfg.NodeID, gen, wsBytes)
	if err != nil {
		return fmt.Errorf("store the snapshot of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		c.lose(id, gen, "its snapshot was fenced: another node claimed it")
		return ErrFenced
	}
	return nil
}

// Forget removes a deleted context (fenced: nothing when another node
// owns it now).
func (c *Cluster) Forget(id string) {
	gen, ok := c.generation(id)
	if !ok {
		return
	}
	c.mu.Lock()
	delete(c.held, id)
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.db.ExecContext(ctx, `DELETE FROM cluster_contexts WHERE context_id = $1 AND owner_node = $2 AND generation = $3`, id, c.cfg.NodeID, gen); err != nil {
		c.log.Error("forget a deleted context (its row stays; a claim restores it)", "contextId", id, "err", err)
	}
}

// Release hands every context of this node back (owner NULL, generation+1)
// so that the next request claims it wherever it lands: the last step of
// a drain, after the contexts were snapshotted.
func (c *Cluster) Release(ctx context.Context) error {
	c.mu.Lock()
	ids, gens := make([]string, 0, len(c.held)), make([]int64, 0, len(c.held))
	for id, h := range c.held {
		ids, gens = append(ids, id), append(gens, h.gen)
	}
	c.held = map[string]held{}
	c.mu.Unlock()
	// Lists stop asking this node.
	c.db.ExecContext(ctx, `UPDATE cluster_nodes SET seen_at_ms = 0 WHERE node_num = $1`, c.node)
	if len(ids) == 0 {
		return nil
	}
	res, err := c.db.ExecContext(ctx, `UPDATE cluster_contexts AS c SET owner_node = NULL, owner_url = NULL, generation = c.generation + 1
		FROM unnest($1::text[], $2::bigint[]) AS h(id, gen)
		WHERE c.context_id = h.id AND c.generation = h.gen AND c.owner_node = $3`, ids, gens, c.cfg.NodeID)
	if err != nil {
		return fmt.Errorf("cluster: release %d contexts: %w", len(ids), err)
	}
	n, _ := res.RowsAffected()
	c.log.Info("released this node's contexts", "count", n)
	return nil
}

// renewLoop renews the leases every tick and drops the contexts whose
// lease was lost or ran out.
func (c *Cluster) renewLoop() {
	defer close(c.done)
	t := time.NewTicker(c.tick())
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.renew()
			c.adoptOrphans()
		}
	}
}

// renew renews every lease of this node in one statement, then says this
// node is alive, both within a tick. When the renewal fails, the contexts
// whose local deadline has passed are dropped.
func (c *Cluster) renew() {
	ctx, cancel := context.WithTimeout(context.Background(), c.tick())
	defer cancel()
	defer func() {
		if _, err := c.db.ExecContext(ctx, `UPDATE cluster_nodes SET seen_at_ms = `+nowMs+` WHERE node_num = $1`, c.node); err != nil {
			c.log.Debug("heartbeat", "err", err)
		}
	}()
	c.mu.Lock()
	ids, gens := make([]string, 0, len(c.held)), make([]int64, 0, len(c.held))
	for id, h := range c.held {
		ids, gens = append(ids, id), append(gens, h.gen)
	}
	c.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	sent := time.Now()
	rows, err := c.db.QueryContext(ctx, `UPDATE cluster_contexts AS c SET lease_expires_at_ms = `+nowMs+` + $1
		FROM unnest($2::text[], $3::bigint[]) AS h(id, gen)
		WHERE c.context_id = h.id AND c.generation = h.gen AND c.owner_node = $4 RETURNING c.context_id`,
		c.cfg.Lease.Milliseconds(), ids, gens, c.cfg.NodeID)
	renewed := map[string]bool{}
	if err == nil {
		for rows.Next() {
			var id string
			if err = rows.Scan(&id); err != nil {
				break
			}
			renewed[id] = true
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
	}
	if err != nil {
		// Unreachable: the leases run on; each context is dropped when
		// its local deadline passes.
		c.log.Warn("renewing the leases failed", "contexts", len(ids), "err", err)
		c.dropLate("its lease ran out while PostgreSQL was unreachable")
		return
	}
	for i, id := range ids {
		if !renewed[id] {
			c.lose(id, gens[i], "its lease was taken by another node")
			continue
		}
		c.mu.Lock()
		if h, ok := c.held[id]; ok && h.gen == gens[i] {
			h.deadline = c.deadline(sent)
			c.held[id] = h
		}
		c.mu.Unlock()
	}
}

// orphansPerTick bounds the contexts one node claims in the background
// per renewal tick (each is a snapshot read and a workspace unpacked).
const orphansPerTick = 4

// StartAdopting lets the renewal loop claim contexts nobody serves (see
// Config.AdoptBelow): called once the contexts manager can adopt them.
func (c *Cluster) StartAdopting() { c.adopting.Store(true) }

// StopAdopting ends that, at the start of a shutdown.
func (c *Cluster) StopAdopting() { c.adopting.Store(false) }

// adoptOrphans claims up to orphansPerTick contexts nobody serves, oldest
// lease first, while this node holds fewer than AdoptBelow.
func (c *Cluster) adoptOrphans() {
	c.mu.Lock()
	room := c.cfg.AdoptBelow - len(c.held)
	c.mu.Unlock()
	if !c.adopting.Load() || room <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.tick())
	defer cancel()
	rows, err := c.db.QueryContext(ctx, `SELECT context_id, generation FROM cluster_contexts
		WHERE snapshot IS NOT NULL AND (owner_node IS NULL OR lease_expires_at_ms <= `+nowMs+`)
		ORDER BY lease_expires_at_ms LIMIT $1`, min(room, orphansPerTick))
	if err != nil {
		return // the renewal said why
	}
	type orphan struct {
		id  string
		gen int64
	}
	var orphans []orphan
	for rows.Next() {
		var o orphan
		if rows.Scan(&o.id, &o.gen) == nil {
			orphans = append(orphans, o)
		}
	}
	rows.Close()
	for _, o := range orphans {
		if _, err := c.claimAndAdopt(ctx, o.id, o.gen); err != nil {
			c.log.Warn("a context nobody serves could not be claimed here", "contextId", o.id, "err", err)
			return
		}
	}
}

// late reports whether this node holds id past its deadline.
func (c *Cluster) late(id string) (bool, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.held[id]
	return ok && !time.Now().Before(h.deadline), h.gen
}

// renewOne renews the lease of id at generation gen (fenced).
func (c *Cluster) renewOne(ctx context.Context, id string, gen int64) bool {
	ctx, cancel := context.WithTimeout(ctx, c.tick())
	defer cancel()
	sent := time.Now()
	res, err := c.db.ExecContext(ctx, `UPDATE cluster_contexts SET lease_expires_at_ms = `+nowMs+` + $1
		WHERE context_id = $2 AND generation = $3 AND owner_node = $4`, c.cfg.Lease.Milliseconds(), id, gen, c.cfg.NodeID)
	if err != nil {
		return false
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.held[id]; ok && h.gen == gen {
		h.deadline = c.deadline(sent)
		c.held[id] = h
		return true
	}
	return false
}

// dropLate drops the contexts whose local deadline has passed.
func (c *Cluster) dropLate(why string) {
	now := time.Now()
	c.mu.Lock()
	late := map[string]int64{}
	for id, h := range c.held {
		if !now.Before(h.deadline) {
			late[id] = h.gen
		}
	}
	c.mu.Unlock()
	for id, gen := range late {
		c.lose(id, gen, why)
	}
}

// Close stops the renewal loop and closes the connections. The leases run
// out on their own unless Release was called first.
func (c *Cluster) Close() error {
	close(c.stop)
	<-c.done
	return c.db.Close()
}

// ContextOwner says who serves context id for tenant ("": no tenants):
// this node ("") when it owns it, or nobody knows the id (the local answer
// is a 404), the owner's URL when it holds a live lease (with the time
// its lease has left), and this node again after claiming it when its
// lease is over or it was released. A forwarded request is never sent on:
// when the owner is elsewhere the answer is unavailable. Errors:
// context_not_found (another tenant's), unavailable (*RetryError),
// internal. (server.Cluster.)
func (c *Cluster) ContextOwner(ctx context.Context, id, tenant string, forwarded bool) (string, time.Duration, error) {
	if c.Owns(id) {
		return "", 0, nil
	}
	if !forwarded {
		// Another tenant's id (or one reused since) reads the row.
		if o, ok := c.cachedOwner(id); ok && (tenant == "" || o.tenant == tenant) {
			return o.url, 0, nil
		}
	}
	if late, gen := c.late(id); late {
		// The renewal loop is behind (a busy machine): renew this one now
		// rather than give up a context nobody else has.
		if c.renewOne(ctx, id, gen) {
			return "", 0, nil
		}
		c.lose(id, gen, "its lease ran out before it could be renewed")
	}
	// A claim that loses a race reads the row again: the winner is then
	// the owner to forward to.
	for attempt := 0; ; attempt++ {
		var (
			owner, url, ctenant sql.NullString
			gen, left           int64
		)
		err := c.db.QueryRowContext(ctx, `SELECT tenant, owner_node, owner_url, generation, lease_expires_at_ms - `+nowMs+` FROM cluster_contexts WHERE context_id = $1`, id).
			Scan(&ctenant, &owner, &url, &gen, &left)
		if errors.Is(err, sql.ErrNoRows) {
			return "", 0, nil
		}
		if err != nil {
			return "", 0, unavailable("look up the context's owner", err)
		}
		if tenant != "" && ctenant.String != tenant {
			return "", 0, wasmexec.Errorf(wasmexec.EContextNotFound, "no context %q", id)
		}
		if owner.Valid && left > 0 && owner.String != c.cfg.NodeID {
			lease := time.Duration(left) * time.Millisecond
			c.cacheOwner(id, ownerEntry{url: url.String, tenant: ctenant.String, leaseEnd: time.Now().Add(lease)})
			if forwarded {
				// The sender remembered a former owner: it forgets it
				// (Moved), and the client's retry goes to this one.
				return "", 0, &RetryError{wasmexec.Errorf(wasmexec.EUnavailable, "context %s is served by node %s; retry", id, owner.String), time.Second}
			}
			return url.String, lease, nil
		}
		claimed, err := c.claimAndAdopt(ctx, id, gen)
		if err != nil {
			return "", 0, err
		}
		if claimed {
			return "", 0, nil
		}
		c.log.Info("a claim lost a race; reading the owner again", "contextId", id, "generationSeen", gen)
		if attempt == 2 {
			return "", 0, &RetryError{wasmexec.Errorf(wasmexec.EUnavailable, "context %s is being claimed by another node; retry", id), time.Second}
		}
	}
}

// ownerEntry is what a node remembers of another node's context, for at
// most ownerCacheFor (and not past the lease it read): a forward by a
// stale entry reaches a node that answers 503 (it checks its own
// ownership) or none, and Moved forgets the entry so that the client's
// retry (after 1 s: Retry-After of a cached route) reads the owner again.
type ownerEntry struct {
	url, tenant string
	leaseEnd    time.Time
	until       time.Time
}

// maxCachedOwners bounds the owner cache (it is cleared when full).
const maxCachedOwners = 1 << 14

func (c *Cluster) ownerCacheFor() time.Duration { return c.cfg.Lease / 3 }

func (c *Cluster) cachedOwner(id string) (ownerEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.owners[id]
	now := time.Now()
	if !ok || !now.Before(o.until) || !now.Before(o.leaseEnd) {
		return ownerEntry{}, false
	}
	return o, true
}

func (c *Cluster) cacheOwner(id string, o ownerEntry) {
	o.until = time.Now().Add(c.ownerCacheFor())
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.owners) >= maxCachedOwners {
		clear(c.owners)
	}
	c.owners[id] = o
}

// Moved forgets what this node remembers of id's owner: a request
// forwarded there failed or was refused. (server.Cluster.)
func (c *Cluster) Moved(id string) {
	c.mu.Lock()
	delete(c.owners, id)
	c.mu.Unlock()
}

// claimAndAdopt takes id (released, its lease over, or owned by this node
// but not held: it was dropped) if its generation is still gen, and
// restores it from its snapshot. It returns false when the row changed
// since it was read (another node was quicker).
func (c *Cluster) claimAndAdopt(ctx context.Context, id string, gen int64) (bool, error) {
	c.claim.Lock()
	defer c.claim.Unlock()
	if c.Owns(id) { // claimed by a concurrent request meanwhile
		return true, nil
	}
	// Requests from now on read the row: once it names this node, they
	// wait for this claim.
	c.Moved(id)
	sent := time.Now()
	var snap []byte
	err := c.db.QueryRowContext(ctx, `UPDATE cluster_contexts SET owner_node = $1, owner_url = $2, generation = generation + 1, lease_expires_at_ms = `+nowMs+` + $3
		WHERE context_id = $4 AND generation = $5 AND (owner_node IS NULL OR owner_node = $1 OR lease_expires_at_ms <= `+nowMs+`)
		RETURNING generation, snapshot`, c.cfg.NodeID, c.cfg.AdvertURL, c.cfg.Lease.Milliseconds(), id, gen).Scan(&gen, &snap)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, unavailable("claim the context", err)
	}
	// Held (served here) only once adopted: a request meanwhile waits for
	// the claim lock, then finds it here.
	fail := func(err error) error {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		c.db.ExecContext(rctx, `UPDATE cluster_contexts SET owner_node = NULL, owner_url = NULL, generation = generation + 1 WHERE context_id = $1 AND generation = $2`, id, gen)
		return err
	}
	if snap == nil {
		// Its server stopped between registering it and writing its first
		// record: there is nothing to bring back.
		c.db.ExecContext(context.WithoutCancel(ctx), `DELETE FROM cluster_contexts WHERE context_id = $1 AND generation = $2`, id, gen)
		return false, wasmexec.Errorf(wasmexec.EContextNotFound, "no context %q (its server stopped before its first snapshot)", id)
	}
	record, unpack, err := unpackSnapshot(snap, c.cfg.MaxSnapshotBytes)
	if err != nil {
		return false, fail(fmt.Errorf("cluster: the snapshot of %s: %w", id, err))
	}
	if err := c.cfg.Adopt(ctx, id, record, unpack); err != nil {
		return false, fail(fmt.Errorf("cluster: restore %s: %w", id, err))
	}
	c.hold(id, gen, sent)
	c.log.Info("claimed a context", "contextId", id, "generation", gen, "snapshotBytes", len(snap))
	return true, nil
}

// ProcessNode returns the advertised URL of the node whose number pid
// carries ("": this node, no such node, or a node not seen for a lease:
// its processes ended with it, and the local answer is a 404).
// (server.Cluster.)
func (c *Cluster) ProcessNode(ctx context.Context, pid int64) (string, error) {
	n := pid >> PIDShift
	if n <= 0 || n == c.node {
		return "", nil
	}
	var url string
	err := c.db.QueryRowContext(ctx, `SELECT url FROM cluster_nodes WHERE node_num = $1 AND seen_at_ms > `+nowMs+` - $2`, n, c.cfg.Lease.Milliseconds()).Scan(&url)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", unavailable("look up a process's node", err)
	}
	return url, nil
}

// TenantContexts counts the contexts of tenant on every node, but those
// named in except, for its maxContexts quota (server.ContextCounter: the
// caller counts the contexts it is making itself, registered or not).
func (c *Cluster) TenantContexts(ctx context.Context, tenant string, except []string) (int64, error) {
	if except == nil {
		except = []string{} // <> ALL(NULL) would leave every row out
	}
	var n int64
	if err := c.db.QueryRowContext(ctx, `SELECT count(*) FROM cluster_contexts WHERE tenant = $1 AND context_id <> ALL($2)`, tenant, except).Scan(&n); err != nil {
		return 0, unavailable("count the tenant's contexts", err)
	}
	return n, nil
}

// TenantWorkspaceBytes sums the workspaces of tenant's contexts that this
// node does not own, as their last snapshots counted them (this node
// counts its own live), for its maxWorkspaceBytes quota.
func (c *Cluster) TenantWorkspaceBytes(ctx context.Context, tenant string) (int64, error) {
	var n int64
	if err := c.db.QueryRowContext(ctx, `SELECT COALESCE(sum(workspace_bytes), 0) FROM cluster_contexts
		WHERE tenant = $1 AND owner_node IS DISTINCT FROM $2`, tenant, c.cfg.NodeID).Scan(&n); err != nil {
		return 0, unavailable("sum the tenant's workspaces", err)
	}
	return n, nil
}

// Peers returns the URLs of the other nodes seen within a lease.
// (server.Cluster.)
func (c *Cluster) Peers(ctx context.Context) ([]string, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT url FROM cluster_nodes WHERE node_num <> $1 AND seen_at_ms > `+nowMs+` - $2 ORDER BY node_num`, c.node, c.cfg.Lease.Milliseconds())
	if err != nil {
		return nil, unavailable("list the servers", err)
	}
	defer rows.Close()
	var urls []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, unavailable("list the servers", err)
		}
		urls = append(urls, u)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("list the servers", err)
	}
	return urls, nil
}

// RetryError is an unavailable error with the time to retry after.
type RetryError struct {
	Err   error
	After time.Duration
}

func (e *RetryError) Error() string { return e.Err.Error() }
func (e *RetryError) Unwrap() error { return e.Err }

// RetrySeconds is After in whole seconds, at least 1.
func (e *RetryError) RetrySeconds() int {
	return int(max(1, math.Ceil(e.After.Seconds())))
}

func unavailable(what string, err error) error {
	return &RetryError{&wasmexec.Error{Code: wasmexec.EUnavailable, Message: "cluster: can't " + what + " (PostgreSQL unreachable?); retry", Err: err}, time.Second}
}
