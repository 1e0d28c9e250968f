"""Names in messages: nearest-name suggestions ("did you mean …?"), bounded in time; lookalike and
invisible characters named as such; input echoed on one line, escaped and shortened."""
from __future__ import annotations

import contextlib
import contextvars
import difflib
import unicodedata

from . import limits as L
from .msg import Msg, as_msg

# --------------------------------------------------------------------------------- echoing input
#: characters that break a message line or hide in it: escaped when input is echoed
_LINE_BREAKS = {"\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"}
_INVISIBLE = {0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFEFF, 0xFFA0}
_INVISIBLE |= set(range(0x200B, 0x2010)) | set(range(0x202A, 0x202F)) | set(range(0x2060, 0x2070))
_INVISIBLE |= set(range(0xFE00, 0xFE10))


def invisible(ch: str) -> bool:
    """A character that shows as nothing (or changes how others show): control, zero-width, BOM, bidi."""
    o = ord(ch)
    return ch in _LINE_BREAKS or o in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")


def escape(s: str) -> str:
    """``s`` with every control or invisible character written as an escape (\\n, \\r, \\t, \\u200b …):
    a message stays one line and shows what is really there."""
    if s.isprintable() and not any(ord(c) in _INVISIBLE for c in s):
        return s
    out = []
    for c in s:
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif invisible(c) or not c.isprintable() and c != " ":
            o = ord(c)
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(c)
    return "".join(out)


def shown(v, limit: int = 60) -> str:
    """An input value as a message shows it: escaped, one line, at most about ``limit`` characters
    (longer ones cut, with their length)."""
    s = v if isinstance(v, str) else _short_repr(v, limit)
    if len(s) > limit:
        return escape(s[:limit]) + f"…({len(s):,} characters)"
    return escape(s)


def _short_repr(v, limit: int) -> str:
    """repr() of a value read from a file, without walking more of it than a message can show."""
    if isinstance(v, (list, dict, tuple)):
        n = len(v)
        if n <= 8:                      # small: shown as written (what is in it may be the point)
            try:
                r = repr(v)
            except (ValueError, RecursionError):
                r = ""
            if r and len(r) <= limit:
                return r
        kind = "list" if not isinstance(v, dict) else "table"
        return f"a {kind} of {n:,} item{'s' if n != 1 else ''}"
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10 ** 30:
        return f"an integer of {len(str(abs(v))) if abs(v) < 10 ** 4000 else 'over 4,000'} digits"
    r = repr(v)
    return r if len(r) <= 4 * limit else r[: 4 * limit]


def echo(v, limit: int = 60) -> Msg:
    """An input value as a message shows it (``shown``), in both languages: a long string cut with its
    length, a large list or table described; in Chinese a value that is not a string is written as JSON
    (true, null, ["a", 1]), not as a Python repr."""
    if isinstance(v, str):
        if len(v) > limit:
            return Msg("{s}…（共 {n:,} 个字符）", "{s}…({n:,} characters)", s=escape(v[:limit]), n=len(v))
        return as_msg(escape(v))
    return Msg("{zh}", "{en}", zh=_zh_value(v, limit), en=shown(v, limit))


def _zh_value(v, limit: int) -> str:
    if isinstance(v, (list, dict, tuple)):
        n = len(v)
        if n <= 8:
            import json
            try:
                r = json.dumps(v, ensure_ascii=False, default=str)
            except (ValueError, RecursionError, TypeError):
                r = ""
            if r and len(r) <= limit:
                return escape(r)
        return f"含 {n:,} 项的{'表' if isinstance(v, dict) else '列表'}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, int) and abs(v) > 10 ** 30:
        return f"{len(str(abs(v))) if abs(v) < 10 ** 4000 else '超过 4,000'} 位的整数"
    r = escape(repr(v) if not isinstance(v, float) else str(v))
    return r if len(r) <= 4 * limit else r[: 4 * limit]


