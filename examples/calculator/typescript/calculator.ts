// Two plugin tools in one hook, as in PicoClaw's multi-tool injection
// example, with the hookwire SDK: get_weather answers from canned data, as
// examples/weather does; calculate evaluates arithmetic with the parser of
// arith.ts, never with eval: a refused expression is an error result the
// LLM reads. Both are offered to the LLM in before_llm and answered in
// before_tool; every other tool call passes through.

import { Hook, type ToolResult } from "hookwire";

import { CalcError, evaluate } from "./arith.js";

// Simulated weather data.
const WEATHER: { [city: string]: { temp: number; weather: string; humidity: number } } = {
  Beijing: { temp: 15, weather: "Sunny", humidity: 45 },
  Shanghai: { temp: 18, weather: "Cloudy", humidity: 60 },
  Guangzhou: { temp: 25, weather: "Sunny", humidity: 70 },
  Shenzhen: { temp: 26, weather: "Cloudy", humidity: 75 },
};

export function getWeather(city: string): ToolResult {
  const data = Object.hasOwn(WEATHER, city) ? WEATHER[city] : undefined;
  if (data === undefined) return { for_llm: `Weather data not found for city ${city}`, is_error: true };
  return {
    for_llm: `${city} weather: ${data.weather}, temperature ${data.temp}°C, humidity ${data.humidity}%`,
    is_error: false,
  };
}

export function calculate(expression: string): ToolResult {
  try {
    return { for_llm: `Calculation result: ${evaluate(expression)}`, is_error: false };
  } catch (err) {
    // Only the parser's refusals are the LLM's to read; anything else is a bug.
    if (!(err instanceof CalcError)) throw err;
    return { for_llm: `Calculation error: ${err.message}`, is_error: true };
  }
}

export const hook = new Hook("calculator")
  .tool(
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
  )
  .tool(
    {
      name: "calculate",
      description: "Perform mathematical calculations: numbers, + - * / % ** (or ^) and parentheses",
      parameters: {
        type: "object",
        properties: {
          expression: { type: "string", description: "Mathematical expression, e.g.: 15 * 9 / 5 + 32" },
        },
        required: ["expression"],
      },
    },
    ({ expression }) => calculate(expression),
  );
