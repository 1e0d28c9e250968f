"""Rule-bearing Kotlin that changed between two revisions: every construct (a class's header, a method, a
property, a top-level function) whose *normalised syntax tree* differs, so the gate can say which changed rule
code the extraction did not turn into a catalogue difference (finding UNR001, inconclusive).

What is compared is not the text but a normal form of the tree (tree-sitter's Kotlin grammar, the parser the
extractor uses):

* comments, imports, formatting, redundant parentheses, ``!!``, trailing commas are gone;
* what is not a rule is dropped: logging calls (``logger.info(…)``), client messages (``….send(…)``,
  ``sendErrorMessage``, protobuf builders ``xxxToc { … }`` / ``newBuilder()`` and what is set on them),
  sequence numbers (``incrSeq``), time-out defaults (``….timeout = …``), robot branches (``if (r is
  RobotPlayer) …``), robot helpers (functions and properties named ``ai…``), display names (``toString``) and
  the files and classes that hold no rule (robots, network, statistics, the lobby's handlers);
* local names are numbered in order of declaration (a renamed local or parameter is the same tree); a name
  qualified by a type, an enum or a package is its last part (``card_type.Shi_Tan`` = ``Shi_Tan``);
* guards have one form: ``if (a || b) return x``, ``if (a) return x; if (b) return x``, ``!a && !b ||
  return x`` and ``val v = e ?: return x`` / ``if (v == null) return x`` are the same guards; conditions are in
  negation normal form (``!(a == b)`` = ``a != b``, ``!x.contains(y)`` = ``y !in x``), ``===`` is ``==`` and
  the operands of an equality are ordered; ``a until b`` is ``a ..< b``, ``a to b`` is ``Pair(a, b)``.

Constructs are matched by their class path and member name; a construct that disappears on one side and
appears on the other with the same tree (a class or a method renamed, code moved to another file) is the same
construct, and so is one whose trees differ only by names renamed throughout the code base (a name of BASE that
HEAD no longer has, replaced by one BASE never had).
"""
from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field

from .normal import (_COMMENTS, _NOT_RULE_MEMBER, _PACKAGES, _TYPES, ROBOT_CLASSES, _locals_query, _Norm, _renumber,
                     _simplify, dead_params, helpers, inlined_constant, is_helper, quiet_moments,
                     unimplemented_types)
from .server import KIND_NAMES
from .syntax import _make_parser, parse_kotlin

# ----------------------------------------------------------------------------------------- where rules live
#: directories (relative to the source root) whose files hold rule code
RULE_DIRS = ("skill/", "card/", "phase/", "handler/")
#: top-level files that hold engine rules (phases, events, players, the game, the result passes)
RULE_FILES = frozenset({"Game.kt", "Player.kt", "ProcessFsm.kt", "CountColors.kt", "Fsm.kt", "WaitingFsm.kt",
                        "ResolveResult.kt"})
RULE_FILE_RE = re.compile(r"Event\w*\.kt\Z")
#: files that hold no rule of their own but read rules for the human player (the fight-phase skip, time-outs):
#: a member read there is read by a rule
RULE_READERS = frozenset({"HumanPlayer.kt", "Config.kt"})
#: handlers of the lobby and of the client's housekeeping (rooms, robots, records, heart-beats): no rule
LOBBY_HANDLERS = frozenset({"abstractprotohandler", "protohandler", "main", "addonepositiontos", "addordertos",
                            "addrobottos", "autoplaytos", "displayrecordtos", "getorderstos", "getrecordlisttos",
                            "hearttos", "joinroomtos", "pauserecordtos", "removeonepositiontos", "removerobottos",
                            "gameinitfinishtos", "leaveroomtos"})
#: members of the game that run the lobby, not a game (timers, joining a room, the room registry)
LOBBY_MEMBERS = frozenset({"setStartTimer", "cancelStartTimer", "onPlayerJoinRoom", "exchangePlayer",
                           "newInstance", "main"})
def is_rule_file(rel: str) -> bool:
    """Whether a Kotlin file (path relative to the source root) holds rule code."""
    base = rel.rsplit("/", 1)[-1]
    if rel.startswith("handler/"):
        return base[:-3].replace("_", "").lower() not in LOBBY_HANDLERS
    return rel.startswith(RULE_DIRS) or rel in RULE_FILES or bool(RULE_FILE_RE.match(rel))


# ----------------------------------------------------------------------------------------------- constructs
@dataclass
class Construct:
    file: str            # relative to the source root
    line: int            # 1-based, of the declaration
    cls: str             # enclosing class path ("JiuJi.ExecuteJiuJi"; "" at top level)
    member: str          # method / property name; "" for a class's header
    sig: tuple           # (member/arity, member(parameter types)): the first keys it, the second keeps overloads apart
    text: bytes = b""    # the source text (the same text on both sides is the same construct: no normal form needed)
    grants: bool = False  # the body hands out or removes skills (`….skills += …`, `….skills = …`, `deal(…)`)
    end: int = 0         # the last line of the declaration
    build: object = field(default=None, repr=False)      # () -> (normal form, marks, keep), made when first asked
    _made: tuple = field(default=None, repr=False)

    def _make(self):
        if self._made is None:
            self._made = self.build()
        return self._made

    @property
    def tree(self) -> tuple:
        """The normal form."""
        return self._make()[0]

    @property
    def marks(self) -> dict:
        """id() of a statement's normal form -> its line."""
        return self._make()[1]

    @property
    def key(self) -> tuple:
        return (self.cls, self.sig[0])

    @property
    def digest(self) -> str:
        return hashlib.sha1(repr(self.tree).encode("utf-8")).hexdigest()

    @property
    def where(self) -> str:
        return f"{self.cls}.{self.member}" if self.cls and self.member else (self.cls or self.member)


# ------------------------------------------------------------------------------------------ the constructs
def _name(node, data) -> str:
    ident = node.child_by_field_name("name")
    if ident is None and node.type == "property_declaration":
        vd = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if vd is not None:
            ident = next((c for c in vd.named_children if c.type == "identifier"), None)
    if ident is None:
        ident = next((c for c in node.named_children if c.type in ("identifier", "type_identifier",
                                                                   "simple_identifier")), None)
    if ident is None and node.type == "property_declaration":
        vd = next((c for c in node.named_children if c.type in ("variable_declaration",
                                                                "multi_variable_declaration")), None)
        if vd is not None:
            ident = next((c for c in vd.named_children if c.type == "identifier"), None)
    return data[ident.start_byte:ident.end_byte].decode("utf-8", "replace") if ident is not None else ""


def _imports(root, data) -> frozenset:
    out = set()
    for n in root.named_children:
        if n.type in ("import", "import_header", "import_list"):
            for imp in ([n] if n.type != "import_list" else n.named_children):
                txt = data[imp.start_byte:imp.end_byte].decode("utf-8", "replace")
                parts = re.findall(r"[A-Za-z_]\w*", txt.replace("import", "", 1))
                if parts and parts[-1] != "as":
                    out.add(parts[-1])
                for p in parts:
                    out.add(p)
    return frozenset(out)


