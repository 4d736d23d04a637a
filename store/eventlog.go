package store

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// The lifecycle event log of several servers (GET /v1/events), in
// PostgreSQL (migration 0006). How it holds together:
//
//   - Writing: Publish puts the event on a bounded queue and returns (a run
//     never waits for the database). One writer goroutine per server takes
//     up to eventBatch queued events and writes them in one statement
//     (writeSQL) that allocates their sequences from
//     lifecycle_event_state, inserts them, deletes what fell out of the
//     window and notifies. The state row stays locked until the commit, so
//     sequences are gapless and appear in commit order on every server: a
//     reader that has seen N has seen everything up to N. Events of one
//     server keep their publishing order.
//   - Reading: each server mirrors the table into an events.Hub (Append)
//     and serves its streams from there, so the database sees one query
//     per change per server, whatever the number of streams. The mirror
//     follows on NOTIFY (a dedicated connection, LISTEN, pgx
//     WaitForNotification), after each of its own writes, and every
//     PollInterval in case a notification was lost (the listener
//     reconnecting). Because sequences are gapless and the window is the
//     same everywhere, cursors, truncation and tenant filtering behave as
//     with one server's Hub.
//   - PostgreSQL down: the writer retries (backoff up to 2 s) while the
//     queue holds what arrives (QueueSize); past that, events are dropped
//     and counted (Dropped, wasmexec_events_dropped_total). Readers keep
//     their streams and see nothing new until the database is back; then
//     the queued events are written, in order, with the sequences of that
//     moment.

// Defaults of EventLogConfig.
const (
	DefaultEventQueue        = 4096
	DefaultEventPollInterval = time.Second
)

const (
	// eventChannel is the NOTIFY channel (per database).
	eventChannel = "wasmexec_events"
	// eventBatch bounds the events one write carries.
	eventBatch = 256
	// eventFetch bounds the rows one mirror query reads.
	eventFetch = 512
	// eventQueryTimeout bounds one write or mirror query.
	eventQueryTimeout = 10 * time.Second
	// eventSyncTimeout bounds the read a stream start may wait for.
	eventSyncTimeout = 2 * time.Second
)

// lockSQL takes the sequence row before writeSQL runs, in the same
// transaction. writeSQL alone would wait for the row inside its own
// statement, whose snapshot predates the wait: its DELETE would not see
// the rows of a writer that committed meanwhile, and those could outlive
// the window (TestEventLogFlood caught 200 rows for a window of 100).
// After the lock, writeSQL's snapshot includes every earlier write.
const lockSQL = `SELECT last_seq FROM lifecycle_event_state WHERE id = 1 FOR UPDATE`

// writeSQL writes a batch (after lockSQL): allocate the sequences ($1
// events), insert those that stay in the window ($4 newest), delete the
// ones that fell out of it, notify with the new last sequence (delivered
// at commit). Sequences run from last_seq-$1+1.
const writeSQL = `WITH s AS (
	UPDATE lifecycle_event_state SET last_seq = last_seq + $1 WHERE id = 1 RETURNING last_seq
), ins AS (
	INSERT INTO lifecycle_events (seq, tenant, event)
	SELECT s.last_seq - $1 + u.i, u.t, u.e::jsonb
	FROM s, unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(t, e, i)
	WHERE u.i > $1 - $4
), del AS (
	DELETE FROM lifecycle_events WHERE seq <= (SELECT last_seq FROM s) - $4
)
SELECT last_seq, pg_notify('` + eventChannel + `', last_seq::text) FROM s`

// EventLogConfig configures an EventLog. Zero fields take the defaults.
type EventLogConfig struct {
	// Window is how many events the log keeps (default
	// events.DefaultWindow). Every server on the database should use the
	// same: each trims the table to its own.
	Window int
	// QueueSize bounds the events waiting to be written (default 4096).
	// When it is full (PostgreSQL down or slow), Publish drops the event
	// and counts it.
	QueueSize int
	// PollInterval is how often the mirror reads the table without a
	// notification (default 1 s): the fallback for lost notifications.
	PollInterval time.Duration
}

