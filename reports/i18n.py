"""The words of the human-facing formats, in Chinese (``zh``, the default) and English (``en``).

A format only formats: every label, header, severity, section title and yes/no it writes is looked up here
in the run's language (``skillproof.model.lang``). Finding sentences and fix hints come with the finding
(``message`` / ``message_en``, ``fix`` / ``fix_en``); names of the catalogue are the same in both languages.
"""
from __future__ import annotations

from skillproof.model.lang import current, is_en, pick, yes_no  # noqa: F401  (re-exported for the formats)

# key -> (zh, en)
WORDS: dict[str, tuple[str, str]] = {
    "fix": ("修正：", "fix: "),
    "rules": ("相关规则：", "rules: "),
    "witness": ("例证：", "witness:"),
    "old": ("旧版：", "old: "),
    "new": ("新版：", "new: "),
    "proved_intents": ("已证明的意图", "proved intents"),
    "proved_intents_why": ("规则遵守的规则书承诺", "the rule book's promises the rules keep"),
    "changed_rules": ("改动的规则", "changed rules"),
    "newly_understood": ("新读懂的代码（提取器现在能读懂；不是规则改动）",
                         "newly understood (code the extractor now reads; not a rule change)"),
    "no_longer_understood": ("不再读懂的代码（旧版能读，新版读不懂）",
                             "no longer understood (read in OLD, unknown in NEW)"),
    "resolved_findings": ("已解决的问题（旧版有，新版没有）", "resolved findings (in OLD, gone in NEW)"),
    "changed_decisions": ("改变的判定（两个版本都可能出现的局面，回答不同）",
                          "changed decisions (a state possible under both versions, answered differently)"),
    "possible_one_side": ("只在一个版本中可能的局面（改动使之可能或不可能）",
                          "situations possible in one version only (what a change makes possible, or impossible)"),
    "findings": ("问题", "findings"),
    "finding": ("问题", "finding"),
    "id": ("编号", "id"),
    "check": ("检查", "check"),
    "severity": ("级别", "severity"),
    "where": ("位置", "where"),
    "message": ("说明", "message"),
    "rule": ("规则", "rule"),
    "role": ("作用", "role"),
    "none": ("无", "none"),
    "catalogue": ("目录", "catalogue"),
    "summary": ("摘要", "summary"),
    "accepted": ("已接受", "accepted"),
    "reason": ("理由", "reason"),
    "designed": ("设计如此", "designed behaviour"),
    "inconclusive": ("无法判定", "inconclusive"),
    "possible_only_new": ("只在新版中可能", "possible only in NEW"),
    "possible_only_old": ("只在旧版中可能", "possible only in OLD"),
    "decision_changed": ("判定改变", "decision changed"),
    "OLD": ("旧版", "OLD"),
    "NEW": ("新版", "NEW"),
}

SEVERITY = {"error": ("错误", "error"), "warning": ("警告", "warning"), "note": ("提示", "note")}