_CLASSES = ("class_declaration", "object_declaration", "companion_object")
_MEMBERS = ("function_declaration", "property_declaration", "anonymous_initializer", "secondary_constructor",
            "getter", "setter")


def constructs(rel: str, data: bytes, parser=None, robot_names=frozenset(), trees=None, dead=None,
               helpers=None, moments=None) -> list:
    """The constructs of one Kotlin file (see ``Construct``); none when the file holds no rule. ``robot_names``:
    members only robots read (not rules: their declarations and what is written to them are left out)."""
    if not is_rule_file(rel):
        return []
    parser = parser or _make_parser()
    query = _locals_query(parser)
    tree = trees.get(id(data)) if trees is not None else None
    if tree is None:
        tree = parse_kotlin(parser, data)
        if trees is not None:
            trees[id(data)] = tree
    root = tree.root_node
    imports = _imports(root, data)
    out: list[Construct] = []

    def add(node, cls, member, sig, parts, end_node=None):
        def build():
            nm = _Norm(data, imports, robot_names, dead, helpers, moments)
            nm.rel = rel
            nm.declare(node, query)
            trees = []
            for p in parts:
                trees.append(nm.body(p) if p is not None and p.type in ("function_body", "block")
                             else nm.expr(p) if p is not None else None)
            return _renumber(_simplify((node.type, member and "m", tuple(trees)), nm.marks, nm.keep, nm.owner_local(),
                                       nm.helpers),
                             nm.marks)
        text = data[node.start_byte:node.end_byte]
        grants = bool(re.search(rb"\bskills\s*(\+|-)?=|\.deal\(", text))
        out.append(Construct(rel, node.start_point[0] + 1, cls, member, sig, text, grants,
                             (end_node or node).end_point[0] + 1, build))

    def walk_class(node, outer: str):
        name = _name(node, data) if node.type != "companion_object" else (_name(node, data) or "Companion")
        path = f"{outer}.{name}" if outer else name
        if node.type == "companion_object" and not _name(node, data):
            path = f"{outer}.Companion" if outer else "Companion"
        body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body")), None)
        is_enum = "enum" in data[node.start_byte:(body.start_byte if body is not None else node.end_byte)].decode(
            "utf-8", "replace").split()
        header = [c for c in node.named_children if c.type not in ("class_body", "enum_class_body", "identifier",
                                                                    "type_identifier") + _COMMENTS]
        if not is_enum and not _NOT_RULE_MEMBER.match(name) and header:      # (a bare `object`/`companion`: none)
            add(node, path, "", ("", ""), header, end_node=header[-1])
        if body is None:
            return
        for m in body.named_children:
            if m.type in _CLASSES:
                if not _robot_name(_name(m, data)):
                    walk_class(m, path)
            elif m.type in _MEMBERS:
                member(m, path)

    def member(m, path):
        nm = _name(m, data) or {"anonymous_initializer": "init", "secondary_constructor": "constructor"}.get(
            m.type, m.type)
        if _NOT_RULE_MEMBER.match(nm) or nm in robot_names or (rel == "Game.kt" and (nm in LOBBY_MEMBERS or ".Companion" in path
                                                                 or path == "Companion")):
            return
        params = next((c for c in m.named_children if c.type == "function_value_parameters"), None)
        ptxt = re.sub(r"\s+", "", data[params.start_byte:params.end_byte].decode("utf-8", "replace")) \
            if params is not None else ""
        ptypes = ",".join(re.findall(r":([^,=]+)", ptxt.strip("()")))
        if m.type == "property_declaration":       # (its name is in the variable_declaration: an identifier here is
            parts = [_constant_getter(c, data, imports) or c for c in m.named_children    # its initialiser)
                     if c.type not in ("modifiers",) + _TYPES + _COMMENTS]
        else:
            parts = [c for c in m.named_children if c.type not in ("identifier", "modifiers") + _TYPES + _COMMENTS]
        arity = len(re.findall(r":", ptxt)) if ptxt else 0
        add(m, path, nm, (f"{nm}/{arity}", f"{nm}({ptypes})") if m.type == "function_declaration" else (nm, nm),
            parts)

    for top in root.named_children:
        if top.type in _CLASSES:
            if not _robot_name(_name(top, data)):
                walk_class(top, "")
        elif top.type in _MEMBERS:
            member(top, "")
    return out


def _constant_getter(node, data: bytes, imports: frozenset):
    """The expression of a getter that returns a constant (``get() = card_type.Cheng_Qing``, ``get() { return 3 }``):
    such a property is the property initialised with it (``override val type = card_type.Cheng_Qing``); else None."""
    if node.type != "getter":
        return None
    body = next((c for c in node.named_children if c.type == "function_body"), None)
    kids = [c for c in body.named_children if c.type not in _COMMENTS] if body is not None else []
    if len(kids) == 1 and kids[0].type == "block":
        stmts = [c for c in kids[0].named_children if c.type not in _COMMENTS]
        if len(stmts) != 1 or stmts[0].type not in ("return_expression", "jump_expression"):
            return None
        kids = [c for c in stmts[0].named_children if c.type not in _COMMENTS and c.type != "label"]
    if len(kids) != 1:
        return None
    return kids[0] if _constant(kids[0], data, imports) else None


def _constant(n, data: bytes, imports: frozenset) -> bool:
    """A literal, or a qualified name of an enum, a type or a package (``card_type.Cheng_Qing``): the same value each
    time it is read."""
    text = data[n.start_byte:n.end_byte].decode("utf-8", "replace")
    if n.type in ("number_literal", "integer_literal", "long_literal", "real_literal", "hex_literal",
                  "character_literal", "boolean_literal"):
        return True
    if n.type == "string_literal":
        return "$" not in text
    if n.type == "identifier":
        return text in ("true", "false", "null") or text in imports
    if n.type == "navigation_expression":
        parts = text.replace(" ", "").split(".")
        return all(re.fullmatch(r"[A-Za-z_]\w*", x) for x in parts) and (
            parts[0][:1].isupper() or parts[0] in imports or parts[0] in _PACKAGES)
    return False


def _robot_name(name: str) -> bool:
    return name in ROBOT_CLASSES or bool(_NOT_RULE_MEMBER.match(name))


