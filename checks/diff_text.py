"""The words of `diff` for people, in Chinese and English: the names of the versions and of changed ids, the
facts a one-sided situation is compared on, and the values those facts take.

`diff` writes every sentence in both languages when it makes it (``both``): JSON keeps the Chinese (``message``,
a reason's ``text``) and adds the English (``message_en``, ``text_en``), as findings do, so a report reads the
same whatever language the run that made it had. Names of the catalogue stay as the catalogue writes them;
internal ids (``BianZeTong#0``, ``mao_bu_ba``) and Python values (``True``, ``()``) are never shown.
"""
from __future__ import annotations

from skillproof.model import lang
from skillproof.model import turn as TW
from skillproof.model.kinds import KINDS
from skillproof.model.lang import param_name, pick, yes_no


def both(fn, *args, **kw) -> tuple[str, str]:
    """``fn(*args, **kw)`` made once in Chinese and once in English: ``(zh, en)``."""
    with lang.using("zh"):
        zh = fn(*args, **kw)
    with lang.using("en"):
        en = fn(*args, **kw)
    return zh, en


SIDE_ZH = {"new": "新版", "old": "旧版"}
SIDE_EN = {"new": "NEW", "old": "OLD"}


def side_name(name: str) -> str:
    """"new" / "old" as people call the versions: 新版 / 旧版, NEW / OLD."""
    return pick(SIDE_ZH[name], SIDE_EN[name])


#: the skill kinds in English (their Chinese names are ``model.kinds.KINDS[k].zh``)
KIND_EN = {"Skill": "skill", "ActiveSkill": "active skill", "MainPhaseSkill": "main-phase skill",
           "TriggeredSkill": "triggered skill", "InvalidSkill": "invalidation", "OneTurnSkill": "one-turn skill",
           "CannotPlayCard": "card ban", "MustReceiveMessage": "must / cannot receive",
           "ConvertCardSkill": "card conversion", "SendMessageDirectionSkill": "send direction",
           "SendMessageCanLockSkill": "send lock", "SendMessageCardSkill": "message card choice",
           "WinSkill": "win skill", "ChangeGameResultSkill": "game result change",
           "BeforeDieSkill": "before-death skill", "ChangeDrawCardCountSkill": "draw count"}


def kind_name(k: str) -> str:
    kd = KINDS.get(k)
    return pick(kd.zh if kd else k, KIND_EN.get(k, k))


def kinds_text(kinds) -> str:
    """A skill's kinds (the base ``Skill`` left out when it has others), in the designer's words."""
    ks = [k for k in kinds if k != "Skill"] or list(kinds)
    return pick("、", ", ").join(kind_name(k) for k in ks)


def window_name(wid: str | None) -> str:
    if wid is None:
        return pick("任何时机", "any window")
    return TW.window_name(wid)


ACTOR_EN = {"turn": "the turn player", "others": "other players", "anyone": "anyone",
            "in_front": "the player the message is in front of", "not_in_front": "players the message is not in front of",
            "sender": "the sender", "dying_player": "the dying player", "nobody": "nobody"}


def actor_name(a: str) -> str:
    zh = TW.ACTORS.get(a, (a, a))[0]
    return pick(zh, ACTOR_EN.get(a, a))


def windows_text(windows) -> str:
    """A card's or skill's windows (window -> who may act): 出牌阶段（当前回合角色） / main phase (the turn player)."""
    items = sorted(dict(windows).items(), key=lambda kv: TW.WINDOWS[kv[0]].position if kv[0] in TW.WINDOWS else 99)
    if not items:
        return pick("无", "none")
    return pick("、", "; ").join(pick(f"{window_name(w)}（{actor_name(a)}）", f"{window_name(w)} ({actor_name(a)})")
                                 for w, a in items)


TO = {"self": ("给出者自己", "the giver himself"), "target": ("指定的角色", "a chosen player"),
      "others": ("其他角色", "other players"), "all": ("所有角色", "every player")}
LIFETIME = {"turn": ("本回合", "this turn"), "until_fired": ("发动后移除", "until it fires"),
            "permanent": ("一直持有", "permanent"), "resolution": ("所随的牌结算完为止", "while its card resolves")}
