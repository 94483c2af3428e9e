// Command weather is the weather plugin of PicoClaw's plugin tool injection
// guide, written with the hookwire Go SDK: it offers the LLM a get_weather
// tool in before_llm and answers its calls in before_tool; every other tool
// call passes through. Build it and run it as a hook (see hooks.json):
//
//	go build -o weather . && go run ../../../core/cmd/hookwire run --hooks hooks.json ../scenario.json
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
		return answer("Weather data not found for city "+in.City, true), nil
	}
	return answer(fmt.Sprintf("%s weather: %s, temperature %d°C, humidity %d%%", in.City, data.Weather, data.Temp, data.Humidity), false), nil
}

// answer writes the members the plain script writes, so that both answer
// alike, byte for byte.
func answer(text string, isError bool) hookwire.ToolResult {
	return hookwire.ToolResult{ForLLM: text, ForUser: hookwire.Ptr(""), Silent: hookwire.Ptr(false), IsError: &isError}
}

func newHook() *hookwire.Hook {
	h := hookwire.New("weather-plugin")
	hookwire.AddTool(h, "get_weather", "Query weather information for a specified city", getWeather)
	return h
}

func main() { newHook().Main() }
