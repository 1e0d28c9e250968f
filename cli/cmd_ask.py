"""`skillproof ask`: a designer's question about the rules, answered with a witness or a minimal reason.

The query language is documented in docs/query-language.md. Without a question, an interactive prompt
(history, name completion) keeps the catalogue and the solver warm between questions.
"""
from __future__ import annotations

import json
import os
import sys

from .optvalues import arg_type, nonempty_file
from skillproof.model.lang import pick

from .exits import EXIT_INCONCLUSIVE, EXIT_OK, EXIT_USAGE
from .helpfmt import metavar

NAME = "ask"
HELP = "ask a question about the rules: a witness scenario, or the minimal set of rules that rules it out"
DESCRIPTION = """\
Ask a question about the rules in the query language (docs/query-language.md); names may be Chinese,
pinyin or enum ids, and any detail left out (or written ?) is filled in by the solver.

  skillproof ask "can SP李宁玉 play 截获 as 误导 while 变则通 is active?"
  skillproof ask "if 变则通 declares 截获→破译, can SP李宁玉 use 应变?"
  skillproof ask "always SP李宁玉 play 截获 as 误导 when not invalidated"
  skillproof ask "which conversion fires when anyone plays 截获 as ? under 强令(截获)"
  skillproof ask "can SP李宁玉 play 截获 as 误导 in the main phase?"     # window words fix the moment
  skillproof ask                      # interactive prompt: history, Tab completes names

A question is asked at one moment of a game: each decision where the game takes it (receive in 传递阶段,
a play where the declared card may be used …), or at the window you name ("in the main phase", "at
send-phase start", "when someone is dying", "in 陈大耳's turn", "after 后来人").
Answers: yes (with a minimal witness — a trace of the game's events, told step by step, that the
interpreter runs event by event — and its step-by-step reasoning), no (with the minimal set of
constraints that rules it out, each at its catalogue file:line), or unknown (the solver's reason).
Exit codes: 0 answered yes or no, 2 bad query or input, 3 unknown."""
HELP_ZH = "就规则提一个问题：回答是一个例证局面，或排除它的最小规则集合"
DESCRIPTION_ZH = """\
用提问语言（docs/query-language.md）就规则提问；问题可以用中文或英文写，名字可以是中文、拼音或
枚举名，省略（或写成 ?）的细节由求解器补全。

  skillproof ask "SP李宁玉能否把截获当作误导打出？"
  skillproof ask "如果变则通宣言(截获,破译)，SP李宁玉能否使用应变？"
  skillproof ask "如果不被无效，SP李宁玉总是把截获当作误导打出"
  skillproof ask "在出牌阶段，SP李宁玉能否把截获当作误导打出？"       # 时机词确定提问的时刻
  skillproof ask "在陈大耳的回合，SP李宁玉能否把截获当作误导打出？"
  skillproof ask                      # 交互式提示：有历史记录，Tab 补全名字

问题在游戏的某一时刻提出：游戏作出这个判定的每个时刻（传递阶段的接收、可以使用所宣言的牌的打出
……），或你说出的时机（“在出牌阶段”“在传递阶段开始时”“有人濒死时”“在陈大耳的回合”）。
回答：是（附一个最小例证——游戏事件的轨迹，逐步讲述，由解释器逐个事件运行——以及逐步的推理）、
否（附排除它的最小约束集合，每条约束标出它在目录中的文件:行号），或未知（附求解器的理由）。
退出码：0 回答了是或否，2 问题或输入有误，3 未知。"""

PROMPT_HELP = """\
Type a question, e.g.  can SP李宁玉 play 截获 as 误导 while 变则通 is active?
Tab completes names (Chinese, pinyin, ids) and keywords; ↑/↓ walk the history.
  :json            toggle JSON output            :brief       toggle short answers
  :save FILE       save the last witness as a scenario file (replay it with `skillproof replay FILE`)
  :seats N         seats in the search (now {seats})      :grants N    granted skills per player
  :timeout SECONDS solver timeout per question             :help        this text
  :quit            (or Ctrl-D) leave"""

PROMPT_HELP_ZH = """\
输入一个问题，例如  SP李宁玉能否把截获当作误导使用？
Tab 补全名字（中文、拼音、编号）和关键词；↑/↓ 翻看历史。
  :json            切换 JSON 输出                 :brief       切换简短回答
  :save 文件       把上一个例证存为例证文件（用 `skillproof replay 文件` 重放）
  :seats N         搜索的座位数（现在 {seats}）      :grants N    每名角色获得的技能数
  :timeout 秒数    每个问题的求解时限                 :help        本说明
  :quit            （或 Ctrl-D）离开"""


