"""Kotlin idioms that mean the same, in one form, for the normal form of ``normal.py`` (called from ``_Norm.call`` on
each call it builds, with the parameter of the call's trailing lambda):

* a type filter: ``l.filter { it is T }``, ``l.filter { it is T }.map { it as T }`` and ``l.mapNotNull { it as? T }``
  are ``l.filterIsInstance<T>()``;
* two collections sharing an element: ``a.any { it in b }`` is ``b.any { it in a }`` (``a`` and ``b`` names or members
  of names, the lambda's parameter in neither), in one order;
* a query over a type filter is the query with the type test in its predicate: ``l.filterIsInstance<T>().any { p }``
  is ``l.any { it is T && p }`` (so are ``none``, ``count``, ``first``, ``firstOrNull``, ``find``, ``last``,
  ``lastOrNull``, ``filter``), ``….all { p }`` is ``l.all { it !is T || p }``, and without a predicate ``any()`` /
  ``isNotEmpty()`` is ``l.any { it is T }``, ``none()`` / ``isEmpty()`` is ``l.none { it is T }``, ``count()`` is
  ``l.count { it is T }``.

What is not one of these shapes (a filter on anything but one type test, a cast to another type than the filter's,
``map`` of anything but the cast) is left as written: a change there stays a change.
"""
from __future__ import annotations

import re

#: queries whose predicate may take the type test in front (``q { it is T && p }``)
_AND = frozenset({"any", "none", "count", "first", "firstOrNull", "find", "last", "lastOrNull", "findLast", "filter"})
#: queries without a predicate and the query with one they are
_BARE = {"any": "any", "isNotEmpty": "any", "none": "none", "isEmpty": "none", "count": "count"}


def _lambda_body(a):
    """The one expression of a lambda ``("lambda", ("seq", e))``, or None."""
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "lambda" and isinstance(a[1], tuple) and len(a[1]) == 2 \
            and a[1][0] == "seq" and isinstance(a[1][1], tuple):
        return a[1][1]
    return None


def _lam(e) -> tuple:
    return ("lambda", ("seq", e))


def _type_of(targs: str):
    """``<T>`` → ``T`` (one plain type argument), else None."""
    if isinstance(targs, str) and targs.startswith("<") and targs.endswith(">") and "," not in targs:
        return targs[1:-1].strip() or None
    return None


def _member(x):
    """(receiver, member name) of a call's callee ``("nav", ".", receiver, name)``, or (None, None)."""
    if isinstance(x, tuple) and len(x) == 4 and x[0] == "nav" and x[1] in (".", "?."):
        return x[2], x[3]
    return None, None


