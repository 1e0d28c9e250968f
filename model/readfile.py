"""Read a file only when it is a regular file within a size limit: the one reader behind every input file.

A catalogue file, the configuration, a scenario, a baseline and a results-cache entry are all read here. The file
is opened without blocking and tested on its open descriptor (``fstat``), so a FIFO is refused instead of waited
on, ``/dev/zero`` is refused instead of read until memory runs out, and a file swapped between the test and the
read cannot slip past the test. What went wrong comes back as a ``NotRead`` with a ``why`` word; each caller turns
it into its own located message (file, line 1, the key when there is one) in its own words.
"""
from __future__ import annotations

import os
import stat

#: the reasons a file is not read (``NotRead.why``)
MISSING, DIRECTORY, NOT_REGULAR, TOO_BIG, OS_ERROR = "missing", "directory", "not_regular", "too_big", "os_error"


class NotRead(Exception):
    """The file was not read: ``why`` is one of the words above; ``size`` the size found for TOO_BIG (None when the
    file grew past the limit while read); ``error`` the OSError for OS_ERROR."""

    def __init__(self, why: str, size: int | None = None, error: OSError | None = None):
        super().__init__(why)
        self.why, self.size, self.error = why, size, error


def read_regular(path, limit: int) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes; else raises NotRead."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise NotRead(MISSING) from None
    except IsADirectoryError:
        raise NotRead(DIRECTORY) from None
    except OSError as e:
        raise NotRead(OS_ERROR, error=e) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise NotRead(DIRECTORY)
        if not stat.S_ISREG(st.st_mode):
            raise NotRead(NOT_REGULAR)
        if st.st_size > limit:
            raise NotRead(TOO_BIG, size=st.st_size)
        chunks, n = [], 0
        while n <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - n))
            if not chunk:
                break
            chunks.append(chunk)
            n += len(chunk)
    except OSError as e:
        raise NotRead(OS_ERROR, error=e) from None
    finally:
        os.close(fd)
    if n > limit:
        raise NotRead(TOO_BIG)
    return b"".join(chunks)
