"""The phrasebook of the ask language: how designers write a question — in Chinese first, in English too —
turned into the words of its grammar (parser.GRAMMAR). One table, ``PHRASES``: each row a pattern over the
question's tokens and what it stands for. The parser reads the result; every word it makes keeps the columns
of the words it came from, so an error still points at what the designer wrote.

A pattern is a list of items, one token each (``?`` after an item: it may be left out):

* a word or ``a|b|c`` (any of them; compared in lower case), or a word class of ``CLASSES`` (``OTHER``, ``SELF`` …);
* a slot: ``CARD``, ``TCARD`` (a card that hands out no skill), ``SKILL`` (a skill or grant), ``GIVER`` (a skill or card that hands skills out), ``CHAR``,
  ``NUM``, ``DIR`` (up / left / right, 上 / 左 / 右), ``COLOUR`` (红色 / red …), ``WINDOW`` (a window phrase, one or
  more tokens: 出牌阶段, main phase …) — a slot is copied into the result as the designer's own tokens.

What it stands for is a string of the grammar's words and slots (``{CARD}``, ``{CARD2}`` for the second CARD, …),
and two kinds of ready-made givens: ``@cond(EXPR)`` — a condition of the catalogue's condition language on the
player (``@cond(locked)``, ``@cond({COLOUR}_messages == {NUM})``) — and ``@role(NAME)`` — a role of the table the
condition language has no word for (``sender``: who sends this turn's message; ``miling``: 密令's target, who sends
it in another player's turn; ``sender_is`` with a CHAR: that character sends it). The parser takes both wherever
a given may stand (parser.Parser.token_given).

Rows are tried at every position, the longest match first (then the first listed); a row's words are taken
once, left to right. docs/query-language.md lists the table (a test keeps the two in step).
"""
from __future__ import annotations

from dataclasses import dataclass

#: word classes of the patterns
CLASSES = {
    "OTHER": ("别人", "他人", "其他角色", "其他人", "其他玩家", "对方", "别的角色", "别的玩家", "其它角色", "其它玩家",
              "别家"),
    "SELF": ("自己", "我", "你", "他", "她", "我的", "你的", "自家", "本人", "持有者", "拥有者", "技能持有者", "其持有者",
             "技能拥有者", "角色本人"),
    "IN": ("中", "里", "内", "时", "期间", "当中", "之中"),
    "AS": ("当作", "当", "当做", "当成", "视为", "视作", "作为", "作"),
    "USEV": ("使用", "打出", "用", "出", "使"),
    "SKILLV": ("发动", "使用", "用"),
    "PLAYER": ("角色", "玩家", "人", "一名角色", "一名玩家", "一个角色", "某名角色", "某个角色", "新角色", "新的角色"),
    "ONE": ("一", "1", "一名", "一个", "一位"),
    "TWICE": ("两次", "二次", "2次", "第二次", "多次", "连续"),
    "MSG": ("情报", "这张情报", "待收情报"),
    "AFTER": ("后", "之后", "以后", "过后", "后面"),
    "WHEN": ("时", "的时候", "时候", "之时"),
    "WHO": ("谁", "哪些角色", "哪个角色", "哪位角色", "哪名角色", "哪些人", "哪些玩家", "哪个玩家", "哪位"),
}

#: colour words: the condition language's colour and its message counter
COLOURS = {"红色": "red", "红": "red", "蓝色": "blue", "蓝": "blue", "黑色": "black", "黑": "black",
           "red": "red", "blue": "blue", "black": "black"}
#: identity words: the identity colour
IDENTITIES = {"神秘人": "black", "潜伏战线": "red", "潜伏": "red", "红方": "red", "特工机关": "blue", "军情": "blue",
              "军情处": "blue", "蓝方": "blue", "无身份": "none"}
#: secret-task words (model/interp/win.py TASK_WORDS, and the rule book's 篡夺者, 双面间谍 — card/secret_task.md): the task
TASKS = {"镇压者": "killer", "篡夺者": "stealer", "簒夺者": "stealer", "双重间谍": "collector", "双面间谍": "collector",
         "诱变者": "mutator",
         "先行者": "pioneer", "搅局者": "disturber", "清道夫": "sweeper", "killer": "killer", "stealer": "stealer",
         "collector": "collector", "mutator": "mutator", "pioneer": "pioneer", "disturber": "disturber",
         "sweeper": "sweeper"}
DIR_WORDS = {"上": "up", "左": "left", "右": "right", "up": "up", "left": "left", "right": "right", "向上": "up",
             "向左": "left", "向右": "right"}
