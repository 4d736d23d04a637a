package wasmexec

import (
	"encoding/json"
	"fmt"
)

// DisplayOutput is one rich output of a run, as a notebook's display
// data: a figure the run drew (image/png with its size, image/svg+xml), a
// table (text/html, with Text its plain-text form), or text/plain. The
// Python guest makes them from display(obj), plt.show() and the figures
// a run leaves open (guest-images/python/_wasmexec_display.py).
type DisplayOutput struct {
	Type string `json:"type"`
	// Data is the output: base64 for images/png, text otherwise.
	Data   string `json:"data"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	// Text is a plain-text alternative (text/html).
	Text string `json:"text,omitempty"`
}

// Size is what an output counts against the run's output limit.
func (o *DisplayOutput) Size() int64 { return int64(len(o.Type) + len(o.Data) + len(o.Text)) }

// DisplayChannel is the channel of an output event that carries one rich
// output of a run (its chunk is the DisplayOutput as JSON), for readers of
// a process's output. They are appended when the run ends.
const DisplayChannel Channel = "display"

// MaxDisplayOutputs is how many rich outputs one run may return.
const MaxDisplayOutputs = 64

// OutputsOptions (request field "outputs") choose the formats of a run's
// figures: "png" (the default) and/or "svg".
type OutputsOptions struct {
	Formats []string `json:"formats,omitempty"`
}

// Validate checks the formats.
func (o *OutputsOptions) Validate() error {
	if o == nil {
		return nil
	}
	if len(o.Formats) > 2 {
		return Errorf(EInvalid, "outputs.formats: at most 2 formats (png, svg)")
	}
	for _, f := range o.Formats {
		if f != "png" && f != "svg" {
			return Errorf(EInvalid, "outputs.formats: %q is not one of png, svg", f)
		}
	}
	return nil
}

// ControlOutputs tell a driver how to make a run's rich outputs and how
// many it may make (docs/PROTOCOL.md): the host bounds them again.
type ControlOutputs struct {
	Formats  []string `json:"formats,omitempty"`
	MaxCount int      `json:"maxCount"`
	MaxBytes int64    `json:"maxBytes"`
}

// BoundOutputs checks a driver's outputs against the run's limits: at
// most MaxDisplayOutputs, at most maxBytes in all (0: unbounded), each of
// a known type. It returns the error that fails the run, or nil.
func BoundOutputs(outs []DisplayOutput, truncated bool, maxBytes int64) *ErrorData {
	var total int64
	for i := range outs {
		switch outs[i].Type {
		case "image/png", "image/svg+xml", "text/html", "text/plain":
		default:
			return &ErrorData{Code: CodeInternal, Name: "OutputError", Message: fmt.Sprintf("the driver sent an output of unknown type %q", outs[i].Type)}
		}
		total += outs[i].Size()
	}
	if len(outs) > MaxDisplayOutputs || (maxBytes > 0 && total > maxBytes) || truncated {
		return &ErrorData{Code: CodeOutputLimit, Name: "OutputLimitError",
			Message: fmt.Sprintf("display outputs past the run's limit (%d outputs, %d bytes: limits.outputBytes)", MaxDisplayOutputs, maxBytes)}
	}
	return nil
}

// DecodeOutputs reads a stored outputs column (JSON; nil: none).
func DecodeOutputs(b []byte) ([]DisplayOutput, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var outs []DisplayOutput
	err := json.Unmarshal(b, &outs)
	return outs, err
}
