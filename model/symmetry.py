"""Interchangeable characters: two characters whose rules are the same up to the names of what only they use.

A character's *behaviour key* is its data and the data of everything private to it — its skills that no other
character starts with, and the grants only those skills hand out — serialised with names, texts, aliases and
file positions left out and the private ids replaced by their position (``@0``, ``@1``, …). Card types,
shared skills and everything else are kept as written. Two characters with the same key play the same game:
swapping them (and renaming their private rules) maps every trace of one onto a trace of the other.

That holds only if nothing outside a character names its private rules (a condition, another rule's
``plays``, an intent …): a character whose private ids are mentioned anywhere else has no key (``None``)
and is interchangeable with nobody.

Used by the question cones (``checks.context.Context.cone``): of several interchangeable holders of the same
side mechanism only as many as there are seats are needed, so a cone does not grow with copies of the game.
"""
from __future__ import annotations

import dataclasses
import json

from .catalogue import Catalogue, DoOp, Give
from .effects import GRANT, OPS

#: fields that do not change what a rule does
_IGNORED = frozenset({"loc", "key_locs", "name", "text", "aliases", "col", "index"})
#: fields whose strings are vocabulary (kind names), not ids, however they are spelled
_VOCABULARY = frozenset({"kinds", "closure"})


def _plain(v, rename):
    """``v`` as plain JSON-able data, ids renamed by ``rename`` (a function of a string)."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        out = {"@type": type(v).__name__}
        for f in dataclasses.fields(v):
            if f.name not in _IGNORED:
                out[f.name] = _plain(getattr(v, f.name), str if f.name in _VOCABULARY else rename)
        return out
    if isinstance(v, dict):
        return {str(_plain(k, rename)): _plain(x, rename) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, (list, tuple)):
        return [_plain(x, rename) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted((_plain(x, rename) for x in v), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(v, str):
        return rename(v)
    return v


def _atoms(v, out: set, handed: bool = True):
    """Every string inside ``v`` (ids a rule mentions), ignoring the fields ``_IGNORED`` — and, with
    ``handed=False``, the grant a gives site hands out, the one its ``with`` partner hands out, and the grant a
    ``do`` op hands out (``{ op = "grant", grant = … }``: one of the rule's own gives sites' grants, model.effects
    GRANT) — mentions that do not depend on its identity."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        for f in dataclasses.fields(v):
            if f.name not in _IGNORED and f.name not in _VOCABULARY and \
                    (handed or not (isinstance(v, Give) and f.name in ("grant", "with_grant"))):
                if not handed and isinstance(v, DoOp) and f.name == "args":
                    _do_args_atoms(v, out)
                else:
                    _atoms(getattr(v, f.name), out, handed)
    elif isinstance(v, dict):
        for k, x in v.items():
            _atoms(k, out, handed)
            _atoms(x, out, handed)
    elif isinstance(v, (list, tuple, set, frozenset)):
        for x in v:
            _atoms(x, out, handed)
    elif isinstance(v, str):
        out.add(v)


def _do_args_atoms(op: DoOp, out: set) -> None:
    """The ids a ``do`` op's arguments mention, but for the grants it hands out (``_atoms`` with ``handed=False``)."""
    spec = OPS.get(op.op)
    for k, x in op.args.items():
        a = spec.arg(k) if spec is not None else None
        if a is None or a.type != GRANT:
            _atoms(k, out, False)
            _atoms(x, out, False)


