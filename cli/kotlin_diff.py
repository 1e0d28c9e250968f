"""`skillproof diff --kotlin SERVER_REPO BASE HEAD`: the gate on the server's own repository.

Both revisions are taken from git (``git archive``, so a bare repository works too), extracted, checked for a
degraded extraction, reconciled (what became readable is *newly understood*, not a change) and compared:
changed engine rules, changed decisions with witnesses, new and resolved findings — every report format, with
the rules located in the server's Kotlin sources (``src/main/kotlin/…:line``) so code scanning annotates them.

Exit codes: 0 nothing changed (newly understood code does not count); 1 a rule, an engine rule or a decision
changed, or a new finding at or above --fail-on; 2 bad input (no such repository or revision, no role table)
or a degraded extraction, with the reason; 3 inconclusive.
"""
from __future__ import annotations

import dataclasses
import re
import io
import subprocess
import sys
import tarfile
from pathlib import Path

from skillproof.model import lang
from skillproof.model.lang import pick
from skillproof.model.names import shown

from .diff_report import _plain

#: where the server keeps its sources, in the order they are looked for (the first days: src/main/java)
SOURCE_DIRS = ("src/main/kotlin", "src/main/java")


class GateError(Exception):
    """Bad input: one line on stderr, exit 2."""


def side_label(label: str) -> str:
    """BASE / HEAD (旧版 / 新版 in Chinese)."""
    return pick("旧版", "BASE") if label == "BASE" else pick("新版", "HEAD")


def extraction_summary(ex) -> str:
    """What an extraction read, in one line (the progress line of each side)."""
    from skillproof.model.extract.terminal import summary
    return summary(ex)


def _git(repo: str, *args, binary=False):
    try:
        r = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    except FileNotFoundError:
        raise GateError(pick("没有安装 git", "git is not installed")) from None
    if r.returncode != 0:
        msg = r.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GateError(f"git {' '.join(args[:2])}: {msg[-1] if msg else pick('失败', 'failed')}")
    return r.stdout if binary else r.stdout.decode("utf-8", "replace")


def resolve(repo: str, rev: str) -> str:
    """The commit a revision names in ``repo`` (a worktree or a bare repository)."""
    from skillproof.model.catfiles import kind_of
    from skillproof.model.names import shown
    name, shown_rev = shown(repo, 120), shown(rev, 80)      # echoed escaped (newlines, bidi controls) and cut
    kind, why = kind_of(Path(repo))
    if why is not None:
        raise GateError(pick(f"{name}：{why.render('zh')}", f"{name}: {why.render('en')}"))
    if kind != "dir":
        raise GateError(pick(f"{name}：没有这个目录", f"{name}: no such directory"))
    try:
        _git(repo, "rev-parse", "--git-dir")
    except GateError:
        raise GateError(pick(f"{name}：不是 git 仓库", f"{name}: not a git repository")) from None
    if "\x00" in rev or len(rev) > 1000:
        raise GateError(pick(f"{name}：没有这个版本：{shown_rev}", f"{name}: no such revision: {shown_rev}"))
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except GateError:
        raise GateError(pick(f"{name}：没有这个版本：{shown_rev}", f"{name}: no such revision: {shown_rev}")) from None


