package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/schema"
	"github.com/hookwire/hookwire/core/wire"
	"github.com/hookwire/hookwire/core/wiretap"
)

// Exit codes of call, on top of exitOK (a valid reply) and exitUsage.
const (
	exitInvalid = 1 // the reply does not match the schema
	exitError   = 3 // an error reply, or the hook failed
	exitTimeout = 4 // no reply in time
)

var callCommand = command{
	name: "call",
	args: "[--host picoclaw] [--timeout DURATION] [--name NAME] [--trace] -- COMMAND [ARGS...] METHOD [PARAMS]",
	summary: `Starts the hook COMMAND (directly, with no shell), says hook.hello with the
mode METHOD needs, sends one METHOD request with PARAMS (a JSON object; "-"
reads it from stdin; realistic params of the method when left out), prints
the reply line on stdout and checks it against the schema. A notification
(hook.runtime_event, hook.event) must get no reply. The hook's stderr goes to
stderr as "[NAME] line". Exits 0 for a valid reply, 1 for an invalid one, 3
for an error reply or a hook that failed, 4 when no reply came in time.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		host := fs.String("host", "", `shape the request as this host does: "picoclaw" (meta always whole, empty members left out)`)
		timeout := fs.Duration("timeout", 5*time.Second, "deadline of the hello and of the reply")
		name := fs.String("name", "", "the hook's name in hook.hello (default: the command's base name)")
		trace := fs.Bool("trace", false, "write the wire to stderr, > host to hook, < hook to host")
		return func(args []string, e env) int {
			argv, method, params, err := callArgs(args, e)
			if err != nil {
				return e.fail(exitUsage, "call", err)
			}
			if *host != "" && *host != "picoclaw" {
				return e.fail(exitUsage, "call", fmt.Errorf("--host: unknown host %q (known: picoclaw)", *host))
			}
			if *host == "picoclaw" {
				if params, err = shapePicoClaw(method.Name, params); err != nil {
					return e.fail(exitUsage, "call", err)
				}
			}
			if *name == "" {
				*name = hookName(argv)
			}
			return callHook(wire.Command{Name: *name, Argv: argv}, method, params, *timeout, *trace, e)
		}
	},
}

// callArgs splits COMMAND... METHOD [PARAMS].
func callArgs(args []string, e env) (argv []string, m protocol.MethodInfo, params json.RawMessage, err error) {
	n := len(args)
	if n > 0 && (args[n-1] == "-" || strings.HasPrefix(strings.TrimSpace(args[n-1]), "{")) {
		params, n = json.RawMessage(args[n-1]), n-1
	}
	if n < 2 {
		return nil, m, nil, errors.New("need the hook's command and a method, after -- (see hookwire call --help)")
	}
	m, ok := protocol.Lookup(args[n-1])
	if !ok {
		var names []string
		for _, m := range protocol.Methods {
			names = append(names, m.Name)
		}
		return nil, m, nil, fmt.Errorf("unknown method %q%s (known: %s)", args[n-1], cli.DidYouMean(args[n-1], names), strings.Join(names, ", "))
	}
	if string(params) == "-" {
		var v json.RawMessage
		if err := json.NewDecoder(e.stdin).Decode(&v); err != nil {
			return nil, m, nil, fmt.Errorf("params on stdin: %v", err)
		}
		params = v
	}
	if params == nil {
		params = conformance.Sample(m.Name)
	}
	if params != nil && !json.Valid(params) {
		return nil, m, nil, fmt.Errorf("params are not JSON: %s", params)
	}
	return args[:n-1], m, params, nil
}

// hookName is a name for a hook known by its command only: the base name,
// without extension, of its script (the first argument after the program
// that is a path or has an extension: "python3 hook.py", "node dist/main.js"),
// or else of its program ("./hook -v"); of the command after the last
// "--" when there is one ("hookwire tap --out rec.jsonl -- ./hook").
func hookName(argv []string) string {
	if i := slices.Index(argv, "--"); i >= 0 && i < len(argv)-1 {
		return hookName(argv[i+1:])
	}
	name := argv[0]
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && (strings.Contains(a, "/") || filepath.Ext(a) != "") {
			name = a
			break
		}
	}
	base := filepath.Base(name)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func callHook(cmd wire.Command, method protocol.MethodInfo, params json.RawMessage, timeout time.Duration, trace bool, e env) int {
	reply := wiretap.NewReply(method.Name)
	live := wiretap.Live(e.stderr, wiretap.IsTerminal(e.stderr))
	seen := func(out bool, line []byte) {
		if trace {
			live(cmd.Name, out, line)
		}
		reply.See(out, line)
	}
	if method.Name == protocol.MethodHello {
		var hello protocol.HelloParams
		if params != nil {
			if err := protocol.Unmarshal(params, &hello); err != nil {
				return e.fail(exitUsage, "call", fmt.Errorf("hook.hello params: %v", err))
			}
		}
		if hello.Name != "" {
			cmd.Name = hello.Name
		}
		cmd.Modes, cmd.Extensions = hello.Modes, hello.Extensions
	} else if method.Mode != "" {
		cmd.Modes = []protocol.Mode{method.Mode}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := wire.Spawn(ctx, cmd, wire.ProcessOptions{
		HelloTimeout: timeout,
		Conn:         wire.ConnOptions{Logger: slog.New(cli.NewLogHandler(e.stderr)), Trace: seen},
	})
	if err != nil {
		return e.fail(callFailure(err), "call", err)
	}
	defer p.Close()

	result, callErr := json.RawMessage(nil), error(nil)
	switch {
	case method.Name == protocol.MethodHello:
		result, _ = protocol.Marshal(p.Hello())
	case method.Notification:
		if err := p.Notify(ctx, method.Name, params); err != nil {
			return e.fail(exitError, "call", err)
		}
		p.Close()                // the hook ends once it has read its stdin: any answer is in by then
		if reply.Replies() > 1 { // the first one answered hello
			return e.fail(exitInvalid, "call", fmt.Errorf("%s is a notification, and the hook answered it", method.Name))
		}
		return exitOK
	default:
		cctx, cancel := context.WithTimeoutCause(ctx, timeout, wiretap.NoReply(timeout))
		defer cancel()
		result, callErr = p.Call(cctx, method.Name, params)
	}
	line := reply.Line()
	if line != nil {
		fmt.Fprintf(e.stdout, "%s\n", line)
	}
	var rpcErr *protocol.RPCError
	switch {
	case errors.As(callErr, &rpcErr):
		return e.fail(exitError, "call", fmt.Errorf("%s: the hook answered with an error: %v", method.Name, rpcErr))
	case callErr != nil:
		return e.fail(callFailure(callErr), "call", fmt.Errorf("%s: %w", method.Name, callErr))
	}
	v, err := schema.NewValidator()
	if err != nil {
		return e.fail(exitError, "call", err)
	}
	check := func() error { return v.ValidateResult(method.Name, result) }
	if line != nil { // the whole reply, envelope and all
		check = func() error { return v.Validate(line, method.Name) }
	}
	if err := check(); err != nil {
		return e.fail(exitInvalid, "call", fmt.Errorf("the reply does not match the schema: %v", err))
	}
	return exitOK
}

func callFailure(err error) int {
	if errors.Is(err, context.DeadlineExceeded) {
		return exitTimeout
	}
	return exitError
}

// picoClawMeta are the keys of meta, which PicoClaw always writes whole.
var picoClawMeta = []string{"AgentID", "TurnID", "ParentTurnID", "SessionKey", "Iteration", "TracePath", "Source"}

// picoClawZero are the values PicoClaw writes for members it always
// writes, when they are empty.
var picoClawZero = map[string]any{
	"model": "", "tool": "", "duration": 0,
	"AgentID": "", "TurnID": "", "ParentTurnID": "", "SessionKey": "", "Iteration": 0, "TracePath": "", "Source": "",
}

func shapePicoClaw(method string, params json.RawMessage) (json.RawMessage, error) {
	members := host.PicoClaw.Writes(method)
	if members == nil {
		return params, nil
	}
	in := map[string]any{}
	if params != nil {
		d := json.NewDecoder(bytes.NewReader(params))
		d.UseNumber() // numbers pass as written
		if err := d.Decode(&in); err != nil {
			return nil, fmt.Errorf("params: %v", err)
		}
	}
	meta, _ := in["meta"].(map[string]any)
	in["meta"] = object(picoClawMeta, func(k string) (any, bool) {
		if v, ok := meta[k]; ok {
			return v, true
		}
		return picoClawZero[k], true
	})
	return object(members, func(name string) (any, bool) {
		always := strings.HasPrefix(name, "!")
		v, ok := in[strings.TrimPrefix(name, "!")]
		switch {
		case always && !ok:
			return picoClawZero[name[1:]], true
		case !always && (!ok || wiretap.Empty(v)):
			return nil, false
		}
		return v, true
	}), nil
}

// object writes the members keys names, in that order (as Go writes a
// struct), with the values that value gives, leaving out those it refuses.
func object(keys []string, value func(key string) (any, bool)) json.RawMessage {
	b := []byte{'{'}
	for _, k := range keys {
		v, ok := value(k)
		if !ok {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(strings.TrimPrefix(k, "!"))
		val, _ := json.Marshal(v)
		b = append(b, key...)
		b = append(append(b, ':'), val...)
	}
	return append(b, '}')
}
