// Command calculator is the multi-tool plugin of PicoClaw's plugin tool
// injection guide, written with the hookwire Go SDK: it offers the LLM
// get_weather (canned data, as examples/weather) and calculate in
// before_llm, and answers their calls in before_tool; every other tool call
// passes through. calculate reads arithmetic with the parser of arith.go,
// never by running code: a refused expression is an error result the LLM
// reads. Build it and run it as a hook (see hooks.json):
//
//	go build -o calculator . && go run ../../../core/cmd/hookwire run --hooks hooks.json ../scenario.json
package main

import (
	"context"
	"fmt"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// Simulated weather data.
var weatherData = map[string]struct {
	Temp     int
	Weather  string
	Humidity int
}{
	"Beijing":   {15, "Sunny", 45},
	"Shanghai":  {18, "Cloudy", 60},
	"Guangzhou": {25, "Sunny", 70},
	"Shenzhen":  {26, "Cloudy", 75},
}

type weatherArgs struct {
	City string `json:"city" desc:"City name, e.g.: Beijing, Shanghai, Guangzhou"`
}

func getWeather(_ context.Context, in weatherArgs) (hookwire.ToolResult, error) {
	data, ok := weatherData[in.City]
	if !ok {
		return hookwire.ErrorText("Weather data not found for city " + in.City), nil
	}
	return answer(fmt.Sprintf("%s weather: %s, temperature %d°C, humidity %d%%", in.City, data.Weather, data.Temp, data.Humidity)), nil
}

type calculateArgs struct {
	Expression string `json:"expression" desc:"Mathematical expression, e.g.: 15 * 9 / 5 + 32"`
}

func calculate(_ context.Context, in calculateArgs) (hookwire.ToolResult, error) {
	value, err := evaluate(in.Expression)
	if err != nil {
		// The tool's error result, which the LLM reads: not a Go error,
		// which the SDK would word its own way.
		return hookwire.ErrorText("Calculation error: " + err.Error()), nil
	}
	return answer("Calculation result: " + value), nil
}

// answer is a result that says is_error: false, as the Python and
// TypeScript hooks write it, so that the three answer alike.
func answer(text string) hookwire.ToolResult {
	return hookwire.ToolResult{ForLLM: text, IsError: hookwire.Ptr(false)}
}

func newHook() *hookwire.Hook {
	h := hookwire.New("calculator")
	hookwire.AddTool(h, "get_weather", "Query weather information for a specified city", getWeather)
	hookwire.AddTool(h, "calculate", "Perform mathematical calculations: numbers, + - * / % ** (or ^) and parentheses", calculate)
	return h
}

func main() { newHook().Main() }
