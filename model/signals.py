"""SIGTERM and SIGINT: every process ends, one line is printed, and reports are whole or absent.

``install()`` (cli.main) makes SIGINT raise ``Interrupted`` (a KeyboardInterrupt) and SIGTERM — what a CI runner
sends when a job is cancelled — raise ``Terminated`` in the main process: the worker processes of ``check``
(checks.context.run) are then terminated on the way out, the temporary checkouts of ``diff --kotlin`` removed,
and main prints one line and exits 130 (143 for SIGTERM). Workers ignore SIGINT (the terminal sends it to the
whole process group; the main process stops them) and die at once on SIGTERM (checks.context._worker_signals),
so no ``Process ForkProcess-N`` traceback is printed.

A signal is an exception raised wherever the main thread happens to be, and some places cannot take one: it
would be lost, mangled or cut short there. So the handler raises the first signal once, and only where it can
propagate:

- not inside a finaliser (a ``__del__``, such as z3's, called when the collector frees a term): Python prints an
  exception raised there as "Exception ignored in …" and carries on — the run went on to its end and exited 1;
  the signal is raised again as soon as the finaliser returns. An interrupt lost in any other place Python
  cannot raise from (a weakref or ctypes callback, an atexit function) reaches ``sys.unraisablehook``, which
  says nothing and raises it again;
- not inside a function C calls back and that cannot raise (``called_from_c``): py-tree-sitter reads every
  node's text through the parse's read callback, and a KeyboardInterrupt raised there crashed the interpreter
  (SIGSEGV); the signal is raised once the callback has returned, as for a finaliser;
- not inside a ``held()`` section: a parse (tree-sitter dropped an exception raised in its read callback, and
  the next callback failed with a SystemError: exit 4), and cleanup that must not stop half-way (removing a
  temporary tree, renaming the reports into place) — the signal is raised when the section ends;
- once raised, it is not raised again while it propagates: a second signal is remembered, not raised into the
  ``finally`` blocks and ``with`` exits that stop the workers and remove temporary files;
- once the command has its outcome (``settle()``), a signal is no longer raised: it is only remembered (``late``).

SIGINT raises ``Interrupted``, a subclass of KeyboardInterrupt, rather than KeyboardInterrupt itself: CPython
marks a plain KeyboardInterrupt that ends a string ``exec`` (as dataclasses and namedtuple make their methods,
while a module is imported) as unhandled even when it is caught, and ``python -m`` then kills itself with SIGINT
at exit (status -2) after main had printed its line and returned 130.

Whatever way a signal reaches the end of the command — as its own exception, as another one it turned into (an
``except`` clause whose names its ``try`` never bound), or not at all — ``received()`` says it came, and the
command ends as the signal asked (cli._main); one that comes after the command has its outcome, while the process
is still there, is said too (cli.entry, which ends the process itself: the interpreter's teardown puts the
default handlers back, and a signal then killed it without a word).

The handler runs only between two steps of Python code, never while the main thread is in C: a z3 question runs
to its end (or its --timeout) first. So a thread of its own is woken the moment a signal comes (the
interpreter's wake-up descriptor) and stops that work (``on_signal``: checks/z3signals.py interrupts z3, which
is told not to take SIGINT for itself — it cancelled the question and kept the signal, and the run went on).

While the command starts (before the handlers are installed, across the exec of cli.entry) both signals are
blocked, and a signal sent then is handled once the handlers are in place (``hold_until_installed``).

``write_all`` writes a run's report files all together: each to a temporary file beside it, then all renamed
into place with both signals held off, so an interrupted run leaves every report or none of them (a device or a
FIFO named as a report, ``--output /dev/stdout``, is written in place: it cannot be renamed over).

The module sits in the lowest layer (docs/layout.md): the extractor, the checks and the reports need it as well
as the commands.
"""
from __future__ import annotations

import _thread
import os
import signal
import sys
import threading


class Terminated(BaseException):
    """SIGTERM arrived (raised in the main thread, like KeyboardInterrupt for SIGINT)."""


class Interrupted(KeyboardInterrupt):
    """SIGINT arrived: a KeyboardInterrupt (every ``except KeyboardInterrupt`` takes it), of its own class so that
    the interpreter never takes it for one it failed to handle (the module's docstring)."""


