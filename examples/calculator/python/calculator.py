"""Two plugin tools in one hook, as in PicoClaw's multi-tool injection example.

get_weather answers from canned data, as examples/weather does; calculate
evaluates arithmetic with the parser of arith.py, never with eval: a
refused expression is an error result the LLM reads. Both are offered to
the LLM in before_llm and answered in before_tool; every other tool call
passes through. Run it as a hook: ``python3 calculator.py``.
"""

from hookwire import Hook, ToolResult, tool_result

from arith import CalcError, evaluate

# Simulated weather data.
WEATHER = {
    "Beijing": {"temp": 15, "weather": "Sunny", "humidity": 45},
    "Shanghai": {"temp": 18, "weather": "Cloudy", "humidity": 60},
    "Guangzhou": {"temp": 25, "weather": "Sunny", "humidity": 70},
    "Shenzhen": {"temp": 26, "weather": "Cloudy", "humidity": 75},
}

hook = Hook("calculator")


@hook.tool
def get_weather(city: str) -> ToolResult:
    """Query weather information for a specified city

    Args:
        city: City name, e.g.: Beijing, Shanghai, Guangzhou
    """
    data = WEATHER.get(city)
    if data is None:
        return tool_result(f"Weather data not found for city {city}", is_error=True)
    return tool_result(
        f"{city} weather: {data['weather']}, temperature {data['temp']}°C, "
        f"humidity {data['humidity']}%",
        is_error=False,
    )


@hook.tool
def calculate(expression: str) -> ToolResult:
    """Perform mathematical calculations: numbers, + - * / % ** (or ^) and parentheses

    Args:
        expression: Mathematical expression, e.g.: 15 * 9 / 5 + 32
    """
    try:
        return tool_result(f"Calculation result: {evaluate(expression)}", is_error=False)
    except CalcError as e:
        return tool_result(f"Calculation error: {e}", is_error=True)


if __name__ == "__main__":
    hook.run()