PARAM_TYPE = {"card": ("牌", "card"), "bool": ("是否", "yes/no"), "int": ("数", "number"), "colour": ("颜色", "colour"),
              "set<card>": ("一组牌", "set of cards")}
WHOSE = {"user": ("使用者的", "the user's"), "target": ("目标的", "the target's"), "none": ("虚拟的", "a virtual")}


def _word(table: dict, k) -> str:
    zh, en = table.get(k, (str(k), str(k)))
    return pick(zh, en)


def value_text(cat, v) -> str:
    """A plain value: 是/否 or yes/no, names of the catalogue for ids, sets as {a、b}, never a Python repr."""
    if isinstance(v, bool):
        return yes_no(v)
    if v is None:
        return "—"
    if isinstance(v, (list, tuple, set, frozenset)):
        return "{" + pick("、", ", ").join(value_text(cat, x) for x in v) + "}"
    if isinstance(v, str) and cat is not None:
        return cat.name_of(v)
    return str(v)


def args_text(cat, args: dict) -> str:
    """A grant's arguments: 所有牌=是，牌={} / all cards=yes, cards={}."""
    return pick("，", ", ").join(f"{param_name(k)}={value_text(cat, v)}" for k, v in sorted(args.items()))


def plays_text(cat, plays) -> str:
    if plays is None:
        return pick("无", "none")
    cards = pick("、", ", ").join(cat.name_of(c) for c in plays.cards)
    bans = pick(f"查看{_word(WHOSE, plays.bans_of)}禁令" if plays.checks_bans else "不查看禁令",
                f"checks {_word(WHOSE, plays.bans_of)} bans" if plays.checks_bans else "checks no bans")
    card = _word(WHOSE, plays.card_of) + pick("牌", " card")
    res = pick("结算宣言的牌" if plays.resolves == "declared" else "结算实际的牌",
               "resolves the declared card" if plays.resolves == "declared" else "resolves the physical card")
    return pick(f"当作{cards}（{bans}；{card}；{res}）", f"as {cards} ({bans}; {card}; {res})")


#: the facts a one-sided situation is compared on (``Sit.view``): key -> (zh, en)
FACTS = {"hidden": ("隐藏角色", "hidden role"), "female": ("女性", "female"), "skills": ("技能", "skills"),
         "kinds": ("种类", "kinds"), "initial": ("初始技能", "initial skill"), "consumed": ("用后移除", "consumed"),
         "flips": ("发动时翻开角色", "flips the role face up"), "lifetime": ("持续", "lifetime"),
         "params": ("参数", "parameters"), "windows": ("可用时机", "windows"),
         "replaces_role": ("换角色", "replaces the role"), "plays": ("打出", "plays"),
         "invalidated": ("被无效", "invalidated"), "grant": ("给出的技能", "grant"), "to": ("给谁", "given to"),
         "at": ("给出的时机", "given in"), "by_self": ("由玩家自己给出", "given by the player himself"),
         "args": ("参数值", "arguments")}


def fact_name(k: str) -> str:
    return _word(FACTS, k)


def fact_value(cat, k: str, v) -> str:
    """A fact's value for people (``Sit.view`` keeps them raw: booleans, ids, tuples)."""
    if v is None:
        return "—"
    if k == "kinds":
        return kinds_text(v)
    if k == "skills":
        return pick("、", ", ").join(cat.name_of(r) for r in v) or pick("无", "none")
    if k == "windows":
        return windows_text(v)
    if k == "lifetime":
        return _word(LIFETIME, v)
    if k == "params":
        return pick("，", ", ").join(pick(f"{param_name(p)}（{_word(PARAM_TYPE, t)}）", f"{param_name(p)} ({_word(PARAM_TYPE, t)})")
                                     for p, t in v) or pick("无", "none")
    if k == "plays":
        return plays_text(cat, v)
    if k == "to":
        return _word(TO, v)
    if k == "at":
        return pick("、", ", ").join(window_name(w) for w in v) if v else window_name(None)
    if k == "args":
        return args_text(cat, dict(v)) or pick("无", "none")
    if k == "grant":
        return cat.name_of(v)
    return value_text(cat, v)


