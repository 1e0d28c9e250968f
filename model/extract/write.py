"""TOML output: the extracted catalogue as the text of cards.toml, characters.toml, skills.toml and grants.toml."""
from __future__ import annotations

import json
import re

from .classes import ClassIndex, _Cls


#: the first line of every file written
_HEADER = "# Extracted from the server's Kotlin source by `skillproof extract`; do not edit by hand."


class CatalogueWriter(ClassIndex):
    """``_write`` turns the tables ``run`` built into one TOML text per file."""

    def _write(self, chars, role_skills, entries, gives) -> dict:
        cards_out = [_HEADER,
                     "# Card types: the card classes (type and toString) and every card_type the code names.", ""]
        for cid, card in self.cards.items():
            if card["where"]:
                cards_out.append(f"# server: {card['where']}")
            cards_out.append("[[card]]")
            cards_out += _pairs([("id", cid), ("name", card["name"])] +
                                ([("windows", card["windows"])] if card.get("windows") else []) +
                                [(k, card[k]) for k in ("target", "requires", "do", "deck") if card.get(k)])
            cards_out += _gives_toml("card", gives.get(("card", cid), []))
            cards_out.append("")
        chars_out = [_HEADER,
                     f"# The role table: calls of {self.role_cls[0].name}(…) in source order.", ""]
        for ch in chars:
            chars_out.append(f"# server: {ch['where']}")
            chars_out.append("[[character]]")
            chars_out += _pairs([("id", ch["id"]), ("name", ch["name"]), ("hidden", ch["hidden"]),
                                 ("female", ch["female"]), ("skills", ch["skills"])])
            chars_out.append("")
        skills_out = [_HEADER,
                      "# Skills in role-table order, each followed by the grants nested in its class.", ""]
        grants_out = [_HEADER,
                      "# Skill classes handed out at run time that are not nested in another class.", ""]
        done = set()
        order = [c.name for c in role_skills] + [n for n, c in self.rule_cls.items()
                                                 if id(c) in self.is_grant and not self.is_grant[id(c)]
                                                 and n not in {r.name for r in role_skills}]
        for name in order:
            if name in done or name not in entries:
                continue
            done.add(name)
            skills_out += _rule_toml(entries[name])
            for nested in self._nested_rules(self.rule_cls[name]):
                if nested in entries and nested not in done:
                    done.add(nested)
                    skills_out += _rule_toml(entries[nested])
        for name, e in entries.items():
            if name in done:
                continue
            done.add(name)
            top = e["cls"].top
            if top is e["cls"]:
                grants_out += _rule_toml(e)
            else:
                skills_out += _rule_toml(e)
        return {"cards.toml": "\n".join(cards_out).rstrip() + "\n",
                "characters.toml": "\n".join(chars_out).rstrip() + "\n",
                "skills.toml": "\n".join(skills_out).rstrip() + "\n",
                "grants.toml": "\n".join(grants_out).rstrip() + "\n"}

    def _write_rules(self, engine: dict) -> str:
        """rules.toml: the ``[rules]`` keys read from the engine files (a key not read is left out, so the
        catalogue default applies, and said), then the engine rules skillproof does not model, as comments."""
        out = [_HEADER, "# Engine rules read from the server's engine files; the extraction report lists what was not "
               "read.", "", "[rules]"]
        for r in engine.values():
            if not r.key:
                continue
            if r.value is None:
                out.append(f"# {r.name}: not read ({r.how}); the catalogue default applies")
            else:
                out.append(f"# server: {r.where} — {r.how}")
                out += _pairs([(r.name, list(r.value) if isinstance(r.value, tuple) else r.value)])
        named = [r for r in engine.values() if not r.key]
        if named:
            out += ["", "# Engine rules the catalogue does not model (`skillproof diff --kotlin` compares them):"]
            out += [f"#   {r.name} = {r.shown()}" + (f"  ({r.where})" if r.where else "") for r in named]
        return "\n".join(out).rstrip() + "\n"

    def _nested_rules(self, c: _Cls) -> list:
        out = []
        for n in c.nested:
            if self.rule_cls.get(n.name) is n:
                out.append(n.name)
            out += self._nested_rules(n)
        return out


def _tv(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_tv(i) for i in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_tk(k)} = {_tv(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def _tk(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _pairs(items) -> list:
    return [f"{_tk(k)} = {_tv(v)}" for k, v in items]


_FREE_EFFECT = [("when", "unknown"), ("winners_add", "q: unknown"), ("winners_remove", "q: unknown"),
                ("declared_add", "q: unknown"), ("declared_remove", "q: unknown")]


def _rule_toml(e: dict) -> list:
    table = "grant" if e["grant"] else "skill"
    out = [f"# server: {e['where']}", f"[[{table}]]"]
    items = [("id", e["id"]), ("name", e["name"]), ("kinds", e["kinds"]), ("initial", e["initial"])]
    if e["grant"]:
        items.append(("lifetime", e["lifetime"]))
        if e.get("params"):
            items.append(("params", e["params"]))
    if e.get("consumed"):
        items.append(("consumed", True))
    if e.get("flips"):
        items.append(("flips", True))
    if e.get("limit"):
        items.append(("limit", e["limit"]))
    for key in ("fight", "dying"):
        if key in e:
            items.append((key, e[key]))
    if e.get("windows"):
        items.append(("windows", e["windows"]))
    if "convert" in e:
        items.append(("convert", e["convert"]))
    if "ban" in e:
        items.append(("ban", e["ban"]))
    if "receive" in e:
        items.append(("receive", e["receive"]))
    if "send" in e:
        items.append(("send", {"rule": e["send"]}))
    if "draw" in e:
        items.append(("draw", e["draw"]))
    if e.get("on"):
        items.append(("on", e["on"][0] if len(e["on"]) == 1 else e["on"]))
    if e.get("requires"):
        items.append(("requires", e["requires"]))
    if e.get("do"):
        items.append(("do", e["do"]))
    out += _pairs(items)
    for key in ("win", "result"):
        if e.get(key):
            out.append(f"[[{table}.{key}]]")
            out += _pairs(_FREE_EFFECT)
    out += _gives_toml(table, e["gives"])
    out.append("")
    return out


def _gives_toml(table: str, gives: list) -> list:
    out = []
    for g in gives:
        out.append(f"# server: {g['where']}")
        out.append(f"[[{table}.gives]]")
        items = [("grant", g["grant"]), ("to", g["to"]), ("when", "unknown")]
        if g["args"]:
            items.append(("args", g["args"]))
        out += _pairs(items)
    return out
