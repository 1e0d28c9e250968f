"""Scenario files: a witness saved as JSON that a designer can edit and replay through the reference
interpreter (`skillproof replay`). A scenario is a trace — ``{"trace": {"setup": …, "events": […]},
"question": …, "expect": …, "also": […]}``: the table at the start and the game's events in order
(``model.trace``) — or, in older files, one untimed state (``{"state": …, …}``).

``load(path, cat)`` reads and validates one: every error names the file, the line, the JSON path and
what is wrong, with the nearest valid name when something is misspelt — never a traceback. Whether the
trace is *legal* (each event allowed in its window) is not a format error: ``replay`` runs it and says.
"""
from __future__ import annotations

import json

from skillproof.model import trace as TR
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.loader import CatalogueError
from skillproof.model.names import nearest
from skillproof.model.state import Seat, State

#: the keys an event of each kind may carry (model.trace.Event), the first ones required
EVENT_KEYS = {
    "turn": (("seat",), ("sender",)),
    "window": (("window",), ("in_front", "sender", "dying")),
    "give": (("seat", "giver", "site"), ("args",)),
    "replace": (("seat", "character"), ("via",)),
    "use": (("seat", "rule"), ()),
    "play": (("seat", "card"), ()),
}
SEAT_KEYS = ("seat", "in_front", "sender", "dying", "giver")
TOP_KEYS = ("trace", "state", "question", "expect", "also", "note", "finding", "query")
DECISIONS = {
    "conversion": ("actual", "declared"), "banned": ("declared",), "can_play": ("actual", "declared"),
    "receive": (), "send": ("group",), "skip_fight": (), "skip_dying": (), "draw": (), "reachable": (),
    "turn_end": (), "holds": ("rule",), "result": (), "plays": ("skill", "actual", "declared"),
    "resolves": ("declared",), "fires": ("rule",),
}


# a scenario error is located like a catalogue error: file, line, key (the JSON path), message
ScenarioError = CatalogueError


class ScenarioErrors(Exception):
    def __init__(self, errors):
        super().__init__("; ".join(map(str, errors)))
        self.errors = errors


# ------------------------------------------------------------------ JSON with the line of every value
class _Pos:
    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.i = 0
        self.lines: dict = {}        # path tuple -> line

    def line_at(self, i: int) -> int:
        return self.text.count("\n", 0, i) + 1

    def fail(self, msg: str):
        raise ScenarioErrors([ScenarioError(self.file, self.line_at(self.i), "", f"not valid JSON: {msg}")])

    def ws(self):
        while self.i < len(self.text) and self.text[self.i] in " \t\r\n":
            self.i += 1

    def value(self, path: tuple):
        self.ws()
        self.lines[path] = self.line_at(self.i)
        if self.i >= len(self.text):
            self.fail("unexpected end of file")
        c = self.text[self.i]
        if c == "{":
            self.i += 1
            out = {}
            self.ws()
            if self.text.startswith("}", self.i):
                self.i += 1
                return out
            while True:
                self.ws()
                if not self.text.startswith('"', self.i):
                    self.fail("expected a quoted key")
                key = self.string()
                self.ws()
                if not self.text.startswith(":", self.i):
                    self.fail(f"expected ':' after \"{key}\"")
                self.i += 1
                out[key] = self.value(path + (key,))
                self.ws()
                if self.text.startswith(",", self.i):
                    self.i += 1
                    continue
                if self.text.startswith("}", self.i):
                    self.i += 1
                    return out
                self.fail("expected ',' or '}'")
        if c == "[":
            self.i += 1
            out = []
            self.ws()
            if self.text.startswith("]", self.i):
                self.i += 1
                return out
            while True:
                out.append(self.value(path + (len(out),)))
                self.ws()
                if self.text.startswith(",", self.i):
                    self.i += 1
                    continue
                if self.text.startswith("]", self.i):
                    self.i += 1
                    return out
                self.fail("expected ',' or ']'")
        if c == '"':
            return self.string()
        try:
            v, end = json.JSONDecoder().raw_decode(self.text, self.i)
        except json.JSONDecodeError as e:
            self.i = e.pos
            self.fail(e.msg)
        self.i = end
        return v

    def string(self) -> str:
        try:
            s, end = json.decoder.scanstring(self.text, self.i + 1)
        except json.JSONDecodeError as e:
            self.i = e.pos
            self.fail(e.msg)
        self.i = end
        return s


