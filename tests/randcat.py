"""Random whole catalogues, as TOML text, for cross-checking the interpreter against the z3 encoder.

``random_catalogue(seed)`` writes a small but complete catalogue — ``[rules]`` with random engine settings,
cards with windows (or the older phases, or none) and gives sites, characters, skills and grants of every
kind and kind combination the loader accepts, grant parameters of every type (names shared by several
grants), conversions from cards, ``any`` and parameters, bans by list or parameter, receive and
send rules, draw rules, triggered skills with ``fires``, active skills with conditions, windows and
``plays``, win / result effects with ``each`` / ``pick``, invalidation grants, conditions of every context
drawn from a typed random expression generator — and ``load_random(seed)`` reads it through the real
loader, so that everything the loader validates is exercised too. Generated catalogues are valid by
construction; a text the loader refuses is a bug of this generator (the tests say so).

The same seed always gives the same text: a failing cross-check names the seed and prints the catalogue.
"""
from __future__ import annotations

import json
import random

from skillproof.model import loader
from skillproof.model import turn as TW
from skillproof.model import vocab as V

IDLE = TW.IDLE_POINTS                                   # card / ActiveSkill windows
GIVE_WINDOWS = tuple(w for w in TW.WINDOWS if w != "turn_end")
ACTORS = tuple(TW.ACTORS)
PARAM_TYPES = ("card", "bool", "int", "colour", "set<card>")
PARAM_NAMES = ("X", "Y", "N", "C", "S", "F")            # shared across grants (one type per name)
INT_ATTRS = ("hand_count", "red_messages", "blue_messages", "black_messages", "true_messages",
             "non_black_messages")
BOOL_ATTRS = ("alive", "face_up", "ever_face_up", "hidden", "female", "male", "hand_empty", "my_turn",
              "is_sender", "locked", "in_front", "dying")
QVARS = ("p", "q", "r", "u", "w")
#: initial-skill kinds (main kinds) and the ones a grant may have as well
SKILL_KINDS = ("ActiveSkill", "MainPhaseSkill", "TriggeredSkill", "ConvertCardSkill", "SendMessageDirectionSkill",
               "SendMessageCanLockSkill", "SendMessageCardSkill", "WinSkill", "ChangeGameResultSkill",
               "BeforeDieSkill", "ChangeDrawCardCountSkill")
GENERATED = ("OneTurnSkill", "CannotPlayCard", "MustReceiveMessage")


