"""Win and end-of-game rules read from the engine's own code, as named engine rules (the catalogue has no key for
them: its ``win`` / ``result`` effects are WinSkill's and ChangeGameResultSkill's): who declares victory and who wins
when, in the win check after a message is received or put into an area (``win.check``: ProcessFsm.checkWin, or
CheckWin in older code), in the win check after deaths (``win.killer``: CheckKillerWin — 镇压者, 清道夫, 先行者 …), the
end when only one camp (or one player) is left alive (``win.last_alive``), and where that end is checked
(``win.last_alive.at``).

Each rule's value is the list of its *clauses*: an action — a player declared winner (``declare``), added to the
winners (``win``), the declared winners or winners replaced (``only``), the game ended (``end``), the result passes
run (``result pass``, ``win pass``: a call read as its definition, a pass over the result or win skills whatever the
function is named) — with the conditions on the path to it, written as the code tests them (names
of the server's own fields, qualifiers and ``!!`` left out, one spacing). This is not a translation into the
condition language: two revisions whose clauses read alike decide alike, and a clause that changed says in the code's
terms what now happens when. What decides no winner is left out: logging, client messages, every role turned face
up as the game ends. ``skillproof diff --kotlin`` fails on a changed clause like on any engine rule.
"""
from __future__ import annotations

import re

from .commute import commute_appends
from .engine import EngineRule
from .syntax import _code, _descendants, _kid, _stmts, _lambda_parts, _name_of, _t

#: names of the collections of declared winners and of winners (``declareWinner``, ``declaredWinners``, ``winner``)
_DECLARE = re.compile(r"declare\w*", re.I)
_WINNER = re.compile(r"winners?\b|winner\w*", re.I)
_ADD = frozenset({"add", "addAll", "addPlayer", "addAllPlayers", "put", "addFirst"})
_CLEAR = frozenset({"clear", "removeAll", "removeIf", "retainAll", "remove"})
_QUAL = re.compile(r"\b(?:com\.fengsheng\.)?(?:protos\.)?(?:Common\.)?(?:color|secret_task|card_type)\.")


def _code_text(node) -> str:
    """A piece of code on one line: comments, qualifiers of the protocol's enums and ``!!`` left out, one spacing."""
    s = re.sub(r"//[^\n]*|/\*.*?\*/", " ", _t(node), flags=re.S)
    s = " ".join(s.split())
    s = _QUAL.sub("", s).replace("!!", "")
    s = re.sub(r"\s*([(),.])\s*", r"\1", s)
    s = re.sub(r"\s*(\?\.)\s*", r"?.", s)
    return s


