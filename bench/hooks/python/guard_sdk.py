"""The guard of the bridge benchmark, as a hookwire hook: deny rm -rf."""

from hookwire import BeforeToolParams, BeforeToolReply, Hook, deny

hook = Hook("guard")


@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    if "rm -rf" in str(call["arguments"].get("command", "")):
        return deny("rm -rf is not allowed")
    return None


if __name__ == "__main__":
    hook.run()