def add_arguments(p):
    p.add_argument("query", nargs="*", metavar=metavar("QUERY"),
                   help=pick("要问的问题（用引号括起来）；不写：进入交互式提示",
                             "the question (quote it); none: interactive prompt"))
    from .common import add_catalogue_arg
    add_catalogue_arg(p, positional=False)     # the words are the question: the catalogue is -c/--catalogue PATH
    p.add_argument("--json", action="store_true",
                   help=pick('输出 JSON：{"answer": …, "witness": …, "because": […], …}',
                             'JSON: {"answer": …, "witness": …, "because": […], …}'))
    p.add_argument("--brief", action="store_true",
                   help=pick("只给出回答和理由，不逐步讲述", "the answer and its reasons only, no narration"))
    p.add_argument("--seats", type=arg_type("seats", "--seats"), default=None, metavar="N",
                   help=pick("搜索的局面中最多的座位数（默认 3）", "most seats in the searched states (default 3)"))
    p.add_argument("--grants", type=arg_type("grants", "--grants"), default=None, metavar="G",
                   help=pick("所问角色同时获得的技能数上限（默认 2，问题需要时更多）",
                             "most granted skills the player holds at once (default 2, more if the query needs)"))
    p.add_argument("--max-turns", type=arg_type("max-turns", "--max-turns"), default=None, metavar="N",
                   help=pick("例证轨迹最多跨越的回合数：提问所在的回合和它之前的回合（默认 2）",
                             "turns a witness trace may span: the turn of the question and those before it (default 2)"))
    p.add_argument("--timeout", type=arg_type("timeout", "--timeout"), default=None, metavar=metavar("SECONDS"),
                   help=pick("每个问题的求解时限，单位为秒（同 skillproof check）",
                             "solver time limit per question, in seconds (as for `check`)"))
    p.add_argument("--save", type=nonempty_file("--save"), metavar=metavar("FILE"),
                   help=pick("把例证写成例证文件，供 skillproof replay 重放",
                             "write the witness as a scenario file for `skillproof replay`"))
    p.add_argument("--history", type=nonempty_file("--history"), metavar=metavar("FILE"),
                   help=pick("交互式提示的历史文件（默认 ~/.skillproof_history）",
                             "prompt history file (default ~/.skillproof_history)"))
    p.add_argument("--save-intent", type=nonempty_file("--save-intent"), metavar=metavar("FILE"),
                   help=pick("把问题作为一个 [[intent]] 追加到这个文件——从此 skillproof check 证明的一个承诺"
                             "（文件在目录中时与目录一起读入）；需要 --source",
                             "append the question to FILE as an [[intent]] — a promise `skillproof check` proves from "
                             "then on (FILE is read with the catalogue when it lies in it); needs --source"))
    p.add_argument("--intent-id", metavar=metavar("ID"),
                   help=pick("意图的编号（用 '-' 连起来的小写词；默认 'intent-N'，N 是文件中下一个未用的数）",
                             "the intent's id (lower-case words joined by '-'; default intent-N, the next free N in "
                             "FILE)"))
    p.add_argument("--source", metavar=metavar("TEXT"),
                   help=pick("规则书在哪里作出这个承诺：'文件 › 标题 › 技能'",
                             "where the rule book promises it: 'FILE › HEADING › SKILL'"))
    p.add_argument("--text", metavar=metavar("TEXT"),
                   help=pick("用你自己的话写的承诺（可选）", "the promise in your own words (optional)"))
    p.add_argument("--severity", choices=["error", "warning", "note"], default=None,
                   help=pick("规则违反它时问题的级别（默认 warning）",
                             "severity of the finding when the rules break it (default warning)"))


# =========================================================================================== output
def _rule_line(r: dict) -> str:
    loc = f"{r['file']}:{r['line']}" if r.get("file") else ""
    return f"{r['name']}" + (f"  [{loc}]" if loc else "")


def question_title(cat, q: dict) -> str:
    """A decide-form question for people (``model.narrate.question_title``; imported when first needed)."""
    from skillproof.model.narrate import question_title as title
    return title(cat, q)


def trace_lines(cat, traces, indent="  ") -> list[str]:
    out = []
    for t in traces:
        out.append(f"{indent}{question_title(cat, t.question)}")
        out.extend(t.lines(indent + "  "))
    return out


def scenario_lines(cat, witness: dict, indent="  ") -> list[str]:
    from skillproof.model.state import State
    return state_lines_of(cat, State.from_dict(witness["state"]), indent)


