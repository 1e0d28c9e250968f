"""Scenario files: a witness saved as JSON (``{"trace": {"setup": …, "events": […]}, "question": …, "expect": …,
"also": […]}``; older files hold an untimed ``"state"`` instead of the trace) that a designer can edit and
replay through the reference interpreter (`skillproof replay`).

``load(path, cat)`` reads and validates one: every error names the file, the line, the JSON path and
what is wrong, with the nearest valid name when something is misspelt — never a traceback.
"""
from __future__ import annotations

import json
import re

from skillproof.model import limits as L
from skillproof.model.interp import trace as TR
from skillproof.model.interp.grants import site_of
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.errtext import SEE_LIMITS, json_reason, not_utf8, os_reason
from skillproof.model.loader import CatalogueError
from skillproof.model.msg import Msg
from skillproof.model.names import echo, hint, quoted, shown, suggestion_budget
from skillproof.model.state import Seat, State

DECISIONS = {
    "conversion": ("actual", "declared"), "banned": ("declared",), "can_play": ("actual", "declared"),
    "receive": (), "send": ("group",), "skip_fight": (), "skip_dying": (), "draw": (), "reachable": (),
    "turn_end": (), "holds": ("rule",), "result": (), "plays": ("skill", "actual", "declared"),
    "matters": ("rule",), "resolves": ("declared",), "fires": ("rule",), "remind": (), "table": (),
}
#: the keys of each kind of trace event: (required, optional)
EVENT_KEYS = {
    "turn": (("seat",), ("sender",)),
    "window": (("window",), ("in_front", "sender", "dying")),
    "give": (("seat", "giver", "site"), ("args",)),
    "replace": (("seat", "character"), ("via", "chosen", "chosen2", "choices")),   # a game: its effect's decisions
    "use": (("seat", "rule"), ("target", "chosen", "chosen2", "choices")),
    "play": (("seat", "card"), ("actual", "target")),
    # a game trace's own events (model/interp/game.py; "table": true)
    "draw": ((), ("n",)),
    "send": (("seat",), ("colours", "arrow", "lockable", "dir", "to", "locks", "face_up", "source")),
    "resolve": ((), ("chosen", "chosen2", "choices")),
    "fire": (("seat", "rule"), ("on", "target", "chosen", "chosen2", "choices")),
    "die": (("seat",), ()),
}
EVENT_SEATS = ("seat", "in_front", "sender", "dying", "giver", "target", "chosen", "chosen2", "to")
#: every event kind, the timed model's first (the error messages list them)
ALL_EVENTS = tuple(EVENT_KEYS)


# a scenario error is located like a catalogue error: file, line, key (the JSON path), message
ScenarioError = CatalogueError


class ScenarioErrors(Exception):
    """The located problems of a scenario file (``str(e)``: in the run's language when it is called)."""

    def __init__(self, errors):
        super().__init__()
        self.errors = errors

    def __str__(self) -> str:
        return "; ".join(map(str, self.errors))