def quoted(v, limit: int = 60) -> Msg:
    """An input value quoted in a message: a string in '…' (both languages); another value as ``shown`` in
    English and in '…' (as JSON) in Chinese, where the quotes mark what the user wrote."""
    if isinstance(v, str):
        return Msg("'{s}'", "'{s}'", s=echo(v, limit))
    zh = _zh_value(v, limit)
    return Msg("{z}", "{e}", z=f"'{zh}'" if not zh.startswith("含 ") and "位的整数" not in zh else zh,
               e=shown(v, limit))


# --------------------------------------------------------------------------------- lookalikes
#: letters from other scripts that look like ASCII ones (the common confusables)
_CONFUSABLE = dict(zip(
    "АВЕЅІЈКМНОРСТХУаеіјорсуххѕԁɡһӏɩοаντυκΑΒΕΖΗΙΚΜΝΟΡΤΥΧϲ",
    "ABESIJKMHOPCTXYaeijopcyxxsdghlioavtukABEZHIKMNOPTYXc"))


def skeleton(s: str) -> str:
    """What a name looks like: NFKC-folded (full-width forms, ligatures), lookalike letters mapped to
    the ASCII ones, invisible characters dropped."""
    s = unicodedata.normalize("NFKC", s)
    return "".join(_CONFUSABLE.get(c, c) for c in s if not invisible(c))


def _charname(c: str) -> str:
    return f"U+{ord(c):04X}" + (f" {unicodedata.name(c)}" if unicodedata.name(c, "") else "")


def _code(c: str) -> str:
    return f"U+{ord(c):04X}"


def describe_char(c: str) -> Msg:
    """A character for an "unexpected character" message: escaped, with its code point, and what it
    looks like when it is invisible or a lookalike of an ASCII one. (The Unicode name, English, is given
    in English only.)"""
    if invisible(c):
        return Msg("'{c}'（不可见字符 {u}）", "'{c}' (an invisible character, {n})", c=escape(c), u=_code(c),
                   n=_charname(c))
    sk = skeleton(c)
    if sk != c and sk.isascii() and sk.isprintable():
        return Msg("'{c}'（{u}，与 '{sk}' 形似）", "'{c}' ({n}, a lookalike of '{sk}')", c=c, u=_code(c),
                   n=_charname(c), sk=sk)
    return Msg("'{c}'（{u}）", "'{c}' ({n})", c=c, u=_code(c), n=_charname(c))


def lookalike(name: str, known: str) -> Msg | None:
    """Why ``name`` is not ``known`` although it looks the same, or None if they look different."""
    if name == known or len(name) > L.SUGGEST_CHARS * 4 or skeleton(name) != skeleton(known):
        return None
    hidden = [c for c in name if invisible(c)]
    if hidden:
        return Msg("其中有不可见字符 {u}；去掉它就是 '{k}'",
                   "it contains an invisible character {n}; without it, it is '{k}'",
                   u=_code(hidden[0]), n=_charname(hidden[0]), k=escape(known))
    for c in name:
        if c not in known and skeleton(c) != c:
            return Msg("其中的 '{c}' 是 {u}，与 '{sk}' 形似——已知的名字是 '{k}'",
                       "its '{c}' is {n}, a lookalike of '{sk}' — the known name is '{k}'",
                       c=c, u=_code(c), n=_charname(c), sk=skeleton(c), k=escape(known))
    return Msg("看起来像 '{k}'，但用的是别的字符", "it looks like '{k}' but is written with other characters",
               k=escape(known))


# --------------------------------------------------------------------------------- nearest name
_BUDGET: contextvars.ContextVar = contextvars.ContextVar("suggest_budget", default=None)


class _Budget:
    def __init__(self, cells: int):
        self.left = cells


