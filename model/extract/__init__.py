"""Extract a catalogue from the game server's Kotlin source, and compare it with a hand-kept one.

The server (CuteReimu/TheMessage) defines each skill as a Kotlin class. This module parses its sources with
a real parser (tree-sitter and the tree-sitter-kotlin grammar) and reads, without running anything:

* cards — the Card subclasses (``override val type = <card_type>``, the name from ``toString``) and every
  ``card_type.X`` the code names;
* characters — the role table: calls of the class whose constructor takes ``vararg …: Skill``
  (``RoleSkillsData("name", role, female, isPublicRole, Skill(), …)``);
* skills — kinds from the supertypes (followed through the class hierarchy), ``isInitialSkill``, the name
  from the ``SkillId`` enum, ConvertCardSkill constructor arguments, ``canUse`` and the other rule methods
  of the design note when their body is a simple expression over the documented vocabulary;
* grants — skill classes nested in other classes, and skill classes handed out at run time
  (``p.skills += X(…)``, ``InvalidSkill.deal(p)``), with the place that hands them out.

Whatever cannot be decided with certainty is written as the expression ``unknown`` (or a parameter left
free) and listed in the report; nothing is guessed silently. Only the facts the code states are written:
no rule text, no trigger descriptions.

The server's names this relies on are the ones the design note (skill-architecture.md) documents: the kind
interfaces (``ActiveSkill`` … ``ChangeDrawCardCountSkill``), their methods (``canUse``, ``mustReceive``,
``cannotReceive``, ``checkDir``, ``checkCanLock``, ``checkSendCard``, ``changeDrawCardCount``,
``checkWin``, ``changeGameResult``, ``executeProtocol``), ``isInitialSkill`` and ``skillId``, plus the
protocol's enum names ``card_type`` and ``color``.

The parts, each a module of this package: ``syntax`` (Kotlin syntax over tree-sitter), ``server`` (the
server's names above), ``classes`` (the class index and hierarchy), ``roles`` (the role table →
characters), ``cards``, ``grants`` (grant sites), ``rules`` (one entry per skill class), ``bodies`` (rule
methods → expressions), ``engine`` (engine rules read from the engine's own files: ``[rules]`` keys and named
engine rules), ``write`` (TOML), ``report`` (the report and ``compare``), ``degraded`` (when an extraction cannot
be trusted) and ``understood`` (what became readable between two extractions). ``extract`` and ``compare``
below are the entry points.
"""
from __future__ import annotations

import time
from pathlib import Path

from .. import expr as E
from ..loader import CatalogueErrors, load
from .classes import _Cls
from .deck import DeckReader
from .engine import EngineRule, EngineRules
from .orders import OrderRules
from .sends import SendDefaults
from .send_path import SendPath
from .timing import TimingRules
from .refusals import RefusalRules
from .grants import GrantSites
from .report import Difference, ExtractError, Extraction, ReportItem, compare
from .roles import RoleTable
from .rules import RuleEntries
from .wins import WinRules
from .write import CatalogueWriter

__all__ = ["Difference", "EngineRule", "ExtractError", "Extraction", "ReportItem", "compare", "extract"]


