package wasmexec

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
	signal int  // the signal that closed it (CloseBySignal), 0: none
	taken  bool // the guest asked for the signal and learnt it (TakeSignal)
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

// CloseBySignal marks EOF because the process was sent the signal numbered
// sig: the guest reads what is buffered, then EOF, and a guest that asks
// (Signal) learns which signal it was and may act on it as a process
// would (end, or run its handler).
func (s *Stdin) CloseBySignal(sig int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signal == 0 {
		s.signal = sig
	}
	if !s.closed {
		s.closed = true
		s.wake()
	}
}

// Signal is the number of the signal that closed s (CloseBySignal), 0 when
// none did.
func (s *Stdin) Signal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signal
}

// TakeSignal is Signal as the guest asks for it: a non-zero answer is
// remembered (SignalTaken), since the guest then acts on the signal.
func (s *Stdin) TakeSignal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signal != 0 {
		s.taken = true
	}
	return s.signal
}

// SignalTaken says whether the guest learnt the signal that closed s.
func (s *Stdin) SignalTaken() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taken
}

// SignalExitStatus is the exit status (WASI proc_exit) with which a guest
// ends itself as a signal's default action, after TakeSignal told it the
// signal (WASI allows statuses below 126 only, so not 128+n): the host
// reports the process as ended by that signal.
const SignalExitStatus = 125

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