@contextlib.contextmanager
def suggestion_budget(cells: int = L.SUGGEST_CELLS_PER_RUN):
    """Within this block, all suggestions together may spend at most ``cells`` edit-distance cells;
    then they stop (an error is still reported, only without "did you mean")."""
    tok = _BUDGET.set(_Budget(cells))
    try:
        yield
    finally:
        _BUDGET.reset(tok)


def _dist(a: str, b: str, cap: int | None = None) -> int:
    """Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions); with
    ``cap``, any result above it is returned as ``cap + 1`` (and found early)."""
    a, b = a.lower(), b.lower()
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if cap is not None and min(cur) > cap:
            return cap + 1
        prev2, prev = prev, cur
    d = prev[len(b)]
    return d if cap is None or d <= cap else cap + 1


def nearest(name: str, candidates) -> str | None:
    """The candidate closest to ``name``, or None if nothing is reasonably close.

    Bounded: names longer than ``limits.SUGGEST_CHARS`` get no suggestion, only candidates whose length
    could be close are compared, and the work per call (and per ``suggestion_budget`` block) is capped."""
    if not isinstance(name, str) or not name or len(name) > L.SUGGEST_CHARS:
        return None
    budget = _BUDGET.get()
    if budget is not None and budget.left <= 0:
        return None
    n = len(name)
    cands = sorted({c for c in candidates if isinstance(c, str) and c and 0.5 * n <= len(c) <= 2 * n + 2},
                   key=lambda c: (abs(len(c) - n), c))
    if not cands:
        return None
    spent = 0
    best, best_d = None, None
    for c in cands:
        limit = max(1, min(n, len(c)) // 3)
        if abs(len(c) - n) > limit:
            continue
        if spent > L.SUGGEST_CELLS_PER_NAME:
            break
        spent += n * len(c)
        d = _dist(name, c, limit)
        if d <= limit and (best_d is None or (d, c) < (best_d, best)):
            best, best_d = c, d
    if budget is not None:
        budget.left -= spent
    if best is not None:
        return best
    pool = [c for c in cands if 0.6 * n <= len(c) <= n / 0.6][:2000]
    if budget is not None:
        budget.left -= sum(len(c) + n for c in pool)
    close = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.75)
    return close[0] if close else None


def hint(name, candidates, show=None) -> Msg:
    """The end of an "unknown name" message: " — did you mean 'x'?" (——你是不是想写 'x'？), or, when
    ``name`` only looks like a known name (an invisible character, a lookalike letter), a sentence saying
    so; an empty message (false) if nothing fits. ``show(candidate)`` renders the suggestion (a string or a
    message; default: quoted)."""
    if not isinstance(name, str) or not name or len(name) > L.SUGGEST_CHARS * 4:
        return Msg("", "")
    cands = [c for c in candidates if isinstance(c, str)]
    sk = skeleton(name)
    if sk != name:                      # only a name with odd characters can look like another one
        same = sorted(c for c in cands if len(c) <= 4 * L.SUGGEST_CHARS and skeleton(c) == sk and c != name)
        if same:
            return Msg("——{w}", " — {w}", w=lookalike(name, same[0]))
    n = nearest(name, cands)
    if not n:
        return Msg("", "")
    return did_you_mean(show(n) if show else repr_name(n))


def did_you_mean(shown_name) -> Msg:
    """" — did you mean X?" / "——你是不是想写 X？" (``shown_name``: a string or a message)."""
    return Msg("——你是不是想写 {n}？", " — did you mean {n}?", n=shown_name)


def repr_name(n: str) -> str:
    return f"'{escape(n)}'"


def excerpt(text: str, col: int, width: int = 60) -> str:
    """A piece of ``text`` around 0-based column ``col``, escaped, marked with … where cut."""
    if len(text) <= width:
        return escape(text)
    start = max(0, min(col - width // 2, len(text) - width))
    piece = text[start:start + width]
    return ("…" if start else "") + escape(piece) + ("…" if start + width < len(text) else "")