def parse_json(text: str, file: str):
    p = _Pos(text, file)
    v = p.value(())
    p.ws()
    if p.i != len(text):
        p.fail("extra data after the scenario")
    return v, p.lines


# ------------------------------------------------------------------------------------- validation
class _Checker:
    def __init__(self, cat, file: str, lines: dict):
        self.cat = cat
        self.file = file
        self.lines = lines
        self.errors: list[ScenarioError] = []

    def err(self, path: tuple, msg: str):
        line = 1
        for k in range(len(path), -1, -1):
            if path[:k] in self.lines:
                line = self.lines[path[:k]]
                break
        shown = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))
        self.errors.append(ScenarioError(self.file, line, shown, msg))

    def dym(self, word, cands) -> str:
        n = nearest(str(word), cands)
        return f" — did you mean '{n}'?" if n else ""

    def typed(self, path, v, ty, what) -> bool:
        ok = isinstance(v, ty) and not (ty is int and isinstance(v, bool))
        if not ok:
            self.err(path, f"{what} must be {'an integer' if ty is int else 'true or false' if ty is bool else 'a ' + ty.__name__}")
        return ok

    def check(self, d) -> None:
        if not isinstance(d, dict):
            self.err((), "a scenario is a JSON object with \"trace\" (or \"state\"), \"question\" and \"expect\"")
            return
        for k in d:
            if k not in TOP_KEYS:
                self.err((k,), f"unknown key '{k}'{self.dym(k, ['trace', 'state', 'question', 'expect', 'also'])}")
        if "trace" in d:
            self.trace(d["trace"])
        elif "state" not in d:
            self.err((), "missing key 'trace' (the table at the start and the events: {\"setup\": …, \"events\": […]}) "
                         "or, in an older untimed scenario, 'state'")
        if "state" in d:
            self.state(("state",), d["state"])
        if "question" not in d:
            self.err((), "missing key 'question' (e.g. {\"decision\": \"can_play\", \"actual\": \"Jie_Huo\", "
                         "\"declared\": \"Wu_Dao\"})")
        else:
            self.question(("question",), d["question"])
        if "expect" in d and not isinstance(d["expect"], dict):
            self.err(("expect",), "'expect' must be an object of answer keys, e.g. {\"can_play\": true}")
        also = d.get("also", [])
        if not isinstance(also, list):
            self.err(("also",), "'also' must be a list of {\"question\": …, \"expect\": …}")
        else:
            for i, item in enumerate(also):
                if not isinstance(item, dict) or "question" not in item:
                    self.err(("also", i), "each 'also' entry needs a 'question'")
                    continue
                self.question(("also", i, "question"), item["question"])
                if "expect" in item and not isinstance(item["expect"], dict):
                    self.err(("also", i, "expect"), "'expect' must be an object")

    def trace(self, tr):
        P = ("trace",)
        if not isinstance(tr, dict):
            self.err(P, "'trace' must be an object: {\"setup\": the table at the start, \"events\": [ … ]}")
            return
        for k in tr:
            if k not in ("setup", "events"):
                self.err(P + (k,), f"unknown key '{k}' of the trace{self.dym(k, ['setup', 'events'])}")
        if "setup" not in tr:
            self.err(P, "missing key 'setup' (the table at the start: {\"seats\": […]})")
            return
        n = self.state(P + ("setup",), tr["setup"])
        events = tr.get("events", [])
        if not isinstance(events, list):
            self.err(P + ("events",), "'events' must be a list of events, e.g. {\"event\": \"turn\", \"seat\": 0}")
            return
        for i, ev in enumerate(events):
            self.event(P + ("events", i), ev, n)

    def event(self, P, ev, n):
        cat = self.cat
        if not isinstance(ev, dict) or "event" not in ev:
            self.err(P, f"an event is an object with \"event\" ({', '.join(TR.EVENT_KINDS)})")
            return
        kind = ev["event"]
        if kind not in EVENT_KEYS:
            self.err(P + ("event",), f"unknown event '{kind}' (events: {', '.join(TR.EVENT_KINDS)})"
                     + self.dym(kind, list(EVENT_KEYS)))
            return
        need, opt = EVENT_KEYS[kind]
        for k in ev:
            if k != "event" and k not in need + opt:
                self.err(P + (k,), f"a '{kind}' event has no key '{k}' (it takes {', '.join(need + opt)})"
                         + self.dym(k, list(need + opt)))
        for k in need:
            if k not in ev:
                self.err(P, f"a '{kind}' event needs '{k}'")
        for k in SEAT_KEYS:
            if ev.get(k) is not None and self.typed(P + (k,), ev[k], int, f"'{k}'") and n and not 0 <= ev[k] < n:
                self.err(P + (k,), f"'{k}' must be a seat number 0..{n - 1}")
        if "window" in ev and ev["window"] not in TW.WINDOWS:
            self.err(P + ("window",), f"unknown window '{ev['window']}' (windows: {', '.join(TW.WINDOWS)})"
                     + self.dym(ev["window"], list(TW.WINDOWS)))
        if "character" in ev and ev["character"] not in cat.characters:
            self.err(P + ("character",), f"unknown character '{ev['character']}'" +
                     self.dym(ev["character"], list(cat.characters) + [c.name for c in cat.characters.values()]))
        for k in ("rule", "via"):
            if ev.get(k) is not None and ev[k] not in cat.skills:
                self.err(P + (k,), f"unknown skill '{ev[k]}'" + self.dym(ev[k], list(cat.skills)))
        if "site" in ev:
            give = TR.site_of(cat, ev["site"])
            if give is None:
                sites = [g.site_id for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives]
                self.err(P + ("site",), f"no gives site '{ev['site']}' (a site is GIVER#INDEX, e.g. "
                         f"{sites[0] if sites else 'BianZeTong#0'})" + self.dym(ev["site"], sites))
            else:
                self.args(P + ("args",), ev.get("args", {}), cat.skills.get(give.grant))

    def args(self, P, args, rule):
        if not isinstance(args, dict):
            self.err(P, "'args' must be an object")
            return
        for k, v in args.items():
            ty = rule.params.get(k) if rule is not None else None
            if ty is None:
                name = rule.name if rule is not None else "this grant"
                self.err(P + (k,), f"{name} has no parameter '{k}'" +
                         (f" (it takes {', '.join(rule.params)})" if rule is not None and rule.params else
                          " (it takes none)"))
                continue
            self.arg(P + (k,), ty, v)

    def state(self, P, st) -> int:
        """Check a state (or a trace's setup) at path ``P``; returns its number of seats (0 if unreadable)."""
        what = P[-1]
        if not isinstance(st, dict):
            self.err(P, f"'{what}' must be an object")
            return 0
        seats = st.get("seats")
        if not isinstance(seats, list) or not seats:
            self.err(P + ("seats",), "'seats' must be a non-empty list")
            return 0
        n = len(seats)
        for k in ("turn", "sender", "in_front", "dying"):
            if k in st and st[k] is not None:
                if self.typed(P + (k,), st[k], int, f"'{k}'") and not 0 <= st[k] < n:
                    self.err(P + (k,), f"'{k}' must be a seat number 0..{n - 1}")
        if "message" in st:
            if not isinstance(st["message"], list) or any(c not in V.MESSAGE_COLOURS for c in st["message"]):
                self.err(P + ("message",), f"'message' must be a list of colours ({', '.join(V.MESSAGE_COLOURS)})")
        if "message_dir" in st and st["message_dir"] not in V.DIRECTIONS:
            self.err(P + ("message_dir",), f"'message_dir' must be one of {', '.join(V.DIRECTIONS)}"
                     + self.dym(st["message_dir"], V.DIRECTIONS))
        if "unknowns" in st and not isinstance(st["unknowns"], dict):
            self.err(P + ("unknowns",), "'unknowns' must be an object")
        for k in ("window", "interrupted"):
            if st.get(k) is not None and st[k] not in TW.WINDOWS:
                self.err(P + (k,), f"unknown window '{st[k]}'" + self.dym(st[k], list(TW.WINDOWS)))
        for i, seat in enumerate(seats):
            self.seat(P + ("seats", i), seat, n)
        return n

    def seat(self, P, seat, n):
        cat = self.cat
        if not isinstance(seat, dict):
            self.err(P, "a seat must be an object with 'character' and 'skills'")
            return
        ch = seat.get("character")
        if ch not in cat.characters:
            self.err(P + ("character",), f"unknown character '{ch}'" +
                     self.dym(ch, list(cat.characters) + [c.name for c in cat.characters.values()]))
        for k in ("alive", "face_up", "ever_face_up", "locked"):
            if k in seat:
                self.typed(P + (k,), seat[k], bool, f"'{k}'")
        if "identity" in seat and seat["identity"] not in V.COLOURS:
            self.err(P + ("identity",), f"'identity' must be one of {', '.join(V.COLOURS)}" +
                     self.dym(seat["identity"], V.COLOURS))
        for k in Seat.INT_FIELDS:
            if k in seat and self.typed(P + (k,), seat[k], int, f"'{k}'") and seat[k] < 0:
                self.err(P + (k,), f"'{k}' cannot be negative")
        skills = seat.get("skills", [])
        if not isinstance(skills, list):
            self.err(P + ("skills",), "'skills' must be a list")
            return
        for j, inst in enumerate(skills):
            self.skill(P + ("skills", j), inst, n)

    def skill(self, P, inst, n):
        cat = self.cat
        if not isinstance(inst, dict) or "rule" not in inst:
            self.err(P, "a skill entry needs a 'rule' (a skill or grant id)")
            return
        rid = inst["rule"]
        rule = cat.skills.get(rid)
        if rule is None:
            self.err(P + ("rule",), f"unknown skill '{rid}'" +
                     self.dym(rid, list(cat.skills) + [r.name for r in cat.skills.values()]))
            return
        self.args(P + ("args",), inst.get("args", {}), rule)
        if "giver" in inst and inst["giver"] is not None:
            if self.typed(P + ("giver",), inst["giver"], int, "'giver'") and not 0 <= inst["giver"] < n:
                self.err(P + ("giver",), f"'giver' must be a seat number 0..{n - 1}")
        if "site" in inst and inst["site"] is not None:
            site = inst["site"]
            sites = [f"{g.giver}#{g.index}" for g in cat.sites(rid)]
            if site not in sites:
                self.err(P + ("site",), f"no gives site '{site}' hands out {rule.name}" +
                         (f" (sites: {', '.join(sites)})" if sites else ""))
        for k in ("invalid", "used"):
            if k in inst:
                self.typed(P + (k,), inst[k], bool, f"'{k}'")

    def arg(self, P, ty, v):
        cat = self.cat
        if ty == "card":
            if v not in cat.cards:
                self.err(P, f"'{v}' is not a card id" + self.dym(v, list(cat.cards)))
        elif ty == "set<card>":
            if not isinstance(v, list):
                self.err(P, "a set of cards is a list of card ids")
            else:
                for x in v:
                    if x not in cat.cards:
                        self.err(P, f"'{x}' is not a card id" + self.dym(x, list(cat.cards)))
        elif ty == "bool":
            self.typed(P, v, bool, "this parameter")
        elif ty == "int":
            self.typed(P, v, int, "this parameter")
        elif ty == "colour" and v not in V.COLOURS:
            self.err(P, f"'{v}' is not a colour ({', '.join(V.COLOURS)})")

    def question(self, P, q):
        cat = self.cat
        if not isinstance(q, dict) or "decision" not in q:
            self.err(P, "a question needs a 'decision'")
            return
        d = q["decision"]
        if d not in DECISIONS:
            self.err(P + ("decision",), f"unknown decision '{d}'" + self.dym(d, list(DECISIONS)))
            return
        for k in DECISIONS[d]:
            if k not in q:
                self.err(P, f"a '{d}' question needs '{k}'")
        for k in ("actual", "declared"):
            if k in q and q[k] not in cat.cards:
                self.err(P + (k,), f"'{q[k]}' is not a card id" + self.dym(q[k], list(cat.cards)))
        if d == "send":
            if q.get("group") not in SEND_GROUPS:
                self.err(P + ("group",), f"'group' must be one of {', '.join(SEND_GROUPS)}" +
                         self.dym(q.get("group"), SEND_GROUPS))
            if "dir" in q and q["dir"] not in V.DIRECTIONS:
                self.err(P + ("dir",), f"'dir' must be one of {', '.join(V.DIRECTIONS)}")
        if d == "plays" and q.get("skill") not in cat.skills:
            self.err(P + ("skill",), f"unknown skill '{q.get('skill')}'" + self.dym(q.get("skill"), list(cat.skills)))
        elif d == "plays" and cat.skills[q["skill"]].plays is None:
            self.err(P + ("skill",), f"{cat.skills[q['skill']].name} puts no card into play ('plays')")
        if d == "holds" and q.get("rule") not in cat.skills:
            self.err(P + ("rule",), f"unknown skill '{q.get('rule')}'" + self.dym(q.get("rule"), list(cat.skills)))
        if "seat" in q and not isinstance(q["seat"], int):
            self.err(P + ("seat",), "'seat' must be a seat number")


