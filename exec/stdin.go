package exec

import (
	"context"
	"sync"
)

// Stdin is a run's standard input: a bounded buffer that writers fill (a
// request body, or a process's stdin endpoint) and the guest drains. Reads
// block until data, EOF (after Close) or the end of the reader's ctx.
type Stdin struct {
	mu     sync.Mutex
	buf    []byte
	closed bool
	limit  int64
	ready  chan struct{} // closed and replaced whenever data arrives or Close
}

// NewStdin returns an open Stdin that buffers at most limit unread bytes.
func NewStdin(limit int64) *Stdin {
	return &Stdin{limit: limit, ready: make(chan struct{})}
}

// StdinFrom returns a closed Stdin holding b.
func StdinFrom(b []byte) *Stdin {
	s := &Stdin{buf: append([]byte(nil), b...), closed: true, limit: int64(len(b)), ready: make(chan struct{})}
	return s
}

// Write appends p. It fails with ETooLarge when the unread buffer would pass
// its limit, and with EConflict after Close.
func (s *Stdin) Write(p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Errorf(EConflict, "stdin is closed")
	}
	if int64(len(s.buf)+len(p)) > s.limit {
		return Errorf(ETooLarge, "stdin buffer is full (%d bytes unread, limit %d)", len(s.buf), s.limit)
	}
	s.buf = append(s.buf, p...)
	s.wake()
	return nil
}

// Close marks EOF; buffered data is still read first.
func (s *Stdin) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.wake()
	}
}

func (s *Stdin) wake() {
	close(s.ready)
	s.ready = make(chan struct{})
}

// Read copies buffered bytes into p, blocking while the buffer is empty and
// open. It returns 0, nil at EOF and ctx's error when ctx ends first.
func (s *Stdin) Read(ctx context.Context, p []byte) (int, error) {
	for {
		s.mu.Lock()
		if len(s.buf) > 0 {
			n := copy(p, s.buf)
			s.buf = s.buf[n:]
			if len(s.buf) == 0 {
				s.buf = nil
			}
			s.mu.Unlock()
			return n, nil
		}
		if s.closed {
			s.mu.Unlock()
			return 0, nil
		}
		ready := s.ready
		s.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