class Symmetry:
    """Behaviour keys of a catalogue's characters, computed once."""

    def __init__(self, cat: Catalogue):
        self.cat = cat
        self._keys: dict[str, str | None] = {}
        owners: dict[str, set] = {}
        for c in cat.characters.values():
            for s in c.skills:
                owners.setdefault(s, set()).add(c.id)
        self._private: dict[str, list[str]] = {}
        for c in cat.characters.values():
            own = [s for s in c.skills if owners.get(s) == {c.id} and s in cat.skills]
            grants = []
            for r in cat.grants:
                sites = cat.sites(r.id)
                if sites and all(not g.giver_is_card and g.giver in own for g in sites):
                    grants.append(r.id)
            self._private[c.id] = [c.id] + own + grants
        # who mentions what, outside each character's private rules
        self._mentions: dict[str, set] = {}
        self._rule_atoms: dict[str, frozenset] = {}      # every string a rule's data holds (its own id too)
        for table in (cat.skills, cat.cards, cat.characters):
            for ident, obj in table.items():
                atoms: set = set()
                _atoms(obj, atoms)
                if table is cat.skills:
                    self._rule_atoms[ident] = frozenset(atoms)
                atoms.discard(ident)
                self._mentions[ident] = atoms
        self._engine_atoms: set = set()                  # what the engine's [rules] name
        _atoms(cat.rules, self._engine_atoms)
        for it in cat.intents:
            self._mentions[f"intent:{it.id}"] = {w for w in it.claim.replace("(", " ").replace(")", " ").split()}
        # anonymous grants: nothing reads which grant they are, only what they do (every mention of one
        # outside itself is a gives site handing it out) — two of the same content are the same grant
        named: set = set()
        for table in (cat.skills, cat.cards, cat.characters):
            for ident, obj in table.items():
                atoms: set = set()
                _atoms(obj, atoms, handed=False)
                atoms.discard(ident)
                named |= atoms
        named |= {w for k, a in self._mentions.items() if k.startswith("intent:") for w in a}
        self._anonymous = {r.id for r in cat.grants if r.id not in named}
        self._content: dict[str, str] = {}
        self._card_keys: dict[str, str] = {}

    def key(self, char_id: str) -> str | None:
        """The behaviour key of a character, or None when it is interchangeable with nobody."""
        if char_id not in self._keys:
            self._keys[char_id] = self._compute(char_id)
        return self._keys[char_id]

    def _compute(self, char_id: str) -> str | None:
        cat = self.cat
        private = self._private[char_id]
        mine = set(private)
        for ident, atoms in self._mentions.items():
            if ident not in mine and atoms & mine:
                return None
        placeholder = {ident: f"@{i}" for i, ident in enumerate(private)}

        def rename(v: str) -> str:
            if v in placeholder:
                return placeholder[v]
            if v in self._anonymous:
                return "grant:" + self._grant_content(v)
            return v
        ch = cat.characters[char_id]
        doc = {"character": _plain(ch, rename),
               "rules": [_plain(cat.skills[r], rename) for r in private[1:]]}
        return json.dumps(doc, sort_keys=True, ensure_ascii=False, default=str)

    def _grant_content(self, gid: str, depth: int = 0) -> str:
        """What an anonymous grant does, without its id (grants it hands out in turn by their content)."""
        if gid not in self._content:
            if depth > 8:                   # a cycle of grants handing out grants: keep the id
                return gid
            self._content[gid] = gid        # (while computing: a self-reference reads as the id)

            def rename(v: str) -> str:
                if v == gid:
                    return "@self"
                if v in self._anonymous:
                    return "grant:" + self._grant_content(v, depth + 1)
                return v
            self._content[gid] = json.dumps(_plain(self.cat.skills[gid], rename), sort_keys=True,
                                            ensure_ascii=False, default=str)
        return self._content[gid]

    def named_characters(self, rules) -> set:
        """The characters that the rules ``rules`` (skill and grant ids) name — in conditions, effects,
        anywhere in their data — and, in turn, that the skills of those characters name."""
        cat = self.cat
        out: set = set()
        todo = [r for r in rules if r in cat.skills]
        seen = set(todo)
        while todo:
            for c in self._chars_named_by(todo.pop()) - out:
                out.add(c)
                todo += [s for s in cat.characters[c].skills if s in cat.skills and s not in seen]
                seen.update(cat.characters[c].skills)
        return out

    def named_skills(self, rules) -> set:
        """The skills (and grants) that the rules ``rules`` name, other than themselves."""
        out: set = set()
        for r in rules:
            if r in self._rule_atoms:
                out |= (self._rule_atoms[r] & self.cat.skills.keys()) - {r}
        return out

    def _chars_named_by(self, rule: str) -> set:
        return self._rule_atoms[rule] & self.cat.characters.keys()

    # ------------------------------------------------------------------------------------ card types
    def card_key(self, card_id: str) -> str:
        """What a card type does (its windows and gives, its own id as ``@self``): two card types of one
        key that no rule names are interchangeable."""
        if card_id not in self._card_keys:
            self._card_keys[card_id] = json.dumps(
                _plain(self.cat.cards[card_id], lambda v: "@self" if v == card_id else v),
                sort_keys=True, ensure_ascii=False, default=str)
        return self._card_keys[card_id]

    def card_slice(self, rules, keep: int) -> list[str]:
        """The card types a symbolic state over ``rules`` (skill and grant ids) needs, in catalogue order:
        every card type those rules, the engine's [rules], or a card handing out one of them name, and of
        the others (interchangeable by ``card_key``: no rule there can tell them apart) ``keep`` of each
        key. Permuting unnamed card types of one key maps every trace onto another, so a situation with
        more than ``keep`` of them at once is the only one a slice could miss."""
        cat = self.cat
        rules = set(rules)
        named = set(self._engine_atoms)
        for r in rules:
            if r in cat.skills:
                named |= self._rule_atoms[r]
        for c in cat.cards.values():
            if any(g.grant in rules for g in c.gives):      # hands one out: it and what its gives name
                named.add(c.id)
                _atoms(c, named)
        out, seen = [], {}
        for c in cat.cards:
            if c in named:
                out.append(c)
                continue
            k = self.card_key(c)
            seen[k] = seen.get(k, 0) + 1
            if seen[k] <= keep:
                out.append(c)
        return out

    def thin(self, chars, keep: int, kept=()) -> list[str]:
        """``chars`` (in order) with at most ``keep`` characters of each behaviour key, counting the
        characters ``kept`` already holds."""
        seen: dict[str, int] = {}
        for c in kept:
            k = self.key(c)
            if k is not None:
                seen[k] = seen.get(k, 0) + 1
        out = []
        for c in chars:
            k = self.key(c)
            if k is not None:
                seen[k] = seen.get(k, 0) + 1
                if seen[k] > keep:
                    continue
            out.append(c)
        return out
