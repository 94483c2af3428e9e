// The weather plugin of PicoClaw's plugin tool injection guide, with the
// hookwire SDK: get_weather is offered to the LLM in before_llm and
// answered in before_tool; every other tool call passes through.

import { Hook, type ToolResult } from "hookwire";

// Simulated weather data.
const WEATHER: { [city: string]: { temp: number; weather: string; humidity: number } } = {
  Beijing: { temp: 15, weather: "Sunny", humidity: 45 },
  Shanghai: { temp: 18, weather: "Cloudy", humidity: 60 },
  Guangzhou: { temp: 25, weather: "Sunny", humidity: 70 },
  Shenzhen: { temp: 26, weather: "Cloudy", humidity: 75 },
};

export function getWeather(city: string): ToolResult {
  const data = Object.hasOwn(WEATHER, city) ? WEATHER[city] : undefined;
  if (data === undefined) {
    return { for_llm: `Weather data not found for city ${city}`, for_user: "", silent: false, is_error: true };
  }
  return {
    for_llm: `${city} weather: ${data.weather}, temperature ${data.temp}°C, humidity ${data.humidity}%`,
    for_user: "",
    silent: false,
    is_error: false,
  };
}

export const hook = new Hook("weather-plugin").tool(
  {
    name: "get_weather",
    description: "Query weather information for a specified city",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name, e.g.: Beijing, Shanghai, Guangzhou" },
      },
      required: ["city"],
    },
  },
  ({ city }) => getWeather(city),
);
