"""The size and time budget of an extraction (``extract``, ``diff --kotlin``), like ``check --time-budget``.

Past a budget the extraction stops and raises ``OverBudget`` saying what was read (files and bytes parsed of
those there are); the commands print it and exit 3 (inconclusive) — a partial catalogue is never written or
compared. The parser is tree-sitter: its time is bounded by cancelling the parse (a progress callback), so a
file on which its error recovery is slow cannot hang the run.
"""
from __future__ import annotations

import time

#: one Kotlin file, and all of them (the real server's sources are about 3 MB in all, its largest file 100 KB)
FILE_BYTES = 8 * 1024 * 1024
TOTAL_BYTES = 64 * 1024 * 1024
#: seconds for one extraction when the command line names none (--time-budget)
DEFAULT_SECONDS = 300.0


class OverBudget(Exception):
    """The extraction went over its size or time budget; ``what`` says which, ``read`` what was parsed."""

    def __init__(self, what_en: str, what_zh: str, files_read: int, files: int, bytes_read: int, total: int):
        self.what_en, self.what_zh = what_en, what_zh
        self.files_read, self.files, self.bytes_read, self.total = files_read, files, bytes_read, total
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        if lang == "en":
            return (f"{self.what_en}: read {self.files_read:,} of {self.files:,} Kotlin files ({self.bytes_read:,} of "
                    f"{self.total:,} bytes); nothing was written or compared")
        return (f"{self.what_zh}：读了 {self.files:,} 个 Kotlin 文件中的 {self.files_read:,} 个（{self.total:,} 字节中的 "
                f"{self.bytes_read:,}）；什么也没有写出或比较")


class Budget:
    def __init__(self, seconds: float | None = None):
        self.seconds = DEFAULT_SECONDS if seconds is None else seconds
        self.t0 = time.monotonic()

    def spent(self) -> bool:
        return time.monotonic() - self.t0 > self.seconds

    def over_time(self, files_read, files, bytes_read, total) -> OverBudget:
        return OverBudget(f"the time budget ({self.seconds:g} s) ran out", f"时间预算（{self.seconds:g} 秒）已用完",
                          files_read, files, bytes_read, total)


def over_size(path_name: str, size: int, files_read, files, bytes_read, total) -> OverBudget | None:
    if size > FILE_BYTES:
        return OverBudget(f"{path_name} is {size:,} bytes, over the {FILE_BYTES:,} of one Kotlin file",
                          f"{path_name} 有 {size:,} 字节，超过单个 Kotlin 文件的上限 {FILE_BYTES:,}",
                          files_read, files, bytes_read, total)
    if total > TOTAL_BYTES:
        return OverBudget(f"the Kotlin sources are {total:,} bytes, over the {TOTAL_BYTES:,} of one extraction",
                          f"Kotlin 源码共 {total:,} 字节，超过一次提取的上限 {TOTAL_BYTES:,}",
                          files_read, files, bytes_read, total)
    return None


def parse_within(parser, data: bytes, budget: Budget):
    """Parse ``data``, cancelled once the budget is spent: the tree, or None.

    The parser reads through a callback (py-tree-sitter takes a progress callback only then), and calls back into
    Python: to read while it parses — it drops an exception raised there, and a SIGINT raised there came out of
    the next callback as a SystemError (exit 4) — and, for the tree's life, to read a node's text — an exception
    raised there crashed the interpreter (SIGSEGV). So the parse runs with the signals held (model.signals): a
    signal cancels it, and is raised once the parser has returned; and the read callback never raises one."""
    from skillproof.model.signals import held, pending
    if not data:
        return parser.parse(data)
    with held():
        try:
            tree = parser.parse(_reader(data), progress_callback=lambda *_a: pending() or budget.spent())
        except ValueError:              # the parse was cancelled
            parser.reset()
            return None
    return tree


def _reader(data: bytes):
    """The parser's read callback over ``data`` (one that a signal never raises from: model.signals.called_from_c)."""
    from skillproof.model.signals import called_from_c

    @called_from_c
    def read(offset, _point):
        return data[offset:offset + 65536]
    return read