class WinRules:
    """Mixed into the engine probes (needs ``_functions``)."""

    def _p_wins(self) -> list:
        out = []
        fns = self._functions()
        passes = self._win_passes()
        calls = re.compile(r"\b(" + "|".join(sorted({"end", "changeGameResult", "checkWin"} | set(passes))) + r")\(")
        declare = [(src, fd, owner) for src, fd, _n, owner in fns
                   if owner is not None and not self.is_skill(owner) and owner.name not in ("Player", "HumanPlayer",
                                                                                           "RobotPlayer")
                   and _DECLARE.search(_t(fd)) and calls.search(_t(fd))
                   and not _name_of(fd).startswith(("notify", "ai", "auto"))]
        killer = [x for x in declare if x[2].name == "CheckKillerWin"]
        main = [x for x in declare if x[2].name != "CheckKillerWin" and x[2].name != "Game"]
        # every other engine function that declares a winner and ends the game (搅局者's win at his turn's end:
        # phase/NextTurn.kt checkDisturberWin) is a win check of its own, named by its class (and by the function
        # when its class has two)
        more, seen = [], set()
        for x in main[1:]:
            name = "win." + x[2].name.replace("_", "").lower()
            if name in seen or name in ("win.check", "win.killer", "win.lastalive"):
                name += "." + _name_of(x[1])
            seen.add(name)
            more.append((name, [x]))
        for name, found in (("win.check", main[:1]), ("win.killer", killer[:1]), *more):
            if not found:
                out.append(EngineRule(name, None, "", "no win check found", False, True))
                continue
            src, fd, owner = found[0]
            clauses, complete = _Clauses(self).run(fd)
            out.append(EngineRule(name, tuple(clauses), src.at(fd), f"{owner.name}.{_name_of(fd)}: who declares "
                                  "victory and who wins, when", False, one=True, reads=tuple(sorted(passes.items()))))
            self._win_reads(src, owner, fd, complete)
        last = [(src, fd, owner) for src, fd, n, owner in fns if n.startswith("checkOnlyOneAlive")]
        if last:
            src, fd, owner = last[0]
            clauses, complete = _Clauses(self).run(fd)
            out.append(EngineRule("win.last_alive", tuple(clauses), src.at(fd), "the end when only one camp or player "
                                  "is left alive: who wins", False, one=True,
                                  reads=tuple(sorted(self._win_passes().items()))))
            self._win_reads(src, owner, fd, complete)
            fname = _name_of(fd)
            at = sorted({(owner2.name if owner2 is not None else src2.rel.rsplit("/", 1)[-1][:-3])
                         for src2, fd2, _n, owner2 in fns if fd2 is not fd and re.search(
                             r"\b" + re.escape(fname) + r"\(", _t(fd2)) and not _n.startswith(("ai", "auto"))})
            out.append(EngineRule("win.last_alive.at", tuple(at), src.at(fd), "where that end is checked", False))
        else:
            out.append(EngineRule("win.last_alive", None, "", "no check of the last camp alive", False, True))
        return out + self._p_win_skills() + self._p_lose() + self._p_result_declared()

    def _p_result_declared(self) -> list:
        """``result_pass.declared``: whom each win of the engine hands the result pass as declared winners — at each
        call of the pass (a function running the result skills, ``_win_passes``) from an engine function, the argument
        naming the declared winners read back to the local's first value: ``nobody`` (an empty collection), the
        players it is made of (``arrayListOf(whoseTurn)`` → ``whoseTurn``), or the code's own words; ``, then as the
        check adds`` when the function adds to it afterwards (its win check's clauses say when) — as a clause
        ``declared := <who> if <Class>.<function> calls the result pass``. The result skills
        (尾声, 比翼双飞 …) see these players as having declared victory: a win that no longer hands its winner over as a
        declarer changes what they can do."""
        passes = {n for n, label in self._win_passes().items() if label == "result pass"}
        if not passes:
            return [EngineRule("result_pass.declared", None, "", "no result pass", False, True)]
        call_re = re.compile(r"(?:[\w!?]+\s*\.\s*)*(" + "|".join(sorted(map(re.escape, passes))) + r")\s*\(")
        out, where = set(), ""
        for src, fd, name, owner in self._functions():
            if name in passes or (owner is not None and self.is_skill(owner)) or name.startswith(("ai", "auto")):
                continue
            if not any(p.encode() + b"(" in src.data[fd.start_byte:fd.end_byte] for p in passes):
                continue
            for call in _descendants(fd, "call_expression"):
                text = " ".join(_t(call).split())
                if not call_re.match(text):
                    continue
                va = _kid(call, "value_arguments")
                args = [_code_text(a) for a in va.named_children if a.type == "value_argument"] if va else []
                decl = [a for a in args if _DECLARE.search(a)]
                if not decl:
                    continue
                at = f"{owner.name if owner is not None else src.rel.rsplit('/', 1)[-1][:-3]}.{name}"
                out.add(f"declared := {self._declared_from(fd, decl[0])} if {at} calls the result pass")
                where = where or src.at(call)
        if not out:
            return [EngineRule("result_pass.declared", None, "", "no win hands the result pass its declared winners",
                               False, True)]
        return [EngineRule("result_pass.declared", tuple(sorted(out)), where, "whom each win hands the game-result "
                           "skills as declared winners", False)]

    @staticmethod
    def _declared_from(fd, var: str) -> str:
        """The declared winners a function hands on in ``var``: its local's first value in words, and whether the
        function adds to it."""
        if not re.fullmatch(r"\w+", var):
            return var
        first = var
        for pd in _descendants(fd, "property_declaration"):
            vd = _kid(pd, "variable_declaration")
            if vd is None or _t(_kid(vd, "identifier")).strip() != var:
                continue
            vals = [c for c in _code(pd) if c.type not in ("modifiers", "variable_declaration")]
            v = _code_text(vals[-1]) if vals else ""
            if re.fullmatch(r"(Array|Hash|Mutable|Linked)?(List|Set)?(Of)?(<[^>]*>)?\(\)|(mutable|array|hash)"
                            r"(ListOf|SetOf)(<[^>]*>)?\(\)|(ArrayList|HashSet)(<[^>]*>)?\(\)", v.replace(" ", "")):
                first = "nobody"
            else:
                m = re.fullmatch(r"(?:arrayListOf|listOf|mutableListOf|arrayOf|mutableSetOf|setOf)(?:<[^>]*>)?\((.*)\)", v)
                first = m.group(1) if m else v
            break
        body = _t(fd)
        adds = re.search(r"\b" + re.escape(var) + r"\s*(?:\.\s*(?:add|addAll|put|addFirst)\s*\(|\+=)", body)
        return first + (", then as the check adds" if adds else "")

    def _p_lose(self) -> list:
        """``lose``: when the engine puts a player out of the game (``p.lose = true``: out of every camp's win, server
        phase/SendPhaseStart.kt for a player with no card to send) — each such assignment of the engine's code with the
        conditions on its path, as ``Class.function: clause`` (none at all is a value too: the rule was taken away)."""
        out, where = [], ""
        for src, fd, name, owner in self._functions():
            if b"lose" not in src.data[fd.start_byte:fd.end_byte] or (owner is not None and self.is_skill(owner)):
                continue
            if not re.search(r"\.\s*lose\s*=\s*true\b", _t(fd)):
                continue
            clauses, _complete = _Clauses(self).run(fd)
            where_name = f"{owner.name if owner is not None else src.rel.rsplit('/', 1)[-1][:-3]}.{name}"
            out += [f"{where_name}: {c}" for c in clauses if re.search(r"\blose = true\b", c)]
            where = where or src.at(fd)
        return [EngineRule("lose", tuple(sorted(out)), where, "who the engine puts out of the game, when", False)]

    def _p_win_skills(self) -> list:
        """``win.skill.<Class>`` / ``result.skill.<Class>``: the clauses of each WinSkill's ``checkWin`` and each
        ChangeGameResultSkill's ``changeGameResult`` (白月光, 比翼双飞 …), read as the engine's win checks are (the
        catalogue's ``win`` / ``result`` effects do not say them). The class's own private functions are named by
        their order (``helper1`` …): a renamed helper is the same clause; its body is a construct of its own."""
        out = []
        for c in self.classes:
            if not c.concrete or not self.is_skill(c):
                continue
            kinds = self.ancestors(c)
            for kind, prefix, default in (("WinSkill", "win.skill", "checkWin"),
                                          ("ChangeGameResultSkill", "result.skill", "changeGameResult")):
                if kind not in kinds:
                    continue
                owner, fd = self.func(c, self.kind_method(kind, default))
                if fd is None or owner is not c:
                    continue
                clauses, complete = _Clauses(self).run(fd)
                helpers = [_name_of(f) for f in c.members("function_declaration")
                           if re.search(r"\bprivate\b", _t(f).split("fun", 1)[0])]
                for i, h in enumerate(helpers, 1):
                    clauses = [re.sub(r"\b" + re.escape(h) + r"\b", f"helper{i}", x) for x in clauses]
                out.append(EngineRule(f"{prefix}.{c.name}", tuple(clauses), c.src.at(fd), f"{c.name}."
                                      f"{_name_of(fd)}: who declares victory and who wins, when", False))
                self._win_reads(c.src, c, fd, complete)
        return out

    def _win_passes(self) -> dict:
        """The functions that run a pass over the players' result or win skills, by name -> what the clauses call
        it ("result pass", "win pass"): a call is read as its definition, whatever the function is named."""
        if "_passes" not in self.__dict__:
            out = {}
            for _src, fd, n, owner in self._functions():
                if owner is not None and self.is_skill(owner):
                    continue
                body = _kid(fd, "function_body")
                text = " ".join(_t(body).split()) if body is not None else ""
                for kind, label in (("ChangeGameResultSkill", "result pass"), ("WinSkill", "win pass")):
                    if re.search(r"\bis " + kind + r"\b", text):
                        out.setdefault(n, label)
            self._passes = out
        return self._passes

    def _win_reads(self, src, owner, fd, complete: bool):
        path = []
        x = owner
        while x is not None:
            path.append(x.name)
            x = x.outer
        self.__dict__.setdefault("engine_reads", {})[(src.rel, ".".join(reversed(path)), _name_of(fd))] = complete


