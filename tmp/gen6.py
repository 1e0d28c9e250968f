# generates tests/fixtures/ask-designer6.toml (kept out of the package; one-off)
import re, glob
rb = {}
for f in glob.glob("model/catalogue/characters/*.toml"):
    txt = open(f, encoding="utf-8").read()
    m = re.search(r"# rulebook: (\S+) (\S+)", txt)
    name = re.search(r'^name = "([^"]+)"', txt, re.M).group(1)
    if m: rb[name] = f"{m.group(1)} › {m.group(2)}"

Q = [
# --- triggered skills: when does X fire
("程小蝶接收自己传出的蓝色情报后能发动知音吗", "yes", "skill/ZhiYin.kt execute: the receiver, a message with red or blue; sender == receiver draws two — no condition on the sender", "程小蝶", "知音"),
("程小蝶接收纯黑色情报后能发动知音吗", "no", "skill/ZhiYin.kt execute: Red in colors or Blue in colors", "程小蝶", "知音"),
("白菲菲传出的红色情报被别人接收后能发动怜悯吗", "yes", "skill/LianMin.kt execute: she is the sender, the message not black, a black message in her area or the receiver's", "白菲菲", "怜悯"),
("白菲菲传出的黑色情报被接收后能发动怜悯吗", "no", "skill/LianMin.kt execute: !messageCard.isBlack()", "白菲菲", "怜悯"),
("白菲菲接收别人传出的黑色情报后能发动腹黑吗", "no", "skill/FuHei.kt execute: askWhom === event.sender (her own message only)", "白菲菲", "腹黑"),
("吴志国接收纯红色情报后能发动坚韧吗", "no", "skill/JianRen.kt execute: messageCard.isBlack() (Black in colors)", "吴志国", "坚韧"),
("吴志国接收自己传出的黑色情报后能发动坚韧吗", "yes", "skill/JianRen.kt execute: the receiver, a black message — no condition on the sender", "吴志国", "坚韧"),
("金生火接收红黑双色情报后能发动谨慎吗", "yes", "skill/JinShen.kt execute: the receiver, colors.size == 2, the message in his area", "金生火", "谨慎"),
("毛不拔接收自己传出的双色情报后能发动奇货可居吗", "yes", "skill/QiHuoKeJu.kt execute: the receiver, colors.size == 2 — no condition on the sender", "毛不拔", "奇货可居"),
("毛不拔接收纯蓝色情报后能发动奇货可居吗", "no", "skill/QiHuoKeJu.kt execute: colors.size == 2", "毛不拔", "奇货可居"),
("李书云传出的蓝色情报被别人接收后能发动真理吗", "yes", "skill/ZhenLi.kt execute: she is the sender, not the receiver, face up, red or blue in the message", "李书云", "真理"),
("李书云接收自己传出的红色情报后能发动真理吗", "no", "skill/ZhenLi.kt execute: askWhom !== event.inFrontOfWhom", "李书云", "真理"),
("边云疆接收自己传出的情报后能发动歼敌风行吗", "no", "skill/JianDiFengXing.kt execute: askWhom !== event.inFrontOfWhom", "边云疆", "歼敌风行"),
("哑炮没有手牌时，他传出的情报被别人接收，憨厚老实会发动吗", "no", "skill/HanHouLaoShi.kt execute: askWhom.cards.isNotEmpty()", "哑炮", "憨厚老实"),
("哑炮被威逼时能发动守口如瓶吗", "yes", "skill/ShouKouRuPing.kt execute: 试探 or 威逼, valid, he is the user or the target, user != target", "哑炮", "守口如瓶"),
("哑炮被利诱时能发动守口如瓶吗", "no", "skill/ShouKouRuPing.kt execute: cardType == Shi_Tan || cardType == Wei_Bi", "哑炮", "守口如瓶"),
("别人使用截获时，池镜海能发动观海吗", "no", "skill/GuanHai.kt execute: askWhom === event.player (his own 截获 / 误导)", "池镜海", "观海"),
("池镜海一回合能发动两次避风吗", "no", "skill/BiFeng.kt execute: getSkillUseCount(BI_FENG) == 0; the resolve adds to it (reset at the turn's end, NextTurn)", "池镜海", "避风"),
("小铃铛向上传出情报时能发动信鸽联络吗", "no", "skill/XinGeLianLuo.kt execute: askWhom === sender && dir !== Up", "小铃铛", "信鸽联络"),
("别人传出情报时，孙守謨能发动详尽思索吗", "yes", "skill/XiangJinSiSuo.kt execute: any SendCardEvent (findEvent { true }) — whoever sends", "孙守謨", "详尽思索"),
("鄭文先打出破译后能发动换日吗", "yes", "skill/HuanRi.kt execute: his own 调包 or 破译 resolved, alive, face up", "鄭文先", "换日"),
("鄭文先面朝下时使用调包，能发动换日吗", "no", "skill/HuanRi.kt execute: event.player.roleFaceUp", "鄭文先", "换日"),
("盛老板使用风云变幻后能发动深藏吗", "yes", "skill/ShenCang.kt execute: his own 威逼 / 风云变幻 / 截获 resolved, alive, face up", "盛老板", "深藏"),
("盛老板使用误导后会发动深藏吗", "no", "skill/ShenCang.kt execute: cardType in {Wei_Bi, Feng_Yun_Bian_Huan, Jie_Huo}", "盛老板", "深藏"),
("成年韩梅面朝下时使用误导，能发动将计就计吗", "no", "skill/JiangJiJiuJi.kt execute: askWhom.roleFaceUp", "成年韩梅", "将计就计"),
("情报在成年韩梅面前时，别人使用误导，她能发动将计就计吗", "yes", "skill/JiangJiJiuJi.kt execute: 误导, face up, alive, the user or the player the message is in front of (FightPhaseIdle.inFrontOfWhom)", "成年韩梅", "将计就计"),
("成年小九面朝上时接收情报能发动联信吗", "no", "skill/LianXin.kt execute: !askWhom.roleFaceUp", "成年小九", "联信"),
("简先生被威逼后能发动从容应对吗", "no", "skill/CongRongYingDui.kt execute: cardType == Shi_Tan", "简先生", "从容应对"),
("简先生对别人使用试探后能发动从容应对吗", "yes", "skill/CongRongYingDui.kt execute: 试探 resolved, he is its user or its target", "简先生", "从容应对"),
("白小年没有非黑色情报时，使用卡牌后能发动转交吗", "no", "skill/ZhuanJiao.kt execute: messageCards.any { !it.isBlack() }", "白小年", "转交"),
("老鳖传出的纯黑色情报被接收后能发动明饵吗", "no", "skill/MingEr.kt execute: Red in colors || Blue in colors", "老鳖", "明饵"),
("别人打出调包后，金自来能发动赌命吗", "yes", "skill/DuMing.kt execute: any 调包 resolved (FinishResolveCardEvent, whoever played it), not used this turn", "金自来", "赌命"),
("王富贵在别人的回合传出情报时能发动江湖令吗", "yes", "skill/JiangHuLing.kt execute: askWhom === event.sender — no condition on whose turn (密令's target sends in another's turn, card/MiLing.kt)", "王富贵", "江湖令"),
# --- effects
("真理会让李书云摸牌吗", "yes", "skill/ZhenLi.kt execute: askWhom.draw(2), then face down", "李书云", "真理"),
("藏身教堂能让玛利亚摸牌吗", "yes", "skill/CangShenJiaoTang.kt execute: the receiver a hidden role → askWhom.draw(1)", "玛利亚", "藏身教堂"),
("明饵能让接收者摸牌吗", "yes", "skill/MingEr.kt execute: sender and receiver draw one each (two for the sender who receives his own)", "老鳖", "明饵"),
("将计就计会让成年韩梅面朝下吗", "yes", "skill/JiangJiJiuJi.kt JiangJiJiuJi2: draw(1), playerSetRoleFaceUp(askWhom, false)", "成年韩梅", "将计就计"),
("转交能把情报放入别人的情报区吗", "yes", "skill/ZhuanJiao.kt: a non-black message of his moved into another living player's area", "白小年", "转交"),
("禁闭能让别人的技能无效吗", "yes", "skill/JinBi.kt ExecuteJinBi: a target who does not give two hand cards has his skills invalidated and cannot play cards this turn", "王田香", "禁闭"),
("交际能拿走别人的手牌吗", "yes", "skill/JiaoJi.kt: takes up to two random hand cards of another player", "裴玲", "交际"),
("江湖令能弃置接收者的情报吗", "yes", "skill/JiangHuLing.kt JiangHuLing2: a message of the named colour in the receiver's area discarded", "王富贵", "江湖令"),
("深藏能让别人面朝下吗", "no", "skill/ShenCang.kt execute: playerSetRoleFaceUp(askWhom, false) — the holder only", "盛老板", "深藏"),
("憨厚老实能让哑炮摸牌吗", "no", "skill/HanHouLaoShi.kt execute: one of his hand cards to the receiver — no draw", "哑炮", "憨厚老实"),
("守口如瓶能让试探无效吗", "yes", "skill/ShouKouRuPing.kt execute: the 试探 / 威逼 between him and another is made invalid", "哑炮", "守口如瓶"),
# --- cards: who may play what when
("情报在自己面前时能使用截获吗", "yes", "card/JieHuo.kt canUse: r === FightPhaseIdle.whoseFightTurn — no condition on where the message is", None, "card/card.md › 截获"),
("误导能把情报转移给情报面前的角色吗", "no", "card/WuDao.kt canUse: target !== fsm.inFrontOfWhom (a neighbour of him)", None, "card/card.md › 误导"),
("在传递阶段开始时能使用风云变幻吗", "no", "card/FengYunBianHuan.kt canUse: the turn player in MainPhaseIdle", None, "card/card.md › 风云变幻"),
("有人濒死时能使用调虎离山吗", "no", "card/DiaoHuLiShan.kt canUse: the turn player in MainPhaseIdle", None, "card/card.md › 调虎离山"),
("濒死的角色能对别人使用澄清吗", "no", "card/ChengQing.kt canUse: in WaitForChengQing the target must be whoDie (the dying player himself)", None, "card/card.md › 澄清"),
("被禁闭的角色还能传出情报吗", "yes", "skill/JinBi.kt: cards banned and skills invalid; phase/SendPhaseStart.kt asks him to send all the same", "王田香", "禁闭"),
("白沧浪在争夺阶段能发动博爱吗", "no", "skill/BoAi.kt: a MainPhaseSkill, the turn player in MainPhaseIdle", "白沧浪", "博爱"),
("张一挺宣言截获后，他自己还能使用截获吗", "no", "skill/QiangLing.kt: every player (himself included) gets CannotPlayCard of the named types this turn", "张一挺", "强令"),
("被锁定的角色能使用截获吗", "yes", "card/JieHuo.kt canUse: whoseFightTurn, not banned — a lock constrains the receive only (phase/FightPhaseIdle, OnChooseReceiveCard)", None, "card/card.md › 截获"),
("传出者能对自己传出的情报使用截获吗", "yes", "card/JieHuo.kt canUse: whoseFightTurn — no condition on the sender", None, "card/card.md › 截获"),
("被调虎离山的角色还能接收情报吗", "yes", "card/DiaoHuLiShan.kt: cards banned or skills invalid this turn; receiving is no card (phase/SendPhaseIdle asks him)", None, "card/card.md › 调虎离山"),
# --- dying, death, BeforeDieSkill
("濒死时没有人使用澄清，他会死亡吗", "yes", "phase/WaitNextForChengQing.kt: asked round the table; no one saves → the player dies (PlayerDieEvent)", None, "strategy/detail_rules.md › 濒死"),
("老汉被禁闭后，在王田香的回合死亡还能发动如归吗", "no", "skill/JinBi.kt invalidates his skills this turn: an InvalidSkill is no TriggeredSkill (skill/Skill.kt), 如归 is not asked", "老汉", "如归"),
("哑炮一回合能发动两次守口如瓶吗", "yes", "skill/ShouKouRuPing.kt execute: no use-count condition — the count only decides who draws (both the first time, himself after)", "哑炮", "守口如瓶"),
# --- winning, secret tasks
("镇压者能在自己的回合获胜吗", "yes", "phase/CheckKillerWin.kt: whoseTurn === killer and a player who died holds two or more red / blue messages", None, "card/secret_task.md › 镇压者"),
("清道夫能在别人的回合获胜吗", "yes", "phase/CheckKillerWin.kt: a sweeper alive (or just dead) and a dead player with at most one red and one blue — no condition on whose turn (five seats: Game.kt tasks)", None, "card/secret_task.md › 清道夫"),
("先行者能在别人的回合获胜吗", "yes", "phase/CheckKillerWin.kt: the pioneer among the dead with a red or blue message — no condition on whose turn", None, "card/secret_task.md › 先行者"),
("没有红色或蓝色情报的先行者死亡时能获胜吗", "no", "phase/CheckKillerWin.kt: pioneer.messageCards.countTrueCard() >= 1", None, "card/secret_task.md › 先行者"),
("诱变者能在别人的回合获胜吗", "yes", "ProcessFsm.kt checkWin: a player with three red or three blue who does not win himself → the mutator wins — no condition on whose turn (five seats)", None, "card/secret_task.md › 诱变者"),
# --- English
("can 池镜海 use 避风 when he plays 误导?", "yes", "skill/BiFeng.kt execute: his own 截获 or 误导, not used this turn", "池镜海", "避风"),
("can 盛老板 use 深藏 after playing 截获?", "yes", "skill/ShenCang.kt execute: 截获 among the three card types, face up", "盛老板", "深藏"),
("can 简先生 use 从容应对 after being the target of 试探?", "yes", "skill/CongRongYingDui.kt execute: askWhom === event.targetPlayer", "简先生", "从容应对"),
("can 老鳖 use 明饵 when his blue message is received by someone else?", "yes", "skill/MingEr.kt execute: the sender, red or blue", "老鳖", "明饵"),
("can the 先行者 win in his own turn?", "yes", "phase/CheckKillerWin.kt: he dies with a red or blue message — whose turn is not read", None, "card/secret_task.md › 先行者"),
("can a dying player play 澄清 on someone else?", "no", "card/ChengQing.kt canUse: in WaitForChengQing target === whoDie", None, "card/card.md › 澄清"),
("can 金生火 use 谨慎 after receiving a pure red message?", "no", "skill/JinShen.kt execute: colors.size == 2", "金生火", "谨慎"),
("can 白小年 use 转交 after playing 威逼?", "yes", "skill/ZhuanJiao.kt execute: any card of his resolved, alive, a non-black message", "白小年", "转交"),
]

def esc(s): return s.replace("\\", "\\\\").replace('"', '\\"')
out = []
for ask, exp, server, who, what in Q:
    if who is None: src = what
    else: src = f"{rb[who]} › {what}"
    out.append(f'[[question]]\nask = "{esc(ask)}"\nexpect = "{exp}"\ncites = []\nserver = "{esc(server)}"\nsource = "{esc(src)}"\n')
import sys
head = open("tmp/head6.txt", encoding="utf-8").read()
open("tests/fixtures/ask-designer6.toml", "w", encoding="utf-8").write(head + "\n" + "\n".join(out))
print(len(Q))