class _Extractor(RefusalRules, RoleTable, GrantSites, RuleEntries, EngineRules, WinRules, DeckReader, OrderRules, SendDefaults,
                 SendPath, TimingRules, CatalogueWriter):
    """The parts of the extractor together; ``run`` calls them in order."""

    def run(self) -> tuple[dict, dict]:
        t0 = time.perf_counter()
        self.parse()
        self.skill_names = self._skill_names()
        self.role_cls, roles = self._role_table()
        self.cards = self._cards()
        for cid, card in self.cards.items():
            if card["cls"] is not None:
                card["windows"] = self._card_windows(cid, card["cls"])
        chars, role_skills = self._characters(roles)
        self.char_names = {c["id"]: c["name"] for c in chars}
        self.card_ids = frozenset(self.cards)
        self.char_ids = frozenset(c["id"] for c in chars)
        self.universe = E.Universe(self.card_ids, self.char_ids)

        skill_classes = [c for c in self.classes if c.concrete and self.is_skill(c)]
        granted = self._granted_classes()
        rule_cls: dict[str, _Cls] = {}
        self.is_grant: dict[int, bool] = {}
        for c in role_skills:
            self.is_grant[id(c)] = False
        for c in skill_classes:
            if id(c) in self.is_grant:
                continue
            if c.outer is not None and c.outer.kind != "companion" or id(c) in granted:
                self.is_grant[id(c)] = True
            else:
                self.is_grant[id(c)] = False
                self.note("unused", c.name, c.at(), "a skill class no role of the role table holds; "
                          "written as a [[skill]] held by no character", undecided=False)
        for c in skill_classes:
            if c.name in rule_cls and rule_cls[c.name] is not c:
                self.note("name", c.name, c.at(), f"a second skill class named {c.name} "
                          f"(first at {rule_cls[c.name].at()}); only the first is written")
                self.is_grant.pop(id(c), None)
                continue
            rule_cls[c.name] = c
        self.rule_cls = rule_cls
        self.consumed = self._consumed()
        self.cannot_ids = self.handler_cannot_receive()
        gives = self._gives()                                # giver key -> list of give dicts
        for cid, card in self.cards.items():                 # what each card does and checks
            if card["cls"] is not None:
                card["gives"] = gives.get(("card", cid), [])
                card["key_lines"] = self._effect_keys(card, self._read_effect(card["cls"], "card", cid=cid), "card")
        for cid, d in self._deck(self._seats_value()).items():     # the printed cards (card/Deck.kt)
            card = self.cards[cid]
            card["deck"] = d["deck"]
            card.setdefault("key_lines", {})[("deck",)] = d["where"]
            if d["init"]:
                card["key_lines"][("deck", "init")] = d["init"]
        self._unread_assignments()
        entries = {}
        for name, c in rule_cls.items():
            if id(c) in self.is_grant:
                entries[name] = self._rule(c, self.is_grant[id(c)], gives.get(("rule", name), []))
        for lst in gives.values():                           # arguments of parameters not modelled
            for g in lst:
                params = entries[g["grant"]].get("params", {}) if g["grant"] in entries else {}
                g["args"] = {k: v for k, v in g["args"].items() if k in params}
        if self.initial_marker() == ("none",):
            self.note("initial", "*", self.root.name, "the code has no initial-skill marker (no isInitialSkill, "
                      "InitialSkill or marker tested by InvalidSkill.deal): skills are written initial, grants "
                      "not", undecided=False)
        self.locations = {**{cid: c["where"] for cid, c in self.cards.items() if c["where"]},
                          **{c["id"]: c["where"] for c in chars}, **{n: e["where"] for n, e in entries.items()}}
        self.entries = entries                               # (their reads: refusals.RefusalRules)
        self.engine = self._engine()
        keys: dict = {}
        for n, c in rule_cls.items():
            k, own = self._skill_id(c) if id(c) in self.is_grant else (None, False)
            if k is not None and own:
                keys.setdefault(k[1], set()).add(n)
        self.skill_keys = {k: next(iter(v)) for k, v in keys.items() if len(v) == 1}
        self._older_dead_owner(entries)
        self.key_lines = {**{cid: c.get("key_lines", {}) for cid, c in self.cards.items()},
                          **{n: e.get("key_lines", {}) for n, e in entries.items()}}
        self.reads = dict(getattr(self, "engine_reads", {}))
        for item in [*self.cards.values(), *entries.values()]:
            for k, v in (item.get("reads") or {}).items():
                self.reads[k] = self.reads.get(k, True) and v
        files = self._write(chars, role_skills, entries, gives)
        files["rules.toml"] = self._write_rules(self.engine)
        stats = {"source": str(self.root), "kotlin_files": len(self.srcs), "characters": len(chars),
                 "skills": sum(1 for e in entries.values() if not e["grant"]),
                 "grants": sum(1 for e in entries.values() if e["grant"]),
                 "sites": sum(len(v) for v in gives.values()), "cards": len(self.cards),
                 "engine_rules": sum(1 for r in self.engine.values() if r.value is not None),
                 "seconds": time.perf_counter() - t0}
        return files, stats


def extract(src_dir, seconds: float | None = None, quiet: bool = False) -> Extraction:
    """Parse the Kotlin sources under ``src_dir`` and build a catalogue (TOML text per file) and a report.
    ``quiet``: read each file with the meaning-keeping refactors of ``quiet_source`` undone first (the gate compares
    two sides so; the catalogue a user extracts keeps the code's own order and spelling).

    Raises ExtractError on bad input: not a directory, no Kotlin files, no role table; budget.OverBudget past
    the size budget or ``seconds`` (default budget.DEFAULT_SECONDS)."""
    root = Path(src_dir)
    if not root.exists():
        raise ExtractError(f"no such directory: {root}")
    if not root.is_dir():
        raise ExtractError(f"not a directory: {root}")
    if (root / "src" / "main" / "kotlin").is_dir():          # a checkout of the server: read its main sources
        root = root / "src" / "main" / "kotlin"
    ex = _Extractor(root)
    ex.quiet = quiet
    from .budget import Budget
    ex.budget = Budget(seconds)
    files, stats = ex.run()
    report = sorted(ex.report, key=lambda i: (not i.undecided, i.kind, i.where, i.subject))
    result = Extraction(files, report, stats, engine=ex.engine, locations=ex.locations, role_class=ex.role_cls[0].name)
    result.key_lines, result.reads = ex.key_lines, ex.reads
    result.read_texts = {s.rel: s.data for s in ex.srcs} if quiet else {}     # each file as the readers read it
    result.skill_keys = dict(getattr(ex, "skill_keys", {}))
    try:
        result.catalogue = load(texts={f"<extracted>/{n}": t for n, t in files.items()})
    except CatalogueErrors as errs:
        result.load_errors = [e.render("en") for e in errs.errors]      # the extraction speaks English
    return result
