package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmexec/wasmexec"
)

// resultColumns are the executions columns scanResult reads, in its order.
const resultColumns = `seq, id, kind, language, context_id, pid, outcome, error, exit_code, value,
	stdout, stderr, stdout_truncated, stderr_truncated,
	started_at_ms, completed_at_ms, duration_ms, fuel_consumed, context_reset,
	code_sha256, code, events_retained, output_truncated, extra, expires_at_ms, value_truncated, code_bytes, request_id, tenant, network, outputs`

type scanner interface{ Scan(dest ...any) error }

// recordOverheadBytes is what List counts for a record besides its
// variable fields: ids, times, flags and JSON punctuation.
const recordOverheadBytes = 1024

// scanResult reads one row of resultColumns. wireBytes estimates the JSON
// of the record from above (List's page budget): recordOverheadBytes plus
// the variable fields with every byte JSON may escape counted as six.
func scanResult(row scanner) (r *wasmexec.Result, seq, expiresAt, wireBytes int64, err error) {
	r = new(wasmexec.Result)
	var (
		kind, lang, outcome         string
		errJSON, value, code, extra []byte
		network, outputs            []byte
		stdout, stderr              sql.NullString
		fuel, codeBytes             int64
	)
	err = row.Scan(&seq, &r.ExecutionID, &kind, &lang, &r.ContextID, &r.PID, &outcome, &errJSON, &r.ExitCode, &value,
		&stdout, &stderr, &r.StdoutTruncated, &r.StderrTruncated,
		&r.StartedAtMs, &r.CompletedAtMs, &r.DurationMs, &fuel, &r.ContextReset,
		&r.CodeSHA256, &code, &r.EventsRetained, &r.OutputTruncated, &extra, &expiresAt, &r.ValueTruncated, &codeBytes, &r.RequestID, &r.Tenant, &network, &outputs)
	if err != nil {
		return nil, 0, 0, 0, err
	}
	wireBytes = recordOverheadBytes + jsonBytes(errJSON) + jsonBytes(value) + jsonBytes(extra) + jsonBytes(network) + jsonBytes(outputs) +
		jsonBytes([]byte(stdout.String)) + jsonBytes([]byte(stderr.String))
	r.Kind, r.Language, r.Outcome = wasmexec.Kind(kind), wasmexec.Language(lang), wasmexec.Outcome(outcome)
	r.FuelConsumed = uint64(fuel)
	if len(errJSON) > 0 {
		r.Error = new(wasmexec.ErrorData)
		if err := json.Unmarshal(errJSON, r.Error); err != nil {
			return nil, 0, 0, 0, fmt.Errorf("execution %s: decode error details: %w", r.ExecutionID, err)
		}
	}
	if len(value) > 0 {
		r.Value = json.RawMessage(value)
	}
	if len(extra) > 0 {
		r.Extra = json.RawMessage(extra)
	}
	if len(network) > 0 {
		if err := json.Unmarshal(network, &r.Network); err != nil {
			return nil, 0, 0, 0, fmt.Errorf("execution %s: decode network: %w", r.ExecutionID, err)
		}
	}
	if len(outputs) > 0 {
		var so struct {
			Items   []wasmexec.DisplayOutput `json:"items"`
			Dropped int                      `json:"dropped"`
		}
		if err := json.Unmarshal(outputs, &so); err != nil {
			return nil, 0, 0, 0, fmt.Errorf("execution %s: decode outputs: %w", r.ExecutionID, err)
		}
		r.Outputs, r.OutputsDropped = so.Items, so.Dropped
	}
	if stdout.Valid {
		r.Stdout = &stdout.String
	}
	if stderr.Valid {
		r.Stderr = &stderr.String
	}
	r.Code = string(code)
	r.CodeTruncated = codeBytes > int64(len(code))
	return r, seq, expiresAt, wireBytes, nil
}