def materialise(repo: str, commit: str, dest: Path) -> tuple[Path, str]:
    """Write the Kotlin sources of ``commit`` under ``dest``: (the source root, its path in the repository)."""
    for d in SOURCE_DIRS:
        names = _git(repo, "ls-tree", "-r", "--name-only", commit, "--", d).splitlines()
        if any(n.endswith(".kt") for n in names):
            break
    else:
        d = ""
        names = _git(repo, "ls-tree", "-r", "--name-only", commit).splitlines()
        if not any(n.endswith(".kt") for n in names):
            raise GateError(pick(f"{commit[:12]}：代码树中没有 Kotlin 文件（*.kt）",
                                 f"{commit[:12]}: no Kotlin files (*.kt) in the tree"))
    data = _git(repo, "archive", "--format=tar", commit, *([d] if d else []), binary=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        members = [m for m in tf.getmembers() if m.isfile() and m.name.endswith(".kt")]
        try:
            tf.extractall(dest, members=members, filter="data")
        except TypeError:                                      # pragma: no cover - Python without filters
            tf.extractall(dest, members=members)
    return dest / d if d else dest, (d + "/") if d else ""


def _server_loc(loc: str, prefix: str) -> tuple[str, int]:
    file, _, line = loc.rpartition(":")
    return prefix + file, int(line) if line.isdigit() else 0


def _relocate_refs(refs, locs: dict, prefix: str):
    """Rule references (RuleRef or dict) pointed at the server's source lines instead of the extracted TOML."""
    out = []
    for r in refs:
        rid = r["id"] if isinstance(r, dict) else r.id
        if rid not in locs:                    # a gives site (``giver#index``): at its giver's class
            rid = rid.split("#")[0] if "#" in rid else rid
        if rid not in locs:
            out.append(r)
            continue
        file, line = _server_loc(locs[rid], prefix)
        out.append({**r, "file": file, "line": line} if isinstance(r, dict)
                   else dataclasses.replace(r, file=file, line=line))
    return out


def _engine_zh(ec) -> str:
    """An engine rule change in Chinese (the English is the extractor's ``EngineChange.message``, which adds
    what the server's code says)."""
    from skillproof.checks.diff_text import engine_change, engine_name, engine_value
    with lang.using("zh"):
        if ec.base is None:
            return f"{engine_name(ec.name, ec.key)}：新版的服务器代码新出现了它：{engine_value(ec.head)}"
        if ec.head is None:
            return f"{engine_name(ec.name, ec.key)}：新版的服务器代码不再能读出它（原为 {engine_value(ec.base)}）"
        return engine_change(ec.name, ec.base, ec.head, ec.key)


def named_by_change(ec, hex_=None) -> list:
    """The rules an engine rule's change is about, read from the clauses that differ between the two values (a
    rule's clauses are a list; a plain value has none): a skill the clause tests by its enum constant (``findSkill(
    LENG_XUE_XUN_LIAN)``: the rule the engine exempts or names) or a rule it names by its class or card type
    (``it is CannotPlayCard``: a grant the engine now reads), and, for a result or win pass a clause gained or
    lost, every result or win skill that pass runs (尾声, 比翼双飞 … now apply there, or no longer); for a change of
    a result or win pass itself (where it starts, whom it skips), every skill it runs."""
    if hex_ is None:
        return []
    for pass_, prefix in (("result_pass.", "result.skill."), ("win_pass.", "win.skill.")):
        if ec.name.startswith(pass_):            # the pass itself changed: every skill it runs is affected
            return [n[len(prefix):] for n in sorted(hex_.engine) if n.startswith(prefix)]
    if not isinstance(ec.base, (tuple, list)) or not isinstance(ec.head, (tuple, list)):
        return []
    differ = sorted(str(x) for x in set(ec.base) ^ set(ec.head))
    keys = getattr(hex_, "skill_keys", {}) or {}
    ids = getattr(hex_, "locations", {}) or {}
    out = []
    for c in differ:
        for k in re.findall(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{3,}\b", c):
            if k in keys:
                out.append(keys[k])
        # a rule the clause names by its class or card type (``it is CannotPlayCard``, ``findSkill<JinBi>()``,
        # ``card.type == Wu_Dao``): a rule id of the catalogue the extractor located
        for k in re.findall(r"\b[A-Z]\w*[a-z]\w*\b", c):
            if k in ids:
                out.append(k)
        for label, prefix in (("result pass", "result.skill."), ("win pass", "win.skill.")):
            if re.search(r"(?:^|\W)" + label + r"(?:\W|$)", c):
                out += [n[len(prefix):] for n in sorted(hex_.engine) if n.startswith(prefix)]
    out += _writers(differ, hex_)
    out += _implementers(differ, [str(x) for x in (*ec.base, *ec.head)], hex_)
    return list(dict.fromkeys(x for x in out if x))


def _rules_by_file(locs: dict) -> dict:
    """Server file -> [(line, rule id)] of the rules declared in it (``locs``: rule id -> "file:line")."""
    by_file: dict = {}
    for rid, where in locs.items():
        f, _, ln = str(where or "").rpartition(":")
        if f and ln.isdigit():
            by_file.setdefault(f, []).append((int(ln), rid))
    return by_file


def _implementers(differ, clauses, hex_) -> list:
    """The rules whose class implements a kind of skill a changed clause tests through a local (``checkCanLock`` of
    ``val checkCanLock = skills.lastOrNull { … } as? SendMessageCanLockSkill``: 强硬下令 and 冷血训练's lock are what
    the send check asks then) or names itself (``it is SendMessageCanLockSkill``) — when a few rules do."""
    sources = getattr(hex_, "sources", None) or {}
    locs = getattr(hex_, "locations", None) or {}
    kinds = set()
    for c in differ:
        kinds.update(re.findall(r"\b(?:is|as\?)\s+([A-Z]\w*Skill)\b", c))
        for ident in set(re.findall(r"\b([a-z]\w{3,})\b", c)):
            for d in clauses:
                m = re.match(re.escape(ident) + r"\s*=\s*.*\bas\?\s*([A-Z]\w*)", d)
                if m:
                    kinds.add(m.group(1))
    if not kinds or not sources:
        return []
    by_file = _rules_by_file(locs)
    out = []
    for kind in sorted(kinds):
        pat = re.compile(rb"\bclass\s+(\w+)[^{=]*?:\s*[^{=]*?\b" + re.escape(kind.encode()) + rb"\b")
        found = []
        for rel in sorted(sources):
            if not rel.startswith(("skill/", "card/")) or rel not in by_file:
                continue
            for m in pat.finditer(sources[rel]):
                name = m.group(1).decode()
                if name in locs:
                    found.append((rel, name))
                    continue
                line = sources[rel].count(b"\n", 0, m.start()) + 1
                above = [(ln, rid) for ln, rid in by_file[rel] if ln <= line]
                if above:
                    found.append((rel, max(above)[1]))
        if len({f for f, _ in found}) <= _WRITERS_MAX:
            out += [rid for _, rid in found]
    return out


_FUN_AT = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w<>?,. ]+\.)?(\w+)\s*\(")


def _callers(ec, hex_) -> list:
    """The rules that call the engine function an engine rule is read from (``Game.sortedFrom``'s seat order: 明饵 and
    知音 deal their draws through it): the function declared at or nearest above the rule's line, each call of it
    in a skill's or a card's file named by the rule declared nearest above the call — when a few rules call it (a
    helper every rule calls says nothing of what a change is about)."""
    from skillproof.model.extract.normal import _NOT_RULE_MEMBER
    sources = getattr(hex_, "sources", None) or {}
    locs = getattr(hex_, "locations", None) or {}
    file, _, ln = str(getattr(ec, "where", "") or "").rpartition(":")
    if not file or not ln.isdigit() or file not in sources or file.startswith(("skill/", "card/")):
        return []
    lines = sources[file].split(b"\n")
    name = None
    for i in range(min(int(ln), len(lines)) - 1, max(-1, int(ln) - 40), -1):
        m = _FUN_AT.search(lines[i])
        if m:
            name = m.group(1)
            break
    if name is None or len(name) < 6:
        return []
    by_file = _rules_by_file(locs)
    pat = re.compile(rb"(?<![\w])" + re.escape(name) + rb"\s*\(")
    found = []
    for rel in sorted(sources):
        if not rel.startswith(("skill/", "card/")) or rel not in by_file:
            continue
        data = sources[rel]
        for m in pat.finditer(data):
            if re.search(rb"\bfun\s+[\w<>?,. ]*$", data[max(0, m.start() - 80):m.start()]):
                continue                                 # a declaration of the same name, not a call
            encl = list(_FUN_AT.finditer(data, 0, m.start()))
            if encl and _NOT_RULE_MEMBER.match(encl[-1].group(1).decode()):
                continue                                 # a robot's or a client message's helper
            line = data.count(b"\n", 0, m.start()) + 1
            above = [(l2, rid) for l2, rid in by_file[rel] if l2 <= line]
            if above:
                found.append((rel, max(above)[1]))
    if len({f for f, _ in found}) > _CALLERS_MAX:
        return []
    return [rid for _, rid in found]


#: a function called from more rule files than this is a helper of every rule, which says nothing of what a change
#: is about
_CALLERS_MAX = 12


def _writers(clauses, hex_) -> list:
    """The rules that set a flag an engine rule's changed clause reads (``if discardAfterResolve``: 就计 and the cards
    that keep a used card out of the discard pile set it to false): a compound name of the clause (camelCase, not a
    call) assigned in a skill's or a card's file (``x.name = …``, ``name = …`` in a copy), each write named by the
    rule declared nearest above it in that file (its own class, or the grant class it stands in)."""
    sources = getattr(hex_, "sources", None) or {}
    locs = getattr(hex_, "locations", None) or {}
    names = sorted({m for c in clauses for m in re.findall(r"(?<![\w.])([a-z]+[A-Z]\w*)\b(?!\s*\()", c)
                    if len(m) >= 8} | {m for c in clauses for m in re.findall(r"\.([a-z]+[A-Z]\w*)\b(?!\s*\()", c)
                                       if len(m) >= 8})
    if not names or not sources:
        return []
    by_file = _rules_by_file(locs)
    out = []
    for name in names:
        pat = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"\s*=(?!=)")
        found = []
        for rel in sorted(sources):
            if not rel.startswith(("skill/", "card/")) or rel not in by_file:
                continue
            data = sources[rel]
            for m in pat.finditer(data):
                line = data.count(b"\n", 0, m.start()) + 1
                above = [(ln, rid) for ln, rid in by_file[rel] if ln <= line]
                if above:
                    found.append((rel, max(above)[1]))
        if len({f for f, _ in found}) <= _WRITERS_MAX:       # a flag a few rules set, not a state's common field
            out += [rid for _, rid in found]
    return list(dict.fromkeys(out))


