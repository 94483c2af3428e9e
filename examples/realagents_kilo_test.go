package examples

import "github.com/hookwire/hookwire/core/agents"

// Kilo Code CLI, an OpenCode fork with its plugin API, run as OpenCode is
// (realagents_opencode_test.go): its own program, its plugins folder
// (.kilo/plugins, from its agent file) and its own settings file, in
// OpenCode's schema with Kilo's $schema.

const kiloCodeVersion = "7.7.7"

var kiloCode = openCodeFork{agents.KiloCode, kiloCodeVersion, "kilo", ".config/kilo/kilo.json", "https://app.kilo.ai/config.json"}