# -------------------------------------------------------------------------------------------- the changes
@dataclass
class Change:
    """One rule-bearing construct that differs between BASE and HEAD."""
    file: str            # relative to the source root (HEAD's; BASE's when removed)
    line: int            # the first line that differs (HEAD's; BASE's when removed)
    cls: str
    member: str
    change: str          # "changed" | "added" | "removed"
    side: str            # "HEAD" | "BASE": where file:line is
    grants: bool = False
    base_file: str = ""
    base_line: int = 0
    span: tuple = (0, 0)       # HEAD's first and last line of the construct
    base_span: tuple = (0, 0)  # BASE's
    text: bytes = field(default=b"", repr=False)      # the construct's source (HEAD's; BASE's when removed)
    #: what differs: "code" (the normal form), or a fact of code the normal form leaves out (``unread_facts``):
    #: "face" (which seats see a card), "auto" (what an automatic answer goes on with), "count" (when a use is
    #: counted), "seats" (the table's size)
    what: str = "code"
    facts: tuple = ()          # for a fact: (side, the statement as written) of each fact one side has more often

    def role_table(self, role_class: str) -> bool:
        """Whether the construct is the role table (it calls the role table's class, three times or more)."""
        return len(re.findall(rb"(?<![\w])" + re.escape(role_class.encode()) + rb"\s*\(", self.text)) >= 3

    @property
    def where(self) -> str:
        return f"{self.cls}.{self.member}" if self.cls and self.member else (self.cls or self.member or "")

    def to_dict(self) -> dict:
        out = {"file": self.file, "line": self.line, "class": self.cls, "method": self.member,
               "construct": self.where, "change": self.change, "side": self.side}
        if self.what != "code":
            out["what"] = self.what
            out["facts"] = [{"side": s, "code": t} for s, t in self.facts]
        return out


@dataclass
class Comparison:
    changes: list = field(default_factory=list)       # of Change
    files: int = 0                                    # rule-bearing files that differ
    headers: dict = field(default_factory=dict)       # side -> class path -> (file, first line, last line)
    robot_names: frozenset = frozenset()              # members only robots read (see ``robot_only``)
    constructs: dict = field(default_factory=dict)    # side -> every construct of the changed files
    same: int = 0                                     # changed constructs recognised as the same rule


def changed_files(base: dict, head: dict) -> list:
    """The relative paths whose bytes differ (added and removed included), sorted."""
    return sorted(p for p in set(base) | set(head) if base.get(p) != head.get(p))


def compare(base: dict, head: dict) -> Comparison:
    """``base`` and ``head``: {relative path: bytes} of the Kotlin sources of two revisions."""
    parser = _make_parser()
    files = [p for p in changed_files(base, head) if is_rule_file(p)]

    parsed: dict = {}

    def parse(data):
        if id(data) not in parsed:
            parsed[id(data)] = parse_kotlin(parser, data)
        return parsed[id(data)]

    dead_b = dead_params(base, files, parse, is_rule_file)      # parameters no rule reads (normal.dead_params)
    dead_h = dead_params(head, files, parse, is_rule_file)
    help_b = helpers(base, parse)                               # one-expression helpers, written out at each call
    help_h = helpers(head, parse)
    _same_blocks(help_b, help_h, base, head)
    help_b[("never",)] = unimplemented_types(base)              # hooks nothing implements (normal._never_found)
    help_h[("never",)] = unimplemented_types(head)
    help_b[("outside",)], help_b[("outside_members",)] = outside_names(base)   # code outside the rules
    help_h[("outside",)], help_h[("outside_members",)] = outside_names(head)
    mom_b = quiet_moments(base)                                 # states raising a moment nobody answers
    mom_h = quiet_moments(head)

    def collect(robot=frozenset()):
        bc: list[Construct] = []
        hc: list[Construct] = []
        for p in files:
            if p in base:
                bc.extend(constructs(p, base[p], parser, robot, parsed, dead_b, help_b, mom_b))
            if p in head:
                hc.extend(constructs(p, head[p], parser, robot, parsed, dead_h, help_h, mom_h))
        return bc, hc

    quiet = renamed_not_rule(base, head, files)      # no-rule members renamed: still no rule
    bc, hc = collect(quiet)
    robot = robot_only(bc, hc, base, head) | quiet
    if robot != quiet:
        bc, hc = collect(robot)
    base_all = b"\n".join(base.values())
    head_all = b"\n".join(head.values())
    cmp = Comparison(files=len(files))
    cmp.robot_names = robot
    cmp.constructs = {"BASE": bc, "HEAD": hc}
    cmp.headers = {side: {c.cls: (c.file, c.line, c.end) for c in cs if not c.member}
                   for side, cs in (("BASE", bc), ("HEAD", hc))}
    bmap = _by_key(bc)
    hmap = _by_key(hc)
    gone = [b for k, b in bmap.items() if k not in hmap]
    new = [h for k, h in hmap.items() if k not in bmap]
    renamed = {(a, b) for x in gone for y in new
               for a, b in ((x.member, y.member), (x.cls.rsplit(".", 1)[-1], y.cls.rsplit(".", 1)[-1])) if a and b}
    removed = []
    for k, b in bmap.items():
        h = hmap.get(k)
        if h is None:
            removed.append(b)
            continue
        if b.text == h.text or b.tree == h.tree:
            continue
        if _each_written(b, bc) == _each_written(h, hc):
            cmp.same += 1                               # an overload called on each element, written out
            continue
        if _renamed_only(b, h, base_all, head_all, renamed):
            cmp.same += 1
            continue
        if _uncalled(b, base_all) and _uncalled(h, head_all):
            continue                                    # dead code on both sides: nothing calls it
        cmp.changes.append(Change(h.file, _first_diff(b.tree, h.tree, h.marks, h.line), h.cls, h.member, "changed",
                                  "HEAD", b.grants or h.grants, b.file, _first_diff(h.tree, b.tree, b.marks, b.line),
                                  (h.line, h.end), (b.line, b.end), h.text))
    added = new
    # moved or renamed constructs: the same tree elsewhere
    pool: dict[str, list] = {}
    for b in removed:
        pool.setdefault(b.digest, []).append(b)
    rest_added = []
    for h in added:
        lst = pool.get(h.digest)
        if lst:
            lst.pop()
            cmp.same += 1
        else:
            rest_added.append(h)
    rest_removed = [b for lst in pool.values() for b in lst]
    still_added = []
    for h in rest_added:
        fits = [b for b in rest_removed if _renamed_only(b, h, base_all, head_all, renamed)]
        match = max(fits, key=lambda b: (b.member == h.member, difflib.SequenceMatcher(
            None, f"{b.file}:{b.where}", f"{h.file}:{h.where}").ratio())) if fits else None
        if match is not None:
            rest_removed.remove(match)
            cmp.same += 1
        else:
            still_added.append(h)
    for h in still_added:
        if _empty(h) or _empty_class(h, hc) or inlined_constant(h.text) or h.cls.split(".")[0] in mom_h or \
                _written_out(h, help_h) or _uncalled(h, head_all):
            continue
        cmp.changes.append(Change(h.file, h.line, h.cls, h.member, "added", "HEAD", h.grants, span=(h.line, h.end),
                                  text=h.text))
    for b in rest_removed:
        if _empty(b) or _empty_class(b, bc) or inlined_constant(b.text) or b.cls.split(".")[0] in mom_b or \
                _written_out(b, help_b) or _uncalled(b, base_all):
            continue
        cmp.changes.append(Change(b.file, b.line, b.cls, b.member, "removed", "BASE", b.grants, b.file, b.line,
                                  base_span=(b.line, b.end), text=b.text))
    cmp.changes.extend(_fact_changes(base, head, parser, parsed, files))
    cmp.changes.sort(key=lambda c: (c.file, c.line, c.where, c.change, c.what))
    return cmp


_ELEMENTS = re.compile(r"(?:List|MutableList|ArrayList|Collection|Iterable|Set|MutableSet)<(\w+)>\Z")