# ============================================================================== expressions
class Expr:
    """A typed random expression in one context of the condition language (``vocab.CONTEXTS``)."""

    def __init__(self, rng, cat, context: str, params: dict | None = None, players=("self",)):
        self.rng, self.cat, self.context = rng, cat, context
        self.params = dict(params or {})
        self.players = list(players)
        self.globals, self.effects = V.CONTEXTS[context]

    def _with(self, var):
        e = Expr(self.rng, self.cat, self.context, self.params, self.players + [var])
        return e

    def _player(self):
        return self.rng.choice(self.players)

    def _attr(self, name, who=None):
        who = who or self._player()
        if who == "self" and self.rng.random() < 0.6:
            return name
        return f"{who}.{name}"

    def _pnames(self, t):
        return [p for p, pt in self.params.items() if pt == t]

    def _free_var(self):
        free = [v for v in QVARS if v not in self.players]
        return free[0] if free else None

    def boolean(self, d: int = 2) -> str:
        rng = self.rng
        if d > 0 and rng.random() < 0.45:
            k = rng.random()
            if k < 0.3:
                return f"({self.boolean(d - 1)}) and ({self.boolean(d - 1)})"
            if k < 0.55:
                return f"({self.boolean(d - 1)}) or ({self.boolean(d - 1)})"
            if k < 0.7:
                return f"not ({self.boolean(d - 1)})"
            if k < 0.78:
                return f"(if {self.boolean(d - 1)} then {self.boolean(d - 1)} else {self.boolean(d - 1)})"
            v = self._free_var()
            if v:
                q = rng.choice(("any", "all"))
                return f"{q}({v}: {self._with(v).boolean(d - 1)})"
        return self._atom_bool(d)

    def _atom_bool(self, d) -> str:
        rng, cat = self.rng, self.cat
        opts = ["attr", "attr", "cmp", "cmp", "ident", "char", "lit"]
        if "message" in self.globals:
            opts += ["msg", "msg_dir", "lockable"]
        if "dir" in self.globals:
            opts += ["dir", "dir"]
        if self.context == "fires":
            opts += ["played", "played"]
        if self.effects:
            opts += ["eff", "eff"]
        if len(self.players) > 1:
            opts += ["peq"]
        if self.params:
            opts += ["param"] * 3
        opts += ["used"]
        k = rng.choice(opts)
        if k == "attr":
            return self._attr(rng.choice(BOOL_ATTRS))
        if k == "cmp":
            op = rng.choice(("==", "!=", "<", "<=", ">", ">="))
            return f"{self.integer(max(0, d - 1))} {op} {self.integer(max(0, d - 1))}"
        if k == "ident":
            rhs = rng.choice(V.COLOURS) if rng.random() < 0.7 else self._attr("identity")
            return f"{self._attr('identity')} {rng.choice(('==', '!='))} {rhs}"
        if k == "char":
            cs = rng.sample(sorted(cat["characters"]), min(2, len(cat["characters"])))
            if rng.random() < 0.5:
                return f"{self._attr('character')} == {cs[0]}"
            return f"{self._attr('character')} {rng.choice(('in', 'not in'))} {{{', '.join(cs)}}}"
        if k == "lit":
            return rng.choice(("true", "false", "unknown", "unknown"))
        if k == "msg":
            return f"{rng.choice(V.MESSAGE_COLOURS)} {rng.choice(('in', 'not in'))} message"
        if k == "msg_dir":
            return f"message_dir {rng.choice(('==', '!='))} {rng.choice(V.DIRECTIONS)}"
        if k == "lockable":
            return "message_lockable"
        if k == "dir":
            ds = rng.sample(V.DIRECTIONS, rng.randint(1, 2))
            return f"dir in {{{', '.join(ds)}}}" if len(ds) > 1 else f"dir == {ds[0]}"
        if k == "played":
            return f"{rng.choice(cat['cards'])} {rng.choice(('in', 'not in'))} played"
        if k == "eff":
            return self._attr(rng.choice(("in_winners", "in_declared")))
        if k == "peq":
            a, b = rng.sample(self.players, 2)
            return f"{a} {rng.choice(('==', '!='))} {b}"
        if k == "used":
            return "used" if rng.random() < 0.5 else "not used"
        # a parameter
        pn = rng.choice(sorted(self.params))
        pt = self.params[pn]
        if pt == "bool":
            return pn if rng.random() < 0.5 else f"not {pn}"
        if pt == "int":
            return f"{pn} {rng.choice(('<', '>=', '=='))} {self.integer(0)}"
        if pt == "colour":
            if "message" in self.globals and rng.random() < 0.5:
                return f"{pn} in message"
            return f"{self._attr('identity')} == {pn}" if rng.random() < 0.5 else f"{pn} != {rng.choice(V.COLOURS)}"
        if pt == "card":
            cs = rng.sample(cat["cards"], min(len(cat["cards"]), rng.randint(1, 3)))
            return f"{pn} in {{{', '.join(cs)}}}" if rng.random() < 0.6 else f"{pn} != {cs[0]}"
        # set<card>
        return f"{rng.choice(cat['cards'])} {rng.choice(('in', 'not in'))} {pn}"

    def integer(self, d: int = 1) -> str:
        rng = self.rng
        if d > 0 and rng.random() < 0.4:
            k = rng.random()
            if k < 0.35:
                return f"{self.integer(d - 1)} + {self.integer(d - 1)}"
            if k < 0.6:
                return f"{self.integer(d - 1)} - {self.integer(d - 1)}"
            if k < 0.75:
                return f"{rng.randint(0, 3)} * ({self.integer(d - 1)})"
            if k < 0.85:
                return f"(if {self.boolean(d - 1)} then {self.integer(d - 1)} else {self.integer(d - 1)})"
            v = self._free_var()
            if v:
                return f"count({v}: {self._with(v).boolean(d - 1)})"
        opts = ["lit", "attr", "attr"]
        if "count" in self.globals:
            opts += ["count"] * 3
        if "lock_count" in self.globals:
            opts += ["lock_count"] * 2
        if self._pnames("int"):
            opts += ["param"]
        k = rng.choice(opts)
        if k == "lit":
            return str(rng.randint(0, 4))
        if k == "attr":
            return self._attr(rng.choice(INT_ATTRS))
        if k == "param":
            return rng.choice(self._pnames("int"))
        return k


def _lam(rng, cat, context, players, d=1) -> str:
    v = next(x for x in QVARS if x not in players)
    return f"{v}: {Expr(rng, cat, context, players=list(players) + [v]).boolean(d)}"