def state_lines_of(cat, st, indent="  ") -> list[str]:
    """A state in a few lines, with the moment it stands at (its window) when it has one."""
    from skillproof.model import narrate as N
    from skillproof.model import turn as TW
    from skillproof.model.lang import pick
    out = [indent + x for x in N.state_lines(cat, st)]
    if st.window in TW.WINDOWS:
        w = TW.window_name(st.window)
        if st.window == "dying" and st.interrupted in TW.WINDOWS:
            w += pick(f"（打断{TW.WINDOWS[st.interrupted].zh}）", f" (interrupting the {TW.window_name(st.interrupted)})")
        out.append(indent + pick(f"时机：{w}", f"window: {w}"))
    return out


def render(cat, res, brief: bool = False) -> str:
    """A Result of checks.ask as text, in the run's language."""
    from skillproof.checks.ask.present import reason_text
    from skillproof.model.lang import pick
    out = [res.headline or res.answer]
    if res.query.which is not None and res.query.which.kind in ("events", "order"):   # from the catalogue: no solver
        if res.answer == "unknown":
            out.append(f"  {res.reason}")
        for v in res.values:
            out.append(f"  • {v['name']}  [{v['file']}:{v['line']}]")
        if res.notes:
            out.append(pick("  引擎规则：", "  the engine's rules:") if res.query.which.kind == "events" else
                       pick("  结算顺序（服务器）：", "  the order (the server's):"))
            out.extend(f"    - {n}" for n in res.notes)
        return "\n".join(out) + "\n"
    if res.answer == "unknown" and (res.bounds.get("table") or res.query.again_in == "game"):
        # a table question (the bound, or a part not read), or 再次使用 answered within one turn only
        out.extend(f"  {n}" for n in res.notes)
        return "\n".join(out + _bounds_lines(res)) + "\n"
    if res.answer == "unknown" and not res.bounds and res.engine is None:
        # told from the catalogue, no search ran (下回合 after a premise that outlasts the turn, an effect only prose):
        # the headline says why; no advice on the solver's budget
        return "\n".join(out) + "\n"
    if res.answer == "unknown":
        out.append(pick(f"  求解器无法判定：{reason_text(res.reason)}", f"  the solver could not decide: {res.reason}"))
        out.append(pick("  （调高 --timeout（每个问题的秒数），或减少 --seats / --grants）",
                        "  (raise --timeout — seconds per question — or use fewer --seats / --grants)"))
        return "\n".join(out) + "\n"
    for n in res.notes:
        out.append(pick(f"  注意：{n}", f"  note: {n}"))
    w = res.query.which
    if res.values and w is not None and w.kind == "params":
        out.append("")
        for v in res.values:
            if v["answer"] == "yes":
                out.append(pick(f"  是  {v['name']}", f"  yes  {v['name']}"))
            else:
                why = [b for b in v["because"] if b["kind"] == "decides"]
                reason = why[-1]["says"] if why else (v["because"][0]["says"] if v["because"] else "")
                loc = why[-1]["rules"][0] if why and why[-1]["rules"] else None
                out.append(pick(f"  否  {v['name']}" + (f"——{reason}" if reason else ""),
                                f"  no   {v['name']}" + (f" — {reason}" if reason else ""))
                           + (f"  [{loc['file']}:{loc['line']}]" if loc and loc.get("file") else ""))
        if res.witness is not None and not brief:
            out.append("")
            out.append(pick("一个例子（已由解释器重放）：", "an example (replayed by the interpreter):"))
            out.extend(scenario_lines(cat, res.witness))
            if res.traces:
                out.extend(trace_lines(cat, res.traces))
        out += _bounds_lines(res)
        return "\n".join(out) + "\n"
    if res.values:
        out.append("")
        for v in res.values:
            out.append(f"• {v['name']}")
            if not brief:
                out.extend(scenario_lines(cat, v["witness"], "    "))
                shown = set()
                for t in v["traces"]:
                    for s in [s for s in t.steps if s.decisive][-2:]:
                        line = f"    → {s.text}" + (f"  [{s.loc}]" if s.loc else "")
                        if line not in shown:
                            shown.add(line)
                            out.append(line)
        out += _bounds_lines(res)
        return "\n".join(out) + "\n"
    if res.because:
        out.append("")
        reasons = [b for b in res.because if b["kind"] != "decides"]
        decided = [b for b in res.because if b["kind"] == "decides"]
        if reasons and res.bounds.get("table"):
            out.append(pick("因为（在所问情形发生的每一局里拒绝它的规则）：",
                            "because (the rules that refuse it in every game where the situation happens):"))
            for b in reasons:
                out.append(f"  - {b['says']}")
                for r in b["rules"]:
                    out.append(f"      {_rule_line(r)}")
            reasons = []
        if reasons:
            out.append(pick("因为（决定这个答案的最小约束集合）：", "because (a minimal set of constraints that forces this answer):"))
            for b in reasons:
                out.append(f"  - {b['says']}")
                for r in b["rules"]:
                    out.append(f"      {_rule_line(r)}")
        if decided:
            out.append(pick("判定依据（解释器在满足前提的局面上）：",
                            "decided by (the interpreter, on a state where the givens hold):"))
            for b in decided:
                loc = b["rules"][0] if b["rules"] else None
                out.append(f"  - {b['says']}" + (f"  [{loc['file']}:{loc['line']}]" if loc and loc.get("file") else ""))
    if res.witness is not None and not brief:
        out.append("")
        out.append(pick("例证（已由解释器重放）：", "witness (replayed by the interpreter):") if res.witness_role == "example"
                   else pick("反例（已由解释器重放）：", "counterexample (replayed by the interpreter):"))
        out.extend(scenario_lines(cat, res.witness))
        if res.origin:
            out.append(pick("在游戏中如何发生：", "how it happens in a game:"))
            out.extend(story_lines(res.origin))
        if res.traces:
            out.append(pick("解释器的推理：", "the interpreter's reasoning:"))
            out.extend(trace_lines(cat, res.traces))
    elif res.illustration is not None and not brief and res.bounds.get("table"):
        out.append("")
        out.append(pick("例如（所问的情形发生了，解释器在这里拒绝）：", "for example (the situation happens, and the interpreter "
                                                                  "refuses it here):"))
        out.extend(scenario_lines(cat, res.illustration))
        if res.illustration_origin:
            out.append(pick("在游戏中如何发生：", "how it happens in a game:"))
            out.extend(story_lines(res.illustration_origin))
    elif res.illustration is not None and not brief:
        out.append("")
        out.append(pick("例如（前提成立，所问的情形不成立）：", "for example (the givens hold, the claim does not):")
                   if res.query.mode != "always" else
                   pick("例如（前提成立，所问的情形也成立）：", "for example (the givens hold, and so does the claim):"))
        out.extend(scenario_lines(cat, res.illustration))
        if res.illustration_origin:
            out.append(pick("在游戏中如何发生：", "how it happens in a game:"))
            out.extend(story_lines(res.illustration_origin))
        out.extend(trace_lines(cat, res.illustration_traces))
    out += _bounds_lines(res)
    return "\n".join(out) + "\n"


