// Package waits holds the small helpers of waits bounded by a deadline
// that the wire and the chain engine share.
package waits

import (
	"context"
	"time"
)

// Expiry is a channel that receives at deadline, or nil, which never
// does, when deadline is zero; and what stops its timer.
func Expiry(deadline time.Time) (<-chan time.Time, func() bool) {
	if deadline.IsZero() {
		return nil, func() bool { return false }
	}
	t := time.NewTimer(time.Until(deadline))
	return t.C, t.Stop
}

// DeadlineOf is ctx's deadline; zero when it has none.
func DeadlineOf(ctx context.Context) time.Time {
	dl, _ := ctx.Deadline()
	return dl
}

// Err is why ctx ended: its cause when it has one of its own, such as
// the wire.NoReply of a deadline, or else ctx.Err().
func Err(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return cause
	}
	return ctx.Err()
}
