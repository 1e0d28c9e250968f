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


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _report_language(request):
    """Formats called in process render in English unless a test asks for Chinese (``@pytest.mark.zh``) —
    the format tests pin the English labels; tests/test_lang.py holds both languages to one language each.
    The command line (``main`` or a subprocess) sets its own language (default zh) whatever this says."""
    from skillproof.model import lang
    with lang.using("zh" if request.node.get_closest_marker("zh") else "en"):
        yield
