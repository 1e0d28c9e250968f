"""SIGTERM and SIGINT: every process ends, one line is printed, and reports are whole or absent.

``install()`` (cli.main) makes SIGTERM — what a CI runner sends when a job is cancelled — raise
``Terminated`` in the main process, as Ctrl-C raises KeyboardInterrupt: the worker pool of ``check``
(checks.context.run) is then left through its ``with`` block, which terminates every worker, and main prints
one line and exits 143 (130 for Ctrl-C). Workers ignore SIGINT (the terminal sends it to the whole process
group; the main process stops them) and die at once on SIGTERM (checks.context._worker_signals), so no
``Process ForkPoolWorker-N`` traceback is printed.

``write_all`` writes a run's report files all together: each to a temporary file beside it, then all renamed
into place with both signals held off, so an interrupted run leaves every report or none of them (a device or a
FIFO named as a report, ``--output /dev/stdout``, is written in place: it cannot be renamed over).
"""
from __future__ import annotations

import os
import signal
import tempfile
import threading


class Terminated(BaseException):
    """SIGTERM arrived (raised in the main thread, like KeyboardInterrupt for SIGINT)."""


def _on_term(signum, frame):
    raise Terminated()


def install():
    """Make SIGTERM raise Terminated; returns the handler it replaced (``restore`` puts it back), or None."""
    if threading.current_thread() is threading.main_thread():
        try:
            return signal.signal(signal.SIGTERM, _on_term)
        except (ValueError, OSError):           # pragma: no cover - not the main thread of the interpreter
            pass
    return None


def restore(old) -> None:
    if old is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, old)


def write_all(files: list[tuple[str, str]]) -> tuple[str, OSError] | None:
    """Write every (path, text); None, or (path, error) of the first that failed — then none is written.

    A regular file (or a new one) is written to a temporary file beside it and renamed into place; a symbolic
    link is followed (the file it names is replaced, not the link). A path naming something that is not a
    regular file — a device such as ``/dev/null`` or ``/dev/stdout``, a FIFO — is written in place, before the
    renames: renaming a file over it would replace the device node itself (run as root, ``--output /dev/null``
    left a regular file at /dev/null)."""
    done: list[tuple[str, str]] = []
    direct: list[tuple[str, str]] = []
    try:
        for path, text in files:
            target = os.path.realpath(path) if os.path.islink(path) else path
            if _special(target):
                direct.append((path, text))
                continue
            d = os.path.dirname(os.path.abspath(target))
            fd, tmp = tempfile.mkstemp(prefix=".skillproof-", suffix=".part", dir=d)
            done.append((tmp, target))
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.chmod(tmp, _mode_for(target))    # as open() would have made it (mkstemp makes 0600)
        for path, text in direct:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
    except OSError as e:
        _remove(done)
        return path, e
    except BaseException:
        _remove(done)
        raise
    held = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        for i, (tmp, path) in enumerate(done):
            try:
                os.replace(tmp, path)
            except OSError as e:
                _remove(done[i:])
                return path, e
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return None


def _special(path: str) -> bool:
    """Is ``path`` an existing file that is not a regular file (a device, a FIFO, a directory)? It is written
    (or refused) in place, never replaced."""
    import stat
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _mode_for(path: str) -> int:
    """The mode a report file gets: an existing file's, else 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _remove(done):
    for tmp, _ in done:
        try:
            os.unlink(tmp)
        except OSError:
            pass
