"""Triggers and effects (TR).

Triggered skills answer the server's events (``on``: the event, whose event it is, a guard) and do effects (``do``)
that raise events again; the engine offers every pending event to every player's skills, seat by seat from the turn
player and each player's skills in the order of his skill list, each skill once per event, and asks a dead player's
BeforeDieSkills and granted skills too (server ``Game.dealListeningSkill``, ``Event.checkResolve``). These checks read
``on`` and ``do`` as data:

* TR001 — a chain of triggers and effects that can repeat without end: each step's effect raises the event the next
  step answers, every guard and condition on the way can hold, no step is limited to once a turn, and the cards it
  moves do not run out (a chain that leaves some player fewer cards in hand or in his message area each time round
  ends when they are gone) — the game does not terminate: general game playing's first well-formedness condition;
* TR002 — an effect op its own trigger rules out: its condition can never hold together with the trigger's guard and
  whose event it is (dead effect text), or it names a player the event it answers does not bind;
* TR003 — a granted (non-initial) triggered skill that is no BeforeDieSkill but still answers events after its holder
  died (the server asks a dead player's granted skills; the design note: only a BeforeDieSkill fires without its
  holder alive);
* TR004 — two triggered skills of one player answering one event whose effects do not commute: the outcome depends on
  the order of the holder's skill list, which the server uses;
* TR005 — a triggered skill that can never answer an event it names: the event is never raised where its whose and its
  guard hold (as far as the data says: the holders' characters, the event's own facts, the facts every state keeps).
"""
from __future__ import annotations

