"""What `skillproof extract` writes to the terminal, in the run's language (model.lang).

The extractor records its report and its differences in English — the words of the tests that pin them. Shown
on a terminal or written as extraction-report.md (``report_markdown``) in a Chinese run, each line is translated
here: a table of the extractor's sentences (regular expressions over the English, the parts that vary kept
as they are — ids, code, file:line) and their Chinese. A sentence the table does not know is shown in
English between 「」 rather than guessed at (tests/test_lang_extract.py holds every sentence the test servers
and the real server produce to the table).

``summary(ex)``, ``undecided_line(ex)``, ``item_line(item)``, ``difference_line(d)`` and ``error_text(text)``
render in the run's language; in English they are the extractor's own text.
"""
from __future__ import annotations

import re

from ..lang import is_en

#: the sentences of the extraction report (ReportItem.message): English (a full match) -> Chinese
ITEMS: list[tuple[str, str]] = [
    # __init__.py
    (r"a skill class no role of the role table holds; written as a \[\[skill\]\] held by no character",
     "角色表中没有哪个角色持有的技能类；写成一个没有角色持有的 [[skill]]"),
    (r"a second skill class named (?P<c>\S+) \(first at (?P<at>[^)]*)\); only the first is written",
     "第二个名为 {c} 的技能类（第一个在 {at}）；只写出第一个"),
    (r"the code has no initial-skill marker \(no isInitialSkill, InitialSkill or marker tested by "
     r"InvalidSkill\.deal\): skills are written initial, grants not",
     "代码中没有初始技能的标记（没有 isInitialSkill、InitialSkill，也没有 InvalidSkill.deal 检查的标记）："
     "技能写成初始技能，给出的技能不是"),
    # bodies.py
    (r"no (?P<m>\S+) found in the class or its superclasses — unknown",
     "在这个类及其父类中没有找到 {m}——写成 unknown"),
    (r"(?P<m>\S+) is not a single expression — unknown", "{m} 不是单个表达式——写成 unknown"),
    (r"(?P<m>\S+): the translation (?P<t>`.*`) does not check \((?P<why>.*)\) — unknown",
     "{m}：翻译出的 {t} 通不过检查（「{why}」）——写成 unknown"),
    (r"(?P<m>\S+): not translated: (?P<parts>.*?)(?: \(\+(?P<n>\d+) more\))? → (?P<t>`.*`)",
     lambda m: f"{m['m']}：没有翻译的部分：{m['parts'].replace('; ', '；')}"
               + (f"（另有 {m['n']} 处）" if m["n"] else "") + f" → {m['t']}"),
    (r"a MainPhaseSkill overriding canUse; a MainPhaseSkill takes no 'fight', so it is not written",
     "MainPhaseSkill 覆盖了 canUse；MainPhaseSkill 没有 'fight'，所以不写出"),
    (r"no canUse found — unknown", "没有找到 canUse——写成 unknown"),
    (r"no list of the printed cards found: no deck is written", "没有找到印出的牌的列表：不写牌堆"),
    (r"no executeProtocol found; whether it can be used while someone is dying is unknown",
     "没有找到 executeProtocol；有人濒死时能否使用不得而知"),
    (r"executeProtocol accepts (?P<x>.*) \(someone dying\); the condition is not analysed — unknown",
     "executeProtocol 接受 {x}（有人濒死）；条件没有分析——写成 unknown"),
    (r"executeProtocol names no game state; whether it can be used while someone is dying is unknown",
     "executeProtocol 没有提到任何游戏状态；有人濒死时能否使用不得而知"),
    # cards.py, classes.py
    (r"a card type with no card class naming it; its id is used as its name",
     "没有牌类提到的牌型；用它的 id 作为名字"),
    (r"cannot read: (?P<why>.*)", "读不了：{why}"),
    (r"syntax errors in this file; declarations inside the broken parts are missed",
     "这个文件有语法错误；损坏部分中的声明会漏掉"),
    # engine.py
    (r"not read: (?P<how>.*)", lambda m: f"没有读出：{_translate(m['how'], ENGINE)}"),
    # grants.py
    (r"(?P<x>`.*`) hands out (?P<k>\S+) in a shape the extractor does not read \(only `….skills \+= X\(…\)` and "
     r"`InvalidSkill\.deal\(…\)`\); not written",
     "{x} 给出 {k} 的写法提取器读不懂（只读 `….skills += X(…)` 和 `InvalidSkill.deal(…)`）；不写出"),
    (r"(?P<x>`.*`) adds something that is not a known skill class; not written",
     "{x} 加入的不是已知的技能类；不写出"),
    (r"handed out outside any skill or card class; not written", "在技能类和牌类之外给出；不写出"),
    (r"(?P<g>\S+) is an initial skill, not a grant; this site is not written",
     "{g} 是初始技能，不是给出的技能；这个给出处不写出"),
    (r"(?P<x>`.*`): expected one player argument; not written", "{x}：应有一个玩家参数；不写出"),
    (r"receiver (?P<x>`.*`) not understood; 'target' \(any one player\) written",
     "读不懂接收者 {x}；写成 'target'（任意一名玩家）"),
    (r"gives (?P<g>\S+) \(to (?P<to>\S+)\): the condition and how often per turn are not analysed — when = unknown, "
     r"per_turn left at 1",
     "给出 {g}（to = {to}）：条件和每回合的次数没有分析——写成 when = unknown，per_turn 保持 1"),
    (r"(?P<p>\S+) is not a literal at this site \((?P<x>`.*`)\); left free",
     "{p} 在这个给出处不是字面量（{x}）；作为自由参数"),
    (r"(?P<p>\S+) takes its default (?P<x>`.*`), which is not a literal; left free",
     "{p} 取默认值 {x}，它不是字面量；作为自由参数"),
    # roles.py
    (r"the role enum is not a plain constant; character skipped", "角色枚举不是简单的常量；跳过这个角色"),
    (r"listed twice in the role table \(first at (?P<at>[^)]*)\); the first entry is kept",
     "在角色表中出现两次（第一次在 {at}）；保留第一项"),
    (r"(?P<f>female|isPublicRole) is not a literal \((?P<x>.*)\); written as (?P<v>\S+)",
     lambda m: f"{m['f']} 不是字面量（{'缺少' if m['x'] == 'missing' else m['x']}）；写成 {m['v']}"),
    (r"(?P<c>\S+) is built with arguments \((?P<x>.*)\); a \[\[skill\]\] has no parameters, they are ignored",
     "{c} 带参数构造（{x}）；[[skill]] 没有参数，忽略它们"),
    (r"skill argument (?P<x>`.*`) is not a known skill class; left out of the character's skill list",
     "技能参数 {x} 不是已知的技能类；不列入角色的技能"),
    (r"skill argument (?P<x>`.*`) names no class found in the sources \(not read\?\); left out of the "
     r"character's skill list",
     "技能参数 {x} 提到的类在源码中找不到（没有读出？）；不列入角色的技能"),
    (r"(?P<c>\S+) listed twice; kept once", "{c} 出现两次；只保留一次"),
    # triggers.py
    (r"no `execute` function: the events it answers are not known", "没有 `execute` 函数：不知道它回应哪些事件"),
    (r"findEvent<(?P<c>\w*)>: not an event class the catalogue knows", "findEvent<{c}>：不是目录认识的事件类"),
    (r"the guard of findEvent<(?P<c>\w+)> is not translated: when = unknown", "findEvent<{c}> 的条件没有翻译：写成 when = unknown"),
    (r"reads the receive phase \(no event\): when = unknown", "读取接收阶段（不是事件）：写成 when = unknown"),
    (r"no findEvent call: the events it answers are not known", "没有 findEvent 调用：不知道它回应哪些事件"),
    # rules.py
    (r"no skillId of its own naming it in an enum; the class name is used as its name",
     "没有自己的 skillId 在枚举中给它命名；用类名作为名字"),
    (r"isInitialSkill is not a literal in the class or its superclasses; written as (?P<v>true|false) "
     r"\(the default of a (?P<w>grant|skill)\)",
     lambda m: f"isInitialSkill 在这个类及其父类中不是字面量；写成 {m['v']}"
               f"（{'给出的技能' if m['w'] == 'grant' else '技能'}的默认值）"),
    (r"constructor parameter (?P<p>\S+): (?P<t>.*) has no catalogue type; not modelled",
     "构造参数 {p}：{t} 没有对应的目录类型；不建模"),
    (r"parameter name (?P<p>\S+) is reserved in the catalogue; not modelled", "参数名 {p} 在目录中是保留字；不建模"),
    (r"the receive handler refuses to let holders of (?P<r>\S+) receive \(findSkill\): written as a "
     r"MustReceiveMessage that cannot receive",
     "接收处理拒绝让持有 {r} 的角色接收（findSkill）：写成一个不能接收的 MustReceiveMessage"),
    (r"answers its holder's own death, and (?P<w>\S+) asks a dead player's initial skills in the die phase: "
     r"written as a BeforeDieSkill \(the later code's kind for it\)",
     "回应持有者自己的死亡，而 {w} 在死亡阶段也询问死亡角色的初始技能：写成 BeforeDieSkill（后来的代码给它的种类）"),
    (r"belongs to several send groups \((?P<g>.*)\); the rule is not split per group — unknown",
     "属于多个传出组（{g}）；规则没有按组拆分——写成 unknown"),
    (r"(?P<m>\S+) is not analysed: one (?P<t>\[\[\S+\]\]) effect with every part unknown is written",
     "{m} 没有分析：写出一个各部分都是 unknown 的 {t} 效果"),
    (r"conversion arguments come from superclass (?P<c>\S+)", "转化参数来自父类 {c}"),
    (r"no ConvertCardSkill\(…\) constructor call found; from = any, to = every card, must = false written",
     "没有找到 ConvertCardSkill(…) 构造调用；写成 from = any、to = 所有牌、must = false"),
    (r"source card (?P<x>`.*`) not decided; from = any written", "来源牌 {x} 无法确定；写成 from = any"),
    (r"target cards (?P<x>`.*`) not decided; every card written", "目标牌 {x} 无法确定；写成所有牌"),
    (r"must (?P<x>`.*`) is not a literal; false written", "must {x} 不是字面量；写成 false"),
    (r"constructor parameter (?P<p>\S+) is not read by the ban \((?P<u>.*)\); not modelled",
     "构造参数 {p} 没有被禁令读取（{u}）；不建模"),
    (r"the banned cards are not constructor parameters; free parameters cards / all_cards written",
     "被禁的牌不是构造参数；写成自由参数 cards / all_cards"),
]

