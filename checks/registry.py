"""The check registry: each family is a small module that registers itself (bandit-style plugins).

A family declares its codes — each documented like a linter rule page: what it finds, why it matters, and
an example catalogue that triggers it — and a ``run(ctx)`` that yields findings. Each page is written twice, next
to each other: the English (``summary``, ``why``, ``also_when``, ``todo``; the family's module docstring) and the
Chinese (``summary_zh``, ``why_zh``, ``also_when_zh``, ``todo_zh``; the module's ``DOC_ZH``), which
`skillproof rules CODE` prints in the run's language (tests/test_rules_pages.py: no code ships without its
Chinese). The one-line Chinese titles of the listing are reports/i18n.py's CODE_ZH and FAMILY_ZH.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    name: str                   # kebab-case name, e.g. "conversion-vetoed"
    severity: str
    summary: str                # what it finds (one line)
    why: str                    # why it matters
    example: str = ""           # a small catalogue (TOML) that triggers it
    also: tuple = ()            # other severities a finding of this code may have …
    also_when: str = ""         # … and when (documented by `skillproof rules` and the docs pages)
    todo: str = ""              # what to do about a finding, when not the usual (fix the rule or accept it)
    # the same page in Chinese, field by field (the designer's words; the example stays as written)
    summary_zh: str = ""
    why_zh: str = ""
    also_when_zh: str = ""
    todo_zh: str = ""
    made_by: str = ""           # for a code no family owns: what reports it, when not the solver (English)

    @property
    def severities(self) -> tuple:
        """Every severity a finding of this code can have, the default first."""
        return (self.severity,) + tuple(s for s in self.also if s != self.severity)


@dataclass
class Family:
    name: str
    title: str
    codes: list
    run: object                 # callable(ctx) -> iterable of Finding
    doc: str = ""
    order: int = 50
    lane: int = 0               # families of one lane share a solver; lanes run in parallel
    doc_zh: str = ""            # the family's page in Chinese (its module's DOC_ZH; ``doc`` is the docstring)
    # the lane on a catalogue checked over one shared state (the real game's size), where the families cost
    # other amounts than over slices (None: ``lane``); both are fixed, so the witnesses stay deterministic
    shared_lane: int | None = None
    # relative cost over sliced states (measured on the 10x copies benchmark): only the order in which lanes
    # are started, heaviest first, so that the parallel processes finish together; results do not depend on it
    weight: float = 1.0
    # the family may leave work to the end of its lane (``Context.later``): over one shared state a run that selects
    # it runs the whole lane, so that work has the same history before it whatever else was selected
    defers: bool = False
    # the family asks the lane's solver nothing and makes no witness: it runs after the lane's deferred work, so that
    # where it runs moves no other family's witness (the lanes balanced as measured)
    solverless: bool = False

    def lane_for(self, shared: bool) -> int | str:
        """Over one shared state the families share a lane's state (two lanes, fixed as measured); over
        slices, where families share little, each family runs in a process of its own."""
        if not shared:
            return self.name
        return self.shared_lane if self.shared_lane is not None else self.lane

    def code(self, code: str) -> Code:
        return next(c for c in self.codes if c.code == code)


_FAMILIES: dict[str, Family] = {}


def register(name: str, title: str, codes: list, order: int = 50, lane: int = 0, shared_lane: int | None = None,
             weight: float = 1.0, defers: bool = False, solverless: bool = False):
    """Decorator for a family's ``run(ctx)``."""
    def deco(fn):
        import sys
        mod = sys.modules[fn.__module__]
        _FAMILIES[name] = Family(name, title, codes, fn, (mod.__doc__ or "").strip(), order, lane,
                                 (getattr(mod, "DOC_ZH", "") or "").strip(), shared_lane, weight, defers,
                                 solverless)
        return fn
    return deco


def families() -> list[Family]:
    """Every registered family, in a stable order (importing the family modules on first use)."""
    from . import families as pkg
    for m in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{m.name}")
    return sorted(_FAMILIES.values(), key=lambda f: (f.order, f.name))


def all_codes() -> dict[str, tuple[Family, Code]]:
    out = {}
    for f in families():
        for c in f.codes:
            out[c.code] = (f, c)
    return out


INCONCLUSIVE = Code("INC001", "solver-inconclusive", "error",
                    "the solver could not decide a question (unknown or timeout), or --time-budget ran out "
                    "before it was asked",
                    "an undecided question is not a pass: the rules it covers are unverified",
                    todo="Raise `--timeout` (seconds per question) or `--rlimit`, or lower `--max-seats` / "
                         "`--max-grants`. An inconclusive question is never a pass, and it cannot be suppressed or "
                         "accepted in a baseline.",
                    summary_zh="求解器判定不了一个问题（结果未知或超时），或者还没问到它，`--time-budget` 就用完了",
                    why_zh="没有判定的问题不算通过：它涉及的规则没有得到验证",
                    todo_zh="提高 `--timeout`（每个问题的秒数）或 `--rlimit`，或者缩小 `--max-seats` / "
                            "`--max-grants`。无法判定的问题永远不算通过，也不能被忽略或在基线中接受。")