#: the exit code of a command ended by a signal: 128 + the signal's number, as a shell reports it
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: the signals blocked while the command started, carried over cli.entry's exec (numbers, comma-separated)
HELD_ENV = "SKILLPROOF_HELD_SIGNALS"


class _State:
    depth = 0               # install() nesting: the outermost one installs and restores
    signum = None           # the first signal received
    raised = False          # … raised as an exception (and not lost since)
    pending = False         # … due where it can propagate: when the held() section or the finaliser ends
    hold = 0                # held() nesting
    settled = False         # the command has its outcome: a signal is not raised now
    late = None             # … only remembered, and said by cli.entry as the process ends
    started_held: frozenset = frozenset()       # the signals hold_until_installed() blocked


_S = _State()


def _exception(signum) -> BaseException:
    return Terminated() if signum == signal.SIGTERM else Interrupted()


def _handler(signum, frame):
    s = _S
    if s.settled:
        s.late = s.late or signum
        return
    if s.signum is None:
        s.signum = signum
    if s.raised:
        return
    s.pending = True
    if s.hold:
        return                                  # raised when the section ends (held)
    if _cannot_raise(frame):
        _again()                                # raised once the finaliser or the callback has returned
        return
    s.raised, s.pending = True, False
    raise _exception(s.signum)


def _again(delay: float = 0.01) -> None:
    """Have the handler called again shortly (``_thread.interrupt_main``, from a timer thread: called from the
    main thread, the handler would run at once, inside the very code it waits to be out of — itself, a finaliser
    or the unraisable hook — and again and again, until the stack overflowed)."""
    t = threading.Timer(delay, _retrip)
    t.daemon = True
    t.start()


def _retrip() -> None:
    s = _S
    if s.pending and not s.raised and not s.settled and s.signum is not None:
        _thread.interrupt_main(s.signum)


#: the code of functions C calls back and that must not raise (``called_from_c``)
_NO_RAISE: set = set()


def called_from_c(fn):
    """Mark ``fn`` as a function C calls back and that must not raise: a signal that comes while it runs is raised
    once it has returned, as for a finaliser. (py-tree-sitter reads a node's text through the parse's read
    callback, and a KeyboardInterrupt raised there crashed the interpreter: SIGSEGV, no line, the temporary
    checkout left behind.)"""
    _NO_RAISE.add(fn.__code__)
    return fn


def _cannot_raise(frame) -> bool:
    """Is a ``__del__`` running (an exception raised in it is printed, "Exception ignored in …", and dropped), or a
    function ``called_from_c``?"""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code in _NO_RAISE:
            return True
        frame = frame.f_back
    return False


def _unraisable(unraisable):
    """``sys.unraisablehook`` while the handlers are installed: the signal's exception, raised where Python cannot
    propagate it (a finaliser, a callback, an atexit function), is not printed but raised again at the next place
    that can take it. Once a signal has come, no other is printed either: a finaliser failing then is one of an
    object the signal stopped half-made (z3's Context.__del__ on a context whose __init__ it cut short: an
    AttributeError and its traceback after the line). Before, everything goes to the hook that was there."""
    if _S.signum is None and _S.late is None:
        (_Installed.hook or sys.__unraisablehook__)(unraisable)
    elif isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)) and not _S.settled:
        _S.raised, _S.pending = False, True
        _again()


class _Installed:
    """What the outermost install() replaced."""
    hook = None
    watcher = None

    def __init__(self, saved: dict, hook, watcher):
        self.saved = saved
        self.watcher = watcher
        _Installed.hook = hook


#: what to call, from the watcher's thread, when SIGINT or SIGTERM comes (``on_signal``)
_STOPS: list = []


def on_signal(stop) -> None:
    """Call ``stop()`` as soon as SIGINT or SIGTERM comes, from a thread of its own — while the main thread may be
    deep in C, where the handler cannot run until it returns: it makes that work return (checks/z3signals.py
    interrupts z3's running question), and the handler then raises the signal. Registered once."""
    if stop not in _STOPS:
        _STOPS.append(stop)