// jsonBytes bounds the length of b in a JSON response: a byte JSON may
// escape (controls, quotes, backslashes, <, >, &, invalid UTF-8, U+2028,
// U+2029) counts as six.
func jsonBytes(b []byte) int64 {
	n := int64(0)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0x20, r == '"', r == '\\', r == '<', r == '>', r == '&':
			n += 6
		case r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += int64(size)
		}
		i += size
	}
	return n
}

// Get returns the stored record of execution id. Reading does not extend its
// TTL. With a tenant in ctx (wasmexec.WithTenant) only that tenant's records
// and tombstones are seen: another tenant's id is not_found, exactly like
// an unknown one (see visible). Errors: wasmexec.ENotFound when the id is unknown, wasmexec.EExpired when it
// expired (including past its expiry but not yet swept) or was evicted over
// the cap, wasmexec.EUnavailable after Close.
func (s *Store) Get(ctx context.Context, id string) (*wasmexec.Result, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	now := s.nowMs()
	r, _, expiresAt, _, err := scanResult(s.r.QueryRowContext(ctx,
		s.q("SELECT "+resultColumns+" FROM executions WHERE id = ?"), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, s.missing(ctx, id)
	}
	if err != nil {
		return nil, s.dbError("get "+id, err)
	}
	if !visible(ctx, r.Tenant) {
		return nil, notFound(id)
	}
	if expiresAt <= now {
		return nil, expiredError(id, reasonExpired)
	}
	return r, nil
}

// missing explains why id has no row: a tombstone says expired or evicted,
// otherwise it was never stored (or its tombstone was trimmed).
func (s *Store) missing(ctx context.Context, id string) error {
	var reason, tenant string
	err := s.r.QueryRowContext(ctx, s.q("SELECT reason, tenant FROM tombstones WHERE id = ?"), id).Scan(&reason, &tenant)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return notFound(id)
	case err != nil:
		return s.dbError("look up the tombstone of "+id, err)
	case !visible(ctx, tenant):
		return notFound(id)
	}
	return expiredError(id, reason)
}

func notFound(id string) error {
	return wasmexec.Errorf(wasmexec.ENotFound, "execution %s not found", id)
}

// visible reports whether a record (or tombstone) of tenant may be seen by
// the caller of ctx: always without a tenant in ctx (an open server, or
// the server itself), else only the tenant's own. Records saved without a
// tenant (an open server's, or before migration 0004) are hidden from
// every tenant: ownership fails closed.
func visible(ctx context.Context, tenant string) bool {
	t := wasmexec.TenantID(ctx)
	return t == "" || t == tenant
}

func expiredError(id, reason string) error {
	if reason == reasonEvicted {
		return wasmexec.Errorf(wasmexec.EExpired, "execution %s was evicted: the store keeps a bounded number of completed executions", id)
	}
	return wasmexec.Errorf(wasmexec.EExpired, "execution %s has expired", id)
}

// List page sizes.
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// processOutcomes maps the process API's exit outcomes that are not run
// outcomes to the run outcomes of the records they stand for: a process
// that ended by itself (any exit code, or a limit) is exited, one killed by
// a signal is signalled (its run cancelled). timed_out is the same word in
// both vocabularies.
var processOutcomes = map[string][]wasmexec.Outcome{
	string(wasmexec.ExitExited):    {wasmexec.Succeeded, wasmexec.Failed},
	string(wasmexec.ExitSignalled): {wasmexec.Cancelled},
}