// EventLog is the lifecycle event log (events.Log) shared by every server
// on one PostgreSQL database. Open it with Store.OpenEventLog; Stop it
// before closing the Store (Close does it if it was not). Its methods are
// safe for concurrent use.
type EventLog struct {
	s       *Store
	cfg     EventLogConfig
	connCfg *pgx.ConnConfig
	log     *slog.Logger
	now     func() time.Time

	mirror *events.Hub
	queue  chan events.Event
	kick   chan struct{}
	// fsem serializes mirror reads (a channel: a stream start waits with
	// its context).
	fsem chan struct{}

	written, dropped atomic.Uint64
	listening        atomic.Bool
	stopped          atomic.Bool
	// dropping is set by the first drop of an outage (logged once) and
	// cleared by the next successful write.
	dropping atomic.Bool
	// inflight is the size of the batch the writer holds (being written or
	// retried).
	inflight atomic.Int64

	ctx    context.Context // the follower's and listener's
	cancel context.CancelFunc
	// wctx ends the writer's retries: cancelled when Stop's deadline passes.
	wctx       context.Context
	wcancel    context.CancelFunc
	stopping   chan struct{}
	writerDone chan struct{}
	wg         sync.WaitGroup
	stopOnce   sync.Once
}

var _ events.Log = (*EventLog)(nil)

// OpenEventLog opens the shared event log of a PostgreSQL store: it reads
// the window into this server's mirror and starts the writer, the
// follower and the listener. For a SQLite store it is an error
// (wasmexec.EInvalid): one server keeps its events in an events.Hub. A Store
// has at most one (a second is wasmexec.EConflict).
func (s *Store) OpenEventLog(ctx context.Context, cfg EventLogConfig) (*EventLog, error) {
	if s.pg == nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "store: the shared event log needs PostgreSQL (with SQLite, use events.Hub)")
	}
	if s.evlog.Load() != nil {
		return nil, wasmexec.Errorf(wasmexec.EConflict, "store: this store's event log is already open")
	}
	if cfg.Window < 0 || cfg.QueueSize < 0 || cfg.PollInterval < 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "store: event log Window, QueueSize and PollInterval must be positive")
	}
	if cfg.Window == 0 {
		cfg.Window = events.DefaultWindow
	}
	if cfg.QueueSize == 0 {
		cfg.QueueSize = DefaultEventQueue
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = DefaultEventPollInterval
	}
	connCfg, err := pgx.ParseConfig(s.cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("store: event log: %s", redactErr(err, s.cfg.URL))
	}
	if connCfg.ConnectTimeout == 0 {
		connCfg.ConnectTimeout = 10 * time.Second
	}
	l := &EventLog{
		s:          s,
		cfg:        cfg,
		connCfg:    connCfg,
		log:        s.log.With("part", "events"),
		now:        s.cfg.Now,
		mirror:     events.New(cfg.Window),
		queue:      make(chan events.Event, cfg.QueueSize),
		kick:       make(chan struct{}, 1),
		fsem:       make(chan struct{}, 1),
		stopping:   make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	if err := l.catchUp(ctx); err != nil {
		return nil, s.dbError("read the event log", err)
	}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.wctx, l.wcancel = context.WithCancel(context.Background())
	go l.writer()
	l.wg.Add(2)
	go l.follow()
	go l.listen()
	s.evlog.Store(l)
	return l, nil
}

// Publish queues e for the database and returns at once; its Seq is
// assigned when it is written, TimestampMs (when zero) now. A full queue
// or a stopped log drops it (counted in Dropped).
func (l *EventLog) Publish(e events.Event) {
	if e.TimestampMs == 0 {
		e.TimestampMs = l.now().UnixMilli()
	}
	if l.stopped.Load() {
		l.dropped.Add(1)
		return
	}
	select {
	case l.queue <- e:
	default:
		l.dropped.Add(1)
		if l.dropping.CompareAndSwap(false, true) {
			l.log.Warn("lifecycle event queue full (PostgreSQL down or slow): dropping events until a write succeeds; wasmexec_events_dropped_total counts them", "queue", l.cfg.QueueSize)
		}
	}
}

// Last returns the sequence of the newest event, after bringing the mirror
// up to date (within a short bound; on failure, the mirror's).
func (l *EventLog) Last(ctx context.Context) uint64 {
	l.sync(ctx)
	return l.mirror.Last(ctx)
}

