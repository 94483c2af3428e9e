"""The few names of typing that the SDK uses at run time, without typing.

Importing typing costs a hook a tenth of its start-up, for names that only
type checkers read. Type checkers see typing's own; at run time cast and
overload do nothing, and Generic only makes a class subscriptable in
annotations (Modify[BeforeToolParams]).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Generic as Generic
    from typing import cast as cast
    from typing import overload as overload
else:
    from types import GenericAlias

    def cast(typ, value):
        return value

    def overload(fn):
        return fn

    class Generic:
        __slots__ = ()
        __class_getitem__ = classmethod(GenericAlias)
