"""Load and validate catalogue files.

Every problem in every file is collected — each with its file, line and key and, where a name is
misspelt, the nearest valid one — and raised together as ``CatalogueErrors``. No input makes the loader
raise anything else.
"""
from __future__ import annotations

import functools
import os
import re
from importlib import resources
from pathlib import Path

from . import expr as E
from . import kinds as K
from . import turn as T
from . import limits as L
from . import tomlsafe
from . import vocab as V
from .catalogue import Card, Catalogue, Character, DeckPrint, Give, Intends, Intent, Loc, Rule, Rules
from .locate import line_of, locate
from .link import EFFECT_KEYS, Linker, _dym, _one_of, _q, _tname  # noqa: F401  (EFFECT_KEYS: the table keys, listed here too)
from .errtext import BOM, not_utf8, os_reason
from .msg import Msg, as_msg
from .names import escape, echo, shown, suggestion_budget


@functools.total_ordering
class CatalogueError:
    """One located problem: ``file:line: [key] message``. The message is kept in both languages
    (``model.msg.Msg``) and shown in the run's language when the error is shown (``str(e)``,
    ``e.message``); ``e.render("en")`` gives one language whatever the run's is. Errors compare and sort
    by file, line, key and then the English message."""

    __slots__ = ("file", "line", "key", "text")

    def __init__(self, file: str, line: int, key: str, message):
        self.file = file
        self.line = line
        self.key = key
        self.text: Msg = as_msg(message)

    @property
    def message(self) -> str:
        """The message in the run's language."""
        return self.text.render()

    def render(self, lang: str | None = None) -> str:
        """``file:line: [key] message`` in ``lang`` (None: the run's language), on one line whatever the
        input held: control and invisible characters are shown escaped."""
        key = f" [{escape(self.key)}]" if self.key else ""
        return f"{escape(self.file)}:{self.line}:{key} {escape(self.text.render(lang))}"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"CatalogueError({self.file!r}, {self.line!r}, {self.key!r}, {self.text!r})"

    def _cmp(self) -> tuple:
        return (self.file, self.line, self.key, self.text.render("en"), self.text.render("zh"))

    def __eq__(self, other) -> bool:
        return isinstance(other, CatalogueError) and self._cmp() == other._cmp()

    def __lt__(self, other) -> bool:
        return self._cmp() < other._cmp()

    def __hash__(self) -> int:
        return hash(self._cmp())


class CatalogueErrors(Exception):
    """Every problem of a catalogue. ``causes`` (files that cannot be read) come first; ``hidden`` counts
    the errors left out because they only follow from those files not being read (``unreadable``).
    ``str(e)`` is in the run's language at the moment it is called."""

    def __init__(self, errors, causes=(), hidden: int = 0, unreadable=()):
        causes = sorted(set(causes))
        self.errors = causes + [e for e in sorted(set(errors)) if e not in causes]
        self.hidden = hidden
        self.unreadable = list(unreadable)
        super().__init__()

    def __str__(self) -> str:
        return "\n".join([str(e) for e in self.errors] + self.folded_lines())

    def folded_lines(self) -> list[str]:
        """The line saying how many errors were folded away, in the run's language ([] if none)."""
        if not self.hidden:
            return []
        u = [escape(n) for n in self.unreadable]
        names_en = f"{', '.join(u[:-1])} and {u[-1]}" if len(u) > 1 else u[0]
        names_zh = "、".join(u)
        return [Msg("（另有 {n:,} 个错误未列出：它们都因为 {names} 读不了而产生）",
                    "({n} further error{s} hidden: {they} from {names} not being readable)",
                    n=self.hidden, s="s" if self.hidden != 1 else "",
                    they="they follow" if self.hidden != 1 else "it follows",
                    names=Msg("{zh}", "{en}", zh=names_zh, en=names_en)).render()]


def shipped_path() -> Path:
    """The directory of the shipped catalogue of the real game."""
    return Path(str(resources.files("skillproof.model").joinpath("catalogue")))


def catalogue_files(paths, errors: list | None = None) -> list[Path]:
    """Expand paths (files or directories) into the TOML files to read, in a stable order: a directory is
    read recursively, its files in sorted relative-path order (``cards.toml`` before
    ``characters/a_fu_luo_la.toml`` before ``rules.toml``); names starting with a dot are skipped.

    What a symbolic link inside a directory leads to outside that directory is not read: each such file is
    named in ``errors`` (when given) instead."""
    from .catfiles import kind_of, walk

    def refuse(q, msg):
        if errors is not None:
            errors.append(CatalogueError(_named(display_name(q)), 1, "", msg))

    out: list[Path] = []
    for named in paths:
        p = Path(named)
        kind, why = kind_of(p)
        if kind == "missing" and getattr(named, "line", None) and errors is not None:
            # named by the configuration: reported at the line that names it
            errors.append(CatalogueError(named.file, named.line, "paths", Msg(
                "没有这个文件或文件夹：{p}", "no such file or directory: {p}", p=shown(str(named), 120))))
        elif why is not None:
            refuse(p, why)
        elif kind == "dir":
            out.extend(walk(p, refuse))
        else:
            out.append(p)
    return out


def _named(name: str) -> str:
    """A file's name as an error shows it: cut when it is absurdly long (the message says how long)."""
    return shown(name, 200) if len(name) > 200 else name


def read_limited(path: Path, name: str) -> tuple[bytes | None, CatalogueError | None]:
    """A catalogue file's bytes, read only if it is a regular file within the size limit (model/readfile.py)."""
    from . import readfile as RF
    try:
        return RF.read_regular(path, L.FILE_BYTES), None
    except RF.NotRead as e:
        if e.why == RF.MISSING:
            msg = Msg("没有这个文件", "no such file")
        elif e.why == RF.DIRECTORY:
            msg = Msg("这是一个目录，不是目录文件", "a directory, not a catalogue file")
        elif e.why == RF.NOT_REGULAR:
            msg = Msg("不是普通文件，不是目录文件", "not a regular file, not a catalogue file")
        elif e.why == RF.TOO_BIG and e.size is not None:
            msg = Msg("文件有 {n:,} 字节，上限是 {limit:,}（见 docs/catalogue-format.md 的“Limits”一节）",
                      "the file is {n:,} bytes; the limit is {limit:,} (see docs/catalogue-format.md § Limits)",
                      n=e.size, limit=L.FILE_BYTES)
        elif e.why == RF.TOO_BIG:
            msg = Msg("文件超过 {limit:,} 字节（上限）", "the file is over {limit:,} bytes (the limit)", limit=L.FILE_BYTES)
        else:
            msg = Msg("读不了：{why}", "cannot read: {why}", why=os_reason(e.error))
        return None, CatalogueError(name, 1, "", msg)


def display_name(path: Path, shipped: bool = False) -> str:
    """How a file is named in messages and reports: relative to the working directory when under it
    (as linters do), else as given; the shipped catalogue outside the working directory is
    ``<shipped>/characters/x.toml`` (its path inside the catalogue), so reports do not depend on where
    skillproof is installed."""
    if str(path).startswith("<"):
        return str(path)
    try:
        rel = os.path.relpath(path, Path.cwd())
    except ValueError:
        rel = ".."
    if not rel.startswith(".."):
        return rel
    if not shipped:
        return str(path)
    try:
        return "<shipped>/" + Path(path).relative_to(shipped_path()).as_posix()
    except ValueError:
        return f"<shipped>/{Path(path).name}"


