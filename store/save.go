package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-sqlite3"

	"github.com/wasmexec/wasmexec"
)

const insertExecutionSQL = `INSERT INTO executions (
	id, kind, language, context_id, pid, outcome, error, exit_code, value,
	stdout, stderr, stdout_truncated, stderr_truncated,
	started_at_ms, completed_at_ms, duration_ms, fuel_consumed, context_reset,
	code_sha256, code, code_bytes, events_retained, output_truncated, extra,
	expires_at_ms, value_truncated, request_id, tenant, network, outputs
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// eventsPerInsert is how many events one multi-row INSERT carries.
const eventsPerInsert = 64

// insertEventsSQL[n] inserts n events.
var insertEventsSQL = func() []string {
	q := make([]string, eventsPerInsert+1)
	for n := 1; n <= eventsPerInsert; n++ {
		var b strings.Builder
		b.WriteString("INSERT INTO events (exec_seq, sequence, pid, channel, chunk, timestamp_ms) VALUES ")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?,?,?,?,?,?)")
		}
		q[n] = b.String()
	}
	return q
}()

// Save stores a completed execution and its retained events in one
// transaction, then evicts the oldest completions over MaxCompleted.
//
// What one record stores is bounded whatever the run returned: a value
// over MaxValueBytes is dropped (ValueTruncated), stdout and stderr keep
// their first MaxStreamBytes each (StdoutTruncated, StderrTruncated), the
// code its first MaxCodeBytes, the error at most MaxErrorBytes of JSON
// ("truncated": true in its details when cut) and the extra payload at
// most MaxExtraBytes (else {"truncated": true, "bytes": N}), and the
// network record at most MaxExtraBytes of JSON (its first requests), the
// rich outputs at most MaxStreamBytes of JSON (the first ones that fit;
// OutputsDropped counts the others).
//
// r must be finished work: a non-empty ExecutionID, Kind and Language and a
// terminal Outcome (succeeded, failed, cancelled, timed_out); the store never
// holds running executions, so eviction never touches them. events must have
// strictly increasing sequences ≥ 1. eventsTruncated says the live log
// already dropped events; Save drops more (oldest first) past MaxEventsBytes.
// The record expires at CompletedAtMs + CompletedTTL (Now when CompletedAtMs
// is 0). Save does not modify r or events.
//
// Errors: wasmexec.EInvalid for a malformed record, wasmexec.EConflict when the id is
// already stored, wasmexec.EUnavailable after Close.
func (s *Store) Save(ctx context.Context, r *wasmexec.Result, events []wasmexec.Event, eventsTruncated bool) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := validateResult(r, events); err != nil {
		return err
	}
	now := s.nowMs()
	rec, err := s.prepare(r, events, eventsTruncated, now)
	if err != nil {
		return err
	}

	p := &pendingSave{id: r.ExecutionID, rec: rec, now: now, done: make(chan struct{})}
	s.gmu.Lock()
	s.queue = append(s.queue, p)
	lead := !s.leading
	s.leading = true
	s.gmu.Unlock()
	if lead {
		s.commitQueued()
	}
	<-p.done // durable (or failed) before Save returns, whatever ctx says
	return p.err
}

// pendingSave is one Save waiting for its group commit.
type pendingSave struct {
	id   string
	rec  record
	now  int64
	err  error
	done chan struct{}
}

// commitQueued writes queued saves in batches until the queue is empty.
// Saves that arrive while a batch commits join the next batch, so under
// concurrency one fsync covers many completions.
func (s *Store) commitQueued() {
	for {
		s.gmu.Lock()
		batch := s.queue
		s.queue = nil
		if len(batch) == 0 {
			s.leading = false
			s.gmu.Unlock()
			return
		}
		s.gmu.Unlock()
		s.commitBatch(batch)
		for _, p := range batch {
			close(p.done)
		}
	}
}

// commitBatch inserts a batch in one transaction. Each record has its own
// savepoint, so a duplicate id fails only its own Save.
func (s *Store) commitBatch(batch []*pendingSave) {
	ctx := context.Background()
	if s.pg != nil {
		// A server that stops answering (a partition, not a refused
		// connection) fails the batch instead of holding every Save:
		// its records are then not reported as stored.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, pgWriteTimeout)
		defer cancel()
	}
	fail := func(err error) {
		for _, p := range batch {
			if p.err == nil {
				p.err = s.dbError("save "+p.id, err)
			}
		}
	}
	if err := s.lockWrite(ctx); err != nil {
		fail(err)
		return
	}
	defer s.unlockWrite()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		fail(err)
		return
	}
	defer tx.Rollback()
	count, err := s.lockCount(ctx, tx)
	if err != nil {
		fail(err)
		return
	}
	added := 0
	minExpiry := int64(math.MaxInt64)
	for _, p := range batch {
		if s.pg != nil {
			// No savepoint needed: a duplicate id inserts nothing
			// (ON CONFLICT DO NOTHING) instead of aborting the transaction.
			switch err := s.insertRecord(ctx, tx, p.rec); {
			case errors.Is(err, errDuplicate):
				p.err = &wasmexec.Error{Code: wasmexec.EConflict, Message: fmt.Sprintf("execution %s is already stored", p.id)}
			case err != nil:
				fail(err)
				return
			default:
				added++
				minExpiry = min(minExpiry, p.rec.expiresAt)
			}
			continue
		}
		if len(batch) == 1 {
			// Alone in its transaction (the common case: a batch forms
			// only while another commits), a record needs no savepoint:
			// if it fails, the transaction is rolled back whole.
			if err := s.insertRecord(ctx, tx, p.rec); err != nil {
				p.err = s.saveError(p.id, err)
				return
			}
			added++
			minExpiry = min(minExpiry, p.rec.expiresAt)
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT one"); err != nil {
			fail(err)
			return
		}
		if err := s.insertRecord(ctx, tx, p.rec); err != nil {
			if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT one"); rerr != nil {
				fail(rerr)
				return
			}
			p.err = s.saveError(p.id, err)
		} else {
			added++
			minExpiry = min(minExpiry, p.rec.expiresAt)
		}
		if _, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT one"); err != nil {
			fail(err)
			return
		}
	}
	evicted := 0
	if over := count + added - s.cfg.MaxCompleted; over > 0 {
		if evicted, err = s.evictTx(ctx, tx, over, batch[len(batch)-1].now); err != nil {
			fail(err)
			return
		}
	}
	if err := s.addCount(ctx, tx, added-evicted); err != nil {
		fail(err)
		return
	}
	if err := tx.Commit(); err != nil {
		fail(err)
		return
	}
	s.committed(added - evicted)
	if minExpiry < s.plannedMs.Load() {
		s.wakeSweeper()
	}
}

// saveError is what Save says of a record SQLite refused: conflict for an
// id already stored.
func (s *Store) saveError(id string, err error) error {
	var se sqlite3.Error
	if (errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique) || isUniqueViolation(err) {
		return &wasmexec.Error{Code: wasmexec.EConflict, Message: fmt.Sprintf("execution %s is already stored", id), Err: err}
	}
	return s.dbError("save "+id, err)
}

// errDuplicate: PostgreSQL found the id already stored.
var errDuplicate = errors.New("duplicate execution id")

// record is a validated execution ready to insert.
type record struct {
	args      []any // insertExecutionSQL's arguments
	events    []wasmexec.Event
	expiresAt int64
}

// prepare turns a Result into the row Save inserts: events capped, code
// truncated and hashed, expiry computed from the completion time.
func (s *Store) prepare(r *wasmexec.Result, events []wasmexec.Event, eventsTruncated bool, now int64) (record, error) {
	events, dropped := capEvents(events, s.cfg.MaxEventsBytes)

	completed := r.CompletedAtMs
	if completed == 0 {
		completed = now
	}
	expires := completed + s.cfg.CompletedTTL.Milliseconds()

	code := r.Code
	codeHash := r.CodeSHA256
	if codeHash == "" && code != "" {
		sum := sha256.Sum256([]byte(code))
		codeHash = hex.EncodeToString(sum[:])
	}
	keptCode := truncateUTF8(code, s.cfg.MaxCodeBytes)

	errJSON, err := capError(r.Error, s.cfg.MaxErrorBytes)
	if err != nil {
		return record{}, wasmexec.Errorf(wasmexec.EInvalid, "execution %s: error details are not JSON-encodable: %v", r.ExecutionID, err)
	}
	value, valueTruncated := []byte(r.Value), r.ValueTruncated
	if len(value) > s.cfg.MaxValueBytes {
		value, valueTruncated = nil, true
	}
	stdout, stdoutTruncated := capStream(r.Stdout, s.cfg.MaxStreamBytes)
	stderr, stderrTruncated := capStream(r.Stderr, s.cfg.MaxStreamBytes)
	extra := []byte(r.Extra)
	if len(extra) > s.cfg.MaxExtraBytes {
		extra = fmt.Appendf(nil, `{"truncated":true,"bytes":%d}`, len(extra))
	}

	rec := record{expiresAt: expires, events: events}
	rec.args = []any{
		r.ExecutionID, string(r.Kind), string(r.Language), r.ContextID, r.PID, string(r.Outcome),
		nullBytes(errJSON), r.ExitCode, nullBytes(value),
		stringBytes(stdout), stringBytes(stderr), r.StdoutTruncated || stdoutTruncated, r.StderrTruncated || stderrTruncated,
		r.StartedAtMs, completed, r.DurationMs, int64(r.FuelConsumed), r.ContextReset,
		codeHash, nullBytes([]byte(keptCode)), len(code),
		r.EventsRetained || len(events) > 0 || eventsTruncated || dropped,
		r.OutputTruncated || eventsTruncated || dropped,
		nullBytes(extra),
		expires, valueTruncated, r.RequestID, r.Tenant, nullBytes(capNetwork(r.Network, s.cfg.MaxExtraBytes)),
		nullBytes(capOutputs(r.Outputs, r.OutputsDropped, s.cfg.MaxStreamBytes)),
	}

	return rec, nil
}

// insertRecord inserts rec and its events inside tx.
func (s *Store) insertRecord(ctx context.Context, tx *sql.Tx, rec record) error {
	var seq int64
	if s.pg != nil {
		err := tx.QueryRowContext(ctx, s.q(insertExecutionSQL+" ON CONFLICT (id) DO NOTHING RETURNING seq"), rec.args...).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			return errDuplicate
		}
		if err != nil {
			return err
		}
	} else {
		res, err := tx.ExecContext(ctx, insertExecutionSQL, rec.args...)
		if err != nil {
			return err
		}
		if seq, err = res.LastInsertId(); err != nil {
			return err
		}
	}
	return s.insertEvents(ctx, tx, seq, rec.events)
}

func (s *Store) insertEvents(ctx context.Context, tx *sql.Tx, seq int64, events []wasmexec.Event) error {
	args := make([]any, 0, 6*min(len(events), eventsPerInsert))
	for len(events) > 0 {
		n := min(len(events), eventsPerInsert)
		args = args[:0]
		for _, e := range events[:n] {
			chunk := e.Chunk
			if chunk == nil {
				chunk = []byte{} // NOT NULL column; an empty write is still an event
			}
			args = append(args, seq, int64(e.Sequence), e.PID, string(e.Channel), chunk, e.TimestampMs)
		}
		if _, err := tx.ExecContext(ctx, s.q(insertEventsSQL[n]), args...); err != nil {
			return fmt.Errorf("insert events: %w", err)
		}
		events = events[n:]
	}
	return nil
}

func validateResult(r *wasmexec.Result, events []wasmexec.Event) error {
	if r == nil {
		return wasmexec.Errorf(wasmexec.EInvalid, "no execution result to save")
	}
	if r.ExecutionID == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "execution result has no executionId")
	}
	switch r.Outcome {
	case wasmexec.Succeeded, wasmexec.Failed, wasmexec.Cancelled, wasmexec.TimedOut:
	default:
		return wasmexec.Errorf(wasmexec.EInvalid, "execution %s: outcome %q is not a completed outcome; only completed executions are stored", r.ExecutionID, r.Outcome)
	}
	if r.Kind == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "execution %s has no kind", r.ExecutionID)
	}
	if r.Language == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "execution %s has no language", r.ExecutionID)
	}
	var prev uint64
	for i, e := range events {
		if e.Sequence <= prev || e.Sequence > 1<<63-1 {
			return wasmexec.Errorf(wasmexec.EInvalid, "execution %s: event %d has sequence %d after %d; sequences must increase from 1", r.ExecutionID, i, e.Sequence, prev)
		}
		prev = e.Sequence
	}
	return nil
}

// capEvents keeps the newest events whose chunks fit in max bytes and says
// whether it dropped any.
func capEvents(events []wasmexec.Event, max int64) ([]wasmexec.Event, bool) {
	var total int64
	i := len(events)
	for i > 0 {
		n := int64(len(events[i-1].Chunk))
		if total+n > max {
			break
		}
		total += n
		i--
	}
	return events[i:], i > 0
}

// capStream keeps the first max bytes of a captured stream (nil: not
// captured) and says whether it cut.
func capStream(p *string, max int) (*string, bool) {
	if p == nil || len(*p) <= max {
		return p, false
	}
	s := truncateUTF8(*p, max)
	return &s, true
}

// minErrorBytes is the smallest MaxErrorBytes: room for a code, a name,
// the truncation marker and some message.
const minErrorBytes = 4096

// Caps of an error's short fields (they come from the guest too: an
// exception's class name is user code's). Escaped, with the JSON around
// them, they fit in errorFixedBytes.
const (
	maxErrorCodeBytes = 64
	maxErrorNameBytes = 256
	errorFixedBytes   = 2048
)

// capError encodes e in at most max bytes of JSON: when it is larger, the
// code and name are cut to their caps, the message and stack share what
// is left (first as raw bytes, then allowing for JSON escapes, which can
// make a byte six), the details are dropped when they don't fit beside
// them, and the details say "truncated": true.
func capError(e *wasmexec.ErrorData, max int) ([]byte, error) {
	if e == nil {
		return nil, nil
	}
	// Marshalling tens of MiB takes a second: only when it may fit.
	if len(e.Code)+len(e.Name)+len(e.Message)+len(e.Stack) <= max {
		b, err := json.Marshal(e)
		if err != nil || len(b) <= max {
			return b, err
		}
	}
	c := *e
	c.Code = truncateUTF8(c.Code, maxErrorCodeBytes)
	c.Name = truncateUTF8(c.Name, maxErrorNameBytes)
	marker := map[string]any{"truncated": true}
	tries := []map[string]any{marker}
	if db, err := json.Marshal(e.Details); err != nil {
		return nil, err
	} else if len(db) <= max/2 {
		details := map[string]any{}
		for k, v := range e.Details {
			details[k] = v
		}
		details["truncated"] = true
		tries = []map[string]any{details, marker}
	}
	var (
		b   []byte
		err error
	)
	for _, escape := range []int{1, 6} {
		room := (max - errorFixedBytes) / 2 / escape
		c.Message, c.Stack = truncateUTF8(e.Message, room), truncateUTF8(e.Stack, room)
		for _, d := range tries {
			c.Details = d
			if b, err = json.Marshal(&c); err != nil || len(b) <= max {
				return b, err
			}
		}
	}
	return b, nil // not reached: the last try fits by construction
}

// truncateUTF8 returns the first max bytes of s, cut back to a rune boundary
// when s is valid UTF-8 there.
func truncateUTF8(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && cut > max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if !utf8.RuneStart(s[cut]) {
		cut = max // not UTF-8 around the cut: keep the bytes
	}
	return s[:cut]
}

func nullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// stringBytes stores a captured stream as bytes (exactly what the guest
// wrote, valid UTF-8 or not); nil means not captured.
func stringBytes(p *string) any {
	if p == nil {
		return nil
	}
	return []byte(*p)
}

// storedOutputs is the outputs column's JSON.
type storedOutputs struct {
	Items   []wasmexec.DisplayOutput `json:"items"`
	Dropped int                      `json:"dropped,omitempty"`
}

// capOutputs encodes a run's rich outputs in at most max bytes, keeping
// the first ones that fit; nil when there are none.
func capOutputs(o []wasmexec.DisplayOutput, dropped, max int) []byte {
	if len(o) == 0 && dropped == 0 {
		return nil
	}
	var size int64
	n := 0
	for n < len(o) && size+o[n].Size()+256 <= int64(max) {
		size += o[n].Size() + 256
		n++
	}
	for ; n >= 0; n-- {
		b, err := json.Marshal(storedOutputs{Items: o[:n], Dropped: dropped + len(o) - n})
		if err == nil && len(b) <= max {
			return b
		}
	}
	return nil
}

// capNetwork encodes a run's network record in at most max bytes, keeping
// its first requests (each is small: URLs are cut at 2 KiB by egress).
func capNetwork(n []wasmexec.NetworkRequest, max int) []byte {
	for len(n) > 0 {
		b, err := json.Marshal(n)
		if err == nil && len(b) <= max {
			return b
		}
		n = n[:len(n)/2]
	}
	return nil
}