# ------------------------------------------------------------------ JSON with the line of every value
_NUM = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class _Pos:
    """A JSON reader that records the line of every value: one pass, lines counted as it goes (linear
    in the size of the file), nesting, number length and string length bounded by ``model.limits``."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.n = len(text)
        self.file = file
        self.i = 0
        self.lines: dict = {}        # path tuple -> line
        self._at, self._line = 0, 1  # a position and its line, moved forward as the reader goes

    def line_at(self, i: int) -> int:
        if i < self._at:
            return self.text.count("\n", 0, i) + 1
        self._line += self.text.count("\n", self._at, i)
        self._at = i
        return self._line

    def fail(self, msg):
        raise ScenarioErrors([ScenarioError(self.file, self.line_at(min(self.i, self.n)), "",
                                            Msg("不是有效的 JSON：{m}", "not valid JSON: {m}", m=msg))])

    def over(self, msg):
        raise ScenarioErrors([ScenarioError(self.file, self.line_at(min(self.i, self.n)), "",
                                            Msg("{m}{see}", "{m}{see}", m=msg, see=SEE_LIMITS))])

    def ws(self):
        t, i, n = self.text, self.i, self.n
        while i < n and t[i] in " \t\r\n":
            i += 1
        self.i = i

    def value(self, path: tuple):
        self.ws()
        self.lines[path] = self.line_at(self.i)
        if self.i >= self.n:
            self.fail(Msg("文件意外结束", "unexpected end of file"))
        if len(path) >= L.JSON_DEPTH:
            self.over(Msg("数组和对象嵌套超过 {n} 层（上限）", "arrays and objects nested more than {n} levels deep (the limit)",
                          n=L.JSON_DEPTH))
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
                    self.fail(Msg("这里应是带引号的键", "expected a quoted key"))
                key = self.string()
                self.ws()
                if not self.text.startswith(":", self.i):
                    self.fail(Msg("\"{k}\" 之后应是 ':'", "expected ':' after \"{k}\"", k=echo(key)))
                self.i += 1
                out[key] = self.value(path + (key,))
                self.ws()
                if self.text.startswith(",", self.i):
                    self.i += 1
                    continue
                if self.text.startswith("}", self.i):
                    self.i += 1
                    return out
                self.fail(Msg("这里应是 ',' 或 '}}'", "expected ',' or '}}'"))
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
                self.fail(Msg("这里应是 ',' 或 ']'", "expected ',' or ']'"))
        if c == '"':
            return self.string()
        m = _NUM.match(self.text, self.i)
        if m and len(m.group()) > L.NUMBER_CHARS:
            self.over(Msg("数有 {n:,} 个字符，上限是 {limit}", "a number of {n:,} characters; the limit is {limit}",
                          n=len(m.group()), limit=L.NUMBER_CHARS))
        try:
            v, end = json.JSONDecoder().raw_decode(self.text, self.i)
        except json.JSONDecodeError as e:
            self.i = e.pos
            self.fail(json_reason(e.msg))
        except (ValueError, RecursionError) as e:       # cannot happen after the checks above; never a traceback
            self.fail(Msg("读不了的值（'{t}'）", "unreadable value ({t})", t=type(e).__name__))
        if isinstance(v, (dict, list)):                  # raw_decode only gets here on scalars
            self.fail(Msg("意外的值", "unexpected value"))
        self.i = end
        return v

    def string(self) -> str:
        try:
            s, end = json.decoder.scanstring(self.text, self.i + 1)
        except json.JSONDecodeError as e:
            self.i = e.pos
            self.fail(json_reason(e.msg))
        if len(s) > L.STRING_CHARS:
            self.over(Msg("字符串有 {n:,} 个字符，上限是 {limit:,}", "a string of {n:,} characters; the limit is {limit:,}",
                          n=len(s), limit=L.STRING_CHARS))
        self.i = end
        return s


def parse_json(text: str, file: str):
    p = _Pos(text, file)
    v = p.value(())
    p.ws()
    if p.i != len(text):
        p.fail(Msg("场景之后还有多余的数据", "extra data after the scenario"))
    return v, p.lines


# ------------------------------------------------------------------------------------- validation
TOP_KEYS = ("trace", "state", "question", "expect", "also", "note", "finding", "query", "unrealised")
STATE_KEYS = ("seats", "turn", "sender", "in_front", "dying", "message", "message_dir", "message_lockable",
              "unknowns", "window", "interrupted", "turn_sender",
              # a game's table (model/interp/game.py): the message on its way, the winners
              "message_dir_sent", "message_face_up", "message_sent", "message_received", "declared", "winners")
SEAT_KEYS = ("character", "alive", "face_up", "ever_face_up", "identity", "locked", "skills",
             "invalidated", "played", "area", "task", "lost") + Seat.INT_FIELDS
SKILL_KEYS = ("rule", "args", "invalid", "used", "giver", "site", "turns_ago", "at")
#: the keys a question of each decision may have, besides 'decision' and 'seat'
QUESTION_KEYS = {
    "conversion": ("actual", "declared", "only_must"), "banned": ("declared",), "can_play": ("actual", "declared"),
    "receive": (), "send": ("group", "dir", "lock_count"), "skip_fight": (), "skip_dying": (), "draw": (),
    "reachable": (), "turn_end": (), "holds": ("rule",),
    "result": ("kind", "turn", "declared", "winners", "picks", "seating"),
    "plays": ("skill", "user", "actual", "declared"), "matters": ("rule", "args"), "resolves": ("declared",),
    "fires": ("rule",), "remind": ("rule", "already"), "table": (),
}
#: the answer keys of each decision (what 'expect' may name)
ANSWER_KEYS = {
    "conversion": ("ok", "via", "via_index", "has_card"), "banned": ("banned",),
    "can_play": ("can_play", "banned", "has_card"),
    "receive": ("receive", "must", "cannot"), "send": ("in_force", "in_force_index", "allowed", "has_card"),
    "skip_fight": ("skip", "could_act"), "skip_dying": ("skip", "could_act"), "draw": ("draw",),
    "reachable": ("reachable", "why_not"), "turn_end": ("skills",),
    "holds": ("holds", "live", "invalidated", "turns_ago"), "result": ("declared", "winners"),
    "plays": ("validated", "resolves", "has_card"), "matters": ("matters",), "resolves": ("resolves", "via"),
    "fires": ("fires",), "remind": ("remind", "skills", "usable", "prompts", "usable_now"),
    "table": ("alive", "dying", "winner", "game_over", "identity", "task", "hand_count", "received", "red_messages",
              "blue_messages", "black_messages", "true_messages", "non_black_messages"),
}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Checker:
    """Every value of a scenario checked for type, range and meaning, each problem located; a value of
    the wrong type (a list or an object where a name is expected …) is an error like any other."""

    def __init__(self, cat, file: str, lines: dict):
        self.cat = cat
        self.file = file
        self.lines = lines
        self.errors: list[ScenarioError] = []
        self.n = 0                   # seats

    def err(self, path: tuple, msg: str):
        line = 1
        for k in range(len(path), -1, -1):
            if path[:k] in self.lines:
                line = self.lines[path[:k]]
                break
        shown_path = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))
        self.errors.append(ScenarioError(self.file, line, shown(shown_path, 80), msg))

    def dym(self, word, cands) -> str:
        return hint(word, cands) if isinstance(word, str) else ""

    def typed(self, path, v, ty, what) -> bool:
        ok = isinstance(v, ty) and not (ty is int and isinstance(v, bool))
        if not ok:
            zh, en = {int: ("整数", "an integer"), bool: ("'true' 或 'false'", "true or false")}.get(
                ty, (ty.__name__, "a " + ty.__name__))
            self.err(path, Msg("{w}必须是{zh}，不能是{got}", "{w} must be {en}, not {got}", w=_w(what), zh=zh, en=en,
                               got=_what(v)))
        elif ty is int and abs(v) > L.INT_MAX:
            self.err(path, Msg("{w} = {v} 超出范围（整数须在 ±{max:,} 之内）",
                               "{w} = {v} is out of range (integers lie within ±{max:,})",
                               w=_w(what), v=echo(v, 20), max=L.INT_MAX))
            return False
        return ok

    def keys(self, path, d: dict, allowed, what):
        for k in d:
            if k not in allowed:
                self.err(path + (k,), Msg("{w}中有未知的键 {k}{dym}", "unknown key {k} in {w}{dym}", k=_q(k), w=_w(what),
                                          dym=self.dym(k, allowed)))

    def name(self, path, v, table: dict, what: str, names=None) -> bool:
        """Is ``v`` one of ``table``'s ids? (A located error if not, or if it is not even a string.)"""
        if not isinstance(v, str):
            self.err(path, Msg("{w}必须是字符串 id，不能是{got}", "{w} must be a string id, not {got}", w=_w(what),
                               got=_what(v)))
            return False
        if v not in table:
            cands = list(table) + list(names or ())
            if what == "card":
                msg = Msg("{v} 不是牌的 id{dym}", "{v} is not a card id{dym}", v=_q(v), dym=self.dym(v, cands))
            else:
                msg = Msg("未知的{w} {v}{dym}", "unknown {w} {v}{dym}", w=_w(what), v=_q(v), dym=self.dym(v, cands))
            self.err(path, msg)
            return False
        return True

    def seat_no(self, path, v, what, nullable=False) -> bool:
        if v is None and nullable:
            return True
        if self.typed(path, v, int, what) and self.n and not 0 <= v < self.n:
            self.err(path, Msg("{w}必须是座位号 0..{last}", "{w} must be a seat number 0..{last}", w=_w(what),
                               last=self.n - 1))
            return False
        return isinstance(v, int)

    def choice(self, path, v, options, what):
        if not isinstance(v, str) or v not in options:
            self.err(path, Msg("{w}必须是 {zo} 之一，不能是 {v}{dym}", "{w} must be one of {eo}, not {v}{dym}", w=_w(what),
                               zo="、".join(f"'{o}'" for o in options), eo=", ".join(options), v=_q(v),
                               dym=self.dym(v, options)))

    def check(self, d) -> None:
        if not isinstance(d, dict):
            self.err((), Msg("场景是一个带 \"state\"、\"question\" 和 \"expect\" 的 JSON 对象",
                             "a scenario is a JSON object with \"state\", \"question\" and \"expect\""))
            return
        self.keys((), d, TOP_KEYS, Msg("场景", "a scenario"))
        for k in ("note", "finding", "query"):
            if k in d and not isinstance(d[k], str):
                self.err((k,), Msg("'{k}' 必须是字符串，不能是{got}", "'{k}' must be a string, not {got}", k=k, got=_what(d[k])))
        un = d.get("unrealised")        # why the timed trace has no game under it (checks/realise.py): told, not read
        if un is not None and not (isinstance(un, dict) and set(un) <= {"zh", "en"}
                                   and all(isinstance(v, str) for v in un.values())):
            self.err(("unrealised",), Msg("'unrealised' 必须是 {{\"zh\": …, \"en\": …}}，不能是{got}",
                                          "'unrealised' must be {{\"zh\": …, \"en\": …}}, not {got}", got=_what(un)))
        if "trace" in d:
            self.trace(d["trace"])
        elif "state" not in d:
            self.err((), Msg("缺少键 'trace'（开始时的牌桌和事件：{{\"setup\": …, \"events\": […]}}），"
                             "旧的不带时间的场景则是 'state'",
                             "missing key 'trace' (the table at the start and the events: {{\"setup\": …, \"events\": […]}}) "
                             "or, in an older untimed scenario, 'state'"))
        if "state" in d:
            self.state(d["state"])
        if "question" not in d:
            self.err((), Msg("缺少键 'question'（例如 {{\"decision\": \"can_play\", \"actual\": \"Jie_Huo\", "
                             "\"declared\": \"Wu_Dao\"}}）",
                             "missing key 'question' (e.g. {{\"decision\": \"can_play\", \"actual\": \"Jie_Huo\", "
                             "\"declared\": \"Wu_Dao\"}})"))
        else:
            self.question(("question",), d["question"], d.get("expect"), ("expect",))
        also = d.get("also", [])
        if not isinstance(also, list):
            self.err(("also",), Msg("'also' 必须是 {{\"question\": …, \"expect\": …}} 的列表",
                                    "'also' must be a list of {{\"question\": …, \"expect\": …}}"))
        elif len(also) >= L.QUESTIONS:
            self.err(("also",), Msg("'also' 有 {n:,} 个问题，上限是 {limit:,}", "'also' has {n:,} questions; the limit is {limit:,}",
                                    n=len(also), limit=L.QUESTIONS - 1))
        else:
            for i, item in enumerate(also):
                if not isinstance(item, dict) or "question" not in item:
                    self.err(("also", i), Msg("'also' 的每一项都需要 'question'", "each 'also' entry needs a 'question'"))
                    continue
                self.keys(("also", i), item, ("question", "expect"), Msg("'also' 的一项", "an 'also' entry"))
                self.question(("also", i, "question"), item["question"], item.get("expect"), ("also", i, "expect"))

    def trace(self, tr):
        P = ("trace",)
        if not isinstance(tr, dict):
            self.err(P, Msg("'trace' 必须是对象 {{\"setup\": 开始时的牌桌, \"events\": [ … ]}}，不能是{got}",
                            "'trace' must be an object {{\"setup\": the table at the start, \"events\": [ … ]}}, not {got}",
                            got=_what(tr)))
            return
        self.keys(P, tr, ("setup", "events", "table"), Msg("经过 'trace'", "the trace"))
        if "table" in tr:
            self.typed(P + ("table",), tr["table"], bool, "'table'")
        if "setup" not in tr:
            self.err(P, Msg("缺少键 'setup'（开始时的牌桌：{{\"seats\": […]}}）",
                            "missing key 'setup' (the table at the start: {{\"seats\": […]}})"))
            return
        self.state(tr["setup"], P + ("setup",))
        events = tr.get("events", [])
        if not isinstance(events, list):
            self.err(P + ("events",), Msg("'events' 必须是事件的列表，例如 {{\"event\": \"turn\", \"seat\": 0}}，不能是{got}",
                                          "'events' must be a list of events, e.g. {{\"event\": \"turn\", \"seat\": 0}}, not {got}",
                                          got=_what(events)))
            return
        if len(events) > L.TRACE_EVENTS:
            self.err(P + ("events",), Msg("{n:,} 个事件，上限是 {limit:,}", "{n:,} events; the limit is {limit:,}",
                                          n=len(events), limit=L.TRACE_EVENTS))
            return
        for i, ev in enumerate(events):
            self.event(P + ("events", i), ev)

    def event(self, P, ev):
        cat = self.cat
        if not isinstance(ev, dict) or "event" not in ev:
            self.err(P, Msg("事件是带 \"event\"（{zk}）的对象", "an event is an object with \"event\" ({ek})",
                            zk="、".join(f"'{k}'" for k in ALL_EVENTS), ek=", ".join(ALL_EVENTS)))
            return
        kind = ev["event"]
        if not isinstance(kind, str) or kind not in EVENT_KEYS:
            self.err(P + ("event",), Msg("未知的事件 {v}（事件有：{zk}）{dym}", "unknown event {v} (events: {ek}){dym}",
                                         v=_q(kind), zk="、".join(f"'{k}'" for k in ALL_EVENTS),
                                         ek=", ".join(ALL_EVENTS), dym=self.dym(kind, list(EVENT_KEYS))))
            return
        need, opt = EVENT_KEYS[kind]
        self.keys(P, ev, ("event",) + need + opt, Msg("'{k}' 事件", "a '{k}' event", k=kind))
        for k in need:
            if k not in ev:
                self.err(P, Msg("'{kind}' 事件需要 '{k}'", "a '{kind}' event needs '{k}'", kind=kind, k=k))
        for k in EVENT_SEATS:
            if k in ev:
                self.seat_no(P + (k,), ev[k], f"'{k}'", nullable=True)
        if "window" in ev:
            self.choice(P + ("window",), ev["window"], tuple(TW.WINDOWS), "'window'")
        if "character" in ev:
            self.name(P + ("character",), ev["character"], cat.characters, "character",
                      [c.name for c in cat.characters.values()])
        for k in ("rule", "via"):
            if ev.get(k) is not None:
                self.name(P + (k,), ev[k], cat.skills, "skill", [r.name for r in cat.skills.values()])
        for k in ("card", "actual"):
            if ev.get(k) is not None:
                self.name(P + (k,), ev[k], cat.cards, "card", [c.name for c in cat.cards.values()])
        if "n" in ev and ev["n"] is not None and self.typed(P + ("n",), ev["n"], int, "'n'") and ev["n"] < 0:
            self.err(P + ("n",), _negative("n"))
        for k in ("lockable", "face_up"):
            if ev.get(k) is not None:
                self.typed(P + (k,), ev[k], bool, f"'{k}'")
        for k in ("arrow", "dir"):
            if ev.get(k) is not None:
                self.choice(P + (k,), ev[k], V.DIRECTIONS, f"'{k}'")
        if ev.get("source") is not None:
            self.choice(P + ("source",), ev["source"], ("hand", "deck_top", "message_area"), "'source'")
        if ev.get("colours") is not None and (not isinstance(ev["colours"], list) or any(
                not isinstance(c, str) or c not in V.MESSAGE_COLOURS for c in ev["colours"])):
            self.err(P + ("colours",), Msg("'colours' 必须是颜色的列表（{z}）", "'colours' must be a list of colours ({e})",
                                           z="、".join(f"'{c}'" for c in V.MESSAGE_COLOURS), e=", ".join(V.MESSAGE_COLOURS)))
        if ev.get("locks") is not None:
            if not isinstance(ev["locks"], list):
                self.err(P + ("locks",), Msg("'locks' 必须是座位的列表", "'locks' must be a list of seats"))
            else:
                for j, x in enumerate(ev["locks"][:L.SEATS + 1]):
                    self.seat_no(P + ("locks", j), x, "'locks'")
        if ev.get("choices") is not None and not isinstance(ev["choices"], dict):
            self.err(P + ("choices",), Msg("'choices' 必须是对象（效果的路径 → 决定）", "'choices' must be an object "
                                                                                  "(an effect's op path → its decision)"))
        if ev.get("on") is not None:
            from skillproof.model.events import EVENT_KINDS as ON_KINDS
            self.choice(P + ("on",), ev["on"], tuple(ON_KINDS), "'on'")
        if "site" in ev:
            give = site_of(cat, ev["site"]) if isinstance(ev["site"], str) else None
            if give is None:
                sites = [g.site_id for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives]
                self.err(P + ("site",), Msg("没有给出位置 {v}（位置写成 '给出者#序号'，例如 '{ex}'）{dym}",
                                            "no gives site {v} (a site is GIVER#INDEX, e.g. {ex}){dym}", v=_q(ev['site']),
                                            ex=sites[0] if sites else 'BianZeTong#0', dym=self.dym(ev["site"], sites)))
            else:
                self.args(P + ("args",), ev.get("args", {}), cat.skills.get(give.grant))

    def args(self, P, args, rule):
        if not isinstance(args, dict):
            self.err(P, Msg("'args' 必须是对象，不能是{got}", "'args' must be an object, not {got}", got=_what(args)))
            return
        for k, v in args.items():
            ty = rule.params.get(k) if rule is not None else None
            if ty is None:
                name = rule.name if rule is not None else Msg("这个给出的技能", "this grant")
                takes = Msg("（它的参数是 {z}）", " (it takes {e})", z="、".join(f"'{p}'" for p in rule.params),
                            e=", ".join(rule.params)) if rule is not None and rule.params else \
                    Msg("（它不带参数）", " (it takes none)")
                self.err(P + (k,), Msg("{n}没有参数 {k}{t}", "{n} has no parameter {k}{t}", n=name, k=_q(k), t=takes))
                continue
            self.arg(P + (k,), ty, v)

    def state(self, st, P=("state",)):
        what = P[-1]
        if not isinstance(st, dict):
            self.err(P, Msg("'{w}' 必须是对象，不能是{got}", "'{w}' must be an object, not {got}", w=what, got=_what(st)))
            return
        self.keys(P, st, STATE_KEYS, Msg("'{w}'", "the {w}", w=what))
        seats = st.get("seats")
        if not isinstance(seats, list) or not seats:
            self.err(P + ("seats",), Msg("'seats' 必须是非空的列表", "'seats' must be a non-empty list"))
            return
        if len(seats) > L.SEATS:
            self.err(P + ("seats",), Msg("{n:,} 个座位，上限是 {limit}", "{n:,} seats; the limit is {limit}",
                                         n=len(seats), limit=L.SEATS))
            return
        self.n = len(seats)
        for k in ("turn", "sender", "in_front", "dying", "turn_sender"):
            if k in st:
                self.seat_no(P + (k,), st[k], f"'{k}'", nullable=k != "turn")
        for k in ("window", "interrupted"):
            if st.get(k) is not None:
                self.choice(P + (k,), st[k], tuple(TW.WINDOWS), f"'{k}'")
        if "message" in st:
            m = st["message"]
            if not isinstance(m, list) or any(not isinstance(c, str) or c not in V.MESSAGE_COLOURS for c in m):
                self.err(P + ("message",), Msg("'message' 必须是颜色的列表（{z}）", "'message' must be a list of colours ({e})",
                                               z="、".join(f"'{c}'" for c in V.MESSAGE_COLOURS), e=", ".join(V.MESSAGE_COLOURS)))
        if "message_dir" in st:
            self.choice(P + ("message_dir",), st["message_dir"], V.DIRECTIONS, "'message_dir'")
        if "message_lockable" in st:
            self.typed(P + ("message_lockable",), st["message_lockable"], bool, "'message_lockable'")
        if "unknowns" in st:
            u = st["unknowns"]
            if not isinstance(u, dict):
                self.err(P + ("unknowns",), Msg("'unknowns' 必须是对象，不能是{got}", "'unknowns' must be an object, not {got}",
                                                got=_what(u)))
            else:
                for k, v in u.items():
                    if not isinstance(v, bool) and not self.typed(P + ("unknowns", k), v, int,
                                                                  Msg("未知量的值", "an unknown's value")):
                        continue
        for i, seat in enumerate(seats):
            self.seat(P + ("seats", i), seat)

    def seat(self, P, seat):
        cat = self.cat
        if not isinstance(seat, dict):
            self.err(P, Msg("座位必须是带 'character' 和 'skills' 的对象，不能是{got}",
                            "a seat must be an object with 'character' and 'skills', not {got}", got=_what(seat)))
            return
        self.keys(P, seat, SEAT_KEYS, Msg("座位", "a seat"))
        if "character" not in seat:
            self.err(P, Msg("座位需要 'character'", "a seat needs a 'character'"))
        else:
            self.name(P + ("character",), seat["character"], cat.characters, "character",
                      [c.name for c in cat.characters.values()])
        for k in ("alive", "face_up", "ever_face_up", "locked", "invalidated"):
            if k in seat:
                self.typed(P + (k,), seat[k], bool, f"'{k}'")
        if "identity" in seat:
            self.choice(P + ("identity",), seat["identity"], V.COLOURS, "'identity'")
        if seat.get("task") is not None:
            from skillproof.model.interp.win import TASKS
            self.choice(P + ("task",), seat["task"], TASKS, "'task'")
        if "lost" in seat:
            self.typed(P + ("lost",), seat["lost"], bool, "'lost'")
        if "area" in seat:
            from skillproof.model.interp.table import CLASSES
            a = seat["area"]
            if not isinstance(a, dict):
                self.err(P + ("area",), Msg("'area' 必须是对象（情报的颜色类 → 张数）",
                                            "'area' must be an object (a message colour class → how many)"))
            else:
                for c, k in a.items():
                    if c not in CLASSES:
                        self.err(P + ("area", c), Msg("未知的情报颜色类 {v}（有：{z}）", "unknown message colour class {v} "
                                                                                "(classes: {e})", v=_q(c),
                                                    z="、".join(CLASSES), e=", ".join(CLASSES)))
                    elif self.typed(P + ("area", c), k, int, "'area'") and k < 0:
                        self.err(P + ("area", c), _negative(c))
        for k in Seat.INT_FIELDS:
            if k in seat and self.typed(P + (k,), seat[k], int, f"'{k}'") and seat[k] < 0:
                self.err(P + (k,), _negative(k))
        if "played" in seat:                     # the cards used this turn, as declared
            if not isinstance(seat["played"], list):
                self.err(P + ("played",), Msg("'played' 必须是牌的 id 的列表，不能是{got}",
                                              "'played' must be a list of card ids, not {got}", got=_what(seat['played'])))
            else:
                for j, c in enumerate(seat["played"][:len(cat.cards) + 1]):
                    self.name(P + ("played", j), c, cat.cards, "card", [x.name for x in cat.cards.values()])
        skills = seat.get("skills", [])
        if not isinstance(skills, list):
            self.err(P + ("skills",), Msg("'skills' 必须是列表，不能是{got}", "'skills' must be a list, not {got}",
                                          got=_what(skills)))
            return
        if len(skills) > L.SKILLS_PER_SEAT:
            self.err(P + ("skills",), Msg("{n:,} 个技能，上限是 {limit}", "{n:,} skills; the limit is {limit}",
                                          n=len(skills), limit=L.SKILLS_PER_SEAT))
            return
        for j, inst in enumerate(skills):
            self.skill(P + ("skills", j), inst)

    def skill(self, P, inst):
        cat = self.cat
        if not isinstance(inst, dict) or "rule" not in inst:
            self.err(P, Msg("技能项需要 'rule'（技能或给出的技能的 id）", "a skill entry needs a 'rule' (a skill or grant id)"))
            return
        self.keys(P, inst, SKILL_KEYS, Msg("技能项", "a skill entry"))
        rid = inst["rule"]
        if not self.name(P + ("rule",), rid, cat.skills, "skill", [r.name for r in cat.skills.values()]):
            return
        rule = cat.skills[rid]
        self.args(P + ("args",), inst.get("args", {}), rule)
        if "turns_ago" in inst and self.typed(P + ("turns_ago",), inst["turns_ago"], int, "'turns_ago'") \
                and inst["turns_ago"] < 0:
            self.err(P + ("turns_ago",), _negative("turns_ago"))
        if inst.get("at") is not None:
            self.choice(P + ("at",), inst["at"], tuple(TW.WINDOWS), "'at'")
        if "giver" in inst:
            self.seat_no(P + ("giver",), inst["giver"], "'giver'", nullable=True)
        if "site" in inst and inst["site"] is not None:
            site = inst["site"]
            sites = [f"{g.giver}#{g.index}" for g in cat.sites(rid)]
            if not isinstance(site, str) or site not in sites:
                self.err(P + ("site",), Msg("没有给出{n}的给出位置 {v}{zs}", "no gives site {v} hands out {n}{es}",
                                            v=_q(site), n=rule.name,
                                            zs=f"（位置有：{'、'.join(sites)}）" if sites else "",
                                            es=f" (sites: {', '.join(sites)})" if sites else ""))
        for k in ("invalid", "used"):
            if k in inst:
                self.typed(P + (k,), inst[k], bool, f"'{k}'")

    def arg(self, P, ty, v):
        cat = self.cat
        if ty == "card":
            self.name(P, v, cat.cards, "card")
        elif ty == "set<card>":
            if not isinstance(v, list):
                self.err(P, Msg("一组牌是牌的 id 的列表，不能是{got}", "a set of cards is a list of card ids, not {got}",
                                got=_what(v)))
            else:
                for x in v:
                    self.name(P, x, cat.cards, "card")
        elif ty == "bool":
            self.typed(P, v, bool, Msg("这个参数", "this parameter"))
        elif ty == "int":
            self.typed(P, v, int, Msg("这个参数", "this parameter"))
        elif ty == "colour":
            self.choice(P, v, V.COLOURS, Msg("颜色", "a colour"))

    def question(self, P, q, expect, EP):
        cat = self.cat
        if not isinstance(q, dict) or "decision" not in q:
            self.err(P, Msg("问题需要 'decision'", "a question needs a 'decision'"))
            return
        d = q["decision"]
        if not isinstance(d, str) or d not in DECISIONS:
            self.err(P + ("decision",), Msg("未知的判定 {v}{dym}", "unknown decision {v}{dym}", v=_q(d),
                                            dym=self.dym(d, list(DECISIONS))))
            return
        self.keys(P, q, ("decision", "seat") + QUESTION_KEYS[d], Msg("'{d}' 问题", "a '{d}' question", d=d))
        for k in DECISIONS[d]:
            if k not in q:
                self.err(P, Msg("'{d}' 问题需要 '{k}'", "a '{d}' question needs '{k}'", d=d, k=k))
        if "seat" in q:
            self.seat_no(P + ("seat",), q["seat"], "'seat'")
        if d == "result":
            if "kind" in q:
                self.choice(P + ("kind",), q["kind"], ("win", "result"), "'kind'")
            if "turn" in q:
                self.seat_no(P + ("turn",), q["turn"], "'turn'")
            for k in ("declared", "winners"):
                if k in q:
                    if not isinstance(q[k], list):
                        self.err(P + (k,), _seat_list(k, q[k]))
                    else:
                        for j, x in enumerate(q[k]):
                            self.seat_no(P + (k, j), x, Msg("'{k}' 的每一项", "'{k}' entries", k=k))
            if "picks" in q:
                if not isinstance(q["picks"], dict):
                    self.err(P + ("picks",), Msg("'picks' 必须是座位号的对象，不能是{got}",
                                                 "'picks' must be an object of seat numbers, not {got}", got=_what(q['picks'])))
                else:
                    for k, x in q["picks"].items():
                        self.seat_no(P + ("picks", k), x, Msg("选择的座位", "a pick"))
        else:
            for k in ("actual", "declared"):
                if k in q:
                    self.name(P + (k,), q[k], cat.cards, "card")
        if d == "conversion" and "only_must" in q:
            self.typed(P + ("only_must",), q["only_must"], bool, "'only_must'")
        if d == "send":
            if "group" in q:
                self.choice(P + ("group",), q["group"], SEND_GROUPS, "'group'")
            if "dir" in q:
                self.choice(P + ("dir",), q["dir"], V.DIRECTIONS, "'dir'")
            if "lock_count" in q and self.typed(P + ("lock_count",), q["lock_count"], int, "'lock_count'") \
                    and q["lock_count"] < 0:
                self.err(P + ("lock_count",), _negative("lock_count"))
        if d in ("holds", "matters", "remind") and "rule" in q:
            self.name(P + ("rule",), q["rule"], cat.skills, "skill")
        if d == "remind" and "already" in q:
            self.typed(P + ("already",), q["already"], bool, "'already'")
        if d == "matters" and "args" in q and isinstance(q.get("rule"), str) and q["rule"] in cat.skills:
            self.args(P + ("args",), q["args"], cat.skills[q["rule"]])
        if d == "plays":
            if "user" in q:
                self.seat_no(P + ("user",), q["user"], "'user'")
            if "skill" in q and self.name(P + ("skill",), q["skill"], cat.skills, "skill") \
                    and cat.skills[q["skill"]].plays is None:
                self.err(P + ("skill",), Msg("{n}不打出任何牌（没有 'plays'）", "{n} puts no card into play ('plays')",
                                             n=cat.skills[q['skill']].name))
        if d == "result" and "seating" in q:
            if not isinstance(q["seating"], list):
                self.err(P + ("seating",), _seat_list("seating", q["seating"]))
            else:
                for j, x in enumerate(q["seating"]):
                    self.seat_no(P + ("seating", j), x, Msg("'seating' 的每一项", "'seating' entries"))
        if expect is not None:
            if not isinstance(expect, dict):
                self.err(EP, Msg("'expect' 必须是答案键的对象，例如 `{{\"can_play\": true}}`，不能是{got}",
                                 "'expect' must be an object of answer keys, e.g. {{\"can_play\": true}}, not {got}",
                                 got=_what(expect)))
            else:
                self.keys(EP, expect, ANSWER_KEYS[d], Msg("'{d}' 问题的答案", "the answers of a '{d}' question", d=d))


