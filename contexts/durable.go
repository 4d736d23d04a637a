package contexts

// Durable contexts: one record file per context in Config.StateDir,
// ID.ctx, written atomically (a temporary file, fsync, rename):
//
//	"WXCTX\x00\x00\x02"  magic and format version (8 bytes)
//	uint32 LE n           length of the metadata
//	n bytes               metadata (JSON, recordMeta)
//	4 bytes               CRC-32C (Castagnoli) of everything before, LE
//	…                     the guest's captured state (engine: it names the
//	                      image, wasmtime and engine configuration it
//	                      depends on, and checksums itself), or nothing
//	                      before its first snapshot
//
// The record's checksum covers its head only: the state is checked by the
// engine when it is restored (every byte of it), and checking it here as
// well cost as much again as writing and reading it (format 1 did).
//
// At start-up (New) every record's head is read and its context listed as
// a hibernated one: the guest comes back at its first run (its state is
// read and checked then). A record that can't be read, or whose
// checksum fails, comes back as a fresh context with its workspace (from
// the metadata when it parses, else an unpinned one named by the file) and
// a notice saying why; a state the runner refuses likewise, at wake.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec"
)

var recordMagic = [8]byte{'W', 'X', 'C', 'T', 'X', 0, 0, 2}

const (
	recordExt = ".ctx"
	// recordAlign is where a record's state starts: a multiple of it.
	recordAlign = 4096
	// maxRecordMeta bounds the metadata a record may claim.
	maxRecordMeta = 1 << 20
	// maxRecordBytes bounds a record file: a guest state is at most its
	// memory (4 GiB) compressed, plus the metadata.
	maxRecordBytes = 4<<30 + maxRecordMeta
)

// recordMeta is what a record says about its context.
type recordMeta struct {
	ID              string            `json:"id"`
	Language        wasmexec.Language `json:"language,omitempty"`
	Env             map[string]string `json:"env,omitempty"`
	MemoryBytes     int64             `json:"memoryBytes"`
	Workspace       string            `json:"workspace"` // directory name under the workspaces root
	Tenant          string            `json:"tenant,omitempty"`
	CreatedMs       int64             `json:"createdMs"`
	LastUsedMs      int64             `json:"lastUsedMs"`
	LastStartedMs   int64             `json:"lastStartedMs,omitempty"`
	LastCompletedMs int64             `json:"lastCompletedMs,omitempty"`
	Runs            int64             `json:"runs"`
	Resets          int64             `json:"resets"`
	StateAsOfMs     int64             `json:"stateAsOfMs,omitempty"` // 0: no guest state
}

func (m *Manager) recordPath(id string) string {
	return filepath.Join(m.cfg.StateDir, id+recordExt)
}

// writeRecord writes c's record with the guest state st taken at asOf (nil:
// none yet). A failure is logged and counted (SnapshotErrors); what was
// stored before stays. Slot held (or c not yet visible).
func (m *Manager) writeRecord(c *execContext, st []byte, asOf time.Time) error {
	var state func(io.WriterAt) (int64, error)
	if st != nil {
		state = func(w io.WriterAt) (int64, error) {
			n, err := w.WriteAt(st, 0)
			return int64(n), err
		}
	}
	_, err := m.writeRecordWith(c, asOf, state)
	return err
}

// writeRecordWith writes c's record with the state that state writes after
// the record's head (nil: none), and returns the state's size. An error of
// code conflict is state's (a guest that can't be captured now: nothing is
// written, nothing counted); any other is a write that failed, logged and
// counted (SnapshotErrors), and what was stored before stays. Slot held
// (or c not yet visible).
func (m *Manager) writeRecordWith(c *execContext, asOf time.Time, state func(io.WriterAt) (int64, error)) (int64, error) {
	if m.cfg.StateDir == "" {
		return 0, nil
	}
	p, err := m.stageRecord(c, asOf, state)
	if err != nil {
		return 0, m.recorded(c, nil, err)
	}
	defer p.close()
	// A record without state (a context just created) is written without
	// fsync, like a completion with --store-sync=normal: it is in the
	// operating system before the reply, so it survives kill -9; an fsync
	// (~5 ms here) would be most of a create. Snapshots are fsynced: they
	// are written off the request path.
	return p.size, m.recorded(c, p, p.install(state != nil))
}

