"""Engine timing read whole from the engine's game states and deck, as named engine rules: what each state of the game
flow does and *when* — the conditions on the path to each of its steps — and what the deck does when it is drawn
from, peeked at or discarded to.

* ``state.<Class>.<function>`` — every function of a game state (a class whose supertypes include ``Fsm``: the fight
  phase asking a player or passing him over, the death settling a dying queue, the dead player's cards and
  messages cleared …): its *clauses*, read as the win checks' are (``wins._Clauses``): each step — a state gone on
  to, an event raised (``addEvent(PlayerDieEvent(…))``), a mark set (``alive = false``), a card or message moved
  (``messageCards.clear()``, ``deck.discard(…)``) — with the conditions on the path to it (``if``, ``when``, early
  returns, loops), as the code writes them; logging and client notices left out. Who is asked or passed over in a
  window, when a death raises its event, what happens to a dead player's areas: a change of any is a change of the
  engine's timing.
* ``state.<Class>.<param>`` — the literal default a game state's constructor gives a parameter (``discardAfterResolve
  = true`` of the state after a card resolves: the card goes to the discard pile unless its maker says otherwise).
* (``convert.loop``, the conversion loop read whole the same way, was tried and left out: on the invented server of
  tests/test_gate.py a same-meaning rewrite of its face guard came out as a change; ``about_change`` still names the
  conversion skills for it, for when it is put back.)
* ``seat.<function>`` — the same for a function of the player that walks the seats round the table from his own (the
  nearest living neighbour on the left or the right: whom a message goes on to, whom a skill may name).
* ``game.<function>`` — the same for a function of the game that sets a player's mark the model reads (his role face
  up, his having ever been face up, his being alive: ``Game.playerSetRoleFaceUp``).
* ``deck.<function>`` — the same for every function of the deck (the class the game's ``deck`` is: server
  card/Deck.kt): when the discard pile is shuffled back, how many cards a draw takes.

Each is read from that one function alone (``EngineRule.one``): a function whose normal form did not change states
the same rule (a local renamed, a statement's spelling), whatever its clauses' text; a function that changed is named
by its rule. ``about_change`` names the rules such a change is about: the skills answering an event whose raising
changed (``PlayerDieEvent`` → every skill with ``on = die``), the conversion skills a changed clause of the conversion
loop tests (its source any card, its must flag, its being a role's own), the window's skip (``skip_fight`` / ``skip_dying``) when
a state of that window now goes on to another state under other conditions (whom it passes over).
"""
from __future__ import annotations

import re

from .deck import _owner_path
from .engine import EngineRule
from .server import DYING_PHASES, PHASE_WINDOWS
from .syntax import _descendants, _kid, _name_of, _t
from .unread import is_rule_file
from .wins import _Clauses

#: a player's mark the model reads (model.vocab: face_up, ever_face_up, alive), set by a function of the game
#: (``Game.playerSetRoleFaceUp``: turning a role face up also marks it as having been face up)
_PLAYER_MARK = re.compile(r"\.(roleFaceUp|hasEverFaceUp|alive)\s*=(?!=)")
#: a function of the game handing cards to the deck (``deck.discard(cards)``: the discard pile; ``deck.addFirst``:
#: back on the deck)
_DECK_MOVE = re.compile(r"\bdeck\s*\.\s*(discard|addFirst|addLast|add|addAll)\s*\(")
#: a window → the [rules] key of its skip predicate
_SKIP_KEYS = {"fight": "skip_fight", "dying": "skip_dying"}
#: functions that state no rule (display, identity)
_NOT_RULES = frozenset({"toString", "hashCode", "equals", "copy"})
#: a constructor default read as a value: a boolean, a number, a string literal or an enum constant (``Black``,
#: ``color.Red``) — not a call or an expression of other values
_LITERAL = re.compile(r'(?:true|false|-?\d+|"[^"\\$]*"|(?:[A-Za-z_]\w*\.)*[A-Z]\w*)\Z')


def _flags(cls) -> list:
    """(name, value, declaration, opened) of the constant flags a class declares in its body (``open val x = true``,
    ``override val x = false``): a literal ``true`` / ``false`` / number; ``opened``: open or abstract (a base's)."""
    body = _kid(cls.node, "class_body")
    out = []
    for pd in (body.named_children if body is not None else ()):
        if pd.type != "property_declaration":
            continue
        text = _t(pd)
        m = re.match(r"\s*((?:\w+\s+)*)val\s+(\w+)\s*(?::\s*\w+\s*)?=\s*(true|false|-?\d+)\s*\Z", text)
        if not m:
            continue
        mods = m.group(1).split()
        if "override" not in mods and "open" not in mods:
            continue
        out.append((m.group(2), m.group(3), pd, "open" in mods))
    return out