def site_name(cat, give, index: int | None = None) -> str:
    """A gives site for people: 【变则通】→【变则通·宣言】 / 变则通 → 变则通·宣言 (its place among its giver's sites
    of the same grant when there are several)."""
    grant = cat.name_of(give.grant)
    giver = cat.name_of(give.giver)
    src = (cat.skills.get(give.giver) or cat.cards.get(give.giver))
    same = [g for g in (src.gives if src is not None else []) if g.grant == give.grant]
    nth = ""
    if len(same) > 1:
        k = next((i for i, g in enumerate(same) if g is give), 0) + 1
        nth = pick(f"（第{k}处）", f" (site {k})")
    return pick(f"【{giver}】→【{grant}】{nth}", f"{giver} → {grant}{nth}")


def id_name(cat, rid: str) -> str:
    """A changed id for people: a name of the catalogue, a gives site as giver → grant, [rules] as the engine rules."""
    if rid == "[rules]":
        return pick("引擎规则", "engine rules ([rules])")
    if "#" in rid:
        from skillproof.model.interp.grants import site_of
        give = site_of(cat, rid.split(" ")[0])
        if give is not None and give.grant in cat.skills:
            return site_name(cat, give)
    return cat.name_of(rid)


KIND = {"character": ("角色", "character"), "skill": ("技能", "skill"), "grant": ("给出的技能", "grant"),
        "card": ("牌", "card"), "site": ("给出点", "gives site")}


def kind_word(kind: str) -> str:
    return _word(KIND, kind)


#: the decisions `diff` compares (``checks.diff.DECISIONS``)
DECISION = {"conversion": ("转化", "conversion"), "banned": ("禁令", "ban"), "receive": ("接收情报", "receive"),
            "send": ("传出情报", "send"), "skip_fight": ("争夺阶段跳过", "fight-phase skip"),
            "skip_dying": ("濒死求澄清跳过", "dying-window skip"), "draw": ("摸牌数", "draw count")}


def decision_word(d: str) -> str:
    return _word(DECISION, d)


