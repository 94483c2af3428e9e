package policy

import (
	"reflect"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"

	sdk "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/shell"
)

// The variables a rule sees, all of every call: a member the call does
// not have is "" or empty, never missing.
//
//	tool       string            the tool, as the agent names it (Bash, run_shell_command, exec)
//	kind       string            what it does: shell, read, write, edit, list, search, fetch, web_search, agent, mcp, other
//	arguments  map(string, dyn)  the tool's arguments
//	command    string            a shell tool's command line
//	path, url, pattern, server   the file, the address, the search, an MCP tool's server
//	commands   list(map)         the programs the command would run, as the shell reads it: each
//	                             {name, args, via, dynamic, redirects: [{op, target}]}
//	unknown    list(map)         what cannot be known without running it: each {reason, text}
//
// and, on a command c, c.has_flag(short, long) (as -r, -rf, --recursive,
// --rec) and c.may_have_flag(short, long), true as well when a word before
// "--" is known only when the shell runs ($FLAGS).
func newEnv() (*cel.Env, error) {
	command := cel.MapType(cel.StringType, cel.DynType)
	flag := func(id string, may bool) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{command, cel.StringType, cel.StringType}, cel.BoolType,
			cel.FunctionBinding(func(args ...ref.Val) ref.Val { return types.Bool(hasFlag(args, may)) }))
	}
	return cel.NewEnv(
		cel.Variable("tool", cel.StringType),
		cel.Variable("kind", cel.StringType),
		cel.Variable("arguments", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("command", cel.StringType),
		cel.Variable("path", cel.StringType),
		cel.Variable("url", cel.StringType),
		cel.Variable("pattern", cel.StringType),
		cel.Variable("server", cel.StringType),
		cel.Variable("commands", cel.ListType(command)),
		cel.Variable("unknown", cel.ListType(cel.MapType(cel.StringType, cel.StringType))),
		cel.Function("has_flag", flag("command_has_flag", false)),
		cel.Function("may_have_flag", flag("command_may_have_flag", true)),
		ext.Strings(),
	)
}

// hasFlag is c.has_flag(short, long), or may_have_flag where may, on the
// command the map c was made from.
func hasFlag(args []ref.Val, may bool) bool {
	c, ok := args[0].(traits.Mapper)
	short, _ := args[1].Value().(string)
	long, _ := args[2].Value().(string)
	if !ok {
		return false
	}
	cmd := shell.Command{}
	if v, found := c.Find(types.String("args")); found {
		if list, err := v.ConvertToNative(reflectStrings); err == nil {
			cmd.Args = list.([]string)
		}
	}
	if v, found := c.Find(types.String("dynamic")); found {
		if list, err := v.ConvertToNative(reflectInts); err == nil {
			cmd.Dynamic = list.([]int)
		}
	}
	var r rune
	for _, ch := range short {
		r = ch
		break
	}
	if cmd.HasFlag(r, long) {
		return true
	}
	if !may {
		return false
	}
	end := slices.Index(cmd.Args, "--")
	if end < 0 {
		end = len(cmd.Args)
	}
	return slices.ContainsFunc(cmd.Dynamic, func(i int) bool { return i > 0 && i < end })
}

// vars are the variables of a rule for one call.
func vars(tool string, arguments map[string]any, use sdk.CanonicalTool) map[string]any {
	text := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	if arguments == nil {
		arguments = map[string]any{}
	}
	v := map[string]any{
		"tool": tool, "kind": use.Kind, "arguments": arguments,
		"command": text(use.Command), "path": text(use.Path), "url": text(use.URL),
		"pattern": text(use.Pattern), "server": text(use.Server),
		"commands": []map[string]any{}, "unknown": []map[string]string{},
	}
	if use.Kind != "shell" {
		return v
	}
	reading := shell.Read(text(use.Command))
	commands := make([]map[string]any, 0, len(reading.Commands))
	for _, c := range reading.Commands {
		redirects := make([]map[string]string, 0, len(c.Redirects))
		for _, r := range c.Redirects {
			redirects = append(redirects, map[string]string{"op": r.Op, "target": r.Target})
		}
		dynamic := c.Dynamic
		if dynamic == nil {
			dynamic = []int{}
		}
		commands = append(commands, map[string]any{"name": c.Name(), "args": c.Args, "via": c.Via, "dynamic": dynamic, "redirects": redirects})
	}
	unknown := make([]map[string]string, 0, len(reading.Unknown))
	for _, u := range reading.Unknown {
		unknown = append(unknown, map[string]string{"reason": u.Reason, "text": u.Text})
	}
	v["commands"], v["unknown"] = commands, unknown
	return v
}

var (
	reflectStrings = reflect.TypeFor[[]string]()
	reflectInts    = reflect.TypeFor[[]int]()
)