def story_lines(steps, indent="  ") -> list[str]:
    """How the situation arises (narrate.story), numbered."""
    return [f"{indent}{i}. {s.text}" + (f"  [{s.loc}]" if s.loc else "") for i, s in enumerate(steps, 1)]


def _bounds_lines(res) -> list[str]:
    from skillproof.model.lang import pick
    b = res.bounds
    if not b:
        return []
    t = b.get("turns", 2)
    ms = f"{res.seconds * 1000:.0f} ms"
    if b.get("table"):                         # a table question (checks/ask/table.py): games of the server
        if "seats" not in b:
            return ["", pick(f"（牌桌问题；{ms}）", f"(a table question; {ms})")]
        return ["", pick(f"（牌桌问题，搜索范围：至多{b['seats']}个座位、{t}个回合的服务器牌局，试了{b['templates']}种牌局模板；{ms}）",
                         f"(a table question, searched: games of the server at {b['seats']} seats over up to {t} "
                         f"turn{'s' if t != 1 else ''}, {b['templates']} game template(s) tried; {ms})")]
    return ["", pick(f"（搜索范围：至多{b['seats']}个座位，所问角色至多{b['grants']}个获得的技能，{b['characters']}个候选角色，"
                     f"经过至多{t}个回合；{ms}）",
                     f"(searched: up to {b['seats']} seats, {b['grants']} granted skills on the player, "
                     f"{b['characters']} candidate character(s) for the player, traces of {t} "
                     f"turn{'s' if t != 1 else ''}; {ms})")]


def saved_text(path: str) -> str:
    """The line that says a scenario file was written and how to replay it."""
    from skillproof.model.lang import pick
    return pick(f"例证已写入 {path}（重放：skillproof replay {path}）\n",
                f"scenario written to {path} (replay it with: skillproof replay {path})\n")


def result_json(res) -> dict:
    return res.to_json()


