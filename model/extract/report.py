"""The extraction report and ``--compare``: what the extractor could not decide (ReportItem), the result of a
run (Extraction: the files, the report, its summary line and Markdown), and what differs between an extracted
catalogue and a hand-kept one (compare)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..catalogue import deck_counts


#: the words of extraction-report.md (extract.terminal.REPORT_WORDS_ZH: the same in Chinese)
REPORT_WORDS = {
    "title": "Extraction report",
    "source": "Source: `{source}` — {kotlin_files} Kotlin files, extracted in {seconds:.2f} s.",
    "extracted": "Extracted: {characters} characters, {skills} skills, {grants} grants, {sites} grant sites, {cards} cards.",
    "free": "Everything below was *not* decided from the code: it is written as `unknown` (checks treat it as free) "
            "or left as a free parameter, never guessed.",
    "counts": "| undecided | count |",
    "no_load": "The extracted catalogue does not load",
    "undecided": "Undecided",
    "notes": "Notes",
    "item": "- `{where}` **{subject}**: {message}",
}


class ExtractError(Exception):
    """Bad input (no such directory, no Kotlin files, no role table): one line, no traceback — raised in English,
    shown in the run's language (extract.terminal)."""

    def __str__(self) -> str:
        from .terminal import error_text
        return error_text(super().__str__())


@dataclass(frozen=True)
class ReportItem:
    """Something the extractor could not decide (``undecided``) or wants a reader to know."""
    kind: str          # fight, dying, receive, send, draw, effects, when, args, convert, ban, initial, name, ...
    subject: str       # rule, character or card id (or a file for parse problems)
    where: str         # file:line in the source tree
    message: str
    undecided: bool = True

    def __str__(self) -> str:
        tag = self.kind if self.undecided else f"note: {self.kind}"
        return f"{self.where}: [{tag}] {self.subject}: {self.message}"


@dataclass
class Extraction:
    files: dict                          # output file name -> TOML text
    report: list                         # of ReportItem
    stats: dict = field(default_factory=dict)
    catalogue: object = None             # the loaded Catalogue (None if it does not load)
    load_errors: list = field(default_factory=list)
    engine: dict = field(default_factory=dict)       # name -> EngineRule (engine rules read from the engine files)
    locations: dict = field(default_factory=dict)    # card / character / rule id -> "file:line" in the sources
    role_class: str = ""                             # the role table's class (its calls are the characters)
    key_lines: dict = field(default_factory=dict)    # id -> {key path ("do", 2) …: "file:line"} of what it does
    reads: dict = field(default_factory=dict)        # (file, class path, member) -> read whole (effects_read)
    skill_keys: dict = field(default_factory=dict)   # a skill enum constant (LENG_XUE_XUN_LIAN) -> the rule id it names

    def undecided_counts(self) -> dict:
        return dict(sorted(Counter(i.kind for i in self.report if i.undecided).items()))

    def summary(self) -> str:
        s = self.stats
        n = sum(1 for i in self.report if i.undecided)
        return (f"extracted {s.get('characters', 0)} characters, {s.get('skills', 0)} skills, "
                f"{s.get('grants', 0)} grants, {s.get('sites', 0)} grant sites, {s.get('cards', 0)} cards "
                f"from {s.get('kotlin_files', 0)} Kotlin files in {s.get('seconds', 0):.2f}s; "
                f"{n} undecided item{'s' if n != 1 else ''}")

    def report_markdown(self, words: dict | None = None, say=None, say_error=None) -> str:
        """extraction-report.md: in English, or in ``words`` (the keys of REPORT_WORDS, e.g. extract.terminal's
        Chinese) with each item's message told by ``say`` and each load error by ``say_error``."""
        w = words or REPORT_WORDS
        say, say_error = say or str, say_error or str
        s = self.stats
        st = {"source": s.get("source", ""), **{k: s.get(k, 0) for k in
                                               ("kotlin_files", "seconds", "characters", "skills", "grants", "sites", "cards")}}
        out = [f"# {w['title']}", "", w["source"].format(**st), "", w["extracted"].format(**st), "", w["free"], ""]
        counts = self.undecided_counts()
        if counts:
            out += [w["counts"], "| --- | --- |"]
            out += [f"| {k} | {v} |" for k, v in counts.items()]
            out.append("")
        if self.load_errors:
            out += [f"## {w['no_load']}", ""]
            out += [f"- {say_error(e)}" for e in self.load_errors] + [""]
        for title, undecided in ((w["undecided"], True), (w["notes"], False)):
            items = [i for i in self.report if i.undecided == undecided]
            if not items:
                continue
            out += [f"## {title}", ""]
            for kind in sorted({i.kind for i in items}):
                out += [f"### {kind}", ""]
                out += [w["item"].format(where=i.where, subject=i.subject, message=say(i.message))
                        for i in items if i.kind == kind]
                out.append("")
        return "\n".join(out).rstrip() + "\n"


