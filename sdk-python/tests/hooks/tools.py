"""A hook with one plugin tool and nothing else."""

from hookwire import Hook

hook = Hook("tools-test")


@hook.tool
def shout(text: str) -> str:
    """Say it louder"""
    return text.upper()


if __name__ == "__main__":
    hook.run()