#: the Chinese title of each check code (the English one is the code's summary in the registry)
CODE_ZH = {
    "KD001": "生成类技能被标为初始技能", "KD002": "转化的唯一目标是它自己", "KD003": "摸牌数可能为负",
    "KD004": "传出规则生效时没有任何方向、锁定或牌可选", "KD005": "濒死前技能永远不会发动",
    "KD006": "接收规则自相矛盾（必须且不能接收）", "KD007": "没有任何可用时机的卡牌",
    "KD008": "没有任何可用时机的主动技能", "KD009": "角色自己的技能被标为非初始",
    "KD010": "给出的禁令不禁止任何牌",
    "CV001": "没有被禁止的手牌却不能当作任何牌使用", "CV002": "可选转化的宣言用法被必须转化否决",
    "UR001": "没有角色持有的技能", "UR002": "没有任何途径给出的技能", "UR003": "在任何可达局面都不生效的规则",
    "UR004": "会生效的转化在某些局面被别的转化挡住",
    "BN001": "被禁止的牌经转化仍能打出", "BN002": "结算牌效果的技能不检查禁令",
    "BN003": "技能打出一名玩家的牌，却检查另一名玩家的禁令", "BN004": "技能按宣言的牌检查，却结算实际的牌",
    "RC001": "玩家同时必须接收又不能接收情报", "RC002": "接收规则生效时某些玩家永远不能接收情报",
    "OV001": "持有的传出技能被同组后来的技能挡住", "OV002": "无效生效中的技能后，同组退回更早的技能而非默认规则",
    "IV001": "给出者被无效时，它给出的规则仍然生效", "IV002": "给出技能的持续时间与种类矛盾或超出回合",
    "IV003": "回合结束后一回合技能仍被持有，或技能仍被无效",
    "RR001": "换角色时丢失本应持续到回合结束的技能",
    "SK001": "争夺阶段跳过了能行动的玩家", "SK002": "濒死求澄清时跳过了能救人的玩家",
    "SK003": "争夺阶段询问了什么都不能用的玩家", "SK004": "濒死求澄清时询问了什么都不能用的玩家",
    "RM001": "结束出牌阶段时提醒了此刻用不了的出牌阶段技能", "RM002": "结束出牌阶段时还能用的出牌阶段技能没有被提醒",
    "TB001": "在写明的任何时机，目标条件和 `requires` 都不能同时成立的牌",
    "OD001": "摸牌数取决于两个摸牌规则的获得顺序", "OD002": "胜负取决于两个结算技能的先后（座位顺序）",
    "IN001": "目录违反了规则书的承诺（意图）", "IN002": "意图只因前提永远不成立而成立",
    "INC001": "求解器无法判定（结果未知、超时或时间预算用完）",
    "INT001": "内部错误：求解器与解释器不一致（见证不能重放）",
    "UNR001": "改动了提取器没有读懂的规则代码（门禁无法判定）",
    "UNR002": "目录的差异没有一个判定能区分（门禁无法判定）",
    "TR001": "触发与效果组成的链可以无限重复", "TR002": "效果操作被自己的触发排除（或点名事件没有的角色）",
    "TR003": "获得的触发技能在持有者死后仍会发动", "TR004": "同一角色回应同一事件的两个技能结果取决于列表顺序",
    "TR005": "触发技能永远不能回应它写明的事件",
}

#: the Chinese title of each check family (the English one is the family's title in the registry)
FAMILY_ZH = {
    "kinds": "技能种类矛盾", "conversion": "转化矛盾", "unreachable": "不可达和被挡住的规则", "bans": "禁令被绕过",
    "receive": "接收矛盾", "override": "传出技能组的覆盖顺序", "invalidation": "无效与持续时间",
    "replacement": "换角色", "skip": "跳过阶段", "order": "顺序依赖", "intent": "意图：规则书的承诺",
    "triggers": "触发与效果",
    "remind": "出牌阶段结束时的提醒",
    "table": "牌桌上的牌",
    "table": "牌桌上的卡牌",
    "inconclusive": "无法判定",
}


#: what a rule does in a finding (``RuleRef.role``, written by the check families in English), in Chinese
ROLE_ZH = {
    "its conditions": "它的条件", "its target": "它的目标",
    "gives it": "给出它", "bans the card": "禁止这张牌", "the promise": "承诺", "shadowed": "被挡住",
    "says cannot receive": "规定不能接收", "invalidated": "被无效", "vetoes": "否决", "usable, yet skipped": "能用却被跳过",
    "the grant": "给出的技能", "the ban": "禁令", "survives turn end": "回合结束后仍在", "stays in force": "仍然生效",
    "says must receive": "规定必须接收", "resolves the physical card": "结算实际的牌", "replaces the role": "换角色",
    "never lets them receive": "使其永远不能接收", "makes the server ask": "让服务器询问", "lasts the turn": "持续到回合结束",
    "is vetoed": "被否决", "in force": "生效", "holds only vacuously": "只是空洞地成立", "hidden": "隐藏",
    "hidden role never face up": "隐藏角色从未翻开", "hands it out": "给出它", "gives the vetoing rule": "给出否决它的规则",
    "forces the declared type": "强制宣言的牌", "forbids every use": "禁止一切使用", "fires instead": "改由它发动",
    "converts it past the ban": "把它转化后绕过禁令", "checks the wrong player's bans": "检查了另一名玩家的禁令",
    "bans the declared type": "禁止宣言的牌", "bans the cards of the phase": "禁止这个阶段的牌",
    "back in force": "重新生效", "acts as the card, unchecked": "当作这张牌生效，不查禁令",
    "makes it happen": "使它发生", "in the trace": "在经过中", "rules it out": "排除了它",
    "a role replacement": "换角色", "says must and cannot receive": "规定既必须又不能接收",
    "its gives site": "它的给出点", "hands it out here (its gives site)": "在这里给出它（它的给出点）",
    "never answers": "永远不回应", "op ruled out": "被排除的操作", "trigger": "触发", "op": "操作",
    "fires for a dead holder": "替死去的持有者发动", "asked first": "先被询问", "asked second": "后被询问",
    "changes it": "改变它", "holds both": "两个都持有", "raises": "引发事件",
    "prompts for it": "提醒它", "rules its use out": "使它用不了", "does not prompt": "不提醒", "usable then": "此刻能用",
}


