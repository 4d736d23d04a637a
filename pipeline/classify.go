package pipeline

import (
	"encoding/json"
	"fmt"

	"github.com/wasmexec/wasmexec/exec"
)

type controlResponse struct {
	Status   string          `json:"status"`
	Value    json.RawMessage `json:"value"`
	HasValue bool            `json:"hasValue"`
	Error    *exec.ErrorData `json:"error"`
	ExitCode int             `json:"exitCode"`
}

// classify turns the driver's reply into the result. A value larger
// than the run's output limit is refused (failed/output_limit): values
// are bounded like output, so neither a response nor a stored record
// can grow without bound.
func classify(res *exec.Result, kind exec.Kind, raw []byte, valueLimit int64) {
	var cr controlResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver sent a malformed result"}
		return
	}
	switch cr.Status {
	case "ok":
		res.Outcome, res.Error, res.ExitCode = exec.Succeeded, nil, 0
		if kind == exec.KindEvaluate && cr.HasValue {
			if valueLimit > 0 && int64(len(cr.Value)) > valueLimit {
				res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeOutputLimit, Name: "OutputLimitError",
					Message: fmt.Sprintf("the value is %d bytes of JSON; values are bounded by limits.outputBytes (%d bytes)", len(cr.Value), valueLimit)}
				return
			}
			res.Value = cr.Value
		}
	case "exit":
		res.ExitCode = cr.ExitCode
		if cr.ExitCode == 0 {
			res.Outcome, res.Error = exec.Succeeded, nil
		} else {
			res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeExit, Name: "ExitError", Message: fmt.Sprintf("exited with status %d", cr.ExitCode)}
		}
	case "error":
		res.Outcome, res.Error = exec.Failed, cr.Error
		if res.Error == nil {
			res.Error = &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver reported an error without details"}
		}
		if res.Error.Code == "" {
			res.Error.Code = exec.CodeException
		}
		if kind == exec.KindExecute {
			res.ExitCode = 1
		}
	default:
		res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver sent an unknown status " + cr.Status}
	}
}
