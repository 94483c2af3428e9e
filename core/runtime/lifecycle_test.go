package runtime

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// helloOf returns the params of the hook.hello a hook process received.
func helloOf(t *testing.T, record string) protocol.HelloParams {
	t.Helper()
	var msg struct {
		Method string
		Params protocol.HelloParams
	}
	if err := json.Unmarshal([]byte(readLines(t, record)[0]), &msg); err != nil || msg.Method != protocol.MethodHello {
		t.Fatalf("first line received: %v, %+v", err, msg)
	}
	return msg.Params
}

func TestHelloAnnouncesTheExtensionsTheRuntimeApplies(t *testing.T) {
	all := []string{protocol.ExtApproveAbstain, protocol.ExtApproveArguments, protocol.ExtSessionEvents}
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"by default", Options{}, all},
		{"without session events", Options{NoSessionEvents: true}, all[:2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "received")
			tc.opts.StopTimeout = 300 * time.Millisecond
			r, err := New(Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
				"gate": proc(0, []string{"approve_tool"}, "-record", rec),
			}}}, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			closeAndCheck(t, r)
			if got := helloOf(t, rec).Extensions; !slices.Equal(got, tc.want) || !slices.Equal(r.Extensions(), tc.want) {
				t.Errorf("hello announced %q (Extensions() %q), want %q", got, r.Extensions(), tc.want)
			}
		})
	}
}
