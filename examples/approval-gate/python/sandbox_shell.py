"""A stand-in for a shell tool, for the approval gate's scenario.

It offers the LLM an ``exec`` tool and answers its calls without running
anything, so that the scenario shows the gate at work with no risk.
"""

from __future__ import annotations

from hookwire import Hook

hook = Hook("sandbox-shell")


@hook.tool(name="exec")
def run(command: str) -> str:
    """Run a shell command and return its output

    Args:
        command: The command line to run
    """
    return f"$ {command}\n(sandbox: nothing was run)"


if __name__ == "__main__":
    hook.run()