#: a parameter left free: a grant-site argument that is not a literal (shown as ``free`` by compare)
_FREE = object()


@dataclass(frozen=True)
class Difference:
    kind: str          # card, character, skills, order, rule, kinds, initial, name, convert, ban, lifetime,
    #                    params, consumed, gives
    subject: str
    message: str
    where: str = ""    # where the hand-kept catalogue says it

    def __str__(self) -> str:
        loc = f"  ({self.where})" if self.where else ""
        return f"{self.kind}: {self.subject}: {self.message}{loc}"


def compare(extracted, hand) -> list:
    """What differs between an extracted catalogue and a hand-kept one. Entries the hand-kept catalogue
    marks ``origin = "rulebook"`` (not in the server by definition) are left out. Expressions (fight,
    receive, send, draw, effects), rule texts and grant-site conditions are not compared: the extractor
    writes them as far as it can read them, and the report lists what it could not."""
    out: list[Difference] = []
    D = out.append
    # cards
    for cid in extracted.cards:
        if cid not in hand.cards:
            D(Difference("card", cid, "in the server, not in the hand-kept catalogue"))
        elif extracted.cards[cid].name != hand.cards[cid].name:
            D(Difference("card", cid, f"name: server {extracted.cards[cid].name!r}, hand {hand.cards[cid].name!r}",
                         str(hand.cards[cid].loc)))
    for cid, c in hand.cards.items():
        if cid not in extracted.cards:
            D(Difference("card", cid, "in the hand-kept catalogue, not in the server", str(c.loc)))
        elif extracted.cards[cid].deck and deck_counts(extracted.cards[cid].deck) != deck_counts(c.deck):
            D(Difference("deck", cid, f"printed copies: server {sum(p.n for p in extracted.cards[cid].deck)}, hand "
                         f"{sum(p.n for p in c.deck)}, not alike", str(c.loc)))
    # characters
    for cid, ch in extracted.characters.items():
        h = hand.characters.get(cid)
        if h is None:
            D(Difference("character", cid, f"{ch.name} is in the server's role table, not in the hand-kept catalogue"))
            continue
        where = str(h.loc)
        for attr in ("name", "hidden", "female"):
            a, b = getattr(ch, attr), getattr(h, attr)
            if a != b:
                D(Difference("character", cid, f"{attr}: server {_show(a)}, hand {_show(b)}", where))
        if tuple(ch.skills) != tuple(h.skills):
            if sorted(ch.skills) == sorted(h.skills):
                D(Difference("order", cid, f"skill order: server {list(ch.skills)}, hand {list(h.skills)}", where))
            else:
                missing = [s for s in ch.skills if s not in h.skills]
                extra = [s for s in h.skills if s not in ch.skills]
                msg = []
                if missing:
                    msg.append(f"server also has {missing}")
                if extra:
                    msg.append(f"hand also has {extra}")
                D(Difference("skills", cid, f"skills: server {list(ch.skills)}, hand {list(h.skills)} "
                             f"({'; '.join(msg)})", where))
    for cid, h in hand.characters.items():
        if cid not in extracted.characters and h.origin != "rulebook":
            D(Difference("character", cid, f"{h.name} is in the hand-kept catalogue, not in the server's role table",
                         str(h.loc)))
    # rules
    for rid, r in extracted.skills.items():
        h = hand.skills.get(rid)
        what = "grant" if r.is_grant else "skill"
        if h is None:
            D(Difference("rule", rid, f"{what} in the server, not in the hand-kept catalogue"))
            continue
        if h.origin == "rulebook":
            D(Difference("rule", rid, "the hand-kept catalogue says rule book only, but the server has it",
                         str(h.loc)))
        _compare_rule(r, h, D)
    for rid, h in hand.skills.items():
        if rid not in extracted.skills and h.origin != "rulebook":
            what = "grant" if h.is_grant else "skill"
            D(Difference("rule", rid, f"{what} in the hand-kept catalogue, not found in the server", str(h.loc)))
    # grant sites
    givers = {}
    for table_name in ("cards", "skills"):
        et, ht = getattr(extracted, table_name), getattr(hand, table_name)
        for gid in list(dict.fromkeys(list(et) + list(ht))):
            e_obj, h_obj = et.get(gid), ht.get(gid)
            if e_obj is None or h_obj is None or getattr(h_obj, "origin", "server") == "rulebook":
                continue
            givers[gid] = (e_obj, h_obj)
    for gid, (e_obj, h_obj) in givers.items():
        _compare_gives(gid, e_obj.gives, h_obj.gives, extracted, hand, D)
    return out