#: why an engine rule was not read (EngineRule.how when its value is None)
ENGINE: list[tuple[str, str]] = [
    (r"no conversion loop \(a function over the player's skills testing `is ConvertCardSkill`\)",
     "没有转化循环（遍历玩家技能、检查 `is ConvertCardSkill` 的函数）"),
    (r"the face-up test is not in a shape read \((?P<x>.*)\)", "面朝上的检查写法读不懂（只读 {x}）"),
    (r"the face-up test also drops skills of a face-up role", "面朝上的检查也去掉了面朝上角色的技能"),
    (r"the choice of the conversion \((?P<x>`.*`)\) is not in a shape read", "选择转化的写法（{x}）读不懂"),
    (r"no assignment of the conversion that is taken", "没有对所取转化的赋值"),
    (r"mustReceiveMessage has a part not read: (?P<x>.*)",
     lambda m: f"mustReceiveMessage 有读不懂的部分：{m['x'].replace('; ', '；')}"),
    (r"no mustReceiveMessage function and no receive handler read", "没有 mustReceiveMessage 函数，也没有读出接收处理"),
    (r"no code that adds a seat to the room", "没有往房间里加座位的代码"),
    (r"no state that sets the deck up and deals", "没有洗牌并发牌的状态"),
    (r"no list of secret tasks dealt found", "没有找到发出的秘密任务列表"),
    (r"no list of identities dealt found", "没有找到发出的身份列表"),
    (r"no part of the tasks told to the players", "没有读到告诉玩家的秘密任务部分"),
    (r"the tasks told not read: (?P<x>.*)", "告诉玩家的秘密任务没有读出：{x}"),
    (r"no draw in DrawPhase", "DrawPhase 里没有摸牌"),
    (r"no list of the roles offered to each player", "没有给每名玩家备选角色的列表"),
    (r"no draw from the role pool", "没有从角色池抽角色"),
    (r"no branch on whether a (?P<g>\S+) is in force", "没有按是否有生效中的 {g} 分支"),
    (r"no default branch where no (?P<g>\S+) is in force", "没有在无生效中的 {g} 时的默认分支"),
    (r"no (?P<g>\S+) in force taken", "没有考虑生效中的 {g}"),
    (r"no send check taking the send skill in force", "没有读到考虑生效中的传出技能的传出检查"),
    (r"no cannot-receive test guarded by `!mustReceive` found", "没有找到由 `!mustReceive` 保护的不能接收检查"),
    (r"no function calls both InvalidSkill\.reset and OneTurnSkill\.reset",
     "没有函数同时调用 InvalidSkill.reset 和 OneTurnSkill.reset"),
    (r"no call resetting a player's skill-use counts", "没有重置玩家技能使用次数的调用"),
    (r"no draw fold over ChangeDrawCardCountSkill and no draw in DrawPhase",
     "没有对 ChangeDrawCardCountSkill 的摸牌累计，DrawPhase 中也没有摸牌"),
    (r"(?P<x>`.*`) is not a Config property or a number", "{x} 不是 Config 属性，也不是数"),
    (r"the default of (?P<p>\S+) is not a number", "{p} 的默认值不是数"),
    (r"no default found for the configuration property (?P<p>\S+)", "找不到配置属性 {p} 的默认值"),
    (r"no single skip predicate \(cannotPlayCardAndSkill…\) for this phase",
     "这个阶段没有唯一的跳过判定（cannotPlayCardAndSkill…）"),
    (r"(?P<n>\S+): a part of the predicate is not read", "{n}：判定有一部分读不懂"),
    (r"(?P<n>\S+): not one of the known skip predicates", "{n}：不是已知的跳过判定"),
    (r"no InvalidSkill\.deal", "没有 InvalidSkill.deal"),
    (r"the test of InvalidSkill\.deal is not read", "InvalidSkill.deal 的检查读不懂"),
    (r"no dealListeningSkill", "没有 dealListeningSkill"),
    (r"no win check found", "没有找到胜利判定"),
    (r"no check of the last camp alive", "没有找到“只剩一个阵营存活”的判定"),
    (r"skills come from a listening list", "技能来自监听列表"),
    (r"no call of (?P<m>\S+)", "没有调用 {m}"),
    (r"the guard around the call is not read", "调用外面的条件读不懂"),
    (r"the guard tests something else \((?P<x>.*)\)", "调用外面的条件检查的是别的东西（{x}）"),
    (r"no pass over the players calling (?P<m>\S+)", "没有依次对玩家调用 {m} 的循环"),
    (r"where the pass starts is not read", "读不出循环从哪里开始"),
    (r"no result pass", "没有结算技能的循环"),
    (r"no win hands the result pass its declared winners", "没有哪种胜利把宣告胜利者交给结算技能"),
    (r"no game state takes a message's face-up flag", "没有哪个游戏状态带着情报是否面朝上"),
    (r"no state of a message's way is built in the engine", "引擎中没有构造情报传递途中的状态"),
    (r"no role table", "没有角色表"),
    (r"no isFaceUp initializer in the role class", "角色类中没有 isFaceUp 的初值"),
    (r"isFaceUp = (?P<x>`.*`) is not read", "isFaceUp = {x} 读不懂"),
]

