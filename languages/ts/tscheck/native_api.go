package tscheck

// TypeScript 7's API mode (`tsc --api`), the synchronous flavour its own
// JavaScript client (typescript/unstable/sync) speaks over the child's
// stdin/stdout: every message is a MessagePack array of three items,
// [type (uint8), method (bin), payload (bin)], payloads being JSON. The
// client sends a request and reads until the response to it; meanwhile the
// compiler may call back (file system callbacks enabled with --callbacks),
// and each call is answered before it goes on. One request is in flight at
// a time.

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Message types of the protocol.
const (
	apiRequest      = 1 // client → compiler
	apiCallResponse = 2 // client → compiler, the answer to a callback
	apiCallError    = 3 // client → compiler
	apiResponse     = 4 // compiler → client
	apiError        = 5 // compiler → client: the request failed
	apiCall         = 6 // compiler → client: a callback
)

// maxAPIMessage bounds one message from the compiler: a larger length means
// a corrupt stream (diagnostics of a 16 MB source stay far below it).
const maxAPIMessage = 256 << 20

// apiCallback answers a callback: its result payload (JSON; empty means
// "fall back to the real file system") or an error.
type apiCallback func(name string, arg []byte) ([]byte, error)

// apiConn is the client end of one compiler process's API channel.
type apiConn struct {
	r        *bufio.Reader
	w        *bufio.Writer
	callback apiCallback
}

func newAPIConn(r io.Reader, w io.Writer, cb apiCallback) *apiConn {
	return &apiConn{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10), callback: cb}
}

// errSend wraps a failure to write a request: the process is gone.
var errSend = errors.New("typescript API: send")

// apiRequestError is a request the compiler answered with an error.
type apiRequestError struct {
	Method, Message string
}

func (e *apiRequestError) Error() string {
	return fmt.Sprintf("typescript API %s: %s", e.Method, e.Message)
}

// call sends method with params (marshalled to JSON) and decodes the
// response into out (nil: ignore it). Transport errors mean the process is
// gone or the stream is corrupt: the connection must not be used again.
func (c *apiConn) call(method string, params, out any) error {
	payload, err := json.Marshal(params)
	if err != nil {
		return err
	}
	if err := c.write(apiRequest, method, payload); err != nil {
		return fmt.Errorf("%w: %w", errSend, err)
	}
	for {
		typ, name, body, err := c.read()
		if err != nil {
			return err
		}
		switch typ {
		case apiResponse:
			if name != method {
				return fmt.Errorf("typescript API: response to %q while waiting for %q", name, method)
			}
			if out == nil || len(body) == 0 {
				return nil
			}
			return json.Unmarshal(body, out)
		case apiError:
			return &apiRequestError{Method: name, Message: string(body)}
		case apiCall:
			res, cerr := c.callback(name, body)
			if cerr != nil {
				if err := c.write(apiCallError, name, []byte(cerr.Error())); err != nil {
					return err
				}
				continue
			}
			if err := c.write(apiCallResponse, name, res); err != nil {
				return err
			}
		default:
			return fmt.Errorf("typescript API: unknown message type %d", typ)
		}
	}
}

func (c *apiConn) write(typ byte, name string, payload []byte) error {
	c.w.WriteByte(0x93) // fixarray of 3
	c.w.WriteByte(typ)  // positive fixint
	writeBin(c.w, []byte(name))
	writeBin(c.w, payload)
	return c.w.Flush()
}

func writeBin(w *bufio.Writer, b []byte) {
	switch n := len(b); {
	case n < 1<<8:
		w.WriteByte(0xc4)
		w.WriteByte(byte(n))
	case n < 1<<16:
		w.WriteByte(0xc5)
		w.WriteByte(byte(n >> 8))
		w.WriteByte(byte(n))
	default:
		var hdr [5]byte
		hdr[0] = 0xc6
		binary.BigEndian.PutUint32(hdr[1:], uint32(n))
		w.Write(hdr[:])
	}
	w.Write(b)
}

func (c *apiConn) read() (typ byte, name string, payload []byte, err error) {
	b, err := c.r.ReadByte()
	if err != nil {
		return 0, "", nil, err
	}
	if b != 0x93 {
		return 0, "", nil, fmt.Errorf("typescript API: expected a 3-item array, got 0x%02x", b)
	}
	if typ, err = c.r.ReadByte(); err != nil {
		return 0, "", nil, err
	}
	if typ == 0xcc { // uint8
		if typ, err = c.r.ReadByte(); err != nil {
			return 0, "", nil, err
		}
	} else if typ > 0x7f {
		return 0, "", nil, fmt.Errorf("typescript API: bad message type marker 0x%02x", typ)
	}
	n, err := c.readBin()
	if err != nil {
		return 0, "", nil, err
	}
	name = string(n)
	if payload, err = c.readBin(); err != nil {
		return 0, "", nil, err
	}
	return typ, name, payload, nil
}

func (c *apiConn) readBin() ([]byte, error) {
	m, err := c.r.ReadByte()
	if err != nil {
		return nil, err
	}
	var n int
	switch m {
	case 0xc4:
		b, err := c.r.ReadByte()
		if err != nil {
			return nil, err
		}
		n = int(b)
	case 0xc5:
		var h [2]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint16(h[:]))
	case 0xc6:
		var h [4]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint32(h[:]))
	default:
		return nil, fmt.Errorf("typescript API: expected binary data, got 0x%02x", m)
	}
	if n > maxAPIMessage {
		return nil, fmt.Errorf("typescript API: message of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c.r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}
