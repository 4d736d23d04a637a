package wasmexec

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// plainResult is Result without its JSON methods.
type plainResult Result

// resultJSON is a Result on the wire: stdout and stderr follow the rule of
// output events, UTF-8 text when the bytes are valid UTF-8, else base64
// with stdoutEncoding / stderrEncoding "base64".
type resultJSON struct {
	plainResult
	StdoutEncoding string `json:"stdoutEncoding,omitempty"`
	StderrEncoding string `json:"stderrEncoding,omitempty"`
}

// MarshalJSON writes the result with stdout and stderr as UTF-8 text when
// they are valid UTF-8 and as base64 with "stdoutEncoding"/"stderrEncoding":
// "base64" otherwise (encoding/json would silently turn each invalid byte
// into U+FFFD). A stream cut by its limit in the middle of a character is
// text without that character's first bytes.
func (r Result) MarshalJSON() ([]byte, error) {
	j := resultJSON{plainResult: plainResult(r)}
	j.Stdout, j.StdoutEncoding = encodeStream(r.Stdout, r.StdoutTruncated)
	j.Stderr, j.StderrEncoding = encodeStream(r.Stderr, r.StderrTruncated)
	return json.Marshal(j)
}

// UnmarshalJSON reverses MarshalJSON.
func (r *Result) UnmarshalJSON(b []byte) error {
	var j resultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var err error
	if j.Stdout, err = decodeStream(j.Stdout, j.StdoutEncoding); err != nil {
		return fmt.Errorf("stdout: %w", err)
	}
	if j.Stderr, err = decodeStream(j.Stderr, j.StderrEncoding); err != nil {
		return fmt.Errorf("stderr: %w", err)
	}
	*r = Result(j.plainResult)
	return nil
}

func encodeStream(p *string, truncated bool) (*string, string) {
	if p == nil || utf8.ValidString(*p) {
		return p, ""
	}
	s := *p
	if truncated {
		// The limit may have cut a character: drop its leading bytes.
		for i := len(s) - 1; i >= 0 && i >= len(s)-(utf8.UTFMax-1); i-- {
			if utf8.RuneStart(s[i]) {
				if !utf8.FullRuneInString(s[i:]) && utf8.ValidString(s[:i]) {
					t := s[:i]
					return &t, ""
				}
				break
			}
		}
	}
	e := base64.StdEncoding.EncodeToString([]byte(s))
	return &e, "base64"
}

func decodeStream(p *string, encoding string) (*string, error) {
	switch {
	case encoding == "":
		return p, nil
	case encoding != "base64":
		return nil, fmt.Errorf("unknown encoding %q", encoding)
	case p == nil:
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(*p)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}