// stagedRecord is a record written into a temporary file beside its
// path, not yet in place (install, or commit.go).
type stagedRecord struct {
	*stagedFile
	head int64 // where the state starts
	size int64 // the state's bytes
}

// stageRecord writes c's record, its head and then what state writes,
// into a temporary file beside it. An error of code conflict is
// state's. Slot held (or c not yet visible).
func (m *Manager) stageRecord(c *execContext, asOf time.Time, state func(io.WriterAt) (int64, error)) (*stagedRecord, error) {
	c.mu.Lock()
	meta := recordMeta{
		ID: c.id, Language: c.language, Env: c.env, MemoryBytes: c.memory, Workspace: filepath.Base(c.ws.Root), Tenant: c.tenant,
		CreatedMs: ms(c.created), LastUsedMs: ms(c.lastUsed), LastStartedMs: ms(c.lastStarted), LastCompletedMs: ms(c.lastCompleted),
		Runs: c.runs, Resets: c.resets, StateAsOfMs: ms(asOf),
	}
	c.mu.Unlock()
	if state == nil {
		meta.StateAsOfMs = 0
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if state != nil {
		// The state starts page-aligned (the metadata is padded with
		// spaces, which JSON ignores): a large state's raw pages are then
		// page-aligned in the file and mapped at a restore, not copied
		// (wasmexec.Runner.RestoreGuestFile). At most one more block of disk.
		n := len(recordMagic) + 4 + len(mb) + crcSize
		mb = append(mb, bytes.Repeat([]byte{' '}, (recordAlign-n%recordAlign)%recordAlign)...)
	}
	head := append(recordMagic[:len(recordMagic):len(recordMagic)], binary.LittleEndian.AppendUint32(nil, uint32(len(mb)))...)
	head = append(head, mb...)
	head = binary.LittleEndian.AppendUint32(head, crc32.Checksum(head, castagnoli))
	var n int64
	f, err := stage(m.recordPath(c.id), func(f *os.File) error {
		if _, err := f.Write(head); err != nil {
			return err
		}
		if state == nil {
			return nil
		}
		var err error
		n, err = state(io.NewOffsetWriter(f, int64(len(head))))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &stagedRecord{stagedFile: f, head: int64(len(head)), size: n}, nil
}

// recorded does the bookkeeping of a write of c's record that ended with
// err (nil: p is in place) and returns err, or the error of saving it in
// Config.Shared. Slot held (or c not yet visible).
func (m *Manager) recorded(c *execContext, p *stagedRecord, err error) error {
	if err == nil {
		m.disk.setRecord(c.id, p.head+p.size)
	}
	if err == nil && c.shared {
		// The workspace is quiet: the slot is held, and a context with live
		// processes is not captured (capturable). The record is streamed
		// from the file just written (the state went straight into it).
		c.mu.Lock()
		c.hib.wsDirty = false // a change from now on is saved next time
		c.mu.Unlock()
		err = m.saveShared(c)
		if err != nil {
			c.mu.Lock()
			c.hib.wsDirty = true
			c.mu.Unlock()
		}
	}
	if err != nil && wasmexec.ErrorCode(err) != wasmexec.EConflict {
		m.snapshotErrors.Add(1)
		m.log.Error("write a context snapshot (the context stays live; what was stored before is kept)", "contextId", c.id, "err", err)
		c.mu.Lock()
		c.hib.notice = "snapshot not written: " + err.Error()
		c.hib.retryAt = m.cfg.Now().Add(m.retryDelay())
		c.mu.Unlock()
	}
	return err
}

// saveShared saves c's record, as just written, and workspace in
// Config.Shared. Slot held.
func (m *Manager) saveShared(c *execContext) error {
	f, err := os.Open(m.recordPath(c.id))
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	used, _ := c.ws.Usage()
	ctx, cancel := context.WithTimeout(context.Background(), sharedSaveTimeout)
	defer cancel()
	return m.cfg.Shared.Save(ctx, c.id, io.NewSectionReader(f, 0, fi.Size()), c.ws.Root, used)
}

// SnapshotErrors counts the record writes that failed (unwritable or full
// data dir), for /metrics.
func (m *Manager) SnapshotErrors() int64 { return m.snapshotErrors.Load() }

// castagnoli is the CRC of records (hardware-accelerated).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const crcSize = 4

// writeAtomic has write fill a temporary file, then fsyncs it (when
// sync), renames it to path and fsyncs the directory (when sync). A reader
// sees the old file or the new one.
func writeAtomic(path string, sync bool, write func(f *os.File) error) error {
	f, err := stage(path, write)
	if err != nil {
		return err
	}
	defer f.close()
	return f.install(sync)
}

// stagedFile is a file written beside path, to be renamed to it.
type stagedFile struct {
	f      *os.File
	path   string
	placed bool
}

// stage has write fill a temporary file beside path; it stays open.
func stage(path string, write func(f *os.File) error) (*stagedFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return nil, err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &stagedFile{f: f, path: path}, nil
}

// install fsyncs the file (when sync), renames it to its path and fsyncs
// the directory (when sync).
func (s *stagedFile) install(sync bool) error {
	if sync {
		if err := s.f.Sync(); err != nil {
			return err
		}
	}
	if err := s.place(); err != nil {
		return err
	}
	if sync {
		syncDir(filepath.Dir(s.path))
	}
	return nil
}

// place renames the file to its path.
func (s *stagedFile) place() error {
	if err := os.Rename(s.f.Name(), s.path); err != nil {
		return err
	}
	s.placed = true
	return nil
}

// close closes the file, and removes it unless it was put in place.
func (s *stagedFile) close() {
	s.f.Close()
	if !s.placed {
		os.Remove(s.f.Name())
	}
}

// syncDir fsyncs directory dir, so that the renames in it are durable.
// Its error is not reported: the files are in place either way, and
// their contents were fsynced before.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func (m *Manager) removeRecord(id string) {
	if m.cfg.StateDir == "" {
		return
	}
	m.disk.setRecord(id, 0)
	if err := os.Remove(m.recordPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		m.log.Error("remove a context record", "contextId", id, "err", err)
	}
}

// readRecord reads id's record: its metadata (nil when unreadable), its
// guest state (nil when it has none or it can't be trusted), and why not
// when something was wrong with it. (A wake restores from the file itself
// wasmexec.Runner.RestoreGuestFile.)
func (m *Manager) readRecord(id string) (meta *recordMeta, st []byte, reason string) {
	f, err := os.Open(m.recordPath(id))
	if err != nil {
		return nil, nil, "could not be read: " + err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, "could not be read: " + err.Error()
	}
	if fi.Size() > maxRecordBytes {
		return nil, nil, fmt.Sprintf("is %d bytes, more than any context record", fi.Size())
	}
	// The file is replaced by rename, never written in place: what was
	// opened is one whole record.
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, "could not be read: " + err.Error()
	}
	return parseRecord(b)
}

// parseRecord splits a record file (see the file comment).
func parseRecord(b []byte) (*recordMeta, []byte, string) {
	meta, headLen, reason := parseRecordHead(b, int64(len(b)))
	if reason != "" {
		return meta, nil, reason
	}
	st := b[headLen:]
	if len(st) == 0 || meta.StateAsOfMs == 0 {
		st = nil
	}
	return meta, st, ""
}

// parseRecordHead checks the head of a record file of size bytes (b holds
// at least its head, or all there is) and returns its metadata and the
// head's length; the state follows it.
func parseRecordHead(b []byte, size int64) (*recordMeta, int, string) {
	if size < int64(len(recordMagic))+4+crcSize || len(b) < len(recordMagic)+4 || !bytes.Equal(b[:len(recordMagic)], recordMagic[:]) {
		return nil, 0, "is not a context record of this format (truncated, foreign or older)"
	}
	n := uint64(binary.LittleEndian.Uint32(b[len(recordMagic):]))
	headLen := uint64(len(recordMagic)) + 4 + n
	if n > maxRecordMeta || headLen+crcSize > uint64(size) || headLen+crcSize > uint64(len(b)) {
		return nil, 0, "is truncated in its metadata"
	}
	var meta *recordMeta
	var mt recordMeta
	if json.Unmarshal(b[len(recordMagic)+4:headLen], &mt) == nil {
		meta = &mt
	}
	if crc32.Checksum(b[:headLen], castagnoli) != binary.LittleEndian.Uint32(b[headLen:]) {
		return meta, 0, "failed its checksum (corrupt)"
	}
	if meta == nil {
		return nil, 0, "has unreadable metadata"
	}
	return meta, int(headLen + crcSize), ""
}

// readRecordHead reads the head of id's record only (start-up lists every
// context without reading their states): its metadata, the size of the
// state after it (0: none), and why not when something was wrong with it.
func (m *Manager) readRecordHead(id string) (*recordMeta, int64, string) {
	f, err := os.Open(m.recordPath(id))
	if err != nil {
		return nil, 0, "could not be read: " + err.Error()
	}
	defer f.Close()
	meta, _, st, reason := recordHead(f)
	return meta, st, reason
}

// openRecordState opens id's record for a restore from the file
// (wasmexec.Runner.RestoreGuestFile): the open file and where its state starts, or why
// it has no usable state ("" and a nil file: it has none).
func (m *Manager) openRecordState(id string) (*os.File, int64, string) {
	f, err := os.Open(m.recordPath(id))
	if err != nil {
		return nil, 0, "could not be read: " + err.Error()
	}
	_, headLen, st, reason := recordHead(f)
	if reason != "" || st == 0 {
		f.Close()
		return nil, 0, reason
	}
	return f, headLen, ""
}

// recordHead reads the head of the record open in f: its metadata, the
// head's length, the size of the state after it (0: none), and why not
// when something was wrong with it.
func recordHead(f *os.File) (*recordMeta, int64, int64, string) {
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, 0, "could not be read: " + err.Error()
	}
	b := make([]byte, len(recordMagic)+4)
	if _, err := io.ReadFull(f, b); err == nil {
		if n := int64(binary.LittleEndian.Uint32(b[len(recordMagic):])); n <= maxRecordMeta && int64(len(b))+n+crcSize <= fi.Size() {
			b = append(b, make([]byte, n+crcSize)...)
			if _, err := io.ReadFull(f, b[len(recordMagic)+4:]); err != nil {
				return nil, 0, 0, "could not be read: " + err.Error()
			}
		}
	}
	meta, headLen, reason := parseRecordHead(b, fi.Size())
	if reason != "" {
		return meta, 0, 0, reason
	}
	st := fi.Size() - int64(headLen)
	if meta.StateAsOfMs == 0 {
		st = 0
	}
	return meta, int64(headLen), st, ""
}