#: a name written in more rule files than this is a common field of the states (whose turn, the message …), which
#: says nothing of what a change is about
_WRITERS_MAX = 6


def engine_entry(ec, prefix: str, hex_=None) -> dict:
    """An engine rule change as a decision change of the report (no witness: the rule itself changed); its rules:
    the engine rule, and the skills its changed clauses are about (``named_by_change``)."""
    from skillproof.model.extract.engine import show_value
    file, line = _server_loc(ec.where, prefix) if ec.where else ("", 0)
    about = []
    from skillproof.model.extract.timing import about_change
    own = getattr((getattr(hex_, "engine", None) or {}).get(ec.name), "about", ()) or ()
    for rid in dict.fromkeys([*own, *named_by_change(ec, hex_), *about_change(ec, hex_), *_callers(ec, hex_)]):
        loc = (getattr(hex_, "locations", {}) or {}).get(rid)
        f2, l2 = _server_loc(loc, prefix) if loc else ("", 0)
        about.append({"id": rid, "name": rid, "file": f2, "line": l2, "change": "affected"})
    from skillproof.checks.diff_clauses import clauses_words, prop_words
    with lang.using("zh"):
        zh_terms = clauses_words(ec.base, ec.head) or prop_words(ec.name, ec.base, ec.head)
    with lang.using("en"):
        en_terms = clauses_words(ec.base, ec.head) or prop_words(ec.name, ec.base, ec.head)
    message, message_en = _engine_zh(ec), ec.message()
    if zh_terms:                       # the changed clauses worded in the game's terms, after the code's own words
        message += f"（按游戏的说法：{zh_terms}）"
    if en_terms:
        message_en += f" (in the game's terms: {en_terms})"
    return {"id": f"engine-{ec.name}", "decision": "engine", "message": message, "message_en": message_en,
            "question": {"engine_rule": ec.name}, "old": {ec.name: show_value(ec.base)},
            "new": {ec.name: show_value(ec.head)}, "values": {"old": _plain(ec.base), "new": _plain(ec.head)},
            "key": ec.key, "how": ec.how, "witness": None,
            "in_game_terms": {"zh": zh_terms, "en": en_terms} if en_terms else None,
            "rules": [{"id": ec.name, "name": ec.name, "file": file, "line": line, "change": "changed"}, *about]}