def _show(v) -> str:
    return str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, str) else str(v)


def _compare_rule(r, h, D):
    rid, where = r.id, str(h.loc)
    if r.is_grant != h.is_grant:
        D(Difference("rule", rid, f"server: a {'grant' if r.is_grant else 'skill'}, hand: a "
                     f"{'grant' if h.is_grant else 'skill'}", where))
        return
    ek, hk = r.closure - {"Skill"}, h.closure - {"Skill"}
    if ek != hk:
        D(Difference("kinds", rid, f"server {list(r.kinds)}, hand {list(h.kinds)}", str(h.at("kinds"))))
    if r.initial != h.initial:
        D(Difference("initial", rid, f"server {_show(r.initial)}, hand {_show(h.initial)}", str(h.at("initial"))))
    if not r.is_grant and r.name != h.name and r.name != r.id:
        D(Difference("name", rid, f"server {r.name!r}, hand {h.name!r}", str(h.at("name"))))
    pm = _param_map(r, h)
    if (r.convert is None) != (h.convert is None):
        pass                                     # a kinds difference, reported above
    elif r.convert is not None:
        a, b = _norm_convert(r.convert, {}), _norm_convert(h.convert, pm)
        if a != b:
            D(Difference("convert", rid, f"server {_fmt_convert(r.convert)}, hand {_fmt_convert(h.convert)}",
                         str(h.at("convert"))))
    if r.ban is not None and h.ban is not None:
        a, b = _norm_ban(r.ban, {}), _norm_ban(h.ban, pm)
        if a != b:
            D(Difference("ban", rid, f"server {_fmt_ban(r.ban)}, hand {_fmt_ban(h.ban)}", str(h.at("ban"))))
    if r.is_grant:
        if r.lifetime != h.lifetime:
            D(Difference("lifetime", rid, f"server {r.lifetime}, hand {h.lifetime}", str(h.at("lifetime"))))
        et = sorted(r.params.values())
        ht = sorted(h.params.values())
        if et != ht:
            D(Difference("params", rid, f"server {_fmt_params(r.params)}, hand {_fmt_params(h.params)}",
                         str(h.at("params"))))
    _compare_on(r, h, D)
    if r.consumed and not h.consumed:
        D(Difference("consumed", rid, "the server removes it from its owner once used; hand: consumed = false",
                     where))


def _holder(o):
    """Which player of the event the holder is, comparable across spellings: a set of roles (``self`` is the
    event's principal), ``other``, or None (``any``: the extracted guard did not say)."""
    if o.whose == ("any",):
        return None
    if o.whose == ("other",):
        return "other"
    return frozenset(o.holder_roles())


def _fmt_on(on) -> str:
    return "; ".join(o.event + ("" if o.whose == ("any",) else "[" + ",".join(o.whose) + "]") for o in on) or "none"


def _compare_on(r, h, D):
    """The events a TriggeredSkill answers (``on``): the kinds, in order, and whose event where the server's guard
    says it plainly (an extracted ``any`` says nothing: the hand-kept guard may name the player)."""
    if not r.on:
        return
    where = str(h.at("on")) if h.on else str(h.loc)
    if [o.event for o in r.on] != [o.event for o in h.on]:
        D(Difference("on", r.id, f"server {_fmt_on(r.on)}, hand {_fmt_on(h.on)}", where))
        return
    for a, b in zip(r.on, h.on):
        ha = _holder(a)
        if ha is not None and ha != _holder(b):
            D(Difference("on", r.id, f"{a.event}: server whose {list(a.whose)}, hand {list(b.whose)}", str(b.loc)))