_WHAT = {bool: ("布尔值", "true or false"), int: ("数", "a number"), float: ("数", "a number"), str: ("字符串", "a string"),
         list: ("列表", "a list"), dict: ("对象", "an object"), type(None): ("'null'", "null")}


def _what(v) -> Msg:
    zh, en = _WHAT.get(type(v), (type(v).__name__, type(v).__name__))
    return Msg(zh, en)


#: what a value is, for the names a check is asked about
_NAMED = {"card": ("牌", "card"), "character": ("角色", "character"), "skill": ("技能", "skill")}


def _w(what) -> Msg:
    """The thing a message is about: a message, a kind of name (card, skill …) or a key quoted ("'seat'")."""
    if isinstance(what, Msg):
        return what
    if what in _NAMED:
        return Msg(*_NAMED[what])
    return Msg("{w} ", "{w}", w=what)


def _negative(k: str) -> Msg:
    return Msg("'{k}' 不能是负数", "'{k}' cannot be negative", k=k)


def _seat_list(k: str, v) -> Msg:
    return Msg("'{k}' 必须是座位号的列表，不能是{got}", "'{k}' must be a list of seat numbers, not {got}", k=k, got=_what(v))


def _q(v) -> Msg:
    return quoted(v)


def validate(cat, d, file: str = "<scenario>", lines: dict | None = None) -> list[ScenarioError]:
    c = _Checker(cat, file, lines or {})
    c.check(d)
    return c.errors