def run(args) -> int:
    from .exits import error_line
    from skillproof.checks.diff_meaning import TimeSpent
    from skillproof.model.extract.budget import OverBudget
    _ARGS["args"] = args
    try:
        return _run(args)
    except GateError as e:
        sys.stderr.write(error_line(str(e)) + "\n")
        return 2
    except OverBudget as e:
        sys.stderr.write(pick(f"skillproof diff：无法判定：{e.text('zh')}\n", f"skillproof diff: inconclusive: {e.text('en')}\n"))
        return 3
    except TimeSpent as e:                  # a comparison ran into the wall clock's safety net: no verdict
        sys.stderr.write(pick(f"skillproof diff：无法判定：时间预算已用完（{e}）\n", f"skillproof diff: {e}\n"))
        return 3


_ARGS: dict = {}        # the command line of the running gate (its --time-budget)


def _uncompilable(e, rec, bex, hex_) -> int:
    """Exit 3: a value read from the code that the solver has no term for — no verdict, and the code it may come from
    named (the engine rules read apart, the rules whose reading changed), so a reviewer reads it."""
    from skillproof.checks.diff_ids import changed_rules
    where = sorted({f"{ec.name} ({ec.where})" if ec.where else ec.name for ec in rec.engine})
    where += sorted({f"{rid} ({hex_.locations.get(rid) or bex.locations.get(rid, '')})"
                     for rid in changed_rules(rec.base, rec.head) if rid != "[rules]"})   # (engine rules: above)
    what = str(e.value)[:80]
    names = "; ".join(where[:8]) + (" …" if len(where) > 8 else "")
    sys.stderr.write(pick(f"skillproof diff：无法判定：读出的值无法比较（{type(e.value).__name__} {what!r}）；"
                          f"需要人工阅读的代码：{names or '未知'}\n",
                          f"skillproof diff: inconclusive: a value read from the code cannot be compared "
                          f"({type(e.value).__name__} {what!r}); the code to read by hand: {names or 'unknown'}\n"))
    return 3