def scenario_file(witness: dict, **extra) -> dict:
    """A witness as a scenario file: its trace (setup + events) and its questions — the final state is
    what the trace makes, so it is not written (an untimed witness keeps its state)."""
    d = {k: v for k, v in witness.items() if not (k == "state" and "trace" in witness)}
    d.update(extra)
    return d


def save_witness(res, path: str) -> str | None:
    """Write the witness (or, for a 'no', the illustration) as a scenario file; None if there is none."""
    w = res.witness if res.witness is not None else res.illustration
    if w is None:
        return None
    from skillproof.model.signals import write_file
    d = scenario_file(w, query=res.query.text)
    write_file(path, json.dumps(d, ensure_ascii=False, indent=2) + "\n")      # whole or not at all (model.signals)
    return path


# ============================================================================================== run
def _session(args, cat):
    from skillproof.checks import ask as Q
    from skillproof.model.msg import Msg

    def between(flag, lo, hi, v):
        return ValueError(Msg("{f} 必须在 {lo} 到 {hi} 之间，不能是 {v}", "{f} must be between {lo} and {hi}, not {v}", f=flag,
                              lo=lo, hi=hi, v=v))
    seats = args.seats if args.seats is not None else Q.DEFAULT_SEATS
    if not 1 <= seats <= cat.rules.seats:
        raise between("--seats", 1, cat.rules.seats, seats)
    if args.grants is not None and not 0 <= args.grants <= 8:
        raise between("--grants", 0, 8, args.grants)
    turns = getattr(args, "max_turns", None)
    if turns is not None and not 1 <= turns <= 4:
        raise between("--max-turns", 1, 4, turns)
    if args.timeout is not None and args.timeout <= 0:
        raise ValueError(Msg("--timeout 必须是正的秒数，不能是 {t:g}", "--timeout must be a positive number of seconds, not {t:g}",
                             t=args.timeout))
    sess = Q.Session(cat, seats=seats, grants=args.grants, turns=turns if turns is not None else Q.DEFAULT_TURNS,
                     timeout_ms=max(1, int(args.timeout * 1000)) if args.timeout is not None else Q.DEFAULT_TIMEOUT_MS)
    sess.games = True                  # a witness is a game of the server where one is found (checks/ask/games.py)
    return sess


def run(args) -> int:
    from skillproof.model.msg import Msg

    from .exits import error_line
    from .common import load_or_report
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return EXIT_USAGE
    from .common import overwrites_input
    if overwrites_input([args.save], cat):        # (--save-intent appends to an intents file: it may be the catalogue's)
        return EXIT_USAGE
    try:
        sess = _session(args, cat)
    except ValueError as e:
        sys.stderr.write(error_line(e) + "\n")
        return EXIT_USAGE
    if not args.query:
        if getattr(args, "save_intent", None):
            sys.stderr.write(error_line(Msg("--save-intent 需要一个问题", "--save-intent needs a question")) + "\n")
            return EXIT_USAGE
        return prompt(sess, args)
    text = " ".join(args.query)
    if getattr(args, "save_intent", None) and not (args.source or "").strip():
        sys.stderr.write(error_line(Msg("--save-intent 需要 --source '文件 › 标题'——规则书在哪里作出这个承诺",
                                        "--save-intent needs --source 'FILE › HEADING' — where the rule book promises it"))
                         + "\n")
        return EXIT_USAGE
    rc = answer_one(sess, text, args, sys.stdout)
    if rc != EXIT_USAGE and getattr(args, "save_intent", None):
        try:
            ident = save_intent(sess.cat, sess.parse(text), args)
        except ValueError as e:
            sys.stderr.write(error_line(e) + "\n")
            return EXIT_USAGE
        except OSError as e:
            from skillproof.model.errtext import os_reason
            sys.stderr.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=args.save_intent,
                                            why=os_reason(e))) + "\n")
            return EXIT_USAGE
        if not args.json:
            sys.stdout.write(pick(f"意图 {ident} 已追加到 {args.save_intent}（该文件属于目录时，`skillproof check` 会证明它）\n",
                                  f"intent {ident} appended to {args.save_intent} (`skillproof check` proves it when "
                                  f"the file is part of the catalogue)\n"))
    return rc


