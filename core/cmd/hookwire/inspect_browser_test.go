package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hookwire/hookwire/core/inspect"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/runtime"
)

// The page, tested in a real browser as a person uses it: headless
// Chromium from the system (go tool mage deps installs Debian's when it
// is missing and it runs as root). Without one the test fails under CI or
// HOOKWIRE_REQUIRE_BROWSER=1, and is skipped, saying so, elsewhere.
// HOOKWIRE_SCREENSHOTS=DIR writes the screenshots the docs show.

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	const msg = "no Chromium (chromium, chromium-browser or google-chrome) on PATH: go tool mage deps installs Debian's as root (apt-get install chromium)"
	if os.Getenv("CI") != "" || os.Getenv("HOOKWIRE_REQUIRE_BROWSER") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browser is a headless Chromium tab at 1280 x 800.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// startInspector serves an inspector whose socket the producers of this
// test (hookwire run in-process) find through HOOKWIRE_INSPECT_SOCKET, and
// whose page may run the hook commands of allow, as --allow gives them.
func startInspector(t *testing.T, allow ...string) *inspect.Server {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hookwire")
	sock := filepath.Join(dir, "inspect.sock")
	t.Setenv("HOOKWIRE_INSPECT_SOCKET", sock)
	var commands [][]string
	for _, a := range allow {
		commands = append(commands, strings.Fields(a))
	}
	srv, err := inspect.Start(inspect.Options{Socket: sock, Allow: commands})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// waitText waits until the element of sel shows text containing want.
func waitText(sel, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		for {
			got, err := chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q)||{}).innerText||""`, sel))(ctx, tab)
			if err != nil {
				return err
			}
			if strings.Contains(got, want) {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s never showed %q (it shows %q)", sel, want, got)
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// screenshot writes the page to HOOKWIRE_SCREENSHOTS/name, when it is set.
func screenshot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		dir := os.Getenv("HOOKWIRE_SCREENSHOTS")
		if dir == "" {
			return nil
		}
		png, err := chromedp.FullScreenshot(100)(ctx, tab)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), png, 0o644)
	})
}

// eval is the value of a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// text is the visible text of the element of sel, read in one step: the
// page re-renders live, and a node found by one request may be gone by the
// next.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q)||{}).innerText||""`, sel))
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// callRows are the calls of the timeline, as the page shows them.
const callRows = `Array.from(document.querySelectorAll("#timeline .row")).filter(r => r.querySelector(".type").textContent === "call").map(r => r.innerText.replace(/\s+/g, " "))`

func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

func TestInspectShowsAWeatherTurnLiveWithItsCallsAndTheModifyDiff(t *testing.T) {
	srv := startInspector(t)
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#status", "live"))
	// The page is open before the turn: it must come in live.
	if code, out, errOut := hookwire(t, "", "run", "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	do(t, ctx, waitText("#sessions", "reference"), waitText("#count", "21 of 21"))
	calls := eval[[]string](t, ctx, callRows)
	want := []string{"hook.hello answered", "hook.before_llm modify", "hook.before_tool get_weather respond", "hook.before_llm modify"}
	if len(calls) != len(want) {
		t.Fatalf("the timeline shows %d calls, want %d: %q", len(calls), len(want), calls)
	}
	for i, w := range want {
		if !strings.Contains(calls[i], "weather_plugin "+w) {
			t.Errorf("call %d shows %q, want weather_plugin %s", i, calls[i], w)
		}
	}
	// At each change the page fetches the list, then the rows: the list may
	// be a change behind the timeline until the next change's fetch.
	do(t, ctx, waitText("#sessions li", "4 calls · 0 failures")) // hello and the turn's 3
	if row := text(t, ctx, "#sessions li"); !strings.Contains(row, "weather_plugin: python3 weather_plugin.py") {
		t.Errorf("the session list shows %q, want the scenario's hook", row)
	}
	// The first call, opened from the keyboard: the diff shows the tool the modify added.
	do(t, ctx, chromedp.Focus(css("#timeline")))
	for range 5 { // the hello, three events, then the first before_llm
		do(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	}
	do(t, ctx, waitText("#detail h2", "weather_plugin hook.before_llm"), waitText("#detail", "What the modify changed"), screenshot("weather.png"))
	if diff := text(t, ctx, "#detail table.diff"); !strings.Contains(diff, "/tools/2") || !strings.Contains(diff, `"name": "get_weather"`) || !strings.Contains(diff, "(absent)") {
		t.Errorf("the diff does not show get_weather added at /tools/2:\n%s", diff)
	}
	// Filters and the search.
	do(t, ctx, chromedp.Click(css("#f-failed")), waitText("#count", "0 of 21"), chromedp.Click(css("#f-failed")), waitText("#count", "21 of 21"),
		chromedp.SendKeys(css("#f-search"), "respond"), waitText("#count", "1 of 21"))
	eval[bool](t, ctx, `(() => {
		const search = document.querySelector("#f-search"), tool = document.querySelector("#f-tool");
		search.value = ""; search.dispatchEvent(new Event("input"));
		tool.value = "get_weather"; tool.dispatchEvent(new Event("change"));
		return true })()`)
	do(t, ctx, waitText("#count", "1 of 21"))
}

func TestInspectShowsAFailingHooksStderrBesideItsCall(t *testing.T) {
	srv := startInspector(t)
	ctx := browser(t)
	if code, out, errOut := hookwire(t, "", "run", "--hooks", "testdata/inspect/hooks.json", weatherScenario); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#sessions .failures", "1 failure"),
		chromedp.Click(css("#f-failed")), waitText("#count", "1 of"),
		chromedp.Click(css("#timeline .row.failed")), waitText("#detail", "stderr"), screenshot("failure.png"))
	if row := text(t, ctx, "#timeline .row.failed"); !strings.Contains(row, "hook.before_tool") || !strings.Contains(row, "failed open") || !strings.Contains(row, "stderr 3") {
		t.Errorf("the failed call's row shows %q", row)
	}
	if stderr := text(t, ctx, "#detail pre.stderr"); !strings.Contains(stderr, "Traceback (most recent call last):") || !strings.Contains(stderr, "KeyError: 'forecast service is down'") {
		t.Errorf("the failed call's stderr shows %q", stderr)
	}
}

const weatherHook = "python3 ../../../examples/weather/script/weather_plugin.py"

func TestInspectComposerSendsBeforeToolAndShowsRespond(t *testing.T) {
	srv := startInspector(t, weatherHook)
	ctx := browser(t)
	// The inspector runs the hook in its own folder, as the test's; a
	// command it was not started with is refused, and the page says how.
	do(t, ctx, chromedp.Navigate(srv.URL()), chromedp.Click(css("#tab-composer")), waitText("#c-method", "hook.before_tool"),
		waitText(".allowed-hint", weatherHook),
		chromedp.SendKeys(css("#c-command"), "python3 testdata/inspect/broken_weather.py"),
		chromedp.Click(css("#c-send")), waitText("#c-outcome", `start it with --allow "python3 testdata/inspect/broken_weather.py"`),
		chromedp.SetValue(css("#c-command"), weatherHook),
		chromedp.SetValue(css("#c-field-tool"), "get_weather"),
		chromedp.SetValue(css("#c-field-arguments"), `{"city": "Beijing"}`),
		chromedp.Click(css("#c-send")), waitText("#c-outcome", "respond"), screenshot("composer.png"))
	if reply := text(t, ctx, "#c-reply pre.reply"); !strings.Contains(reply, "Beijing weather: Sunny") {
		t.Errorf("the composer shows the reply %q", reply)
	}
}

func TestInspectReplaysARecordingAndShowsEachDifference(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "weather.jsonl")
	if code, out, errOut := hookwire(t, "", "run", "--trace", trace, "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	srv := startInspector(t, weatherHook, "python3 testdata/inspect/broken_weather.py")
	if _, err := srv.OpenRecording(trace); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#session-title", "weather.jsonl"),
		chromedp.SendKeys(css("#replay-command"), weatherHook), chromedp.Click(css("#replay-run")),
		waitText("#replay-summary", "all 3 calls match"),
		// Another hook, which fails the tool call: the difference is shown where it is.
		chromedp.SetValue(css("#replay-command"), "python3 testdata/inspect/broken_weather.py"), chromedp.Click(css("#replay-run")),
		waitText("#replay-summary", "differ"), screenshot("replay.png"))
	if detail := text(t, ctx, "#detail"); !strings.Contains(detail, "DIFF hook.before_tool get_weather") || !strings.Contains(detail, "KeyError: 'forecast service is down'") {
		t.Errorf("the replay shows:\n%s", detail)
	}
}

