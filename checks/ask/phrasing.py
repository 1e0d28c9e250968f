"""Applying the phrasebook (phrases.py) to a question's tokens: ``Matcher`` rewrites how designers write into the
grammar's words, left to right, the longest match at each position, columns kept (parser.Parser reads the
result)."""
from __future__ import annotations

import re

from .lexer import KEYWORDS, Tok
from .phrases import (CLASSIFIERS, COLOURS, COMPILED, DIR_WORDS, EXAMPLE_WORDS, IDENTITIES, INDEX, KIND_WORDS,
                      NUMERALS, SLOTS, TASKS)

_REF = re.compile(r"\{([A-Z]+)(\d?)\}")


class Matcher:
    """Applies the table to a question's tokens. ``p`` is the parser (its name resolution and window phrases)."""

    def __init__(self, p):
        self.p = p
        self._taken: tuple = (None, {})      # (the token list, {(slot, token): what slot() said}): see slot()

    def slot(self, name: str, j: int):
        """The tokens slot ``name`` takes at token ``j`` — (end, value) — or None. What a slot takes depends only on
        the tokens (and the catalogue's names), so it is worked out once per token list: ``apply`` asks the same
        slot at the same token for every row it tries there (~140 calls a question, most of them repeats)."""
        toks, taken = self._taken
        if toks is not self.p.toks:
            self._taken = toks, taken = self.p.toks, {}
        key = (name, j)
        if key not in taken:
            taken[key] = self._slot(name, j)
        return taken[key]

    def _slot(self, name: str, j: int):
        p = self.p
        t = p.toks[j]
        low = t.text.lower()
        if t.kind == "end":
            return None
        if name == "CARD":
            if t.kind == "op" and t.text == "?":
                # `?` for a card left open — not the question mark that ends the question (别人的情报吗？: 情报 and 吗
                # are fillers, so the mark would follow 别人的 as if a card were named)
                nxt = p.toks[j + 1] if j + 1 < len(p.toks) else None
                return (j + 1, None) if nxt is not None and nxt.kind != "end" else None
            r = p.resolve(t, ("card",))
            return (j + 1, r[1]) if r else None
        if name == "TCARD":                    # a card that hands out no skill (被威逼时; 被调虎离山 stays a grant)
            r = p.resolve(t, ("card",))
            return (j + 1, r[1]) if r and not p.cat.cards[r[1]].gives else None
        if name == "SKILL":
            r = p.resolve(t, ("rule",))
            return (j + 1, r[1]) if r and not p.resolve(t, ("card",)) else None
        if name == "GIVER":
            r = p.resolve(t, ("rule", "card"))
            if r is None:
                return None
            src = p.cat.skills.get(r[1]) if r[0] == "rule" else p.cat.cards.get(r[1])
            ok = bool(src.gives) or (r[0] == "rule" and (src.is_grant or src.replaces_role))
            return (j + 1, r[1]) if ok else None
        if name == "CHAR":
            r = p.resolve(t, ("character",))
            return (j + 1, r[1]) if r and not p.resolve(t, ("card",)) else None
        if name == "NUM":
            if t.kind == "num":
                return j + 1, int(t.text)
            if t.text.lower() in NUMERALS:
                return j + 1, NUMERALS[t.text.lower()]
            if len(t.text) == 2 and t.text[0] in NUMERALS and t.text[1] in CLASSIFIERS:     # 一张, 两名
                return j + 1, NUMERALS[t.text[0]]
            return None
        if name == "DIR":
            return (j + 1, DIR_WORDS[low]) if low in DIR_WORDS else None
        if name == "COLOUR":
            return (j + 1, COLOURS[low]) if low in COLOURS else None
        if name == "IDENTITY":
            return (j + 1, IDENTITIES[t.text]) if t.text in IDENTITIES else None
        if name == "TASK":
            return (j + 1, TASKS[low]) if low in TASKS else None
        if name in ("WINDOW", "PHASEW"):         # PHASEW: a window of a turn, not the dying one (濒死)
            w = p.window_at(j)
            if w is None or (name == "PHASEW" and w[0] == "dying"):
                return None
            return w[1], w[0]
        return None

    def match(self, items: list, j: int):
        """Match ``items`` from token ``j``: (end, {slot name + index: (start, end, value)}) or None. Optional items
        are tried taken first, then left out (backtracking over a handful of tokens)."""
        toks = self.p.toks

        def go(k: int, j: int, got: dict):
            if k == len(items):
                return j, got
            it = items[k]
            j0 = j
            if k > 0:                          # filler words (还, 也, 都 …) may stand between the items
                while toks[j].kind == "word" and toks[j].kw == "filler" and \
                        not (it.kind in ("word", "class") and toks[j].text.lower() in it.words) and \
                        not (it.kind == "slot" and self.slot(it.slot, j) is not None):
                    j += 1
            t = toks[j]
            nxt = None
            if it.kind in ("word", "class"):
                if t.kind in ("word", "num", "op", "other") and t.text.lower() in it.words:   # two-colour: the hyphen
                    nxt = (j + 1, None)
            elif it.slot == "SAMECHAR":            # the character the row's CHAR took, named again
                nxt = self.slot("CHAR", j)
                if nxt is None or "CHAR" not in got or nxt[1] != got["CHAR"][2]:
                    nxt = None
            else:
                nxt = self.slot(it.slot, j)
            if nxt is not None:
                g = dict(got)
                if it.kind == "slot":
                    key = it.slot
                    n = 2
                    while key in g:
                        key = f"{it.slot}{n}"
                        n += 1
                    g[key] = (j, nxt[0], nxt[1])
                r = go(k + 1, nxt[0], g)
                if r is not None:
                    return r
            if it.optional:
                return go(k + 1, j0, got)
            return None
        return go(0, j, {})

    def example_for(self):
        """"…能发动主动技能吗？比如偷天": an example at the end stands for the kind of thing the question names
        (技能, 主动技能, 卡牌, 传出情报时的技能 …) — the example replaces those words, the kind's words before it
        included back to the verb, and the question is read with it."""
        p = self.p
        toks = p.toks
        k = next((i for i, t in enumerate(toks) if t.kind == "word" and t.text in EXAMPLE_WORDS), None)
        if k is None:
            return
        ex = k + 1
        while toks[ex].kind == "word" and toks[ex].kw == "filler":
            ex += 1
        if p.resolve(toks[ex], ("rule", "card")) is None or \
                not all(t.kind == "end" or t.text in ("?", ",") or t.kw == "filler" for t in toks[ex + 1:]):
            return
        cat = max((i for i in range(k) if toks[i].kind == "word" and toks[i].text in KIND_WORDS), default=None)
        if cat is None:
            return
        start = cat
        while start > 0 and not (toks[start - 1].kind == "word" and toks[start - 1].kw in ("use", "fire", "play")):
            start -= 1
        if start == 0:
            start = cat
        rest = toks[cat + 1:k]
        while rest and rest[-1].kind == "op" and rest[-1].text in ("?", ","):
            rest = rest[:-1]                      # 吗？比如 … : the question's end comes after the example
        p.toks = toks[:start] + [toks[ex]] + rest + [t for t in toks[ex + 1:] if t.kind == "end" or t.text == "?"]

    def apply(self):
        """Rewrite the parser's tokens with the table, left to right, the longest match at each position."""
        p = self.p
        self.example_for()
        toks = p.toks
        out: list = []
        j = 0
        while j < len(toks):
            t = toks[j]
            if t.kind == "end":
                out.append(t)
                break
            best = None
            rows = set(INDEX.get(t.text.lower(), ()))
            for name in SLOTS:
                if "@" + name in INDEX and self.slot(name, j) is not None:
                    rows.update(INDEX["@" + name])
            for n in sorted(rows):                     # in the table's order: of two as long, the first listed
                items, meaning, pat = COMPILED[n]
                r = self.match(items, j)
                if r is not None and r[0] > j and (best is None or r[0] > best[0]):
                    best = (r[0], r[1], meaning)
            if best is None:
                out.append(t)
                j += 1
                continue
            end, got, meaning = best
            first = next((k for k in range(j, end) if toks[k].kw != "filler"), j)   # 把截获…: from 截获 on
            if meaning.endswith(" ,") and toks[end - 1].kind == "op" and toks[end - 1].text == "," and end - 1 > first:
                # a row that keeps the comma closing its clause (被威逼，…): the comma stays the designer's own
                out.extend(self.render(meaning[:-2], got, toks[first].col, toks[end - 2].end, Tok) + [toks[end - 1]])
                j = end
                continue
            out.extend(self.render(meaning, got, toks[first].col, toks[end - 1].end, Tok))
            j = end
        p.toks = out

    def render(self, meaning: str, got: dict, col: int, end: int, Tok) -> list:
        """The tokens ``meaning`` stands for: the grammar's words spanning the matched words (col … end), slots as
        the designer's own tokens, @cond / @role as ready-made given tokens."""
        toks = self.p.toks
        out = []
        i = 0
        src = self.p.text[col:end]
        while i < len(meaning):
            if meaning[i] == " ":
                i += 1
                continue
            if meaning.startswith("@cond(", i) or meaning.startswith("@role(", i):
                kind = meaning[i + 1:meaning.index("(", i)]
                k, depth = meaning.index("(", i) + 1, 1
                start = k
                while depth:
                    depth += {"(": 1, ")": -1}.get(meaning[k], 0)
                    k += 1
                body = _REF.sub(lambda m: str(self.value_of(got, m.group(1) + m.group(2))), meaning[start:k - 1])
                out.append(Tok(kind, body, col, end, "", src=src))
                i = k
                continue
            k = meaning.find(" ", i)
            k = len(meaning) if k < 0 else k
            w = meaning[i:k]
            i = k
            m = _REF.fullmatch(w)
            if m:
                key = m.group(1) + m.group(2)
                if key in got:
                    a, b, _ = got[key]
                    if m.group(1) == "NUM":
                        out.append(Tok("num", str(got[key][2]), toks[a].col, toks[b - 1].end, "", src=toks[a].text))
                    elif m.group(1) in ("DIR", "COLOUR", "IDENTITY", "TASK"):  # 向左 → left
                        v = str(got[key][2])
                        out.append(Tok("word", v, toks[a].col, toks[b - 1].end, KEYWORDS.get(v, ""), src=toks[a].text))
                    else:
                        out.extend(toks[a:b])
                continue
            if w == "→":
                out.append(Tok("arrow", "→", col, end, src=src))
            elif w in ("==", "!=", "<", ">", "<=", ">=", "="):
                out.append(Tok("op", w, col, end, src=src))
            elif w in ("?", ","):
                out.append(Tok("op", w, col, end, src=src))
            elif w.isdigit():
                out.append(Tok("num", w, col, end, src=src))
            else:
                out.append(Tok("word", w, col, end, KEYWORDS.get(w.lower(), ""), src=src))
        return out

    def value_of(self, got: dict, key: str):
        if key not in got:
            return ""
        return got[key][2]
