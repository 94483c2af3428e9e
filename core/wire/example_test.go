package wire_test

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// Spawn runs one hook process on its own, without a Runtime: a handshake,
// then calls and notifications of any method. Results come back raw, to be
// read with protocol.DecodeResult.
func ExampleSpawn() {
	ctx := context.Background()
	p, err := wire.Spawn(ctx, wire.Command{
		Name:  "weather_plugin",
		Argv:  []string{"python3", "weather_plugin.py"},
		Dir:   "../../examples/weather/script",
		Modes: []protocol.Mode{protocol.ModeTool},
	}, wire.ProcessOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	fmt.Println("hello:", *p.Hello().Name)

	raw, err := p.Call(ctx, protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": "Atlantis"}})
	if err != nil {
		log.Fatal(err)
	}
	res, err := protocol.DecodeResult(protocol.MethodBeforeTool, raw)
	if err != nil {
		log.Fatal(err)
	}
	respond := res.(protocol.Respond)
	fmt.Println(respond.Result.ForLLM, *respond.Result.IsError)
	// Output:
	// hello: weather-plugin
	// Weather data not found for city Atlantis true
}

// StartChild runs a hook command with no connection: its stdout is the
// caller's to read line by line, as the conformance suite reads it, and
// Stop ends it and whatever it started.
func ExampleCommand_StartChild() {
	c, err := wire.Command{Argv: []string{"python3", "weather_plugin.py"}, Dir: "../../examples/weather/script"}.StartChild(nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(c.Stdin, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"weather","version":1}}`)
	line, err := bufio.NewReader(c.Stdout).ReadBytes('\n')
	if err != nil {
		log.Fatal(err)
	}
	var reply struct {
		ID     int                  `json:"id"`
		Result protocol.HelloResult `json:"result"`
	}
	if err := protocol.Unmarshal(line, &reply); err != nil {
		log.Fatal(err)
	}
	fmt.Println("reply to", reply.ID, "ok:", reply.Result.OK)

	c.Stop(time.Second) // closes its stdin: the hook ends
	fmt.Println("exited with status 0:", c.Success())
	// Output:
	// reply to 1 ok: true
	// exited with status 0: true
}