def _type_filter(x):
    """(receiver, T) when ``x`` is ``receiver.filterIsInstance<T>()``, else None."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and x[2] == ()):
        return None
    recv, name = _member(x[1])
    t = _type_of(x[3])
    if name == "filterIsInstance" and recv is not None and t is not None:
        return recv, t
    return None


def _filter_is(recv, t) -> tuple:
    return ("call", ("nav", ".", recv, "filterIsInstance"), (), f"<{t}>")


def _and(a, b) -> tuple:
    parts = [a] + (list(b[1:]) if isinstance(b, tuple) and b[:1] == ("and",) else [b])
    return ("and",) + tuple(parts)


def _or(a, b) -> tuple:
    parts = [a] + (list(b[1:]) if isinstance(b, tuple) and b[:1] == ("or",) else [b])
    return ("or",) + tuple(parts)


def _plain_path(x) -> bool:
    """A name, a local or a chain of members of one (``card2.colors``): reading it calls nothing."""
    while isinstance(x, tuple) and len(x) == 4 and x[0] == "nav" and x[1] in (".", "?."):
        x = x[2]
    return isinstance(x, tuple) and len(x) == 2 and x[0] in ("v", "id") or x == ("this_expression", "this")


def _mentions(x, y) -> bool:
    return x == y or (isinstance(x, tuple) and any(_mentions(c, y) for c in x))


def _shape(x) -> str:
    """An order of two operands by their shape (locals' numbers left out: they are given later)."""
    return re.sub(r"\('v', '[vs]\d+'\)", "('v',)", repr(x))


def rewrite_call(x: tuple, param, fresh):
    """``x`` (a call's normal form) in the one form of the module's docstring; ``param``: the local of the call's
    trailing lambda's parameter (None without one), ``fresh()``: a new local, for a predicate the code does not
    write. Returns ``x`` itself when no idiom applies."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "call"):
        return x
    recv, name = _member(x[1])
    if recv is None:
        return x
    args = x[2]
    # a.any { it in b } → b.any { it in a } in one order (the two share an element either way)
    if name == "any" and len(args) == 1 and param is not None:
        e = _lambda_body(args[0])
        if isinstance(e, tuple) and len(e) == 4 and e[:3] == ("in", True, param) and _plain_path(e[3]) and \
                _plain_path(recv) and not _mentions(e[3], param) and not _mentions(recv, param) and \
                _shape(e[3]) < _shape(recv):
            return ("call", ("nav", x[1][1], e[3], "any"), (_lam(("in", True, param, recv)),), x[3])
    # l.filter { it is T } → l.filterIsInstance<T>()
    if name == "filter" and len(args) == 1 and param is not None:
        e = _lambda_body(args[0])
        if isinstance(e, tuple) and len(e) == 4 and e[0] == "is" and e[1] is True and e[2] == param and \
                isinstance(e[3], tuple) and e[3][:1] == ("type",):
            return _filter_is(recv, e[3][1])
    # l.mapNotNull { it as? T } → l.filterIsInstance<T>()
    if name == "mapNotNull" and len(args) == 1 and param is not None:
        e = _lambda_body(args[0])
        if isinstance(e, tuple) and len(e) == 4 and e[0] == "as" and e[1] == "as?" and e[2] == param and \
                isinstance(e[3], tuple) and e[3][:1] == ("type",):
            return _filter_is(recv, e[3][1])
    tf = _type_filter(recv)
    if tf is None:
        return x
    base, t = tf
    # l.filterIsInstance<T>().map { it as T } → l.filterIsInstance<T>()
    if name == "map" and len(args) == 1 and param is not None:
        e = _lambda_body(args[0])
        if isinstance(e, tuple) and len(e) == 4 and e[0] == "as" and e[2] == param and e[3] == ("type", t):
            return recv
    test_is = None
    if len(args) == 1 and param is not None and _lambda_body(args[0]) is not None:
        e = _lambda_body(args[0])
        if name in _AND:
            return ("call", ("nav", x[1][1], base, name), (_lam(_and(("is", True, param, ("type", t)), e)),), x[3])
        if name == "all":
            return ("call", ("nav", x[1][1], base, name), (_lam(_or(("is", False, param, ("type", t)), e)),), x[3])
        return x
    if not args and name in _BARE:
        v = fresh()
        test_is = ("is", True, v, ("type", t))
        return ("call", ("nav", x[1][1], base, _BARE[name]), (_lam(test_is),), "")
    return x


# ----------------------------------------------------------------------------------------------- counted loops
#: the increment of a loop counter ``i++`` / ``++i`` / ``i += 1``
def _increment(s, v) -> bool:
    return isinstance(s, tuple) and (s in (("un", "++", v), ("un", v, "++")) or s == ("assignment", v, "+=", ("lit", "1")))


def _names(x, out: set) -> set:
    """The locals and plain names (``("v", …)``, ``("id", …)``) a normal form reads."""
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] in ("v", "id") and isinstance(x[1], str):
            out.add(x)
        else:
            for c in x:
                _names(c, out)
    return out


def _range_each(n, lam) -> tuple:
    """``(0 ..< n).forEach { … }``: the one form of a loop run ``n`` times (``normal._each_loop`` writes ``for (i in
    0 until n)`` so)."""
    return ("call", ("nav", ".", ("range", "..<", ("lit", "0"), n), "forEach"), (lam,), "")


def repeat_loop(x):
    """``repeat(n) { … }`` → ``(0 ..< n).forEach { … }`` (the index is the lambda's parameter either way), or None."""
    if isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and isinstance(x[1], tuple) and len(x[1]) == 4 and \
            x[1][0] == "call" and x[1][1] == ("id", "repeat") and len(x[1][2]) == 1 and len(x[2]) == 1 and \
            isinstance(x[2][0], tuple) and x[2][0][:1] == ("lambda",):
        return _range_each(x[1][2][0], x[2][0])
    return None


def counter_loop(a, b, uses: dict, pure, has_jump):
    """``var i = 0; while (i < n) { …; i++ }`` → ``(0 ..< n).forEach { … }``, or None. Only when the counter is read
    nowhere else (its declaration, the test and the increment are all its uses), the body has no jump, and ``n`` reads
    and changes nothing the body names (so it is the same number each round, as ``repeat``'s is)."""
    if not (isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and isinstance(a[1], tuple) and a[1][:1] == ("v",)
            and a[2] == ("lit", "0")):
        return None
    v = a[1]
    if not (isinstance(b, tuple) and len(b) == 3 and b[0] == "while_statement" and isinstance(b[1], tuple) and
            len(b[1]) == 4 and b[1][:3] == ("cmp", "<", v) and isinstance(b[2], tuple) and b[2][:1] == ("seq",) and
            len(b[2]) >= 3 and _increment(b[2][-1], v)):
        return None
    n, body = b[1][3], ("seq",) + b[2][1:-1]
    if uses.get(v[1], 0) != 3 or not pure(n) or has_jump(body):
        return None
    if _names(n, set()) & _names(body, set()):
        return None                                 # the body may change the bound
    return _range_each(n, ("lambda", body))
