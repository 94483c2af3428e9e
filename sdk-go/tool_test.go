package hookwire

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

type weatherArgs struct {
	City string `json:"city" desc:"City name, e.g.: Beijing, Shanghai, Guangzhou"`
}

func weatherHook(t *testing.T) (*Hook, *logBuffer) {
	h, logs := newTestHook("weather")
	AddTool(h, "get_weather", "Query weather information for a specified city",
		func(_ context.Context, in weatherArgs) (ToolResult, error) {
			switch in.City {
			case "Beijing":
				return Text("Beijing weather: Sunny, temperature 15°C"), nil
			case "Atlantis":
				return ToolResult{}, errors.New("the weather service does not know Atlantis")
			case "Crash":
				panic("weather bug")
			}
			return ErrorText("Weather data not found for city " + in.City), nil
		})
	return h, logs
}

func TestATypedToolBecomesAnOpenAIFunctionWithTheSchemaOfItsStruct(t *testing.T) {
	type inner struct {
		Lat float64 `json:"lat"`
	}
	type Embedded struct {
		Trace bool `json:"trace,omitzero"`
	}
	type args struct {
		Embedded
		Query   string            `json:"query" desc:"What to look for"`
		Limit   *int              `json:"limit,omitempty"`
		Tags    []string          `json:"tags,omitempty" desc:"Labels"`
		Where   inner             `json:"where" desc:"A place"`
		Headers map[string]string `json:"headers,omitempty"`
		Since   time.Time         `json:"since,omitzero"`
		Raw     json.RawMessage   `json:"raw,omitempty"`
		NoTag   uint8
		Skipped string `json:"-"`
		private string
	}
	h := New("t")
	AddTool(h, "search", "Search things", func(context.Context, args) (ToolResult, error) { return Text(""), nil })
	got, err := h.tools[0].def.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"type":"function","function":{"name":"search","description":"Search things","parameters":{
		"type":"object",
		"properties":{
			"trace":{"type":"boolean"},
			"query":{"type":"string","description":"What to look for"},
			"limit":{"type":"integer"},
			"tags":{"type":"array","items":{"type":"string"},"description":"Labels"},
			"where":{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"],"description":"A place"},
			"headers":{"type":"object","additionalProperties":{"type":"string"}},
			"since":{"type":"string"},
			"raw":{},
			"NoTag":{"type":"integer"}
		},
		"required":["query","where","NoTag"]}}}`)
}

func TestAToolWhoseArgumentsHaveNoJSONFormPanicsWhenAdded(t *testing.T) {
	type node struct {
		Next *node `json:"next"`
	}
	for name, add := range map[string]func(h *Hook){
		"not a struct": func(h *Hook) {
			AddTool(h, "x", "", func(context.Context, string) (ToolResult, error) { return Text(""), nil })
		},
		"channel": func(h *Hook) {
			AddTool(h, "x", "", func(context.Context, struct{ C chan int }) (ToolResult, error) { return Text(""), nil })
		},
		"recursive": func(h *Hook) {
			AddTool(h, "x", "", func(context.Context, node) (ToolResult, error) { return Text(""), nil })
		},
		"twice": func(h *Hook) {
			AddTool(h, "x", "", func(context.Context, struct{}) (ToolResult, error) { return Text(""), nil })
			AddTool(h, "x", "", func(context.Context, struct{}) (ToolResult, error) { return Text(""), nil })
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(v.(string), `AddTool("x")`) {
					t.Errorf("recovered %v, want a panic naming the tool", v)
				}
			}()
			add(New("h"))
		})
	}
}

func TestBeforeLLMGetsTheToolAppendedToTheWholeRequest(t *testing.T) {
	h, _ := weatherHook(t)
	got, err := h.Call(ctx, MethodBeforeLLM, json.RawMessage(`{
		"meta":{"AgentID":"main","TurnID":"t1","Iteration":1},
		"context":{"inbound":{"channel":"cli"}},
		"model":"m","messages":[{"role":"user","content":"weather?"}],
		"tools":[{"type":"function","function":{"name":"exec","description":"run","parameters":{"type":"object"}}}],
		"options":{"max_tokens":4096},"channel":"cli","chat_id":"direct","x-host":{"kept":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"modify","request":{
		"meta":{"AgentID":"main","TurnID":"t1","Iteration":1},
		"context":{"inbound":{"channel":"cli"}},
		"model":"m","messages":[{"role":"user","content":"weather?"}],
		"tools":[
			{"type":"function","function":{"name":"exec","description":"run","parameters":{"type":"object"}}},
			{"type":"function","function":{"name":"get_weather","description":"Query weather information for a specified city","parameters":{
				"type":"object",
				"properties":{"city":{"type":"string","description":"City name, e.g.: Beijing, Shanghai, Guangzhou"}},
				"required":["city"]}}}],
		"options":{"max_tokens":4096},"channel":"cli","chat_id":"direct","x-host":{"kept":true}}}`)
}

func TestAToolTheRequestListsAlreadyIsNotListedTwice(t *testing.T) {
	h, _ := weatherHook(t)
	got, err := h.Call(ctx, MethodBeforeLLM, json.RawMessage(`{"model":"m","messages":[],
		"tools":[{"type":"function","function":{"name":"get_weather"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"modify","request":{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"get_weather"}}]}}`)
}

func TestToolsJoinTheModifyOfTheHooksOwnBeforeLLMHandlerAndLeaveAnAbortAlone(t *testing.T) {
	h, _ := weatherHook(t)
	h.OnBeforeLLM(func(_ context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
		if req.Model == "forbidden" {
			return AbortTurn{Reason: Ptr("no")}, nil
		}
		req.Model = "cheaper"
		return req.Modify(), nil
	})
	got, err := h.Call(ctx, MethodBeforeLLM, json.RawMessage(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := DecodeBeforeLLMResult(got)
	if err != nil {
		t.Fatal(err)
	}
	m := res.(BeforeLLMModify)
	if m.Request.Model != "cheaper" || len(m.Request.Tools) != 1 || m.Request.Tools[0].Function.Name != "get_weather" {
		t.Errorf("got %s", got)
	}
	got, err = h.Call(ctx, MethodBeforeLLM, json.RawMessage(`{"model":"forbidden","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"abort_turn","reason":"no"}`)
}

func TestBeforeToolAnswersTheToolWithRespond(t *testing.T) {
	h, _ := weatherHook(t)
	got, err := h.Call(ctx, MethodBeforeTool, BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": "Beijing"}})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"respond","result":{"for_llm":"Beijing weather: Sunny, temperature 15°C"}}`)
}

func TestArgumentsThatDoNotFitTheSchemaGetAnErrorResultNamingTheArgument(t *testing.T) {
	h, _ := weatherHook(t)
	type deep struct {
		Points []struct {
			X int `json:"x"`
		} `json:"points"`
		Opts map[string]bool `json:"opts,omitempty"`
		Note *string         `json:"note,omitempty"`
	}
	AddTool(h, "plot", "", func(context.Context, deep) (ToolResult, error) { return Text("plotted"), nil })
	for _, c := range []struct{ tool, args, want string }{
		{"get_weather", `{}`, `invalid arguments for get_weather: argument "city" is missing`},
		{"get_weather", `{"city":42}`, `invalid arguments for get_weather: argument "city" must be a string, not 42`},
		{"get_weather", `{"city":null}`, `invalid arguments for get_weather: argument "city" must be a string, not null`},
		{"plot", `{"points":[{"x":1},{"x":1.5}]}`, `invalid arguments for plot: argument "points[1].x" must be an integer, not 1.5`},
		{"plot", `{"points":{}}`, `invalid arguments for plot: argument "points" must be an array, not an object`},
		{"plot", `{"points":[],"opts":{"a":true,"b":"yes"}}`, `invalid arguments for plot: argument "opts.b" must be a boolean, not "yes"`},
		{"plot", `{"points":[{"x":300000000000000000000000}]}`, `invalid arguments for plot: json: cannot unmarshal number 3e+23 into Go struct field .points.x of type int`},
	} {
		got, err := h.Call(ctx, MethodBeforeTool, json.RawMessage(`{"tool":"`+c.tool+`","arguments":`+c.args+`}`))
		if err != nil {
			t.Fatal(err)
		}
		r, _ := DecodeBeforeToolResult(got)
		res, ok := r.(Respond)
		if !ok || res.Result.IsError == nil || !*res.Result.IsError || res.Result.ForLLM != c.want {
			t.Errorf("%s %s: got %s\nwant an is_error result %q", c.tool, c.args, got, c.want)
		}
	}
	got, err := h.Call(ctx, MethodBeforeTool, json.RawMessage(`{"tool":"plot","arguments":{"points":[{"x":2}],"note":null,"extra":"ignored"}}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"respond","result":{"for_llm":"plotted"}}`)
}

func TestAFailingToolIsAnErrorResultAndTheFailureIsLogged(t *testing.T) {
	h, logs := weatherHook(t)
	for city, want := range map[string]string{
		"Atlantis": "the weather service does not know Atlantis",
		"Crash":    "get_weather failed: panic: weather bug",
		"Paris":    "Weather data not found for city Paris",
	} {
		got, err := h.Call(ctx, MethodBeforeTool, BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": city}})
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		jsonEqual(t, got, `{"action":"respond","result":{"for_llm":`+string(wantJSON)+`,"is_error":true}}`)
	}
	if !strings.Contains(logs.String(), "does not know Atlantis") || !strings.Contains(logs.String(), "tool_test.go") {
		t.Errorf("the failure and the panic's stack are not on the log: %q", logs)
	}
}

func TestOtherToolsPassThroughUntouchedOrToTheHooksOwnHandler(t *testing.T) {
	h, _ := weatherHook(t)
	call := BeforeToolParams{Tool: "exec", Arguments: map[string]any{"command": "ls"}}
	got, err := h.Call(ctx, MethodBeforeTool, call)
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"continue"}`)

	h.OnBeforeTool(func(_ context.Context, call BeforeToolParams) (BeforeToolResult, error) {
		if call.Tool == "get_weather" {
			t.Error("the plugin tool's call reached the hook's handler")
		}
		return DenyTool{Reason: "no " + call.Tool}, nil
	})
	got, err = h.Call(ctx, MethodBeforeTool, call)
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"deny_tool","reason":"no exec"}`)
	if _, err := h.Call(ctx, MethodBeforeTool, BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": "Beijing"}}); err != nil {
		t.Fatal(err)
	}
}

func TestAToolGetsTheRequestsContext(t *testing.T) {
	h := New("h")
	type key struct{}
	AddTool(h, "who", "", func(ctx context.Context, _ struct{}) (ToolResult, error) {
		return Text(ctx.Value(key{}).(string)), nil
	})
	got, err := h.Call(context.WithValue(ctx, key{}, "me"), MethodBeforeTool, BeforeToolParams{Tool: "who", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"respond","result":{"for_llm":"me"}}`)
}