from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules triggers`; the docstring is the English)
DOC_ZH = """触发与效果（TR）。

触发技能回应服务器的事件（`on`：哪个事件、谁的事件、触发条件），发动效果（`do`），效果又引发新的事件；引擎把每个
待处理的事件依次交给每名角色的技能——从当前回合角色开始按座位顺序，同一角色按其技能列表的顺序，每个技能对一个事件
只回应一次——死亡角色的死亡前技能和获得的技能也会被询问（服务器 `Game.dealListeningSkill`、`Event.checkResolve`）。
这些检查把 `on` 和 `do` 当作数据来读：

* TR001 — 触发与效果组成的链可以无限重复：每一步的效果引发下一步回应的事件，途中每个触发条件和效果条件都能成立，
  没有一步受“每回合一次”限制，它移动的牌也不会用完（每转一圈都让某名角色的手牌或情报区变少的链，牌用完就停了）
  ——游戏不会结束：一般博弈描述的第一条良构条件；
* TR002 — 效果里被自己的触发排除的操作：它的条件与触发条件、谁的事件永远不能同时成立（写了也白写），或者它点名了
  所回应事件并不包含的角色；
* TR003 — 获得的（非初始）触发技能不是死亡前技能，却在持有者死后仍回应事件（服务器会询问死亡角色获得的技能；
  设计说明：只有死亡前技能在持有者不存活时发动）；
* TR004 — 同一角色的两个触发技能回应同一事件，效果不可交换：结果取决于服务器所用的技能列表顺序；
* TR005 — 触发技能永远不能回应它写明的事件：在它的“谁的事件”和触发条件成立的地方，这个事件从不发生（就数据所能说明
  的：持有者的角色、事件本身的事实、每个局面都满足的事实）。
"""

_HEAD = '''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
'''

TR001 = Code("TR001", "trigger-cycle", "error",
             "a chain of triggered skills and effects that can repeat without end",
             "each step's effect raises the event the next step answers, so once started the chain can run for ever: "
             "the server offers each new event anew (Event.checkResolve is per event), and its only guard — 100 passes "
             "of Game.dealListeningSkill per process node — defers the events left to the next node; a game that need "
             "not end is the first thing a game description must rule out (a chain that takes more cards out of some "
             "player's hand or message area than it puts back each time round ends when they are gone, and is not "
             "reported)",
             also=("warning",), also_when="warning when some step may be declined by its player (a `may` op or a "
             "choice): the players can stop it, but nothing else does",
             todo="Break the chain: limit one of its skills to once a turn (`not used` in its `on.when`, or `limit`), "
                  "narrow a guard so that the event a step raises is not one the next step answers, or accept it if "
                  "the rule book says so (an `[[intent]]` with `intends = [\"TR001\"]`).",
             summary_zh="触发技能与效果组成的链可以无限重复",
             why_zh="每一步的效果引发下一步回应的事件，链一旦开始就能一直进行下去：服务器把每个新事件都重新交给技能"
                    "（`Event.checkResolve` 按事件计），唯一的保护——每个结算节点 `Game.dealListeningSkill` 至多 100 轮"
                    "——只是把剩下的事件推到下一个节点；游戏可能不结束，是游戏描述首先要排除的（每转一圈从某名角色的手牌或"
                    "情报区拿走的比放回的多的链，牌用完就停了，不报告）",
             also_when_zh="链上某一步可由玩家放弃（`may` 操作或选择）时为警告：玩家可以停下它，但别的什么也停不下",
             todo_zh="打断这条链：让链上的某个技能每回合只发动一次（在 `on.when` 里写 `not used`，或写 `limit`），"
                     "收窄某个触发条件，使上一步引发的事件不再被下一步回应；规则书如此规定时，用 `[[intent]]` 的 "
                     "`intends = [\"TR001\"]` 说明。",
             example=_HEAD + '''[[character]]
id = "a"
name = "甲方"
hidden = false
female = false
skills = ["HuiZeng"]
[[character]]
id = "b"
name = "乙方"
hidden = false
female = true
skills = ["HuiZeng"]
[[skill]]
id = "HuiZeng"
name = "回赠"
kinds = ["TriggeredSkill"]
on = { event = "give_card", whose = "taker", when = "giver != self and giver.alive" }
do = [{ op = "give", to = "giver" }]     # a card given back is a new give_card: the other 回赠 answers it''')
TR002 = Code("TR002", "effect-ruled-out-by-trigger", "warning",
             "an effect op whose condition can never hold when its trigger fires, or that names a player the event "
             "it answers does not bind",
             "the op is dead text: the skill never does what it says there (usually a condition negated by mistake, or "
             "copied from a skill answering another event); a player the event does not name is read from whatever "
             "the table holds at that moment",
             todo="Make the op's `if` agree with the trigger's `on.when` and `whose` (or delete the op); name only "
                  "the players of the event the op's rule answers (`model/events.py`), or split the rule's events "
                  "into rules of their own.",
             summary_zh="效果操作的条件在其触发时永远不成立，或者点名了所回应事件并不包含的角色",
             why_zh="这个操作写了也白写：技能永远不会做那里写的事（通常是条件写反了，或者从回应别的事件的技能抄来）；"
                    "事件没有的角色，只能从当时局面上恰好有的东西里读出来",
             todo_zh="让操作的 `if` 与触发的 `on.when`、`whose` 相容（或删掉这个操作）；只点名该规则所回应事件的角色"
                     "（`model/events.py`），或者把规则回应的几个事件拆成几条规则。",
             example=_HEAD + '''[[character]]
id = "hei"
name = "收黑者"
hidden = false
female = false
skills = ["ShouHei"]
[[skill]]
id = "ShouHei"
name = "收黑"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "black in message" }
do = [{ op = "draw", n = 2, if = "not (black in message)" }]    # never: the trigger needs black''')
TR003 = Code("TR003", "granted-trigger-fires-when-dead", "warning",
             "a granted (non-initial) triggered skill that is no BeforeDieSkill answers an event after its holder died",
             "the server asks a dead player's non-initial skills (Game.dealListeningSkill: `player.alive || skill is "
             "BeforeDieSkill || !skill.isInitialSkill`), so a handed-out skill whose guard does not ask for a living "
             "holder fires for a dead one; the design note says only a BeforeDieSkill fires without its holder alive",
             todo="Add `alive` to the grant's `on.when` (as the server's follow-ups 江湖令·弃情报, 将计就计, 顺势而为, 就计 "
                  "and 详尽思索 test `askWhom.alive`), or make it a BeforeDieSkill if it is meant to act for the dead.",
             summary_zh="获得的（非初始）触发技能不是死亡前技能，却在持有者死后回应事件",
             why_zh="服务器会询问死亡角色的非初始技能（`Game.dealListeningSkill`：`player.alive || skill is BeforeDieSkill "
                    "|| !skill.isInitialSkill`），触发条件不要求持有者存活的给出技能就会替死者发动；设计说明："
                    "只有死亡前技能在持有者不存活时发动",
             todo_zh="在给出技能的 `on.when` 里加上 `alive`（服务器的后续技能江湖令·弃情报、将计就计、顺势而为、就计、"
                     "详尽思索都检查 `askWhom.alive`）；若它本就要替死者发动，就把它写成死亡前技能（`BeforeDieSkill`）。",
             example=_HEAD + '''[[character]]
id = "hao"
name = "寄语者"
hidden = false
female = false
skills = ["JiYu"]
[[skill]]
id = "JiYu"
name = "寄语"
kinds = ["TriggeredSkill"]
on = { event = "send", whose = "sender" }
do = [{ op = "grant", grant = "JiYu2" }]
[[skill.gives]]
grant = "JiYu2"
to = "self"
at = "send"
on = "send"
[[grant]]
id = "JiYu2"
name = "寄语·收尾"
kinds = ["TriggeredSkill", "OneTurnSkill"]
lifetime = "turn"
on = { event = "turn_end" }              # no `alive`: it fires for a holder who died this turn
do = [{ op = "draw", who = "turn_player" }]''')
TR004 = Code("TR004", "trigger-order-dependent", "warning",
             "two triggered skills of one player answer one event and their effects do not commute: the outcome "
             "depends on the order of the holder's skill list",
             "the server offers an event to one player's skills in the order of his skill list (Game.dealListeningSkill) "
             "and a skill that has seen an event never sees it again (Event.checkResolve, even when its guard was "
             "false), so the first skill's effect decides what the second sees; the rule book lets a player choose "
             "the order of his own skills (strategy/base.md)",
             todo="Say in the rule book which goes first, make the two effects independent, or accept it with an "
                  "`[[intent]]` citing the passage that fixes the order (`intends = [\"TR004@RULE\"]`).",
             summary_zh="同一角色的两个触发技能回应同一事件，效果不可交换：结果取决于持有者技能列表的顺序",
             why_zh="服务器按技能列表的顺序把事件交给同一角色的技能（`Game.dealListeningSkill`），一个技能看过某个事件后"
                    "就不会再看到它（`Event.checkResolve`，即使当时条件不成立），所以先发动的技能的效果决定后一个看到"
                    "什么；规则书却让玩家自己决定自己技能的顺序（strategy/base.md）",
             todo_zh="在规则书里写明谁先结算，或让两个效果互不影响；规则书已写明顺序时，用引用该段落的 `[[intent]]`"
                     "（`intends = [\"TR004@规则\"]`）接受它。",
             example=_HEAD + '''[[character]]
id = "two"
name = "双面人"
hidden = true
female = false
skills = ["FanMian", "AnShou"]
[[skill]]
id = "FanMian"
name = "翻面"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "not face_up" }
do = [{ op = "flip", face = "up" }]
[[skill]]
id = "AnShou"
name = "暗收"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "face_up" }    # 翻面 first turns it on
do = [{ op = "draw" }]''')
TR005 = Code("TR005", "trigger-never-fires", "warning",
             "a triggered skill can never answer an event it names: the event is never raised where its whose and "
             "guard hold",
             "the skill is dead as written (or that event of it is): its guard contradicts the event (a dead victim "
             "that must be alive, a message with no colour), the holders (a public role that must be face down), or "
             "whose event it is (`my_turn` on another player's send phase); `details.because` names the facts that "
             "rule it out",
             todo="Fix the `on` entry the finding names: its `event`, `whose` or `when`; or the holders (a hidden role "
                  "for a face-down guard). Game-level reachability (a state no trace reaches) is `UR003`'s, not this "
                  "check's.",
             summary_zh="触发技能永远不能回应它写明的某个事件：在它的“谁的事件”和触发条件成立的地方，这个事件从不发生",
             why_zh="这个技能（或它回应的这个事件）照写法永远不发动：触发条件与事件矛盾（要求已死亡的死者存活、"
                    "要求情报没有颜色），与持有者矛盾（要求公开角色背面朝上），或与“谁的事件”矛盾（在别人的传递阶段"
                    "开始时要求 `my_turn`）；`details.because` 列出排除它的事实",
             todo_zh="改正问题指出的 `on` 条目：它的 `event`、`whose` 或 `when`；或者改持有者（背面朝上的条件要隐藏角色）。"
                     "整局游戏层面的可达性（没有经过能到达的局面）由 `UR003` 检查，不在这里。",
             example=_HEAD + '''[[character]]
id = "pub"
name = "明面人"
hidden = false
female = false
skills = ["AnFa"]
[[skill]]
id = "AnFa"
name = "暗发"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "not face_up" }    # a public role is always face up
do = [{ op = "draw" }]''')

FAMILY = "triggers"


@register(FAMILY, "Triggers and effects", [TR001, TR002, TR003, TR004, TR005], order=65, lane=1, shared_lane=1,
          weight=2)   # over one shared state in lane 1 (with remind and table): the two lanes as measured (benchmarks/check_bench.py)
def run(ctx):
    # the analysis is imported here, in the lane's process (checks/trigger_checks.py): a run that does not ask for
    # this family, and the parent process of the lanes, never compile it
    from skillproof.checks.trigger_checks import run as run_checks
    return run_checks(ctx)
