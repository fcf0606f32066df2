"""A bad value of a named option, with the option's name as data.

The library names an option by its key (``tt_mb``, ``passes``); a front end has its
own spelling of it (the command line's ``--tt-mb``).  So the library never writes a
flag into a message: it raises ``OptionError`` with the key, ``str()`` reads with the
key, and the command line prints ``spelled(flag_of)``.
"""

from __future__ import annotations

import re
from typing import Callable

NAME = "{option}"  # where a message names its option
_NAMED = re.compile(r"\{option(?::(\w+))?\}")


def named(key: str) -> str:
    """Where a message names another option than its own (``{option:KEY}``)."""
    return f"{{option:{key}}}"


class OptionError(ValueError):
    """``text`` names the option ``option`` (a key) where it says ``{option}``, and any
    other option where it says ``named(key)``."""

    def __init__(self, option: str, text: str) -> None:
        self.option, self.text = option, text
        super().__init__(self.spelled(lambda key: key))

    def spelled(self, name: Callable[[str], str]) -> str:
        """The message with each option it names named ``name(key)``."""
        return _NAMED.sub(lambda m: name(m.group(1) or self.option), self.text)