// Read returns up to max events after seq that match keep, from this
// server's mirror. A cursor past the mirror's newest (one read on another
// server a moment ago) first brings the mirror up to date, so it is not
// taken for a cursor from the future (which starts from now).
func (l *EventLog) Read(ctx context.Context, after uint64, max int, keep func(*events.Event) bool) events.Page {
	if after > l.mirror.Last(ctx) {
		l.sync(ctx)
	}
	return l.mirror.Read(ctx, after, max, keep)
}

// Done is closed by Close.
func (l *EventLog) Done() <-chan struct{} { return l.mirror.Done() }

// Close ends every reader's stream (server shutdown). Publishing and
// writing go on until Stop.
func (l *EventLog) Close() { l.mirror.Close() }

// Stop closes the log: streams end, events still queued are written until
// ctx ends (then dropped and counted), and the goroutines stop. Calling it
// again does nothing.
func (l *EventLog) Stop(ctx context.Context) {
	l.stopOnce.Do(func() {
		l.Close()
		l.stopped.Store(true)
		close(l.stopping)
		go func() {
			select {
			case <-ctx.Done():
			case <-l.writerDone:
			}
			l.wcancel()
		}()
		<-l.writerDone
		l.dropped.Add(uint64(len(l.queue)))
		l.cancel()
		l.wg.Wait()
	})
}

// EventLogStats are an EventLog's counters.
type EventLogStats struct {
	Written   uint64 // events committed by this server
	Dropped   uint64 // events this server could not write (queue full, stopped)
	Queued    int    // events waiting to be written (queued, or in the batch being written)
	Listening bool   // the NOTIFY listener is connected
}

// Counts is Stats as /metrics reads it: events written, dropped, queued.
func (l *EventLog) Counts() (written, dropped uint64, queued int) {
	s := l.Stats()
	return s.Written, s.Dropped, s.Queued
}

// Stats returns the counters (for /metrics).
func (l *EventLog) Stats() EventLogStats {
	return EventLogStats{Written: l.written.Load(), Dropped: l.dropped.Load(), Queued: len(l.queue) + int(l.inflight.Load()), Listening: l.listening.Load()}
}

// writer writes the queue in batches, retrying a batch until it is written
// (the queue bounds what waits behind it), until Stop's deadline.
func (l *EventLog) writer() {
	defer close(l.writerDone)
	batch := make([]events.Event, 0, eventBatch)
	failing := false
	for {
		var e events.Event
		select {
		case e = <-l.queue:
		case <-l.stopping:
			select {
			case e = <-l.queue:
			default:
				return
			}
		}
		batch = append(batch[:0], e)
	fill:
		for len(batch) < eventBatch {
			select {
			case e := <-l.queue:
				batch = append(batch, e)
			default:
				break fill
			}
		}
		l.inflight.Store(int64(len(batch)))
		backoff := 50 * time.Millisecond
		for {
			err := l.write(l.wctx, batch)
			if err == nil {
				l.inflight.Store(0)
				if failing {
					l.log.Info("lifecycle events are written again")
					failing = false
				}
				l.written.Add(uint64(len(batch)))
				l.dropping.Store(false)
				l.poke()
				break
			}
			if l.wctx.Err() != nil {
				// Stop's deadline: what is left is lost.
				l.dropped.Add(uint64(len(batch)))
				l.inflight.Store(0)
				return
			}
			if !failing {
				l.log.Warn("writing lifecycle events failed; they wait in the queue and are retried", "err", l.s.dbError("write events", err))
				failing = true
			}
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-l.wctx.Done():
				t.Stop()
			}
			backoff = min(2*backoff, 2*time.Second)
		}
	}
}

// write commits batch (writeSQL). A connection lost after the server
// committed but before it answered makes the batch be written again: in
// that corner events are delivered twice, under new sequences, rather than
// lost.
func (l *EventLog) write(ctx context.Context, batch []events.Event) error {
	ctx, cancel := context.WithTimeout(ctx, eventQueryTimeout)
	defer cancel()
	tenants := make([]string, len(batch))
	docs := make([]string, len(batch))
	for i := range batch {
		b, err := json.Marshal(&batch[i])
		if err != nil {
			return err
		}
		tenants[i], docs[i] = batch[i].Tenant, string(b)
	}
	tx, err := l.s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, lockSQL); err != nil {
		return err
	}
	var last int64
	var ignored string
	if err := tx.QueryRowContext(ctx, writeSQL, len(batch), tenants, docs, l.cfg.Window).Scan(&last, &ignored); err != nil {
		return err
	}
	return tx.Commit()
}

