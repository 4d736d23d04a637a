package templates

// Durable templates: one record per template in Config.Dir, ID.tpl,
// beside its workspace (workspaces/tpl-...), in the format of a context's
// record (contexts/durable.go) with its own magic:
//
//	"WXTPL\x00\x00\x01"  magic and format version (8 bytes)
//	uint32 LE n           length of the metadata
//	n bytes               metadata (JSON, recordMeta: the descriptor, the
//	                      recipe, the workspace's name), padded with
//	                      spaces so that the state starts on a page
//	4 bytes               CRC-32C (Castagnoli) of everything before, LE
//	…                     the guest's captured state (the engine checks
//	                      it, every byte, at each restore), or nothing
//	                      (building, failed)
//
// A record is written when the template is created (building), when its
// build fails, and when it is ready (a temporary file, fsynced, renamed
// over the old one: runs of the old state keep mapping the old inode).
// At start-up every record is read again: a ready template whose state or
// workspace is gone, and one found building, is built again from its
// recipe; a state made for another image or engine is found out at its
// first run (the engine refuses it) and rebuilt then.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wasmexec/wasmexec"
)

var recordMagic = [8]byte{'W', 'X', 'T', 'P', 'L', 0, 0, 1}

const (
	recordExt     = ".tpl"
	recordAlign   = 4096
	maxRecordMeta = 32 << 20 // the recipe holds its files
	crcSize       = 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// recordMeta is what a record says about its template.
type recordMeta struct {
	Template  wasmexec.Template     `json:"template"`
	Tenant    string                `json:"tenant,omitempty"`
	Spec      wasmexec.TemplateSpec `json:"spec"`
	Key       string                `json:"key,omitempty"`
	Workspace string                `json:"workspace,omitempty"` // directory name under workspaces/
	// MaxBytes is its tenant's maxTemplateBytes when it was created.
	MaxBytes *int64 `json:"maxTemplateBytes,omitempty"`
}

func (m *Manager) recordPath(id string) string {
	return filepath.Join(m.cfg.Dir, id+recordExt)
}

// head encodes t's record head for workspace ws, padded for a state when
// withState.
func head(t *tmpl, ws string, withState bool) ([]byte, error) {
	meta := recordMeta{Template: t.d, Tenant: t.d.Tenant, Spec: t.spec, Key: t.key, MaxBytes: t.quota}
	if ws != "" {
		meta.Workspace = filepath.Base(ws)
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if withState {
		n := len(recordMagic) + 4 + len(mb) + crcSize
		mb = append(mb, bytes.Repeat([]byte{' '}, (recordAlign-n%recordAlign)%recordAlign)...)
	}
	h := append(recordMagic[:len(recordMagic):len(recordMagic)], binary.LittleEndian.AppendUint32(nil, uint32(len(mb)))...)
	h = append(h, mb...)
	return binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli)), nil
}

// writeRecord writes t's record without a state (building, failed), in
// place of the old one. Like a context's first record it is not fsynced:
// it survives kill -9, and a build lost to power loss is lost. m.mu held
// (or t not yet visible).
func (m *Manager) writeRecord(t *tmpl, _ []byte) error {
	if m.cfg.Shared != nil {
		return nil // the cluster's row is its record
	}
	h, err := head(t, "", false)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(m.cfg.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(h); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), m.recordPath(t.d.TemplateID))
}

