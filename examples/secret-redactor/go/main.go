// Command secret-redactor masks secrets in what tools return before the
// LLM sees it: an after_tool hook that answers modify with the tool result's
// for_llm and for_user redacted, and continue when there is nothing to mask.
// Build it and run it as a hook (see hooks.json):
//
//	go build -o secret-redactor . && go run ../../../core/cmd/hookwire run --hooks hooks.json ../scenario.json
package main

import (
	"context"
	"fmt"
	"regexp"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// A secret, and what it becomes. Replacements keep the name or the prefix
// that says what kind of secret it was, so the LLM can still tell the user.
var secrets = []struct {
	re   *regexp.Regexp
	mask string
}{
	// PEM private keys, whole.
	{regexp.MustCompile(`-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`), "-----BEGIN ${1}PRIVATE KEY----- *** -----END ${1}PRIVATE KEY-----"},
	// NAME=value and NAME: value where the name ends in a word that says
	// secret: SECRET_KEY=..., DB_PASSWORD: ..., GITHUB_TOKEN=... (but not max_tokens: 10).
	{regexp.MustCompile(`(?i)\b([A-Z0-9_.-]*(?:SECRET|SECRET_?KEY|PASSWORD|PASSWD|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;]+)`), "${1}***"},
	// Tokens with a recognisable prefix, wherever they appear.
	{regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), "${1}***"},                                 // AWS access key ids
	{regexp.MustCompile(`\b(gh[pousr]_)[A-Za-z0-9]{30,}\b`), "${1}***"},                            // GitHub tokens
	{regexp.MustCompile(`\b(github_pat_)[A-Za-z0-9_]{30,}\b`), "${1}***"},                          // GitHub fine-grained tokens
	{regexp.MustCompile(`\b(xox[abprs]-)[A-Za-z0-9-]{10,}`), "${1}***"},                            // Slack tokens
	{regexp.MustCompile(`\b(sk-)[A-Za-z0-9_-]{20,}`), "${1}***"},                                   // OpenAI-style API keys
	{regexp.MustCompile(`\b(eyJ)[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+`), "${1}***"}, // JSON Web Tokens
	{regexp.MustCompile(`(?i)\b(bearer\s+)[A-Za-z0-9._~+/-]{16,}=*`), "${1}***"},                   // Authorization: Bearer ...
}

// redact masks every secret in s and says how many it found.
func redact(s string) (string, int) {
	n := 0
	for _, sec := range secrets {
		s = sec.re.ReplaceAllStringFunc(s, func(m string) string {
			n++
			return sec.re.ReplaceAllString(m, sec.mask)
		})
	}
	return s, n
}

func redactResult(_ context.Context, ran hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
	if ran.Result == nil { // the host sent no result: nothing to mask
		return hookwire.Continue{}, nil
	}
	forLLM, n := redact(ran.Result.ForLLM)
	var forUser *string
	if ran.Result.ForUser != nil {
		masked, m := redact(*ran.Result.ForUser)
		forUser, n = &masked, n+m
	}
	if n == 0 {
		return hookwire.Continue{}, nil
	}
	// The whole object goes back, changed only where secrets were.
	res := ran.Modify()
	res.Result.Result.ForLLM, res.Result.Result.ForUser = forLLM, forUser
	res.Reason = hookwire.Ptr(fmt.Sprintf("masked %d secrets", n))
	return res, nil
}

func newHook() *hookwire.Hook {
	h := hookwire.New("secret-redactor")
	h.OnAfterTool(redactResult)
	return h
}

func main() { newHook().Main() }
