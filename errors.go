package wasmexec

import (
	"context"
	"errors"
	"fmt"
)

// Service error codes. server/ maps each to one HTTP status in one table.
const (
	EInvalid          = "invalid_argument"              // 400
	EMethodNotAllowed = "method_not_allowed"            // 405, with Allow
	ENotFound         = "not_found"                     // 404
	EExpired          = "execution_expired"             // 404, id known to have expired
	EContextNotFound  = "context_not_found"             // 404
	ETemplateNotFound = "template_not_found"            // 404
	ETemplateConflict = "template_conflict"             // 409, a template id that exists
	EConflict         = "conflict"                      // 409
	EContextConflict  = "context_conflict"              // 409
	ENotRetained      = "execution_output_not_retained" // 409, replay of a run that kept no events
	ELanguageMismatch = "context_language_mismatch"     // 409
	ETooLarge         = "payload_too_large"             // 413
	EOverloaded       = "overloaded"                    // 429 with Retry-After
	EUnavailable      = "unavailable"                   // 503 (not ready, shutting down)
	EInternal         = "internal"                      // 500
)

// Error is the one error type of wasmexec: a code from the list above and a
// message safe to show a client. Anything else reaching the HTTP layer is
// treated as internal.
type Error struct {
	Code    string
	Message string
	Err     error // optional cause, never shown to clients
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or EInternal.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// ContextOutcome classifies a run that ended because its ctx did:
// timed_out for its deadline, cancelled otherwise (with the cause, when
// one was given).
func ContextOutcome(ctx context.Context) (Outcome, *ErrorData) {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return TimedOut, &ErrorData{Code: "timeout", Name: "TimeoutError", Message: "the run exceeded its wall-clock deadline"}
	}
	ed := &ErrorData{Code: "cancelled", Name: "CancelledError", Message: "the run was cancelled"}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		ed.Message += ": " + cause.Error()
	}
	return Cancelled, ed
}