def save_intent(cat, q, args) -> str:
    """Append the question ``q`` to ``args.save_intent`` as an ``[[intent]]`` table; its id. The file is created
    when missing; a file that is not TOML, an id taken there or a 'which' question is refused."""
    import re
    import tomllib
    from pathlib import Path
    from skillproof.model.errtext import toml_syntax
    from skillproof.model.msg import Msg
    if q.mode == "which":
        raise ValueError(Msg("意图是一个是非问题（'can' / 'always' / 'never' …），不是 'which' 问题",
                             "an intent is a yes/no question (can / always / never …), not a 'which' question"))
    path = Path(args.save_intent)
    old = ""
    if path.exists():
        from skillproof.model import limits as L
        if not path.is_file():          # a FIFO blocked the run; /dev/zero was read until memory ran out
            raise ValueError(Msg("{p} 不是普通文件：没有追加", "{p} is not a regular file: not appended", p=str(path)))
        with open(path, "rb") as fh:
            raw = fh.read(L.FILE_BYTES + 1)
        if len(raw) > L.FILE_BYTES:
            raise ValueError(Msg("{p} 超过 {n:,} 字节（上限）：没有追加", "{p} is over {n:,} bytes (the limit): not appended",
                                 p=str(path), n=L.FILE_BYTES))
        try:
            old = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(Msg("{p} 不是 UTF-8 文本：没有追加", "{p} is not UTF-8 text: not appended", p=str(path))) from None
    try:
        data = tomllib.loads(old)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(Msg("{p} 不是 TOML 文件（{m}）：没有追加", "{p} is not a TOML file ({m}): not appended", p=str(path),
                             m=toml_syntax(str(e)))) from None
    taken = {x.get("id") for x in data.get("intent", []) if isinstance(x, dict)}
    ident = args.intent_id
    if ident is None:
        n = 1
        while f"intent-{n}" in taken:
            n += 1
        ident = f"intent-{n}"
    if not re.match(r"^[a-z0-9][a-z0-9-]*$", ident):
        raise ValueError(Msg("意图的 id '{i}' 必须是用 '-' 连起来的小写词", "intent id '{i}' must be lower-case words joined by '-'",
                             i=ident))
    from skillproof.model import limits as L
    if len(ident) > L.NAME_CHARS:            # the loader refuses such an id: the file would no longer load
        raise ValueError(Msg("意图的 id 有 {n:,} 个字符，上限是 {m}", "intent id of {n:,} characters; the limit is {m}",
                             n=len(ident), m=L.NAME_CHARS))
    if ident in taken:
        raise ValueError(Msg("{p} 已经有意图 '{i}'", "{p} already has an intent '{i}'", p=str(path), i=ident))
    q_ = lambda v: json.dumps(v, ensure_ascii=False)      # noqa: E731  (a JSON string is a TOML basic string)
    lines = ["[[intent]]", f"id = {q_(ident)}", f"claim = {q_(' '.join(q.text.split()))}",
             f"source = {q_(args.source.strip())}"]
    if args.text:
        lines.append(f"text = {q_(args.text)}")
    if args.severity:
        lines.append(f"severity = {q_(args.severity)}")
    sep = "" if not old.strip() else ("\n" if old.endswith("\n") else "\n\n")     # one blank line between tables
    from skillproof.model.signals import write_file
    write_file(str(path), old + sep + "\n".join(lines) + "\n")     # the file with it, whole or not at all
    return ident


def answer_one(sess, text: str, args, out, prompt_mode: bool = False) -> int:
    from skillproof.checks import ask as Q
    try:
        res = sess.ask(text)
    except Q.QueryError as e:
        from .exits import error_line
        if prompt_mode:
            out.write("\n".join(e.caret(text, "  ")) + "\n")
            out.write(error_line(e.text) + "\n")
        else:
            sys.stderr.write(error_line(e.line(text)) + "\n")
            if args.json:                      # machine output: the English message (stable), the Chinese beside it
                out.write(json.dumps({"answer": None, "error": e.text.render("en"), "error_zh": e.text.render("zh"),
                                      "column": e.col + 1, "nearest": e.nearest}, ensure_ascii=False) + "\n")
        return EXIT_USAGE
    if args.json:
        out.write(json.dumps(result_json(res), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(render(sess.cat, res, brief=args.brief))
    if getattr(args, "save", None):
        try:
            saved = save_witness(res, args.save)
        except OSError as e:
            from skillproof.model.errtext import os_reason
            from skillproof.model.msg import Msg

            from .exits import error_line
            sys.stderr.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=args.save,
                                            why=os_reason(e))) + "\n")
            return EXIT_USAGE
        if saved is None:
            sys.stderr.write(pick("注意：没有可保存的——这个答案没有例证\n", "note: nothing to save — this answer has no scenario\n"))
        elif not args.json:
            out.write(saved_text(saved))
    sess.last = res                                 # what the prompt's :save writes
    return EXIT_INCONCLUSIVE if res.answer == "unknown" else EXIT_OK