#: what --compare finds (Difference.message)
DIFFERENCES: list[tuple[str, str]] = [
    (r"in the server, not in the hand-kept catalogue", "服务器中有，手写目录中没有"),
    (r"in the hand-kept catalogue, not in the server", "手写目录中有，服务器中没有"),
    (r"(?P<n>.+) is in the server's role table, not in the hand-kept catalogue",
     "{n} 在服务器的角色表中，不在手写目录中"),
    (r"(?P<n>.+) is in the hand-kept catalogue, not in the server's role table",
     "{n} 在手写目录中，不在服务器的角色表中"),
    (r"(?P<w>grant|skill) in the server, not in the hand-kept catalogue",
     lambda m: f"{_WHAT[m['w']]}：服务器中有，手写目录中没有"),
    (r"(?P<w>grant|skill) in the hand-kept catalogue, not found in the server",
     lambda m: f"{_WHAT[m['w']]}：手写目录中有，服务器中找不到"),
    (r"the hand-kept catalogue says rule book only, but the server has it", "手写目录说只在规则书中，但服务器中有"),
    (r"server: a (?P<a>grant|skill), hand: a (?P<b>grant|skill)",
     lambda m: f"服务器：{_WHAT[m['a']]}，手写：{_WHAT[m['b']]}"),
    (r"skill order: server (?P<a>.*), hand (?P<b>.*)", "技能顺序：服务器 {a}，手写 {b}"),
    (r"skills: server (?P<a>\[.*?\]), hand (?P<b>\[.*?\]) \((?P<more>.*)\)",
     lambda m: f"技能：服务器 {m['a']}，手写 {m['b']}（"
               + "；".join(re.sub(r"^server also has ", "服务器另有 ", re.sub(r"^hand also has ", "手写另有 ", x))
                          for x in m["more"].split("; ")) + "）"),
    (r"the server removes it from its owner once used; hand: consumed = false",
     "服务器在它用过一次后把它从持有者身上移除；手写：consumed = false"),
    (r"the server hands out (?P<g>\S+) \(to (?P<to>\S+)\); the hand-kept catalogue does not list this site",
     "服务器给出 {g}（to = {to}）；手写目录没有列出这个给出处"),
    (r"the hand-kept catalogue hands out (?P<g>\S+) \(to (?P<to>\S+)\); not found in the server",
     "手写目录给出 {g}（to = {to}）；服务器中找不到"),
    (r"(?P<g>\S+) goes to: server (?P<a>\S+), hand (?P<b>\S+)", "{g} 交给：服务器 {a}，手写 {b}"),
    (r"(?P<g>\S+) args: (?P<parts>.*)",
     lambda m: f"{m['g']} 的参数：" + "；".join(_translate(x, [_SERVER_HAND]) for x in m["parts"].split("; "))),
    (r"server (?P<a>.*), hand (?P<b>.*)", "服务器 {a}，手写 {b}"),
]
_SERVER_HAND = (r"(?P<k>[^:]+): server (?P<a>.*), hand (?P<b>.*)", "{k}：服务器 {a}，手写 {b}")
DIFFERENCES.insert(len(DIFFERENCES) - 1, _SERVER_HAND)        # name: server '甲', hand '甲甲' (any attribute)