class _Clauses:
    """One function's clauses (see the module's docstring): a walk keeping the conditions on the path."""

    def __init__(self, ex):
        self.ex = ex
        self.out: list = []
        self.complete = True
        self.loop = 0
        self.never: set = set()                         # locals holding a lookup that is always null

    def _never_found(self, v: str) -> bool:
        """Whether ``v`` looks up an element of a type nothing implements (``skills.lastOrNull { it is T } as? T``,
        ``find``/``firstOrNull``/``singleOrNull``/``findLast`` alike, or ``filterIsInstance<T>().…``): ``T`` is an
        interface or an abstract class the sources declare and no class, object or expression of the sources
        implements or extends (every other occurrence of its name is a type test, a cast or its declaration). Such a
        lookup is always null: a hook nothing implements."""
        m = re.fullmatch(r"[\w.?]+\.(?:lastOrNull|firstOrNull|find|findLast|singleOrNull)\s*\{\s*(?:it|(\w+)\s*->\s*\1)"
                         r"\s+is\s+(\w+)\s*\}\s*as\?\s*(\w+)", v.strip())
        if m and m.group(2) == m.group(3):
            t = m.group(2)
        else:
            m = re.fullmatch(r"[\w.?]+\.filterIsInstance<(\w+)>\(\)\s*\.\s*(?:lastOrNull|firstOrNull|singleOrNull)\(\)",
                             v.strip())
            if not m:
                return False
            t = m.group(1)
        cache = self.ex.__dict__.setdefault("_unimplemented", {})
        if t not in cache:
            data = b"\n".join(src.data for src in getattr(self.ex, "srcs", ()))
            name = re.escape(t.encode())
            declared = re.search(rb"\b(?:interface|abstract\s+class|sealed\s+(?:class|interface))\s+" + name + rb"\b",
                                 data)
            uses = len(re.findall(rb"(?<![\w.$])" + name + rb"(?![\w$])", data))
            known = len(re.findall(rb"(?:\bis\s+|\bas\??\s+|\binterface\s+|\bclass\s+|<)" + name + rb"(?![\w$])"
                                   rb"|^\s*import\s+[\w.]*\." + name + rb"\s*$", data, re.M))
            cache[t] = bool(declared) and uses == known
        return cache[t]

    def run(self, fd):
        body = _kid(fd, "function_body")
        block = _kid(body, "block") if body is not None else None
        stmts = _code(block) if block is not None else (_code(body) if body is not None else [])
        self.block(stmts, [])
        return commute_appends(self.out), self.complete

    def emit(self, what: str, path):
        conds = [c for c in path if c]
        # under a test that two names are the same player (`r === whoseTurn || return`), either name is the other:
        # the clause is written with the first of the two in name order (a rewrite between them decides alike)
        for c in conds:
            m = re.fullmatch(r"\(?(\w+)\s*===?\s*(\w+)\)?", c)
            if m and m.group(1) != m.group(2) and not m.group(1)[:1].isupper() and not m.group(2)[:1].isupper() \
                    and m.group(1) not in ("true", "false", "null") and m.group(2) not in ("true", "false", "null"):
                keep, other = sorted((m.group(1), m.group(2)))
                what = re.sub(r"(?<![\w.])" + re.escape(other) + r"\b", keep, what)
        self.out.append(what + (" if " + " and ".join(conds) if conds else ""))

    def block(self, stmts, path):
        path = list(path)
        for s in stmts:
            path = self.stmt(s, path)
            if path is None:
                return None
        return path

    def stmt(self, s, path):
        t = s.type
        text = _t(s)
        if t in ("line_comment", "block_comment", "multiline_comment"):
            return path
        flat = _code_text(s)
        if re.match(r"(logger|log)\.\w+\(|[\w.?]+\.send\s*[({]|println|[\w.?]+\.notify\w*\(", flat):
            return path
        if t == "if_expression":
            cond = s.child_by_field_name("condition")
            branches = [b for b in _code(s) if b != cond]
            c = _code_text(cond) if cond is not None else "?"
            first = re.match(r"\(?(\w+)\s*!=\s*null\s*(?:\)\s*)?(?:&&|\Z)", c)
            if first and first.group(1) in self.never and "||" not in c:
                # the branch of a lookup that is always null is never taken (``_never_found``)
                return self.block(self._stmts(branches[1]), path) if len(branches) > 1 else path
            r1 = self.block(self._stmts(branches[0]), path + [c]) if branches else path
            r2 = self.block(self._stmts(branches[1]), path + [f"!({c})"]) if len(branches) > 1 else path + [f"!({c})"]
            if r1 is None and r2 is None:
                return None
            if r1 is None:
                return path + [f"!({c})"]
            if len(branches) > 1 and r2 is None:
                return path + [c]
            return path
        if t == "when_expression":
            subj = next((c for c in s.named_children if c.type == "when_subject"), None)
            sx = _code_text(subj) if subj is not None else ""
            for e in (c for c in s.named_children if c.type == "when_entry"):
                kids = _code(e)
                if not kids:
                    continue
                conds = "|".join(_code_text(k) for k in kids[:-1]) or "else"
                self.block(self._stmts(kids[-1]), path + [f"{sx}~{conds}" if sx else conds])
            return path
        if t in ("for_statement", "while_statement"):
            kids = _code(s)
            head = " ".join(_code_text(k) for k in kids[:-1])
            self.block(self._stmts(kids[-1]) if kids else [], path + [f"each({head})"])
            return path
        if t in ("return_expression", "jump_expression"):
            word = text.split()[0] if text else ""
            if word.startswith("continue") or word.startswith("break"):
                return None
            if self._return_if(s, word, path):
                return None                             # (each branch returned under its own condition)
            val = _code_text(s)[len(word):].strip()
            if val and val not in ("null", "false") and "ResolveResult(null" not in val:
                self.emit(f"return {val}", path)
            elif "ResolveResult(null" in val or val == "true":
                self.emit("end", path)
            return None
        if t == "binary_expression" and _code(s) and _code(s)[-1].type in ("return_expression", "jump_expression"):
            op = _t(s.child_by_field_name("operator")) if s.child_by_field_name("operator") else ""
            c = _code_text(_code(s)[0])
            return path + ([c] if op == "||" else [f"!({c})"])
        if t == "property_declaration" or t == "assignment":
            name = _t(s.child_by_field_name("left")) if t == "assignment" else _t(_kid(_kid(s, "variable_declaration"),
                                                                                      "identifier"))
            value = s.child_by_field_name("right") if t == "assignment" else \
                ([c for c in _code(s) if c.type not in ("modifiers", "variable_declaration")] or [None])[-1]
            if value is None:
                return path
            v = _code_text(value)
            if t == "property_declaration" and re.fullmatch(r"\w+", name) and self._never_found(v):
                self.never.add(name)                    # a lookup of a type nothing implements: always null
                return path
            if _DECLARE.search(name) or _WINNER.search(name):
                if re.fullmatch(r"(Array|Hash|Mutable)?(List|Map|Set)?(Of)?(<[^>]*>)?\(\)|(mutable|array|hash)"
                                r"(ListOf|MapOf|SetOf)\(\)|ArrayList\(\)|HashMap\(\)", v.replace(" ", "")):
                    return path
                # one spelling for a collection of players: the kind of list or array and a copy into another kind
                # (``arrayOf(p)`` / ``listOf(p)``, ``winner.toTypedArray()``) decide the same winners; a copy of the
                # declared winners or winners under another name (for a log line) decides nothing new
                v = re.sub(r"\.(?:toTypedArray|toList|toMutableList|toSet)\(\)$", "", v)
                v = re.sub(r"^(?:arrayOf|listOf|arrayListOf|mutableListOf)\(", "list(", v)
                if re.fullmatch(r"\w+", v) and (_DECLARE.search(v) or _WINNER.search(v)):
                    return path
                self.emit(f"{'declare' if _DECLARE.search(name) else 'win'} := {v}", path)
                return path
            op = next((c.type for c in s.children if not c.is_named and c.type.endswith("=")), "=") \
                if t == "assignment" else "="             # a compound assignment keeps its operator (``n += 1``)
            self.emit(f"{name} {op} {v}", path)        # every other value kept as written: nothing is dropped
            return path
        if t == "call_expression":
            self.call(s, path)
            return path
        self.emit(_code_text(s), path)
        return path

    def _return_if(self, s, word: str, path):
        """``return if (c) A else B``: each branch's value returned under its own condition, as ``if (c) return A``
        then ``return B`` (the two spellings state the same clauses); False when the value is not such an ``if``."""
        if word != "return":
            return False
        vals = [c for c in _code(s) if c.type not in ("return", "label")]
        if len(vals) != 1 or vals[0].type != "if_expression":
            return False
        node = vals[0]
        cond = node.child_by_field_name("condition")
        branches = [b for b in _code(node) if b != cond]
        if cond is None or len(branches) != 2 or any(len(self._stmts(b)) != 1 for b in branches):
            return False
        c = _code_text(cond)
        for b, cp in ((branches[0], c), (branches[1], f"!({c})")):
            v = _code_text(self._stmts(b)[0])
            if v and v not in ("null", "false") and "ResolveResult(null" not in v:
                self.emit(f"return {v}", path + [cp])
            elif "ResolveResult(null" in v or v == "true":
                self.emit("end", path + [cp])
        return True

    def call(self, s, path):
        text = _code_text(s)
        m = re.match(r"(\w+)\.(\w+)\((.*)\)$", text, re.S)
        if m and m.group(2) in _ADD | _CLEAR and (_DECLARE.search(m.group(1)) or _WINNER.search(m.group(1))):
            who = "declare" if _DECLARE.search(m.group(1)) else "win"
            verb = "+=" if m.group(2) in _ADD else "-="
            self.emit(f"{who} {verb} {m.group(3)}", path)
            return
        m = re.match(r"(\w+)\?\.(let|also|run)\s*\{", text)
        if m:
            for c in s.named_children:
                if c.type == "annotated_lambda":
                    self.block(_lambda_parts(_kid(c, "lambda_literal"))[1], path + [f"{m.group(1)} != null"])
                    return
        m = re.match(r"(?:[\w.]+\.)?(forEach|onEach)\s*\{(?:\s*(\w+)\s*->)?", text)
        lam = None
        for c in s.named_children:
            if c.type == "annotated_lambda":
                lam = _kid(c, "lambda_literal")
        if m and lam is not None:
            params, stmts = _lambda_parts(lam)
            recv = text[:text.index(m.group(1))].rstrip(".")
            self.block(stmts, path + [f"each({params[0] if params else 'it'} in {recv})"])
            return
        if re.search(r"\b(GameExecutor\.post|post)\(", text):
            inner = re.search(r"\b(end)\(", text)
            if inner:
                self.emit("end", path)
            return
        if re.search(r"\ballPlayerSetRoleFaceUp\(", text) and not re.search(r"\bend\(", text):
            return                      # every role turned face up as the game ends: it decides no winner
        passes = self.ex._win_passes() if hasattr(self.ex, "_win_passes") else {}
        for m in re.finditer(r"\b(\w+)\(", text):
            if m.group(1) in passes:
                self.emit(passes[m.group(1)], path)          # the call read as its definition, not by its name
                return
        for word in ("changeGameResult", "checkWin", "end"):
            if re.search(r"\b" + word + r"\(", text):
                self.emit({"changeGameResult": "result pass", "checkWin": "win pass", "end": "end"}[word], path)
                return
        self.emit(text, path)

    _stmts = staticmethod(_stmts)
