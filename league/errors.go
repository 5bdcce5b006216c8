package league

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. The server maps each to one HTTP status; nothing else
// inspects them, so the set stays small on purpose.
const (
	EINVALID      = "invalid"      // the request is malformed or breaks a rule
	ENOTFOUND     = "not_found"    // the thing does not exist (or is hidden from the caller)
	ECONFLICT     = "conflict"     // the request lost a race or repeats something unique
	EUNAUTHORIZED = "unauthorized" // no valid credentials
	EFORBIDDEN    = "forbidden"    // valid credentials, not allowed
	EPRECONDITION = "precondition" // the thing is not in a state that allows this
	ETOOMANY      = "too_many"     // rate limited
	EINTERNAL     = "internal"     // a bug or an outage; details are logged, not shown
)

// FieldError names one field at fault in a request.
type FieldError struct {
	Field   string
	Message string
}

// Error is the domain error. Message is safe to show to the caller.
type Error struct {
	Code    string
	Message string
	Fields  []FieldError // per-field problems: every EINVALID, and a refusal elsewhere that one field causes (a seat taken, a move the engine refuses)
	Data    map[string]any
	// RetryAfterSeconds is set for ETOOMANY.
	RetryAfterSeconds int
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s (%s: %s)", e.Code, e.Message, e.Fields[0].Field, e.Fields[0].Message)
	}
	return e.Code + ": " + e.Message
}

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid builds an EINVALID error naming the fields at fault.
func Invalid(message string, fields ...FieldError) *Error {
	return &Error{Code: EINVALID, Message: message, Fields: fields}
}

// ErrorCode returns the code of err, EINTERNAL for errors that are not
// league errors, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// NotYet is what a task's handler returns when the task came before its
// time by more than a timer's slack: asynq moved it on a process whose
// clock is ahead of this one's. It may be the only task for that time, so
// it is not dropped: the workers run it again at At, not as a failure.
type NotYet struct{ At time.Time }

func (e *NotYet) Error() string { return "not due until " + e.At.UTC().Format(time.RFC3339Nano) }