def _param_map(r, h) -> dict:
    """hand parameter name -> extracted parameter name, by the place each stands in the tables."""
    m: dict[str, str] = {}
    if r.convert is not None and h.convert is not None:
        pairs = [(h.convert.source, r.convert.source)] + list(zip(h.convert.targets, r.convert.targets))
        for hp, ep in pairs:
            if hp.kind == "param" and ep.kind == "param":
                m.setdefault(hp.value, ep.value)
    if r.ban is not None and h.ban is not None:
        for hp, ep in ((h.ban.cards, r.ban.cards), (h.ban.all, r.ban.all)):
            if getattr(hp, "kind", None) == "param" and getattr(ep, "kind", None) == "param":
                m.setdefault(hp.value, ep.value)
    rest_h = {k: t for k, t in h.params.items() if k not in m}
    rest_e = {k: t for k, t in r.params.items() if k not in m.values()}
    for k, t in rest_h.items():
        if k in rest_e and rest_e[k] == t:
            m[k] = k
    rest_h = {k: t for k, t in rest_h.items() if k not in m}
    rest_e = {k: t for k, t in rest_e.items() if k not in m.values()}
    for t in set(rest_h.values()):
        hs = [k for k, x in rest_h.items() if x == t]
        es = [k for k, x in rest_e.items() if x == t]
        if len(hs) == 1 and len(es) == 1:
            m[hs[0]] = es[0]
    return m


def _ref(ref, pm, order):
    if ref.kind != "param":
        return str(ref)
    name = pm.get(ref.value, ref.value)
    if name not in order:
        order.append(name)
    return f"${order.index(name)}"


def _norm_convert(c, pm):
    order: list = []
    return (_ref(c.source, pm, order), tuple(_ref(t, pm, order) for t in c.targets), c.must)


def _fmt_convert(c) -> str:
    return f"{{ from = {c.source}, to = [{', '.join(str(t) for t in c.targets)}], must = {_show(c.must)} }}"


def _norm_ban(b, pm):
    order: list = []
    cards = _ref(b.cards, pm, order) if not isinstance(b.cards, tuple) else tuple(sorted(str(x) for x in b.cards))
    allv = _ref(b.all, pm, order) if not isinstance(b.all, bool) else b.all
    return cards, allv


def _fmt_ban(b) -> str:
    cards = str(b.cards) if not isinstance(b.cards, tuple) else "[" + ", ".join(str(x) for x in b.cards) + "]"
    return f"{{ cards = {cards}, all = {_show(b.all) if isinstance(b.all, bool) else b.all} }}"


def _compare_gives(gid, egives, hgives, extracted, hand, D):
    def norm(g, pm):
        args = {}
        for k, v in g.args.items():
            args[pm.get(k, k)] = tuple(sorted(v)) if isinstance(v, (list, tuple)) else v
        return args

    left = list(hgives)
    for g in egives:
        cands = [h for h in left if h.grant == g.grant]
        if not cands:
            D(Difference("gives", gid, f"the server hands out {g.grant} (to {g.to}); the hand-kept catalogue "
                         "does not list this site"))
            continue
        er, hr = extracted.skills.get(g.grant), hand.skills.get(g.grant)
        pm = _param_map(er, hr) if er is not None and hr is not None else {}
        ea = norm(g, {})

        def score(h):
            return (h.to == g.to) * 2 + (norm(h, pm) == ea)
        h = max(cands, key=score)
        left.remove(h)
        if h.to != g.to:
            D(Difference("gives", gid, f"{g.grant} goes to: server {g.to}, hand {h.to}", str(h.loc)))
        ha = norm(h, pm)
        ban = er.ban if er is not None else None
        if ban is not None and getattr(ban.all, "kind", "") == "param" and getattr(ban.cards, "kind", "") == "param" \
                and ea.get(ban.all.value) is True and ha.get(ban.all.value) is True:
            ea = {k: v for k, v in ea.items() if k != ban.cards.value}      # all cards banned: the list is moot
            ha = {k: v for k, v in ha.items() if k != ban.cards.value}
        if ea != ha:
            keys = list(dict.fromkeys(list(ea) + list(ha)))
            parts = [f"{k}: server {_fmt_arg(ea.get(k, _FREE))}, hand {_fmt_arg(ha.get(k, _FREE))}"
                     for k in keys if ea.get(k, _FREE) != ha.get(k, _FREE)]
            D(Difference("gives", gid, f"{g.grant} args: {'; '.join(parts)}", str(h.loc)))
    for h in left:
        D(Difference("gives", gid, f"the hand-kept catalogue hands out {h.grant} (to {h.to}); not found in the "
                     "server", str(h.loc)))


def _fmt_params(params) -> str:
    """Parameters as the catalogue writes them: ``{ a = "card", b = "bool" }``."""
    return "{ " + ", ".join(f'{k} = "{t}"' for k, t in params.items()) + " }" if params else "{}"


def _fmt_arg(v) -> str:
    if v is _FREE:
        return "free"
    if isinstance(v, tuple):
        return "[" + ", ".join(v) + "]"
    return _show(v)