// List returns stored, unexpired records matching f, newest first (by
// insertion); with a tenant in ctx, that tenant's only. Pages are stable: records saved after a cursor was issued never
// appear after it, so paging sees no duplicates and no gaps among the records
// that existed when it started (except those that expire meanwhile).
//
// A page also stops before the record that would take it past
// Config.MaxPageBytes (an upper estimate of the records' JSON), with
// HasMore and a cursor at that record; the first record of a page always
// comes, alone if it is larger than the budget (records are bounded when
// saved, so it is at most a few MiB).
// Errors: wasmexec.EInvalid for a malformed cursor or a negative limit,
// wasmexec.EUnavailable after Close.
func (s *Store) List(ctx context.Context, f wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	limit := f.Limit
	switch {
	case limit < 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "limit must not be negative, got %d", limit)
	case limit == 0:
		limit = DefaultListLimit
	case limit > MaxListLimit:
		limit = MaxListLimit
	}
	var (
		where = []string{"expires_at_ms > ?"}
		args  = []any{s.nowMs()}
	)
	if t := wasmexec.TenantID(ctx); t != "" {
		where, args = append(where, "tenant = ?"), append(args, t)
	}
	if f.After != "" {
		before, err := parseListCursor(f.After)
		if err != nil {
			return nil, err
		}
		where, args = append(where, "seq < ?"), append(args, before)
	}
	outcome := f.Outcome
	if outcomes, ok := processOutcomes[outcome]; ok {
		// A process's exit outcome: its records, by the run outcomes it
		// stands for (processes.exitOf).
		where = append(where, "kind = ? AND outcome IN ("+strings.TrimSuffix(strings.Repeat("?,", len(outcomes)), ",")+")")
		args = append(args, string(wasmexec.KindProcess))
		for _, o := range outcomes {
			args = append(args, string(o))
		}
		outcome = ""
	}
	for _, c := range []struct{ col, val string }{
		{"context_id", f.ContextID}, {"language", f.Language}, {"outcome", outcome}, {"kind", f.Kind},
	} {
		if c.val != "" {
			where, args = append(where, c.col+" = ?"), append(args, c.val)
		}
	}
	args = append(args, limit+1)
	rows, err := s.r.QueryContext(ctx, s.q("SELECT "+resultColumns+" FROM executions WHERE "+
		strings.Join(where, " AND ")+" ORDER BY seq DESC LIMIT ?"), args...)
	if err != nil {
		return nil, s.dbError("list", err)
	}
	defer rows.Close()
	page := &wasmexec.HistoryPage{Executions: []*wasmexec.Result{}}
	var lastSeq, pageBytes int64
	for rows.Next() {
		if len(page.Executions) == limit {
			page.HasMore = true
			break
		}
		r, seq, _, size, err := scanResult(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list: %w", err)
		}
		if len(page.Executions) > 0 && pageBytes+size > s.cfg.MaxPageBytes {
			page.HasMore = true
			break
		}
		pageBytes += size
		page.Executions = append(page.Executions, r)
		lastSeq = seq
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbError("list", err)
	}
	if page.HasMore {
		page.NextCursor = encodeListCursor(lastSeq)
	}
	return page, nil
}

// List cursors: "l" + the base-36 insertion id (seq) of the last record
// returned, in canonical form (no leading zeros, lower case).
const listCursorPrefix = "l"

func encodeListCursor(seq int64) string {
	return listCursorPrefix + strconv.FormatInt(seq, 36)
}

// parseListCursor returns the seq a list cursor stands for, or an EInvalid
// error. Only what encodeListCursor produces is accepted.
func parseListCursor(c string) (int64, error) {
	bad := func() (int64, error) {
		return 0, wasmexec.Errorf(wasmexec.EInvalid, "malformed list cursor %q", c)
	}
	if len(c) < 2 || len(c) > 14 || !strings.HasPrefix(c, listCursorPrefix) {
		return bad()
	}
	n, err := strconv.ParseInt(c[1:], 36, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 36) != c[1:] {
		return bad()
	}
	return n, nil
}

// Output page sizes.
const (
	DefaultOutputLimit = 1000
	MaxOutputLimit     = 10000
)

