"""The command line's exit codes (cli.py's docstring says what each means) and its one-line error, which
every command prints (``error_line``, ``printable``)."""
from __future__ import annotations

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERNAL = 0, 1, 2, 3, 4


def error_line(msg) -> str:
    """``error: …`` / ``错误：…``: a located error as the command line prints it, in the run's language — one
    line whatever it echoes (control and invisible characters escaped, a run of over 300 characters cut)."""
    from .model.msg import Msg
    return printable(str(Msg("错误：{m}", "error: {m}", m=msg)))


def printable(text: str) -> str:
    """``text`` as one line a terminal shows as it is: escaped (model.names.escape), long runs cut."""
    import re
    from .model.names import escape
    return re.sub(r"\S{300,}", lambda m: f"{m.group()[:200]}…({len(m.group()):,} characters)", escape(text))
