"""Load and validate catalogue files.

Every problem in every file is collected — each with its file, line and key and, where a name is
misspelt, the nearest valid one — and raised together as ``CatalogueErrors``. No input makes the loader
raise anything else.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import expr as E
from . import kinds as K
from . import turn as T
from . import limits as L
from . import tomlsafe
from . import vocab as V
from .catalogue import Card, Catalogue, Character, Give, Intends, Intent, Loc, Rule, Rules
from .locate import line_of, locate
from .link import EFFECT_KEYS, Linker, _dym, _q, _tname  # noqa: F401  (EFFECT_KEYS: the table keys, listed here too)
from .names import escape, shown, suggestion_budget


@dataclass(frozen=True, order=True)
class CatalogueError:
    file: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        # one line whatever the input held: control and invisible characters are shown escaped
        key = f" [{escape(self.key)}]" if self.key else ""
        return f"{escape(self.file)}:{self.line}:{key} {escape(self.message)}"


class CatalogueErrors(Exception):
    """Every problem of a catalogue. ``causes`` (files that cannot be read) come first; ``hidden`` counts
    the errors left out because they only follow from those files not being read (``unreadable``)."""

    def __init__(self, errors, causes=(), hidden: int = 0, unreadable=()):
        causes = sorted(set(causes))
        self.errors = causes + [e for e in sorted(set(errors)) if e not in causes]
        self.hidden = hidden
        self.unreadable = list(unreadable)
        super().__init__("\n".join([str(e) for e in self.errors] + self.folded_lines()))

    def folded_lines(self) -> list[str]:
        if not self.hidden:
            return []
        u = [escape(n) for n in self.unreadable]
        names = f"{', '.join(u[:-1])} and {u[-1]}" if len(u) > 1 else u[0]
        return [f"({self.hidden} further error{'s' if self.hidden != 1 else ''} hidden: "
                f"{'they follow' if self.hidden != 1 else 'it follows'} from {names} not being readable)"]


def shipped_path() -> Path:
    """The directory of the shipped catalogue of the real game."""
    return Path(str(resources.files("skillproof.model").joinpath("catalogue")))


def catalogue_files(paths, errors: list | None = None) -> list[Path]:
    """Expand paths (files or directories) into the TOML files to read, in a stable order: a directory is
    read recursively, its files in sorted relative-path order (``cards.toml`` before
    ``characters/a_fu_luo_la.toml`` before ``rules.toml``); names starting with a dot are skipped.

    What a symbolic link inside a directory leads to outside that directory is not read: each such file is
    named in ``errors`` (when given) instead."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found = {}
            for q in p.rglob("*.toml"):
                rel = q.relative_to(p)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                away = link_out_of(q, p)
                if away is not None:
                    if errors is not None:
                        errors.append(CatalogueError(display_name(q), 1, "",
                                                     f"a symbolic link out of the catalogue directory (to {away}); "
                                                     "not read — copy the file in or name it on the command line"))
                    continue
                if q.is_file():
                    found[rel.as_posix()] = q
            out.extend(found[k] for k in sorted(found))
        else:
            out.append(p)
    return out


def link_out_of(path: Path, directory: Path) -> str | None:
    """Where ``path`` leads if it is a symbolic link to something outside ``directory``, else None."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve(strict=False)
        base = directory.resolve(strict=False)
    except (OSError, RuntimeError):         # a link loop
        return "a loop of links"
    if target.parent == base or base in target.parents:
        return None
    return shown(str(target), 80)


def read_limited(path: Path, name: str) -> tuple[bytes | None, CatalogueError | None]:
    """A catalogue file's bytes, read only if it is a regular file within the size limit."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            return None, CatalogueError(name, 1, "", f"{kind}, not a catalogue file")
        if st.st_size > L.FILE_BYTES:
            return None, CatalogueError(name, 1, "", f"the file is {st.st_size:,} bytes; the limit is "
                                                     f"{L.FILE_BYTES:,} (see docs/catalogue-format.md § Limits)")
        with open(path, "rb") as fh:
            raw = fh.read(L.FILE_BYTES + 1)
        if len(raw) > L.FILE_BYTES:
            return None, CatalogueError(name, 1, "", f"the file is over {L.FILE_BYTES:,} bytes (the limit)")
        return raw, None
    except FileNotFoundError:
        return None, CatalogueError(name, 1, "", "no such file")
    except OSError as e:
        return None, CatalogueError(name, 1, "", f"cannot read: {e.strerror}")


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
            raise CatalogueErrors(errors or [CatalogueError(escape(str(p)), 1, "", "no .toml catalogue files here")
                                             for p in paths])
        if len(files) > L.FILES:
            raise CatalogueErrors([CatalogueError(display_name(files[L.FILES], shipped), 1, "",
                                                  f"{len(files):,} catalogue files; the limit is {L.FILES:,}")])
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
            raise CatalogueErrors(errors + [CatalogueError(name, 1, "", f"the catalogue is over {L.TOTAL_BYTES:,} "
                                                                        "characters in all (the limit)")])
    b = _Builder()
    with suggestion_budget():          # "did you mean" stays fast however many names are wrong
        for name, text in docs:
            if text.startswith("\ufeff"):
                errors.append(CatalogueError(name, 1, "", "the file starts with a UTF-8 byte-order mark (BOM), "
                                                          "which TOML does not allow: save it as UTF-8 without BOM"))
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
        named = set(_QUOTED.findall(e.message.split(" — did you mean")[0]))
        if e.file not in unreadable and e.key != "id" and named & defined:
            hidden += 1
        else:
            kept.append(e)
    return kept, causes, hidden, sorted(unreadable)