def _each_written(c: Construct, side: list):
    """``c``'s normal form with ``xs.forEach { f(it) }`` written out, where ``xs`` is a parameter declared as a list of
    ``T`` and ``f`` is an overload of the same class taking one ``T`` whose body is one statement (the overload an
    element's type chooses); and ``xs.forEach { r.add(it) }`` as ``r.addAll(xs)``. ``c.tree`` when nothing applies."""
    m = re.fullmatch(r"\w+\((.*)\)", c.sig[1]) if len(c.sig) > 1 else None
    tree = c.tree
    if not m or not c.member or not (isinstance(tree, tuple) and tree[:1] == ("function_declaration",)):
        return tree
    types = [t.strip() for t in m.group(1).split(",")] if m.group(1) else []
    params = next((p for p in tree[2] if isinstance(p, tuple) and p[:1] == ("function_value_parameters",)), ())
    locs = [p[1] for p in params[1:] if isinstance(p, tuple) and p[:1] == ("parameter",)]
    if len(locs) != len(types):
        return tree
    elem = {loc: _ELEMENTS.match(t).group(1) for loc, t in zip(locs, types) if _ELEMENTS.match(t)}

    def overload(name, t):
        for o in side:
            if o.file == c.file and o.cls == c.cls and o.member == name and len(o.sig) > 1 and o.sig[1] == f"{name}({t})":
                body = next((p for p in o.tree[2] if isinstance(p, tuple) and p[:1] == ("seq",)), None)
                if body is not None and len(body) == 2:
                    return body[1]
        return None

    def walk(x):
        if not isinstance(x, tuple):
            return x
        x = tuple(walk(y) for y in x)
        if len(x) == 4 and x[0] == "call" and isinstance(x[1], tuple) and len(x[1]) == 4 and \
                x[1][:2] == ("nav", ".") and x[1][3] == "forEach" and x[1][2] in elem and len(x[2]) == 1 and \
                isinstance(x[2][0], tuple) and x[2][0][:1] == ("lambda",) and len(x[2][0][1]) == 2:
            st = x[2][0][1][1]
            if isinstance(st, tuple) and len(st) == 4 and st[0] == "call" and isinstance(st[1], tuple) and \
                    st[1][:1] == ("id",) and len(st[2]) == 1 and st[2][0][:1] == ("v",):
                body = overload(st[1][1], elem[x[1][2]])
                if body is not None:
                    st = _swap(body, ("v", "v0"), st[2][0])
            if isinstance(st, tuple) and len(st) == 4 and st[0] == "call" and isinstance(st[1], tuple) and \
                    len(st[1]) == 4 and st[1][:2] == ("nav", ".") and st[1][3] == "add" and len(st[2]) == 1 and \
                    st[2][0][:1] == ("v",) and st[2][0] != x[1][2] and repr(st[2][0]) not in repr(st[1][2]):
                return ("call", ("nav", ".", st[1][2], "addAll"), (x[1][2],), st[3])
            return x[:2] + (((x[2][0][0], ("seq", st)),),) + x[3:]
        return x

    return walk(tree)


def _swap(x, old, new):
    if x == old:
        return new
    return tuple(_swap(y, old, new) for y in x) if isinstance(x, tuple) else x