# ================================================================================ engine rules
#: the [rules] keys of the catalogue (docs/catalogue-format.md) and the engine rules the Kotlin extractor reads
#: beyond them, for people: key -> (zh, en). The key itself is shown too: it is what the catalogue (or the
#: extraction report) writes.
ENGINE_RULES = {
    "seats": ("一局最多几人", "most players in one game"),
    "min_seats": ("一局最少几人", "fewest players in one game"),
    "draw_base": ("摸牌阶段基础摸牌数", "cards drawn before any draw skill"),
    "turn_end": ("回合结束时依次做的事", "what happens at turn end, in order"),
    "must_beats_cannot": ("必须接收压过不能接收", "must-receive beats cannot-receive"),
    "face_down_converts": ("背面朝上时初始转化技能生效", "initial conversions apply while face down"),
    "face_down_grant_converts": ("背面朝上时给出的转化技能生效", "granted conversions apply while face down"),
    "must_receive": ("引擎要求谁接收面前的情报", "whom the engine makes receive"),
    "skip_fight": ("争夺阶段跳过玩家的条件", "what the fight-phase skip tests"),
    "skip_dying": ("濒死求澄清跳过玩家的条件", "what the dying-window skip tests"),
    "lock_self": ("传出者能否锁定自己", "whether the sender may lock himself"),
    "invalidation.wraps": ("技能无效包裹哪些技能", "which skills invalidation wraps"),
    "trigger.source": ("触发技能从哪里找", "where triggered skills are found"),
    "trigger.dead_owner": ("已死亡角色的触发技能是否被询问", "which triggered skills of a dead owner are asked"),
    "roles.start_face_up": ("开局正面朝上的角色", "which roles start face up"),
    "convert.only_must": ("只考虑必须转化的模式", "a mode that considers must-conversions only"),
    "convert.pick": ("取用哪个转化", "which conversion is taken"),
    "setup.hand": ("开局每人摸几张手牌", "the hand each player starts with"),
    "setup.tasks": ("按人数发哪些秘密任务", "the secret tasks dealt, by the number of players"),
    "setup.role_options": ("开局每人可选几个角色", "how many roles each player is offered"),
    "draw_fold": ("摸牌阶段是否按摸牌技能折算摸牌数", "whether the draw phase draws the count the draw skills fold"),
    "send_check": ("何时拒绝一次传出情报", "when a send is refused"),
    "send_face": ("情报在传递途中的朝向（面朝下、面朝上，或保持传出时的朝向）", "the face a message travels with (face "
                  "down, face up, or as it was sent)"),
    "setup.identities": ("按人数发哪些身份（各几名）", "the identities dealt (how many of each), by the number of players"),
    "setup.tasks_told": ("按人数告知所有玩家本局可能的秘密任务有几个", "how many possible secret tasks every player is told, "
                         "by the number of players"),
}
#: engine rules named by a prefix (the rest of the name is a server class or pass)
ENGINE_PREFIXES = {
    "flow.": ("引擎在这一步之后进入哪些状态、交给它们什么（谁被询问、从谁开始）", "the states the engine goes on to after this "
              "step, and what they are handed (whom they ask, from whom)"),
    "lock_self.": ("传出者能否锁定自己", "whether the sender may lock himself"),
    "send.": ("一个技能或卡牌自己传出的情报：方向、锁定谁、面朝上或朝下", "the send a skill or card makes itself: its "
              "direction, whom it locks, face up or down"),
    "state.": ("一个游戏状态做什么、在什么条件下做（询问谁、跳过谁、引发哪些事件、移动哪些牌）", "what a game state does, and "
               "when (whom it asks or passes over, the events it raises, the cards it moves)"),
    "convert.loop": ("转化循环：一张牌与哪些转化技能相符、取哪一个", "the conversion loop: which conversion skills a card "
                     "matches, and which one is taken"),
    "deck.": ("牌堆：何时洗回弃牌堆、一次摸几张", "the deck: when the discard pile is shuffled back, how many cards a draw takes"),
    "refuse.": ("一个技能、卡牌或操作的处理何时拒绝玩家的选择（传出的限制、目标的限制）", "when a skill's, card's or "
                "action's handler refuses the player's choice (what may be sent, whom it may name)"),
    "result_pass.start": ("游戏结果结算从谁开始", "where the game-result pass starts"),
    "result_pass.declared": ("每一处胜利交给改变游戏结果的技能哪些宣告胜利的角色", "whom each win hands the game-result skills "
                             "(尾声, 比翼双飞 …) as declared winners"),
    "result_pass.dead_owner": ("游戏结果结算是否询问已死亡角色", "which skills of a dead owner the game-result pass asks"),
    "win_pass.start": ("宣胜结算从谁开始", "where the win pass starts"),
    "win_pass.dead_owner": ("宣胜结算是否询问已死亡角色", "which skills of a dead owner the win pass asks"),
    "win.check": ("胜利判定：谁宣告胜利、谁获胜（收到或置入情报后）", "the win check: who declares victory and who wins "
                  "(after a message is received or put into an area)"),
    "win.killer": ("死亡结算后的胜利判定（镇压者、清道夫、先行者……）", "the win check after deaths (镇压者, 清道夫, 先行者 …)"),
    "win.last_alive.at": ("在哪里检查只剩一个阵营存活", "where the last-camp-alive end is checked"),
    "win.last_alive": ("只剩一个阵营（或一名角色）存活时游戏结束：谁获胜", "the end when one camp (or player) is left alive: "
                       "who wins"),
    "win.skill.": ("一个胜利技能的判定（checkWin）：谁宣告胜利、谁获胜", "a win skill's check (checkWin): who declares victory and "
                   "who wins"),
    "result.skill.": ("一个改变游戏结果的技能（changeGameResult）：谁获胜", "a game-result skill (changeGameResult): who wins"),
    "lose": ("引擎何时让一名角色出局（不再随阵营获胜）", "when the engine puts a player out of the game (out of his camp's "
              "win)"),
    "process.": ("流程状态依次做的步骤（触发技能、胜利判定、濒死……）", "the steps a process state takes, in order (triggers, "
                 "win check, dying …)"),
    "trigger.from.": ("询问触发技能从哪个座位开始", "the seat the trigger dispatch starts asking from"),
    "order.from.": ("一轮询问从哪个座位开始", "the seat an asking round starts from"),
    "order.step.": ("一轮询问按哪个方向进行", "which way an asking round goes round the table"),
    "win.": ("引擎的另一处胜利判定（名字后面是它所在的服务器类）：谁宣告胜利、谁获胜", "another win check of the engine (named "
             "by its server class): who declares victory and who wins"),
}
#: values of engine rules as the catalogue and the extractor write them
ENGINE_VALUES = {
    "restore_invalid": ("恢复被无效的技能", "restore invalidated skills"),
    "drop_one_turn": ("移除本回合技能", "drop one-turn skills"),
    "locked": ("被锁定的角色", "the locked player"), "sender": ("传出者", "the sender"),
    "turn": ("当前回合角色", "the turn player"),
    "can_use": ("能用的牌或技能", "a usable card or skill"), "skills_gone": ("技能全部失去", "all skills gone"),
    "every skill": ("所有技能", "every skill"), "initial skills": ("初始技能", "initial skills"),
    "public roles": ("公开角色", "public roles"), "hidden roles": ("隐藏角色", "hidden roles"),
    "a game-wide listening list": ("全局的监听列表", "a game-wide listening list"),
    "the players' skill lists": ("玩家的技能列表", "the players' skill lists"),
    "alive": ("活着的角色", "alive"), "whose turn": ("当前回合角色", "whose turn"),
    "generated": ("生成的技能", "generated skills"), "initial": ("初始技能", "initial skills"),
    "BeforeDieSkill": ("死亡前技能", "before-death skills"), "none": ("无", "none"),
}
_DIE_PHASE = "in the die phase: "