def _not_utf8(name: str, raw: bytes, e: UnicodeDecodeError) -> CatalogueError:
    line = raw.count(b"\n", 0, e.start) + 1
    guess = ""
    try:
        raw.decode("gb18030")
        guess = "; it reads as GBK/GB18030 — save it as UTF-8"
    except UnicodeDecodeError:
        pass
    return CatalogueError(name, line, "", f"not UTF-8 text ({e.reason} at byte {e.start}){guess}")


# ------------------------------------------------------------------------------------------ schema
TOP_KEYS = {"rules", "card", "character", "skill", "grant", "intent", "meta"}
RULES_KEYS = {"seats", "min_seats", "draw_base", "turn_end", "must_beats_cannot", "face_down_converts", "face_down_grant_converts",
              "must_receive", "skip_fight", "skip_dying", "lock_self"}
#: the values the list-valued [rules] keys take (each at most once, in any order)
RULES_SETS = {"must_receive": ("sender", "turn", "locked"), "skip_fight": ("skills_gone", "can_use"),
              "skip_dying": ("skills_gone", "can_use")}
CARD_KEYS = {"id", "name", "aliases", "text", "gives", "phases", "windows"}
CARD_PHASES = T.IDLE_POINTS
CHAR_KEYS = {"id", "name", "hidden", "female", "skills", "origin", "aliases", "text"}
RULE_KEYS = {"id", "name", "aliases", "kinds", "initial", "text", "flips", "consumed", "limit", "trigger",
             "fight", "dying", "convert", "ban", "receive", "send", "draw", "win", "result", "gives", "origin",
             "plays", "windows", "replaces_role", "fires"}