#: the kinds of difference (Difference.kind) in Chinese
DIFFERENCE_KINDS = {"card": "牌", "character": "角色", "skills": "技能", "order": "技能顺序", "rule": "规则",
                    "kinds": "种类", "initial": "初始", "name": "名字", "convert": "转化", "ban": "禁令",
                    "lifetime": "持续时间", "params": "参数", "consumed": "用后移除", "gives": "给出",
                    "on": "触发事件"}

#: bad input (ExtractError)
ERRORS: list[tuple[str, str]] = [
    (r"no such directory: (?P<p>.*)", "没有这个文件夹：{p}"),
    (r"not a directory: (?P<p>.*)", "不是文件夹：{p}"),
    (r"no Kotlin files \(\*\.kt\) under (?P<p>.*)", "{p} 下没有 Kotlin 文件（*.kt）"),
    (r"the Kotlin parser is not installed \((?P<n>[^)]*)\): (?P<cmd>pip install .*)",
     "没有安装 Kotlin 解析器（{n}）：{cmd}"),
    (r"no role table under (?P<p>.*): no class has a constructor taking `vararg …: Skill` \(the server's "
     r"RoleSkillsData\)",
     "{p} 下没有角色表：没有哪个类的构造函数接受 `vararg …: Skill`（服务器的 RoleSkillsData）"),
    (r"no role table under (?P<p>.*): no call of (?P<c>\S+)\(\"name\", …\) with a literal name",
     "{p} 下没有角色表：没有以字面量名字调用 {c}(\"name\", …) 的地方"),
]