// loadRecords lists the contexts of an earlier process again (hibernated:
// their guests come back at their first run) and returns the workspaces
// they keep.
func (m *Manager) loadRecords() (map[string]bool, error) {
	if m.cfg.StateDir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(m.cfg.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("contexts: state dir: %w", err)
	}
	des, err := os.ReadDir(m.cfg.StateDir)
	if err != nil {
		return nil, fmt.Errorf("contexts: state dir: %w", err)
	}
	keep := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".tmp-") { // a write cut short
			os.Remove(filepath.Join(m.cfg.StateDir, name))
			continue
		}
		id, ok := strings.CutSuffix(name, recordExt)
		if !ok || de.IsDir() || ValidateID(id) != nil {
			continue
		}
		c, reason := m.loadRecord(id)
		if c == nil {
			m.log.Error("a context record can't be used; the context is dropped", "contextId", id, "reason", reason)
			continue
		}
		if reason != "" {
			m.log.Warn("context comes back fresh (with its workspace)", "contextId", id, "reason", "its snapshot "+reason)
		}
		keep[filepath.Base(c.ws.Root)] = true
		m.ctxs[id] = c
		m.counted(c)
	}
	if len(m.ctxs) > 0 {
		m.log.Info("contexts listed again from their records", "count", len(m.ctxs), "stateDir", m.cfg.StateDir)
	}
	return keep, nil
}