CLASSIFIERS = "张名个位种次人"
NUMERALS = {"零": 0, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
            "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}

# (pattern, meaning). Grouped by what they say; docs/query-language.md "The phrasebook" shows every row.
PHRASES: list[tuple[str, str]] = [
    # ---- whose turn, and the window (在别人的出牌阶段, 自己回合的争夺阶段, 在陈大耳的回合)
    ("在? OTHER 的? 回合 的? PHASEW IN?", "in another player turn in {PHASEW}"),
    ("在? OTHER 的? PHASEW IN?", "in another player turn in {PHASEW}"),
    ("在? SELF 的? 回合 的? PHASEW IN?", "in own turn in {PHASEW}"),
    ("在? SELF 的? PHASEW IN?", "in own turn in {PHASEW}"),
    ("在? CHAR 的 回合? 的? PHASEW IN?", "in {CHAR} turn in {PHASEW}"),
    ("在? OTHER 的? 回合 IN?", "in another player turn"),
    ("在? SELF 的? 回合 IN?", "in own turn"),
    ("非 SELF 回合", "in another player turn"),
    ("在? WINDOW 以外|之外", "outside {WINDOW}"),
    ("在 一个|每个|同一个? WINDOW IN?", "in {WINDOW}"),
    ("一个|每个|同一个 WINDOW IN?", "in {WINDOW}"),
    ("需要|必须|得|要 在", "only"),
    ("outside the? WINDOW", "outside {WINDOW}"),
    ("WINDOW IN", "in {WINDOW}"),
    ("in|during someone|somebody else WINDOW", "in another player turn in {WINDOW}"),
    ("in|during another|other player|players? WINDOW", "in another player turn in {WINDOW}"),
    ("in|during another|other WINDOW", "in another player turn in {WINDOW}"),
    ("in|during her|his|their|my|your own WINDOW", "in own turn in {WINDOW}"),
    ("in|during her|his|their|my|your WINDOW", "in own turn in {WINDOW}"),
    ("in|during CHAR WINDOW", "in {CHAR} turn in {WINDOW}"),
    ("在? WINDOW 结束 WHEN|IN?", "in {WINDOW}"),
    ("点? 结束 WINDOW WHEN|IN?", "in {WINDOW}"),
    ("when|on ending|closing the? WINDOW", "in {WINDOW}"),
    ("at the end of the? WINDOW", "in {WINDOW}"),
    ("传出 MSG? 前|之前|以前", "at send phase start"),
    ("at|on the start of the? send phase", "at send phase start"),
    ("at|on the start of someone|somebody else send phase", "at send phase start in another player turn"),
    ("at|on the start of another|other player|players send phase", "at send phase start in another player turn"),
    ("传出 MSG? 之前 的? 时候?", "at send phase start"),
    # ---- someone dying (有人濒死时, 自己濒死时, 别人濒死时)
    ("在? OTHER 濒死 WHEN", "when someone is dying @cond(not dying)"),
    ("在? SELF 濒死 WHEN", "when someone is dying @cond(dying)"),
    ("在? 有人|一名角色|某人|任何人|某名角色|一个角色|有角色|有玩家 濒死 WHEN", "when someone is dying"),
    ("在? 有人|一名角色|某人|任何人 进入 濒死 WHEN?", "when someone is dying"),
    ("在? 濒死 WHEN", "when someone is dying @cond(dying)"),
    ("不 濒死 WHEN", "@cond(not dying)"),
    ("濒死 的 PLAYER", "@cond(dying) anyone"),
    # ---- the moving table (table questions, checks/ask/table.py): dying, death, winning, one's own message
    ("进入 濒死 状态?", "@cond(dying)"),
    ("濒死 吗|呢", "@cond(dying)"),
    ("be|become|go dying", "be_dying"),
    ("死|死掉|阵亡|被杀死|被杀", "@cond(not alive)"),
    ("be killed", "die"),
    ("以 IDENTITY 的? 身份? 获胜|胜利|赢|宣胜", "@cond(identity == {IDENTITY}) win"),
    ("获胜|胜利|赢|宣胜|赢得胜利|取得胜利", "win"),
    ("作为|身为|是 TASK", "@role(task {TASK})"),
    ("TASK", "@role(task {TASK}) anyone"),
    ("as a|the? TASK", "@role(task {TASK})"),
    ("a|the? double agent|spy", "@role(task collector) anyone"),     # the rule book's 双重间谍 in English
    # the win read on the area as he wins (以三张蓝色情报获胜, win with three blue messages): phrases @cond(end: …)
    ("以|凭|靠 NUM 张? COLOUR MSG 获胜|胜利|赢|宣胜", "win @cond(end: {COLOUR}_messages == {NUM})"),
    ("win|wins with NUM COLOUR messages|message", "win @cond(end: {COLOUR}_messages == {NUM})"),
    ("被 CARD 放入|置入|放进 情报区? MSG?", "@role(card_on {CARD})"),
    ("和|与|, NUM 张 COLOUR MSG", "@cond({COLOUR}_messages == {NUM})"),
    ("收到|接收 含|含有 COLOUR 和|与 COLOUR 的? MSG", "@cond({COLOUR} in message) @cond({COLOUR2} in message)"),
    ("成为 CARD 的 目标", "@role(card_on {CARD})"),
    ("只剩|只剩下|仅剩|仅剩下 ONE? 人|角色|玩家|个人|名角色|名玩家|一个人|一名角色|一个角色|一名玩家|一人 存活|活着 AFTER|WHEN?",
     "@role(last_alive)"),
    ("最后 一个|一名? 存活 的 PLAYER", "@role(last_alive) anyone"),
    ("只剩|只剩下|仅剩|仅剩下 ONE? 个|名? IDENTITY 存活|活着 AFTER|WHEN?", "@role(last_alive) @cond(identity == {IDENTITY})"),
    ("only one player is? left alive|alive", "@role(last_alive)"),
    ("收到|接收|收下|接收到 含|含有? COLOUR 的? MSG AFTER|WHEN", "@cond({COLOUR} in message)"),
    # … closed by a comma, the skill asked after it (王魁没有手牌时接收黑色情报，能发动以牙还牙吗)
    ("收到|接收|收下|接收到 含|含有? COLOUR 的? MSG ，|, 能|可以|能否 SKILLV SKILL",
     "@cond({COLOUR} in message) 能 发动 {SKILL}"),
    ("收到|接收|收下|接收到 纯 黑色|黑 的? MSG AFTER|WHEN",
     "@cond(black in message) @cond(not red in message) @cond(not blue in message)"),
    ("收到|接收|收下|接收到 纯 红色|红 的? MSG AFTER|WHEN",
     "@cond(red in message) @cond(not blue in message) @cond(not black in message)"),
    ("收到|接收|收下|接收到 纯 蓝色|蓝 的? MSG AFTER|WHEN",
     "@cond(blue in message) @cond(not red in message) @cond(not black in message)"),
    ("收到|接收到 含|含有? COLOUR 的? MSG", "received @cond({COLOUR} in message)"),
    ("CHAR 传出 的 COLOUR MSG", "@role(sender_is {CHAR}) @cond({COLOUR} in message)"),
    ("MSG? 被 PLAYER? 接收|收下 AFTER|WHEN ,? 能|可以|能否? SKILLV SKILL", "can fire {SKILL}"),
    ("MSG? 被 OTHER 接收|收下 AFTER|WHEN ,? 能|可以|能否? SKILLV SKILL", "@cond(not in_front) can fire {SKILL}"),
    ("MSG? 被 SELF 自己? 接收|收下 AFTER|WHEN ,? 能|可以|能否? SKILLV SKILL", "@cond(in_front) can fire {SKILL}"),
    # a skill right after 能 / 可以, 发动 left out as designers say it (还能如归吗, 挂了以后还能遗信吗): it is fired
    ("能|可以|能否|能不能|能够|还能|也能|还可以|也可以|仍能|仍然能|仍可以|仍然可以 SKILL", "能 发动 {SKILL}"),
    # two players in one receive clause, the receiver named and then asked about (白菲菲传出的黑色情报被王魁接收后，王魁能
    #发动以牙还牙吗): the second name must be the first (SAMECHAR) — he is the player the message is in front of
    ("MSG? 被 CHAR 接收|收下|收到 AFTER|WHEN ,? SAMECHAR 能|可以|能否? SKILLV SKILL", "{CHAR} @cond(in_front) can fire {SKILL}"),
    # … and another player asked about after it (SP小九传出的情报被老汉接收后，SP小九能…): that character receives
    ("MSG? 被 CHAR 接收|收下|收到 AFTER|WHEN ,", "@role(receiver_is {CHAR}) ,"),
    ("面朝上|正面朝上 的 CHAR", "{CHAR} @cond(face_up)"),
    ("面朝下|背面朝上 的 CHAR", "{CHAR} @cond(not face_up)"),
    # her own message (收到自己传出的情报): she received this turn's message and she is its sender
    ("收到|接收到|拿到|接收|收下 SELF 传出 的? MSG", "received @role(sender)"),
    ("收到|接收到|拿到 SELF 的 MSG", "received @role(sender)"),
    ("收到|接收到|拿到 MSG", "received"),
    ("receive her|his|their own message", "received @role(sender)"),
    ("get her|his|their own message back", "received @role(sender)"),
    # ---- who (the roles of the table): as the player asked about, or a condition on her
    ("传出者|情报传出者|情报的传出者|传出情报的角色|传出情报的人", "@role(sender) anyone"),
    ("the sender", "@role(sender) anyone"),
    ("the message sender", "@role(sender) anyone"),
    ("是 传出者", "@role(sender)"),
    ("不是 传出者", "@role(not_sender)"),
    ("成为 传出者", "@role(sender) be"),
    ("当前回合角色|当前回合玩家|当前回合的角色|当前角色|回合角色 以外|之外 的 PLAYER", "@role(not_turn) anyone"),
    ("CHAR 以外|之外 的 PLAYER", "@cond(not character == {CHAR}) anyone"),
    ("当前回合角色|当前回合玩家|当前回合的角色|当前角色|回合角色", "@role(turn) anyone"),
    ("the turn|current player", "@role(turn) anyone"),
    ("接收者|情报面前的角色|待收情报面前的角色", "@cond(in_front) anyone"),
    ("the receiver", "@cond(in_front) anyone"),
    ("the player the message is in front of", "@cond(in_front) anyone"),
    ("被 密令 的? PLAYER?", "@role(miling) anyone"),
    ("被 密令 指定 的? PLAYER?", "@role(miling) anyone"),
    ("密令 的 目标", "@role(miling) anyone"),
    ("被 密令 AFTER|WHEN", "@role(miling)"),
    ("被 密令 指定 AFTER|WHEN", "@role(miling)"),
    ("the target of 密令", "@role(miling) anyone"),
    ("a player named by 密令", "@role(miling) anyone"),
    ("IDENTITY 的? PLAYER?", "@cond(identity == {IDENTITY}) anyone"),
    ("身份 是|为 IDENTITY", "@cond(identity == {IDENTITY})"),
    ("a|the mystery player", "@cond(identity == black) anyone"),
    ("被 锁定 的 PLAYER", "@cond(locked) anyone"),
    ("被锁定 的 PLAYER", "@cond(locked) anyone"),
    ("被 锁定|被锁定", "@cond(locked)"),
    ("没被|没有被|未被|不被 锁定 的? PLAYER?", "@cond(not locked) anyone"),
    ("没被|没有被|未被|不被 锁定", "@cond(not locked)"),
    ("a locked player", "@cond(locked) anyone"),
    ("locked players", "@cond(locked) anyone"),
    ("女性 角色|玩家", "@cond(female) anyone"),
    ("男性 角色|玩家", "@cond(male) anyone"),
    ("隐藏 角色", "@cond(hidden) anyone"),
    ("面朝下 的 PLAYER", "@cond(not face_up) anyone"),
    ("死亡 的 PLAYER", "@cond(not alive) anyone"),
    # someone else's death (有人死亡时，顾小梦能发动承志吗): a condition on the table, not on the player asked about
    ("在? 有人|一名角色|某人|任何人|某名角色|一个角色|有角色|有玩家 死亡|死|阵亡 了? WHEN|AFTER",
     "@cond(any(p: not p.alive))"),
    ("在? OTHER 死亡|死|阵亡 了? WHEN|AFTER", "@cond(any(p: p != self and not p.alive))"),
    # … as a clause closed by a comma (别人死亡，她能发动承志吗), and a player's word before the death (面朝下的角色死亡时，
    # 顾小梦…): the dead player is described, not the player asked about
    ("在? OTHER 死亡|死|阵亡 了? ，|,", "@cond(any(p: p != self and not p.alive))"),
    # … and with the player's pronoun right after it (别人死亡她能发动承志吗): her, not her death
    ("在? OTHER 死亡|死|阵亡 了? SELF", "@cond(any(p: p != self and not p.alive)) ,"),
    ("在? 面朝下 的 PLAYER 死亡|死|阵亡 了? WHEN|AFTER|，|,", "@cond(any(p: not p.alive and not p.face_up))"),
    ("在? 面朝上 的 PLAYER 死亡|死|阵亡 了? WHEN|AFTER|，|,", "@cond(any(p: not p.alive and p.face_up))"),
    ("死亡 AFTER|WHEN", "@cond(not alive)"),
    ("在? SELF 死亡 AFTER|WHEN", "@cond(not alive)"),
    ("在 CHAR 死亡|死 了? AFTER|WHEN", "{CHAR} @cond(not alive)"),
    ("在? SELF 死 了? AFTER|WHEN", "@cond(not alive)"),
    ("SELF 已经? 死亡 了? 的话?", "@cond(not alive)"),
    ("after|once her|his|their|its holder|owner? died|dies", "@cond(not alive)"),
    ("after|once|when|while her|his|their|its holder|owner? is dead", "@cond(not alive)"),
    ("after|once|when|while a|the? dead holder|owner", "@cond(not alive)"),
    ("已经? 死亡", "@cond(not alive)"),
    ("a dead player", "@cond(not alive) anyone"),
    ("CHAR 在场", "@cond(any(p: p.alive and p.face_up and p.character == {CHAR}))"),
    ("CHAR 不在场", "@cond(not any(p: p.alive and p.face_up and p.character == {CHAR}))"),
    ("CHAR is at the table", "@cond(any(p: p.alive and p.face_up and p.character == {CHAR}))"),
    ("with CHAR at the table", "@cond(any(p: p.alive and p.face_up and p.character == {CHAR}))"),
    ("CHAR 传出 的 MSG", "@role(sender_is {CHAR})"),
    ("CHAR 传出 MSG? AFTER", "@role(sender_is {CHAR}) @cond(any(p: p.in_front))"),
    ("传出 MSG? AFTER", "@role(sender) @cond(any(p: p.in_front))"),
    ("CARD CHAR 传出 的 MSG", "resolve {CARD} @role(sender_is {CHAR})"),
    ("CARD SELF 传出 的 MSG", "resolve {CARD} @role(sender)"),
    ("OTHER 的 CARD", "别人 {CARD}"),
    ("CHAR message", "@role(sender_is {CHAR})"),
    # ---- the message (情报在自己面前, 向上的情报, 没有锁定标记的情报, 情报含红色)
    ("MSG 不在 SELF 面前", "@cond(not in_front)"),
    ("MSG 不在 CHAR 面前", "@cond(not in_front) {CHAR}"),
    ("MSG 在|回到|传到 SELF 面前", "@cond(in_front)"),
    ("MSG 在|回到 传出者 面前", "@cond(in_front) @role(sender)"),
    ("MSG 在|回到|传到 CHAR 面前", "@cond(in_front) {CHAR}"),
    ("回到 SELF 面前 的 MSG", "@cond(in_front)"),
    ("DIR 的 MSG", "@cond(message_dir == {DIR})"),
    ("箭头 DIR 的? MSG?", "@cond(message_dir == {DIR})"),
    ("没有 锁定 标记 的 MSG", "@cond(not message_lockable)"),
    ("有 锁定 标记 的 MSG", "@cond(message_lockable)"),
    ("MSG 含|含有|是|带 COLOUR", "@cond({COLOUR} in message)"),
    ("MSG 不含|不含有|没有 COLOUR", "@cond(not {COLOUR} in message)"),
    # ---- what she holds (手牌, 情报)
    ("没有 手牌|牌", "@cond(hand_count == 0)"),
    # 没有情报时: an empty message area (every message holds a colour, so none of the three counts)
    # nobody's area holds a message (所有角色都没有情报时, 场上没有情报时: 移花接木's test), or nobody's but hers (其他角色都没有
    # 情报时: 套取's) — every living player, not the player asked; before the player's own 没有情报
    ("所有人|所有角色|大家|每个人|每名角色|所有玩家|全体角色 都? 没有|没 情报|任何情报 AFTER|WHEN?",
     "@cond(not any(p: p.alive and p.true_messages + p.black_messages > 0))"),
    ("场上 没有|没 情报|任何情报 AFTER|WHEN?", "@cond(not any(p: p.alive and p.true_messages + p.black_messages > 0))"),
    ("没有人|没人 有 情报 AFTER|WHEN?", "@cond(not any(p: p.alive and p.true_messages + p.black_messages > 0))"),
    ("OTHER 都? 没有|没 情报|任何情报 AFTER|WHEN?",
     "@cond(not any(p: p != self and p.alive and p.true_messages + p.black_messages > 0))"),
    ("没有|没 情报|任何情报 AFTER|WHEN", "@cond(red_messages == 0 and blue_messages == 0 and black_messages == 0)"),
    ("情报区 没有|没 情报? AFTER|WHEN", "@cond(red_messages == 0 and blue_messages == 0 and black_messages == 0)"),
    ("手牌 只有 NUM 张?", "@cond(hand_count == {NUM})"),
    ("只有 NUM 张? 手牌", "@cond(hand_count == {NUM})"),
    ("手牌 不足|少于 NUM 张?", "@cond(hand_count < {NUM})"),
    ("有 手牌", "@cond(hand_count > 0)"),
    ("手里|手中|手上 有 NUM 张? 牌|手牌", "@cond(hand_count == {NUM})"),
    ("有 NUM 张? 手牌", "@cond(hand_count == {NUM})"),
    ("手里|手中 有 牌", "@cond(hand_count > 0)"),
    ("手里|手中 有 牌 又? 没 被 禁止 出牌", "@cond(hand_count > 0) not banned all"),
    ("with no cards", "when hand == 0"),
    ("nobody holds|has cards", "@cond(not any(p: p.alive and p.hand_count > 0))"),
    ("no one holds|has cards", "@cond(not any(p: p.alive and p.hand_count > 0))"),
    ("no player holds|has cards", "@cond(not any(p: p.alive and p.hand_count > 0))"),
    ("没有人|没人 有 手牌|牌", "@cond(not any(p: p.alive and p.hand_count > 0))"),
    ("所有人 都? 没有 手牌|牌", "@cond(not any(p: p.alive and p.hand_count > 0))"),
    ("holding no cards", "when hand == 0"),
    ("面前? 没有 红色 或 蓝色 情报", "@cond(true_messages == 0)"),
    ("面前? 没有 非黑色 情报", "@cond(non_black_messages == 0)"),
    ("没有 COLOUR 也|和|或|与 没有? COLOUR 情报", "@cond({COLOUR}_messages == 0) @cond({COLOUR2}_messages == 0)"),
    ("面前? 没有 COLOUR 情报", "@cond({COLOUR}_messages == 0)"),
    ("面前? 有 NUM 张? COLOUR 情报", "@cond({COLOUR}_messages == {NUM})"),
    # what the area holds at the claim's moment (@cond(end: …)): collected so far (收集三张红色情报能获胜吗 — the win is
    # read on the area that has them), or only that many (只有两张红色情报时能获胜吗 — as he wins, or as he dies)
    ("收集|收集到|收集齐|集齐|集到|凑齐|凑够|攒够|攒齐|收齐 了? NUM 张? COLOUR MSG", "@cond(end: {COLOUR}_messages >= {NUM})"),
    # … only N black ones: the area holds those N and nothing else (no message without black; a red-black one is black)
    ("SELF? 情报区|面前? 只有|仅有|只剩|只剩下 NUM 张? 黑色|黑 MSG", "@cond(end: black_messages == {NUM} and non_black_messages == 0)"),
    ("SELF? 情报区|面前? 只有|仅有|只剩|只剩下 NUM 张? COLOUR MSG", "@cond(end: {COLOUR}_messages == {NUM})"),
    ("SELF? 情报区|面前? 只有|仅有 黑色|黑 MSG", "@cond(end: black_messages > 0 and true_messages == 0)"),
    ("SELF? 情报区|面前? 只有|仅有 红色|红 MSG", "@cond(end: red_messages > 0 and blue_messages == 0 and black_messages == 0)"),
    ("SELF? 情报区|面前? 只有|仅有 蓝色|蓝 MSG", "@cond(end: blue_messages > 0 and red_messages == 0 and black_messages == 0)"),
    ("同时? 有 COLOUR 和|与|跟|及 COLOUR 情报", "@cond({COLOUR}_messages > 0) @cond({COLOUR2}_messages > 0)"),
    ("面前? 有 COLOUR 情报", "@cond({COLOUR}_messages > 0)"),
    ("用过|使用过|打出过 CARD", "@cond({CARD} in played)"),
    ("SKILL 用掉|用完|已用掉|已经用掉|用过 了?", "without {SKILL}"),
    ("GIVER 的 禁令|宣言|效果|禁止", "{GIVER} grant_of"),
    ("本回合 用过|使用过|打出过 CARD", "@cond({CARD} in played)"),
    # ---- grants, as a condition (被禁闭, 被信鸽联络指定, 受强令影响, 被调虎离山禁止出牌)
    ("被 GIVER 禁止 出牌 的 PLAYER", "under {GIVER} when banned all rel anyone"),
    ("被 GIVER 禁止出牌 的 PLAYER", "under {GIVER} when banned all rel anyone"),
    ("被 GIVER 禁止出牌", "under {GIVER} when banned all"),
    ("被 GIVER 指定|影响 的 PLAYER", "under {GIVER} rel anyone"),
    ("被 GIVER 的 PLAYER", "under {GIVER} rel anyone"),
    ("被 GIVER 无效 的 PLAYER", "under {GIVER} when invalidated rel anyone"),
    ("被 GIVER 禁止 出牌|出牌了", "under {GIVER} when banned all"),
    ("被 GIVER 禁止|禁 使用|出|打出 CARD", "banned {CARD} under {GIVER}"),
    ("被 GIVER 无效", "under {GIVER} when invalidated"),
    ("被 GIVER 指定|影响", "under {GIVER}"),
    ("被 GIVER", "under {GIVER}"),
    ("被 指定|影响 的 PLAYER", "under that rel anyone"),
    ("受 GIVER 影响", "under {GIVER}"),
    # ---- the claims (what she can do, what happens to her)
    ("SKILLV SKILL 能? 视为 使用|打出|使用了|打出了 了? 一张? CARD", "resolve {CARD} with {SKILL}"),
    ("SKILLV SKILL 把|将 CARD AS CARD USEV?", "play {CARD} as {CARD2} and fire {SKILL} for {CARD} as {CARD2}"),
    ("SKILLV SKILL 把|将 手牌 AS CARD USEV?", "play ? as {CARD} and fire {SKILL} for ? as {CARD}"),
    ("SKILL 能? 视为 使用|打出|使用了|打出了 了? 一张? CARD", "resolve {CARD} with {SKILL}"),
    ("视为 使用|打出|使用了|打出了 了? 一张? CARD", "resolve {CARD}"),
    ("CARD 的 效果", "resolve {CARD}"),
    ("把|将 任意|任何|一张? 手牌|牌 AS CARD USEV?", "play ? as {CARD}"),
    ("把|将 CARD AS 任意牌|任何牌", "play {CARD} as ?"),
    ("把|将 CARD AS CARD USEV?", "play {CARD} as {CARD2}"),
    ("CARD AS CARD USEV", "play {CARD} as {CARD2}"),
    ("USEV 卡牌|手牌|牌|任何牌|任意牌|任何卡牌|任意卡牌|任何手牌|任意手牌", "play ? as ?"),
    ("USEV WINDOW 的 手牌|牌|卡牌", "play ? as ?"),
    ("出牌", "play ? as ?"),
    ("play|use a card", "play ? as ?"),
    ("CARD be used|played", "play {CARD}"),                 # can 破译 be played in the fight phase?
    ("play|use cards", "play ? as ?"),
    ("SKILLV SKILL TWICE", "use {SKILL} again"),
    ("SKILLV TWICE SKILL", "use {SKILL} again"),
    ("一回合|每回合|一个回合|同一回合 SKILLV TWICE SKILL", "use {SKILL} again"),
    ("SKILLV TWICE", "use again"),
    ("再次|又一次|再 SKILLV SKILL", "use {SKILL} again_game"),
    # a later turn (边云疆在下一回合还能再发动诱敌深入吗): again, at a later moment of the game
    ("在? 下一回合|下回合|下个回合|下一个回合|之后的回合 还能|能|可以|还可以 再次|又一次|再? SKILLV SKILL", "can use {SKILL} again_game"),
    ("在? 下一回合|下回合|下个回合|下一个回合|之后的回合 还能|能|可以|还可以 再次|又一次|再? SKILLV", "can use again_game"),
    ("再次|又一次|再 SKILLV", "use again_game"),
    ("TWICE SKILLV SKILL", "use {SKILL} again"),
    ("TWICE SKILLV", "use again"),
    ("CHAR 的 SKILL", "{CHAR} {SKILL}"),
    ("PLAYER 的 SKILL", "anyone {SKILL}"),
    ("PLAYER 的 技能", "anyone"),
    ("换成|换了|变成 新角色|新的角色|新角色牌", ""),
    ("without a card|cards", "when hand == 0"),
    ("让|令|使 PLAYER?", "make"),
    ("let|lets", "make"),                      # does 视死 let 老汉 draw two cards?
    ("的 PLAYER", "rel anyone"),
    ("的 IDENTITY PLAYER?", "rel @cond(identity == {IDENTITY}) anyone"),
    ("use SKILL twice", "use {SKILL} again"),
    ("对 SELF 发动|使用|用 GIVER", "hold {GIVER} from herself"),
    ("对 SELF 发动|使用|用", "hold from herself"),
    ("用 GIVER 指定 SELF", "hold {GIVER} from herself"),
    ("指定 SELF", "from_self"),
    ("一定 要|得 接收|收下|收取 MSG?", "always must receive"),
    ("必须|被迫|只能 接收|收下|收取 MSG?", "must receive"),
    ("不能|无法|不可以 选择? 接收|收下|收取 MSG?", "cannot receive"),
    ("选择 不 接收|收下|收取|收 MSG?", "not must receive"),
    ("不 接收|收下|收取|收 MSG?", "not must receive"),
    # having chosen to receive (张一挺选择接收情报后…: 强令's ChooseReceiveCardEvent): the message is in front of him
    ("选择|决定 接收|收下|收取 MSG? AFTER|WHEN", "@cond(in_front)"),
    ("不 选择 接收|收下|收取 MSG?", "not must receive"),
    ("选择 接收|收下|收取 MSG?", "not cannot receive"),
    ("接收|收下|收取 MSG?", "not cannot receive"),
    ("choose not to receive", "not must receive"),
    ("decline|refuse the message", "not must receive"),
    ("receive|accept|take the|a|this message", "not cannot receive"),     # can a dead player receive the message?
    ("是 必须 接收 还是 不能 接收", "which receive"),
    ("是 不能 接收 还是 必须 接收", "which receive"),
    ("不 锁定 任何人|任何角色?", "locking 0"),
    ("不 锁定", "locking 0"),
    ("并? 锁定 NUM 名|个|位? 角色|人|玩家|名角色", "locking {NUM}"),
    ("并? 锁定 ONE 角色|人|玩家", "locking 1"),
    ("并? 锁定 PLAYER", "locking 1"),
    ("锁定 两个人|两名角色|两人", "locking 2"),
    ("锁定 SELF", "locked"),
    ("锁定 吗", "locking 1"),
    ("锁定 OTHER|一个人|一名角色", "locking 1"),
    ("必须|一定 要? 锁定 NUM 名|个|位? 角色|人|玩家|名角色", "must_lock {NUM}"),
    ("必须|一定 要? 锁定 ONE 角色|人|玩家", "must_lock 1"),
    ("必须|一定 要? 锁定 一个人|一名角色|一人", "must_lock 1"),
    ("拒绝|不愿 接收|收下|收取 MSG?", "not must receive"),
    # the thing an effect moves (奇货可居能把自己的情报放入手牌吗): his own message, kept for the effect reader
    ("把|将 SELF 的 MSG", "把 自己 情报"),
    ("SELF 的 MSG", ""),
    ("GIVER 传出 的 MSG", "under {GIVER}"),
    ("able|allowed to", ""),
    ("the? message points|pointing DIR", "@cond(message_dir == {DIR})"),
    ("GIVER stop|stops|prevent|prevents other? players|player|anyone? from playing|using CARD",
     "never anyone play ? as {CARD} under {GIVER}"),
    ("a|the locked mystery player", "@cond(locked) @cond(identity == black) anyone"),
    ("lock himself|herself|themselves|oneself", "locked"),
    ("be? forced to receive", "must receive"),
    ("have|has to receive", "must receive"),
    ("be? invalidated by her|his|their own GIVER", "hold {GIVER} from herself"),
    ("with NUM COLOUR messages|message", "@cond({COLOUR}_messages == {NUM})"),
    ("and? no COLOUR messages|message|one", "@cond({COLOUR}_messages == 0)"),
    ("a? message that comes back to him|her|them", "@cond(in_front)"),
    ("向|往 DIR 传|传出|传递 MSG?", "send {DIR}"),
    ("传出|传|传递 MSG? 向|往 DIR", "send {DIR}"),
    ("DIR 传|传出|传递 MSG?", "send {DIR}"),
    ("传出|传|传递 MSG? DIR", "send {DIR}"),
    ("传出|传|传递 MSG", "send any"),
    ("传出 方向 由 SKILL 决定", "send direction by {SKILL}"),
    ("方向 由 SKILL 决定", "send direction by {SKILL}"),
    # ---- when a triggered skill fires: the events it answers (its 'on' entries, told from the catalogue)
    ("SKILL 在? 什么|何时 时候|时机|情况下? 会? 能|可以|才能? 发动|触发|生效", "which events {SKILL}"),
    ("SKILL 的? 触发|发动 时机|条件|时点 是? 什么", "which events {SKILL}"),
    ("SKILL 的? 触发|发动 时机|条件|时点 有 哪些", "which events {SKILL}"),
    ("什么 时候|时机 会? 能|可以? 发动|触发 SKILL", "which events {SKILL}"),
    ("when does? SKILL fire|trigger", "which events {SKILL}"),
    ("what|which triggers SKILL", "which events {SKILL}"),
    ("CHAR 的? SKILL 在? 什么|何时 时候|时机? 会? 能? 才能? 发动|触发|生效", "which events {SKILL}"),
    ("摸 几张|多少张|几|多少 张? 牌?", "which_draw"),
    ("摸牌阶段 摸 几张|多少张|几|多少 张? 牌?", "which_draw"),
    ("多摸|额外摸 NUM 张? 牌?", "draw_extra {NUM}"),
    ("摸 NUM 张 牌?", "draw {NUM}"),
    # the target as the player an effect is done to (平衡的目标会摸三张牌吗: 平衡能让目标摸三张牌吗)
    ("CARD 的 目标 会|能|可以 还?", "{CARD} 能 make 目标"),
    ("SKILL 的 目标 会|能|可以 还?", "{SKILL} 能 make 目标"),
    # the message's face after a card (调包后的情报是面朝下的吗, 欲擒故纵传出的情报是面朝上的吗): what the card makes it
    ("CARD 后|之后 的? 情报|待收情报 是|会是|变成|会变成 面朝上|正面朝上 的?", "{CARD} 会 make 情报 face_up"),
    ("CARD 后|之后 的? 情报|待收情报 是|会是|变成|会变成 面朝下|背面朝上 的?", "{CARD} 会 make 情报 face_down"),
    ("CARD 传出 的 情报 是|会是 面朝上|正面朝上 的?", "{CARD} 会 make 情报 face_up"),
    ("CARD 传出 的 情报 是|会是 面朝下|背面朝上 的?", "{CARD} 会 make 情报 face_down"),
    # the message's colour as the moment's (情报是纯红色时; 破译能翻开纯红色的情报吗: 情报是纯红色时，破译会让情报面朝上吗 —
    # the colours read as the card is done with it, @cond(end: …): before the send no message is in play)
    ("MSG 是 纯 红色|红", "@cond(red in message) @cond(not blue in message) @cond(not black in message)"),
    ("CARD 能|可以 翻开 纯 红色|红 的? MSG", "@cond(end: red in message) @cond(end: not blue in message) @cond(end: not black in message) 时 , {CARD} 会 make 情报 face_up"),
    ("MSG 是 纯 蓝色|蓝", "@cond(blue in message) @cond(not red in message) @cond(not black in message)"),
    ("CARD 能|可以 翻开 纯 蓝色|蓝 的? MSG", "@cond(end: blue in message) @cond(end: not red in message) @cond(end: not black in message) 时 , {CARD} 会 make 情报 face_up"),
    ("MSG 是 纯 黑色|黑", "@cond(black in message) @cond(not red in message) @cond(not blue in message)"),
    ("CARD 能|可以 翻开 纯 黑色|黑 的? MSG", "@cond(end: black in message) @cond(end: not red in message) @cond(end: not blue in message) 时 , {CARD} 会 make 情报 face_up"),
    ("CARD 能|可以 翻开 COLOUR 的? MSG", "@cond(end: {COLOUR} in message) 时 , {CARD} 会 make 情报 face_up"),
    # a card used on a message of some colour, its effect asked after it (对纯红色情报使用破译后能摸牌吗): the colours read
    # as the card is done with it, the effect of its user (使用者)
    ("对 纯 红色|红 的? MSG USEV CARD AFTER|WHEN ,? 能|可以|会",
     "@cond(end: red in message) @cond(end: not blue in message) @cond(end: not black in message) 时 , {CARD} 能 make 使用者"),
    ("对 纯 蓝色|蓝 的? MSG USEV CARD AFTER|WHEN ,? 能|可以|会",
     "@cond(end: blue in message) @cond(end: not red in message) @cond(end: not black in message) 时 , {CARD} 能 make 使用者"),
    ("对 纯 黑色|黑 的? MSG USEV CARD AFTER|WHEN ,? 能|可以|会",
     "@cond(end: black in message) @cond(end: not red in message) @cond(end: not blue in message) 时 , {CARD} 能 make 使用者"),
    ("对 COLOUR 的? MSG USEV CARD AFTER|WHEN ,? 能|可以|会", "@cond(end: {COLOUR} in message) 时 , {CARD} 能 make 使用者"),
    # a card's effect sending a message (欲擒故纵能传出纯黑色情报吗 / …自己情报区里的情报吗): its send_message op
    ("CARD 能|可以|能否 传出|发出|传", "{CARD} 能 send_v"),
    # the card type the user names (威逼可以宣言平衡吗): the type the target must hand over (the give's card types)
    ("CARD 能|可以|能否 宣言|点名|指定|要 CARD", "{CARD} 能 make 目标 交出 {CARD2}"),
    ("CARD 能|可以 翻开 COLOUR COLOUR 双色|两色 的? MSG",
     "@cond(end: {COLOUR} in message) @cond(end: {COLOUR2} in message) 时 , {CARD} 会 make 情报 face_up"),
    # a ban as an effect (强令能让所有角色不能使用截获吗, 禁闭能让别人本回合不能使用手牌吗): the card banned, as 让截获被禁
    ("让|令|使 OTHER 本回合? 都? 不能|无法|不可以 USEV CARD", "make 别人 的 {CARD} banned"),
    ("让|令|使 所有角色|所有人|大家|每个人|每名角色|所有玩家|全体角色 本回合? 都? 不能|无法|不可以 USEV CARD", "make {CARD} banned"),
    ("让|令|使 本回合? 不能|无法|不可以 USEV CARD", "make {CARD} banned"),
    ("让|令|使 OTHER 本回合? 都? 不能|无法|不可以 USEV 手牌|牌|卡牌", "make 别人 banned all"),
    ("被 禁止 使用|出 CARD", "banned {CARD}"),
    ("被 禁止 出牌", "banned all"),
    ("被? 禁止出牌", "banned all"),
    ("没被|没有被|未被|不被 禁止出牌", "not banned all"),
    ("没被|没有被|未被|不被 禁止 出牌", "not banned all"),
    ("禁止 出牌", "banned all"),
    ("技能 都? 被? 无效", "invalidated"),
    ("技能? 都? 被无效|技能无效", "invalidated"),
    ("技能 都? 无效 了?", "invalidated"),
    ("被 无效", "invalidated"),
    ("被 无效 的 SKILL", "{SKILL} invalidated"),
    ("被无效 的 SKILL", "{SKILL} invalidated"),
    ("an? invalidated SKILL", "anyone {SKILL} when invalidated"),
    ("SKILL still? fire|fires|trigger|triggers", "anyone fire {SKILL}"),
    ("已? 失效 的 SKILL", "{SKILL} invalidated"),
    ("失效 了? 以后|后|时", "invalidated"),
    ("已经? 翻开 了?", "face_up"),
    ("面朝上|正面朝上", "face_up"),
    ("面朝下|背面朝上|盖着|没有翻开|未翻开", "face_down"),
    # ---- the prompt on ending 出牌阶段 (出牌阶段结束时会提醒我发动鱼死网破吗？)
    ("被? 提醒|提示 SELF? SKILLV? SKILL", "remind {SKILL}"),
    ("被? 提醒|提示 CHAR SKILLV? SKILL", "{CHAR} remind {SKILL}"),
    ("有|弹出|弹 提醒|提示", "remind"),
    ("会 被 跳过", "skipped"),
    ("被 跳过", "skipped"),
    ("被 询问", "not skipped"),
    ("能 行动 的 PLAYER", "when act anyone"),
    ("能 用|使用|打出 CARD 的 PLAYER", "when play {CARD} @cond(hand_count > 0) anyone"),
    ("WHO", "which player"),
    ("who", "which player"),
    ("which player|players|character|characters", "which player"),
    ("a player who|that", "anyone who"),
    # ---- the giver's declarations (变则通宣言截获只能当调包, 张一挺禁用了截获, 强令宣言三个卡牌名称)
    ("宣言 CARD 只能 AS CARD USEV?", "declares {CARD} → {CARD2}"),
    ("CARD 只能 AS CARD USEV?", "{CARD} → {CARD2}"),
    ("宣言 了? CARD → CARD", "declares {CARD} → {CARD2}"),
    ("宣言 了? CARD AS CARD USEV?", "declares {CARD} → {CARD2}"),
    ("宣言 NUM 个|种|张 卡牌名称|卡牌|牌名|牌", "declares {NUM} cards"),
    ("禁用 了? CARD", "declares {CARD}"),
    ("宣言 了? CARD", "declares {CARD}"),
    # ---- a card played on the player (被威逼时, 被试探后): last, so that a row of the same length above wins (被密令后)
    ("被 TCARD 指定? 为? 目标? AFTER|WHEN", "@role(card_on {TCARD})"),
    ("被 TCARD 指定? 为? 目标? ,", "@role(card_on {TCARD}) ,"),      # 李宁玉面朝下时被威逼，城府会发动吗
]

# ---- a message received, by whose it is and its colours: every sender phrase with every colour phrase (one row each,
# so that the longest match reads the whole of 接收自己传出的纯黑色情报后 at once)
_RECV = "收到|接收|收下|接收到"
_SENDERS = [("SELF 传出 的", "@role(sender)"), ("OTHER 传出 的", "@role(not_sender)")]
_HUES = [("含|含有? COLOUR 的?", "@cond({COLOUR} in message)"),
         ("纯 黑色|黑 的?", "@cond(black in message) @cond(not red in message) @cond(not blue in message)"),
         ("纯 红色|红 的?", "@cond(red in message) @cond(not blue in message) @cond(not black in message)"),
         ("纯 蓝色|蓝 的?", "@cond(blue in message) @cond(not red in message) @cond(not black in message)"),
         ("双色|两色|双色的|两种颜色 的?", "@cond((red in message and black in message) or (blue in message and black in message) or "
                                             "(red in message and blue in message))"),
         ("COLOUR COLOUR 双色|两色 的?", "@cond({COLOUR} in message) @cond({COLOUR2} in message)")]
_RECEIVED = [(f"{_RECV} {who} {hue} MSG AFTER|WHEN?", f"received {role} {cond}") for who, role in _SENDERS
             for hue, cond in _HUES]
_RECEIVED += [(f"{_RECV} {hue} MSG AFTER|WHEN", cond) for hue, cond in _HUES[4:]]        # 接收红黑双色情报后
_RECEIVED += [(f"{_RECV} OTHER 传出 的 MSG", "received @role(not_sender)")]
_RECEIVED += [(f"CHAR 传出 的 {hue} MSG", f"@role(sender_is {{CHAR}}) {cond}") for hue, cond in _HUES[1:]]   # 纯黑色
# … and in English: after / when the player plays a card, is a card's target, receives a message of some colours, or
# his own message is received (by someone else: the message is not in front of him)
_WHEN_EN = "after|when|once|while"
_HE = "he|she|they"
_HUES_EN = [("COLOUR", "@cond({COLOUR} in message)"),
            ("pure black", "@cond(black in message) @cond(not red in message) @cond(not blue in message)"),
            ("pure red", "@cond(red in message) @cond(not blue in message) @cond(not black in message)"),
            ("pure blue", "@cond(blue in message) @cond(not red in message) @cond(not black in message)"),
            ("two|dual -? colour|coloured|color|colored",
             "@cond((red in message and black in message) or (blue in message and black in message) or "
             "(red in message and blue in message))")]
_RECEIVED += [
    (f"{_WHEN_EN} playing|using CARD", "when play {CARD}"),
    (f"{_WHEN_EN} {_HE} plays|uses|played|used|has played|has used CARD", "when play {CARD}"),
    (f"{_WHEN_EN} being|becoming the target of TCARD", "@role(card_on {TCARD})"),
    (f"{_WHEN_EN} {_HE} is|was|becomes|became the target of TCARD", "@role(card_on {TCARD})"),
    (f"{_WHEN_EN} targeted by TCARD", "@role(card_on {TCARD})"),
    (f"{_WHEN_EN} {_HE} is|was targeted by TCARD", "@role(card_on {TCARD})"),
    (f"{_WHEN_EN} TCARD is|was played|used on him|her|them", "@role(card_on {TCARD})"),
]
_RECEIVED += [(f"{_WHEN_EN} {_HE}? receives|received|receiving a|an|the? {hue} message", cond) for hue, cond in _HUES_EN]
_RECEIVED += [(f"{_WHEN_EN} her|his|their {hue}? message is|was|gets|got received by someone|somebody else",
               f"@role(sender) {cond} @cond(not in_front)") for hue, cond in _HUES_EN]
_RECEIVED += [(f"{_WHEN_EN} her|his|their {hue}? message is|was|gets|got received by another|other player|players?",
               f"@role(sender) {cond} @cond(not in_front)") for hue, cond in _HUES_EN]
_RECEIVED += [(f"{_WHEN_EN} {other} receives|received her|his|their {hue}? message",
               f"@role(sender) {cond} @cond(not in_front)") for hue, cond in _HUES_EN
              for other in ("someone|somebody else", "another player")]
# the player's own message received by someone else, as a clause of its own (他传出的情报被别人接收，憨厚老实会发动吗:
# the comma kept, the skill named after it); by a named character (that character the player asked about)
for _end, _keep in (("AFTER|WHEN? ,", " ,"), ("AFTER|WHEN", "")):
    _RECEIVED += [(f"SELF 传出 的 MSG 被 OTHER 接收|收下 {_end}", f"@role(sender) @cond(not in_front){_keep}"),
                  (f"CHAR 传出 的 MSG 被 OTHER 接收|收下 {_end}", f"{{CHAR}} @role(sender) @cond(not in_front){_keep}"),
                  (f"SELF 传出 的 MSG 被 接收|收下 {_end}", f"@role(sender){_keep}"),
                  (f"CHAR 传出 的 MSG 被 接收|收下 {_end}", f"{{CHAR}} @role(sender){_keep}"),
                  # … by himself (哑炮传出的情报被自己接收后，会发动憨厚老实吗): the sender is the receiver
                  (f"SELF 传出 的 MSG 被 SELF 接收|收下 {_end}", f"@role(sender) @cond(in_front){_keep}"),
                  (f"CHAR 传出 的 MSG 被 SELF 接收|收下 {_end}", f"{{CHAR}} @role(sender) @cond(in_front){_keep}")]
    # … of a colour (老鳖传出的红色情报被别人接收后，老鳖能发动明饵吗 / 白菲菲传出的纯红色情报被接收后，她能…)
    for _hue, _cond in _HUES:
        _RECEIVED += [(f"SELF 传出 的 {_hue} MSG 被 OTHER 接收|收下 {_end}", f"@role(sender) {_cond} @cond(not in_front){_keep}"),
                      (f"CHAR 传出 的 {_hue} MSG 被 OTHER 接收|收下 {_end}",
                       f"{{CHAR}} @role(sender) {_cond} @cond(not in_front){_keep}"),
                      (f"SELF 传出 的 {_hue} MSG 被 接收|收下 {_end}", f"@role(sender) {_cond}{_keep}"),
                      (f"CHAR 传出 的 {_hue} MSG 被 接收|收下 {_end}", f"{{CHAR}} @role(sender) {_cond}{_keep}"),
                      (f"SELF 传出 的 {_hue} MSG 被 SELF 接收|收下 {_end}", f"@role(sender) {_cond} @cond(in_front){_keep}"),
                      (f"CHAR 传出 的 {_hue} MSG 被 SELF 接收|收下 {_end}",
                       f"{{CHAR}} @role(sender) {_cond} @cond(in_front){_keep}")]
_RECEIVED += [
    ("接收|收下 MSG AFTER|WHEN", "received"),                                   # 接收情报后能发动联信吗
    ("接收|收下|收到 MSG ,? 能|可以|能否 SKILLV SKILL", "received 后 能 发动 {SKILL}"),   # 面朝上时接收情报能发动联信吗
    ("USEV 一张? 卡牌|手牌|牌", "play ? as ?"),                       # 使用卡牌后 / 打出一张牌后能发动转交吗: any card
    ("a|the dying player|players|character|characters", "@cond(dying) anyone"),
    # the player plays a card on someone, as a premise (简先生对别人使用试探后): the card's target (table.py plays_on)
    ("对|向 OTHER USEV TCARD AFTER|WHEN", "@role(plays_on other) 使用 {TCARD} 后"),
    ("对|向 SELF USEV TCARD AFTER|WHEN", "@role(plays_on self) 使用 {TCARD} 后"),
    # a card played on someone (play 澄清 on someone else): the Chinese frame 对 X 使用 CARD
    ("play|use CARD on someone|somebody else", "对 别人 使用 {CARD}"),
    ("play|use CARD on another|other player|players|character|characters", "对 别人 使用 {CARD}"),
    ("play|use CARD on others", "对 别人 使用 {CARD}"),
    ("play|use CARD on himself|herself|themselves|oneself", "对 自己 使用 {CARD}"),
]
_at = next(i for i, (pat, _) in enumerate(PHRASES) if pat.startswith("传出者|"))
PHRASES[_at:_at] = _RECEIVED

#: an example after the question ("…吗？比如冷血训练"), and the words for the kind of thing it is an example of
EXAMPLE_WORDS = ("比如", "例如", "譬如", "比方说", "像是", "e.g.", "like")
KIND_WORDS = ("技能", "主动技能", "触发技能", "卡牌", "牌", "手牌", "角色技能", "skill", "skills", "card", "cards")


@dataclass
class Item:
    kind: str                 # word | class | slot
    words: tuple = ()         # word: the spellings; class: from CLASSES
    slot: str = ""
    optional: bool = False


SLOTS = ("CARD", "TCARD", "SKILL", "GIVER", "CHAR", "NUM", "DIR", "COLOUR", "IDENTITY", "TASK", "WINDOW", "PHASEW")


def compile_pattern(pat: str) -> list[Item]:
    items = []
    for w in pat.split():
        opt = w.endswith("?") and len(w) > 1
        if opt:
            w = w[:-1]
        if w in SLOTS or w == "SAMECHAR":       # SAMECHAR: a character, the one the row's CHAR took
            items.append(Item("slot", slot=w, optional=opt))
        elif w in CLASSES:
            items.append(Item("class", words=tuple(x.lower() for x in CLASSES[w]), optional=opt))
        else:                                  # words, and word classes, as alternatives: 后|WHEN
            alts: list = []
            for x in w.split("|"):
                alts.extend(y.lower() for y in CLASSES[x]) if x in CLASSES else alts.append(x.lower())
            items.append(Item("word", words=tuple(alts), optional=opt))
    return items


COMPILED = [(compile_pattern(p), m, p) for p, m in PHRASES]


def _first_keys(items: list, k: int = 0) -> set:
    """What the first token a row matches may be: its words, or '@SLOT' for a slot (an optional item lets the
    next one be first too)."""
    if k >= len(items):
        return set()
    it = items[k]
    keys = set(it.words) if it.kind in ("word", "class") else {"@" + it.slot}
    return keys | _first_keys(items, k + 1) if it.optional else keys


#: the rows by the first token they may match (at each position only these are tried)
INDEX: dict = {}
for _n, (_items, _m, _p) in enumerate(COMPILED):
    for _key in _first_keys(_items):
        INDEX.setdefault(_key, []).append(_n)


def words_of_table() -> set[str]:
    """Every literal word of the table and its classes (the lexer splits runs of Chinese into them)."""
    out = set()
    for items, _, _ in COMPILED:
        for it in items:
            out.update(it.words)
    for ws in CLASSES.values():
        out.update(w.lower() for w in ws)
    out.update(w.lower() for w in COLOURS)
    out.update(w.lower() for w in IDENTITIES)
    out.update(w.lower() for w in TASKS)
    out.update(w.lower() for w in DIR_WORDS)
    out.update(NUMERALS)
    return out


def table() -> str:
    """The phrasebook as the Markdown table docs/query-language.md shows (a test keeps the two identical)."""
    def cell(x: str) -> str:
        return "`" + x.replace("|", "\\|") + "`"
    lines = ["| written (pattern) | read as |", "| --- | --- |"]
    lines += [f"| {cell(p)} | {cell(m)} |" for p, m in PHRASES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":           # python -m skillproof.checks.ask.phrases: the table docs/query-language.md holds
    print(table(), end="")