class _Watcher:
    """A thread woken by the interpreter's own signal handler (``signal.set_wakeup_fd``: it writes the signal's
    number to a pipe, in C, the moment the signal comes) that calls what ``on_signal`` registered."""

    def __init__(self):
        self.r, self.w = os.pipe()
        os.set_blocking(self.w, False)
        self.old = signal.set_wakeup_fd(self.w, warn_on_full_buffer=False)
        self.thread = threading.Thread(target=self._run, name="skillproof-signals", daemon=True)
        self.thread.start()

    def _run(self):
        try:
            while True:
                got = os.read(self.r, 64)
                if not got:
                    return
                if _S.settled or not any(n in (signal.SIGINT, signal.SIGTERM) for n in got):
                    continue
                for stop in list(_STOPS):
                    try:
                        stop()
                    except Exception:           # noqa: BLE001 — stopping is a courtesy; the handler decides
                        pass
        except OSError:
            return
        finally:
            os.close(self.r)

    def rearm(self):
        signal.set_wakeup_fd(self.w, warn_on_full_buffer=False)

    def close(self):
        current = signal.set_wakeup_fd(-1)
        signal.set_wakeup_fd(self.old if current in (self.w, -1) else current)
        os.close(self.w)                        # the thread reads the end of the pipe, and ends


def rearm() -> None:
    """Point the interpreter's signal wake-up at the watcher again: asyncio (``ask``'s prompt, prompt_toolkit)
    takes it for its own loop and leaves none when it ends."""
    w = _Installed.watcher if isinstance(_Installed.watcher, _Watcher) else None
    if w is not None and _main_thread():
        w.rearm()


_NESTED = object()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def install():
    """Make SIGINT raise Interrupted and SIGTERM Terminated (a signal its parent ignored stays ignored: a
    background job's SIGINT); returns what ``restore`` needs to put back what it replaced (None off the main
    thread). Nested calls (cli.entry, then cli.main) install once."""
    if not _main_thread():
        return None
    s = _S
    s.depth += 1
    if s.depth > 1:
        return _NESTED
    s.signum, s.raised, s.pending, s.hold, s.settled, s.late = None, False, False, 0, False, None
    saved = {}
    for sig in _SIGNALS:
        try:
            if signal.getsignal(sig) == signal.SIG_IGN:
                continue
            saved[sig] = signal.signal(sig, _handler)
        except (ValueError, OSError):           # pragma: no cover - not the main thread of the interpreter
            pass
    watcher = None
    if saved and os.name == "posix":
        try:
            watcher = _Watcher()
        except (OSError, ValueError, RuntimeError):     # pragma: no cover - no pipe, or no thread, to be had
            watcher = None
    token = _Installed(saved, sys.unraisablehook, watcher)
    _Installed.watcher = watcher
    sys.unraisablehook = _unraisable
    return token


def release() -> None:
    """Unblock the signals held while the command started (``hold_until_installed``, here or before cli.entry's
    exec): one sent meanwhile is handled now, by the handlers ``install`` put in place."""
    held = set(_S.started_held)
    for part in os.environ.pop(HELD_ENV, "").split(","):
        if part.strip().isdigit():
            held.add(int(part))
    _S.started_held = frozenset()
    if held and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def restore(token) -> None:
    """Put back what ``install`` replaced (the outermost call's token does; a nested one only counts down)."""
    if token is None or not _main_thread():
        return
    _S.depth = max(0, _S.depth - 1)
    if token is _NESTED:
        return
    _S.depth = 0
    if token.watcher is not None:
        token.watcher.close()
    _Installed.watcher = None
    for sig, old in token.saved.items():
        signal.signal(sig, signal.SIG_DFL if old is None else old)
    if sys.unraisablehook is _unraisable:
        sys.unraisablehook = _Installed.hook or sys.__unraisablehook__


def received():
    """The signal that came during the command (the first, if two did), or None."""
    return _S.signum


def settle():
    """The command has its outcome (the line is printed, the exit code chosen): a signal from now on is not
    raised, only remembered (``late``). Returns ``received()``."""
    _S.settled = True
    return _S.signum


def late():
    """A signal that came after the command had its outcome (``settle``), or None."""
    return _S.late


def forget() -> None:
    """A signal was taken as a key (``ask``'s prompt: Ctrl-C clears the line) and the command goes on."""
    _S.signum, _S.raised, _S.pending = None, False, False


def pending() -> bool:
    """Has a signal come that is not raised yet (it waits for the ``held`` section to end)?"""
    return _S.pending and not _S.raised and not _S.settled


