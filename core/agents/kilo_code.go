package agents

// KiloCode is Kilo Code's command line, a fork of OpenCode with its plugin
// API: hookwire's plugin for OpenCode runs in it unchanged, from its own
// plugins folders. Seen in @kilocode/cli 7.7.7 (npm), run against a
// scripted model here with a plugin that records every hook:
//   - a plugin of PROJECT/.kilo/plugins (or .kilocode/plugins) and one of
//     ~/.config/kilo/plugins ($XDG_CONFIG_HOME/kilo/plugins where that is
//     set; the singular plugin folder too) is loaded at start, with no
//     trust asked. One of PROJECT/.opencode/plugins or .opencode/plugin is
//     not, though Kilo's plugins page (kilo.ai/docs/automate/extending/plugins)
//     lists .opencode/plugin/ with .kilo/plugin/, .kilocode/plugin/ and
//     ~/.config/kilo/plugin/.
//   - tool.execute.before(input {tool, sessionID, callID}, output {args})
//     is awaited before a tool; a throw blocks the call, and the error's
//     message is the tool's result the model reads (a chat completions
//     "tool" message) and what `kilo run` prints after "Error:".
//   - tool.execute.after(input {tool, sessionID, callID, args}, output
//     {title, output, metadata}), chat.message(input {sessionID}) and the
//     event hook's session.idle reach the plugin, as in OpenCode 1.18.33.
//   - its settings are the user's $XDG_CONFIG_HOME/kilo/kilo.json
//     (~/.config/kilo/kilo.json), in OpenCode's schema: a custom provider
//     is "provider": {NAME: {"npm": "@ai-sdk/openai-compatible",
//     "options": {"baseURL", "apiKey"}, "models": {...}}}, "model":
//     "NAME/MODEL".
//   - Kilo loads each plugin twice in one `kilo run`, the second time as
//     the run ends (OpenCode 1.18.33 once): a second server of hookwire's
//     plugin starts then, is asked nothing and starts no hook (a hook that
//     records its starts was started once), and ends with Kilo.
var KiloCode = add(&Agent{
	Name:       "kilo-code",
	Title:      "Kilo Code CLI",
	Version:    "7.7.7",
	Document:   "OpenCode's plugin hooks, as Kilo Code CLI 7.7.7 (npm @kilocode/cli; kilo.ai/docs/automate/extending/plugins) passed them to a plugin run here: tool.execute.before (a throw blocks the call, its message is the tool's result), tool.execute.after, chat.message and the event hook's session.idle",
	Replies:    OpenCodeReplies,
	AsksAtOnce: OpenCode.AsksAtOnce,
	Quirks:     openCodeQuirks,
	Deadline:   OpenCode.Deadline,
	Events:     openCodeEvents,
	Cannot:     openCodeCannot,
	Install: Install{
		Document:  "Kilo Code CLI 7.7.7 run here (and its plugins page, kilo.ai/docs/automate/extending/plugins): every .js or .ts file of PROJECT/.kilo/plugins and of ~/.config/kilo/plugins ($XDG_CONFIG_HOME/kilo/plugins where that is set) is loaded at start; PROJECT/.opencode/plugins and .opencode/plugin are not",
		Files:     map[Scope]string{User: ".config/kilo/plugins/hookwire.js", Project: ".kilo/plugins/hookwire.js"},
		Layout:    Plugin,
		XDGConfig: true,
		// kilo run --help: "--pure  run without external plugins"; the
		// binary reads KILO_PURE for it.
		Bypass: &Bypass{Flag: "--pure", Env: "KILO_PURE"},
	},
})