INTERNAL = Code("INT001", "backends-disagree", "error",
                "the z3 encoding and the reference interpreter disagree on a question: the solver's witness does "
                "not replay in the interpreter (a bug in skillproof, not in the catalogue)",
                "the family's answer rests on the encoding; when the interpreter, which defines the rules' meaning, "
                "says otherwise, neither a finding nor a pass can be trusted, so the question is left undecided",
                todo="Report it to skillproof's maintainers with the catalogue and the finding's `details` (the "
                     "question, what the solver claimed and what the interpreter says): they reproduce the "
                     "disagreement and fix the back-end that is wrong. The rest of the family was not asked. The run "
                     "exits 3 (inconclusive) when nothing else fails; an INT001 finding, like INC001, can be neither "
                     "suppressed nor accepted in a baseline, nor documented by an intent.",
                summary_zh="对同一个问题，z3 编码和参考解释器的回答不一致：求解器给出的例证在解释器中重放不出来"
                           "（这是 skillproof 自身的缺陷，不是目录的问题）",
                why_zh="检查族的回答依靠编码；而规则的含义由解释器定义，解释器不同意时，报出的问题和通过都不可信，"
                       "所以这个问题算作无法判定",
                todo_zh="把它报告给 skillproof 的维护者，附上目录和这条问题的 `details`（求解器被问的问题、它的断言、"
                        "解释器的说法）：维护者会重现这个不一致，修正出错的那一端。这个检查族其余的问题没有再问。"
                        "没有别的失败时，运行以退出码 3（无法判定）结束；INT001 和 INC001 一样，不能被忽略，"
                        "不能在基线中接受，也不能用意图说明。")
UNREAD = Code("UNR001", "unread-rule-code", "error", made_by="the gate `skillproof diff --kotlin`", summary=
              "`diff --kotlin`: a commit changes rule-bearing Kotlin (a trigger's event or guard, an effect, an active "
              "skill's or card's validation, a win or result check, a send or receive handler, the engine's phases and "
              "events) that the extraction does not turn into a catalogue difference",
              why="the gate can only compare what it reads: a change of code it does not read would otherwise pass as "
              "\"no rule change\" — never a pass on unknown, so the run stops for a person",
              todo="Read the change at the file, line, class and method the finding names: say which rule it changes "
                   "and whether the catalogue must follow, then merge by hand. Robot decisions, client messages, "
                   "logging, formatting, renames and moved code are recognised as no rule and never reported. The "
                   "run exits 3 (inconclusive) when nothing else fails; an UNR001 finding, like INC001, can be "
                   "neither suppressed nor accepted in a baseline.",
              summary_zh="`diff --kotlin`：提交改动了承载规则的服务器代码（`*.kt`）（触发技能的事件或条件、效果、主动技能或牌的"
                         "检查、胜负或结果判定、传出和接收的处理、引擎的阶段和事件），提取器却没有把它读成目录的差异",
              why_zh="门禁只能比较它读懂的东西：它读不懂的代码改了，否则就会被当成“没有规则改动”而放行——未知永远不算"
                     "通过，所以这次运行停下来等人看",
              todo_zh="到问题给出的文件、行、类和方法读这段改动：说明它改了哪条规则、目录是否需要跟着改，然后由人决定"
                      "合并。机器人的决策、发给客户端的消息、日志、格式、改名和原样移动的代码都被认出不是规则，不会报告。"
                      "没有别的失败时，运行以退出码 3（无法判定）结束；UNR001 和 INC001 一样，不能被忽略，也不能在基线"
                      "中接受。")
UNTOLD = Code("UNR002", "untold-rule-change", "error", made_by="the gate `skillproof diff --kotlin`", summary=
              "`diff --kotlin`: a rule's or a card's catalogue entry reads differently in the two revisions (the "
              "extractor read the changed line), but the difference lies beside an `unknown`, in a `prose` step or "
              "under an `unknown` condition, and no decision the diff asks tells the two versions apart",
              why="a difference nothing tells apart would otherwise pass as \"no rule change\" — never a pass on "
              "unknown, so the run stops for a person",
              todo="Read the change at the Kotlin line the finding names, with the key and both values it gives: say "
                   "what it changes in play, then merge by hand (making the code readable to the extractor turns the "
                   "difference into a decision the gate can compare). The run exits 3 (inconclusive) when nothing else "
                   "fails; an UNR002 finding, like UNR001, can be neither suppressed nor accepted in a baseline.",
              summary_zh="`diff --kotlin`：一条规则或一张牌在目录中的条目在两个版本中不同（提取器读到了改动的那一行），"
                         "但差异挨着 `unknown`、在 `prose` 步骤里或在 `unknown` 条件下，比较问到的判定没有一个能把两个版本"
                         "区分开",
              why_zh="没有任何判定能区分的差异，否则就会被当成“没有规则改动”而放行——未知永远不算通过，所以这次运行停下来"
                     "等人看",
              todo_zh="到问题给出的服务器代码（`*.kt`）的行，结合它给出的键和两个版本的值读这段改动：说明它在游戏中改变了什么，然后由人"
                      "决定合并（让提取器读懂这段代码，差异就成了门禁能比较的判定）。没有别的失败时，运行以退出码 3（无法"
                      "判定）结束；UNR002 和 UNR001 一样，不能被忽略，也不能在基线中接受。")
#: the codes no family owns: what the run itself reports about questions it could not decide
RUN_CODES = {c.code: c for c in (INCONCLUSIVE, INTERNAL, UNREAD, UNTOLD)}