// poke asks the follower to read the table now.
func (l *EventLog) poke() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// follow keeps the mirror up to date: on a poke (a notification, an own
// write) and every PollInterval.
func (l *EventLog) follow() {
	defer l.wg.Done()
	t := time.NewTicker(l.cfg.PollInterval)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-l.kick:
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(l.ctx, eventQueryTimeout)
		err := l.catchUp(ctx)
		cancel()
		switch {
		case err != nil && l.ctx.Err() == nil && !failing:
			l.log.Warn("reading lifecycle events failed; streams get nothing new until it works again", "err", l.s.dbError("read events", err))
			failing = true
		case err == nil && failing:
			l.log.Info("lifecycle events are read again")
			failing = false
		}
	}
}

// sync brings the mirror up to date for a reader, within eventSyncTimeout.
func (l *EventLog) sync(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, eventSyncTimeout)
	defer cancel()
	_ = l.catchUp(ctx) // on failure the mirror answers as it is
}

// catchUp appends to the mirror the rows after its newest.
func (l *EventLog) catchUp(ctx context.Context) error {
	select {
	case l.fsem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-l.fsem }()
	for {
		after := l.mirror.Last(ctx)
		rows, err := l.s.r.QueryContext(ctx, "SELECT seq, tenant, event::text FROM lifecycle_events WHERE seq > $1 ORDER BY seq LIMIT $2", int64(after), eventFetch)
		if err != nil {
			return err
		}
		var evs []events.Event
		for rows.Next() {
			var seq int64
			var tenant, doc string
			if err := rows.Scan(&seq, &tenant, &doc); err != nil {
				rows.Close()
				return err
			}
			var e events.Event
			if err := json.Unmarshal([]byte(doc), &e); err != nil {
				// Keeps its place; never read (no type).
				e = events.Event{}
			}
			e.Seq, e.Tenant = uint64(seq), tenant
			evs = append(evs, e)
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		rows.Close()
		if len(evs) == 0 && after > 0 {
			// Nothing new: check that the log did not start over behind
			// the mirror (a restored or recreated database), else the
			// mirror would wait for sequences it already passed.
			var last int64
			if err := l.s.r.QueryRowContext(ctx, "SELECT last_seq FROM lifecycle_event_state WHERE id = 1").Scan(&last); err != nil {
				return err
			}
			if uint64(last) < after {
				l.log.Warn("the lifecycle event log started over (database restored or recreated): following it from its start", "had", after, "now", last)
				l.mirror.Reset()
				continue
			}
		}
		l.mirror.Append(evs...)
		if len(evs) < eventFetch {
			return nil
		}
	}
}

// listen holds a connection that LISTENs on eventChannel and pokes the
// follower on each notification of a sequence the mirror lacks,
// reconnecting (backoff up to 5 s) when it breaks; meanwhile the poll
// carries on.
func (l *EventLog) listen() {
	defer l.wg.Done()
	backoff := 100 * time.Millisecond
	failing := false
	for {
		conn, err := pgx.ConnectConfig(l.ctx, l.connCfg)
		if err == nil {
			if _, err = conn.Exec(l.ctx, "LISTEN "+eventChannel); err == nil {
				if failing {
					l.log.Info("listening for lifecycle events again")
					failing = false
				}
				l.listening.Store(true)
				backoff = 100 * time.Millisecond
				l.poke() // what was missed while not listening
				for {
					var n *pgconn.Notification
					if n, err = conn.WaitForNotification(l.ctx); err != nil {
						break
					}
					if seq, perr := strconv.ParseUint(n.Payload, 10, 64); perr != nil || seq > l.mirror.Last(l.ctx) {
						l.poke()
					}
				}
				l.listening.Store(false)
			}
			cctx, cancel := context.WithTimeout(context.Background(), time.Second)
			conn.Close(cctx)
			cancel()
		}
		if l.ctx.Err() != nil {
			return
		}
		if !failing {
			l.log.Warn("listening for lifecycle events failed; polling every "+l.cfg.PollInterval.String()+" until it works again", "err", redactErr(err, l.s.cfg.URL))
			failing = true
		}
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-l.ctx.Done():
			t.Stop()
			return
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}
