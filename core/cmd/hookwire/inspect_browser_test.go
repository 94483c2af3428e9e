package main

import (
	"context"
	"encoding/json"
	"errors"
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
	// By default the calls, and the turn's row: its steps and the
	// runtime's events are folded under it.
	do(t, ctx, waitText("#sessions", "reference"), waitText("#count", "5 of 13"))
	calls := eval[[]string](t, ctx, callRows)
	want := []string{"hello answered", "before_llm modify", "before_tool get_weather city=Beijing respond", "before_llm modify"}
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
	do(t, ctx, waitText("#sessions li", "4 calls · 0 denials · 0 aborts · 0 failures")) // hello and the turn's 3
	if row := text(t, ctx, "#sessions li"); !strings.Contains(row, "weather_plugin: python3 weather_plugin.py") {
		t.Errorf("the session list shows %q, want the scenario's hook", row)
	}
	// The session is named by its scenario and its prompt, and says how its turn ended.
	do(t, ctx, waitText("#sessions li .label", "weather/scenario.json"), waitText("#sessions li .prompt", "“What's the weather in Beijing today?”"), waitText("#sessions li .turns", "1 turn, the last done"),
		waitText("#session-title", "reference · weather/scenario.json · “What's the weather in Beijing today?”"))
	if turn := text(t, ctx, "#timeline .row.turn"); !strings.Contains(turn, "turn 1") || !strings.Contains(turn, "What's the weather in Beijing today?") || !strings.Contains(turn, "done") || !strings.Contains(turn, "7 steps") {
		t.Errorf("the turn's row shows %q", turn)
	}
	// The first call, opened from the keyboard: the diff shows the tool the modify added.
	do(t, ctx, chromedp.Focus(css("#timeline")))
	for range 3 { // the hello, the turn, then the first before_llm
		do(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	}
	do(t, ctx, waitText("#detail h2", "weather_plugin hook.before_llm"), waitText("#detail", "What the modify changed"), screenshot("weather.png"))
	if diff := text(t, ctx, "#detail table.diff"); !strings.Contains(diff, "/tools/2") || !strings.Contains(diff, `"name": "get_weather"`) || !strings.Contains(diff, "(absent)") {
		t.Errorf("the diff does not show get_weather added at /tools/2:\n%s", diff)
	}
	// The turn opens on its calls in time: where each began, how long it took.
	do(t, ctx, chromedp.Click(css("#timeline .row.turn .prompt")), waitText("#detail h2", "turn 1"), waitText("#detail h3", "Calls in time"), screenshot("turn.png"))
	spans := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#detail .spans .span")).map(s => s.innerText.replace(/\s+/g, " "))`)
	if len(spans) != 3 || !strings.HasPrefix(spans[0], "before_llm ") || !strings.HasPrefix(spans[1], "before_tool get_weather ") || !strings.HasPrefix(spans[2], "before_llm ") || !strings.HasSuffix(spans[1], " ms") {
		t.Errorf("the turn's spans: %q", spans)
	}
	if !eval[bool](t, ctx, `(() => { const l = Array.from(document.querySelectorAll("#detail .spans .bar")).map(b => b.getBoundingClientRect()); return l.every((r, i) => r.width >= 2 && (i === 0 || r.left > l[i-1].left)) })()`) {
		t.Error("the turn's spans do not follow each other in time")
	}
	// From the keyboard, → unfolds the turn's row and ← folds it.
	do(t, ctx, chromedp.Focus(css("#timeline")), chromedp.KeyEvent(kb.ArrowRight), waitText("#count", "12 of 13"),
		chromedp.KeyEvent(kb.ArrowLeft), waitText("#count", "5 of 13"))
	// The turn unfolds on its steps, each shown once: the agent's
	// llm_request, not the runtime's agent.llm.request besides.
	do(t, ctx, chromedp.Click(css("#timeline .row.turn .fold")), waitText("#count", "12 of 13"), waitText("#timeline .row.turn .fold", "▾ 7 steps"))
	shown := eval[string](t, ctx, `Array.from(document.querySelectorAll("#timeline .row")).map(r => r.innerText).join("\n")`)
	if strings.Count(shown, "llm_request") != 2 || strings.Contains(shown, "agent.llm.request") || strings.Contains(shown, "agent.tool.exec") {
		t.Errorf("the unfolded turn shows:\n%s", shown)
	}
	do(t, ctx, chromedp.Click(css("#timeline .row.turn .fold")), waitText("#count", "5 of 13"),
		chromedp.Click(css("#f-events")), waitText("#count", "13 of 13"), chromedp.Click(css("#f-events")), waitText("#count", "5 of 13"))
	// Filters and the search.
	do(t, ctx, chromedp.Click(css("#f-failed")), waitText("#count", "0 of 13"), chromedp.Click(css("#f-failed")), waitText("#count", "5 of 13"),
		chromedp.SendKeys(css("#f-search"), "respond"), waitText("#count", "1 of 13"))
	eval[bool](t, ctx, `(() => {
		const search = document.querySelector("#f-search"), tool = document.querySelector("#f-tool");
		search.value = ""; search.dispatchEvent(new Event("input"));
		tool.value = "get_weather"; tool.dispatchEvent(new Event("change"));
		return true })()`)
	do(t, ctx, waitText("#count", "1 of 13"))
	// The call again, from its row: the command line runs the hook as the
	// turn did, and gets its reply.
	do(t, ctx, chromedp.Click(css("#timeline .row")), waitText("#detail h2", "get_weather"), waitText("#detail button.copy", "copy as hookwire call"))
	line := text(t, ctx, "#detail pre.call-command")
	if !strings.HasPrefix(line, "hookwire call --name weather_plugin -- python3 weather_plugin.py hook.before_tool '{") {
		t.Fatalf("the call as a command line: %s", line)
	}
	sh := exec.Command("sh", "-c", line)
	sh.Dir = "../../../examples/weather/script"
	sh.Env = append(os.Environ(), "PATH="+filepath.Dir(hookwireBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := sh.CombinedOutput(); err != nil || !strings.Contains(string(out), `"action": "respond"`) || !strings.Contains(string(out), "Beijing weather: Sunny") {
		t.Errorf("%s: %v\n%s", line, err, out)
	}
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
	if row := text(t, ctx, "#timeline .row.failed"); !strings.Contains(row, "before_tool") || !strings.Contains(row, "failed open") || !strings.Contains(row, "stderr 3") {
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
		chromedp.Click(css("#c-send")), waitText("#c-outcome", "respond"))
	eval[bool](t, ctx, `(() => { document.querySelector(".composer").scrollTop = 0; return true })()`)
	do(t, ctx, screenshot("composer.png"))
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
	do(t, ctx, chromedp.EmulateViewport(420, 800), chromedp.Navigate(srv.URL()), waitText("#count", "5 of 13"),
		chromedp.Click(css(`#timeline .row[data-seq="3"]`)), waitText("#detail", "Request"), screenshot("narrow.png"))
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

// colour is the computed colour and background of the element of sel.
func colour(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return "none"; const c = getComputedStyle(e); return c.color + " on " + c.backgroundColor })()`, sel))
}

// The approval gate of examples/approval-gate refuses four of the five
// commands of its scenario: each refusal is a deny, coloured as one, with
// the command and the gate's reason on its row, and the session counts them.
func TestInspectShowsEachDenialWithItsCommandAndReason(t *testing.T) {
	srv := startInspector(t)
	if code, out, errOut := hookwire(t, "", "run", "--hooks", "../../../examples/approval-gate/python/hooks.json", "../../../examples/approval-gate/scenario.json"); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#sessions li", "6 calls · 4 denials · 0 aborts · 0 failures"),
		waitText("#sessions li .prompt", "“Free some disk space: clear out the build folder and wipe the spare disk.”"),
		waitText("#count", "7 of"))
	calls := eval[[]string](t, ctx, callRows)
	want := []string{
		"approval_gate hello answered",
		"approval_gate approve_tool shell ls -la build 2>/dev/null approved",
		"approval_gate approve_tool shell rm -rf build denied a recursive forced delete (rm -rf) is not allowed: rm -rf build",
		"approval_gate approve_tool shell mkfs.ext4 /dev/sdb1 denied formatting a file system (mkfs) is not allowed",
		"approval_gate approve_tool shell dd if=/dev/zero of=/dev/sdb bs=1M denied a raw copy with dd",
		"approval_gate approve_tool shell echo wiped > /dev/sdb denied a write to a device",
	}
	if len(calls) != len(want) {
		t.Fatalf("the timeline shows %d calls, want %d: %q", len(calls), len(want), calls)
	}
	for i, w := range want {
		if !strings.Contains(calls[i], w) {
			t.Errorf("call %d shows %q, want %q", i, calls[i], w)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#timeline .row.v-deny .action.badge.v-deny").length`); n != 4 {
		t.Errorf("%d rows have a deny's badge, want 4", n)
	}
	approved, denied := colour(t, ctx, `#timeline .row[data-seq="3"] .action`), colour(t, ctx, "#timeline .row.v-deny .action")
	if approved == denied {
		t.Errorf("a denial's badge looks as an approval's: %s", denied)
	}
	if c := colour(t, ctx, "#sessions li .n-deny"); c == colour(t, ctx, "#sessions li .calls") {
		t.Errorf("the session's denials look as its calls: %s", c)
	}
	// Until a row is opened, the session's tools at a glance.
	if shell := eval[string](t, ctx, `(document.querySelector('#detail table.tools tr[data-tool="shell"]') || {}).innerText || ""`); !strings.HasPrefix(strings.Join(strings.Fields(shell), " "), "shell 5 4 0 0 ") {
		t.Errorf("the tools' summary shows shell as %q, want 5 calls, 4 denied", shell)
	}
	do(t, ctx, screenshot("tools.png"))
	do(t, ctx, chromedp.Click(css(`#timeline .row.v-deny`)), waitText("#detail p.reason", "a recursive forced delete"), screenshot("deny.png"))
}

// A session with everything that can go wrong: an abort, a failure with a
// long traceback, a hook's prints on its stdout; each is its own colour,
// counted apart, and the search finds what only a request's body holds.
func TestInspectShowsAbortsFailuresAndJunkApartAndSearchesTheBodies(t *testing.T) {
	srv := startInspector(t)
	pub := feed.Open(feed.Info{Kind: "run", Host: "reference", Command: "guard: python3 guard.py"})
	step := func(name, data string) {
		pub.Publish(feed.Item{Type: "event", Name: name, Data: json.RawMessage(data)})
	}
	call := func(id, method, params, result string) {
		pub.Wire("guard", true, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"`+method+`","params":`+params+`}`))
		pub.Wire("guard", false, []byte(`{"jsonrpc":"2.0","id":`+id+`,"result":`+result+`}`))
		pub.Call(runtime.CallRecord{Hook: "guard", Method: method, Duration: time.Millisecond})
	}
	step("user", `{"type":"user","content":"Tidy my notes."}`)
	call("1", "hook.before_tool", `{"tool":"write_file","arguments":{"file_path":"notes.txt","content":"root:x:0:0 copied from /etc/passwd"},"canonical":{"kind":"write","path":"notes.txt"}}`, `{"action":"continue"}`)
	pub.Wire("guard", false, []byte("debug: looking at notes.txt"))
	call("2", "hook.before_tool", `{"tool":"shell","arguments":{"command":"rm notes.txt"}}`, `{"action":"deny_tool","reason":"no deletes"}`)
	call("3", "hook.before_tool", `{"tool":"shell","arguments":{"command":"shred notes.txt"}}`, `{"action":"abort_turn","reason":"the user asked for no deletes"}`)
	step("turn_end", `{"type":"turn_end","status":"aborted","by":"guard","reason":"the user asked for no deletes"}`)
	step("user", `{"type":"user","content":"Then read them."}`)
	pub.Wire("guard", true, []byte(`{"jsonrpc":"2.0","id":4,"method":"hook.before_tool","params":{"tool":"read_file","arguments":{"file_path":"notes.txt"}}}`))
	var traceback []string
	traceback = append(traceback, "Traceback (most recent call last):")
	for i := range 60 {
		traceback = append(traceback, fmt.Sprintf("  File \"guard.py\", line %d, in frame_%d", i+1, i))
	}
	traceback = append(traceback, "KeyError: 'the last line says what went wrong'")
	for _, l := range traceback {
		pub.Publish(feed.Item{Type: "stderr", Hook: "guard", Text: l})
	}
	pub.Call(runtime.CallRecord{Hook: "guard", Method: "hook.before_tool", Err: errors.New("hook exited with status 1"), Policy: "open"})
	step("turn_end", `{"type":"turn_end","status":"done","answer":"Read."}`)
	pub.Close()

	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#sessions li", "4 calls · 1 denial · 1 abort · 1 failure · 1 junk line"),
		waitText("#sessions li .label", "“Tidy my notes.”"), waitText("#sessions li .turns", "2 turns, the last done"))
	if row := text(t, ctx, "#timeline .row.v-abort"); !strings.Contains(row, "shred notes.txt") || !strings.Contains(row, "abort_turn") || !strings.Contains(row, "the user asked for no deletes") {
		t.Errorf("the abort's row shows %q", row)
	}
	if row := text(t, ctx, "#timeline .row.v-junk"); !strings.Contains(row, "not JSON-RPC") || !strings.Contains(row, "debug: looking at notes.txt") {
		t.Errorf("the junk line's row shows %q", row)
	}
	if turn := text(t, ctx, "#timeline .row.turn"); !strings.Contains(turn, "aborted") || !strings.Contains(turn, "by hook guard: the user asked for no deletes") {
		t.Errorf("the first turn's row shows %q", turn)
	}
	// Four colours, one for each verdict and one for the rest.
	looks := map[string]string{}
	for _, sel := range []string{`#timeline .row[data-seq="2"] .action`, "#timeline .row.v-deny .action", "#timeline .row.v-abort .action", "#timeline .row.v-failed .action", "#timeline .row.v-junk .badge"} {
		c := colour(t, ctx, sel)
		if other, ok := looks[c]; ok {
			t.Errorf("%s looks as %s: %s", sel, other, c)
		}
		looks[c] = sel
	}
	for _, sel := range []string{"#sessions li .n-deny", "#sessions li .n-abort", "#sessions li .failures", "#sessions li .n-junk"} {
		if c := colour(t, ctx, sel); c == colour(t, ctx, "#sessions li .calls") {
			t.Errorf("%s looks as the calls' count: %s", sel, c)
		}
	}
	// The failed call's traceback shows its last line.
	do(t, ctx, chromedp.Click(css("#timeline .row.v-failed")), waitText("#detail pre.stderr", "KeyError"), screenshot("trouble.png"))
	if !eval[bool](t, ctx, `(() => {
		const pre = document.querySelector("#detail pre.stderr"), r = document.createRange(), text = pre.firstChild;
		r.setStart(text, text.length - 10); r.setEnd(text, text.length);
		const last = r.getBoundingClientRect(), box = pre.getBoundingClientRect();
		return last.top >= box.top && last.bottom <= box.bottom && last.bottom <= window.innerHeight })()`) {
		t.Error("the traceback's last line is out of view")
	}
	// The search finds the call whose request holds /etc/passwd, which its row does not show.
	do(t, ctx, chromedp.SendKeys(css("#f-search"), "passwd"), waitText("#count", "1 of"))
	if row := text(t, ctx, "#timeline .row"); !strings.Contains(row, "write_file") || !strings.Contains(row, "notes.txt") {
		t.Errorf("the search of passwd shows %q", row)
	}
	// The problems: the failure and the junk line.
	eval[bool](t, ctx, `(() => { const q = document.querySelector("#f-search"); q.value = ""; return q.dispatchEvent(new Event("input")) })()`)
	do(t, ctx, chromedp.Click(css("#f-failed")), waitText("#count", "2 of"))
}

// A page with no session says how to get one onto it.
func TestInspectSaysHowToGetSessionsOntoAnEmptyPage(t *testing.T) {
	srv := startInspector(t)
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#status", "live"), waitText("#empty", "No session yet"), screenshot("empty.png"))
	empty := text(t, ctx, "#empty")
	for _, want := range []string{"hookwire run --hooks hooks.json scenario.json", "hookwire-bridge claude-code -- python3 guard.py", "hookwire tap -- python3 guard.py", "Open recording…", "hookwire run --trace FILE"} {
		if !strings.Contains(empty, want) {
			t.Errorf("the empty page does not say %q:\n%s", want, empty)
		}
	}
	// A session takes its place.
	pub := feed.Open(feed.Info{Kind: "run", Host: "reference"})
	pub.Close()
	do(t, ctx, waitText("#sessions li", "0 calls"))
	if eval[bool](t, ctx, `!document.querySelector("#empty").hidden`) {
		t.Error("the help is still shown beside a session")
	}
}
