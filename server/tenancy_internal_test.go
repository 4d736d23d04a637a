package server

import (
	"context"
	"testing"

	"github.com/wasmexec/wasmexec/exec"
)

type oneKey struct{}

func (oneKey) Authenticate(string) *exec.Tenant { return nil }

type deletingHistory struct {
	History
	deleted []string
}

func (h *deletingHistory) Delete(_ context.Context, id string) error {
	h.deleted = append(h.deleted, id)
	return nil
}

// A History that can delete is guarded too: a tenant deletes only its own
// records; another's id is not_found.
func TestGuardedDelete(t *testing.T) {
	h := &deletingHistory{}
	cfg := Guard(Config{Auth: oneKey{}, History: h})
	a := exec.WithTenant(context.Background(), &exec.Tenant{ID: "a"})
	b := exec.WithTenant(context.Background(), &exec.Tenant{ID: "b"})
	cfg.tenancy.ownExecution(a, "exe_a")
	d := cfg.History.(interface {
		Delete(context.Context, string) error
	})
	if err := d.Delete(b, "exe_a"); exec.ErrorCode(err) != exec.ENotFound || len(h.deleted) != 0 {
		t.Fatalf("b deleted a's record: %v %v", err, h.deleted)
	}
	if err := d.Delete(a, "exe_a"); err != nil || len(h.deleted) != 1 {
		t.Fatalf("a's delete: %v %v", err, h.deleted)
	}
}
