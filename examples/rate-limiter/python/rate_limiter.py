"""A rate limiter: each tool may be called RATE_LIMIT_CALLS times per session (default 3).

Calls over the limit are denied in hook.before_tool with a reason the LLM
can act on. Run it as a hook: ``python3 rate_limiter.py`` (hooks.json does).
"""

from __future__ import annotations

import os
from collections import Counter

from hookwire import BeforeToolParams, BeforeToolReply, Hook, deny

LIMIT = int(os.environ.get("RATE_LIMIT_CALLS", "3"))

hook = Hook("rate-limiter")
calls: Counter[tuple[str, str]] = Counter()


# async: the handler runs on the event loop, one at a time, so the counter
# needs no lock even when the host sends many calls at once.
@hook.before_tool
async def limit(call: BeforeToolParams) -> BeforeToolReply:
    session = call.get("meta", {}).get("SessionKey", "")
    tool = call["tool"]
    calls[session, tool] += 1
    if calls[session, tool] > LIMIT:
        return deny(
            f"rate limit: {tool} may be called {LIMIT} times per session, "
            f"and this session has used them all; do without it"
        )
    return None


if __name__ == "__main__":
    hook.run()
