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
			h := skillHooksProcess(skillhooks.New(hooks))
			h.Logger = slog.New(slog.NewTextHandler(e.stderr, nil))
			// On the real stdio, Run guards stdout and ends on signals; tests
			// that run the command in-process serve their own pipes.
			if e.stdin == os.Stdin && e.stdout == os.Stdout {
				err = h.Run(context.Background())
			} else {
				err = h.Serve(context.Background(), e.stdin, e.stdout)
			}
			if err != nil {
				return e.fail(exitFail, "skill-hooks", err)
			}
			return exitOK
		}
	},
}

// skillHooksProcess is the engine behind the SDK: the engine speaks the
// core's protocol types, the SDK its generated ones, and both have the
// same JSON.
func skillHooksProcess(engine *skillhooks.Engine) *sdk.Hook {
	h := sdk.New("skill_hooks")
	h.OnBeforeLLM(func(ctx context.Context, req sdk.BeforeLLMParams) (sdk.BeforeLLMResult, error) {
		var in protocol.BeforeLLMParams
		if err := convert(req, &in); err != nil {
			return nil, err
		}
		res, err := engine.BeforeLLM(ctx, in)
		if err != nil {
			return nil, err
		}
		modify, ok := res.(protocol.BeforeLLMModify)
		if !ok {
			return sdk.Continue{}, nil
		}
		var out sdk.BeforeLLMParams
		if err := convert(modify.Request, &out); err != nil {
			return nil, err
		}
		return out.Modify(), nil
	})
	h.OnAfterTool(func(ctx context.Context, res sdk.AfterToolParams) (sdk.AfterToolResult, error) {
		var in protocol.AfterToolParams
		if err := convert(res, &in); err != nil {
			return nil, err
		}
		if _, err := engine.AfterTool(ctx, in); err != nil {
			return nil, err
		}
		return sdk.Continue{}, nil
	})
	h.OnEvent(protocol.KindSessionEnd, func(_ context.Context, ev sdk.RuntimeEvent) {
		if ev.Scope.SessionKey != nil {
			engine.EndSession(*ev.Scope.SessionKey)
		}
	})
	return h
}

// convert goes through the protocol's codec, the one that keeps Extra
// members; the SDK's types bring their own methods, which it calls.
func convert(from, to any) error {
	data, err := protocol.Marshal(from)
	if err != nil {
		return err
	}
	return protocol.Unmarshal(data, to)
}