def _same_blocks(help_b: dict, help_h: dict, base: dict, head: dict):
    """A block helper (``normal._block_helper``) written out on one side only where the other side declares a function
    of that name in that file too (one it cannot write out: a ``this@`` in a client message, a second return): written
    out on neither side — else a change the normal form drops (the client message) would show at every call."""
    for mine, other, src in ((help_b, help_h, head), (help_h, help_b, base)):
        for k in [k for k in mine if k[:1] in (("block",), ("value",)) and len(k) == 4]:
            kind, name, arity, rel = k
            if (kind, name, arity, rel) in other:
                continue
            data = src.get(rel) or b""
            if re.search(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?" + re.escape(name.encode()) + rb"\s*\(", data):
                del mine[k]


#: functions the language or the libraries call by their name (operators, delegates, the entry point, overrides of
#: the JVM's own members): never dead for want of a call in the code base
_CALLED_BY_NAME = frozenset({"main", "invoke", "get", "set", "getValue", "setValue", "provideDelegate", "iterator",
                             "next", "hasNext", "compareTo", "equals", "hashCode", "toString", "contains", "plus",
                             "minus", "times", "div", "rem", "unaryMinus", "not", "inc", "dec", "run", "close",
                             "call", "apply", "accept", "test", "handle", "channelRead0", "channelActive",
                             "channelInactive", "exceptionCaught", "userEventTriggered", "initChannel"})


def _uncalled(c: Construct, everything: bytes) -> bool:
    """Whether a function nothing in the code base calls or names: its name occurs once in all the sources (its own
    declaration) — no call, no reference (``::f``), no override or overridden declaration, no operator and no name the
    language or a library calls (``_CALLED_BY_NAME``). Its code is no rule (a helper left from older code)."""
    name, _, arity = c.sig[0].rpartition("/")
    if not c.member or not arity.isdigit() or name in _CALLED_BY_NAME or name.startswith("component"):
        return False
    head = c.text[:c.text.find(b"(")] if b"(" in c.text else c.text
    if not re.match(rb"(?:(?:private|internal|public|protected|final|suspend|inline|tailrec)\s+)*fun\b", head.lstrip()) \
            or re.search(rb"\b(?:override|operator|open|abstract|infix|external)\b", head):
        return False
    return len(re.findall(rb"(?<![\w$])" + re.escape(name.encode("utf-8")) + rb"(?![\w$])", everything)) == 1


def renamed_not_rule(base: dict, head: dict, files) -> frozenset:
    """The members BASE leaves out as no rule by their name (``_NOT_RULE_MEMBER``: ``mainPhaseAlreadyNotify``, a flag
    of the client's notices) renamed throughout the code base in HEAD: the new names. The old name is declared in a
    changed file of BASE and occurs nowhere in HEAD; the new one is declared in the same file of HEAD, occurs nowhere in
    BASE, and its declaration's line is the old one's with the name replaced. A rename keeps what the member is."""
    out = set()
    for rel in files:
        b, h = base.get(rel), head.get(rel)
        if not b or not h:
            continue
        olds = [m.group(1) for m in re.finditer(rb"\b(?:val|var|fun)\s+(\w+)", b)
                if _NOT_RULE_MEMBER.match(m.group(1).decode("utf-8", "replace"))]
        olds = [o for o in olds if not re.search(rb"(?<![\w$])" + re.escape(o) + rb"(?![\w$])", h)]
        if not olds:
            continue
        blines = set(b.split(b"\n"))
        for m in re.finditer(rb"\b(?:val|var|fun)\s+(\w+)", h):
            new = m.group(1)
            if re.search(rb"(?<![\w$])" + re.escape(new) + rb"(?![\w$])", b):
                continue
            line = h[h.rfind(b"\n", 0, m.start()) + 1:h.find(b"\n", m.end()) if h.find(b"\n", m.end()) >= 0 else len(h)]
            for o in olds:
                if re.sub(rb"(?<![\w$])" + re.escape(new) + rb"(?![\w$])", o, line) in blines and not any(
                        re.search(rb"(?<![\w$])" + re.escape(new) + rb"(?![\w$])", d) for d in base.values()):
                    out.add(new.decode("utf-8", "replace"))
    return frozenset(out)


def _written_out(c: Construct, helpers: dict) -> bool:
    """A one-expression helper the normal form writes out at each call (``normal.helpers``): its callers are compared
    with it written out, so adding or removing it alone changes nothing."""
    name, _, arity = c.sig[0].rpartition("/")
    return bool(c.member) and arity.isdigit() and is_helper(c.text, name, int(arity), helpers, c.file)


def same_rule_code(name: str, base_ex, head_ex, cmp: Comparison) -> bool:
    """Whether an engine rule read differently in the two revisions is the same rule: its value is read from one
    function alone (``EngineRule.one``: the win checks' clauses), with the same ``reads`` on both sides, and that
    function's normal form did not change — a local renamed, independent stores swapped, a helper written out read
    as the code's own words differ, not as what the code does. Its file must be a rule file (compared here)."""
    b, h = base_ex.engine.get(name), head_ex.engine.get(name)
    if b is None or h is None or b.value is None or h.value is None or b.key or h.key:
        return False
    if not (b.one and h.one) or b.reads != h.reads:
        return False
    found = {}
    for side, r in (("BASE", b), ("HEAD", h)):
        file, line = _at(r.where)
        if not file or not is_rule_file(file):
            return False
        cs = [c for c in cmp.constructs.get(side, []) if c.member and c.file == file and c.line <= line <= c.end]
        if not cs and any(c.file == file for c in cmp.constructs.get(side, [])):
            ex = base_ex if side == "BASE" else head_ex
            lines = ((getattr(ex, "sources", None) or {}).get(file) or b"").split(b"\n")
            m = _FUN.search(lines[line - 1]) if 0 < line <= len(lines) else None
            if m and m.group(1).decode() in (getattr(cmp, "robot_names", None) or ()):
                found[side] = (file, "robot:" + m.group(1).decode())    # what changed in it is the robot's alone
                continue
            return False                                # a changed file, but no construct holds the rule
        found[side] = (file, cs[-1].where if cs else None)
    (bf, bw), (hf, hw) = found["BASE"], found["HEAD"]
    if bw != hw:
        return False
    if bw is None:                                      # the file did not change on either side
        return bf == hf and bf not in changed_files(base_ex.sources, head_ex.sources)
    return not any(c.what == "code" and c.where == hw and (c.file == hf or c.base_file == bf) for c in cmp.changes)


_OUTSIDE_DECL = re.compile(rb"^[ \t]*(?:(?:private|internal|public|data|enum|sealed|abstract|open)\s+)*"
                           rb"(?:object|class|interface)\s+([A-Za-z_]\w*)", re.M)
_IMPORTED_MEMBER = re.compile(rb"^import\s+[\w.]*?\b([A-Z]\w*)\.([a-z]\w*)\s*$", re.M)


def outside_names(files: dict) -> tuple:
    """Code outside the rules that rule code calls: ``(names, members)`` — the objects and classes declared only in
    files that hold no rule and read none (statistics, the chat-bot pusher, the ladder's score), and the
    ``(object, member)`` pairs rule files import from such an object (``import ….ScoreFactory.calScore``). A call of
    them that hands them no code to run changes nothing a rule reads: its statement is no rule, its value decides
    nothing unless a rule reads it (``normal._dead_locals``)."""
    outside, inside = set(), set()
    for rel, data in files.items():
        base = rel.rsplit("/", 1)[-1]
        names = {m.group(1).decode() for m in _OUTSIDE_DECL.finditer(data)}
        if is_rule_file(rel) or base in RULE_READERS:
            inside |= names
        else:
            outside |= names
    outside -= inside
    members = set()
    for rel, data in files.items():
        if is_rule_file(rel):
            members |= {(m.group(1).decode(), m.group(2).decode()) for m in _IMPORTED_MEMBER.finditer(data)
                        if m.group(1).decode() in outside}
    return frozenset(outside), frozenset(members)


def is_lobby_file(rel: str) -> bool:
    """A file of the lobby that can hold the table's set-up limits (its room and seat handlers; the game's own
    file, whose room members run the lobby)."""
    base = rel.rsplit("/", 1)[-1]
    return (rel.startswith("handler/") and base[:-3].replace("_", "").lower() in LOBBY_HANDLERS) or rel == "Game.kt"


def _fact_changes(base: dict, head: dict, parser, parsed: dict, rule_files: list) -> list:
    """Changes of what the normal form leaves out but a rule reads (``unread_facts``): one per construct and kind of
    fact, at the first fact that differs."""
    from .unread_facts import compare_facts, file_facts
    lobby = [p for p in changed_files(base, head) if is_lobby_file(p)]
    sides = {}
    for side, src in (("BASE", base), ("HEAD", head)):
        facts = []
        for p in sorted(set(rule_files) | set(lobby)):
            if p in src:
                kinds = (("face", "auto", "count") if p in rule_files else ()) + (("seats",) if p in lobby else ())
                facts.extend(f for f in file_facts(p, src[p], parser, parsed, kinds)
                             if f.kind != "seats" or p != "Game.kt" or f.member in LOBBY_MEMBERS
                             or "Companion" in f.cls.split("."))       # (the game's room members only)
        sides[side] = facts
    groups: dict = {}
    for side, f in compare_facts(sides["BASE"], sides["HEAD"]):
        groups.setdefault((f.kind, f.where), []).append((side, f))
    out = []
    for (kind, where), items in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        heads = [f for s, f in items if s == "HEAD"]
        bases = [f for s, f in items if s == "BASE"]
        present = {s: _has_member(sides[s], where) for s in ("BASE", "HEAD")}
        first = (heads or bases)[0]
        side = "HEAD" if heads else "BASE"
        change = "changed" if present["BASE"] and present["HEAD"] else ("added" if side == "HEAD" else "removed")
        b0 = bases[0] if bases else None
        out.append(Change(first.file, first.line, first.cls, first.member, change, side, False,
                          b0.file if b0 else "", b0.line if b0 else 0, what=kind,
                          facts=tuple((s, f.text) for s, f in items)))
    return out


def _has_member(facts: list, where: str) -> bool:
    return any(f.where == where for f in facts)


_FUN = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")
#: the start of a line (up to a name read on it) that fills a client message (``builder.addX(…)``, ``builder.x = …``)
#: or writes a log line
_CLIENT_LINE = re.compile(rb"\s*(?:\w*[bB]uilder\w*\s*\.\s*\w+\s*(?:\(|=(?!=))|(?:log|logger|LOG|Log)\s*\.\s*\w+\s*\()")


def robot_only(bc: list, hc: list, base: dict, head: dict) -> frozenset:
    """Members (not overrides) of the changed constructs that no rule reads: every read of them, in either
    revision, stands in a file that holds no rule, in a robot helper (``ai…``) or on a line filling a client message
    or a log line, or there is none (what only robots read is a robot decision, what only clients are told decides
    nothing in play, what nobody reads decides nothing)."""
    names = {c.member for c in bc + hc if c.member and not re.match(rb"\s*(@\w+\s*)*(\w+\s+)*override\b", c.text)
             and c.member not in READ_MEMBERS and re.match(r"[A-Za-z_]\w*\Z", c.member)}
    names |= written_members(bc, hc) - READ_MEMBERS
    out = set(constant_members(names, base, head))
    memo: dict = {}

    def only_robots(name: str, depth: int) -> bool:
        if name in memo:
            return memo[name]
        memo[name] = False                                           # (a member read through itself: a rule)
        memo[name] = _only_robots_read(name, depth)
        return memo[name]

    def _only_robots_read(name: str, depth: int) -> bool:
        pat = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"(?![\w])")
        ok = True
        reads = [0]
        for side in (base, head):
            for rel, data in side.items():
                if name.encode() not in data:
                    continue
                rule_file = is_rule_file(rel) or rel in RULE_READERS
                funs = None
                for m in pat.finditer(data):
                    before = data[max(0, m.start() - 12):m.start()]
                    after = data[m.end():m.end() + 4]
                    if re.search(rb"\b(val|var|fun)\s+(\w+\.)?\Z", before):
                        continue                                      # its declaration
                    if re.match(rb"\s*(\+\+|--|[-+*/]?=(?!=))", after):
                        continue                                      # a write
                    if not rule_file:
                        continue
                    if funs is None:
                        funs = [(f.start(), f.group(1).decode()) for f in _FUN.finditer(data)]
                    start = next((pos for pos, n in reversed(funs) if pos < m.start()), 0)
                    enclosing = next((n for pos, n in reversed(funs) if pos < m.start()), "")
                    if enclosing and _NOT_RULE_MEMBER.match(enclosing):
                        continue
                    if _robot_block(data, start, m.start()):
                        continue                                      # read in a robot's branch or a client message
                    line = data[data.rfind(b"\n", 0, m.start()) + 1:m.start()]
                    if _CLIENT_LINE.match(line):
                        continue                                      # read only to fill a client message or a log
                    reads[0] += 1
                    holder = _MEMBER_DECL.findall(data, 0, m.start())
                    holder = holder[-1] if holder else (b"override", b"")
                    if depth < 2 and b"override" not in holder[0] and holder[1].decode() != name and \
                            holder[1].decode() not in READ_MEMBERS and only_robots(holder[1].decode(), depth + 1):
                        continue                                      # read by a member only robots read
                    ok = False
                    break
                if not ok:
                    break
            if not ok:
                break
        return ok and (depth == 0 or reads[0] > 0 or _robot_reads(name, base, head))

    for name in sorted(names):
        if only_robots(name, 0):
            out.add(name)
    return frozenset(out)


#: a class member's declaration (four spaces in at most: not a local of a function body), its name
_MEMBER_DECL = re.compile(rb"(?m)^ {0,4}((?:(?:private|internal|protected|public|override|open)\s+)*)(?:val|var|fun)\s+"
                          rb"(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")


def _robot_reads(name: str, base: dict, head: dict) -> bool:
    """Whether ``name`` is read anywhere (outside its declaration) at all: a member only robots read has readers."""
    pat = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"(?![\w])")
    for side in (base, head):
        for data in side.values():
            for m in pat.finditer(data):
                if not re.search(rb"\b(val|var|fun)\s+(\w+\.)?\Z", data[max(0, m.start() - 12):m.start()]):
                    return True
    return False


