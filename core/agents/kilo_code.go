package agents

// KiloCode is Kilo Code's command line, a fork of OpenCode with its plugin
// API: hookwire's plugin for OpenCode runs in it unchanged, from its own
// plugins folders. Seen in @kilocode/cli 7.7.7, run against a scripted model
// here: a plugin in PROJECT/.kilo/plugins blocks a call by throwing, as in
// OpenCode; its settings are in $XDG_CONFIG_HOME/kilo/kilo.json, in
// OpenCode's schema. Its own reference was not read: what differs from
// OpenCode 1.18.33 beyond the folders is not known here.
var KiloCode = add(&Agent{
	Name:     "kilo-code",
	Title:    "Kilo Code CLI",
	Version:  "7.7.7",
	Document: "OpenCode 1.18.33's plugin hooks, as Kilo Code CLI 7.7.7 (npm @kilocode/cli) ran a plugin of .kilo/plugins here: tool.execute.before, tool.execute.after, chat.message and the event hook's session.idle",
	Replies:  OpenCodeReplies,
	Deadline: OpenCode.Deadline,
	Events:   openCodeEvents,
	Cannot:   openCodeCannot,
	Install: Install{
		Document: "Kilo Code CLI 7.7.7 run here: a plugin of PROJECT/.kilo/plugins is loaded at start",
		Files:    map[Scope]string{Project: ".kilo/plugins/hookwire.js"},
		Layout:   Plugin,
	},
})