func TestInspectIsReadableInANarrowWindow(t *testing.T) {
	srv := startInspector(t)
	if code, out, errOut := hookwire(t, "", "run", "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	ctx := browser(t)
	do(t, ctx, chromedp.EmulateViewport(420, 800), chromedp.Navigate(srv.URL()), waitText("#count", "21 of 21"),
		chromedp.Click(css(`#timeline .row[data-seq="4"]`)), waitText("#detail", "Request"), screenshot("narrow.png"))
	if eval[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`) {
		t.Error("the page is wider than a 420 px window")
	}
}

func TestInspectStaysResponsiveWithTenThousandCallsAndA10MBMessage(t *testing.T) {
	srv := startInspector(t)
	pub := feed.Open(feed.Info{Kind: "run", Host: "reference", Command: "big: ./hook"})
	const n = 10_000
	for i := range n {
		params := json.RawMessage(`{"tool":"t` + strconv.Itoa(i%7) + `"}`)
		if i == n-1 {
			params = json.RawMessage(`{"tool":"big","arguments":{"blob":"` + strings.Repeat("a", 10<<20) + `"}}`)
		}
		pub.Call(runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Params: params, Result: json.RawMessage(`{"action":"continue"}`), Duration: time.Millisecond})
	}
	pub.Close()
	ctx := browser(t)
	start := time.Now()
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#count", "10000 of 10000"))
	loaded := time.Since(start)
	// Only the rows in view are in the document.
	if rows := eval[int](t, ctx, `document.querySelectorAll("#timeline .row").length`); rows > 60 {
		t.Errorf("%d rows in the document for a window of 800 px", rows)
	}
	start = time.Now()
	do(t, ctx, chromedp.Focus(css("#timeline")), chromedp.KeyEvent(kb.End), waitText("#detail h2", "h hook.before_tool big"), waitText("#detail pre.request", "aaaa"), waitText("#detail button.more", "show all 10.0 MB"))
	t.Logf("10,000 calls listed in %v; the 10 MB message opened in %v", loaded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// --open gives the browser a file, not the URL with its token: the file
// leads the browser to the page, which then works as it does from the URL.
func TestInspectOpensThePageFromItsLaunchFile(t *testing.T) {
	srv := startInspector(t)
	launch, err := srv.LaunchFile()
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(launch); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the launch file: %v, %v; want mode 0600", fi, err)
	}
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate("file://"+launch), waitText("#status", "live"))
	if loc := eval[string](t, ctx, `location.href`); loc != srv.URL() {
		t.Errorf("the browser is at %s, want %s", loc, srv.URL())
	}
	if _, err := os.Lstat(launch); !os.IsNotExist(err) {
		t.Errorf("the launch file is still there once the page is served: %v", err)
	}
}