def load(paths=None, *, texts: dict | None = None) -> Catalogue:
    """Load catalogue files (default: the shipped catalogue). ``texts`` maps display names to TOML text
    (used by `diff` for git revisions and by tests)."""
    docs: list[tuple[str, str]] = []
    errors: list[CatalogueError] = []
    unreadable: dict[str, str] = {}     # files that could not be read or parsed -> their text, as far as known
    if texts is not None:
        docs = list(texts.items())
    else:
        shipped = not paths
        if shipped:
            paths = [shipped_path()]
        files = catalogue_files(paths, errors)
        if not files:
            raise CatalogueErrors(errors or [CatalogueError(_named(escape(str(p))), 1, "",
                                                            Msg("这里没有 '.toml' 目录文件", "no .toml catalogue files here"))
                                             for p in paths])
        if len(files) > L.FILES:
            raise CatalogueErrors([CatalogueError(display_name(files[L.FILES], shipped), 1, "", Msg(
                "{n:,} 个目录文件，上限是 {limit:,}", "{n:,} catalogue files; the limit is {limit:,}",
                n=len(files), limit=L.FILES))])
        for f in files:
            name = display_name(f, shipped)
            raw, err = read_limited(f, name)
            if err:
                errors.append(err)
                continue
            try:
                docs.append((name, raw.decode("utf-8")))
            except UnicodeDecodeError as e:
                errors.append(_not_utf8(name, raw, e))
                unreadable[name] = raw.decode("utf-8", "replace")
    total = 0
    for name, text in docs:
        total += len(text)
        if total > L.TOTAL_BYTES:
            raise CatalogueErrors(errors + [CatalogueError(name, 1, "", Msg(
                "目录总共超过 {limit:,} 个字符（上限）", "the catalogue is over {limit:,} characters in all (the limit)",
                limit=L.TOTAL_BYTES))])
    b = _Builder()
    with suggestion_budget():          # "did you mean" stays fast however many names are wrong
        for name, text in docs:
            if text.startswith("\ufeff"):
                errors.append(CatalogueError(name, 1, "", BOM))
                unreadable[name] = text
                continue
            if text.count("\x00") * 4 > len(text) > 0:       # ASCII in UTF-16 / UTF-32 is valid UTF-8, with NULs
                errors.append(CatalogueError(name, 1, "", _WIDE))
                unreadable[name] = text
                continue
            swallowed = _comment_breaks(text)
            if swallowed:
                line, ch = swallowed[0]
                errors.append(CatalogueError(name, line, "", Msg(
                    "注释里有 {c}：TOML 不在这里换行，它后面的全部内容（编辑器显示为下面几行）都属于这条注释，没有读取——"
                    "把它换成普通的换行",
                    "a comment holds {c}, which TOML does not read as the end of a line: everything after it (shown "
                    "as further lines by editors) is part of the comment and was not read — use a plain line break",
                    c=_BREAKS[ch])))
                unreadable[name] = text
                continue
            b.add_file(name, text)
        # cross-file checks run even after local errors, to report everything at once (what follows only
        # from an unreadable file is folded below) — unless the catalogue is over a count limit: then what
        # was left out would show up as unknown names everywhere
        if not b.dropped:
            b.link()
    errors.extend(b.errors)
    unreadable.update(b.unreadable)
    if errors:
        raise CatalogueErrors(*_fold_unreadable(errors, unreadable))
    # Characters and skills are kept in id order, not in the order they were read: how a catalogue is split
    # into files never changes what the checks ask the solver, the witnesses they find or a report. Cards
    # keep their written order (the shipped cards.toml follows the server's card_type enum).
    return Catalogue(rules=b.rules, cards=b.cards, characters=dict(sorted(b.characters.items())),
                     skills=dict(sorted(b.skills.items())), files=tuple(n for n, _ in docs),
                     suppressions=tuple(b.suppressions), intents=tuple(b.intents[k] for k in sorted(b.intents)))


_QUOTED = re.compile(r"'([^'\s]+)'")
_DEFINES = re.compile(r'^\s*id\s*=\s*["\']([^"\']+)["\']', re.M)


def _fold_unreadable(errors: list, unreadable: dict) -> tuple:
    """(errors, causes, hidden, unreadable names): the errors of files that cannot be read lead; errors
    elsewhere that name (in quotes) something one of those files defines (``id = "…"`` in its text) — an
    unknown skill, grant or card, an argument that is not a card — are folded: they follow from the file not
    being read, and their suggestions would mislead."""
    if not unreadable:
        return errors, (), 0, ()
    causes = [e for e in errors if e.file in unreadable and e.line >= 1 and not e.key]
    defined = {m.group(1) for text in unreadable.values() for m in _DEFINES.finditer(text or "")}
    kept, hidden = [], 0
    for e in errors:
        named = set(_QUOTED.findall(e.text.render("en").split(" — did you mean")[0]))
        if e.file not in unreadable and e.key != "id" and named & defined:
            hidden += 1
        else:
            kept.append(e)
    return kept, causes, hidden, sorted(unreadable)


def _only_for(key: str, kind: str, ident: str) -> Msg:
    """"'windows' is for ActiveSkills; X is not one"."""
    return Msg("'{k}' 只用于 '{kind}'；'{id}' 不是", "'{k}' is for {kind}s; {id} is not one", k=key, kind=kind, id=ident)


def _bad_origin(v) -> Msg:
    return Msg("'origin' 必须是 'server' 或 'rulebook'，不能是 {v}", "origin must be 'server' or 'rulebook', not {v}", v=_q(v))


def _not_utf8(name: str, raw: bytes, e: UnicodeDecodeError) -> CatalogueError:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or raw.count(b"\x00") * 4 > len(raw):
        return CatalogueError(name, 1, "", _WIDE)      # (a UTF-32 mark starts as UTF-16's: FF FE 00 00)
    line = raw.count(b"\n", 0, e.start) + 1
    guess = Msg("", "")
    try:
        raw.decode("gb18030")
        guess = Msg("；按 GBK/GB18030 能读——请另存为 UTF-8", "; it reads as GBK/GB18030 — save it as UTF-8")
    except UnicodeDecodeError:
        pass
    return CatalogueError(name, line, "", not_utf8(e) + guess)


#: a file in UTF-16 or UTF-32 (Windows Notepad's "Unicode"): a byte-order mark FF FE / FE FF, or NUL bytes between
#: the characters
_WIDE = Msg("文件是 UTF-16 或 UTF-32 编码（字节顺序标记 FF FE / FE FF，或字符之间夹着 0 字节），不是 UTF-8——请另存为 UTF-8",
            "the file is in UTF-16 or UTF-32 (a byte-order mark FF FE / FE FF, or 0 bytes between the characters), not "
            "UTF-8 — save it as UTF-8")

#: characters editors show as a line break but TOML does not end a line at (it ends lines at LF and CR LF only)
_BREAKS = {"\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR", "\x85": "U+0085 NEXT LINE",
           "\x0b": "U+000B LINE TABULATION", "\x0c": "U+000C FORM FEED"}


