package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// contender is one thing measured side by side with others: do makes one
// call (or spawn, or agent turn) and says whether it came out right.
type contender struct {
	id    string
	label string
	do    func() error
	// timed, when set, replaces do: it times what it does itself, for a
	// call whose clean-up is not to be timed.
	timed func() (time.Duration, error)

	samples  []time.Duration
	failures int
	firstErr error
}

// measure times one do; a failed one is counted, not timed.
func (c *contender) measure(record bool) {
	var took time.Duration
	var err error
	if c.timed != nil {
		took, err = c.timed()
	} else {
		start := time.Now()
		err = c.do()
		took = time.Since(start)
	}
	switch {
	case err != nil:
		c.fail(err)
	case record:
		c.samples = append(c.samples, took)
	}
}

func (c *contender) fail(err error) {
	if c.failures == 0 {
		c.firstErr = err
	}
	c.failures++
}

// failed describes the contender's failures, or is empty.
func (c *contender) failed() string {
	if c.failures == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %d failed, the first: %v", c.id, c.failures, c.firstErr)
}

// interleave runs n turns of each contender in rounds: in each round, every
// contender, in a new random order, takes its share of n in one go. Noise
// then hits every contender alike, rather than whichever ran when it came.
func interleave(rng *rand.Rand, k, n, rounds int, turn func(i, count int)) {
	rounds = max(1, min(rounds, n))
	for r := range rounds {
		count := n / rounds
		if r < n%rounds {
			count++
		}
		for _, i := range rng.Perm(k) {
			turn(i, count)
		}
	}
}

// summary is the distribution of a contender's samples.
type summary struct {
	N      int   `json:"n"`
	Median int64 `json:"median_ns"`
	P99    int64 `json:"p99_ns"`
}

func summarize(samples []time.Duration) summary {
	if len(samples) == 0 {
		return summary{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	n := len(s)
	median := s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	p99 := s[int(math.Ceil(0.99*float64(n)))-1]
	return summary{N: n, Median: int64(median), P99: int64(p99)}
}

// ratio is a/b, rounded to three decimals, so that a target is judged on
// what the table shows to two; 0 when b is.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return math.Round(float64(a)/float64(b)*1000) / 1000
}

func round(x float64) float64 { return math.Round(x) }

// human writes a duration in ns with three significant digits.
func human(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.3g MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.3g KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}
