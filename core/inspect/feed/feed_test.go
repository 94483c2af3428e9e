package feed

import (
	"testing"
	"time"
)

// A wire line's time, formatted a second at a time, reads back as the
// instant it was, to the nanosecond, across seconds, days and zones.
func TestAWireLineIsTimedToTheNanosecond(t *testing.T) {
	var s Session
	at := time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("here", 3600))
	for _, now := range []time.Time{at, at.Add(-999_999_998), at.Add(1), at.Add(time.Second + 120), at.Add(time.Second + 7)} {
		b := s.appendTime(nil, now)
		got, err := time.Parse(time.RFC3339Nano, string(b))
		if err != nil || !got.Equal(now) {
			t.Errorf("%v is written %s, read back as %v (%v)", now, b, got, err)
		}
	}
}
