"""Configuration files: ``[tool.skillproof]`` in ``pyproject.toml`` or a ``skillproof.toml``.

The file is found from the working directory upwards (the first directory holding a ``skillproof.toml``, or
a ``pyproject.toml`` with a ``[tool.skillproof]`` table; ``skillproof.toml`` wins when a directory has
both), or named with ``--config FILE``; ``--no-config`` ignores every file. Its keys are the long options of
the commands, spelt the same (``fail-on``, ``max-seats``, …); they become the commands' defaults, so a flag
on the command line always overrides them. Paths in the file are relative to the file's directory.
Every problem is reported as ``file:line: [key] message`` with exit code 2.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .model.errtext import BOM, not_utf8, os_reason
from .model.locate import line_of, locate
from .model.msg import Msg
from .optvalues import RANGES, problem as value_problem, schema_of
from .model.names import did_you_mean, nearest

CONFIG_NAME = "skillproof.toml"
PYPROJECT = "pyproject.toml"
FAIL_ON = ["error", "warning", "note", "none"]

# key -> (JSON Schema of its value, what it sets)
KEYS: dict[str, tuple[dict, str]] = {
    "paths": ({"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
              "catalogue files or directories (relative to this file); default: the shipped catalogue"),
    "select": ({"type": "array", "items": {"type": "string", "minLength": 1}},
               "only these check families or codes (e.g. [\"conversion\", \"BN001\"])"),
    "ignore": ({"type": "array", "items": {"type": "string", "minLength": 1}},
               "drop findings of these families or codes"),
    "fail-on": ({"enum": FAIL_ON}, "lowest severity that makes the exit code 1"),
    "baseline": ({"type": "string", "minLength": 1},
                 "the baseline of accepted findings (relative to this file)"),
    "timeout": (schema_of("timeout"), "solver time limit per question, in seconds"),
    "rlimit": (schema_of("rlimit"), "z3 resource limit per question (0 = none)"),
    "max-seats": (schema_of("max-seats"), "seats in the symbolic search"),
    "max-turns": (schema_of("max-turns"), "turns a witness trace may span"),
    "max-grants": (schema_of("max-grants"), "granted skills one player holds at once in the search"),
    "jobs": (schema_of("jobs"), "processes for `check`"),
    "format": ({"type": "string"}, "report format of `check` on standard output or --output"),
    "output-format": ({"type": "array", "items": {"type": "string", "pattern": "^[a-z]+:.+$"}},
                      "extra reports `check` writes in the same run, each \"FORMAT:FILE\" (relative to this file)"),
    "lang": ({"enum": ["zh", "en"]}, "the language of everything written for people: zh (default) or en"),
}

# which keys a command takes, and the argparse dest each key sets there (None: the key's own dest)
COMMAND_KEYS: dict[str, dict[str, str | None]] = {
    "check": {**{k: None for k in KEYS}, "paths": "config_paths", "output-format": "config_output_format"},
    "baseline": {**{k: None for k in ("select", "ignore", "timeout", "rlimit", "max-seats", "max-turns", "max-grants",
                                      "jobs", "lang")}, "paths": "config_paths"},
    "diff": {k: None for k in ("fail-on", "timeout", "rlimit", "max-seats", "max-grants", "jobs", "lang")},
    "catalogue": {"paths": "config_paths", "lang": None},
    "rules": {"lang": None},
    "explain": {**{k: None for k in ("timeout", "rlimit", "max-seats", "max-turns", "max-grants", "jobs", "lang")},
                "paths": "config_paths"},
    "replay": {"paths": "config_paths", "lang": None},
    "extract": {"lang": None},
    "ask": {"paths": "config_paths", "timeout": None, "max-seats": "seats", "max-grants": "grants", "max-turns": None,
            "lang": None},
}
PATH_KEYS = ("paths", "baseline")


class ConfigError(Exception):
    """A configuration file that cannot be used; ``problems`` are located errors (``file:line: [key] message``,
    model.loader.CatalogueError: ``str()`` renders one in the run's language when it is printed). ``lang`` is
    the language the file asks for (its ``lang`` key, when that key is good), else None: a configuration error
    is found before the run's language is settled, and is shown in this one unless ``--lang`` says otherwise."""

    def __init__(self, problems, lang: str | None = None):
        self.problems = list(problems)
        self.lang = lang
        super().__init__()

    def __str__(self) -> str:
        return "\n".join(map(str, self.problems))


def _problem(name: str, line: int, key: str, msg):
    from .model.loader import CatalogueError
    return CatalogueError(name, line, key, msg)


@dataclass
class Config:
    path: str                                  # the file, as shown in messages
    values: dict = field(default_factory=dict)   # key -> value, paths made relative to the working directory

    def defaults_for(self, command: str) -> dict:
        """argparse defaults for ``command``: {dest: value}."""
        out = {}
        for key, dest in COMMAND_KEYS.get(command, {}).items():
            if key not in self.values:
                continue
            v = self.values[key]
            if key in ("select", "ignore"):
                v = ",".join(v)
            out[dest or key.replace("-", "_")] = v
        return out


def schema() -> dict:
    """The JSON Schema of the ``[tool.skillproof]`` table / a ``skillproof.toml``."""
    from .reports import FORMATS
    props = {}
    for k, (sch, doc) in KEYS.items():
        s = dict(sch)
        if k == "format":
            s = {"enum": list(FORMATS)}
        if k in ("paths", "select", "ignore"):            # a comma-separated string is read too
            s = {"anyOf": [s, {"type": "string", "minLength": 1}]}
        s["description"] = doc
        props[k] = s
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "skillproof configuration ([tool.skillproof] in pyproject.toml, or skillproof.toml)",
            "type": "object", "additionalProperties": False, "properties": props}