# =========================================================================================== prompt
def _completion_words(sess) -> list[tuple[str, str]]:
    from skillproof.checks import ask as Q
    cat = sess.cat
    out: dict = {}
    for c in cat.cards.values():
        for w in (c.name, c.id, *c.aliases):
            out.setdefault(w, pick(f"牌 {c.name}", f"card {c.name}"))
    for c in cat.characters.values():
        for w in (c.name, c.id, *c.aliases):
            out.setdefault(w, pick(f"角色 {c.name}", f"character {c.name}"))
    for r in cat.skills.values():
        kind = pick("给出的技能", "grant") if r.is_grant else pick("技能", "skill")
        for w in (r.name, r.id, *r.aliases):
            out.setdefault(w, f"{kind} {r.name}")
    for words in list(Q.PHASES.values()) + list(Q.GROUPS.values()):
        for w in words:
            out.setdefault(w, "")
    for words in Q.WINDOW_PHRASES.values():
        for w in words:
            out.setdefault(w, pick("时机", "window"))
    for w in ("can", "always", "never", "which", "anyone", "play", "as", "use", "convert", "fire", "banned",
              "must receive", "cannot receive", "may choose", "skipped in", "act in", "send", "draw", "hold",
              "invalidated", "face up", "face down", "with", "without", "under", "while", "if", "where",
              "declares", "conversion", "send rule", "draw count", "receive", "holding cards", "after",
              "in the previous turn", "this turn", "when someone is dying", "in the main phase",
              "at send-phase start", "上一回合", "本回合"):
        out.setdefault(w, pick("关键词", "keyword"))
    return sorted(out.items())


def _completer(sess):
    from prompt_toolkit.completion import Completer, Completion

    words = _completion_words(sess)

    class NameCompleter(Completer):
        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            i = len(text)
            while i > 0 and not text[i - 1].isspace() and text[i - 1] not in "(),{}=?，（）":
                i -= 1
            word = text[i:]
            if not word:
                return
            low = word.lower()
            for w, meta in words:
                if w.lower().startswith(low) and w != word:
                    yield Completion(w, start_position=-len(word), display_meta=meta)

    return NameCompleter()


def _command(sess, args, line: str, out) -> bool:
    """A ':' command of the prompt; False to leave."""
    from skillproof.model.msg import Msg

    from .exits import error_line
    parts = line[1:].split()
    if not parts:
        return True
    cmd, rest = parts[0].lower(), parts[1:]
    if cmd in ("q", "quit", "exit"):
        return False
    if cmd in ("h", "help", "?"):
        out.write(pick(PROMPT_HELP_ZH, PROMPT_HELP).format(seats=sess.seats) + "\n")
    elif cmd == "json":
        args.json = not args.json
        out.write(pick(f"JSON 输出{'开' if args.json else '关'}\n", f"JSON output {'on' if args.json else 'off'}\n"))
    elif cmd == "brief":
        args.brief = not args.brief
        out.write(pick(f"简短回答{'开' if args.brief else '关'}\n", f"brief answers {'on' if args.brief else 'off'}\n"))
    elif cmd == "save":
        last = getattr(sess, "last", None)
        if not rest:
            out.write(error_line(Msg("':save' 需要一个文件名（':save 文件'）", "':save' needs a file name (':save FILE')")) + "\n")
        elif last is None:
            out.write(error_line(Msg("还没有可保存的回答", "no answer to save yet")) + "\n")
        else:
            try:
                p = save_witness(last, rest[0])
                out.write(pick(f"例证已写入 {p}\n", f"scenario written to {p}\n") if p else
                          pick("这个答案没有可保存的例证\n", "this answer has no scenario to save\n"))
            except OSError as e:
                from skillproof.model.errtext import os_reason
                out.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=rest[0], why=os_reason(e)))
                          + "\n")
    elif cmd in ("seats", "grants", "timeout"):
        try:
            v = float(rest[0]) if cmd == "timeout" else int(rest[0])
            if cmd == "seats":
                if not 1 <= v <= sess.cat.rules.seats:
                    raise ValueError
                sess.seats = v
                sess.warm()
            elif cmd == "grants":
                if not 0 <= v <= 8:
                    raise ValueError
                sess.grants = v
                sess.warm()
            else:
                if v <= 0:
                    raise ValueError
                sess.timeout_ms = max(1, int(v * 1000))
            out.write(pick(f"{_SETTING_ZH[cmd]} = {v:g}{' 秒' if cmd == 'timeout' else ''}\n",
                           f"{cmd} = {v:g}{' s' if cmd == 'timeout' else ''}\n"))
        except (ValueError, IndexError):
            out.write(error_line(Msg("'{c}' 需要一个{what}", "'{c}' needs {ewhat}", c=":" + cmd, what=_RANGE_ZH[cmd](sess),
                                     ewhat=_RANGE_EN[cmd](sess))) + "\n")
    else:
        out.write(error_line(Msg("未知的命令 '{c}'（试试 ':help'）", "unknown command '{c}' (try ':help')", c=":" + cmd))
                  + "\n")
    return True