// loadRecord makes the context of id's record.
func (m *Manager) loadRecord(id string) (*execContext, string) {
	meta, stateBytes, reason := m.readRecordHead(id)
	now := m.cfg.Now()
	c := &execContext{id: id, created: now, lastUsed: now, state: wasmexec.ContextIdle, gone: make(chan struct{})}
	if meta != nil && meta.ID == id {
		c.language, c.env, c.memory = meta.Language, maps.Clone(meta.Env), meta.MemoryBytes
		c.created, c.lastUsed = time.UnixMilli(meta.CreatedMs), time.UnixMilli(meta.LastUsedMs)
		if meta.LastStartedMs > 0 {
			c.lastStarted = time.UnixMilli(meta.LastStartedMs)
		}
		if meta.LastCompletedMs > 0 {
			c.lastCompleted = time.UnixMilli(meta.LastCompletedMs)
		}
		c.runs, c.resets, c.tenant = meta.Runs, meta.Resets, meta.Tenant
	} else {
		meta = nil
		if reason == "" {
			reason = "names another context"
		}
	}
	if c.language != "" {
		f, err := m.cfg.Runner.Family(c.language)
		if err != nil {
			reason = "is for " + string(c.language) + ", which this server can't run: " + err.Error()
			c.language = ""
		} else {
			c.family = f
		}
	}
	if c.memory <= 0 || c.memory < c.family.MinMemoryBytes {
		lim, _, err := m.cfg.Runner.Policy().Resolve(wasmexec.Limits{}, 0, c.family.MinMemoryBytes)
		if err != nil {
			return nil, err.Error()
		}
		c.memory = lim.MemoryBytes
	}
	// The workspace: the record's, else one named after the context (a
	// record whose metadata is gone), else a new, empty one.
	var ws string
	if meta != nil {
		ws = meta.Workspace
	} else if ms, _ := filepath.Glob(filepath.Join(m.cfg.Workspaces.Root(), workspacePrefix+"-"+id+"-*")); len(ms) > 0 {
		ws = filepath.Base(ms[0])
	}
	if meta == nil && ws == "" {
		// Nothing says a context of this name existed (a foreign file):
		// there is nothing to bring back.
		return nil, reason
	}
	w, err := m.cfg.Workspaces.Adopt(ws)
	if err != nil {
		if w, err = m.cfg.Workspaces.New(workspacePrefix + "-" + id); err != nil {
			return nil, "no workspace: " + err.Error()
		}
		if reason == "" {
			reason = "had lost its workspace (an empty one replaces it)"
		}
	}
	c.ws = w
	c.ws.TrackUsage()
	if c.family.Name != "" {
		c.hib.hibernated = true
		c.hib.fromRecord = stateBytes > 0
		if stateBytes > 0 {
			c.hib.snapBytes, c.hib.stateAsOf = stateBytes, time.UnixMilli(meta.StateAsOfMs)
		}
	}
	if reason != "" {
		c.hib.notice = "restored fresh: its snapshot " + reason
	}
	return c, reason
}

