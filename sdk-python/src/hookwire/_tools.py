"""Plugin tools: a typed Python function, declared to the LLM and answered by the hook.

The function's name is the tool's name, its docstring the description (an
``Args:`` section describes the parameters), and its type hints the JSON
Schema of the arguments. Arguments the LLM sends are checked against that
schema before the function runs, so the function gets what its hints say.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from typing import (
    Annotated,
    Any,
    Callable,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from ._async import is_async
from ._errors import HookwireError
from ._protocol_gen import ToolDefinition, ToolResult
from ._results import tool_result

__all__ = ["ArgumentError"]

if sys.version_info >= (3, 10):
    from types import UnionType

    _UNIONS: tuple[Any, ...] = (Union, UnionType)  # Optional[int] and int | None
else:
    _UNIONS = (Union,)

log = logging.getLogger("hookwire")

Schema = dict[str, Any]
ToolFunction = Callable[..., Any]

_JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}


class ArgumentError(HookwireError, ValueError):
    """The arguments of a tool call do not match the tool's schema.

    A ValueError too, as it was before HookwireError.
    """


class Tool:
    """A plugin tool: its definition for the LLM and the function that answers it."""

    def __init__(
        self,
        fn: ToolFunction,
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: Schema | None = None,
    ) -> None:
        # Here rather than at the top: only a hook that declares tools needs inspect.
        import inspect

        self.fn = fn
        self.name = name or fn.__name__
        summary, arg_docs = _parse_docstring(inspect.getdoc(fn) or "")
        self.description = description if description is not None else summary
        self.parameters = (
            parameters if parameters is not None else _parameters(fn, arg_docs, self.name)
        )
        self.is_async = is_async(fn)

    @property
    def definition(self) -> ToolDefinition:
        """The tool as before_llm declares it to the LLM."""
        function: Any = {"name": self.name}
        if self.description:
            function["description"] = self.description
        function["parameters"] = self.parameters
        return {"type": "function", "function": function}

    def arguments(self, arguments: Any) -> dict[str, Any]:
        """Check the call's arguments against the schema; return them ready to pass."""
        if arguments is None:
            arguments = {}
        return dict(_check(self.parameters, arguments, ""))

    def call(self, arguments: Any) -> ToolResult:
        """Run a sync tool; argument mismatches and failures become is_error results."""
        try:
            kwargs = self.arguments(arguments)
        except ArgumentError as e:
            return self.refused(e)
        try:
            return as_tool_result(self.fn(**kwargs))
        except Exception as e:
            return self.failed(e)

    async def call_async(self, arguments: Any) -> ToolResult:
        """Run an async tool, as call() does a sync one."""
        try:
            kwargs = self.arguments(arguments)
        except ArgumentError as e:
            return self.refused(e)
        try:
            return as_tool_result(await self.fn(**kwargs))
        except Exception as e:
            return self.failed(e)

    def refused(self, e: ArgumentError) -> ToolResult:
        log.warning("tool %s: %s", self.name, e)
        return tool_result(f"invalid arguments for {self.name}: {e}", is_error=True)

    def failed(self, e: Exception) -> ToolResult:
        log.error("tool %s failed", self.name, exc_info=e)
        return tool_result(f"{self.name} failed: {str(e) or type(e).__name__}", is_error=True)