GRANT_KEYS = RULE_KEYS | {"lifetime", "params"}
GIVE_KEYS = {"grant", "to", "when", "per_turn", "args", "where", "at", "on"}
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
            self.errors.append(CatalogueError(name, 1, "", f"the file is over {L.FILE_BYTES:,} characters (the limit)"))
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
                self.err(name, locs, (k,), k, f"unknown top-level table {_q(k)}{_dym(k, TOP_KEYS)}")
        if "meta" in data and not isinstance(data["meta"], dict):
            self.err(name, locs, ("meta",), "meta", "[meta] must be a table")
        if "rules" in data:
            self._rules(F, data["rules"])
        for table, fn in (("card", self._card), ("character", self._character), ("skill", self._rule),
                          ("grant", self._rule), ("intent", self._intent)):
            if table not in data:
                continue
            arr = data[table]
            if not isinstance(arr, list):
                self.err(name, locs, (table,), table, f"'{table}' must be an array of tables: write [[{table}]]")
                continue
            for i, entry in enumerate(arr):
                path = (table, i)
                if not isinstance(entry, dict):
                    self.err(name, locs, path, table, f"each [[{table}]] must be a table")
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
                self.err(F[0], F[1], path + (k,), k, f"unknown key {_q(k)} in {what}{_dym(k, allowed)}")

    def _get(self, F, path, entry, key, typ, what, required=False, default=None):
        if key not in entry:
            if required:
                self.err(F[0], F[1], path, key, f"{what} is missing required key '{key}'")
            return default
        v = entry[key]
        ok = isinstance(v, typ) and not (typ is int and isinstance(v, bool))
        if not ok:
            want = {str: "a string", bool: "true or false", int: "an integer", list: "a list",
                    dict: "a table"}.get(typ, str(typ))
            self.err(F[0], F[1], path + (key,), key, f"'{key}' must be {want}, not {_tname(v)}")
            return default
        return v

    _TABLE_LIMITS = {"card": ("cards", L.CARDS), "character": ("characters", L.CHARACTERS),
                     "skill": ("skills and grants", L.RULES), "grant": ("skills and grants", L.RULES),
                     "intent": ("intents", L.INTENTS)}
    _LIST_LIMITS = {"aliases": L.ALIASES, "skills": L.SKILLS_PER_CHARACTER, "gives": L.GIVES_PER_RULE,
                    "win": L.EFFECTS_PER_RULE, "result": L.EFFECTS_PER_RULE, "params": L.PARAMS_PER_GRANT}

    def _too_many(self, F, path, table) -> bool:
        """Is the catalogue already at its limit of ``table`` entries? (Said once, where it is passed.)"""
        what, limit = self._TABLE_LIMITS[table]
        have = {"card": len(self.cards), "character": len(self.characters),
                "intent": len(self.intents)}.get(table, len(self.skills))
        if have < limit:
            return False
        self.dropped = True                   # what is left out would show up as unknown names
        if what not in self._said:
            self._said.add(what)
            self.err(F[0], F[1], path, table, f"more than {limit:,} {what} in the catalogue (the limit; "
                                              "see docs/catalogue-format.md § Limits)")
        return True

    def _long(self, F, path, entry, key) -> bool:
        """Does ``entry[key]`` hold more items than its limit allows? (Reported.)"""
        v = entry.get(key)
        limit = self._LIST_LIMITS[key]
        if isinstance(v, (list, dict)) and len(v) > limit:
            self.err(F[0], F[1], path + (key,), key, f"'{key}' has {len(v):,} entries; the limit is {limit}")
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
                self.err(F[0], F[1], path + (key,), key, f"'{key}' must list strings, found {_tname(x)}")
                return None
        return tuple(v)

    # ------------------------------------------------------------------------------------ tables
    def _rules(self, F, data):
        path = ("rules",)
        if not isinstance(data, dict):
            self.err(F[0], F[1], path, "rules", "[rules] must be a table")
            return
        if self.rules_seen:
            self.err(F[0], F[1], path, "rules", f"[rules] is given twice (first at {self.rules_seen})")
            return
        self.rules_seen = self._loc(F, path)
        self._keys(F, path, data, RULES_KEYS, "[rules]")
        r = self.rules
        r.loc = self.rules_seen
        r.key_locs = {k: self._loc(F, path + (k,)) for k in data}
        seats = self._get(F, path, data, "seats", int, "[rules]", default=r.seats)
        if not 2 <= seats <= 9:
            self.err(F[0], F[1], path + ("seats",), "seats", f"seats must be between 2 and 9, not {seats}")
        r.seats = seats
        low = self._get(F, path, data, "min_seats", int, "[rules]", default=r.min_seats)
        if not 1 <= low <= seats:
            self.err(F[0], F[1], path + ("min_seats",), "min_seats", f"min_seats must be between 1 and seats ({seats}), not {low}")
        r.min_seats = low
        base = self._get(F, path, data, "draw_base", int, "[rules]", default=r.draw_base)
        if base < 0:
            self.err(F[0], F[1], path + ("draw_base",), "draw_base", "draw_base cannot be negative")
        r.draw_base = base
        te = self._strlist(F, path, data, "turn_end", "[rules]")
        if te is not None:
            for step in te:
                if step not in TURN_END_STEPS:
                    self.err(F[0], F[1], path + ("turn_end",), "turn_end",
                             f"unknown turn-end step {_q(step)}{_dym(step, TURN_END_STEPS)}")
            if sorted(te) != sorted(TURN_END_STEPS):
                self.err(F[0], F[1], path + ("turn_end",), "turn_end",
                         "turn_end must list each of restore_invalid and drop_one_turn exactly once")
            r.turn_end = te
        r.must_beats_cannot = self._get(F, path, data, "must_beats_cannot", bool, "[rules]",
                                        default=r.must_beats_cannot)
        r.face_down_converts = self._get(F, path, data, "face_down_converts", bool, "[rules]",
                                         default=r.face_down_converts)
        r.face_down_grant_converts = self._get(F, path, data, "face_down_grant_converts", bool, "[rules]",
                                               default=r.face_down_grant_converts)
        r.lock_self = self._get(F, path, data, "lock_self", bool, "[rules]", default=r.lock_self)
        for key, allowed in RULES_SETS.items():
            vals = self._strlist(F, path, data, key, "[rules]")
            if vals is None:
                continue
            bad = [v for v in vals if v not in allowed]
            for v in bad:
                self.err(F[0], F[1], path + (key,), key, f"unknown {key} item {_q(v)}{_dym(v, allowed)}")
            if len(set(vals)) != len(vals):
                self.err(F[0], F[1], path + (key,), key, f"{key} lists an item twice")
            if not bad:
                setattr(r, key, tuple(sorted(set(vals))))

    def _ident(self, F, path, entry, what):
        ident = self._get(F, path, entry, "id", str, what, required=True)
        name = self._get(F, path, entry, "name", str, what, required=True)
        if ident is not None and not ident.strip():
            self.err(F[0], F[1], path + ("id",), "id", "id must not be empty")
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
            self.err(F[0], F[1], path + ("id",), "id", f"duplicate card id {_q(ident)} (first at {self.cards[ident].loc})")
            return
        card = Card(ident, name or ident, loc, aliases, text, windows=windows)
        self.cards[ident] = card
        self._gives(F, path, e, card, True)

    def _windows(self, F, path, e, what) -> dict:
        """``windows = { main = "turn", fight = "anyone" }`` (window -> actor), or the older
        ``phases = ["main"]`` (each window with its default actor, model.turn.WINDOWS)."""
        out: dict = {}
        if "phases" in e and "windows" in e:
            self.err(F[0], F[1], path + ("phases",), "phases", "write either 'windows' or the older 'phases', not both")
        if "phases" in e:
            for ph in self._strlist(F, path, e, "phases", what) or ():
                if ph not in CARD_PHASES:
                    self.err(F[0], F[1], path + ("phases",), "phases",
                             f"unknown phase {_q(ph)}{_dym(ph, CARD_PHASES)} (one of {', '.join(CARD_PHASES)})")
                else:
                    out[ph] = T.WINDOWS[ph].actor
            return out
        w = e.get("windows")
        if w is None:
            return out
        if not isinstance(w, dict):
            self.err(F[0], F[1], path + ("windows",), "windows",
                     "'windows' must be a table of window = actor, e.g. { main = \"turn\", fight = \"anyone\" }")
            return out
        for win, actor in w.items():
            if win not in CARD_PHASES:
                self.err(F[0], F[1], path + ("windows", win), "windows",
                         f"unknown window {_q(win)}{_dym(win, CARD_PHASES)} (one of {', '.join(CARD_PHASES)})")
            elif not isinstance(actor, str) or actor not in T.ACTORS:
                self.err(F[0], F[1], path + ("windows", win), "windows",
                         f"unknown actor {_q(str(actor))} for window {_q(win)}"
                         f"{_dym(actor, T.ACTORS) if isinstance(actor, str) else ''} (one of {', '.join(T.ACTORS)})")
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
            self.err(F[0], F[1], path + ("origin",), "origin", f"origin must be 'server' or 'rulebook', not {_q(origin)}")
        aliases = self._strlist(F, path, e, "aliases", what) or ()
        text = self._get(F, path, e, "text", str, what, default="")
        if ident is None:
            return
        if ident in self.characters:
            self.err(F[0], F[1], path + ("id",), "id",
                     f"duplicate character id {_q(ident)} (first at {self.characters[ident].loc})")
            return
        ch = Character(ident, name or ident, hidden, female, skills or (), self._loc(F, path), origin, aliases, text)
        self.characters[ident] = ch
        if skills:
            seen = set()
            for s in skills:
                if s in seen:
                    self.err(F[0], F[1], path + ("skills",), "skills", f"skill {_q(s)} is listed twice for {ident}")
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
                self.err(F[0], F[1], path + ("kinds",), "kinds", f"unknown kind {_q(k)}{_dym(k, set(K.KINDS) - {'Skill'})}")
            else:
                good_kinds.append(k)
        initial = self._get(F, path, e, "initial", bool, what, default=not is_grant)
        if ident is None:
            return
        if ident in self.skills:
            prev = self.skills[ident]
            self.err(F[0], F[1], path + ("id",), "id",
                     f"duplicate rule id {_q(ident)} (first at {prev.loc}, as a {'grant' if prev.is_grant else 'skill'})")
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
            self.err(F[0], F[1], path + ("limit",), "limit", f"limit must be none, turn or game, not {_q(r.limit)}")
        r.trigger = self._get(F, path, e, "trigger", str, what, default="")
        r.windows = self._windows(F, path, e, what)
        if "windows" in e and not r.has("ActiveSkill"):
            self.err(F[0], F[1], path + ("windows",), "windows", f"'windows' is for ActiveSkills; {ident} is not one")
        if "phases" in e:
            self.err(F[0], F[1], path + ("phases",), "phases", "skills say where they are used with 'windows'")
        r.replaces_role = self._get(F, path, e, "replaces_role", bool, what, default=False)
        r.origin = self._get(F, path, e, "origin", str, what, default="server")
        if r.origin not in ("server", "rulebook"):
            self.err(F[0], F[1], path + ("origin",), "origin", f"origin must be 'server' or 'rulebook', not {_q(r.origin)}")
        if is_grant:
            if "lifetime" not in e:
                self.err(F[0], F[1], path, "lifetime", f"{what} {ident} is missing required key 'lifetime' (turn, until_fired or permanent)")
            r.lifetime = self._get(F, path, e, "lifetime", str, what, default="turn")
            if r.lifetime not in LIFETIMES:
                self.err(F[0], F[1], path + ("lifetime",), "lifetime",
                         f"lifetime must be {', '.join(LIFETIMES)}, not {_q(r.lifetime)}{_dym(r.lifetime, LIFETIMES)}")
            params = {} if self._long(F, path, e, "params") else \
                self._get(F, path, e, "params", dict, what, default={})
            for pn, pt in params.items():
                if not isinstance(pt, str) or pt not in PARAM_TYPES:
                    self.err(F[0], F[1], path + ("params", pn), "params",
                             f"parameter {_q(pn)} has unknown type {_q(pt)} (one of {', '.join(sorted(PARAM_TYPES))})")
                elif pn in E.KEYWORDS or pn in V.PLAYER_ATTRS or pn in V.GLOBALS or pn == "self":
                    self.err(F[0], F[1], path + ("params", pn), "params", f"parameter name {_q(pn)} is reserved")
                else:
                    # a name means one thing across the catalogue: the symbolic state holds one variable per
                    # parameter name for every grant a slot may hold, and questions name arguments by name
                    seen = self.param_seen.setdefault(pn, (pt, ident, self._loc(F, path + ("params", pn))))
                    if seen[0] != pt:
                        self.err(F[0], F[1], path + ("params", pn), "params",
                                 f"parameter {_q(pn)} is a {pt} here but a {seen[0]} in {seen[1]} ({seen[2]}); "
                                 "a parameter name has one type in the whole catalogue: rename one of them")
                    r.params[pn] = pt
        # lattice: kinds vs initial, exclusive kinds
        for m in K.lattice_errors(good_kinds):
            self.err(F[0], F[1], path + ("kinds",), "kinds", f"{ident}: {m}")
        if "fight" in e and r.has("MainPhaseSkill"):
            self.err(F[0], F[1], path + ("fight",), "fight",
                     f"{ident} is a MainPhaseSkill: it can never be used in 争夺阶段, so it takes no 'fight'")
        # parameter tables must match kinds
        for table_key, owners in K.TABLE_KINDS.items():
            has_kind = any(o in r.closure for o in owners)
            if table_key in e and not has_kind:
                self.err(F[0], F[1], path + (table_key,), table_key,
                         f"'{table_key}' belongs to {' / '.join(owners)}, which {ident} is not (kinds = {shown(str(list(kinds)), 120)})")
            if has_kind and table_key not in e:
                need = next(o for o in owners if o in r.closure)
                self.err(F[0], F[1], path, table_key, f"{ident} is a {need} and needs a '{table_key}'")
        for key in ("fight", "dying"):
            if key in e and not r.has("ActiveSkill"):
                self.err(F[0], F[1], path + (key,), key, f"'{key}' is for ActiveSkills; {ident} is not one")
        if "trigger" in e and not r.has("TriggeredSkill"):
            self.err(F[0], F[1], path + ("trigger",), "trigger", f"'trigger' is for TriggeredSkills; {ident} is not one")
        if "fires" in e and not r.has("TriggeredSkill"):
            self.err(F[0], F[1], path + ("fires",), "fires", f"'fires' is for TriggeredSkills; {ident} is not one")
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
                     f"severity must be error, warning or note, not '{severity}'{_dym(severity, INTENT_SEVERITIES)}")
            severity = "warning"
        for key, v in (("claim", claim), ("source", source)):
            if v is not None and not v.strip():
                self.err(F[0], F[1], path + (key,), key, f"'{key}' must not be empty")
        if claim is not None and len(claim) > L.CLAIM_CHARS:
            self.err(F[0], F[1], path + ("claim",), "claim", f"the claim has {len(claim):,} characters; the limit is "
                                                              f"{L.CLAIM_CHARS:,}")
            claim = None
        intends = []
        for x in intends_v:
            m = INTENDS_RE.match(x)
            if not m:
                self.err(F[0], F[1], path + ("intends",), "intends",
                         f"'{x}' is not a check code ('BN001'), a code and a rule ('BN002@TouTian') or a finding "
                         "id ('CV002-fb7e4adcce')")
                continue
            finding = x if m.group("hash") else ""
            intends.append(Intends(m.group("check"), m.group("rule") or "", finding))
        if "claim" not in e and not intends_v:
            self.err(F[0], F[1], path, "claim", "[[intent]] needs a 'claim' (a question the rules must answer yes) "
                                                "or 'intends' (the findings the rule book documents as designed)")
        if ident is None:
            return
        if not INTENT_ID.match(ident):
            self.err(F[0], F[1], path + ("id",), "id",
                     f"intent id '{ident}' must be lower-case words joined by '-' (e.g. 'youdishenru-own-send-phase')")
            return
        if ident in self.intents:
            self.err(F[0], F[1], path + ("id",), "id", f"duplicate intent id '{ident}' (first at {self.intents[ident].loc})")
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
            self.err(F[0], F[1], path + ("gives",), "gives", "'gives' must be an array of tables: write [[…gives]]")
            return
        if self._long(F, path, e, "gives"):
            return
        for i, g in enumerate(gl):
            gp = path + ("gives", i)
            what = "[[gives]]"
            if not isinstance(g, dict):
                self.err(F[0], F[1], gp, "gives", "each gives entry must be a table")
                continue
            self._keys(F, gp, g, GIVE_KEYS, what)
            grant = self._get(F, gp, g, "grant", str, what, required=True)
            to = self._get(F, gp, g, "to", str, what, required=True, default="self")
            if to not in ("self", "target", "others", "all"):
                self.err(F[0], F[1], gp + ("to",), "to", f"'to' must be self, target, others or all, not {_q(to)}{_dym(to, ('self', 'target', 'others', 'all'))}")
            per_turn = self._get(F, gp, g, "per_turn", int, what, default=1)
            if per_turn < 1:
                self.err(F[0], F[1], gp + ("per_turn",), "per_turn", "per_turn must be at least 1")
            args = self._get(F, gp, g, "args", dict, what, default={})
            at_v = g.get("at", [])
            at_v = [at_v] if isinstance(at_v, str) else at_v
            at = []
            if not isinstance(at_v, list) or not all(isinstance(x, str) for x in at_v):
                self.err(F[0], F[1], gp + ("at",), "at", "'at' must be a window or a list of windows")
            else:
                for w in at_v:
                    if w not in T.WINDOWS or w == "turn_end":
                        self.err(F[0], F[1], gp + ("at",), "at",
                                 f"unknown window {_q(w)}{_dym(w, T.IDLE_POINTS + ('receive', 'draw'))} "
                                 f"(one of {', '.join(x for x in T.WINDOWS if x != 'turn_end')})")
                    else:
                        at.append(w)
            on = self._get(F, gp, g, "on", str, what, default="any")
            if on not in T.EVENTS:
                self.err(F[0], F[1], gp + ("on",), "on", f"unknown event {_q(on)}{_dym(on, T.EVENTS)} (one of {', '.join(T.EVENTS)})")
            if grant is None:
                continue
            give = Give(giver=owner.id, giver_is_card=is_card, grant=grant, to=to, when=E.Lit(True),
                        per_turn=per_turn, args=dict(args), where=None, loc=self._loc(F, gp), index=i, at=tuple(at), on=on)
            owner.gives.append(give)
            self._pending.append(("give", F, gp, (give, g)))
