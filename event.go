package wasmexec

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Channel names the stream an output event came from.
type Channel string

const (
	Stdout Channel = "stdout"
	Stderr Channel = "stderr"
)

// Event is one write of a guest to stdout or stderr. Sequence numbers start
// at 1 within one execution and have no gaps, even when the log later drops
// old events.
type Event struct {
	PID         int64   `json:"pid"`
	Sequence    uint64  `json:"sequence"`
	Channel     Channel `json:"channel"`
	Chunk       []byte  `json:"-"`
	TimestampMs int64   `json:"timestampMs"`
}

type eventJSON struct {
	PID         int64   `json:"pid"`
	Sequence    uint64  `json:"sequence"`
	Channel     Channel `json:"channel"`
	Chunk       string  `json:"chunk"`
	Encoding    string  `json:"encoding,omitempty"` // "base64" when Chunk is not valid UTF-8
	TimestampMs int64   `json:"timestampMs"`
}

// MarshalJSON writes the chunk as UTF-8 text when it is valid UTF-8 and as
// base64 with "encoding":"base64" otherwise.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{PID: e.PID, Sequence: e.Sequence, Channel: e.Channel, TimestampMs: e.TimestampMs}
	if utf8.Valid(e.Chunk) {
		j.Chunk = string(e.Chunk)
	} else {
		j.Chunk = base64.StdEncoding.EncodeToString(e.Chunk)
		j.Encoding = "base64"
	}
	return json.Marshal(j)
}

// UnmarshalJSON reverses MarshalJSON.
func (e *Event) UnmarshalJSON(b []byte) error {
	var j eventJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Event{PID: j.PID, Sequence: j.Sequence, Channel: j.Channel, TimestampMs: j.TimestampMs}
	switch j.Encoding {
	case "":
		e.Chunk = []byte(j.Chunk)
	case "base64":
		c, err := base64.StdEncoding.DecodeString(j.Chunk)
		if err != nil {
			return fmt.Errorf("event chunk: %w", err)
		}
		e.Chunk = c
	default:
		return fmt.Errorf("event chunk: unknown encoding %q", j.Encoding)
	}
	return nil
}

// Replay is one page of output events read after a cursor.
type Replay struct {
	Events     []Event `json:"events"`
	NextCursor string  `json:"nextCursor"`
	HasMore    bool    `json:"hasMore"`
	// Truncated is true when events after the requested cursor were dropped
	// by the log's cap before they could be read.
	Truncated bool `json:"truncated"`
}

// Cursors are opaque to clients. Inside they are the sequence number of the
// last event delivered, so "after cursor c" means "sequence > seq(c)". The
// empty cursor means "from the start".
const cursorPrefix = "c"

// EncodeCursor returns the cursor that resumes after sequence seq.
func EncodeCursor(seq uint64) string {
	return cursorPrefix + strconv.FormatUint(seq, 36)
}

// ParseCursor returns the sequence a cursor stands for. A malformed cursor is
// an EInvalid error.
func ParseCursor(c string) (uint64, error) {
	if c == "" {
		return 0, nil
	}
	if len(c) < 2 || len(c) > 16 || c[:1] != cursorPrefix {
		return 0, Errorf(EInvalid, "malformed cursor %q", c)
	}
	n, err := strconv.ParseUint(c[1:], 36, 64)
	if err != nil {
		return 0, Errorf(EInvalid, "malformed cursor %q", c)
	}
	return n, nil
}