_STORE = re.compile(rb"\.\s*([A-Za-z_]\w*)\s*(?:[-+*/]?=(?!=)|\+\+|--)")
_LINE_COMMENT = re.compile(rb"//[^\n]*")


def written_members(bc: list, hc: list) -> set:
    """The members (``x.name = …``, ``x.name++``) the constructs that differ between the two sides store into."""
    texts = {}
    for c in bc:
        texts.setdefault((c.file, c.where), set()).add(c.text)
    out = set()
    for side, other in ((hc, bc), (bc, hc)):
        seen = {(c.file, c.where, c.text) for c in other}
        for c in side:
            if (c.file, c.where, c.text) not in seen:
                out.update(m.group(1).decode() for m in _STORE.finditer(_LINE_COMMENT.sub(b"", c.text)))
    return out


_LITERAL = rb"(?:true|false|null|-?\d+L?)"


def constant_members(names, base: dict, head: dict) -> set:
    """Of ``names``, the properties each revision declares once (``var dieJustNow = false``) and only ever sets to
    the value they start with, the same in both: a store into one changes nothing (reads of it stay, and read that
    one value)."""
    out = set()
    for name in sorted(names):
        nb = re.escape(name.encode())
        decl = re.compile(rb"\bvar\s+" + nb + rb"\s*(?::\s*[\w?]+\s*)?=\s*(" + _LITERAL + rb")[ \t]*(?=\n|;|//)")
        store = re.compile(rb"(?<![\w])" + nb + rb"\s*([-+*/]?=(?!=)|\+\+|--)[ \t]*([^\n;}),]*)")
        other = re.compile(rb"\b(?:val|var|fun)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?" + nb + rb"(?![\w])|::\s*" + nb +
                           rb"(?![\w])")
        values = set()
        ok = True
        for side in (base, head):
            datas = [d for d in side.values() if name.encode() in d]
            decls = [m.group(1) for d in datas for m in decl.finditer(d)]
            if len(decls) != 1 or sum(len(other.findall(d)) for d in datas) != 1:
                ok = False                              # declared twice, otherwise (a local, a function) or not here
                break
            values.add(decls[0])
            for d in datas:
                for m in store.finditer(d):
                    if re.search(rb"\bvar\s+\Z", d[max(0, m.start() - 8):m.start()]):
                        continue                        # its declaration
                    if m.group(1) != b"=" or m.group(2).strip() != decls[0]:
                        ok = False
                        break
                if not ok:
                    break
            if not ok:
                break
        if ok and len(values) == 1:
            out.add(name)
    return out


#: what opens a block whose code is no rule: a robot's branch (``if (r is RobotPlayer) {``), a client message built
#: with the protocol's DSL (``skillBoAiBTos {``)
_ROBOT_OPEN = re.compile(rb"(?:\bif\s*\(\s*[\w.!]+\s+is\s+RobotPlayer\s*\)|\b[a-z]\w*(?:Toc|Tos)|\b\w+_(?:toc|tos))\s*\Z")


_HUMAN_TEST = re.compile(rb"\bif\s*\(\s*[\w.!]+\s+is\s+HumanPlayer\s*\)\s*\Z")


def _open_of(data: bytes, start: int, close: int) -> int:
    """The position of the ``{`` the ``}`` at ``close`` closes (-1 when not found after ``start``)."""
    depth = 0
    for i in range(close - 1, start - 1, -1):
        if data[i] == 0x7D:
            depth += 1
        elif data[i] == 0x7B:
            if not depth:
                return i
            depth -= 1
    return -1


