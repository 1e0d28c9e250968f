import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)          # tests/randstate.py and helpers
FIXTURES = os.path.join(HERE, "fixtures")
# the Python scripts the tests start run as the command does (cli.cli.entry runs itself with a fixed string
# hash): their witnesses are compared with the command's
os.environ["PYTHONHASHSEED"] = "0"
# one results cache (cli/cache.py) for the whole run, shared by the workers, never the user's own
if "SKILLPROOF_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile
    os.environ["SKILLPROOF_CACHE_DIR"] = tempfile.mkdtemp(prefix="skillproof-test-cache-")
    atexit.register(shutil.rmtree, os.environ["SKILLPROOF_CACHE_DIR"], True)
os.environ.pop("SKILLPROOF_NO_CACHE", None)


def _compile_the_package() -> None:
    """The package's modules compiled to bytecode (their ``__pycache__``, as pip compiles an installed package),
    once per run, before the workers start. The suite starts the command line hundreds of times (``skillproof …``,
    ``python -c``); an editable install is never compiled, and where the environment sets PYTHONDONTWRITEBYTECODE
    (this machine's does) nothing ever writes the bytecode: each of those processes compiled every module it
    imports again — about half of a cached `check`'s CPU (0.65 → 0.34 s measured). Reading bytecode is not writing
    it: the processes still write none. Timestamps keep it exact: a module edited since is compiled again."""
    import compileall
    import skillproof
    from skillproof import checks, model, reports
    for pkg in (skillproof, checks, model, reports):
        for d in pkg.__path__:
            if "site-packages" not in d:            # an installed wheel is compiled already
                compileall.compile_dir(d, quiet=2, workers=1)


def pytest_configure(config):
    if not hasattr(config, "workerinput"):          # the controller (or a run without xdist), not each worker
        _compile_the_package()


import pytest  # noqa: E402

# A test run started in the background by a shell without job control (`cmd &` in a script, nohup) inherits SIGINT
# ignored, and so would every command a test starts: tests/test_signals.py's commands then never see their Ctrl-C.
# The tests' commands get the disposition a terminal gives them (a Python handler is reset to the default at exec).
import signal as _signal  # noqa: E402
if _signal.getsignal(_signal.SIGINT) == _signal.SIG_IGN:
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)


@pytest.fixture(autouse=True)
def _report_language(request):
    """Formats called in process render in English unless a test asks for Chinese (``@pytest.mark.zh``) —
    the format tests pin the English labels; tests/test_lang.py holds both languages to one language each.
    The command line (``main`` or a subprocess) sets its own language (default zh) whatever this says."""
    from skillproof.model import lang
    with lang.using("zh" if request.node.get_closest_marker("zh") else "en"):
        yield


_KEPT_SIGNALS = ("SIGINT", "SIGTERM")


def _signal_state():
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        return None
    handlers = {name: signal.getsignal(getattr(signal, name)) for name in _KEPT_SIGNALS}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else None
    return handlers, mask


@pytest.fixture(autouse=True)
def _signal_state_kept(request):
    """Every test leaves SIGINT's and SIGTERM's handlers and the blocked-signal mask as it found them. A handler set
    to ignore or a signal left blocked is inherited by every process a later test starts in the same worker
    (tests/test_signals.py's commands would never see their Ctrl-C). A test that leaks is named in a warning and
    the state is put back."""
    import signal
    import warnings
    before = _signal_state()
    yield
    after = _signal_state()
    if before is None or after == before:
        return
    handlers, mask = before
    for name, h in handlers.items():
        if h is not None:
            signal.signal(getattr(signal, name), h)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    warnings.warn(f"{request.node.nodeid} left the signal state changed: {before} -> {after} (put back)")
