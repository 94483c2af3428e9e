package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/hookwire/hookwire/core/inspect"
)

// startInspectorWith serves an inspector of opts, whose socket the
// producers of this test find through HOOKWIRE_INSPECT_SOCKET.
func startInspectorWith(t *testing.T, opts inspect.Options) *inspect.Server {
	t.Helper()
	opts.Socket = filepath.Join(t.TempDir(), "hookwire", "inspect.sock")
	t.Setenv("HOOKWIRE_INSPECT_SOCKET", opts.Socket)
	srv, err := inspect.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// The composer runs an allowed command in the folder the user chose among
// those of --allow-dir, with the variables of --allow-env: the hook says
// where it ran and what it was given. A folder or a variable the inspector
// was not started with is refused, and the page says which flag allows it.
func TestInspectComposerRunsAHookInAnAllowedFolderWithAnAllowedVariable(t *testing.T) {
	// The same hook in two folders: which one runs is the folder's.
	folder, elsewhere := filepath.Join(t.TempDir(), "hooks"), filepath.Join(t.TempDir(), "elsewhere")
	script, err := os.ReadFile("testdata/inspect/where.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{folder, elsewhere} {
		os.Mkdir(d, 0o700)
		os.WriteFile(filepath.Join(d, "where.py"), script, 0o600)
	}
	srv := startInspectorWith(t, inspect.Options{Allow: [][]string{{"python3", "where.py"}}, AllowDirs: []string{folder}, AllowEnv: []string{"HOOK_MODE"}})
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), chromedp.Click(css("#tab-composer")), waitText("#c-method", "hook.before_tool"),
		waitText(".env-hint", "or another of those of --allow-dir"), waitText(".env-hint", "it sets only HOOK_MODE"),
		chromedp.SetValue(css("#c-command"), "python3 where.py"),
		chromedp.SetValue(css("#c-dir"), elsewhere),
		chromedp.Click(css("#c-send")), waitText("#c-outcome", "--allow-dir"),
		chromedp.SetValue(css("#c-dir"), folder),
		chromedp.SetValue(css("#c-env"), "HOOK_MODE=strict\nLD_PRELOAD=/tmp/evil.so"),
		chromedp.Click(css("#c-send")), waitText("#c-outcome", "refused: LD_PRELOAD chooses the program"),
		chromedp.SetValue(css("#c-env"), "HOOK_MODE=strict"),
		chromedp.Click(css("#c-send")), waitText("#c-outcome", "deny_tool"))
	if reply := text(t, ctx, "#c-reply pre.reply"); !strings.Contains(reply, "in hooks with HOOK_MODE=strict") {
		t.Errorf("the hook says %q, want it ran in the folder hooks with HOOK_MODE=strict", reply)
	}
	if offered := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#allowed-dirs option")).map(o => o.value)`); len(offered) != 2 || offered[1] != folder {
		t.Errorf("the folders offered: %q, want the inspector's and %s", offered, folder)
	}
	eval[bool](t, ctx, `(() => { document.querySelector(".composer").scrollTop = 0; return true })()`)
	do(t, ctx, screenshot("composer-folder.png"))
}

// A live session of hookwire run is named by its scenario and its prompt;
// Export recording downloads it as the recording hookwire replay reads,
// and the hook's replay matches every call; the page replays it too; and
// a call of it opens in the composer, which sends it again.
func TestInspectExportsALiveSessionThatHookwireReplayPlays(t *testing.T) {
	srv := startInspector(t, weatherHook)
	if code, out, errOut := hookwire(t, "", "run", "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	ctx := browser(t)
	do(t, ctx, chromedp.Navigate(srv.URL()), waitText("#count", "5 of 13"),
		waitText("#sessions li .label", "weather/scenario.json"), waitText("#sessions li .prompt", "“What's the weather in Beijing today?”"),
		waitText("#replay-bar", "Export recording"), screenshot("sessions.png"))
	href := eval[string](t, ctx, `document.querySelector("#export").href`)
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("Export recording: status %d, %v\n%s", resp.StatusCode, resp.Header, body)
	}
	recording := filepath.Join(t.TempDir(), "session.jsonl")
	os.WriteFile(recording, body, 0o600)
	code, out, errOut := hookwire(t, "", "replay", recording, "--", "python3", "../../../examples/weather/script/weather_plugin.py")
	if code != exitOK || strings.Count(out, "MATCH") != 3 {
		t.Fatalf("hookwire replay of the exported session: exit %d\n%s%s\nthe recording:\n%s", code, out, errOut, body)
	}
	// The live session replays from the page as a recording does.
	do(t, ctx, chromedp.SetValue(css("#replay-command"), weatherHook), chromedp.Click(css("#replay-run")),
		waitText("#replay-summary", "all 3 calls match"))
	// Its before_tool call, opened in the composer: the method, the
	// params as the run sent them, and the one command the inspector may
	// run; sent again, it answers as it did.
	do(t, ctx, chromedp.Click(css(`#timeline .row[data-seq="3"]`)), waitText("#detail h2", "hook.before_llm"))
	eval[bool](t, ctx, `(() => { const tool = document.querySelector("#f-tool"); tool.value = "get_weather"; tool.dispatchEvent(new Event("change")); return true })()`)
	do(t, ctx, waitText("#count", "1 of 13"), chromedp.Click(css("#timeline .row")), waitText("#detail h2", "get_weather"),
		chromedp.Click(css("#detail button.compose")), waitText("#c-reply", "from the session's row"))
	if got := eval[[]string](t, ctx, `[document.querySelector("#c-method").value, document.querySelector("#c-command").value, document.querySelector("#c-field-tool").value, document.querySelector("#c-field-arguments").value.replace(/\s+/g, "")]`); got[0] != "hook.before_tool" || got[1] != weatherHook || got[2] != "get_weather" || got[3] != `{"city":"Beijing"}` {
		t.Errorf("the composer opened on %q", got)
	}
	do(t, ctx, chromedp.Click(css("#c-send")), waitText("#c-outcome", "respond"))
}