def _seat_walk(fd) -> bool:
    """A function that finds a player by walking the seats round the table: declared to return a ``Player``, with a loop
    whose seat index is stepped and wrapped by the number of players (``left--; if (left < 0) left += players.size``),
    starting from the player's own seat (``location``)."""
    text = _t(fd)
    if not re.match(r"[^{=]*\)\s*:\s*Player\??\s*[{=]", text):
        return False                    # it finds a player (not a seat number for the clients, not a list)
    return bool(_descendants(fd, "while_statement", "for_statement", "do_while_statement")) and \
        re.search(r"\blocation\b", text) is not None and re.search(r"\bplayers\s*\.\s*size\b", text) is not None \
        and re.search(r"(\+\+|--|[+-]=)", text) is not None


def _state_window(name: str) -> str | None:
    """The window a game state stands at (server class names: ``FightPhaseIdle`` → fight, the 濒死求澄清 states and
    the state that starts them → dying)."""
    if name in PHASE_WINDOWS:
        return PHASE_WINDOWS[name]
    if name in DYING_PHASES or name == "StartWaitForChengQing":
        return "dying"
    return None


class TimingRules:
    """Mixed into the engine probes (needs ``_functions``, ``classes``, ``ancestors``, ``is_skill``, ``is_card``)."""

    def _p_timing(self) -> list:
        states = {c.name for c in self.classes if "Fsm" in self.ancestors(c)
                  and not self.is_skill(c) and not self.is_card(c)}
        deck = self._deck_class()
        out = []
        for src, fd, name, owner in self._functions():
            if owner is None or name in _NOT_RULES or name.startswith(("ai", "auto", "notify")):
                continue
            if not is_rule_file(src.rel) or src.rel.startswith(("skill/", "handler/")) or "Robot" in owner.name:
                continue
            if owner.name in states and not src.rel.startswith("card/"):
                prefix = "state"
                where_name = f"{owner.name}.{name}"
            elif deck is not None and owner is deck:
                prefix = "deck"
                where_name = name
            elif owner.name == "Game" and src.rel == "Game.kt" and (_PLAYER_MARK.search(_t(fd)) or
                                                                    _DECK_MOVE.search(_t(fd))):
                prefix = "game"                 # a function of the game setting a player's mark the model reads,
                                                # or moving cards to the deck or the discard pile (where discards go)
                where_name = name
            elif owner.name == "Player" and _seat_walk(fd):
                prefix = "seat"                 # a function of the player that walks the seats round the table to
                where_name = name               # find one (the nearest living neighbour a message goes on to)
            else:
                continue
            if (self.__dict__.get("engine_reads") or {}).get((src.rel, _owner_path(fd), name)) is True:
                continue                        # read whole by another reader (the deck's prints: card ``deck``)
            clauses, _complete = _Clauses(self).run(fd)
            out.append(EngineRule(f"{prefix}.{where_name}", tuple(clauses), src.at(fd),
                                  f"{owner.name}.{name}: what it does, and when", False, one=True))
        return out + self._state_flags(states) + self._state_defaults(states)

    def _state_flags(self, states: set) -> list:
        """``state.<Class>.<flag>``: a constant flag a game state has (``open val needCheckWinAndDying = true`` of a
        base state, ``override val needCheckWinAndDying = false`` of a state that skips the win and dying checks): its
        value for every state that has the flag, its own override or the nearest base's — an override dropped or
        added changes when the engine checks (planted6's wins checked before the dead give their cards)."""
        opened = {name for c in self.classes for name, _v, _pd, op in _flags(c) if op}
        rules = []
        for c in sorted(self.classes, key=lambda x: (x.src.rel, x.name)):
            if c.name not in states or self.is_skill(c) or self.is_card(c) or "Robot" in c.name \
                    or not is_rule_file(c.src.rel) or c.src.rel.startswith(("skill/", "card/", "handler/")):
                continue
            seen: set = set()
            for x in self.super_chain(c):
                for name, value, pd, _op in _flags(x):
                    if name in seen or name not in opened:
                        continue
                    seen.add(name)
                    whose = "its own" if x is c else f"{x.name}'s"
                    v = {"true": True, "false": False}.get(value, None)
                    rules.append(EngineRule(f"state.{c.name}.{name}", int(value) if v is None else v, x.src.at(pd),
                                            f"{c.name}.{name}: a flag of the game state ({whose})", False))
        return rules

    def _state_defaults(self, states: set) -> list:
        """``state.<Class>.<param>``: the default a game state's constructor gives a parameter, when it is a literal
        (``var discardAfterResolve: Boolean = true``: a resolved card goes to the discard pile unless the code that
        makes the state says otherwise; ``val valid: Boolean = true``): every place that builds the state without that
        argument takes it, so a changed default changes what the engine does there. A notification switch
        (``needNotify``) is what the clients are told, not a rule, and is left out."""
        rules = []
        for c in sorted(self.classes, key=lambda x: (x.src.rel, x.name)):
            if c.name not in states or self.is_skill(c) or self.is_card(c) or "Robot" in c.name \
                    or not is_rule_file(c.src.rel) or c.src.rel.startswith(("skill/", "card/", "handler/")):
                continue
            for p in c.params:
                if p.default is None or "notify" in p.name.lower():
                    continue
                text = " ".join(_t(p.default).split())
                if not _LITERAL.match(text):
                    continue
                v = {"true": True, "false": False}.get(text)
                if v is None:
                    v = int(text) if re.fullmatch(r"-?\d+", text) else text
                rules.append(EngineRule(f"state.{c.name}.{p.name}", v, c.src.at(p.default),
                                        f"{c.name}({p.name} = {text}): the default of a game state's constructor",
                                        False))
        return rules

    def _deck_class(self):
        """The class of the game's deck: the type the game's ``deck`` property is built as (``val deck = Deck(this)``),
        else a class named ``Deck``; None when the code has neither."""
        by_name = {c.name: c for c in self.classes}
        for c in self.classes:
            if c.name != "Game":
                continue
            for pd in _descendants(c.node, "property_declaration"):
                vd = _kid(pd, "variable_declaration")
                if vd is None or _t(vd).split(":")[0].strip() != "deck":
                    continue
                m = re.search(r"\b([A-Z]\w*)\s*\(", _t(pd).split("=", 1)[-1]) or re.search(r":\s*([A-Z]\w*)", _t(vd))
                if m and m.group(1) in by_name:
                    return by_name[m.group(1)]
        return by_name.get("Deck")