// counted notes the disk use of a context loaded from its record: the
// record's size now, its workspace's at the next measure.
func (m *Manager) counted(c *execContext) {
	if fi, err := os.Stat(m.recordPath(c.id)); err == nil {
		m.disk.setRecord(c.id, fi.Size())
	}
	m.wsChanged(c)
}

// Owners returns the tenant of every context created by one (for the
// server's tenancy guard after a restart).
func (m *Manager) Owners() map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]string{}
	for id, c := range m.ctxs {
		if c.tenant != "" {
			out[id] = c.tenant
		}
	}
	return out
}

// shutdown snapshots a context at a graceful shutdown and frees its guest,
// keeping its record and workspace for the next process.
func (m *Manager) shutdown(c *execContext) {
	c.mu.Lock()
	if c.cancel != nil {
		c.cancel(errShutdown)
	}
	c.failWaiters(wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down"))
	c.mu.Unlock()
	c.acquire(context.Background(), 0, asDelete)
	c.mu.Lock()
	dirty, creating := c.hib.dirty || c.hib.stateAsOf.IsZero(), c.creating
	c.mu.Unlock()
	if !creating && dirty && c.guest != nil && c.guest.Alive() {
		ctx, cancel := context.WithTimeout(context.Background(), guestStartTimeout)
		if err := m.snapshot(ctx, c); err != nil {
			m.log.Warn("context not snapshotted at shutdown", "contextId", c.id, "err", err)
		}
		cancel()
	}
	if c.guest != nil {
		c.guest.Close()
		c.guest = nil
	}
	m.dropped(c)
	m.mu.Lock()
	delete(m.ctxs, c.id)
	m.mu.Unlock()
}

// errShutdown is the cancel cause of a run stopped by a graceful shutdown.
var errShutdown = errors.New("the server is shutting down")

// hibernatorInterval is how often the idle loop looks for contexts to
// snapshot or hibernate (0: it doesn't run).
func hibernatorInterval(cfg Config) time.Duration {
	d := cfg.HibernateAfter
	if cfg.StateDir != "" && cfg.SnapshotAfter > 0 && (d <= 0 || cfg.SnapshotAfter < d) {
		d = cfg.SnapshotAfter
	}
	if d <= 0 {
		return 0
	}
	return min(max(d/4, 50*time.Millisecond), 5*time.Second)
}

// Shared contexts (a cluster of servers, package cluster). With
// Config.Shared, a context is registered there when it is created
// (context_conflict when any server has its id), every record written here
// is also saved there with the context's workspace and the bytes it holds
// as its quota counts them (fenced: a server that
// no longer owns the context gets an error and is told to Drop it), and a
// deleted context is forgotten there. A server that claims a context from
// another adopts it from that copy (Adopt): the record and workspace are
// written here and loaded exactly as a record found at start-up.
type Shared interface {
	Register(ctx context.Context, id, tenant string) error
	Save(ctx context.Context, id string, record *io.SectionReader, workspace string, workspaceBytes int64) error
	Forget(id string)
}

// sharedSaveTimeout bounds copying one snapshot to the shared store.
const sharedSaveTimeout = 2 * time.Minute

// Adopt makes the context of a record taken from another server (a
// claim): its workspace is written by unpack into a directory named as
// the record says, the record into StateDir, and the context is loaded
// like one listed again at start-up (hibernated: its guest comes back at
// its first run). A context of that id already here is dropped first (a
// stale copy). Errors: invalid_argument (a record that can't be used),
// overloaded (MaxContexts), unavailable (closing), internal.
func (m *Manager) Adopt(ctx context.Context, id string, record []byte, unpack func(dir string) error) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	meta, _, reason := parseRecord(record)
	if meta == nil || meta.ID != id {
		return wasmexec.Errorf(wasmexec.EInvalid, "the record of context %s can't be used: %s", id, cmp.Or(reason, "it names another context"))
	}
	ws := meta.Workspace
	if ws != filepath.Base(ws) || !strings.HasPrefix(ws, workspacePrefix+"-"+id+"-") {
		return wasmexec.Errorf(wasmexec.EInvalid, "the record of context %s names workspace %q", id, ws)
	}
	m.Drop(id)
	dir := filepath.Join(m.cfg.Workspaces.Root(), ws)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	if err := unpack(dir); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("unpack the workspace of %s: %w", id, err)
	}
	if err := writeAtomic(m.recordPath(id), true, func(f *os.File) error {
		_, err := f.Write(record)
		return err
	}); err != nil {
		os.RemoveAll(dir)
		return err
	}
	c, reason := m.loadRecord(id)
	if c == nil {
		m.removeRecord(id)
		os.RemoveAll(dir)
		return wasmexec.Errorf(wasmexec.EInvalid, "the record of context %s can't be used: %s", id, reason)
	}
	c.shared = true
	m.mu.Lock()
	var err error
	switch {
	case m.closed:
		err = wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down")
	case len(m.ctxs) >= m.cfg.MaxContexts:
		err = wasmexec.Errorf(wasmexec.EOverloaded, "the server already has %d contexts (the maximum); retry later", m.cfg.MaxContexts)
	case m.ctxs[id] != nil:
		// Created here meanwhile (its record and workspace are its own).
		m.mu.Unlock()
		return wasmexec.Errorf(wasmexec.EContextConflict, "context %q already exists", id)
	default:
		m.ctxs[id] = c
	}
	m.mu.Unlock()
	if err == nil {
		m.counted(c)
	}
	if err != nil {
		m.removeRecord(id)
		os.RemoveAll(dir)
		return err
	}
	if reason != "" {
		m.log.Warn("adopted context comes back fresh (with its workspace)", "contextId", id, "reason", "its snapshot "+reason)
	}
	return nil
}

// Drop stops serving context id at once because another server owns it
// now: its run is cancelled, queued runs get unavailable (they retry and
// reach the owner), OnMoved is called, and its guest, record and
// workspace here are removed. It is not a deletion: Shared is not told.
func (m *Manager) Drop(id string) {
	m.mu.Lock()
	c := m.ctxs[id]
	m.mu.Unlock()
	if c != nil {
		m.remove(c, "moved", true)
	}
}

// errMoved is the cancel cause of a run stopped by Drop.
var errMoved = errors.New("the context moved to another server")

// Tenant returns the tenant that created context id ("" when none, or no
// such context), for the server's tenancy guard (a context adopted from
// another server).
func (m *Manager) Tenant(id string) string {
	m.mu.Lock()
	c := m.ctxs[id]
	m.mu.Unlock()
	if c == nil {
		return ""
	}
	return c.tenant
}