def engine_label(name: str) -> str:
    """What an engine rule decides, in the run's language ('' when it is not known here)."""
    pair = ENGINE_RULES.get(name) or next((v for k, v in ENGINE_PREFIXES.items() if name.startswith(k)), None)
    return pick(*pair) if pair else ""


def engine_value(v) -> str:
    """An engine rule's value for people: 是/否, the words of its tokens, 未读出 / unknown for none."""
    if v is None:
        return pick("未读出", "unknown")
    if isinstance(v, bool):
        return yes_no(v)
    if isinstance(v, (list, tuple)):
        return pick("、", ", ").join(engine_value(x) for x in v) or pick("无", "none")
    if isinstance(v, str) and v in ENGINE_VALUES:
        return pick(*ENGINE_VALUES[v])
    if isinstance(v, str):          # the extractor's "generated, initial; in the die phase: BeforeDieSkill"
        parts = []
        for part in v.split("; "):
            die = part.startswith(_DIE_PHASE)
            items = part[len(_DIE_PHASE):].split(", ") if die else part.split(", ")
            if not all(x in ENGINE_VALUES for x in items):
                return v
            words = pick("、", ", ").join(pick(*ENGINE_VALUES[x]) for x in items)
            parts.append(pick(f"死亡结算时：{words}", f"in the die phase: {words}") if die else words)
        return pick("；", "; ").join(parts)
    return str(v)


def engine_name(name: str, key: bool = True) -> str:
    """``引擎规则 draw_base（摸牌阶段基础摸牌数）`` / ``[rules] draw_base (cards drawn before any draw skill)``."""
    label = engine_label(name)
    if lang.is_en():
        head = f"[rules] {name}" if key else f"engine rule {name}"
        return f"{head} ({label})" if label else head
    return f"引擎规则 {name}（{label}）" if label else f"引擎规则 {name}"


def engine_change(name: str, old, new, key: bool = True) -> str:
    """A changed engine rule in one line: its name, what it decides, OLD's value → NEW's (for a list of clauses, the
    clauses gone and the clauses new)."""
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and max(len(old), len(new)) > 3:
        gone = [str(x) for x in old if x not in new]
        came = [str(x) for x in new if x not in old]
        parts = []
        if gone:
            parts.append(pick("不再：" + "；".join(gone), "no longer: " + "; ".join(gone)))
        if came:
            parts.append(pick("现在：" + "；".join(came), "now: " + "; ".join(came)))
        if not parts:
            parts.append(pick("同样的条款换了顺序", "the same clauses in another order"))
        return pick(f"{engine_name(name, key)}：" + "。".join(parts), f"{engine_name(name, key)}: " + ". ".join(parts))
    return pick(f"{engine_name(name, key)}：{engine_value(old)} → {engine_value(new)}",
                f"{engine_name(name, key)}: {engine_value(old)} → {engine_value(new)}")