// Output returns the retained events of execution id with sequence greater
// than the cursor after (wasmexec.EncodeCursor; empty means from the start), at
// most limit of them (0 means DefaultOutputLimit, clamped to MaxOutputLimit).
// NextCursor resumes after the last event returned (or repeats after when
// none was); HasMore says more events follow. Truncated says events after the
// cursor were dropped by a cap: the first retained event comes later than
// after+1, or no event was retained at all from a log that dropped events.
//
// Errors: wasmexec.EInvalid for a malformed cursor or a negative limit,
// wasmexec.ENotFound / wasmexec.EExpired as for Get (scoped to the tenant of ctx), wasmexec.ENotRetained when the run
// did not retain its events (an empty page would read as "no output"),
// wasmexec.EUnavailable after Close.
func (s *Store) Output(ctx context.Context, id, after string, limit int) (*wasmexec.Replay, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	from, err := wasmexec.ParseCursor(after)
	if err != nil {
		return nil, err
	}
	switch {
	case limit < 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "limit must not be negative, got %d", limit)
	case limit == 0:
		limit = DefaultOutputLimit
	case limit > MaxOutputLimit:
		limit = MaxOutputLimit
	}
	cursor := from
	if from > 1<<63-1 {
		from = 1<<63 - 1 // sequences are stored as int64; nothing lies beyond
	}
	now := s.nowMs()
	// One statement, so the record, its first sequence and the events come
	// from one snapshot even if the sweeper deletes the record meanwhile.
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT x.tenant, x.expires_at_ms, x.output_truncated, x.events_retained,
			(SELECT min(sequence) FROM events WHERE exec_seq = x.seq),
			ev.sequence, ev.pid, ev.channel, ev.chunk, ev.timestamp_ms
		FROM executions x
		LEFT JOIN events ev ON ev.exec_seq = x.seq AND ev.sequence > ?
		WHERE x.id = ?
		ORDER BY ev.sequence
		LIMIT ?`), int64(from), id, limit+1)
	if err != nil {
		return nil, s.dbError("output "+id, err)
	}
	defer rows.Close()
	var (
		found           bool
		tenant          string
		expiresAt       int64
		outputTruncated bool
		retained        bool
		firstSeq        sql.NullInt64
		replay          = &wasmexec.Replay{Events: []wasmexec.Event{}}
	)
	for rows.Next() {
		var (
			seq, pid, ts sql.NullInt64
			channel      sql.NullString
			chunk        []byte
		)
		if err := rows.Scan(&tenant, &expiresAt, &outputTruncated, &retained, &firstSeq, &seq, &pid, &channel, &chunk, &ts); err != nil {
			return nil, fmt.Errorf("store: output %s: %w", id, err)
		}
		found = true
		if !seq.Valid {
			break // the LEFT JOIN row of a record with no events after the cursor
		}
		if len(replay.Events) == limit {
			replay.HasMore = true
			break
		}
		if chunk == nil {
			chunk = []byte{}
		}
		replay.Events = append(replay.Events, wasmexec.Event{
			PID: pid.Int64, Sequence: uint64(seq.Int64), Channel: wasmexec.Channel(channel.String),
			Chunk: chunk, TimestampMs: ts.Int64,
		})
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbError("output "+id, err)
	}
	if !found {
		return nil, s.missing(ctx, id)
	}
	if !visible(ctx, tenant) {
		return nil, notFound(id)
	}
	if expiresAt <= now {
		return nil, expiredError(id, reasonExpired)
	}
	if !retained {
		return nil, wasmexec.Errorf(wasmexec.ENotRetained, "execution %s did not retain its output events (set output.retainEvents on the run to replay it)", id)
	}
	last := cursor
	if n := len(replay.Events); n > 0 {
		last = replay.Events[n-1].Sequence
	}
	replay.NextCursor = wasmexec.EncodeCursor(last)
	if firstSeq.Valid {
		replay.Truncated = uint64(firstSeq.Int64) > from+1
	} else {
		replay.Truncated = outputTruncated
	}
	return replay, nil
}
