package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Delete removes the stored record of execution id and its events. Only
// completed executions are ever stored, so Delete never touches running
// work. A deleted id is unknown afterwards (wasmexec.ENotFound), like one never
// stored: no tombstone is kept. With a tenant in ctx, another tenant's id
// is not_found (as for Get).
//
// Errors: wasmexec.ENotFound when the id is unknown, wasmexec.EExpired when it
// expired (including past its expiry but not yet swept) or was evicted,
// wasmexec.EUnavailable after Close.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := s.lockWrite(ctx); err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	defer s.unlockWrite()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.dbError("delete "+id, err)
	}
	defer tx.Rollback()
	if _, err := s.lockCount(ctx, tx); err != nil {
		return s.dbError("delete "+id, err)
	}
	var expiresAt int64
	var tenant string
	err = tx.QueryRowContext(ctx, s.q("SELECT expires_at_ms, tenant FROM executions WHERE id = ?"), id).Scan(&expiresAt, &tenant)
	if errors.Is(err, sql.ErrNoRows) {
		return s.missing(ctx, id)
	}
	if err != nil {
		return s.dbError("delete "+id, err)
	}
	if !visible(ctx, tenant) {
		return notFound(id)
	}
	if expiresAt <= s.nowMs() {
		return expiredError(id, reasonExpired) // the sweeper removes it
	}
	res, err := tx.ExecContext(ctx, s.q("DELETE FROM executions WHERE id = ?"), id) // events cascade
	if err != nil {
		return s.dbError("delete "+id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.dbError("delete "+id, err)
	}
	if err := s.addCount(ctx, tx, -int(n)); err != nil {
		return s.dbError("delete "+id, err)
	}
	if err := tx.Commit(); err != nil {
		return s.dbError("delete "+id, err)
	}
	s.committed(-int(n))
	return nil
}