#: what a prompt setting is called, and the numbers it takes
_SETTING_ZH = {"seats": "座位数", "grants": "获得的技能数", "timeout": "时限"}
_RANGE_ZH = {"seats": lambda s: f" 1 到 {s.cat.rules.seats} 之间的整数", "grants": lambda s: " 0 到 8 之间的整数",
             "timeout": lambda s: "正的秒数"}
_RANGE_EN = {"seats": lambda s: f"a whole number from 1 to {s.cat.rules.seats}",
             "grants": lambda s: "a whole number from 0 to 8", "timeout": lambda s: "a positive number of seconds"}


_LINE_CAP = 1 << 20


def _stdin_lines():
    """The lines of standard input (none when it is closed), each read at most ``_LINE_CAP`` characters at a
    time: a longer line yields None and ends the lines."""
    if sys.stdin is None:
        return
    while True:
        try:
            line = sys.stdin.readline(_LINE_CAP + 1)
        except (OSError, ValueError):               # a closed descriptor
            return
        if not line:
            return
        if len(line) > _LINE_CAP and not line.endswith("\n"):
            yield None
            return
        yield line


def prompt(sess, args) -> int:
    """The interactive prompt. On a terminal: prompt_toolkit with history and completion; otherwise
    (piped input) one question per line."""
    out = sys.stdout
    interactive = sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty()
    sess.general = True                  # one warm solver for every question (see checks.ask.Session)
    sess.warm()
    if not interactive:
        worst = EXIT_OK
        for line in _stdin_lines():
            if line is None:                 # a line without end (< /dev/zero): stop, memory stays bounded
                from skillproof.model.msg import Msg

                from .cli import error_line
                sys.stderr.write(error_line(Msg("标准输入的一行超过 {n:,} 个字符：不再读下去",
                                                "a line of standard input is over {n:,} characters: reading stopped",
                                                n=_LINE_CAP)) + "\n")
                return EXIT_USAGE
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith(":"):
                if not _command(sess, args, line, out):
                    break
                continue
            rc = answer_one(sess, line, args, out, prompt_mode=False)
            worst = max(worst, rc)
            out.flush()
        return worst
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    class _History(FileHistory):
        def append_string(self, string: str) -> None:       # leaving is not worth remembering
            if string.strip().lower() not in (":q", ":quit", ":exit", "quit", "exit"):
                super().append_string(string)

    hist_path = args.history or os.environ.get("SKILLPROOF_HISTORY") or os.path.expanduser("~/.skillproof_history")
    try:
        if os.path.exists(hist_path) and not os.path.isfile(hist_path):
            raise OSError("not a regular file")         # a FIFO or a device: never read (it could block or not end)
        history = _History(hist_path)
        open(hist_path, "a").close()
    except OSError:
        history = InMemoryHistory()
    ps = PromptSession(history=history, completer=_completer(sess), complete_while_typing=False)
    out.write(pick(f"skillproof ask —— {len(sess.cat.characters)}个角色，{len(sess.cat.skills)}条规则。:help 查看说明，Ctrl-D 离开。\n",
                   f"skillproof ask — {len(sess.cat.characters)} characters, {len(sess.cat.skills)} rules. "
                   f":help for help, Ctrl-D to leave.\n"))
    from skillproof.model.signals import forget, rearm
    while True:
        try:
            line = ps.prompt("ask> ")
        except KeyboardInterrupt:
            forget()                # Ctrl-C at the prompt clears the line; the session goes on
            continue
        except EOFError:
            break
        finally:
            rearm()                 # the prompt's event loop took the signals' wake-up (model.signals)
        line = line.strip()
        if not line:
            continue
        if line.startswith(":") or line in ("quit", "exit"):
            if line in ("quit", "exit") or not _command(sess, args, line, out):
                break
            continue
        answer_one(sess, line, args, out, prompt_mode=True)
        out.flush()
    return EXIT_OK