def vouched_ids(old, new, changed, decision) -> set:
    """The ids whose catalogue difference vouches for their code being read (``unread``): every changed id but those
    differing only by an ``unknown``, and every id a decision change names."""
    unknown_only = _unknown_only(old, new, changed)
    return {i for i in changed if str(i).split("#")[0] not in unknown_only} | \
        {r["id"] for d in decision for r in d.get("rules") or [] if r.get("id")}


def _unknown_only(old, new, ids) -> set:
    """The changed ids whose entries differ only where one side reads ``unknown`` (a condition the extractor did not
    read, the other side's read): such a difference tells nothing of what the code now does, so it vouches for none of
    the rule's code — the changed construct is named unread (UNR001), not passed (seed 12's card_cond-03: 欲擒故纵's
    ban test negated read as an unknown requires, and the gate said nothing)."""
    from skillproof.checks.diff_untold import has_unknown
    from skillproof.model.extract.understood import _meaning
    out = set()
    for rid in ids:
        rid = str(rid).split("#")[0]
        for kind in ("cards", "skills"):
            a, b = getattr(old, kind).get(rid), getattr(new, kind).get(rid)
            if a is None or b is None or not dataclasses.is_dataclass(a) or type(a) is not type(b):
                continue
            fields = [f.name for f in dataclasses.fields(a) if f.name not in ("loc", "key_locs")]
            diff = [f for f in fields if _meaning(getattr(a, f)) != _meaning(getattr(b, f))]
            if diff and all(has_unknown(getattr(a, f)) or has_unknown(getattr(b, f)) for f in diff):
                out.add(rid)
    return out


def _extract_side(label, repo, rev, tmp):
    from skillproof.model.extract import ExtractError, extract
    from skillproof.model.extract.unread import read_tree
    commit = resolve(repo, rev)
    root, prefix = materialise(repo, commit, tmp / label)
    try:
        ex = extract(root, seconds=getattr(_ARGS.get("args"), "time_budget", None), quiet=True)
    except ExtractError as e:
        raise GateError(f"{side_label(label)} ({shown(rev, 80)} = {commit[:12]}): {e}") from None
    read = getattr(ex, "read_texts", None) or {}       # the text each file was read as (quiet: refactors undone)
    ex.sources = {k: read.get(k, v) for k, v in read_tree(root).items()}   # what changed unread: as read
    return commit, prefix, ex


#: what a fact of code the normal form leaves out is about (``model.extract.unread_facts``), in each language
FACT_WORDS = {"face": ("哪些玩家能看到一张牌的牌面", "which players are shown a card's face"),
              "auto": ("机器人或超时的自动应答之后游戏怎样继续", "what play goes on with after a robot's or a timed-out "
                                                           "player's automatic answer"),
              "count": ("何时记一次技能的使用（每回合、每局限用的次数）", "when a use of a skill is counted (what its "
                                                                  "once-a-turn or once-a-game limit counts)"),
              "seats": ("开局的座位数限制（大厅）", "a limit on the table's seats (the lobby's set-up)")}


