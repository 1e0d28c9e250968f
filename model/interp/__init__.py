"""The reference interpreter: the meaning of every rule, in plain Python, on concrete states — one module per
decision area, each function citing the design-note line (``note L<n>``: ``skill-architecture.md``) or the
server behaviour (CuteReimu/TheMessage) it implements; where the two disagree this follows the server.

Its z3 twin is ``skillproof.checks.enc``: the same module names, the same clauses, written as symbolic folds
instead of loops with early returns. Tests cross-check the two on many random states and traces. Nothing here
knows about z3. The layout (docs/layout.md):

* ``core`` — expression evaluation (``Env``, ``evaluate``), player attributes, ``live_kinds``, reference values;
* ``windows`` — who may act in which window, the moment a decision is taken;
* the decision areas: ``conversion``, ``bans``, ``usable``, ``plays``, ``fires``, ``receive``, ``send``,
  ``skip``, ``draw``, ``result``, ``grants``, ``lifetime``, ``snapshot``, ``remind``;
* ``trace`` — bounded event traces, executed event by event;
* ``decide`` — the dispatcher: a question about a state handed to its area.

Each module imports only those listed before it (``decide`` and ``trace`` on top). Import the functions from
their module (``from skillproof.model.interp.receive import receive``): this package re-exports nothing.
"""
