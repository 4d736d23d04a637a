package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Delete removes the stored record of execution id and its events. Only
// completed executions are ever stored, so Delete never touches running
// work. A deleted id is unknown afterwards (exec.ENotFound), like one never
// stored: no tombstone is kept. With a tenant in ctx, another tenant's id
// is not_found (as for Get).
//
// Errors: exec.ENotFound when the id is unknown, exec.EExpired when it
// expired (including past its expiry but not yet swept) or was evicted,
// exec.EUnavailable after Close.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := s.lockWrite(ctx); err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	defer s.unlockWrite()
	var expiresAt int64
	var tenant string
	err := s.w.QueryRowContext(ctx, "SELECT expires_at_ms, tenant FROM executions WHERE id = ?", id).Scan(&expiresAt, &tenant)
	if errors.Is(err, sql.ErrNoRows) {
		return s.missing(ctx, id)
	}
	if err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	if !visible(ctx, tenant) {
		return notFound(id)
	}
	if expiresAt <= s.nowMs() {
		return expiredError(id, reasonExpired) // the sweeper removes it
	}
	res, err := s.w.ExecContext(ctx, "DELETE FROM executions WHERE id = ?", id) // events cascade
	if err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: delete %s: %w", id, err)
	}
	s.count -= int(n)
	return nil
}
