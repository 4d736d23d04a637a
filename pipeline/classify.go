package pipeline

import (
	"encoding/json"
	"fmt"

	"github.com/wasmexec/wasmexec"
)

type controlResponse struct {
	Status   string              `json:"status"`
	Value    json.RawMessage     `json:"value"`
	HasValue bool                `json:"hasValue"`
	Error    *wasmexec.ErrorData `json:"error"`
	ExitCode int                 `json:"exitCode"`
	// Outputs are the run's rich outputs (display data); OutputsTruncated
	// says the driver left some out, past the budget it was given.
	Outputs          []wasmexec.DisplayOutput `json:"outputs"`
	OutputsTruncated bool                     `json:"outputsTruncated"`
}

// classify turns the driver's reply into the result. A value larger
// than the run's output limit is refused (failed/output_limit): values
// are bounded like output, so neither a response nor a stored record
// can grow without bound.
func classify(res *wasmexec.Result, kind wasmexec.Kind, raw []byte, valueLimit int64) {
	var cr controlResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		res.Outcome, res.Error = wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "the driver sent a malformed result"}
		return
	}
	switch cr.Status {
	case "ok":
		res.Outcome, res.Error, res.ExitCode = wasmexec.Succeeded, nil, 0
		if kind == wasmexec.KindEvaluate && cr.HasValue {
			if valueLimit > 0 && int64(len(cr.Value)) > valueLimit {
				res.Outcome, res.Error = wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeOutputLimit, Name: "OutputLimitError",
					Message: fmt.Sprintf("the value is %d bytes of JSON; values are bounded by limits.outputBytes (%d bytes)", len(cr.Value), valueLimit)}
				return
			}
			res.Value = cr.Value
		}
	case "exit":
		res.ExitCode = cr.ExitCode
		if cr.ExitCode == 0 {
			res.Outcome, res.Error = wasmexec.Succeeded, nil
		} else {
			res.Outcome, res.Error = wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeExit, Name: "ExitError", Message: fmt.Sprintf("exited with status %d", cr.ExitCode)}
		}
	case "error":
		res.Outcome, res.Error = wasmexec.Failed, cr.Error
		if res.Error == nil {
			res.Error = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "the driver reported an error without details"}
		}
		if res.Error.Code == "" {
			res.Error.Code = wasmexec.CodeException
		}
		if kind == wasmexec.KindExecute {
			res.ExitCode = 1
		}
	default:
		res.Outcome, res.Error = wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "the driver sent an unknown status " + cr.Status}
		return
	}
	// Rich outputs count against the output limit like a stream: past it
	// (or past MaxDisplayOutputs) the run fails with output_limit and
	// returns none, as a value over the limit does.
	if len(cr.Outputs) > 0 || cr.OutputsTruncated {
		if e := wasmexec.BoundOutputs(cr.Outputs, cr.OutputsTruncated, valueLimit); e != nil {
			if res.Outcome == wasmexec.Succeeded || e.Code == wasmexec.CodeInternal {
				res.Outcome, res.Error, res.Value = wasmexec.Failed, e, nil
				if kind == wasmexec.KindExecute && res.ExitCode == 0 {
					res.ExitCode = 1
				}
			}
			return
		}
		res.Outputs = cr.Outputs
	}
}
