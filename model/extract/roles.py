"""The role table → characters: the class whose constructor takes ``vararg …: Skill`` (the server's
RoleSkillsData), its calls with a literal name in source order, and each call's flags and skill classes."""
from __future__ import annotations

from .classes import ClassIndex
from .report import ExtractError
from .syntax import _kid, _last_name, _short, _value_args


class RoleTable(ClassIndex):
    """Reads the role table: ``_role_table`` sets ``role_cls`` and ``role_idx``, ``_characters`` uses them."""

    def _role_table(self):
        """The class whose constructor takes ``vararg …: Skill`` and its calls with a literal name."""
        role_cls = None
        for c in self.classes:
            for ps in c.ctors:
                if ps and ps[-1].vararg and self._is_skill_type(ps[-1].tname, c):
                    role_cls = (c, ps)
                    break
            if role_cls:
                break
        if role_cls is None:
            raise ExtractError(f"no role table under {self.root}: no class has a constructor taking "
                               "`vararg …: Skill` (the server's RoleSkillsData)")
        cls, ps = role_cls
        self.role_idx = idx = _role_positions(ps[:-1])
        calls = []
        for src in self.srcs:
            for node, ctx in src.calls.get(cls.name, []):
                args = _value_args(_kid(node, "value_arguments"))
                if len(args) >= len(ps) - 1 and args[idx["name"]].x.k == "str" and \
                        not any(a.name or a.spread for a in args):
                    calls.append((src, node, args))
        if not calls:
            raise ExtractError(f"no role table under {self.root}: no call of {cls.name}(\"name\", …) "
                               "with a literal name")
        return role_cls, calls

    def _characters(self, calls):
        cls, ps = self.role_cls
        fixed = ps[:-1]
        idx = self.role_idx
        chars, role_skills, seen = [], [], {}
        for src, node, args in calls:
            where = src.at(node)
            pos = [a for a in args[:len(fixed)]]
            name = pos[idx["name"]].x.a[0]
            rx = pos[idx["role"]].x if idx["role"] < len(pos) else None
            rid = _last_name(rx) if rx is not None else None
            if rid is None:
                self.note("role", name, where, "the role enum is not a plain constant; character skipped")
                continue
            if rid in seen:
                self.note("role", rid, where, f"listed twice in the role table (first at {seen[rid]}); "
                          "the first entry is kept")
                continue
            seen[rid] = where
            flags = {}
            for key in ("female", "public"):
                x = pos[idx[key]].x if idx[key] < len(pos) else None
                if x is not None and x.k == "lit" and isinstance(x.a[0], bool):
                    flags[key] = x.a[0]
                else:
                    flags[key] = key == "public"
                    self.note("role", rid, where, f"{'female' if key == 'female' else 'isPublicRole'} is not a "
                              f"literal ({_short(x.n) if x else 'missing'}); written as {flags[key]}")
            skills = []
            for a in args[len(fixed):]:
                x = a.x
                c, found = None, False
                if x.k == "call" and x.a[0].k == "name":
                    c = self.resolve(x.a[0].a[0], None)
                    found = c is not None
                    if c is not None and (not self.is_skill(c) or not c.concrete):
                        c = None
                    elif c is not None and x.a[1]:
                        self.note("role", rid, where, f"{c.name} is built with arguments "
                                  f"({_short(x.n)}); a [[skill]] has no parameters, they are ignored")
                if c is None:
                    what = "is not a known skill class" if found or x.k != "call" else \
                        "names no class found in the sources (not read?)"
                    self.note("role", rid, where, f"skill argument `{_short(a.node)}` {what}; left out of the "
                              "character's skill list")
                    continue
                if c.name in skills:
                    self.note("role", rid, where, f"{c.name} listed twice; kept once")
                    continue
                skills.append(c.name)
                if all(c is not r for r in role_skills):
                    role_skills.append(c)
            chars.append({"id": rid, "name": name, "hidden": not flags["public"], "female": flags["female"],
                          "skills": skills, "where": where})
        return chars, role_skills


def _role_positions(fixed: list) -> dict:
    """Which constructor argument of the role class is the name, the role, female and isPublicRole: by the
    parameters' names and types, else the server's order (name, role, female, isPublicRole)."""
    idx = {"name": 0, "role": 1, "female": 2, "public": 3}
    for i, p in enumerate(fixed):
        low = p.name.lower()
        if "female" in low:
            idx["female"] = i
        elif "public" in low or "faceup" in low:        # isPublicRole; before 2023-08-04 isFaceUp
            idx["public"] = i
        elif p.tname == "String":
            idx["name"] = i
        elif p.tname.lower() == "role":
            idx["role"] = i
    return idx