# ================================================================================== TOML text
def _val(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_val(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def _key(k: str) -> str:
    return k if k.replace("_", "").isalnum() and k.isascii() else json.dumps(k)


def _table(lines: list, header: str, entries: dict):
    lines.append(header)
    for k, v in entries.items():
        lines.append(f"{_key(k)} = {_val(v)}")


# ================================================================================== catalogue
def random_catalogue(seed: int, rules_over: dict | None = None, effects: bool = False, must_fire: bool = False) -> str:
    """A valid catalogue, as TOML text, determined by ``seed`` (``rules_over``: [rules] values written over
    the drawn ones — the rest of the catalogue is the same). ``effects``: the rules and cards also say what they do
    and what they answer (``do``, ``on``, a card's ``target``), drawn from a second stream — the rest of the text is
    the same as without. ``must_fire``: now and then a skill that hands its grant out by itself (``_must_fire_rule``),
    drawn after everything else from a stream of its own (the rest of the text is the same as without: the catalogues
    the regression tests pin stay what they were)."""
    rng = random.Random(seed)
    fx = random.Random(seed * 7919 + 13) if effects else None
    n_cards = rng.randint(2, 5)
    cat = {"cards": [f"K{i}" for i in range(n_cards)], "characters": []}
    n_chars = rng.randint(2, 5)
    cat["characters"] = [f"c{i}" for i in range(n_chars)]
    cards = cat["cards"]
    lines: list = [f"# random catalogue, seed {seed}"]

    # ---- [rules]
    rules: dict = {}
    if rng.random() < 0.8:
        seats = rng.choice((2, 3, 3, 4, 5, 9))
        rules["seats"] = seats
        if rng.random() < 0.5:
            rules["min_seats"] = rng.randint(1, min(seats, 4))     # above 3: the symbolic table grows to it
    for key in ("draw_base",):
        if rng.random() < 0.6:
            rules[key] = rng.randint(0, 4)
    if rng.random() < 0.5:
        rules["turn_end"] = rng.sample(["restore_invalid", "drop_one_turn"], 2)
    for key in ("must_beats_cannot", "face_down_converts", "face_down_grant_converts", "lock_self"):
        if rng.random() < 0.6:
            rules[key] = rng.random() < 0.5
    for key, allowed in loader.RULES_SETS.items():
        if rng.random() < 0.6:
            rules[key] = rng.sample(list(allowed), rng.randint(0, len(allowed)))
    # the default send rules (server Player.canSendCard): the server's, a looser or a stricter one — from a stream of
    # their own, so every other value a seed draws stays as it was
    sr = random.Random(seed * 104729 + 7)
    if sr.random() < 0.3:
        rules["send_dir"] = sr.choice(("dir == message_dir", "true", "dir != message_dir"))
    if sr.random() < 0.3:
        rules["send_lock"] = sr.choice(("lock_count <= 1 and (lock_count == 0 or message_lockable)", "true",
                                        "lock_count == 0", "lock_count <= 2"))
    if sr.random() < 0.3:
        rules["send_to_self"] = sr.random() < 0.5
    # … now and then one of them also reading the sender's own seat (what each twin reads it for: the seat asked,
    # enc.send #28 — the twin's seat moved — survived while no random send rule read a seat), drawn last from that stream
    if sr.random() < 0.3:
        key = sr.choice(("send_dir", "send_lock"))
        base = rules.get(key, {"send_dir": "dir == message_dir",
                               "send_lock": "lock_count <= 1 and (lock_count == 0 or message_lockable)"}[key])
        rules[key] = f"({base}) {sr.choice(('and', 'or'))} {sr.choice(('hand_count > 1', 'is_sender', 'my_turn'))}"
    if rules_over:
        rules.update(rules_over)
    if rules or rng.random() < 0.5:
        _table(lines, "[rules]", rules)

    # ---- grants first (skills and cards hand them out)
    n_grants = rng.randint(1, 5)
    grants: list = []
    # one type per parameter name in a catalogue (the loader insists), names shared by several grants
    ptype_of = {pn: rng.choice(PARAM_TYPES) for pn in PARAM_NAMES}
    for i in range(n_grants):
        gid = f"G{i}"
        if rng.random() < 0.2:
            kinds = ["InvalidSkill"]
        else:
            kinds = _kinds(rng, grant=True)
        ptypes = {}
        if "InvalidSkill" not in kinds:
            for pn in rng.sample(PARAM_NAMES, rng.randint(0, 3)):
                ptypes[pn] = ptype_of[pn]
        grants.append((gid, kinds, ptypes))
    gids = [g[0] for g in grants]
    gparams = {g[0]: g[2] for g in grants}

    def gives_of(owner_is_card: bool) -> list:
        out = []
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            gid = rng.choice(gids)
            P = gparams[gid]
            g: dict = {"grant": gid, "to": rng.choice(("self", "target", "others", "all"))}
            if rng.random() < 0.5:
                g["when"] = Expr(rng, cat, "when").boolean(1)
            if rng.random() < 0.3:
                g["per_turn"] = rng.randint(1, 3)
            args = {}
            for pn, pt in P.items():
                if rng.random() < 0.5:
                    args[pn] = _arg(rng, cards, pt)
            if args:
                g["args"] = args
            free = {pn: pt for pn, pt in P.items() if pn not in args}
            if free and rng.random() < 0.6:
                g["where"] = Expr(rng, cat, "where", free).boolean(1)
            if rng.random() < 0.7:
                ws = rng.sample(GIVE_WINDOWS, rng.randint(1, 3))
                g["at"] = ws[0] if len(ws) == 1 and rng.random() < 0.5 else ws
            if rng.random() < 0.5:
                g["on"] = rng.choice(TW.EVENTS)
            out.append(g)
        return out

    # ---- cards
    for c in cards:
        entry: dict = {"id": c, "name": f"牌{c}"}
        k = rng.random()
        if k < 0.65:
            entry["windows"] = {w: rng.choice(ACTORS) for w in rng.sample(IDLE, rng.randint(1, 3))}
        elif k < 0.9:
            entry["phases"] = rng.sample(IDLE, rng.randint(1, 2))
        if fx is not None:
            if fx.random() < 0.85:
                entry["do"] = _fx_do(fx, cat, _fx_players([]), {}, [])
            if fx.random() < 0.6:
                entry["target"] = _fx_target(fx, cat, entry.get("windows"))
        _table(lines, "\n[[card]]", entry)
        for g in gives_of(True):
            _table(lines, "[[card.gives]]", g)

    # ---- skills
    n_skills = rng.randint(n_chars, 2 * n_chars + 2)
    sids = [f"S{i}" for i in range(n_skills)]
    for sid in sids:
        _rule(rng, cat, lines, sid, _kinds(rng, grant=False), {}, False, gives_of(False), fx)
    for gid, kinds, P in grants:
        _rule(rng, cat, lines, gid, kinds, P, True, gives_of(False) if rng.random() < 0.2 else [], fx)

    # ---- now and then a skill that hands its grant out by itself as its holder sends (interp.grants.must_fire: 借车运货's
    # shape), held by one character — drawn from a stream of its own, after everything else: no other draw moves
    auto = _must_fire_rule(random.Random(f"must-fire:{seed}"), cat, lines, grants) if must_fire else None

    # ---- characters
    for i, cid in enumerate(cat["characters"]):
        entry = {"id": cid, "name": f"角色{i}", "hidden": rng.random() < 0.5, "female": rng.random() < 0.5,
                 "skills": rng.sample(sids, rng.randint(1, min(4, len(sids))))}
        if auto is not None and i == auto[1]:
            entry["skills"] = entry["skills"] + [auto[0]]
        if rng.random() < 0.1:
            entry["origin"] = "rulebook"
        _table(lines, "\n[[character]]", entry)
    return "\n".join(lines) + "\n"


def _must_fire_rule(mf, cat, lines, grants):
    """(skill id, the character index holding it) of a TriggeredSkill answering its holder's send with one grant op,
    no ``may``, no ``if``, to everyone, everyone else or himself, and its site with every argument fixed (the timed
    model's must-fire shape, interp.grants.must_fire) — or None (seven catalogues in ten, or no grant fits)."""
    plain = [g for g in grants if "InvalidSkill" not in g[1]]
    if mf.random() < 0.7 or not plain:
        return None
    gid, _, P = mf.choice(plain)
    to = mf.choice(("all", "others", "self"))
    e = {"id": "SAuto", "name": "技SAuto", "kinds": ["TriggeredSkill"], "trigger": "自己传出情报时（自动）",
         "on": {"event": "send", "whose": "sender"}, "do": [{"op": "grant", "grant": gid, "to": to}]}
    g = {"grant": gid, "to": to, "when": "is_sender", "at": "send", "on": "send"}
    if P:
        g["args"] = {pn: _arg(mf, cat["cards"], pt) for pn, pt in P.items()}
    holder = mf.randrange(len(cat["characters"]))
    # three times in ten, a near miss: the shape with one thing that makes it a choice (drawn after the rest, so the
    # catalogues above are the same) — both twins then owe nothing; the traces read the conditions they test one by one
    # (mutate_interpreter grants.py #129 #139, the rule's and the event's tests joined by ``and``, survived: every
    # must-fire skill drawn passed them all)
    near = mf.random()
    if near < 0.3:
        k = mf.randrange(6)
        if k == 0:
            e["limit"] = "turn"
        elif k == 1:
            e["consumed"] = True
        elif k == 2:
            e["do"][0]["may"] = True
        elif k == 3:
            e["on"]["when"] = "hand_count > 0"
        elif k == 4:
            e["on"]["whose"] = "other"
        else:
            g["to"] = {"all": "self", "others": "self", "self": "others"}[to]
    # half the time, a second grant handed out at the top of the same effect, with its own fixed site (drawn
    # last, from the same stream): each site's grant op is still the only one of its grant, so both sites fire by
    # themselves (mutate_interpreter grants.py #150, the op test of ``top`` joined by ``or``, survived: every
    # must-fire skill drawn had one op)
    g2 = None
    others = [x for x in plain if x[0] != gid]
    if mf.random() < 0.5 and others:
        gid2, _, P2 = mf.choice(others)
        to2 = mf.choice(("all", "others", "self"))
        e["do"].append({"op": "grant", "grant": gid2, "to": to2})
        g2 = {"grant": gid2, "to": to2, "when": "is_sender", "at": "send", "on": "send"}
        if P2:
            g2["args"] = {pn: _arg(mf, cat["cards"], pt) for pn, pt in P2.items()}
    _table(lines, "\n[[skill]]", e)
    _table(lines, "[[skill.gives]]", g)
    if g2 is not None:
        _table(lines, "[[skill.gives]]", g2)
    return "SAuto", holder


def _arg(rng, cards, pt):
    if pt == "card":
        return rng.choice(cards)
    if pt == "bool":
        return rng.random() < 0.5
    if pt == "int":
        return rng.randint(0, 4)
    if pt == "colour":
        return rng.choice(V.COLOURS)
    return rng.sample(cards, rng.randint(0, min(3, len(cards))))


def _kinds(rng, grant: bool) -> list:
    """One or two kinds (a third now and then); grants often carry generated kinds."""
    pool = list(SKILL_KINDS) + (list(GENERATED) * 2 if grant else [])
    kinds = [rng.choice(pool)]
    while rng.random() < 0.35 and len(kinds) < 3:
        k = rng.choice(pool + list(GENERATED))
        if k not in kinds:
            kinds.append(k)
    if not grant and rng.random() < 0.05:
        kinds.append(rng.choice(GENERATED))      # a generated kind marked initial: loads, `check` reports it
    return list(dict.fromkeys(kinds))


def _rule(rng, cat, lines, rid, kinds, P, is_grant, gives, fx=None):
    from skillproof.model.kinds import closure
    cards = cat["cards"]
    cl = closure(kinds)
    e: dict = {"id": rid, "name": f"{'授' if is_grant else '技'}{rid}", "kinds": kinds}
    if is_grant:
        e["lifetime"] = rng.choice(("turn", "turn", "until_fired", "permanent", "resolution"))
        if P:
            e["params"] = dict(P)
        if rng.random() < 0.1:
            e["initial"] = True                   # a grant wrongly marked initial (wrapped by invalidation)
    elif rng.random() < 0.1:
        e["initial"] = False
    for key in ("flips", "consumed"):
        if rng.random() < 0.15:
            e[key] = True
    if rng.random() < 0.1:
        e["limit"] = rng.choice(("none", "turn", "game"))
    if rng.random() < 0.05:
        e["origin"] = "rulebook"
    pn = lambda t: [p for p, pt in P.items() if pt == t]     # noqa: E731
    if "ActiveSkill" in cl:
        if "MainPhaseSkill" not in cl and rng.random() < 0.7:
            e["fight"] = Expr(rng, cat, "fight", P).boolean(2)
        if rng.random() < 0.5:
            e["dying"] = Expr(rng, cat, "dying", P).boolean(1)
        if rng.random() < 0.4:
            e["windows"] = {w: rng.choice(ACTORS) for w in rng.sample(IDLE, rng.randint(1, 3))}
        if rng.random() < 0.1 and not is_grant:
            e["replaces_role"] = True
        _main_keys(rid, rng, cat, e, cl, P)
    if "TriggeredSkill" in cl:
        if rng.random() < 0.3:
            e["trigger"] = "当某事发生时"
        if rng.random() < 0.6:
            ws = rng.sample(GIVE_WINDOWS, rng.randint(1, 2))
            e["fires"] = {"at": ws if len(ws) > 1 or rng.random() < 0.5 else ws[0],
                          "when": Expr(rng, cat, "fires", P).boolean(2)}
    if rng.random() < 0.15:
        plays: dict = {"as": rng.sample(cards, rng.randint(1, min(2, len(cards)))), "checks_bans": rng.random() < 0.5}
        for key, vals in (("bans_of", ("user", "target")), ("card_of", ("none", "user", "target")),
                          ("resolves", ("declared", "physical"))):
            if rng.random() < 0.3:
                plays[key] = rng.choice(vals)
        if plays.get("card_of", "none") == "none":      # contradictory with no card put into play (a load error)
            if plays.get("bans_of") == "target":
                plays["bans_of"] = "user"
            if plays.get("resolves") == "physical":
                plays["resolves"] = "declared"
        e["plays"] = plays
    if "ConvertCardSkill" in cl:
        k = rng.random()
        src = rng.choice(pn("card")) if pn("card") and k < 0.4 else ("any" if k < 0.55 else rng.choice(cards))
        tos = []
        for _ in range(rng.randint(1, 3)):
            tos.append(rng.choice(pn("card")) if pn("card") and rng.random() < 0.4 else rng.choice(cards))
        e["convert"] = {"from": src, "to": list(dict.fromkeys(tos)), "must": rng.random() < 0.4}
    if "CannotPlayCard" in cl:
        ban: dict = {}
        if pn("set<card>") and rng.random() < 0.5:
            ban["cards"] = rng.choice(pn("set<card>"))
        elif rng.random() < 0.8:
            ban["cards"] = rng.sample(cards, rng.randint(0, min(3, len(cards))))
        if pn("bool") and rng.random() < 0.4:
            ban["all"] = rng.choice(pn("bool"))
        elif rng.random() < 0.5:
            ban["all"] = rng.random() < 0.3
        e["ban"] = ban
    if "MustReceiveMessage" in cl:
        rc: dict = {}
        if rng.random() < 0.8:
            rc["must"] = Expr(rng, cat, "receive", P).boolean(1)
        if rng.random() < 0.8:
            rc["cannot"] = Expr(rng, cat, "receive", P).boolean(1)
        e["receive"] = rc
    if {"SendMessageDirectionSkill", "SendMessageCanLockSkill", "SendMessageCardSkill"} & cl:
        e["send"] = {"rule": Expr(rng, cat, "send", P).boolean(2)}
    if "ChangeDrawCardCountSkill" in cl:
        e["draw"] = Expr(rng, cat, "draw", P).integer(2)
    if fx is not None and "InvalidSkill" not in cl:
        initial = e.get("initial", not is_grant)
        on = _fx_on(fx, cat, rid, cl, initial, P, gives) if "TriggeredSkill" in cl and fx.random() < 0.85 else []
        # a skill fired on a state (``fires``, no ``on``: 详尽思索·押注's kind) now and then — decided by a stream of its
        # own, so no other skill's draws move: one in 40 random catalogues held one, and no random game fired one
        # outside its windows (``mutate_interpreter --target fires``: that refusal's reason gone survived 1,000 games)
        if on and "fires" in e and not any(g.get("on") for g in gives) \
                and random.Random(f"state-fired:{rid}:{fx.getstate()[1][:4]}").random() < 0.4:
            on = []
        if on:
            e["on"] = on
        if {"TriggeredSkill", "ActiveSkill"} & cl and fx.random() < 0.85:
            e["do"] = _fx_do(fx, cat, _fx_players(on), P, sorted({g["grant"] for g in gives}), 0, _fx_words(on))
    _table(lines, f"\n[[{'grant' if is_grant else 'skill'}]]", e)
    for key, kind in (("win", "WinSkill"), ("result", "ChangeGameResultSkill")):
        if kind in cl:
            for _ in range(rng.randint(1, 3)):
                _table(lines, f"[[{'grant' if is_grant else 'skill'}.{key}]]", _effect(rng, cat))
    for g in gives:
        _table(lines, f"[[{'grant' if is_grant else 'skill'}.gives]]", g)


def _main_keys(rid, rng, cat, e: dict, cl, P) -> None:
    """An ActiveSkill's 出牌阶段 condition ``main`` (where it is used in 出牌阶段) and a MainPhaseSkill's reminder
    ``remind``, drawn from a generator of their own (seeded by the catalogue's generator and the rule, without
    drawing from it: the rest of every catalogue stays as it was). Half the reminders are the server's shape,
    ``not used and (…)``; some are the skill's own ``main`` with ``not used``, as most of the real game's are."""
    sub = random.Random(f"{rid}:{rng.getstate()[1][:8]}")
    wins = e.get("windows", {"main": "turn"} if "MainPhaseSkill" in cl else {})
    main = None
    if "main" in wins and sub.random() < 0.6:
        main = e["main"] = Expr(sub, cat, "main", P).boolean(2)
    if "MainPhaseSkill" in cl and sub.random() < 0.8:
        k = sub.random()
        if k < 0.3 and main is not None:
            e["remind"] = f"not used and ({main})"
        elif k < 0.7:
            e["remind"] = f"not used and ({Expr(sub, cat, 'remind', P).boolean(2)})"
        else:
            e["remind"] = Expr(sub, cat, "remind", P).boolean(2)


def _effect(rng, cat) -> dict:
    ef: dict = {}
    players = ["self"]
    k = rng.random()
    if k < 0.35:
        ef["each"] = _lam(rng, cat, "effect", players)
        players.append(ef["each"].split(":")[0])
    elif k < 0.6:
        ef["pick"] = _lam(rng, cat, "effect", players)
        players.append(ef["pick"].split(":")[0])
    if rng.random() < 0.7:
        ef["when"] = Expr(rng, cat, "effect", players=players).boolean(2)
    sets = rng.sample(["winners_add", "winners_remove", "declared_add", "declared_remove"], rng.randint(1, 3))
    for s in sets:
        ef[s] = _lam(rng, cat, "effect", players)
    return ef


#: every value of every [rules] key (model/catalogue/rules.toml; loader.RULES_SETS: every subset), in turn
def rules_settings() -> list[dict]:
    """One [rules] setting per engine value: each subset of each set-valued key, each boolean both ways, each
    turn-end order — the random catalogues of the families' cross-check are drawn under each in turn."""
    import itertools
    out: list[dict] = []
    for key, allowed in loader.RULES_SETS.items():
        for n in range(len(allowed) + 1):
            out += [{key: list(c)} for c in itertools.combinations(allowed, n)]
    for key in ("must_beats_cannot", "face_down_converts", "face_down_grant_converts", "lock_self"):
        out += [{key: True}, {key: False}]
    out += [{"turn_end": ["drop_one_turn", "restore_invalid"]}, {"turn_end": ["restore_invalid", "drop_one_turn"]}]
    out += [{"seats": 2, "min_seats": 2}, {"seats": 9, "min_seats": 1}, {"draw_base": 0}, {"draw_base": 4}]
    return out


def load_random(seed: int, rules_over: dict | None = None, effects: bool = False, must_fire: bool = False):
    """(text, catalogue) of ``random_catalogue(seed)``, through the real loader."""
    text = random_catalogue(seed, rules_over, effects, must_fire)
    return text, loader.load(texts={f"random-{seed}.toml": text})


# ================================================================================== effects (on / do / target)
#: the events a random TriggeredSkill answers (receive_phase is a state: left out)
FX_EVENTS = ("use_card", "card_resolved", "send_phase_start", "send", "move", "choose_receive", "receive", "give_card",
             "discard", "add_message", "die", "turn_end")
FX_WORD_ATOMS = {"card": lambda r, cards: f"card == {r.choice(cards)}", "real_card": lambda r, c: "real_card",
                 "has_target": lambda r, c: "has_target", "card_valid": lambda r, c: "card_valid",
                 "dir": lambda r, c: f"dir == {r.choice(V.DIRECTIONS)}",
                 "message_colours": lambda r, c: f"message_colours {r.choice(('>=', '==', '<'))} {r.randint(1, 3)}",
                 "message_face_up": lambda r, c: "not message_face_up", "message_in_area": lambda r, c: "message_in_area",
                 "by_skill": lambda r, c: "by_skill"}
FX_COLOURS = ("any", "black", "pure_black", "non_black", "red", "blue", "red_or_blue", "two_colours",
              "shares_message", "outside_message")


class FxExpr(Expr):
    """Expressions of an effect's moment, where ``dying`` is also a player word: the attribute is written
    ``self.dying``."""

    def _with(self, var):
        return FxExpr(self.rng, self.cat, self.context, self.params, self.players + [var])

    def _attr(self, name, who=None):
        who = who or self._player()
        if who == "self" and name == "dying":
            return "self.dying"
        return super()._attr(name, who)


def _fx_on(rng, cat, rid, cl, initial, P, gives) -> list:
    """``on`` entries for a TriggeredSkill (the loader's rules: a BeforeDieSkill answers only ``die``; an initial
    skill is never asked about its own death; a site's moment is one of the events it answers)."""
    from skillproof.model.events import EVENT_KINDS, SITE_MOMENTS
    if "BeforeDieSkill" in cl:
        if any(SITE_MOMENTS.get(g.get("on")) not in (None, "die") for g in gives):
            return []                   # its sites hand out at other events: it answers none of them
        events = ["die"]
    else:
        events = rng.sample(FX_EVENTS, rng.randint(1, 2))
        for g in gives:
            ev = SITE_MOMENTS.get(g.get("on"))
            if ev is not None and ev not in events:
                events.append(ev)
    out = []
    for ev in events:
        kind = EVENT_KINDS[ev]
        whose_opts = ["any"] + list(kind.role_names)
        if kind.principal is not None:
            whose_opts += ["self", "other"]
        whose = rng.choice(whose_opts)
        if ev == "die" and initial and "BeforeDieSkill" not in cl:
            whose = rng.choice([w for w in whose_opts if w not in ("self", "victim")])
        entry: dict = {"event": ev, "whose": whose}
        if rng.random() < 0.75:
            players = ["self"] + list(kind.role_names)
            cond = Expr(rng, cat, "on", P, players=players).boolean(1)
            words = [w.name for w in kind.words]
            if words and rng.random() < 0.6:
                cond = f"({cond}) {rng.choice(('and', 'or'))} {FX_WORD_ATOMS[rng.choice(words)](rng, cat['cards'])}"
            entry["when"] = cond
        out.append(entry)
    return out


def _fx_players(on: list) -> list:
    """The single players a rule's effect may name (model.effects.players_of, without the sides)."""
    from skillproof.model.events import EVENT_KINDS
    if on:
        roles = []
        for o in on:
            for r in EVENT_KINDS[o["event"]].role_names:
                if r not in roles:
                    roles.append(r)
    else:
        roles = ["target", "sender", "front", "dying", "turn_player"]
    return ["self"] + roles + ["chosen", "chosen2"]


#: conditions on the card an op moves (``where``: its colours are ``it``), and on what an earlier op moved (``as``)
FX_WHERE = ("red in it", "black in it", "not (blue in it)", "it == {black}", "it != {red}", "black in it or blue in it")


def _fx_bound(rng, binds) -> str:
    """A condition reading a name an earlier op gave what it moved."""
    name, typ = rng.choice(binds)
    if typ == "int":
        return f"{name} {rng.choice(('>', '==', '<'))} {rng.randint(0, 2)}"
    return rng.choice((f"{rng.choice(('red', 'blue', 'black'))} in {name}", f"it == {name}", f"not (black in {name})"))


def _fx_do(rng, cat, players, P, grants, depth=0, words=(), binds=None) -> list:
    """A random effect: 1-4 ops of the vocabulary, some with a condition, some optional, ``choose`` nested; some ops
    name what they moved (``as``) for the ops after them, pick how many (``up_to``) or have a condition on the card
    (``where``)."""
    cards = cat["cards"]
    binds = [] if binds is None else binds
    single = players + [p + rng.choice(("_left", "_right")) for p in players[:2]]

    def who(sets=False):
        if sets and rng.random() < 0.2:
            return rng.choice(("all", "others"))
        return rng.choice(single) if rng.random() < 0.3 else rng.choice(players[:4])

    def amount():
        if rng.random() < 0.2:
            return FxExpr(rng, cat, "do", P, players=[p for p in players if p not in ("chosen", "chosen2", "dying")]).integer(0)
        return rng.choice((0, 1, 1, 1, 2, 3))
    ops = []
    kinds = ["draw", "draw", "discard", "give", "take", "put_message", "put_message", "remove_message",
             "remove_message", "flip", "move_message", "redirect", "lock", "replace_message", "cancel", "swap",
             "receive", "show", "prose", "end_turn", "kill", "take_identity", "send_message", "take_message"]
    if depth < 2:
        kinds += ["choose", "choose", "each", "repeat"]
    if grants:
        kinds += ["grant"]
    for _ in range(rng.randint(1, 3 if depth else 4)):
        k = rng.choice(kinds)
        op: dict = {"op": k}
        if k == "draw":
            op.update(who=who(True), n=amount())
            if rng.random() < 0.2:
                op["from"] = rng.choice(("deck_top", "this_card", "discarded"))
        elif k == "discard":
            op.update(who=who(True), n=amount())
            if rng.random() < 0.3:
                op["which"] = "all"
        elif k == "give":
            op.update({"from": who(), "to": who(True), "n": amount()})
        elif k == "take":
            op.update({"from": who(True), "to": who(), "n": amount()})
        elif k == "put_message":
            op.update({"to": who(True), "from": rng.choice(("hand", "deck_top", "message", "message_area", "this_card")),
                       "colour": rng.choice(FX_COLOURS), "three": rng.choice(("allowed", "forbidden", "to_hand")),
                       "n": rng.choice((1, 1, 2))})
            if op["from"] in ("hand", "message_area") and rng.random() < 0.5:
                op["of"] = who()
            if rng.random() < 0.3:
                op["by"] = who()
        elif k == "remove_message":
            op.update({"whose": who(True), "colour": rng.choice(FX_COLOURS), "to": rng.choice(("discard_pile", "hand", "area")),
                       "n": rng.choice((1, 1, 2))})
            if op["to"] == "area":
                op["into"] = who()
            if op["to"] == "hand" and rng.random() < 0.5:
                op["by"] = who()
            if rng.random() < 0.3:
                op["three"] = rng.choice(("allowed", "forbidden", "to_hand"))
        elif k == "flip":
            op.update(who=who(True), what=rng.choice(("role", "role", "message")), face=rng.choice(("up", "down")))
        elif k == "move_message":
            op["to"] = who()
        elif k == "redirect":
            op["dir"] = rng.choice(("up", "left", "right", "reverse"))
        elif k == "lock":
            op["who"] = who(True)
        elif k == "replace_message":
            op.update({"from": rng.choice(("hand", "deck_top", "this_card", "message_area")), "of": who(),
                       "face": rng.choice(("up", "down"))})
        elif k == "cancel":
            pass
        elif k == "swap":
            op.update(what=rng.choice(("identity", "hand", "messages")), a=who(), b=who())
        elif k == "receive":
            op["who"] = who()
            if rng.random() < 0.4:
                op["three"] = rng.choice(("allowed", "to_hand"))
                if rng.random() < 0.5:
                    op["by"] = who()
        elif k == "take_message":
            op["to"] = rng.choice(("discard_pile", "hand"))
            if rng.random() < 0.5:
                op["by"] = who()
        elif k == "show":
            op["who"] = who()
        elif k == "prose":
            op["note"] = "something in words"
        elif k == "kill":
            op["who"] = who()
        elif k == "take_identity":
            op.update({"from": who(), "to": who()})
        elif k == "send_message":
            op.update({"by": who(), "from": rng.choice(("hand", "message_area")), "of": who(),
                       "face": rng.choice(("up", "down"))})
        elif k == "grant":
            op["grant"] = rng.choice(grants)
            # now and then to a set of players at once (借车运货, 强令: interp GameRunner.gives_at_once) — drawn apart,
            # so the rest of the catalogue is the one this seed always drew
            side = random.Random(f"grant-to:{op['grant']}:{rng.getstate()[1][:4]}")
            if side.random() < 0.3:
                op["to"] = side.choice(("all", "all", "others"))
        elif k == "each":
            if rng.random() < 0.3:
                op["who"] = "others"
            inner = ["each"] + players if rng.random() < 0.8 else players
            op["do"] = _fx_do(rng, cat, inner, P, grants, depth + 1, words, binds)
        elif k == "repeat":
            op["n"] = rng.choice((0, 1, 2, 2, 3, "hand_count"))
            if rng.random() < 0.3:
                op["n"] = 0
                op["up_to"] = rng.choice((1, 2, 3, "hand_count"))
            op["do"] = _fx_do(rng, cat, players, P, grants, depth + 1, words, binds)
        elif k == "choose":
            alts = [_fx_do(rng, cat, players, P, grants, depth + 1, words, binds) for _ in range(rng.randint(1, 3))]
            op["of"] = alts
            if len(alts) == 1:
                op["may"] = True
        if k in ("discard", "give", "take") and rng.random() < 0.25:
            op["up_to"] = rng.choice((1, 2, 3, "hand_count"))
        if k in ("put_message", "remove_message", "replace_message") and rng.random() < 0.3:
            where = rng.choice(FX_WHERE)
            card_binds = [b for b in binds if b[1] != "int"]
            if card_binds and rng.random() < 0.5:
                where = f"{where} or " + _fx_bound(rng, card_binds).replace("it == ", "it != ")
            op["where"] = where
        if rng.random() < 0.25:
            cond = FxExpr(rng, cat, "do", P, players=[p for p in players if p not in ("chosen", "chosen2", "dying")]).boolean(1)
            if words and rng.random() < 0.4:
                cond = f"({cond}) and {FX_WORD_ATOMS[rng.choice(list(words))](rng, cards)}"
            if binds and rng.random() < 0.5:
                atom = _fx_bound(rng, binds)
                if "it" not in atom.split():
                    cond = f"({cond}) or {atom}"
            op["if"] = cond
        if rng.random() < 0.15:
            op["may"] = True
        if k in ("discard", "give", "take", "put_message", "remove_message", "replace_message") and rng.random() < 0.3:
            name = f"b{len(binds)}_{rng.randint(0, 99)}"
            op["as"] = name
            binds.append((name, "int" if k in ("discard", "give", "take") else "set"))
        ops.append(op)
    return ops


def _fx_words(on: list) -> list:
    """The values every event of ``on`` carries (model.effects.words_of)."""
    from skillproof.model.events import EVENT_KINDS
    if not on:
        return []
    sets = [set(w.name for w in EVENT_KINDS[o["event"]].words) for o in on]
    return sorted(set.intersection(*sets))


def _fx_target(rng, cat, windows) -> object:
    who = rng.choice(("none", "any", "any", "other"))
    if who == "none" or rng.random() < 0.5:
        return who
    when = FxExpr(rng, cat, "do", {}, players=["self", "target"]).boolean(1)
    # now and then (from a stream of its own: the other draws do not move) a condition per window that reads the
    # window's players (model.turn.target_players: the turn player, sender, the player the message is in front of,
    # the dying player and each one's nearest living neighbours — 误导 reads inFrontOfWhom's): interp
    # game.window_players and its twin were compared by no random game
    side = random.Random(f"target-window:{when}:{rng.getstate()[1][:4]}")
    if side.random() < 0.5:
        ws = sorted(windows) if windows else ["*"]
        when = {w: _window_players_cond(side, cat, w) for w in side.sample(ws, side.randint(1, len(ws)))}
    return {"who": who, "when": when}


def _window_players_cond(rng, cat, window: str) -> str:
    """A target condition in ``window`` reading its players: the target (or ``self``) is or is not one of them, or
    one of them is alive, joined by ``and`` / ``or`` now and then."""
    wp = [p for p in TW.target_players(window) if p not in ("self", "target")]

    def atom():
        p = rng.choice(wp)
        if rng.random() < 0.15:
            return f"{p}.alive"
        return f"{'target' if rng.random() < 0.8 else 'self'} {rng.choice(('==', '!='))} {p}"
    if rng.random() < 0.35:
        return f"({atom()}) {rng.choice(('and', 'or'))} ({atom()})"
    return atom()