#: what a clause of the conversion loop tests of a conversion skill → which conversion skills that test is about
_CONVERT_TESTS = (
    (re.compile(r"\bcardTypeA\b|== null"), lambda c, r: c.source.kind == "any"),        # a source of any card
    (re.compile(r"\.must\b|\bonlyMust\b"), lambda c, r: c.must),                       # a conversion that must be made
    (re.compile(r"isInitialSkill|roleFaceUp"), lambda c, r: r.initial),                   # a role's own conversion
)


def _conversions_tested(differ: list, cat) -> list:
    """The conversion skills the differing clauses of the conversion loop are about: those with the attribute a clause
    tests (a source of any card, a must-conversion, a role's own skill); every conversion skill when none is told."""
    convs = [(rid, r) for rid, r in sorted(cat.skills.items()) if getattr(r, "convert", None) is not None]
    picked = [rid for rid, r in convs for pat, has in _CONVERT_TESTS
              if any(pat.search(c) for c in differ) and has(r.convert, r)]
    return list(dict.fromkeys(picked)) or [rid for rid, _r in convs]


def about_change(ec, hex_) -> list:
    """The rules a change of an engine rule of this module is about (see the module's docstring), from the clauses that
    differ between its two values; [] for any other rule."""
    if not ec.name.startswith(("state.", "deck.", "convert.loop")) or hex_ is None:
        return []
    base = ec.base if isinstance(ec.base, (tuple, list)) else ()
    head = ec.head if isinstance(ec.head, (tuple, list)) else ()
    differ = [str(x) for x in set(base) ^ set(head)]
    out = []
    cat = getattr(hex_, "catalogue", None)
    events = set()
    for c in differ:
        events.update(re.findall(r"\b(\w+Event)\s*\(", c))
    if events and cat is not None:
        from skillproof.model.events import EVENT_KINDS
        keys = {k.key for k in EVENT_KINDS.values() if k.server in events}
        for rid, r in sorted(cat.skills.items()):
            if any(o.event in keys for o in (getattr(r, "on", ()) or ())):
                out.append(rid)
    if ec.name == "convert.loop" and cat is not None and differ:
        out += _conversions_tested(differ, cat)
    if ec.name.startswith("state."):
        cls = ec.name.split(".")[1]
        win = _state_window(cls)
        if win in _SKIP_KEYS and any(re.match(r"return\b", c) and not re.match(r"return\s+null\b", c)
                                     for c in differ):
            out.append(_SKIP_KEYS[win])
    return list(dict.fromkeys(out))


__all__ = ["TimingRules", "about_change"]
