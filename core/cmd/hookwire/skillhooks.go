package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/skillhooks"
	sdk "github.com/hookwire/hookwire/sdk-go"
)

var skillHooksCommand = command{
	name: "skill-hooks",
	args: "[--skills LIST] [--check] SKILLS_DIR",
	summary: `Runs the prompt hooks of skills as a hook process, for any host of the
protocol: it reads SKILLS_DIR/<skill>/hooks/hooks.json and its prompt files,
then speaks the protocol on stdin and stdout, inserting the prompts into
hook.before_llm requests by their timing and noting tools in hook.after_tool.
Configure the host to intercept before_llm and after_tool. A fault in a
hooks.json is one line on stderr, naming the skill, the hook and the field,
and exit status 1.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		skills := fs.String("skills", "", "the enabled skills, comma-separated; every folder of SKILLS_DIR when empty")
		check := fs.Bool("check", false, "load the hooks, list them and exit")
		return func(args []string, e env) int {
			if len(args) != 1 {
				return e.fail(exitUsage, "skill-hooks", errors.New("need exactly one skills folder (see hookwire skill-hooks --help)"))
			}
			var enabled []string
			if *skills != "" {
				for _, s := range strings.Split(*skills, ",") {
					enabled = append(enabled, strings.TrimSpace(s))
				}
			}
			hooks, err := skillhooks.Load(args[0], enabled)
			if err != nil {
				return e.fail(exitFail, "skill-hooks", err)
			}
			if *check {
				for _, h := range hooks {
					timing := string(h.Timing)
					if h.ToolFilter != nil {
						timing += " (" + strings.Join(h.ToolFilter, ", ") + ")"
					}
					fmt.Fprintf(e.stdout, "%s/%s: %s, %s, %s\n", h.Skill, h.Name, timing, h.Role, map[bool]string{true: "persistent", false: "not persistent"}[h.Persistent])
				}
				return exitOK
			}
			if err := serveHook(skillHooksProcess(skillhooks.New(hooks)), e); err != nil {
				return e.fail(exitFail, "skill-hooks", err)
			}
			return exitOK
		}
	},
}

// skillHooksProcess is the engine behind the SDK. The engine plans with
// plain values (who calls, how many messages) and places its messages in
// a list of any type, so the SDK's own types need no conversion.
func skillHooksProcess(engine *skillhooks.Engine) *sdk.Hook {
	h := sdk.New("skill_hooks")
	h.OnBeforeLLM(func(_ context.Context, req sdk.BeforeLLMParams) (sdk.BeforeLLMResult, error) {
		session, turn := ids(req.Meta)
		ins := engine.Plan(skillhooks.Request{SessionKey: session, TurnID: turn, Messages: len(req.Messages),
			Planning: req.Planning != nil && *req.Planning, Tools: len(req.Tools) > 0})
		if len(ins) == 0 {
			return sdk.Continue{}, nil
		}
		req.Messages = skillhooks.Insert(req.Messages, ins, func(role, content string) sdk.Message {
			return sdk.Message{Role: role, Content: &content}
		})
		return req.Modify(), nil
	})
	h.OnAfterTool(func(_ context.Context, res sdk.AfterToolParams) (sdk.AfterToolResult, error) {
		session, turn := ids(res.Meta)
		engine.ToolRan(session, turn, res.Tool)
		return sdk.Continue{}, nil
	})
	h.OnEvent(protocol.KindSessionEnd, func(_ context.Context, ev sdk.RuntimeEvent) {
		if ev.Scope.SessionKey != nil {
			engine.EndSession(*ev.Scope.SessionKey)
		}
	})
	return h
}

// ids are the session and turn of a call, by its meta.
func ids(meta *sdk.Meta) (sessionKey, turnID string) {
	if meta == nil {
		return "", ""
	}
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	return deref(meta.SessionKey), deref(meta.TurnID)
}

// serveHook speaks the protocol for a hook of the SDK, logging to stderr.
// On the real stdio, Run guards stdout and ends on signals; tests that run
// a command in-process serve their own pipes.
func serveHook(h *sdk.Hook, e env) error {
	h.Logger = slog.New(slog.NewTextHandler(e.stderr, nil))
	if e.stdin == os.Stdin && e.stdout == os.Stdout {
		return h.Run(context.Background())
	}
	return h.Serve(context.Background(), e.stdin, e.stdout)
}
