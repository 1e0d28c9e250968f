"""The z3 twin of the reference interpreter (``skillproof.model.interp``): every decision encoded over the
slots of a symbolic state, module by module named as the interpreter's, following it clause by clause
(Cedar-style) but written as symbolic folds instead of loops with early returns — so a bug must be written
twice, differently, to hide. An interpreter function ``f`` in ``model/interp/<area>.py`` has its twin
``enc_f`` in ``checks/enc/<area>.py``. The layout (docs/layout.md):

* ``state`` — the symbolic state (a bounded trace seen from seat 0) and the compilation of expressions;
* ``core`` — the memo of decision encodings, reference values, the slot lookups checks ask with;
* ``windows`` — who may act in which window, at a symbolic moment;
* the decision areas: ``conversion``, ``bans``, ``usable``, ``plays``, ``fires``, ``receive``, ``send``,
  ``skip``, ``draw``, ``result``, ``grants``, ``lifetime``, ``snapshot``;
* ``trace`` — which symbolic traces are legal (``reachability``: the twin of ``interp.trace.run``);
* ``witness`` — between concrete and symbolic: a solver model read back as a trace, a concrete trace pinned.

Each module imports only those listed before it. Import the functions from their module: this package
re-exports nothing.
"""