def load(path: str, cat) -> dict:
    """Read and validate a scenario file; raises ScenarioErrors with located messages."""
    from skillproof.model import readfile as RF
    try:
        raw = RF.read_regular(path, L.SCENARIO_BYTES)
    except RF.NotRead as e:
        if e.why == RF.MISSING:
            msg = Msg("没有这个文件", "no such file")
        elif e.why == RF.DIRECTORY:
            msg = Msg("这是一个目录，不是场景文件", "is a directory, not a scenario file")
        elif e.why == RF.NOT_REGULAR:
            msg = Msg("不是普通文件", "not a regular file")
        elif e.why == RF.TOO_BIG:
            msg = Msg("文件超过 {limit:,} 字节（上限；见 docs/catalogue-format.md 的“Limits”一节）",
                      "the file is over {limit:,} bytes (the limit; see docs/catalogue-format.md § Limits)",
                      limit=L.SCENARIO_BYTES)
        else:
            msg = Msg("读不了：{why}", "cannot read: {why}", why=os_reason(e.error))
        raise ScenarioErrors([ScenarioError(path, 1, "", msg)]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioErrors([ScenarioError(path, 1, "", not_utf8(e))]) from None
    if text.startswith("\ufeff"):        # was "not valid JSON: Expecting value" at line 1
        from skillproof.model.errtext import BOM_JSON
        raise ScenarioErrors([ScenarioError(path, 1, "", BOM_JSON)])
    d, lines = parse_json(text, path)
    with suggestion_budget():
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