def _comment_breaks(text: str) -> list[tuple[int, str]]:
    """(line, character) of each comment that runs on past a character editors show as a line break (``_BREAKS``):
    TOML reads all that follows it on the line as part of the comment — a file saved with U+2028 for its line
    breaks reads as one comment, an empty catalogue that ``check`` passed. Strings are skipped (such a character
    in a string is kept, and escaped when echoed)."""
    out: list = []
    if not any(ch in text for ch in _BREAKS):          # the common case, at C speed (the cold check's 2 s)
        return out
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            hit = next((ch for ch in text[i:j] if ch in _BREAKS), None)
            if hit is not None:
                out.append((line, hit))
            i = j
        elif c in "\"'":
            triple = text.startswith(c * 3, i)
            i += 3 if triple else 1
            while i < n:
                d = text[i]
                if d == "\\" and c == '"':
                    if i + 1 < n and text[i + 1] == "\n":
                        line += 1
                    i += 2
                    continue
                if d == "\n":
                    line += 1
                    i += 1
                    if not triple:
                        break                   # an unterminated string: TOML's own error
                    continue
                if triple and text.startswith(c * 3, i):
                    i += 3
                    while i < n and text[i] == c:     # up to two more quotes belong to the string
                        i += 1
                    break
                i += 1
                if not triple and d == c:
                    break
        else:
            i += 1
    return out


# ------------------------------------------------------------------------------------------ schema
TOP_KEYS = {"rules", "card", "character", "skill", "grant", "intent", "meta"}
RULES_KEYS = {"seats", "min_seats", "draw_base", "turn_end", "must_beats_cannot", "face_down_converts", "face_down_grant_converts",
              "must_receive", "skip_fight", "skip_dying", "lock_self", "send_dir", "send_lock", "send_to_self"}
#: the values the list-valued [rules] keys take (each at most once, in any order)
RULES_SETS = {"must_receive": ("sender", "turn", "locked"), "skip_fight": ("skills_gone", "can_use"),
              "skip_dying": ("skills_gone", "can_use")}
CARD_KEYS = {"id", "name", "aliases", "text", "gives", "phases", "windows", "do", "target", "requires", "deck"}
#: the keys of one ``deck`` entry of a card (its printed copies: catalogue.DeckPrint)
DECK_KEYS = {"n", "colour", "dir", "lock", "seats", "with"}
DECK_COLOURS = ("red", "blue", "black")
DECK_DIRS = ("up", "left", "right")
_SEATS = re.compile(r"\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*\Z")
CARD_PHASES = T.IDLE_POINTS
CHAR_KEYS = {"id", "name", "hidden", "female", "skills", "origin", "aliases", "text"}
RULE_KEYS = {"id", "name", "aliases", "kinds", "initial", "text", "flips", "consumed", "limit", "trigger",
             "fight", "dying", "main", "remind", "convert", "ban", "receive", "send", "draw", "win", "result", "gives", "origin",
             "plays", "windows", "replaces_role", "fires", "on", "do", "requires"}
GRANT_KEYS = RULE_KEYS | {"lifetime", "params"}
GIVE_KEYS = {"grant", "to", "when", "per_turn", "args", "where", "at", "on", "with"}
#: how long a grant stays: the turn (dropped at turn end), until it fires, for good, or only during the
#: resolution of the card it was handed out for (removed when that card finishes: never seen at a moment a
#: player acts)
LIFETIMES = ("turn", "until_fired", "permanent", "resolution")
TURN_END_STEPS = ("restore_invalid", "drop_one_turn")
PARAM_TYPES = {"card", "bool", "int", "colour", "set<card>"}
INTENT_KEYS = {"id", "claim", "source", "severity", "text", "intends"}
INTENT_SEVERITIES = ("error", "warning", "note")
INTENT_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: an ``intends`` entry: a check code, a code and a rule (``BN002@TouTian``), or a finding id
INTENDS_RE = re.compile(r"^(?P<check>[A-Z]{2,}[0-9]{3})(?:@(?P<rule>[^@\s]+)|-(?P<hash>[0-9a-f]{10}))?$")


