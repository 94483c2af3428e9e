// The per-tool rate limit of the Blade Agent SDK's lifecycle hooks, ported
// to hookwire's Go lifecycle layer: a PreToolUse callback counts the calls
// of each tool and skips those over the limit, with the reason. The limit
// is RATE_LIMIT_CALLS, 50 by default as in the seed.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"

	hookwire "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/lifecycle"
)

// rateLimit is the seed's callback. The counts live as long as the hook,
// which serves every session of its host, as the seed's Map outlives its
// callback; the mutex is what Go adds, since calls may come in together.
func rateLimit(maxCallsPerTool int) lifecycle.Callback {
	var mu sync.Mutex
	callCounts := map[string]int{}
	return func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
		mu.Lock()
		callCounts[in.ToolName]++
		count := callCounts[in.ToolName]
		mu.Unlock()

		if count > maxCallsPerTool {
			return lifecycle.Output{Action: lifecycle.Skip, Reason: fmt.Sprintf("%s call count exceeded the limit (%d)", in.ToolName, maxCallsPerTool)}, nil
		}
		return lifecycle.Output{Action: lifecycle.Continue}, nil
	}
}

func newHook(maxCallsPerTool int) *hookwire.Hook {
	return lifecycle.New("lifecycle-rate-limit", lifecycle.Options{Hooks: lifecycle.Hooks{
		lifecycle.PreToolUse: {rateLimit(maxCallsPerTool)},
	}})
}

func main() {
	limit := 50
	if s := os.Getenv("RATE_LIMIT_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			slog.Error("RATE_LIMIT_CALLS must be a whole number of calls", "value", s)
			os.Exit(2)
		}
		limit = n
	}
	newHook(limit).Main()
}