_WHAT = {"grant": "给出的技能", "skill": "技能"}


def _translate(text: str, table) -> str:
    """``text`` in Chinese by the first entry of ``table`` it matches; 「text」 when none does."""
    for pat, zh in table:
        m = re.fullmatch(pat, text, re.S)
        if m:
            return zh(m) if callable(zh) else zh.format(**{k: v or "" for k, v in m.groupdict().items()})
    return f"「{text}」"


def translated(text: str, table) -> str | None:
    """``text`` in Chinese by ``table``, or None when the table does not know it."""
    out = _translate(text, table)
    return None if out == f"「{text}」" else out


def item_line(item) -> str:
    """One line of the extraction report: ``file:line: [kind] subject: message``."""
    if is_en():
        return str(item)
    tag = item.kind if item.undecided else f"提示：{item.kind}"
    return f"{item.where}: [{tag}] {item.subject}：{_translate(item.message, ITEMS)}"


def difference_line(d) -> str:
    """One difference found by --compare: ``kind: subject: message  (where)``."""
    if is_en():
        return str(d)
    loc = f"  （{d.where}）" if d.where else ""
    return f"{DIFFERENCE_KINDS.get(d.kind, d.kind)}：{d.subject}：{_translate(d.message, DIFFERENCES)}{loc}"