def as_tool_result(value: Any) -> ToolResult:
    """What a tool function returned, as a tool result.

    A string is the text for the LLM; a dict with for_llm is a whole tool
    result (build one with tool_result()); anything else is sent as JSON.
    """
    if isinstance(value, str):
        return tool_result(value)
    if isinstance(value, dict) and isinstance(value.get("for_llm"), str):
        result: ToolResult = json.loads(json.dumps(value))
        return result
    return tool_result(json.dumps(value, ensure_ascii=False))


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns|Yields|Raises|Examples?|Notes?):\s*$")
_ARG = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and parameter descriptions."""
    summary: list[str] = []
    args: dict[str, str] = {}
    section = ""
    current = ""
    for line in doc.splitlines():
        header = _SECTION.match(line)
        if header:
            section = header.group(1)
            continue
        if not section:
            summary.append(line)
        elif section in ("Args", "Arguments", "Parameters") and line.strip():
            indent = len(line) - len(line.lstrip())
            arg = _ARG.match(line.strip())
            if arg and (indent <= 4 or not current):
                current = arg.group(1).lstrip("*")
                args[current] = arg.group(2).strip()
            elif current:
                args[current] = f"{args[current]} {line.strip()}".strip()
    text = "\n".join(summary).strip()
    # Paragraphs keep their breaks; lines wrapped within one are joined.
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
    return "\n\n".join(paragraphs), args


def _parameters(fn: ToolFunction, arg_docs: dict[str, str], tool: str) -> Schema:
    import inspect

    hints = get_type_hints(fn, include_extras=True)
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            raise TypeError(
                f"tool {tool}: parameter {p.name} must be a named parameter "
                "(the LLM passes arguments by name)"
            )
        hint = hints.get(p.name, Any)
        description = arg_docs.get(p.name)
        if get_origin(hint) is Annotated:
            hint, *metadata = get_args(hint)
            description = next((m for m in metadata if isinstance(m, str)), description)
        try:
            schema = schema_of(hint)
        except TypeError as e:
            raise TypeError(f"tool {tool}: parameter {p.name}: {e}") from None
        if description:
            schema["description"] = description
        if p.default is p.empty:
            required.append(p.name)
        elif _is_json(p.default):
            schema["default"] = p.default
        properties[p.name] = schema
    parameters: Schema = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    return parameters


def schema_of(hint: Any) -> Schema:
    """The JSON Schema of a type hint, for the hints a tool parameter may have."""
    if hint is Any or hint is object:
        return {}
    if hint is type(None) or hint is None:
        return {"type": "null"}
    if hint in _JSON_TYPES:
        return {"type": _JSON_TYPES[hint]}
    origin, args = get_origin(hint), get_args(hint)
    if hint is list or origin in (list, list):
        return {"type": "array", "items": schema_of(args[0])} if args else {"type": "array"}
    if hint is dict or origin in (dict, dict):
        if args and args[1] is not Any:
            return {"type": "object", "additionalProperties": schema_of(args[1])}
        return {"type": "object"}
    if origin is Literal:
        schema: Schema = {"enum": list(args)}
        types = {_JSON_TYPES.get(type(a)) for a in args}
        if len(types) == 1 and None not in types:
            schema["type"] = types.pop()
        return schema
    if origin in _UNIONS:
        options = [schema_of(a) for a in args if a is not type(None)]
        if {} in options:
            return {}  # Any takes null too; before 3.11, `x: Any = None` reads as Optional[Any]
        nullable = len(options) < len(args)
        if len(options) == 1 and nullable and isinstance(options[0].get("type"), str):
            return {**options[0], "type": [options[0]["type"], "null"]}
        if nullable:
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    if origin is Annotated:
        return schema_of(args[0])
    raise TypeError(
        f"{hint!r} has no JSON Schema here; "
        "use str, int, float, bool, list, dict, Optional, Literal or Any"
    )


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _a(json_type: str) -> str:
    return f"an {json_type}" if json_type in ("integer", "array", "object") else f"a {json_type}"


def _describe(value: Any) -> str:
    """A received JSON value, named for an error message."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return json.dumps(value)


def _fits(value: Any, json_type: str) -> bool:
    actual = _json_type(value)
    if json_type == "number":
        return actual in ("integer", "number")
    if json_type == "integer":
        return actual == "integer" or (actual == "number" and float(value).is_integer())
    return actual == json_type


def _check(schema: Schema, value: Any, at: str) -> Any:
    """Check value against the subset of JSON Schema that schema_of writes.

    Returns the value to pass on: a whole number sent as 3.0 becomes 3 for
    an integer. Raises ArgumentError naming the argument at fault, in the
    words the Go and TypeScript SDKs use.
    """
    name = f'argument "{at}"' if at else "the arguments"
    want = schema.get("type")
    if want is not None:
        wanted = want if isinstance(want, list) else [want]
        fit = next((t for t in wanted if _fits(value, t)), None)
        if fit is None:
            kinds = " or ".join("null" if t == "null" else _a(t) for t in wanted)
            raise ArgumentError(f"{name} must be {kinds}, not {_describe(value)}")
        if fit == "integer" and isinstance(value, float):
            value = int(value)
    if "enum" in schema and not any(value == v and type(value) is type(v) for v in schema["enum"]):
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        raise ArgumentError(f"{name} must be one of {allowed}, not {_describe(value)}")
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            try:
                return _check(option, value, at)
            except ArgumentError:
                continue
        raise ArgumentError(f"{name} fits none of its types: {_describe(value)}")
    if isinstance(value, list) and "items" in schema:
        return [_check(schema["items"], v, f"{at}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return _check_object(schema, value, at)
    return value


def _check_object(schema: Schema, value: dict[str, Any], at: str) -> dict[str, Any]:
    properties: dict[str, Schema] = schema.get("properties", {})
    required = schema.get("required", [])
    for key in required:
        if key not in value:
            raise ArgumentError(f'argument "{_join(at, key)}" is missing')
    extra = schema.get("additionalProperties")
    out = {}
    for key, v in value.items():
        if v is None and key not in required:
            continue  # an optional argument sent as null is an argument not sent
        if key in properties:
            out[key] = _check(properties[key], v, _join(at, key))
        elif isinstance(extra, dict):
            out[key] = _check(extra, v, _join(at, key))
        elif at or not properties:
            # The schema allows members it does not name; the function takes
            # only its own parameters, so at the top they are left out.
            out[key] = v
    return out


def _join(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key
