package cluster

// A snapshot in cluster_contexts.snapshot is a zstd-compressed tar: first
// the context's record ("record", contexts/durable.go: metadata and guest
// state with their own checksum), then its workspace under "workspace/":
// directories, regular files and symlinks (guests make them; stored as
// links, never followed), other kinds left out. Both ends cap it: pack
// refuses to store more than max bytes, and unpacking stops past max bytes
// of content (a row is data another node wrote; it is still checked). Both
// ends go through an os.Root on the workspace, so no link in it, nor one
// swapped in meanwhile, leads a read or a write out of it.

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/klauspost/compress/zstd"
)

const (
	// maxLinkTarget bounds a link's target (Linux's PATH_MAX).
	maxLinkTarget = 4096
	recordEntry   = "record"
	wsEntry       = "workspace/"
	defaultLimit  = maxBytea // when MaxSnapshotBytes is 0
)

func limitOf(max int64) int64 {
	if max <= 0 {
		return defaultLimit
	}
	return max
}

// pack archives record (read to its end) and the workspace directory ws.
func pack(record *io.SectionReader, ws string, max int64) ([]byte, error) {
	limit := limitOf(max)
	var buf bytes.Buffer
	if err := packTo(&buf, record, ws, limit); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("the snapshot is %d bytes, more than %d", buf.Len(), limit)
	}
	return buf.Bytes(), nil
}

// packTo writes the archive of record and ws to w; the workspace's files
// may hold at most limit bytes.
func packTo(w io.Writer, record *io.SectionReader, ws string, limit int64) error {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: recordEntry, Mode: 0o600, Size: record.Size(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := io.Copy(tw, record); err != nil {
		return err
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return err
	}
	defer root.Close()
	var total int64
	err = filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(ws, p)
		if err != nil || rel == "." {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		name := wsEntry + filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return tw.WriteHeader(&tar.Header{Name: name + "/", Mode: int64(info.Mode().Perm()), Typeflag: tar.TypeDir, ModTime: info.ModTime()})
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := root.Readlink(rel)
			if err != nil {
				return err
			}
			return tw.WriteHeader(&tar.Header{Name: name, Linkname: target, Mode: 0o777, Typeflag: tar.TypeSymlink, ModTime: info.ModTime()})
		case info.Mode().IsRegular():
			if total += info.Size(); total > limit {
				return fmt.Errorf("the workspace holds more than %d bytes", limit)
			}
			if err := tw.WriteHeader(&tar.Header{Name: name, Mode: int64(info.Mode().Perm()), Size: info.Size(), Typeflag: tar.TypeReg, ModTime: info.ModTime()}); err != nil {
				return err
			}
			f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			// A file that grew meanwhile is cut at the size in its header.
			_, err = io.CopyN(tw, f, info.Size())
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// unpackSnapshot reads the record of a snapshot and returns it with a
// function that writes its workspace into a directory.
func unpackSnapshot(blob []byte, max int64) ([]byte, func(dir string) error, error) {
	limit := limitOf(max)
	open := func() (*tar.Reader, func(), error) {
		zr, err := zstd.NewReader(bytes.NewReader(blob), zstd.WithDecoderMaxMemory(uint64(limit)+1<<20))
		if err != nil {
			return nil, nil, err
		}
		return tar.NewReader(zr), zr.Close, nil
	}
	tr, done, err := open()
	if err != nil {
		return nil, nil, err
	}
	h, err := tr.Next()
	if err != nil || h.Name != recordEntry || h.Size > limit {
		done()
		return nil, nil, errors.New("not a context snapshot (no record first)")
	}
	record, err := io.ReadAll(io.LimitReader(tr, h.Size))
	done()
	if err != nil {
		return nil, nil, err
	}
	unpack := func(dir string) error {
		tr, done, err := open()
		if err != nil {
			return err
		}
		defer done()
		root, err := os.OpenRoot(dir)
		if err != nil {
			return err
		}
		defer root.Close()
		return extractWorkspace(tr, root, limit)
	}
	return record, unpack, nil
}

// extractWorkspace writes tr's remaining entries under "workspace/" into
// dir, their files together at most limit bytes.
func extractWorkspace(tr *tar.Reader, root *os.Root, limit int64) error {
	var total int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := extractWorkspaceEntry(tr, h, root, &total, limit); err != nil {
			return err
		}
	}
}

// extractWorkspaceEntry writes tar entry h, when it is under "workspace/",
// into root; total counts the bytes of the files written so far, which
// may not pass limit. Other entries are skipped.
func extractWorkspaceEntry(tr *tar.Reader, h *tar.Header, root *os.Root, total *int64, limit int64) error {
	rel, ok := strings.CutPrefix(h.Name, wsEntry)
	if !ok || rel == "" {
		return nil
	}
	clean := path.Clean("/" + rel)[1:]
	if clean == "" || clean != strings.TrimSuffix(rel, "/") {
		return fmt.Errorf("snapshot entry %q is not a plain relative path", h.Name)
	}
	p := filepath.FromSlash(clean)
	switch h.Typeflag {
	case tar.TypeDir:
		return root.MkdirAll(p, 0o755)
	case tar.TypeSymlink:
		if h.Linkname == "" || strings.IndexByte(h.Linkname, 0) >= 0 || len(h.Linkname) > maxLinkTarget {
			return fmt.Errorf("snapshot entry %q: bad link target", h.Name)
		}
		if err := root.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		// As the engine makes them: no target ends in a slash, the shape
		// wasmtime 25's resolver can be led out of the workspace by
		// (engine/wasipaths.go).
		target := strings.TrimRight(h.Linkname, "/")
		if target == "" {
			target = "/"
		}
		return root.Symlink(target, p)
	case tar.TypeReg:
		if *total += h.Size; *total > limit {
			return fmt.Errorf("the snapshot's workspace holds more than %d bytes", limit)
		}
		if err := root.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, fs.FileMode(h.Mode).Perm()|0o600)
		if err != nil {
			return err
		}
		_, err = io.CopyN(f, tr, h.Size)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		root.Chtimes(p, h.ModTime, h.ModTime)
	}
	return nil
}