def role(r) -> str:
    """What a rule does in a finding (a RuleRef's or a rule dict's ``role``), in the run's language; roles joined
    with "; " are each translated."""
    text = r.get("role", "") if isinstance(r, dict) else getattr(r, "role", "")
    if is_en() or not text:
        return text
    return "；".join(ROLE_ZH.get(x, x) for x in text.split("; "))


def t(key: str) -> str:
    """The word or label ``key`` in the run's language."""
    zh, en = WORDS[key]
    return pick(zh, en)


def sev(s: str) -> str:
    """A severity for people: 错误/警告/提示 or error/warning/note."""
    zh, en = SEVERITY.get(s, (s, s))
    return pick(zh, en)


def _en_windows(text: str) -> str:
    """The registry's English summaries name windows in Chinese (争夺阶段): their English names instead."""
    from skillproof.model.turn import WINDOW_EN, WINDOWS
    for w in sorted(WINDOWS.values(), key=lambda w: -len(w.zh)):
        text = text.replace(w.zh, "the " + WINDOW_EN[w.id] if not WINDOW_EN[w.id].startswith("dying") else
                            "the dying window")
    return text


def code_title(code: str, c=None) -> str:
    """A check code's one-line title: Chinese from CODE_ZH, English from the registry's summary."""
    if is_en():
        return _en_windows(c.summary) if c is not None else code
    return CODE_ZH.get(code, c.summary if c is not None else code)


def code_heading(code: str, c=None) -> str:
    """``CV002 conversion-vetoed — …`` (en) or ``CV002 可选转化的宣言用法被必须转化否决`` (zh)."""
    if is_en():
        return f"{code} {c.name} — {_en_windows(c.summary)}" if c is not None else code
    return f"{code} {code_title(code, c)}"


def family_title(name: str, fam=None) -> str:
    if is_en():
        return fam.title if fam is not None else name
    return FAMILY_ZH.get(name, fam.title if fam is not None else name)


def page_text(c, field: str) -> str:
    """One part of a check's page (``summary``, ``why``, ``also_when``, ``todo``) in the run's language: the
    Chinese its declaration gives (``summary_zh`` …), or the English with the windows named in English."""
    en = getattr(c, field, "") or ""
    if is_en():
        return _en_windows(en)
    return getattr(c, field + "_zh", "") or en


def family_doc(fam) -> str:
    """A family's page text: its module's ``DOC_ZH`` (zh) or docstring (en)."""
    if is_en():
        return _en_windows(fam.doc)
    return fam.doc_zh or fam.doc


def msg(fd: dict) -> str:
    """A finding's sentence (a Finding or its dict) in the run's language."""
    if hasattr(fd, "text"):
        return fd.text()
    return (fd.get("message_en") or fd.get("message", "")) if is_en() else fd.get("message", "")


def fix(fd) -> str:
    """A finding's fix hint in the run's language ('' when it has none)."""
    if hasattr(fd, "hint"):
        return fd.hint()
    return (fd.get("fix_en") or fd.get("fix", "")) if is_en() else fd.get("fix", "")


def plural(n: int, zh_unit: str, en_word: str, en_plural: str | None = None) -> str:
    """``3 个问题`` / ``3 findings`` (``1 finding``)."""
    if is_en():
        return f"{n} {en_word if n == 1 else (en_plural or en_word + 's')}"
    return f"{n}{zh_unit}"


def value(v) -> str:
    """A plain value for people: booleans as 是/否 or yes/no, lists joined, never a Python repr."""
    if isinstance(v, bool):
        return yes_no(v)
    if v is None:
        return "—"
    if isinstance(v, (list, tuple, set)):
        return pick("、", ", ").join(value(x) for x in v)
    if isinstance(v, dict):
        return pick("，", ", ").join(f"{k}={value(x)}" for k, x in sorted(v.items()))
    return str(v)