def validate(cat, d, file: str = "<scenario>", lines: dict | None = None) -> list[ScenarioError]:
    c = _Checker(cat, file, lines or {})
    c.check(d)
    if not c.errors:
        n = len((d["trace"]["setup"] if "trace" in d else d["state"])["seats"])
        for path, q in [(("question",), d["question"])] + [(("also", i, "question"), x["question"])
                                                              for i, x in enumerate(d.get("also", []))]:
            if isinstance(q.get("seat", 0), int) and not 0 <= q.get("seat", 0) < n:
                c.err(path + ("seat",), f"'seat' must be a seat number 0..{n - 1}")
    return c.errors


def load(path: str, cat) -> dict:
    """Read and validate a scenario file; raises ScenarioErrors with located messages."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise ScenarioErrors([ScenarioError(path, 1, "", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioErrors([ScenarioError(path, 1, "", "is a directory, not a scenario file")]) from None
    except OSError as e:
        raise ScenarioErrors([ScenarioError(path, 1, "", f"cannot read: {e.strerror}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioErrors([ScenarioError(path, 1, "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    d, lines = parse_json(text, path)
    errs = validate(cat, d, path, lines)
    if errs:
        raise ScenarioErrors(errs)
    return d


def state_of(d: dict) -> State:
    """The untimed state of an older scenario file."""
    return State.from_dict(d["state"])


def trace_of(d: dict) -> TR.Trace | None:
    """The trace of a scenario file (None: an older, untimed scenario)."""
    return TR.Trace.from_dict(d["trace"]) if "trace" in d else None


def items(d: dict) -> list[tuple[dict, dict | None]]:
    """(question, expect or None) for the main question and every 'also'."""
    out = [(d["question"], d.get("expect"))]
    for x in d.get("also", []):
        out.append((x["question"], x.get("expect")))
    return out