def unread_findings(bex, hex_, changed_ids, wheres, bpre: str, hpre: str, understood=(),
                    rule_keys=(), cmp=None) -> tuple[list, list]:
    """UNR001 findings (inconclusive) for the rule-bearing Kotlin constructs that changed between the two sides and
    that the extraction did not turn into a catalogue difference; and the same as dicts for the report's diff."""
    from skillproof.checks.findings import Finding, RuleRef
    from skillproof.model.extract.unread import compare, unread
    cmp = cmp if cmp is not None else compare(bex.sources, hex_.sources)
    out, listed = [], []
    for c in unread(cmp, bex, hex_, changed_ids, wheres, understood, rule_keys):
        pre = hpre if c.side == "HEAD" else bpre
        file = pre + c.file
        what = c.where or c.file
        zh_change = {"changed": "改动了", "added": "新增了", "removed": "删去了"}[c.change]
        en_change = c.change
        side_zh = "新版" if c.side == "HEAD" else "旧版"
        fix = "请人工审阅这段改动：它改了什么规则、目录是否需要跟着改；确认后合并（这个问题不能被忽略或写入基线）"
        fix_en = ("have a person read this change — which rule it changes and whether the catalogue must follow — "
                  "before merging (this finding cannot be ignored or accepted in a baseline)")
        if c.what == "code":
            msg = (f"{what}（{file}:{c.line}，{side_zh}）：{zh_change}规则代码，提取器没有把它读成目录的差异——"
                   "门禁无法判定这次改动做了什么")
            msg_en = (f"{what} ({file}:{c.line}, {c.side}): rule code {en_change} that the extraction does not turn "
                      "into a catalogue difference — the gate cannot tell what the change does")
            key = f"unread|{file}|{what}|{c.change}"
        else:
            zh_what, en_what = FACT_WORDS[c.what]
            shown_zh = "；".join(f"{'新版' if sd == 'HEAD' else '旧版'}：`{t}`" for sd, t in c.facts[:4])
            shown_en = "; ".join(f"{sd}: {t}" for sd, t in c.facts[:4])
            msg = (f"{what}（{file}:{c.line}，{side_zh}）：{zh_what}改了（{shown_zh}）——这段代码不是目录能说的，"
                   "门禁无法判定这次改动做了什么")
            msg_en = (f"{what} ({file}:{c.line}, {c.side}): {en_what} changed ({shown_en}) — code the catalogue does "
                      "not say; the gate cannot tell what the change does")
            key = f"unread|{file}|{what}|{c.change}|{c.what}"
        ref = RuleRef(what, what, file, c.line, "unread")
        f = Finding("UNR001", "diff", "error", msg, key=key, rules=[ref],
                    inconclusive=True, message_en=msg_en, fix=fix, fix_en=fix_en,
                    details={"file": file, "line": c.line, "class": c.cls, "method": c.member,
                             "change": c.change, "side": c.side, **({"what": c.what, "facts": [
                                 {"side": sd, "code": t} for sd, t in c.facts]} if c.what != "code" else {})})
        out.append(f)
        listed.append({"id": f.id, **c.to_dict(), "file": file})
    return out, listed


def _first_change(changes: list, rel: str, line: int, head: bool) -> int:
    """The first line that differs in the construct holding ``rel:line`` (HEAD's, or BASE's), 0 when none does."""
    for c in changes:
        if c.what != "code":
            continue
        if head and c.side == "HEAD" and c.file == rel and c.span[0] <= line <= c.span[1]:
            return c.line
        if not head and (c.base_file or c.file) == rel and c.base_span[0] <= line <= c.base_span[1]:
            return c.base_line or c.line
    return 0


def untold_findings(old, new, rule_keys, named_ids, renamed, bex, hex_, bpre: str, hpre: str,
                    changes=()) -> tuple[list, list]:
    """UNR002 findings (inconclusive) for the catalogue differences no decision tells apart (``checks.diff_untold``),
    each located at the Kotlin line its key was read from; and the same as dicts for the report's diff."""
    from skillproof.checks.diff_untold import untold
    from skillproof.checks.findings import Finding, RuleRef
    from skillproof.model.extract.unread import _has_word
    base_all = b"\n".join((getattr(bex, "sources", None) or {}).values())
    head_all = b"\n".join((getattr(hex_, "sources", None) or {}).values())

    def same_name(a: str, b: str) -> bool:           # renamed throughout: gone from HEAD, new in HEAD
        return not _has_word(head_all, a) and not _has_word(base_all, b)
    out, listed = [], []
    for u in untold(old, new, rule_keys, named_ids, renamed, same_name):
        ex, pre, cat = (hex_, hpre, new) if u.side == "new" else (bex, bpre, old)
        rid = u.id if u.side == "new" else (renamed or {}).get(u.id, u.id)
        lines = (getattr(ex, "key_lines", None) or {}).get(rid) or {}
        paths = sorted((p for p in lines if p and p[0] == u.key), key=repr)
        where = lines[paths[0]] if paths else (ex.locations or {}).get(rid, "")
        file, line = _server_loc(where, pre) if where else ("", 0)
        line = _first_change(changes, file[len(pre):], line, u.side == "new") or line
        name = cat.name_of(rid)
        was = u.old or "none"
        now = u.new or "none"
        loc = f"{file}:{line}" if file else rid
        msg = (f"{name}（{loc}）：目录的 `{u.key}` 改了（旧版：`{was}`；新版：`{now}`），但没有一个判定能把两个版本区分开"
               "——改动挨着 `unknown`、在 `prose` 步骤里或在 `unknown` 条件下；门禁无法判定这次改动做了什么")
        msg_en = (f"{name} ({loc}): the catalogue's {u.key} changed (BASE: {was}; HEAD: {now}) but no decision tells "
                  "the two versions apart — the change lies beside an unknown, in a prose step or under an unknown "
                  "condition; the gate cannot tell what the change does")
        fix = "请人工审阅这段改动：它在游戏中改变了什么；确认后合并（这个问题不能被忽略或写入基线）"
        fix_en = ("have a person read this change — what it changes in play — before merging (this finding cannot be "
                  "ignored or accepted in a baseline)")
        f = Finding("UNR002", "diff", "error", msg, key=f"untold|{u.id}|{u.key}|{u.ident}",
                    rules=[RuleRef(rid, name, file, line, "untold")], inconclusive=True, message_en=msg_en, fix=fix,
                    fix_en=fix_en, details={"rule": rid, "key": u.key, "old": u.old, "new": u.new, "file": file,
                                            "line": line, "side": "HEAD" if u.side == "new" else "BASE"})
        out.append(f)
        listed.append({"id": f.id, "rule": rid, "key": u.key, "old": u.old, "new": u.new, "file": file, "line": line})
    return out, listed