#: a call whose arguments are a client message or a log line (``sendErrorMessage(…)``, ``logger.info(…)``)
_CLIENT_CALL = re.compile(rb"(?:\b|\.)(?:send|sendErrorMessage|\w*[nN]otify\w*|(?:log|logger|LOG|Log)\s*\.\s*\w+)\s*\Z")


def _robot_block(data: bytes, start: int, pos: int) -> bool:
    """Whether the code at ``pos`` (in the function starting at ``start``) stands inside a block that is no rule
    (``_ROBOT_OPEN``, or the ``else`` of ``if (p is HumanPlayer) { … }``: a robot's) or in the arguments of a client
    message or a log line (``_CLIENT_CALL``): what encloses it is found by its braces and parentheses."""
    depth = 0
    paren = 0
    for i in range(pos - 1, start - 1, -1):
        ch = data[i]
        if ch == 0x29:                                  # )
            paren += 1
        elif ch == 0x28:                                # (
            if paren:
                paren -= 1
            elif not depth and _CLIENT_CALL.search(data[max(start, i - 120):i].rstrip()):
                return True
        elif ch == 0x7D:                                # }
            depth += 1
        elif ch == 0x7B:                                # {
            if depth:
                depth -= 1
                continue
            before = data[max(start, i - 120):i].rstrip()
            if _ROBOT_OPEN.search(before):
                return True
            if before.endswith(b"else"):
                close = before[:-4].rstrip()
                if close.endswith(b"}"):
                    at = max(start, i - 120) + len(close) - 1
                    o = _open_of(data, start, at)
                    if o > start and _HUMAN_TEST.search(data[max(start, o - 120):o].rstrip()):
                        return True
    return False


def _empty(c: Construct) -> bool:
    """A method whose normal form does nothing (it only logged or answered the client) or only forwards the client's
    message to the state the game waits in: adding or removing it changes no rule the gate can tell."""
    body = c.tree[2][-1] if c.member and c.tree[2] else None
    return isinstance(body, tuple) and body[:1] == ("seq",) and all(
        isinstance(x, tuple) and x[:1] == ("forward",) for x in body[1:])     # (a handler that only forwards)


def _empty_class(c: Construct, side: list) -> bool:
    """A class header whose members all do nothing (a handler that only forwards the client's message)."""
    if c.member:
        return False
    members = [x for x in side if x.member and (x.cls == c.cls or x.cls.startswith(c.cls + "."))]
    return bool(members) and all(_empty(x) for x in members)


def _by_key(cs: list) -> dict:
    out: dict = {}
    twice = set()
    seen = set()
    for c in cs:
        (twice if c.key in seen else seen).add(c.key)
    for c in cs:
        k = c.key if c.key not in twice else (c.cls, c.sig[1])   # overloads: by their parameter types
        if k in out:                                     # the same class path in two files: keep them apart
            k = (c.file,) + k
        out[k] = c
    return out


def _renamed_only(b: Construct, h: Construct, base_all: bytes, head_all: bytes, renamed=frozenset()) -> bool:
    """Whether the two trees differ only by names renamed throughout: each name of BASE replaced (always by the
    same name) by one that HEAD no longer holds and that is new in HEAD — or that names a declaration renamed in
    the same commit (``renamed``: (old, new) pairs of the members and classes that disappeared and appeared)."""
    pairs: dict = {}
    members: set = set()
    if not _same_shape(b.tree, h.tree, pairs, members):
        return False
    if not pairs:
        return True
    if len(set(pairs.values())) != len(pairs):
        return False
    for old, new in pairs.items():
        old_s = re.sub(r"<.*", "", old).rstrip("?")
        new_s = re.sub(r"<.*", "", new).rstrip("?")
        if (old_s, new_s) in renamed:
            continue
        if old in members and not (_declares(base_all, old_s) and _declares(head_all, new_s)):
            return False        # a member of a library (`removeLastOrNull` → `removeFirstOrNull`): not a rename
        if _has_word(head_all, old_s):
            return False
        if _has_word(base_all, new_s) and (old_s, new_s) not in renamed:
            return False
    return True


_DECLARES: dict = {}


def _declares(data: bytes, name: str) -> bool:
    """Whether the Kotlin sources ``data`` declare a function or property ``name`` (a member the code base can
    rename; a library's members are declared elsewhere)."""
    key = (id(data), len(data), data[:256], data[-256:], name)
    if key not in _DECLARES:
        if len(_DECLARES) > 4096:
            _DECLARES.clear()
        _DECLARES[key] = re.search(rb"\b(?:fun|val|var|class|object|interface)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?" + re.escape(name.encode("utf-8"))
                                   + rb"(?![\w])", data) is not None
    return _DECLARES[key]


def _has_word(data: bytes, word: str) -> bool:
    return re.search(rb"(?<![\w])" + re.escape(word.encode("utf-8")) + rb"(?![\w])", data) is not None


def _same_shape(a, b, pairs: dict, members: set | None = None) -> bool:
    """Whether ``a`` and ``b`` differ only by names (each pair in ``pairs``; the member names of ``a.x`` in
    ``members``)."""
    members = set() if members is None else members
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) == 2 and len(b) == 2 and a[0] == b[0] == "type" and a[1] != b[1]:
            ta, tb = re.split(r"(\w+)", a[1]), re.split(r"(\w+)", b[1])
            if len(ta) != len(tb) or ta[0::2] != tb[0::2]:
                return False
            return all(pairs.setdefault(x, y) == y for x, y in zip(ta[1::2], tb[1::2]) if x != y)
        if len(a) == 2 and len(b) == 2 and a[0] == b[0] and a[0] in ("id", "type"):
            if a[1] == b[1]:
                return True
            if pairs.setdefault(a[1], b[1]) != b[1]:
                return False
            return True
        if len(a) != len(b):
            return False
        if len(a) == 4 and a[0] == "call" == b[0] and isinstance(a[1], tuple) and isinstance(b[1], tuple) and \
                a[1][:1] == ("id",) == b[1][:1] and len(a[1]) == 2 == len(b[1]) and a[1][1] != b[1][1]:
            members.add(a[1][1])                        # a function called by its name: the code base's own, or a
            #                                             library's (`minOf` → `maxOf`: no rename)
        if len(a) == 4 and a[0] == "nav" == b[0] and a[1] == b[1] and a[3] != b[3]:
            if pairs.setdefault(a[3], b[3]) != b[3]:      # a member's name
                return False
            members.add(a[3])
            return _same_shape(a[2], b[2], pairs, members)
        return all(_same_shape(x, y, pairs, members) for x, y in zip(a, b))
    return a == b


def _first_diff(a, b, marks: dict, default: int) -> int:
    """The line, in ``b``'s source, of the first statement where ``b``'s tree departs from ``a``'s (``default``
    when it cannot be told)."""
    line = default
    while True:
        line = marks.get(id(b), line)
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or a == b:
            return line
        i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), None)
        if i is None:                                   # one is a prefix of the other
            if len(b) > len(a) and isinstance(b[len(a)], tuple):
                return marks.get(id(b[len(a)]), line)
            return line
        a, b = a[i], b[i]


