package processes

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// lastPIDFile keeps, in Config.StateDir, the largest pid given out before
// the last clean shutdown.
const lastPIDFile = "last-pid"

// PIDHistory lists completed executions (the store): the pids of earlier
// processes are read from it at start.
type PIDHistory interface {
	List(ctx context.Context, f wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error)
}

// firstPID is one past the largest pid of this server's range that its
// state dir and history have seen: the one kept at the last clean shutdown
// and the largest among process records, so pids never repeat across
// restarts (a crash leaves no last-pid, the history still has them).
func (m *Manager) firstPID(ctx context.Context) int64 {
	base := max(m.cfg.PIDBase, 1)
	// In a cluster a pid carries its server's number above wasmexec.PIDShift:
	// only the pids of this server's range count.
	mine := func(pid int64) bool { return pid>>wasmexec.PIDShift == base>>wasmexec.PIDShift }
	last := base - 1
	if m.cfg.StateDir != "" {
		if b, err := os.ReadFile(filepath.Join(m.cfg.StateDir, lastPIDFile)); err == nil {
			if pid, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); mine(pid) {
				last = max(last, pid)
			}
		}
	}
	if m.cfg.History == nil {
		return last + 1
	}
	f := wasmexec.HistoryFilter{Kind: string(wasmexec.KindProcess), Limit: 1000}
	for {
		page, err := m.cfg.History.List(ctx, f)
		if err != nil {
			m.log.Warn("reading process ids from the history failed; ids may repeat those of earlier runs", "err", err)
			break
		}
		for _, r := range page.Executions {
			if mine(r.PID) {
				last = max(last, r.PID)
			}
		}
		if !page.HasMore {
			break
		}
		f.After = page.NextCursor
	}
	return last + 1
}

// keepLastPID writes the largest pid given out into the state dir, for the
// next start.
func (m *Manager) keepLastPID() {
	last := m.LastPID()
	if m.cfg.StateDir == "" || last <= 0 {
		return
	}
	if err := os.WriteFile(filepath.Join(m.cfg.StateDir, lastPIDFile), []byte(strconv.FormatInt(last, 10)+"\n"), 0o644); err != nil {
		m.log.Warn("keeping the last process id failed", "err", err)
	}
}