def error_text(text: str) -> str:
    """An ExtractError's message."""
    return text if is_en() else _translate(text, ERRORS)


def summary(ex) -> str:
    """What an extraction read, in one line."""
    if is_en():
        return ex.summary()
    s = ex.stats
    n = sum(1 for i in ex.report if i.undecided)
    return (f"从 {s.get('kotlin_files', 0)} 个 Kotlin 文件提取了 {s.get('characters', 0)} 个角色、"
            f"{s.get('skills', 0)} 个技能、{s.get('grants', 0)} 个给出的技能、{s.get('sites', 0)} 个给出点、"
            f"{s.get('cards', 0)} 张牌，用时 {s.get('seconds', 0):.2f} 秒；{n} 个未定项")


def undecided_line(ex) -> str:
    """The undecided items counted by kind (empty when there are none)."""
    counts = ex.undecided_counts()
    if not counts:
        return ""
    if is_en():
        return "undecided by kind: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    return "未定项（按种类）：" + "、".join(f"{k} {v}" for k, v in counts.items())


#: extraction-report.md's words in Chinese (report.REPORT_WORDS)
REPORT_WORDS_ZH = {
    "title": "提取报告",
    "source": "来源：`{source}`——{kotlin_files} 个 Kotlin 文件，用时 {seconds:.2f} 秒。",
    "extracted": "提取出：{characters} 个角色、{skills} 个技能、{grants} 个给出的技能、{sites} 个给出点、{cards} 张牌。",
    "free": "下面各项都*不是*从代码中判定的：写成 `unknown`（检查把它当作可以取任何值）或留作自由参数，从不猜测。",
    "counts": "| 未定项 | 个数 |",
    "no_load": "提取出的目录加载不了",
    "undecided": "未定项",
    "notes": "提示",
    "item": "- `{where}` **{subject}**：{message}",
}


def report_markdown(ex) -> str:
    """extraction-report.md in the run's language (in English: the extractor's own report)."""
    if is_en():
        return ex.report_markdown()
    return ex.report_markdown(REPORT_WORDS_ZH, lambda m: _translate(m, ITEMS), error_text)
