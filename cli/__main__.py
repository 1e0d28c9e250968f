import sys

from skillproof.model.signals import hold_until_installed

hold_until_installed()      # a signal while the command starts waits for its handlers (model.signals)

from .cli import entry      # noqa: E402

sys.exit(entry())