# ----------------------------------------------------------------------------------------- from the gate
def read_tree(root) -> dict:
    """{relative path: bytes} of every Kotlin file under ``root``."""
    from pathlib import Path
    root = Path(root)
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.kt")) if p.is_file()}


# ------------------------------------------------------------------------------------- what the gate read
#: members the extractor translates into the catalogue (the rule methods of the design note, the skill's name
#: and initial flag, a card's type): a change there that leaves the catalogue alone has the same meaning
READ_MEMBERS = frozenset({"canUse", "mustReceive", "cannotReceive", "checkDir", "checkCanLock", "checkSendCard",
                          "changeDrawCardCount", "skillId", "isInitialSkill", "type", "getSkillId"})


def _at(where: str) -> tuple:
    file, _, line = (where or "").rpartition(":")
    return (file, int(line)) if line.isdigit() else ("", 0)


def unread(cmp: Comparison, base_ex, head_ex, changed_ids, wheres=(), understood=(), rule_keys=()) -> list:
    """The changes of ``cmp`` the extraction did not turn into a catalogue difference, in order.

    ``changed_ids``: the catalogue ids (rules, cards, characters, gives sites ``giver#i``) that differ or that a
    changed decision names; ``wheres``: "file:line" (relative to the source root, HEAD's) of the engine rules that
    changed and of the code that became readable — the construct holding one is read. A change is *read* when it
    stands in a construct the extractor translates whole (a rule method of ``READ_MEMBERS`` with nothing undecided in
    it, the role table) or in a class a catalogue difference names — its header, a read member, a member that hands
    out skills, or the whole class when it is added or removed."""
    ids = {i.split("#")[0] for i in changed_ids}
    classes: dict[str, set] = {"HEAD": set(), "BASE": set()}
    spans = {"HEAD": _class_spans(cmp, "HEAD"), "BASE": _class_spans(cmp, "BASE")}
    for side, ex in (("HEAD", head_ex), ("BASE", base_ex)):
        for rid in ids:
            file, line = _at(ex.locations.get(rid, ""))
            if file:
                for cls, (f, a, b) in spans[side].items():
                    if f == file and a <= line <= b:
                        classes[side].add(cls)
    hot = [_at(w) for w in wheres]
    # what the extractor reads: the class of every rule and card (its header: kinds, conversions, parameters). An
    # engine rule read the same in both revisions vouches for nothing: it reads a part of its function, and a change
    # beside that part (a veto removed from the conversion loop, the seat the listeners are asked from) is named
    # unread rather than passed (a rule read the same once vouched for its whole construct: three planted changes of
    # the held-out planted4 passed silently)
    headers = {(side, _at(w)) for side, ex in (("HEAD", head_ex), ("BASE", base_ex)) for w in ex.locations.values()}
    # the rule methods are translated for skills (a card's `canUse` gives only its windows)
    skills = {rid for ex in (base_ex, head_ex) for rid in (getattr(getattr(ex, "catalogue", None), "skills", None) or {})}
    undecided = [(_at(i.where), ex is head_ex) for ex in (base_ex, head_ex) for i in ex.report if i.undecided]
    role = (getattr(head_ex, "role_class", "") or getattr(base_ex, "role_class", ""))
    whole = {c.cls for c in cmp.changes if not c.member and c.change in ("added", "removed")}
    key_lines = _key_lines(base_ex, head_ex, rule_keys)
    out = []
    for c in cmp.changes:
        if c.what != "code":                            # a fact no reader reads: named unless its whole class is a
            if not any(c.cls == k or c.cls.startswith(k + ".") for k in whole & (classes["HEAD"] | classes["BASE"])):
                out.append(c)                           # rule added or removed with its catalogue entry
            continue
        if _read_by_effects(c, base_ex, head_ex, key_lines):
            continue
        if any(f == c.file and c.span[0] <= ln <= c.span[1] for f, ln in hot):
            continue
        if c.member in READ_MEMBERS and c.cls.rsplit(".", 1)[-1] in skills and not any(
                f and ln and ((head and f == c.file and c.span[0] <= ln <= c.span[1]) or
                              (not head and f == c.base_file and c.base_span[0] <= ln <= c.base_span[1]))
                for (f, ln), head in undecided):
            continue
        if role and c.role_table(role):
            continue
        if c.member in READ_MEMBERS and c.cls.rsplit(".", 1)[-1] in understood and c.cls.rsplit(".", 1)[-1] in skills:
            continue
        if not c.member and (("HEAD", (c.file, c.span[0])) in headers or
                             ("BASE", (c.base_file or c.file, c.base_span[0])) in headers):
            continue
        if not c.member and re.match(rb"\s*(\w+\s+)*interface\s+\w+\s*(:\s*[\w<>,. ]+)?(\{\s*\})?\s*\Z", c.text):
            continue                                    # a marker: what it means is who implements it (read)
        if not c.member and c.cls.rsplit(".", 1)[-1] in KIND_NAMES:
            continue                                    # a kind of skill: read through the hierarchy
        named = any(c.cls == k or c.cls.startswith(k + ".") for k in classes["HEAD"] | classes["BASE"])
        if named and (not c.member or c.member in READ_MEMBERS or c.grants or
                      any(c.cls == k or c.cls.startswith(k + ".") for k in whole)):
            continue
        out.append(c)
    return out


def _key_lines(base_ex, head_ex, rule_keys) -> dict:
    """side -> [(file, line)] the changed keys of ``rule_keys`` were read from."""
    out = {"HEAD": [], "BASE": []}
    for side, ex in (("HEAD", head_ex), ("BASE", base_ex)):
        lines = getattr(ex, "key_lines", None) or {}
        for rid, key in rule_keys:
            for path, where in (lines.get(rid) or {}).items():
                if path and path[0] == key:
                    out[side].append(_at(where))
    return out


def _read_by_effects(c, base_ex, head_ex, key_lines) -> bool:
    """Whether the effect reader read this change: the construct walked and read whole on each side it stands on, or
    holding a line a changed key was read from."""
    hr = getattr(head_ex, "reads", None) or {}
    br = getattr(base_ex, "reads", None) or {}
    hk = (c.file, c.cls, c.member)
    bk = (c.base_file or c.file, c.cls, c.member)
    if c.member:
        sides = []
        if c.change in ("changed", "added"):
            sides.append(hr.get(hk))
        if c.change in ("changed", "removed"):
            sides.append(br.get(bk))
        if sides and all(v is True for v in sides):
            return True
    if any(f == c.file and c.span[0] <= ln <= c.span[1] for f, ln in key_lines["HEAD"]) and c.change != "removed":
        return True
    if any(f == (c.base_file or c.file) and c.base_span[0] <= ln <= c.base_span[1] for f, ln in key_lines["BASE"]) \
            and c.change != "added":
        return True
    return False


def _class_spans(cmp: Comparison, side: str) -> dict:
    """class path -> (file, first line, last line) of the classes whose header is a construct of ``side``."""
    return cmp.headers.get(side, {})