// writeTemp writes a ready record (t's head for workspace ws, then the
// state that state writes) into a temporary file, fsynced: the path, where
// the state starts and its size. On an error nothing is left, but the size
// is still returned when state knew it.
func (m *Manager) writeTemp(t *tmpl, ws string, state func(io.WriterAt) (int64, error)) (tmp string, off, n int64, err error) {
	h, err := head(t, ws, true)
	if err != nil {
		return "", 0, 0, err
	}
	f, err := os.CreateTemp(m.cfg.Dir, ".tmp-build-*")
	if err != nil {
		return "", 0, 0, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(h); err != nil {
		return "", 0, 0, err
	}
	if n, err = state(io.NewOffsetWriter(f, int64(len(h)))); err != nil {
		return "", 0, n, err
	}
	if err := f.Sync(); err != nil {
		return "", 0, n, err
	}
	if err := f.Close(); err != nil {
		return "", 0, n, err
	}
	ok = true
	return f.Name(), int64(len(h)), n, nil
}

// commit renames a temporary record into place and fsyncs the directory.
func commit(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// loadRecords lists the templates of Dir's records and returns the names
// of the workspaces they keep. A record that can't be read is logged and
// removed (its template is gone; its workspace goes as a stale one).
func (m *Manager) loadRecords() map[string]bool {
	keep := map[string]bool{}
	des, err := os.ReadDir(m.cfg.Dir)
	if err != nil {
		m.log.Error("list template records", "dir", m.cfg.Dir, "err", err)
		return keep
	}
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".tmp-") {
			os.Remove(filepath.Join(m.cfg.Dir, name)) // a build or write cut short
			continue
		}
		if !strings.HasSuffix(name, recordExt) || de.IsDir() {
			continue
		}
		path := filepath.Join(m.cfg.Dir, name)
		meta, off, size, err := readHead(path)
		if err != nil || meta.Template.TemplateID+recordExt != name {
			if err == nil {
				err = errors.New("its id is not its file's name")
			}
			m.log.Error("a template record can't be read; the template is dropped", "file", name, "err", err)
			os.Remove(path)
			continue
		}
		t := &tmpl{d: meta.Template, spec: meta.Spec, key: meta.Key, quota: meta.MaxBytes}
		t.d.Tenant = meta.Tenant
		if t.d.State == wasmexec.TemplateReady {
			ws := ""
			if meta.Workspace != "" {
				if w, err := m.ws.Adopt(meta.Workspace); err == nil {
					ws = w.Root
				}
			}
			if ws == "" || size <= off {
				t.d.State, t.d.Notice = wasmexec.TemplateBuilding, "rebuilt: its state or workspace was missing at start-up"
			} else {
				t.cur = &generation{record: path, off: off, ws: ws}
				t.d.StateBytes = size - off
				keep[meta.Workspace] = true
			}
		}
		if t.d.State == wasmexec.TemplateBuilding {
			t.d.StateBytes, t.d.WorkspaceBytes = 0, 0
		}
		m.byID[t.d.TemplateID] = t
		if t.key != "" {
			m.implicit[t.key] = t
		}
	}
	// The order of use the records kept (to the millisecond) is where
	// this process's count of uses starts.
	ready := make([]*tmpl, 0, len(m.byID))
	for _, t := range m.byID {
		if t.cur != nil {
			ready = append(ready, t)
		}
	}
	slices.SortFunc(ready, func(a, b *tmpl) int {
		return cmp.Or(cmp.Compare(lastUse(a), lastUse(b)), strings.Compare(a.d.TemplateID, b.d.TemplateID))
	})
	for _, t := range ready {
		m.usedLocked(t)
	}
	return keep
}

// readHead reads and checks the head of the record at path: its metadata,
// where its state starts and the file's size.
func readHead(path string) (*recordMeta, int64, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	var pre [len(recordMagic) + 4]byte
	if _, err := io.ReadFull(f, pre[:]); err != nil || !bytes.Equal(pre[:len(recordMagic)], recordMagic[:]) {
		return nil, 0, 0, errors.New("not a template record of this format (truncated, foreign or older)")
	}
	n := int64(binary.LittleEndian.Uint32(pre[len(recordMagic):]))
	headLen := int64(len(pre)) + n
	if n > maxRecordMeta || headLen+crcSize > fi.Size() {
		return nil, 0, 0, errors.New("truncated in its metadata")
	}
	b := make([]byte, headLen+crcSize)
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, 0, 0, err
	}
	if crc32.Checksum(b[:headLen], castagnoli) != binary.LittleEndian.Uint32(b[headLen:]) {
		return nil, 0, 0, errors.New("failed its checksum (corrupt)")
	}
	var meta recordMeta
	if err := json.Unmarshal(b[len(pre):headLen], &meta); err != nil {
		return nil, 0, 0, fmt.Errorf("unreadable metadata: %w", err)
	}
	return &meta, headLen + crcSize, fi.Size(), nil
}