class held:
    """``with held():`` — a signal that comes in the section is raised when it ends, not inside it: for cleanup
    that must not stop half-way, and for code that C calls back and that cannot raise (``pending()`` tells it
    to stop early). Ending with an exception, the section leaves the signal to be raised at the next check."""

    __slots__ = ("on",)

    def __enter__(self):
        self.on = _main_thread()
        if self.on:
            _S.hold += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        if not self.on:
            return False
        _S.hold -= 1
        if _S.hold or not pending():
            return False
        if exc_type is None:
            _S.raised, _S.pending = True, False
            raise _exception(_S.signum)
        _thread.interrupt_main(_S.signum)
        return False


def hold_until_installed() -> None:
    """Block SIGINT and SIGTERM until ``release`` (python -m skillproof, before anything else is imported): a
    signal sent while the command starts — while it imports, or across the exec of cli.entry — waits for the
    handlers instead of ending the interpreter with a traceback, or being lost."""
    if hasattr(signal, "pthread_sigmask") and _main_thread():
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        _S.started_held = _S.started_held | {s for s in _SIGNALS if s not in before}


def exec_env(env: dict) -> dict:
    """``env`` for cli.entry's exec: it names the signals held while the command starts, which the new program
    releases once its handlers are installed (the blocked mask and a pending signal survive an exec)."""
    held = set(_S.started_held)
    for part in os.environ.get(HELD_ENV, "").split(","):
        if part.strip().isdigit():
            held.add(int(part))
    if held:
        env[HELD_ENV] = ",".join(str(int(s)) for s in sorted(held))
    return env


class temporary_directory:
    """``with temporary_directory(prefix) as path:`` — tempfile.TemporaryDirectory, made and removed with the
    signals held: a signal cannot come between making the directory and arming its removal, nor cut the removal
    short (a checkout of ``diff --kotlin`` was left half removed in $TMPDIR)."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.td = None

    def __enter__(self) -> str:
        import tempfile
        try:
            with held():
                self.td = tempfile.TemporaryDirectory(prefix=self.prefix)
        except BaseException:
            self._cleanup()
            raise
        return self.td.name

    def __exit__(self, exc_type, exc, tb):
        self._cleanup()
        return False

    def _cleanup(self):
        if self.td is not None:
            with held():
                td, self.td = self.td, None
                td.cleanup()


def write_file(path: str, text: str, newline: str | None = None) -> None:
    """Write one file as ``write_all`` does (whole or not at all, whenever a signal comes); raises the OSError."""
    failed = write_all([(path, text)], newline)
    if failed:
        raise failed[1]


def write_all(files: list[tuple[str, str]], newline: str | None = None) -> tuple[str, OSError] | None:
    """Write every (path, text); None, or (path, error) of the first that failed — then none is written.

    A regular file (or a new one) is written to a temporary file beside it and renamed into place; a symbolic
    link is followed (the file it names is replaced, not the link). A path naming something that is not a
    regular file — a device such as ``/dev/null`` or ``/dev/stdout``, a FIFO — is written in place, before the
    renames: renaming a file over it would replace the device node itself (run as root, ``--output /dev/null``
    left a regular file at /dev/null). A temporary file is recorded as it is made, and the temporary files are
    removed, or all renamed, with the signals held: an interrupted run leaves none of them behind."""
    import tempfile
    done: list[tuple[str, str]] = []
    direct: list[tuple[str, str]] = []
    try:
        for path, text in files:
            target = os.path.realpath(path) if os.path.islink(path) else path
            if _special(target):
                direct.append((path, text))
                continue
            d = os.path.dirname(os.path.abspath(target))
            with held():
                fd, tmp = tempfile.mkstemp(prefix=".skillproof-", suffix=".part", dir=d)
                done.append((tmp, target))
            with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
                fh.write(text)
            os.chmod(tmp, _mode_for(target))    # as open() would have made it (mkstemp makes 0600)
        for path, text in direct:
            with open(path, "w", encoding="utf-8", newline=newline) as fh:
                fh.write(text)
    except OSError as e:
        with held():
            _remove(done)
        return path, e
    except BaseException:
        with held():
            _remove(done)
        raise
    blocked = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS) if blocked else None
    try:
        with held():
            for i, (tmp, path) in enumerate(done):
                try:
                    os.replace(tmp, path)
                except OSError as e:
                    _remove(done[i:])
                    return path, e
    finally:
        if blocked:
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