def _run(args) -> int:
    from skillproof.checks.diff import Differ, changed_list
    from skillproof.checks.enc.state import Uncompilable
    from skillproof.model.extract.degraded import degradation, undecided
    from skillproof.model.extract.understood import reconcile
    from skillproof.model.loader import CatalogueErrors, load
    from skillproof.reports.model import Report

    from .cmd_check import run_checks
    from .exits import error_line
    from .diff_report import finish, inconclusive_findings, question, told
    from skillproof.model.signals import temporary_directory
    repo = args.kotlin
    with temporary_directory("skillproof-gate-") as td:      # made and removed whole, whenever a signal comes
        tmp = Path(td)
        sides = {}
        for label, rev in (("BASE", args.old), ("HEAD", args.new)):
            sides[label] = _extract_side(label, repo, rev, tmp)
    (bc, bpre, bex), (hc, hpre, hex_) = sides["BASE"], sides["HEAD"]
    if not args.quiet:
        for label, (c, _p, ex) in sides.items():
            sys.stderr.write(f"{side_label(label)} {c[:12]}{pick('：', ': ')}{extraction_summary(ex)}\n")
    bad = [(label, r) for label, reasons in (("BASE", degradation(bex)),
                                            ("HEAD", degradation(hex_, baseline=undecided(bex),
                                                                 max_increase=args.max_undecided_increase)))
           for r in reasons]
    if bad:
        for label, r in bad:
            commit = bc if label == "BASE" else hc
            sys.stderr.write(error_line(pick(f"{side_label(label)}（{commit[:12]}）的提取不完整：{r}",
                                             f"{label} ({commit[:12]}) extraction is degraded: {r}")) + "\n")
        sys.stderr.write(pick("提取结果不可信；没有比较（退出码 2）\n",
                              "the extractions cannot be trusted; nothing was compared (exit 2)\n"))
        return 2
    names = {}
    for label, (commit, _p, ex) in sides.items():
        try:
            names[label] = load(texts={f"{label}@{commit[:12]}/{n}": t for n, t in ex.files.items()})
        except CatalogueErrors as e:                          # pragma: no cover - degradation() reports it
            raise GateError(pick(f"{side_label(label)}：提取出的目录读不进来：{e.errors[0]}",
                                 f"{label}: the extracted catalogue does not load: {e.errors[0]}")) from None
        ex.catalogue = names[label]
    rec = reconcile(bex, hex_)
    from skillproof.model.extract.unread import compare, same_rule_code
    cmp = compare(bex.sources, hex_.sources)
    rec.engine = [ec for ec in rec.engine if not same_rule_code(ec.name, bex, hex_, cmp)]   # read apart, same code
    from skillproof.checks.diff_meaning import same_engine_value
    same_meaning = [ec for ec in rec.engine if not ec.key and ec.where and
                    same_engine_value(ec.base, ec.head, names["BASE"], names["HEAD"])]
    rec.engine = [ec for ec in rec.engine if ec not in same_meaning]    # read, the same under the catalogues
    old, new = rec.base, rec.head
    try:
        differ = Differ(old, new, n=args.max_seats, G=args.max_grants, timeout_ms=max(1, int(args.timeout * 1000)),
                        rlimit=max(0, args.rlimit))
        changes = differ.changes(per_decision=max(1, args.per_decision))
        possible = differ.possible()
    except KeyError as e:
        raise GateError(pick(f"无法比较：{e} 在两个版本中含义不同（例如技能变成了给出的技能）",
                             f"cannot compare: {e} means different things in the two revisions")) from None
    except Uncompilable as e:
        return _uncompilable(e, rec, bex, hex_)
    args.select, args.ignore = "", ""
    try:
        res_old = run_checks(old, args)
        res_new = run_checks(new, args)
    except Uncompilable as e:
        return _uncompilable(e, rec, bex, hex_)
    locs = {**bex.locations, **hex_.locations}
    keyed = [ec for ec in rec.engine if ec.key and ec.where]
    if keyed:                                  # `[rules]` in a witness: the engine code that changed
        locs["[rules]"] = keyed[0].where
    old_ids = {question(f) for f in res_old.findings}
    new_ids = {question(f) for f in res_new.findings}
    added = [dataclasses.replace(f, rules=_relocate_refs(f.rules, hex_.locations, hpre))
             for f in res_new.findings if question(f) not in old_ids]
    resolved = [dataclasses.replace(f, rules=_relocate_refs(f.rules, bex.locations, bpre))
                for f in res_old.findings if question(f) not in new_ids]
    decision = []
    for c in [*changes, *possible]:
        d = c.to_dict()
        d["rules"] = _relocate_refs(d["rules"], locs, hpre)
        decision.append(d)
    engine = [engine_entry(ec, hpre, hex_) for ec in rec.engine]
    from skillproof.checks.diff_rules import entry as rule_entry, rule_changes
    rule_changes_ = rule_changes(old, new, differ.renamed)
    rules_changed = [rule_entry(ch, old, new, _key_line(ch, bex, hex_, bpre, hpre)) for ch in rule_changes_]
    inconc = inconclusive_findings(differ.inconclusive, args)
    changed_ids = vouched_ids(old, new, differ.changed, decision)
    rule_keys = {(ch.id, ch.key) for ch in rule_changes_}
    wheres = [ec.where for ec in rec.engine + same_meaning if ec.where] + \
        [u.where for u in rec.understood if u.where]
    unr, unread_list = unread_findings(bex, hex_, changed_ids, wheres, bpre, hpre, {u.id for u in rec.understood},
                                       rule_keys, cmp)
    named = {r.get("id") for d in decision for r in d.get("rules") or []} | \
        {r.id for f in added for r in f.rules}
    unt, untold_list = untold_findings(old, new, rule_keys, {str(i).split("#")[0] for i in named if i},
                                       differ.renamed, bex, hex_, bpre, hpre, cmp.changes)
    unr += unt
    understood = [u.to_dict() for u in rec.understood]
    for u in understood:
        if u["where"]:
            u["where"] = "{}:{}".format(*_server_loc(u["where"], hpre))
    report = Report(findings=added + inconc + unr, catalogue_files=list(new.files), families=list(res_new.families),
                    fail_on=args.fail_on, title="skillproof diff --kotlin",
                    extra={"diff": {"old": [f"{shown(args.old, 80)} ({bc[:12]})"], "new": [f"{shown(args.new, 80)} ({hc[:12]})"],
                                    "allow_changes": args.allow_changes,
                                    "revisions": {"base": bc, "head": hc},
                                    "changed_rules": changed_list(old, new, differ.changed),
                                    "resolved": [told(f, old) for f in resolved],
                                    "decision_changes": engine + rules_changed + decision,
                                    "newly_understood": [u for u in understood if u["change"] == "newly understood"],
                                    "no_longer_understood": [u for u in understood
                                                             if u["change"] == "no longer understood"],
                                    "unread_code": unread_list,
                                    "untold": untold_list,
                                    "extraction": {label: {**{k: v for k, v in ex.stats.items() if k != "seconds"
                                                              and k != "source"},
                                                           "undecided": undecided(ex)}
                                                   for label, (_c, _p, ex) in sides.items()}}},
                    stats={"solver_queries": res_new.stats.get("queries", 0)})
    return finish(report, args, new, bool(changes or engine or possible or rules_changed))


def _key_line(ch, bex, hex_, bpre: str, hpre: str):
    """(file, line) of the server's Kotlin that a changed key of a rule was read from (HEAD's; BASE's when gone)."""
    ex, pre = (hex_, hpre) if ch.side == "new" else (bex, bpre)
    lines = (getattr(ex, "key_lines", None) or {}).get(ch.id) or {}
    where = lines.get(ch.path) or (ex.locations or {}).get(ch.id)
    return _server_loc(where, pre) if where else None