class _Builder(Linker):
    def __init__(self):
        self.errors: list[CatalogueError] = []
        self._said: set = set()               # limits already reported
        self.dropped = False                  # entries were left out: the catalogue is over a count limit
        self.rules = Rules()
        self.rules_seen: Loc | None = None
        self.cards: dict[str, Card] = {}
        self.characters: dict[str, Character] = {}
        self.skills: dict[str, Rule] = {}
        self._pending: list = []          # deferred checks needing every file (references, expressions)
        self.suppressions: list = []      # inline `# skillproof: ignore[…]` comments
        self.unreadable: dict = {}        # files with a TOML syntax error -> their text
        self.intents: dict[str, Intent] = {}
        self.param_seen: dict = {}        # parameter name -> (type, grant, loc): one type per name

    # ----------------------------------------------------------------------------- error helpers
    def err(self, file, locs, path, key, msg):
        self.errors.append(CatalogueError(file, line_of(locs, path), key, msg))

    # --------------------------------------------------------------------------------- per file
    def add_file(self, name: str, text: str):
        if len(text) > L.FILE_BYTES:
            self.errors.append(CatalogueError(name, 1, "", Msg("文件超过 {limit:,} 个字符（上限）",
                                                               "the file is over {limit:,} characters (the limit)",
                                                               limit=L.FILE_BYTES)))
            self.unreadable[name] = ""
            return
        data, bad = tomlsafe.loads(text)
        if bad:
            self.errors.append(CatalogueError(name, bad[0], "", bad[1]))
            self.unreadable[name] = text
            return
        locs = locate(text)
        over = tomlsafe.check_values(data, locs)
        if over:                   # nothing else is read from a file over the limits
            self.errors.extend(CatalogueError(name, line, key, msg) for line, key, msg in over)
            self.unreadable[name] = text
            return
        F = (name, locs)
        self._inline_suppressions(name, text, data)
        for k in data:
            if k not in TOP_KEYS:
                self.err(name, locs, (k,), k, Msg("未知的顶层表 {k}{dym}", "unknown top-level table {k}{dym}",
                                                  k=_q(k), dym=_dym(k, TOP_KEYS)))
        if "meta" in data and not isinstance(data["meta"], dict):
            self.err(name, locs, ("meta",), "meta", Msg("[meta] 必须是表", "[meta] must be a table"))
        if "rules" in data:
            self._rules(F, data["rules"])
        for table, fn in (("card", self._card), ("character", self._character), ("skill", self._rule),
                          ("grant", self._rule), ("intent", self._intent)):
            if table not in data:
                continue
            arr = data[table]
            if not isinstance(arr, list):
                self.err(name, locs, (table,), table, Msg("'{t}' 必须是表数组：写成 [[{t}]]",
                                                          "'{t}' must be an array of tables: write [[{t}]]", t=table))
                continue
            for i, entry in enumerate(arr):
                path = (table, i)
                if not isinstance(entry, dict):
                    self.err(name, locs, path, table, Msg("每个 [[{t}]] 都必须是表", "each [[{t}]] must be a table",
                                                          t=table))
                    continue
                if self._too_many(F, path, table):
                    break
                fn(F, path, entry, table)

    def _inline_suppressions(self, name: str, text: str, data: dict):
        from .suppress import scan
        found, problems = scan(name, text, data)
        self.suppressions.extend(found)
        self.errors.extend(CatalogueError(name, line, "skillproof: ignore", msg) for line, msg in problems)

    def _loc(self, F, path) -> Loc:
        return Loc(F[0], line_of(F[1], path))

    def _keys(self, F, path, entry, allowed, what):
        for k in entry:
            if k not in allowed:
                self.err(F[0], F[1], path + (k,), k, Msg("{zwhat} 中有未知的键 {k}{dym}", "unknown key {k} in {what}{dym}",
                                                         k=_q(k), what=what, dym=_dym(k, allowed),
                                                         zwhat=what if what.startswith("[") else f"'{what}'"))

    def _get(self, F, path, entry, key, typ, what, required=False, default=None):
        if key not in entry:
            if required:
                self.err(F[0], F[1], path, key, Msg("{what} 缺少必需的键 '{key}'", "{what} is missing required key '{key}'",
                                                    what=what, key=key))
            return default
        v = entry[key]
        ok = isinstance(v, typ) and not (typ is int and isinstance(v, bool))
        if not ok:
            zh, en = {str: ("字符串", "a string"), bool: ("'true' 或 'false'", "true or false"), int: ("整数", "an integer"),
                      list: ("列表", "a list"), dict: ("表", "a table")}.get(typ, (str(typ), str(typ)))
            self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 必须是{want}，不能是{got}", "'{key}' must be {want}, not {got}",
                                                         key=key, want=Msg(zh, en), got=_tname(v)))
            return default
        return v

    _TABLE_LIMITS = {"card": (Msg("张牌", "cards"), L.CARDS), "character": (Msg("个角色", "characters"), L.CHARACTERS),
                     "skill": (Msg("个技能和给出的技能", "skills and grants"), L.RULES),
                     "grant": (Msg("个技能和给出的技能", "skills and grants"), L.RULES),
                     "intent": (Msg("个意图", "intents"), L.INTENTS)}
    _LIST_LIMITS = {"aliases": L.ALIASES, "skills": L.SKILLS_PER_CHARACTER, "gives": L.GIVES_PER_RULE,
                    "win": L.EFFECTS_PER_RULE, "result": L.EFFECTS_PER_RULE, "on": L.TRIGGERS_PER_RULE, "params": L.PARAMS_PER_GRANT}

    def _too_many(self, F, path, table) -> bool:
        """Is the catalogue already at its limit of ``table`` entries? (Said once, where it is passed.)"""
        what, limit = self._TABLE_LIMITS[table]
        have = {"card": len(self.cards), "character": len(self.characters),
                "intent": len(self.intents)}.get(table, len(self.skills))
        if have < limit:
            return False
        self.dropped = True                   # what is left out would show up as unknown names
        if what.en not in self._said:
            self._said.add(what.en)
            self.err(F[0], F[1], path, table, Msg("目录中超过 {limit:,} {what}（上限；见 docs/catalogue-format.md 的“Limits”一节）",
                                                  "more than {limit:,} {what} in the catalogue (the limit; "
                                                  "see docs/catalogue-format.md § Limits)", limit=limit, what=what))
        return True

    def _long(self, F, path, entry, key) -> bool:
        """Does ``entry[key]`` hold more items than its limit allows? (Reported.)"""
        v = entry.get(key)
        limit = self._LIST_LIMITS[key]
        if isinstance(v, (list, dict)) and len(v) > limit:
            self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 有 {n:,} 项，上限是 {limit}",
                                                         "'{key}' has {n:,} entries; the limit is {limit}",
                                                         key=key, n=len(v), limit=limit))
            return True
        return False

    def _strlist(self, F, path, entry, key, what, required=False):
        if key in self._LIST_LIMITS and self._long(F, path, entry, key):
            return None
        v = self._get(F, path, entry, key, list, what, required, None)
        if v is None:
            return None
        for x in v:
            if not isinstance(x, str):
                self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 只能列出字符串，这里有{got}",
                                                             "'{key}' must list strings, found {got}", key=key, got=_tname(x)))
                return None
        return tuple(v)

    # ------------------------------------------------------------------------------------ tables
    def _rules(self, F, data):
        path = ("rules",)
        if not isinstance(data, dict):
            self.err(F[0], F[1], path, "rules", Msg("[rules] 必须是表", "[rules] must be a table"))
            return
        if self.rules_seen:
            self.err(F[0], F[1], path, "rules", Msg("[rules] 写了两次（第一次在 {at}）", "[rules] is given twice (first at {at})",
                                                    at=str(self.rules_seen)))
            return
        self.rules_seen = self._loc(F, path)
        self._keys(F, path, data, RULES_KEYS, "[rules]")
        r = self.rules
        r.loc = self.rules_seen
        r.key_locs = {k: self._loc(F, path + (k,)) for k in data}
        seats = self._get(F, path, data, "seats", int, "[rules]", default=r.seats)
        if not 2 <= seats <= 9:
            self.err(F[0], F[1], path + ("seats",), "seats", Msg("'seats' 必须在 2 到 9 之间，不能是 {v}",
                                                                 "seats must be between 2 and 9, not {v}", v=seats))
        r.seats = seats
        low = self._get(F, path, data, "min_seats", int, "[rules]", default=r.min_seats)
        if not 1 <= low <= seats:
            self.err(F[0], F[1], path + ("min_seats",), "min_seats", Msg(
                "'min_seats' 必须在 1 到 'seats'（{seats}）之间，不能是 {v}",
                "min_seats must be between 1 and seats ({seats}), not {v}", seats=seats, v=low))
        r.min_seats = low
        base = self._get(F, path, data, "draw_base", int, "[rules]", default=r.draw_base)
        if base < 0:
            self.err(F[0], F[1], path + ("draw_base",), "draw_base", Msg("'draw_base' 不能是负数",
                                                                         "draw_base cannot be negative"))
        r.draw_base = base
        te = self._strlist(F, path, data, "turn_end", "[rules]")
        if te is not None:
            for step in te:
                if step not in TURN_END_STEPS:
                    self.err(F[0], F[1], path + ("turn_end",), "turn_end",
                             Msg("未知的回合结束步骤 {s}{dym}", "unknown turn-end step {s}{dym}",
                                 s=_q(step), dym=_dym(step, TURN_END_STEPS)))
            if sorted(te) != sorted(TURN_END_STEPS):
                self.err(F[0], F[1], path + ("turn_end",), "turn_end",
                         Msg("'turn_end' 必须把 'restore_invalid' 和 'drop_one_turn' 各列一次",
                             "turn_end must list each of restore_invalid and drop_one_turn exactly once"))
            r.turn_end = te
        r.must_beats_cannot = self._get(F, path, data, "must_beats_cannot", bool, "[rules]",
                                        default=r.must_beats_cannot)
        r.face_down_converts = self._get(F, path, data, "face_down_converts", bool, "[rules]",
                                         default=r.face_down_converts)
        r.face_down_grant_converts = self._get(F, path, data, "face_down_grant_converts", bool, "[rules]",
                                               default=r.face_down_grant_converts)
        r.lock_self = self._get(F, path, data, "lock_self", bool, "[rules]", default=r.lock_self)
        r.send_to_self = self._get(F, path, data, "send_to_self", bool, "[rules]", default=r.send_to_self)
        if "send_dir" in data or "send_lock" in data:            # expressions: checked once every file is read
            self._pending.append(("rules", F, path, (r, data)))
        for key, allowed in RULES_SETS.items():
            vals = self._strlist(F, path, data, key, "[rules]")
            if vals is None:
                continue
            bad = [v for v in vals if v not in allowed]
            for v in bad:
                self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 中有未知的项 {v}{dym}", "unknown {key} item {v}{dym}",
                                                             key=key, v=_q(v), dym=_dym(v, allowed)))
            if len(set(vals)) != len(vals):
                self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 把同一项列了两次", "{key} lists an item twice",
                                                             key=key))
            if not bad:
                setattr(r, key, tuple(sorted(set(vals))))

    def _ident(self, F, path, entry, what):
        ident = self._get(F, path, entry, "id", str, what, required=True)
        name = self._get(F, path, entry, "name", str, what, required=True)
        if ident is not None and not ident.strip():
            self.err(F[0], F[1], path + ("id",), "id", Msg("'id' 不能为空", "id must not be empty"))
            ident = None
        return ident, name

    def _card(self, F, path, e, _table):
        what = "[[card]]"
        self._keys(F, path, e, CARD_KEYS, what)
        ident, name = self._ident(F, path, e, what)
        aliases = self._strlist(F, path, e, "aliases", what) or ()
        text = self._get(F, path, e, "text", str, what, default="")
        windows = self._windows(F, path, e, what)
        if ident is None:
            return
        loc = self._loc(F, path)
        if ident in self.cards:
            self.err(F[0], F[1], path + ("id",), "id", Msg("牌的 id {id} 重复（第一次在 {at}）",
                                                           "duplicate card id {id} (first at {at})",
                                                           id=_q(ident), at=str(self.cards[ident].loc)))
            return
        card = Card(ident, name or ident, loc, aliases, text, windows=windows, deck=self._deck(F, path, e))
        self.cards[ident] = card
        self._gives(F, path, e, card, True)
        if "do" in e or "target" in e or "requires" in e:
            self._pending.append(("card", F, path, (card, e)))

    def _deck(self, F, path, e) -> tuple:
        """``deck = [{ n = 3, colour = ["red"], dir = "left", lock = true, seats = "5-9", with = { … } }, …]``: the
        card's printed copies (catalogue.DeckPrint); () when not said."""
        v = self._get(F, path, e, "deck", list, "[[card]]")
        out = []
        for i, d in enumerate(v or ()):
            p = path + ("deck", i)
            if not isinstance(d, dict):
                self.err(F[0], F[1], p, "deck", Msg("'deck' 的每一项必须是表，例如 `{{ n = 2, colour = [\"red\"], dir = \"up\" }}`",
                                                    "each 'deck' entry must be a table, e.g. {{ n = 2, colour = [\"red\"], dir = \"up\" }}"))
                continue
            self._keys(F, p, d, DECK_KEYS, "deck")
            n = self._get(F, p, d, "n", int, "deck", required=True)
            colour = self._strlist(F, p, d, "colour", "deck")
            dr = self._get(F, p, d, "dir", str, "deck", required=True)
            lock = self._get(F, p, d, "lock", bool, "deck", default=False)
            seats = self._get(F, p, d, "seats", str, "deck", default="")
            extra = self._get(F, p, d, "with", dict, "deck", default={})
            ok = n is not None and dr is not None and colour is not None
            if n is not None and n < 1:
                self.err(F[0], F[1], p + ("n",), "n", Msg("'n' 至少是 1", "n must be at least 1"))
                ok = False
            if colour is None:
                self.err(F[0], F[1], p, "colour", Msg("'deck' 缺少必需的键 'colour'（印的颜色）", "'deck' is missing required key 'colour' (the printed colours)"))
            elif not colour or any(c not in DECK_COLOURS for c in colour):
                bad = next((c for c in colour if c not in DECK_COLOURS), "")
                self.err(F[0], F[1], p + ("colour",), "colour", Msg("未知的颜色 {c}{dym}", "unknown colour {c}{dym}",
                                                                    c=_q(bad), dym=_dym(bad, DECK_COLOURS)))
                ok = False
            if dr is not None and dr not in DECK_DIRS:
                self.err(F[0], F[1], p + ("dir",), "dir", Msg("未知的方向 {d}{dym}", "unknown direction {d}{dym}",
                                                              d=_q(dr), dym=_dym(dr, DECK_DIRS)))
                ok = False
            if seats and not _SEATS.match(seats):
                self.err(F[0], F[1], p + ("seats",), "seats", Msg("'seats' 要写成人数的范围，例如 \"5-9\" 或 \"2-4, 9\"",
                                                                  "seats must be table sizes, e.g. \"5-9\" or \"2-4, 9\""))
                ok = False
            pairs = []
            for k, x in sorted((extra or {}).items()):
                if isinstance(x, list) and all(c in DECK_COLOURS for c in x):
                    pairs.append((k, tuple(x)))
                elif isinstance(x, (bool, int, str)):
                    pairs.append((k, x))
                else:
                    self.err(F[0], F[1], p + ("with", k), "with", Msg("'with' 的值只能是颜色的列表、整数、布尔值或字符串",
                                                                      "a 'with' value must be a list of colours, an integer, "
                                                                      "a boolean or a string"))
                    ok = False
            if ok:
                out.append(DeckPrint(n, tuple(colour), dr, bool(lock), seats, tuple(pairs), self._loc(F, p)))
        return tuple(out)

    def _windows(self, F, path, e, what) -> dict:
        """``windows = { main = "turn", fight = "anyone" }`` (window -> actor), or the older
        ``phases = ["main"]`` (each window with its default actor, model.turn.WINDOWS)."""
        out: dict = {}
        if "phases" in e and "windows" in e:
            self.err(F[0], F[1], path + ("phases",), "phases", Msg("'windows' 和旧写法 'phases' 只能写一个",
                                                                   "write either 'windows' or the older 'phases', not both"))
        if "phases" in e:
            for ph in self._strlist(F, path, e, "phases", what) or ():
                if ph not in CARD_PHASES:
                    self.err(F[0], F[1], path + ("phases",), "phases",
                             Msg("未知的阶段 {ph}{dym}{one}", "unknown phase {ph}{dym}{one}",
                                 ph=_q(ph), dym=_dym(ph, CARD_PHASES), one=_one_of(CARD_PHASES)))
                else:
                    out[ph] = T.WINDOWS[ph].actor
            return out
        w = e.get("windows")
        if w is None:
            return out
        if not isinstance(w, dict):
            self.err(F[0], F[1], path + ("windows",), "windows",
                     Msg("'windows' 必须是“时机 = 行动者”的表，例如 `{{ main = \"turn\", fight = \"anyone\" }}`",
                         "'windows' must be a table of window = actor, e.g. {{ main = \"turn\", fight = \"anyone\" }}"))
            return out
        for win, actor in w.items():
            if win not in CARD_PHASES:
                self.err(F[0], F[1], path + ("windows", win), "windows",
                         Msg("未知的时机 {w}{dym}{one}", "unknown window {w}{dym}{one}",
                             w=_q(win), dym=_dym(win, CARD_PHASES), one=_one_of(CARD_PHASES)))
            elif not isinstance(actor, str) or actor not in T.ACTORS:
                self.err(F[0], F[1], path + ("windows", win), "windows",
                         Msg("时机 {w} 的行动者 {a} 未知{dym}{one}", "unknown actor {a} for window {w}{dym}{one}",
                             a=_q(str(actor)), w=_q(win), dym=_dym(actor, T.ACTORS) if isinstance(actor, str) else "",
                             one=_one_of(T.ACTORS)))
            else:
                out[win] = actor
        return out

    def _character(self, F, path, e, _table):
        what = "[[character]]"
        self._keys(F, path, e, CHAR_KEYS, what)
        ident, name = self._ident(F, path, e, what)
        hidden = self._get(F, path, e, "hidden", bool, what, required=True, default=False)
        female = self._get(F, path, e, "female", bool, what, required=True, default=False)
        skills = self._strlist(F, path, e, "skills", what, required=True)
        origin = self._get(F, path, e, "origin", str, what, default="server")
        if origin not in ("server", "rulebook"):
            self.err(F[0], F[1], path + ("origin",), "origin", _bad_origin(origin))
        aliases = self._strlist(F, path, e, "aliases", what) or ()
        text = self._get(F, path, e, "text", str, what, default="")
        if ident is None:
            return
        if ident in self.characters:
            self.err(F[0], F[1], path + ("id",), "id", Msg("角色的 id {id} 重复（第一次在 {at}）",
                                                           "duplicate character id {id} (first at {at})",
                                                           id=_q(ident), at=str(self.characters[ident].loc)))
            return
        ch = Character(ident, name or ident, hidden, female, skills or (), self._loc(F, path), origin, aliases, text)
        self.characters[ident] = ch
        if skills:
            seen = set()
            for s in skills:
                if s in seen:
                    self.err(F[0], F[1], path + ("skills",), "skills", Msg("技能 {s} 在 '{id}' 的技能中列了两次",
                                                                           "skill {s} is listed twice for {id}",
                                                                           s=_q(s), id=ident))
                seen.add(s)
        self._pending.append(("character", F, path, ch))

    def _rule(self, F, path, e, table):
        is_grant = table == "grant"
        what = f"[[{table}]]"
        self._keys(F, path, e, GRANT_KEYS if is_grant else RULE_KEYS, what)
        ident, name = self._ident(F, path, e, what)
        kinds = self._strlist(F, path, e, "kinds", what, required=True) or ()
        good_kinds = []
        for k in kinds:
            if k not in K.KINDS or k == "Skill":
                self.err(F[0], F[1], path + ("kinds",), "kinds", Msg("未知的技能种类 {k}{dym}", "unknown kind {k}{dym}",
                                                                     k=_q(k), dym=_dym(k, set(K.KINDS) - {'Skill'})))
            else:
                good_kinds.append(k)
        initial = self._get(F, path, e, "initial", bool, what, default=not is_grant)
        if ident is None:
            return
        if ident in self.skills:
            prev = self.skills[ident]
            self.err(F[0], F[1], path + ("id",), "id", Msg(
                "规则的 id {id} 重复（第一次在 {at}，是{what}）", "duplicate rule id {id} (first at {at}, as a {what})",
                id=_q(ident), at=str(prev.loc), what=Msg("给出的技能 [[grant]]", "grant") if prev.is_grant else Msg("技能 [[skill]]", "skill")))
            return
        loc = self._loc(F, path)
        r = Rule(id=ident, name=name or ident, is_grant=is_grant, kinds=tuple(good_kinds),
                 closure=K.closure(good_kinds), initial=initial, loc=loc)
        r.key_locs = {k: self._loc(F, path + (k,)) for k in e}
        r.aliases = self._strlist(F, path, e, "aliases", what) or ()
        r.text = self._get(F, path, e, "text", str, what, default="")
        r.flips = self._get(F, path, e, "flips", bool, what, default=False)
        r.consumed = self._get(F, path, e, "consumed", bool, what, default=False)
        r.limit = self._get(F, path, e, "limit", str, what, default="none")
        if r.limit not in ("none", "turn", "game"):
            self.err(F[0], F[1], path + ("limit",), "limit", Msg("'limit' 必须是 'none'、'turn' 或 'game'，不能是 {v}",
                                                                 "limit must be none, turn or game, not {v}", v=_q(r.limit)))
        r.trigger = self._get(F, path, e, "trigger", str, what, default="")
        r.windows = self._windows(F, path, e, what)
        if "windows" in e and not r.has("ActiveSkill"):
            self.err(F[0], F[1], path + ("windows",), "windows", _only_for("windows", "ActiveSkill", ident))
        if "phases" in e:
            self.err(F[0], F[1], path + ("phases",), "phases", Msg("技能用 'windows' 写在哪里使用",
                                                                   "skills say where they are used with 'windows'"))
        r.replaces_role = self._get(F, path, e, "replaces_role", bool, what, default=False)
        if r.replaces_role and not r.has("ActiveSkill"):
            # the role is replaced when the skill is used (model/interp/trace.py: a usable skill): on any other kind
            # the flag was read by nothing and the rule loaded as if it were not there
            self.err(F[0], F[1], path + ("replaces_role",), "replaces_role", _only_for("replaces_role", "ActiveSkill", ident))
        r.origin = self._get(F, path, e, "origin", str, what, default="server")
        if r.origin not in ("server", "rulebook"):
            self.err(F[0], F[1], path + ("origin",), "origin", _bad_origin(r.origin))
        if is_grant:
            if "lifetime" not in e:
                self.err(F[0], F[1], path, "lifetime", Msg(
                    "{what} '{id}' 缺少必需的键 'lifetime'（'turn'、'until_fired' 或 'permanent'）",
                    "{what} {id} is missing required key 'lifetime' (turn, until_fired or permanent)", what=what, id=ident))
            r.lifetime = self._get(F, path, e, "lifetime", str, what, default="turn")
            if r.lifetime not in LIFETIMES:
                self.err(F[0], F[1], path + ("lifetime",), "lifetime",
                         Msg("'lifetime' 必须是 {zh}，不能是 {v}{dym}", "lifetime must be {en}, not {v}{dym}",
                             zh="、".join(f"'{x}'" for x in LIFETIMES), en=", ".join(LIFETIMES), v=_q(r.lifetime),
                             dym=_dym(r.lifetime, LIFETIMES)))
            params = {} if self._long(F, path, e, "params") else \
                self._get(F, path, e, "params", dict, what, default={})
            for pn, pt in params.items():
                if not isinstance(pt, str) or pt not in PARAM_TYPES:
                    self.err(F[0], F[1], path + ("params", pn), "params",
                             Msg("参数 {p} 的类型 {t} 未知{one}", "parameter {p} has unknown type {t}{one}",
                                 p=_q(pn), t=_q(pt), one=_one_of(sorted(PARAM_TYPES))))
                elif not pn.strip():
                    # an empty name ('"" = "card"', TOML's empty key) is no name: nothing can read it, and a card
                    # reference reading "any" (value "") must never meet a parameter
                    self.err(F[0], F[1], path + ("params", pn), "params", Msg("参数名不能为空",
                                                                              "a parameter name cannot be empty"))
                elif pn in E.KEYWORDS or pn in V.PLAYER_ATTRS or pn in V.GLOBALS or pn == "self":
                    self.err(F[0], F[1], path + ("params", pn), "params", Msg("参数名 {p} 是保留字",
                                                                              "parameter name {p} is reserved", p=_q(pn)))
                else:
                    # a name means one thing across the catalogue: the symbolic state holds one variable per
                    # parameter name for every grant a slot may hold, and questions name arguments by name
                    seen = self.param_seen.setdefault(pn, (pt, ident, self._loc(F, path + ("params", pn))))
                    if seen[0] != pt:
                        self.err(F[0], F[1], path + ("params", pn), "params",
                                 Msg("参数 {p} 在这里是 '{t}'，在 '{other}'（{at}）中却是 '{t0}'；同一个参数名在整个目录中"
                                     "只能有一种类型：改掉其中一个的名字",
                                     "parameter {p} is a {t} here but a {t0} in {other} ({at}); "
                                     "a parameter name has one type in the whole catalogue: rename one of them",
                                     p=_q(pn), t=pt, t0=seen[0], other=seen[1], at=str(seen[2])))
                    r.params[pn] = pt
        # lattice: kinds vs initial, exclusive kinds
        for m in K.lattice_errors(good_kinds):
            self.err(F[0], F[1], path + ("kinds",), "kinds", Msg("'{id}'：{m}", "{id}: {m}", id=ident, m=m))
        if "fight" in e and r.has("MainPhaseSkill"):
            self.err(F[0], F[1], path + ("fight",), "fight",
                     Msg("'{id}' 是出牌阶段技能（'MainPhaseSkill'）：永远不能在争夺阶段使用，所以不写 'fight'",
                         "{id} is a MainPhaseSkill: it can never be used in the fight phase, so it takes no 'fight'", id=ident))
        # parameter tables must match kinds
        for table_key, owners in K.TABLE_KINDS.items():
            has_kind = any(o in r.closure for o in owners)
            if table_key in e and not has_kind:
                self.err(F[0], F[1], path + (table_key,), table_key,
                         Msg("'{k}' 属于 {zh}，'{id}' 不是（`kinds = {kinds}`）",
                             "'{k}' belongs to {en}, which {id} is not (kinds = {kinds})",
                             k=table_key, zh=" / ".join(f"'{o}'" for o in owners), en=" / ".join(owners), id=ident,
                             kinds=echo(str(list(kinds)), 120)))
            if has_kind and table_key not in e:
                need = next(o for o in owners if o in r.closure)
                self.err(F[0], F[1], path, table_key, Msg("'{id}' 是 '{need}'，需要 '{k}'", "{id} is a {need} and needs a '{k}'",
                                                          id=ident, need=need, k=table_key))
        for key in ("fight", "dying", "main"):
            if key in e and not r.has("ActiveSkill"):
                self.err(F[0], F[1], path + (key,), key, _only_for(key, "ActiveSkill", ident))
        if "remind" in e and not r.has("MainPhaseSkill"):
            # server handler/EndMainPhaseTos.kt: only `it is MainPhaseSkill && it.mainPhaseNeedNotify(r)` prompts
            self.err(F[0], F[1], path + ("remind",), "remind", _only_for("remind", "MainPhaseSkill", ident))
        if "trigger" in e and not r.has("TriggeredSkill"):
            self.err(F[0], F[1], path + ("trigger",), "trigger", _only_for("trigger", "TriggeredSkill", ident))
        if "fires" in e and not r.has("TriggeredSkill"):
            self.err(F[0], F[1], path + ("fires",), "fires", _only_for("fires", "TriggeredSkill", ident))
        if "on" in e and not r.has("TriggeredSkill"):
            # only a TriggeredSkill is offered events (server Game.dealListeningSkill: skill as? TriggeredSkill);
            # an InvalidSkill never is — it cannot be one (kinds: exclusive)
            self.err(F[0], F[1], path + ("on",), "on", _only_for("on", "TriggeredSkill", ident))
        if "do" in e and not (r.has("ActiveSkill") or r.has("TriggeredSkill")):
            # what a rule does when it acts: the other kinds' whole effect is their parameter table
            self.err(F[0], F[1], path + ("do",), "do",
                     Msg("'do'（技能做什么）只用于 'ActiveSkill' 和 'TriggeredSkill'：'{id}' 的种类的效果就是它的参数表",
                         "'do' (what a skill does) is for ActiveSkills and TriggeredSkills: the effect of {id}'s kinds is "
                         "their parameter table", id=ident))
        self.skills[ident] = r
        self._gives(F, path, e, r, False)
        self._pending.append(("rule", F, path, (r, e)))

    def _intent(self, F, path, e, _table):
        """An ``[[intent]]``: its keys and their types here; whether the claim is a question of the ask
        language is decided by the checks layer (checks/intents.py), the rules ``intends`` names in ``link``."""
        what = "[[intent]]"
        self._keys(F, path, e, INTENT_KEYS, what)
        ident = self._get(F, path, e, "id", str, what, required=True)
        claim = self._get(F, path, e, "claim", str, what)
        source = self._get(F, path, e, "source", str, what, required=True)
        severity = self._get(F, path, e, "severity", str, what, default="warning")
        text = self._get(F, path, e, "text", str, what, default="")
        intends_v = self._strlist(F, path, e, "intends", what) or ()
        if severity not in INTENT_SEVERITIES:
            self.err(F[0], F[1], path + ("severity",), "severity",
                     Msg("'severity' 必须是 'error'、'warning' 或 'note'，不能是 {v}{dym}",
                         "severity must be error, warning or note, not {v}{dym}", v=_q(severity),
                         dym=_dym(severity, INTENT_SEVERITIES)))
            severity = "warning"
        for key, v in (("claim", claim), ("source", source)):
            if v is not None and not v.strip():
                self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 不能为空", "'{key}' must not be empty", key=key))
        if claim is not None and len(claim) > L.CLAIM_CHARS:
            self.err(F[0], F[1], path + ("claim",), "claim", Msg("'claim' 有 {n:,} 个字符，上限是 {limit:,}",
                                                                 "the claim has {n:,} characters; the limit is {limit:,}",
                                                                 n=len(claim), limit=L.CLAIM_CHARS))
            claim = None
        intends = []
        for x in intends_v:
            m = INTENDS_RE.match(x)
            if not m:
                self.err(F[0], F[1], path + ("intends",), "intends",
                         Msg("{x} 不是检查代码（'BN001'）、代码加规则（'BN002@TouTian'）或问题编号（'CV002-fb7e4adcce'）",
                             "{x} is not a check code ('BN001'), a code and a rule ('BN002@TouTian') or a finding "
                             "id ('CV002-fb7e4adcce')", x=_q(x)))
                continue
            finding = x if m.group("hash") else ""
            intends.append(Intends(m.group("check"), m.group("rule") or "", finding))
        if "claim" not in e and not intends_v:
            self.err(F[0], F[1], path, "claim", Msg("[[intent]] 需要 'claim'（规则必须回答“是”的问题）"
                                                    "或 'intends'（规则书写明是设计如此的问题）",
                                                    "[[intent]] needs a 'claim' (a question the rules must answer yes) "
                                                    "or 'intends' (the findings the rule book documents as designed)"))
        if ident is None:
            return
        if not INTENT_ID.match(ident):
            self.err(F[0], F[1], path + ("id",), "id",
                     Msg("意图的 id {id} 必须是用 '-' 连起来的小写词（例如 'youdishenru-own-send-phase'）",
                         "intent id {id} must be lower-case words joined by '-' (e.g. 'youdishenru-own-send-phase')",
                         id=_q(ident)))
            return
        if ident in self.intents:
            self.err(F[0], F[1], path + ("id",), "id", Msg("意图的 id {id} 重复（第一次在 {at}）",
                                                           "duplicate intent id {id} (first at {at})",
                                                           id=_q(ident), at=str(self.intents[ident].loc)))
            return
        it = Intent(ident, (claim or "").strip(), (source or "").strip(), self._loc(F, path), severity, text,
                    tuple(intends), {k: self._loc(F, path + (k,)) for k in e})
        self.intents[ident] = it
        self._pending.append(("intent", F, path, it))

    def _gives(self, F, path, e, owner, is_card):
        gl = e.get("gives")
        if gl is None:
            return
        if not isinstance(gl, list):
            self.err(F[0], F[1], path + ("gives",), "gives", Msg("'gives' 必须是表数组：写成 [[…gives]]",
                                                                 "'gives' must be an array of tables: write [[…gives]]"))
            return
        if self._long(F, path, e, "gives"):
            return
        for i, g in enumerate(gl):
            gp = path + ("gives", i)
            what = "[[gives]]"
            if not isinstance(g, dict):
                self.err(F[0], F[1], gp, "gives", Msg("'gives' 的每一项都必须是表", "each gives entry must be a table"))
                continue
            self._keys(F, gp, g, GIVE_KEYS, what)
            grant = self._get(F, gp, g, "grant", str, what, required=True)
            to = self._get(F, gp, g, "to", str, what, required=True, default="self")
            if to not in ("self", "target", "others", "all"):
                self.err(F[0], F[1], gp + ("to",), "to", Msg("'to' 必须是 'self'、'target'、'others' 或 'all'，不能是 {v}{dym}",
                                                             "'to' must be self, target, others or all, not {v}{dym}",
                                                             v=_q(to), dym=_dym(to, ('self', 'target', 'others', 'all'))))
            per_turn = self._get(F, gp, g, "per_turn", int, what, default=1)
            if per_turn < 1:
                self.err(F[0], F[1], gp + ("per_turn",), "per_turn", Msg("'per_turn' 至少是 1", "per_turn must be at least 1"))
            args = self._get(F, gp, g, "args", dict, what, default={})
            at_v = g.get("at", [])
            at_v = [at_v] if isinstance(at_v, str) else at_v
            at = []
            if not isinstance(at_v, list) or not all(isinstance(x, str) for x in at_v) or ("at" in g and not at_v):
                # (an empty list is no window at all: the site would never hand its grant out; leave 'at' out for any)
                self.err(F[0], F[1], gp + ("at",), "at", Msg("'at' 必须是一个时机或非空的时机列表（不写 'at'：任何时机）",
                                                             "'at' must be a window or a non-empty list of windows (no "
                                                             "'at': any window)"))
            else:
                for w in at_v:
                    if w == "turn_end":
                        # the turn end drops grants (lifetimes) and hands out nothing: the server deals no grant there
                        self.err(F[0], F[1], gp + ("at",), "at",
                                 Msg("回合结束时不给出技能（回合结束只移除本回合的技能）：换一个时机{one}",
                                     "no grant is handed out at the turn end (it only drops this turn's grants): name "
                                     "another window{one}", one=_one_of(x for x in T.WINDOWS if x != 'turn_end')))
                    elif w not in T.WINDOWS:
                        self.err(F[0], F[1], gp + ("at",), "at",
                                 Msg("未知的时机 {w}{dym}{one}", "unknown window {w}{dym}{one}", w=_q(w),
                                     dym=_dym(w, T.IDLE_POINTS + ('receive', 'draw')),
                                     one=_one_of(x for x in T.WINDOWS if x != 'turn_end')))
                    else:
                        at.append(w)
            on = self._get(F, gp, g, "on", str, what, default="any")
            if on not in T.EVENTS:
                self.err(F[0], F[1], gp + ("on",), "on", Msg("未知的事件 {v}{dym}{one}", "unknown event {v}{dym}{one}",
                                                             v=_q(on), dym=_dym(on, T.EVENTS), one=_one_of(T.EVENTS)))
            if grant is None:
                continue
            with_grant = self._get(F, gp, g, "with", str, what, default=None)
            give = Give(giver=owner.id, giver_is_card=is_card, grant=grant, to=to, when=E.Lit(True),
                        per_turn=per_turn, args=dict(args), where=None, loc=self._loc(F, gp), index=i, at=tuple(at), on=on,
                        with_grant=with_grant)
            owner.gives.append(give)
            self._pending.append(("give", F, gp, (give, g)))
        self._pair_gives(F, path, owner)

    def _pair_gives(self, F, path, owner):
        """``with``: two sites of one giver handed out at once (禁闭's invalidation and ban), the partner named by
        its grant (table order does not matter). Either may name the other; the pair is made mutual, and a site
        belongs to one pair. Both go to one receiver: the traces hold that (interp.trace._uncoupled), whatever each
        site's ``to`` allows."""
        for g in owner.gives:
            if g.with_grant is None or g.together is not None:
                continue
            gp = path + ("gives", g.index, "with")
            others = [o for o in owner.gives if o is not g and o.grant == g.with_grant]
            if len(others) != 1:
                grants = sorted({o.grant for o in owner.gives if o is not g})
                self.err(F[0], F[1], gp, "with",
                         Msg("'with' 要写同一给出者另一个给出处给出的技能（恰好一个）：{v} {why}{one}",
                             "'with' names the grant of exactly one other gives site of the same giver: {v} {why_en}{one}",
                             v=_q(g.with_grant), why="没有这样的给出处" if not others else "有多个",
                             why_en="is handed out by none" if not others else "by several",
                             one=_one_of(grants) if grants else ""))
                g.with_grant = None
                continue
            other = others[0]
            if other.with_grant not in (None, g.grant):
                self.err(F[0], F[1], gp, "with", Msg("给出 {o} 的给出处已经与 {k} 同时给出：一个给出处只能与一个同时给出",
                                                     "the site handing out {o} is already handed out with {k}: a site "
                                                     "pairs with one other", o=_q(other.grant), k=_q(other.with_grant)))
                g.with_grant = None
                continue
            if {g.to, other.to} == {"self", "others"}:
                self.err(F[0], F[1], gp, "with", Msg("同时给出的两个给出处要能给同一个人，但一个只给自己（'self'）、另一个只给别人（'others'）",
                                                     "sites handed out together go to one player, but one goes to the "
                                                     "giver alone ('self') and the other to other players only ('others')"))
                g.with_grant = None
                continue
            if g.at and other.at and not set(g.at) & set(other.at):
                self.err(F[0], F[1], gp, "with", Msg(
                    "同时给出的两个给出处没有共同的时机：'at' = {a} 与 {o} 的 'at' = {b}",
                    "sites handed out together share no window: 'at' = {a} here and 'at' = {b} at {o}'s site",
                    a=_q(list(g.at)), b=_q(list(other.at)), o=_q(other.grant)))
                g.with_grant = None
                continue
            g.together, other.together = other.index, g.index
            other.with_grant = g.grant
            # handed out at one moment: each in the windows both allow (a site without 'at' takes its partner's)
            both = tuple(w for w in g.at if w in other.at) if g.at and other.at else (g.at or other.at)
            g.at = other.at = both
