"""The JSON Schema of one catalogue file, built from the kind lattice (so the two cannot drift).

``model/schema.json`` is this schema written out for editors; a test keeps the file equal to
``build()`` and checks the shipped catalogue against it. Regenerate with
``python -m skillproof.model.schema > model/schema.json``.
"""
from __future__ import annotations

import json

from . import effects as X
from . import events as EV
from . import turn as T
from .kinds import KINDS


def build() -> dict:
    kinds = sorted(k for k in KINDS if k != "Skill")
    expr = {"type": "string", "description": "an expression of the skillproof condition language"}
    lam = {"type": "string", "pattern": r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*:", "description": "'VAR: condition'"}
    strlist = {"type": "array", "items": {"type": "string"}}
    # windows = { window = actor }: where a card or an ActiveSkill is used and by whom (model.turn)
    windows = {"type": "object", "additionalProperties": False, "description": "window -> actor (model/turn.py)",
               "properties": {w: {"enum": list(T.ACTORS)} for w in T.IDLE_POINTS}}
    site_windows = [w for w in T.WINDOWS if w != "turn_end"]
    at = {"oneOf": [{"enum": site_windows}, {"type": "array", "minItems": 1, "items": {"enum": site_windows}}],
          "description": "the window(s) in which the site hands its grant out"}
    gives = {"type": "array", "items": {"type": "object", "additionalProperties": False, "required": ["grant", "to"],
        "properties": {"grant": {"type": "string"}, "to": {"enum": ["self", "target", "others", "all"]},
                       "when": expr, "per_turn": {"type": "integer", "minimum": 1},
                       "args": {"type": "object"}, "where": expr, "at": at, "on": {"enum": list(T.EVENTS)},
                       "with": {"type": "string"}}}}
    effect = {"type": "array", "minItems": 1, "items": {"type": "object", "additionalProperties": False,
        "properties": {"when": expr, "each": lam, "pick": lam, "winners_add": lam, "winners_remove": lam,
                       "declared_add": lam, "declared_remove": lam}}}
    # on = { event, whose, when, once, guard_prose } or [[skill.on]]: the events a TriggeredSkill answers (model.events)
    roles = sorted(EV.ALL_ROLE_NAMES)
    whose = {"oneOf": [{"enum": list(EV.WHOSE_WORDS) + roles}, {"type": "array", "minItems": 1, "uniqueItems": True,
                                                              "items": {"enum": roles}}],
             "description": "which player of the event the holder is: any, self (the event's principal), other, or roles"}
    on_one = {"type": "object", "additionalProperties": False, "required": ["event"],
              "properties": {"event": {"enum": list(EV.EVENT_KINDS)}, "whose": whose, "when": expr,
                             "once": {"type": "boolean"}, "guard_prose": {"type": "boolean"}}}
    on = {"oneOf": [on_one, {"type": "array", "minItems": 1, "items": on_one}],
          "description": "TriggeredSkill: the event(s) it answers, in the server's event classes (docs/catalogue-format.md § on)"}
    do = _do_schema(expr)
    rule_props = {
        "id": {"type": "string", "minLength": 1}, "name": {"type": "string"}, "aliases": strlist,
        "kinds": {"type": "array", "minItems": 1, "items": {"enum": kinds}}, "initial": {"type": "boolean"},
        "text": {"type": "string"}, "flips": {"type": "boolean"}, "consumed": {"type": "boolean"},
        "limit": {"enum": ["none", "turn", "game"]}, "trigger": {"type": "string"}, "fight": expr, "dying": expr,
        "main": dict(expr, description="ActiveSkill: its condition in the main phase (出牌阶段), beyond window, actor "
                                      "and limit"),
        "remind": dict(expr, description="MainPhaseSkill: ending the main phase prompts for it when this holds "
                                        "(server mainPhaseNeedNotify; default 'not used')"),
        "convert": {"type": "object", "additionalProperties": False, "required": ["from", "to", "must"],
                    "properties": {"from": {"type": "string"}, "to": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                                   "must": {"type": "boolean"}}},
        "ban": {"type": "object", "additionalProperties": False,
                "properties": {"cards": {"oneOf": [strlist, {"type": "string"}]}, "all": {"oneOf": [{"type": "boolean"}, {"type": "string"}]}}},
        "receive": {"type": "object", "additionalProperties": False, "properties": {"must": expr, "cannot": expr}},
        "send": {"type": "object", "additionalProperties": False, "required": ["rule"], "properties": {"rule": expr}},
        "draw": expr, "win": effect, "result": effect, "gives": gives,
        "plays": {"type": "object", "additionalProperties": False, "required": ["as", "checks_bans"],
                  "properties": {"as": {"type": "array", "minItems": 1, "items": {"type": "string"}}, "checks_bans": {"type": "boolean"},
                                 "bans_of": {"enum": ["user", "target"]}, "card_of": {"enum": ["none", "user", "target"]},
                                 "resolves": {"enum": ["declared", "physical"]},
                                 "when": {"oneOf": [expr, {"type": "object", "additionalProperties": expr}],
                                          "description": "the condition on which it acts as a card: one for every "
                                                         "card of 'as', or card -> condition"}}},
        "origin": {"enum": ["server", "rulebook"]},
        "windows": windows, "replaces_role": {"type": "boolean"},
        "fires": {"type": "object", "additionalProperties": False, "required": ["at"],
                  "properties": {"at": at, "when": expr},
                  "description": "TriggeredSkill: when its effect happens (windows, and a condition on its holder)"},
        "on": on, "do": do, "requires": expr,
    }
    grant_props = dict(rule_props, lifetime={"enum": ["turn", "until_fired", "permanent", "resolution"]},
                       params={"type": "object", "additionalProperties": {"enum": ["card", "bool", "int", "colour", "set<card>"]}})
    schema = {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://skillproof.invalid/schema/catalogue.json",
      "title": "skillproof catalogue (TOML)",
      "description": "One file of a skillproof rule catalogue. See docs/catalogue-format.md.",
      "type": "object", "additionalProperties": False,
      "properties": {
        "meta": {"type": "object"},
        "rules": {"type": "object", "additionalProperties": False, "properties": {
            "seats": {"type": "integer", "minimum": 2, "maximum": 9}, "min_seats": {"type": "integer", "minimum": 1, "maximum": 9},
            "draw_base": {"type": "integer", "minimum": 0},
            "turn_end": {"type": "array", "items": {"enum": ["restore_invalid", "drop_one_turn"]}, "minItems": 2, "maxItems": 2, "uniqueItems": True},
            "must_beats_cannot": {"type": "boolean"}, "face_down_converts": {"type": "boolean"},
            "face_down_grant_converts": {"type": "boolean"}, "lock_self": {"type": "boolean"},
            "send_dir": {"type": "string", "description": "the default direction rule (send context)"},
            "send_lock": {"type": "string", "description": "the default lock rule (send context)"},
            "send_to_self": {"type": "boolean"},
            "must_receive": {"type": "array", "items": {"enum": ["sender", "turn", "locked"]}, "uniqueItems": True},
            "skip_fight": {"type": "array", "items": {"enum": ["skills_gone", "can_use"]}, "uniqueItems": True},
            "skip_dying": {"type": "array", "items": {"enum": ["skills_gone", "can_use"]}, "uniqueItems": True}}},
        "card": {"type": "array", "items": {"type": "object", "additionalProperties": False, "required": ["id", "name"],
            "properties": {"id": {"type": "string", "minLength": 1}, "name": {"type": "string"}, "aliases": strlist,
                           "text": {"type": "string"}, "gives": gives, "windows": windows, "do": do, "requires": expr,
                           "target": {"description": "whom the card is used on: none, any living player or another one, "
                                                     "and the condition the target meets (per window)",
                                      "anyOf": [{"enum": ["none", "any", "other"]},
                                                {"type": "object", "additionalProperties": False, "properties": {
                                                    "who": {"enum": ["none", "any", "other"]},
                                                    "when": {"anyOf": [{"type": "string"}, {"type": "object",
                                                             "additionalProperties": {"type": "string"}}]}}}]},
                           "phases": {"type": "array", "items": {"enum": list(T.IDLE_POINTS)}},
                           "deck": {"description": "the card's printed copies in the deck (server card/Deck.kt)",
                                    "type": "array", "items": {"type": "object", "additionalProperties": False,
                                    "required": ["n", "colour", "dir"], "properties": {
                                        "n": {"type": "integer", "minimum": 1},
                                        "colour": {"type": "array", "minItems": 1,
                                                   "items": {"enum": ["red", "blue", "black"]}},
                                        "dir": {"enum": ["up", "left", "right"]}, "lock": {"type": "boolean"},
                                        "seats": {"type": "string", "pattern": "^[0-9]+(-[0-9]+)?(, [0-9]+(-[0-9]+)?)*$",
                                                  "description": "the table sizes whose games hold these copies "
                                                                 "(every size when left out)"},
                                        "with": {"type": "object", "description": "what else the card type prints",
                                                 "additionalProperties": {"anyOf": [
                                                     {"type": "array", "items": {"enum": ["red", "blue", "black"]}},
                                                     {"type": ["integer", "boolean", "string"]}]}}}}}},
            "not": {"required": ["phases", "windows"]}}},
        "character": {"type": "array", "items": {"type": "object", "additionalProperties": False,
            "required": ["id", "name", "hidden", "female", "skills"],
            "properties": {"id": {"type": "string", "minLength": 1}, "name": {"type": "string"}, "hidden": {"type": "boolean"},
                           "female": {"type": "boolean"}, "skills": strlist, "origin": {"enum": ["server", "rulebook"]},
                           "aliases": strlist, "text": {"type": "string"}}}},
        "skill": {"type": "array", "items": {"type": "object", "additionalProperties": False, "required": ["id", "name", "kinds"],
                  "properties": rule_props}},
        "grant": {"type": "array", "items": {"type": "object", "additionalProperties": False,
                  "required": ["id", "name", "kinds", "lifetime"], "properties": grant_props}},
        "intent": {"type": "array", "items": {"type": "object", "additionalProperties": False,
                   "required": ["id", "source"], "anyOf": [{"required": ["claim"]}, {"required": ["intends"]}],
                   "properties": {"id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
                                  "claim": {"type": "string", "minLength": 1,
                                            "description": "a yes/no question of the ask language (docs/query-language.md)"},
                                  "source": {"type": "string", "minLength": 1,
                                             "description": "the rule book: 'FILE › HEADING › SKILL'"},
                                  "severity": {"enum": ["error", "warning", "note"]}, "text": {"type": "string"},
                                  "intends": {"type": "array", "items": {"type": "string",
                                              "pattern": "^[A-Z]{2,}[0-9]{3}(@[^@\\s]+|-[0-9a-f]{10})?$"}}}}},
      },
    }
    return schema


def _do_schema(expr) -> dict:
    """``do``: a list of effect ops (model.effects), one schema per op (``op`` as its discriminator); ``choose``'s
    alternatives are lists of ops again: the schema says so loosely (each a table naming its ``op``; no ``$ref``,
    the file stays small), the loader reads them as the top level (model/link_do.py)."""
    return _do_level(expr)


def _do_level(expr) -> dict:
    amount = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 100}, expr]}
    cards = {"oneOf": [{"type": "string"}, {"type": "array", "minItems": 1, "items": {"type": "string"}}]}
    by_type = {X.PLAYER: {"type": "string", "description": "a player of the moment (self, a role, chosen, all, others)"},
               X.AMOUNT: amount, X.CARDS: cards, X.GRANT: {"type": "string", "description": "a grant of this rule's gives"},
               X.TEXT: {"type": "string", "minLength": 1}, X.BOOL: {"type": "boolean"},
               X.PHASE: {"enum": list(X.PHASES)},
               X.NAME: {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                        "description": "a name for what the op moved, read by the ops after it"},
               X.COND: dict(expr, description="a condition on the card the op moves (it: its colours)"),
               X.BODY: {"type": "array", "minItems": 1, "items": {
                   "type": "object", "required": ["op"], "properties": {"op": {"enum": list(X.OPS)}}},
                   "description": "the ops a loop does each time"},
               X.OPTIONS: {"type": "array", "minItems": 1,
                           "items": {"type": "array", "minItems": 1, "items": {
                               "type": "object", "required": ["op"], "properties": {"op": {"enum": list(X.OPS)}}}}}}
    ops = []
    for o in X.OPS.values():
        props = {"op": {"const": o.key}, "if": expr, "may": {"type": "boolean"}, "note": {"type": "string"}}
        for a in o.args:
            props[a.name] = {"enum": list(a.choices)} if a.type == "enum" else by_type[a.type]
        ops.append({"type": "object", "additionalProperties": False, "properties": props,
                    "required": ["op"] + [a.name for a in o.args if a.required], "description": f"{o.en} ({o.server})"})
    return {"type": "array", "minItems": 1, "items": {"oneOf": ops},
            "description": "what the rule does: effect ops in order (docs/catalogue-format.md § do, model/effects.py)"}


def dumps() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    import sys
    sys.stdout.write(dumps())
