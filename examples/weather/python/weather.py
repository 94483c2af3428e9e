"""The weather plugin of PicoClaw's plugin tool injection guide, with the hookwire SDK.

get_weather is offered to the LLM in before_llm and answered in before_tool;
every other tool call passes through. Run it as a hook: ``python3 weather.py``.
"""

from hookwire import Hook, ToolResult, tool_result

# Simulated weather data.
WEATHER = {
    "Beijing": {"temp": 15, "weather": "Sunny", "humidity": 45},
    "Shanghai": {"temp": 18, "weather": "Cloudy", "humidity": 60},
    "Guangzhou": {"temp": 25, "weather": "Sunny", "humidity": 70},
    "Shenzhen": {"temp": 26, "weather": "Cloudy", "humidity": 75},
}

hook = Hook("weather-plugin")


@hook.tool
def get_weather(city: str) -> ToolResult:
    """Query weather information for a specified city

    Args:
        city: City name, e.g.: Beijing, Shanghai, Guangzhou
    """
    data = WEATHER.get(city)
    if data is None:
        return answer(f"Weather data not found for city {city}", is_error=True)
    return answer(
        f"{city} weather: {data['weather']}, temperature {data['temp']}°C, "
        f"humidity {data['humidity']}%"
    )


def answer(text: str, is_error: bool = False) -> ToolResult:
    # The members the plain script writes, so that both answer alike, byte for byte.
    return tool_result(text, for_user="", silent=False, is_error=is_error)


if __name__ == "__main__":
    hook.run()