def find(start: str | os.PathLike | None = None) -> Path | None:
    """The configuration file that applies in ``start`` (default: the working directory), or None."""
    d = Path(start or os.getcwd()).resolve()
    for p in (d, *d.parents):
        own = p / CONFIG_NAME
        if own.is_file():
            return own
        py = p / PYPROJECT
        if py.is_file() and _has_tool_table(py):
            return py
    return None


def _has_tool_table(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r"^\s*\[\s*tool\s*\.\s*skillproof\s*[\].]", text, re.M) is not None


def shown(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def load(path: str | os.PathLike) -> Config:
    """Read and validate a configuration file; raises ConfigError."""
    path = Path(path)
    name = shown(path)
    from .model.catfiles import path_problem
    from .model import limits as L
    why = path_problem(path)
    if why is not None:
        raise ConfigError([_problem(shown_cut(name), 1, "", why)])
    from .model import readfile as RF
    try:
        raw = RF.read_regular(path, L.FILE_BYTES)
    except RF.NotRead as e:
        if e.why == RF.MISSING:
            msg = Msg("没有这个配置文件", "no such configuration file")
        elif e.why == RF.DIRECTORY:
            msg = Msg("这是一个目录，不是配置文件", "a directory, not a configuration file")
        elif e.why == RF.NOT_REGULAR:     # a FIFO blocked the run; /dev/zero was read until memory ran out
            msg = Msg("不是普通文件（管道、设备……），不是配置文件",
                      "not a regular file (a FIFO, a device …), not a configuration file")
        elif e.why == RF.TOO_BIG:
            msg = Msg("配置文件超过 {n:,} 字节（上限）", "the configuration is over {n:,} bytes (the limit)", n=L.FILE_BYTES)
        else:
            msg = Msg("读不了配置：{why}", "cannot read the configuration: {why}", why=os_reason(e.error))
        raise ConfigError([_problem(name, 1, "", msg)]) from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ConfigError([_problem(name, 1, "", BOM)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError([_problem(name, 1, "", not_utf8(e, with_reason=False))]) from None
    from .model import tomlsafe
    data, bad = tomlsafe.loads(text)          # pre-scanned: nesting and number length bounded, never a RecursionError
    if bad:
        raise ConfigError([_problem(name, bad[0], "", bad[1])])
    locs = locate(text)
    over = tomlsafe.check_values(data, locs)
    if over:
        raise ConfigError([_problem(name, line, key, msg) for line, key, msg in over])
    prefix: tuple = ()
    if path.name == PYPROJECT:
        prefix = ("tool", "skillproof")
        table = data.get("tool", {}).get("skillproof", {}) if isinstance(data.get("tool"), dict) else {}
    else:
        table = data
    where = (lambda *k: line_of(locs, prefix + k))
    if not isinstance(table, dict):
        raise ConfigError([_problem(name, where(), "", Msg("[tool.skillproof] 必须是表", "[tool.skillproof] must be a table"))])
    values, problems = validate(table, name, where)
    if problems:
        raise ConfigError(problems, values.get("lang"))
    base = path.resolve().parent
    for k in PATH_KEYS:
        if k in values:
            values[k] = [ConfigPath(_rel(base, p), name, where(k)) for p in values[k]] if isinstance(values[k], list) \
                else ConfigPath(_rel(base, values[k]), name, where(k))
    if "output-format" in values:
        values["output-format"] = [f"{s.split(':', 1)[0]}:{_rel(base, s.split(':', 1)[1])}"
                                   for s in values["output-format"]]
    return Config(name, values)


class ConfigPath(str):
    """A path the configuration names: a string that knows the configuration line naming it, so that a missing
    path is reported there (``skillproof.toml:3: [paths] …``), not at the path alone."""
    file: str
    line: int

    def __new__(cls, value: str, file: str, line: int):
        obj = super().__new__(cls, value)
        obj.file, obj.line = file, line
        return obj


def shown_cut(name: str) -> str:
    from .model.names import shown as cut
    return cut(name, 200) if len(name) > 200 else name


def _rel(base: Path, p: str) -> str:
    full = (base / p).resolve() if not os.path.isabs(p) else Path(p)
    try:
        rel = os.path.relpath(full)
    except ValueError:
        return str(full)
    return str(full) if rel.startswith("..") else rel


def _choices(values) -> Msg:
    """"a, b, c" / "'a'、'b'、'c'"."""
    vals = list(values)
    return Msg("{zh}", "{en}", zh="、".join(f"'{v}'" for v in vals), en=", ".join(vals))


def validate(table: dict, name: str, where) -> tuple[dict, list]:
    """Check a configuration table against KEYS (the same rules as ``schema()``, with located messages:
    model.loader.CatalogueError, in both languages)."""
    from .reports import FORMATS
    problems: list = []
    out: dict = {}

    def bad(key, msg):
        problems.append(_problem(name, where(key), key, msg))

    for key, v in table.items():
        if key not in KEYS:
            alt = key.replace("_", "-")
            hint = alt if alt in KEYS else nearest(key, KEYS)
            bad(key, Msg("未知的键 '{k}'{more}", "unknown key '{k}'{more}", k=key,
                         more=did_you_mean(f"'{hint}'") if hint else Msg("（可用的键：{c}）", " (keys: {c})", c=_choices(KEYS))))
            continue
        sch = KEYS[key][0]
        typ = sch.get("type")
        if typ == "array":
            if isinstance(v, str) and key in ("select", "ignore", "paths"):
                v = [x.strip() for x in v.split(",") if x.strip()] if key != "paths" else [v]
            if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
                bad(key, Msg("'{k}' 必须是字符串的列表", "'{k}' must be a list of strings", k=key))
                continue
            if sch.get("minItems") and not v:
                bad(key, Msg("'{k}' 不能为空", "'{k}' must not be empty", k=key))
                continue
            if key == "output-format":
                ok = True
                for s in v:
                    fmt, sep, file = s.partition(":")
                    if not sep or not file:
                        bad(key, Msg("'{s}' 不是 '格式:文件'（例如 \"sarif:skillproof.sarif\"）",
                                     "'{s}' is not FORMAT:FILE (e.g. \"sarif:skillproof.sarif\")", s=s))
                        ok = False
                    elif fmt not in FORMATS:
                        hint = nearest(fmt, FORMATS)
                        bad(key, Msg("未知的格式 '{f}'{more}", "unknown format '{f}'{more}", f=fmt,
                                     more=did_you_mean(f"'{hint}'") if hint else
                                     Msg("（可选：{c}）", " (one of {c})", c=_choices(FORMATS))))
                        ok = False
                if not ok:
                    continue
        elif typ == "string" or "enum" in sch or key == "format":
            choices = FORMATS if key == "format" else sch.get("enum")
            if not isinstance(v, str) or not v:
                bad(key, Msg("'{k}' 必须是字符串{c}", "'{k}' must be a string{e}", k=key,
                             c=Msg("（可选：{c}）", "", c=_choices(choices)) if choices else "",
                             e=Msg("", " (one of {c})", c=_choices(choices)) if choices else ""))
                continue
            if choices and v not in choices:
                hint = nearest(v, choices)
                bad(key, Msg("'{v}' 不是 {c} 之一{dym}", "'{v}' is not one of {c}{dym}", v=v, c=_choices(choices),
                             dym=did_you_mean(f"'{hint}'") if hint else ""))
                continue
        elif key in RANGES:                  # the same words as the command line's (cli.optvalues)
            why = value_problem(key, v)
            if why is not None:
                bad(key, why)
                continue
        if key in PATH_KEYS or key == "output-format":
            from .model.catfiles import path_problem
            names = [x.partition(":")[2] for x in v] if key == "output-format" else (v if isinstance(v, list) else [v])
            why = next((w for w in map(path_problem, names) if w is not None), None)
            if why is not None:
                bad(key, why)
                continue
        out[key] = v
    if "select" in out or "ignore" in out:
        from .common import validate_selection
        for key in ("select", "ignore"):
            msg = validate_selection(out.get(key, ()))
            if msg:
                bad(key, msg)
    return out, problems


def take_config_args(argv: list[str]) -> tuple[list[str], str | None, bool]:
    """Remove ``--config FILE`` / ``--config=FILE`` / ``--no-config`` from argv (wherever they stand)."""
    out, path, off = [], None, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            out.extend(argv[i:])
            break
        if a == "--no-config":
            off = True
        elif a == "--config" and i + 1 < len(argv):
            path = argv[i + 1]
            i += 1
        elif a.startswith("--config="):
            path = a.split("=", 1)[1]
        else:
            out.append(a)
        i += 1
    return out, path, off
