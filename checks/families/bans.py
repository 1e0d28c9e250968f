"""Bans sidestepped (BN).

CannotPlayCard bans card types for a turn (强令, 禁闭, 调虎离山, 冷血训练, 借车运货). The server checks the
*declared* type — the type after conversion — so a banned card can still reach play converted, and
skills that resolve a card's effect without playing the card may not consult bans at all.

* BN001 — a banned card type still reaches play through a conversion;
* BN002 — a skill that acts as a banned card type ignores the ban;
* BN003 — a skill that plays one player's card consults another player's bans;
* BN004 — a skill validates the declared type but resolves the physical card (under a must-conversion).
"""
from __future__ import annotations

import itertools

import z3
from ..terms import And, Or

from skillproof.checks.enc.bans import enc_ban_all, enc_ban_has, enc_banned
from skillproof.checks.enc.conversion import (conversion_applies, conversion_source_is, conversion_targets_has,
                                              enc_conversion)
from skillproof.checks.enc.core import card_var, holds as slots_holding
from skillproof.checks.enc.plays import enc_card_usable, enc_card_window, enc_has_card, enc_plays_when, enc_resolves
from skillproof.checks.enc.usable import enc_skill_usable_now
from skillproof.checks.findings import Finding, site_key
from skillproof.checks.graph import conversion_pairs, site_ban_cards
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules bans`; the docstring is the English)
DOC_ZH = """禁令被绕过（BN）。

不能出牌（`CannotPlayCard`）在一回合内禁止某些种类的牌（强令、禁闭、调虎离山、冷血训练、借车运货）。服务器检查的是
宣言的牌——转化之后的牌——所以被禁的牌仍能转化后打出；而不打出牌、直接结算牌的效果的技能，可能根本不查禁令。

* BN001 — 被禁的牌经转化仍能打出；
* BN002 — 当作被禁的牌生效的技能无视禁令；
* BN003 — 打出一名玩家的牌的技能，查看的却是另一名玩家的禁令；
* BN004 — 技能按宣言的牌检查，结算的却是实际的牌（在必须转化之下）。
"""

BN001 = Code(
    "BN001", "ban-sidestepped-by-conversion", "warning",
    "a card type that is banned for the player still reaches play, converted to another type",
    "bans are checked on the declared type, so 'you cannot use 截获 this turn' does not stop a 截获 "
    "being played as 误导; designers who meant to take the card out of play are surprised",
    summary_zh="玩家被禁止的一种牌，转化成另一种牌后仍能打出",
    why_zh="禁令检查的是宣言的牌，所以“本回合不能使用截获”挡不住把截获当作误导打出；"
           "本想让这张牌退出使用的设计者会意外",
    example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[character]]
id = "sp_li_ning_yu"
name = "SP李宁玉"
hidden = false
female = true
skills = ["YingBian"]
[[character]]
id = "zhang_yi_ting"
name = "张一挺"
hidden = false
female = false
skills = ["QiangLing"]
[[skill]]
id = "YingBian"
name = "应变"          # 截获可以当误导
kinds = ["ConvertCardSkill"]
convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }
[[skill]]
id = "QiangLing"
name = "强令"          # 宣言的牌本回合所有人不能使用
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "CannotPlayCard"
to = "all"
args = { cards = ["Jie_Huo"], all_cards = false }
[[grant]]
id = "CannotPlayCard"
name = "不能出牌"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>", all_cards = "bool" }
ban = { cards = "cards", all = "all_cards" }
# bans look at the declared type: a 截获 still reaches play as 误导 under a ban on 截获''')

BN002 = Code(
    "BN002", "ban-ignored-by-skill", "warning",
    "a skill that resolves a card's effect does not consult the player's bans of that card type",
    "a ban announced to every player ('nobody may use 截获 this turn') is silently bypassed by a skill "
    "that acts as 截获",
    summary_zh="结算某种牌的效果的技能，不检查玩家对这种牌的禁令",
    why_zh="向所有玩家宣布的禁令（“本回合谁也不能使用截获”）被当作截获生效的技能悄悄绕过",
    example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[character]]
id = "zheng_wen_xian"
name = "鄭文先"
hidden = false
female = false
skills = ["TouTian"]
[[character]]
id = "zhang_yi_ting"
name = "张一挺"
hidden = false
female = false
skills = ["QiangLing"]
[[skill]]
id = "TouTian"
name = "偷天"          # 视为使用截获
kinds = ["ActiveSkill"]
fight = "true"
plays = { as = ["Jie_Huo"], checks_bans = false }
[[skill]]
id = "QiangLing"
name = "强令"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "CannotPlayCard"
to = "all"
args = { cards = ["Jie_Huo"], all_cards = false }
[[grant]]
id = "CannotPlayCard"
name = "不能出牌"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>", all_cards = "bool" }
ban = { cards = "cards", all = "all_cards" }
# 偷天 acts as a 截获 without consulting the ban on 截获''')


BN003 = Code(
    "BN003", "ban-checked-on-wrong-player", "warning",
    "a skill puts one player's card into play but consults another player's bans",
    "the ban handed to the player whose card is played is not the one looked at: a banned player's card "
    "reaches play through someone else, or an unbanned player's card is refused",
    summary_zh="技能让一名玩家的牌进入使用，检查的却是另一名玩家的禁令",
    why_zh="出牌者受到的禁令没有被查看：被禁止的玩家的牌借别人之手打出，或者没被禁止的玩家的牌反被拒绝",
    example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[character]]
id = "sheng_lao_ban"
name = "盛老板"
hidden = false
female = false
skills = ["RuBiZhiShi"]
[[character]]
id = "zhang_yi_ting"
name = "张一挺"
hidden = false
female = false
skills = ["QiangLing"]
[[skill]]
id = "RuBiZhiShi"
name = "如臂指使"      # 用目标的手牌，当作目标使用
kinds = ["ActiveSkill"]
fight = "true"
plays = { as = ["Jie_Huo"], checks_bans = true, card_of = "target", bans_of = "user" }
[[skill]]
id = "QiangLing"
name = "强令"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "CannotPlayCard"
to = "all"
args = { cards = ["Jie_Huo"], all_cards = false }
[[grant]]
id = "CannotPlayCard"
name = "不能出牌"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>", all_cards = "bool" }
ban = { cards = "cards", all = "all_cards" }
# the target's 截获 is played, but the user's bans are the ones consulted''')

BN004 = Code(
    "BN004", "validated-type-not-resolved", "warning",
    "a skill validates a card as the declared type but resolves the physical card's own effect",
    "under a must-conversion of that card (变则通's A must be used as B) the play is checked as B and "
    "A's effect happens: what the table was told is not what is done",
    summary_zh="技能按宣言的牌检查，结算的却是实际那张牌自己的效果",
    why_zh="在这张牌的必须转化之下（变则通：A 必须当作 B），这次使用按 B 检查，发生的却是 A 的效果："
           "告诉全桌的和实际做的不是一回事",
    example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[card]]
id = "Diao_Bao"
name = "调包"
phases = ["fight"]
[[character]]
id = "sheng_lao_ban"
name = "盛老板"
hidden = false
female = false
skills = ["RuBiZhiShi"]
[[character]]
id = "chen_da_er"
name = "陈大耳"
hidden = false
female = false
skills = ["BianZeTong"]
[[skill]]
id = "RuBiZhiShi"
name = "如臂指使"
kinds = ["ActiveSkill"]
fight = "true"
plays = { as = ["Jie_Huo", "Diao_Bao"], checks_bans = true, card_of = "target", bans_of = "target", resolves = "physical" }
[[skill]]
id = "BianZeTong"
name = "变则通"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "BianZeTong2"
to = "all"
at = "send_start"
where = "A != B"
[[grant]]
id = "BianZeTong2"
name = "变则通·宣言"   # A 只能当作 B
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
params = { A = "card", B = "card" }
convert = { from = "A", to = ["B"], must = true }
# validated as the declared B, resolved as the physical A''')


def _ban_sites(cat):
    """gives sites handing out a CannotPlayCard that can ban specific cards (not only 'all')."""
    out = []
    for gid in (r.id for r in cat.grants if r.ban is not None):
        for give in cat.sites(gid):
            out.append(give)
    return out


def _ban_slot_goal(S, give, slot_filter, card):
    """Some grant slot holds a ban from ``give`` that bans ``card`` (and not everything)."""
    C = S.codes
    site = C.site[f"{give.giver}#{give.index}"]
    rule = S.cat.skills[give.grant]
    terms = []
    for sl in S.slots:
        if sl.initial_slot or give.grant not in sl.candidates or not slot_filter(sl):
            continue
        terms.append(And(sl.present, S.rule_is(sl, give.grant), sl.site == site,
                            z3.Not(enc_ban_all(S, rule, sl)), enc_ban_has(S, rule, sl, card)))
    return Or(terms) if terms else z3.BoolVal(False)


def _site_name(ctx, give):
    return ctx.cat.giver_name(give)


@register("bans", "Bans sidestepped", [BN001, BN002, BN003, BN004], order=20, lane=1, weight=35)
def run(ctx):
    cat = ctx.cat
    out = []
    sites = _ban_sites(cat)
    convs = [r for r in cat.skills.values() if r.convert is not None]
    # ---------------------------------------------------------------- BN001
    def meets(give, conv):
        banned = site_ban_cards(cat, give, include_all=False)
        srcs = {a for a, _ in conversion_pairs(cat, conv.id)}
        return banned and ("*" in srcs or srcs & banned)
    pairs = [(give, conv) for give, conv in itertools.product(sites, convs) if meets(give, conv)]
    ctx.plan([{conv.id, give.grant} for give, conv in pairs])
    for give, conv in pairs:                # (other pairs never meet: the ban touches no card it converts)
        q = ctx.query_for({conv.id, give.grant})
        S = q.S
        x, xb = card_var(S, "bn_actual")
        y, yb = card_var(S, "bn_declared")
        holds = []
        for sl, _ in slots_holding(S, conv.id):
            holds.append(And(conversion_applies(S, sl, conv.id), conversion_source_is(S, sl, conv.id, x),
                                conversion_targets_has(S, sl, conv.id, y),
                                _ban_slot_goal(S, give, lambda s2, sl=sl: s2.index != sl.index, x)))
        if not holds:
            continue
        ok, via = enc_conversion(S, x, y)
        # the ban and the play meet in one window: the converted card may be used there by the player
        goal = And(xb, yb, x != y, Or(holds), ok, z3.Not(enc_banned(S, y)), enc_card_usable(S, y), enc_has_card(S))
        a = ctx.find(q, goal)
        if a.status == "unknown":
            out.append(ctx.inconclusive("bans", f"{_site_name(ctx, give)}的禁令能否被{conv.name}绕过",
                                        [conv.id, give.giver], a))
            continue
        if not a.sat:
            continue
        xv, yv = a.card(S, x), a.card(S, y)
        st = a.state
        who = cat.characters[st.seats[0].character].name
        msg = (f"{_site_name(ctx, give)}禁止了{ctx.card(xv)}，但{who}仍可用{conv.label}把{ctx.card(xv)}"
               f"当作{ctx.card(yv)}打出（禁令只看宣言的牌名）。")
        out.append(Finding(
            "BN001", "bans", "warning", msg,
            message_en=(f"{ctx.name(give.giver)} bans {ctx.card(xv)}, but {who} can still play {ctx.card(xv)} as "
                        f"{ctx.card(yv)} with {conv.name} (bans look at the declared card)."),
            fix_en=(f"make {conv.name} consult bans (use plays with checks_bans = true), or make {ctx.name(give.giver)}'s "
                    f"ban cover the card before conversion; if this is intended, ignore it with a reason."),
            fix=f"让{conv.label}查看禁令（换用 plays 并设 checks_bans = true），或让{_site_name(ctx, give)}的禁令也覆盖转化前的牌；若本意如此，写明理由忽略它。", key=f"BN001|{site_key(give)}|{conv.id}",
            rules=[ctx.ref(give.giver, "bans the card"), ctx.ref(give.grant, "the ban"),
                   ctx.ref(conv.id, "converts it past the ban")],
            witness=ctx.witness(st, {"decision": "can_play", "seat": 0, "actual": xv, "declared": yv},
                                {"can_play": True, "banned": False, "has_card": True}),
            details={"banned": xv, "played_as": yv}))
    # ---------------------------------------------------------------- BN002
    players = [r for r in cat.skills.values() if r.plays is not None and not r.plays.checks_bans]
    pairs = [(give, skill) for give, skill in itertools.product(sites, players)
             if set(skill.plays.cards) & site_ban_cards(cat, give, include_all=False)]
    ctx.plan([{skill.id, give.grant} for give, skill in pairs])
    for give, skill in pairs:
        q = ctx.query_for({skill.id, give.grant})
        S = q.S
        slots = list(slots_holding(S, skill.id, "Skill"))
        if not slots:
            continue
        # the skill is used while the ban is in force: a window and actor it may be used in, its condition
        usable_now = enc_skill_usable_now(S, skill.id, 0) if skill.has("ActiveSkill") else z3.BoolVal(True)
        found = None
        for card in skill.plays.cards:
            cc = z3.IntVal(S.codes.card[card])
            # held, and acting as the card now (plays.when: 应变自如 as 截获 only on a red or blue message)
            held = Or([And(live, enc_plays_when(S, sl, skill, card)) for sl, live in slots])
            # … and the card's effect happens by the player's doing there (the witness asks it: interp.plays.resolves)
            goal = And(held, And([z3.Not(S.inv[0])] if skill.initial else []), usable_now,
                          _ban_slot_goal(S, give, lambda sl: True, cc), enc_resolves(S, cc))
            a = ctx.find(q, goal)
            if a.status == "unknown":
                out.append(ctx.inconclusive("bans", f"{skill.name}能否无视{_site_name(ctx, give)}的禁令",
                                            [skill.id, give.giver], a))
                break
            if a.sat:
                found = (card, a)
                break
        if not found:
            continue
        card, a = found
        st = a.state
        who = cat.characters[st.seats[0].character].name
        msg = (f"{_site_name(ctx, give)}禁止了{ctx.card(card)}，但{who}的{skill.label}仍能产生"
               f"{ctx.card(card)}的效果：服务器不为这个技能检查禁令。")
        out.append(Finding(
            "BN002", "bans", "warning", msg,
            message_en=(f"{ctx.name(give.giver)} bans {ctx.card(card)}, but {who}'s {skill.name} still has the effect "
                        f"of {ctx.card(card)}: the server does not check bans for this skill."),
            fix_en=f"set checks_bans = true in {skill.name}'s plays (the server then checks bans for it), or accept it with a reason.",
            fix=f"在{skill.label}的 plays 里设 checks_bans = true（让服务器为它检查禁令），或接受并写明理由。", key=f"BN002|{site_key(give)}|{skill.id}",
            rules=[ctx.ref(give.giver, "bans the card"), ctx.ref(skill.id, "acts as the card, unchecked")],
            # the ban is in force, and the skill still has the card's effect there (the game must show both)
            witness=ctx.witness(st, {"decision": "banned", "seat": 0, "declared": card}, {"banned": True},
                                also=[({"decision": "resolves", "seat": 0, "declared": card}, {"resolves": True})]),
            details={"card": card}))
    _run_played_for(ctx, out, sites)
    return out


def _run_played_for(ctx, out, sites):
    """BN003 / BN004: skills that put another player's card into play (plays.card_of = target)."""
    cat = ctx.cat
    players = [r for r in cat.skills.values() if r.plays is not None and r.plays.card_of != "none"]
    musts = [r for r in cat.skills.values() if r.convert is not None and r.convert.must]
    planned = []                    # the questions below, in order: their states are packed for them
    for skill in players:
        p = skill.plays
        if p.checks_bans and p.bans_of != p.card_of:
            planned += [{skill.id, give.grant} for give in sites
                        if set(p.cards) & site_ban_cards(cat, give, include_all=True)]
        if p.resolves == "physical" and p.card_of == "target":
            planned += [{skill.id, must.id} for must in musts]
    ctx.plan(planned)
    for skill in players:
        p = skill.plays
        # ---- BN003: whose bans — the card's owner is the player (seat 0), the user another seat
        if p.checks_bans and p.bans_of != p.card_of:
            for give in sites:
                cards = set(p.cards) & site_ban_cards(cat, give, include_all=True)
                if not cards:
                    continue
                q = ctx.query_for({skill.id, give.grant})
                S = q.S
                user = 1 if p.card_of == "target" else 0
                if S.n < 2:
                    continue
                found = None
                for card in sorted(cards):
                    cc = z3.IntVal(S.codes.card[card])
                    use_now = enc_skill_usable_now(S, skill.id, user)
                    holder_ok = z3.BoolVal(True)
                    # the ban sits on the player (seat 0): the card's owner when cards are the target's,
                    # the user when the server looks at the target's bans instead
                    goal = And(holder_ok, use_now, _ban_slot_goal(S, give, lambda sl: True, cc))
                    a = ctx.find(q, goal)
                    if a.status == "unknown":
                        out.append(ctx.inconclusive("bans", f"{skill.name}查看谁的禁令", [skill.id, give.giver], a))
                        break
                    if a.sat:
                        found = (card, a)
                        break
                if not found:
                    continue
                card, a = found
                st = a.state
                names = [cat.characters[s.character].name for s in st.seats]
                banned_who, other = (names[0], names[1]) if len(names) > 1 else (names[0], "?")
                if p.card_of == "target":
                    msg_en = (f"{ctx.name(give.giver)} bans {banned_who} from using {ctx.card(card)}, but {other}'s "
                              f"{skill.name} can still use {banned_who}'s hand card as {ctx.card(card)}: the server "
                              f"looks at the bans of the user, not of the player whose card it is.")
                    msg = (f"{_site_name(ctx, give)}禁止{banned_who}使用{ctx.card(card)}，但{other}的{skill.label}"
                           f"仍能把{banned_who}的手牌当作{ctx.card(card)}使用：服务器查看的是使用者而不是出牌者的禁令。")
                else:
                    msg_en = (f"{ctx.name(give.giver)} bans {banned_who} from using {ctx.card(card)}, but when "
                              f"{banned_who}'s {skill.name} plays {banned_who}'s own card the server looks at the "
                              f"bans of the target {other}.")
                    msg = (f"{_site_name(ctx, give)}禁止{banned_who}使用{ctx.card(card)}，但{banned_who}的{skill.label}"
                           f"用自己的手牌时，服务器查看的是目标{other}的禁令。")
                out.append(Finding(
                    "BN003", "bans", "warning", msg, key=f"BN003|{site_key(give)}|{skill.id}", message_en=msg_en,
                    fix_en=f"make {skill.name}'s plays.bans_of and plays.card_of name the same player (the bans of the "
                           f"player whose card is played).",
                    fix=f"让{skill.label}的 plays.bans_of 与 plays.card_of 指向同一名角色（出牌的人的禁令）。",
                    rules=[ctx.ref(skill.id, "checks the wrong player's bans"), ctx.ref(give.giver, "bans the card")],
                    witness=ctx.witness(st, {"decision": "banned", "seat": 0, "declared": card}, {"banned": True},
                                        also=[({"decision": "banned", "seat": 1, "declared": card},
                                               {"banned": False})]),
                    details={"card": card, "card_of": p.card_of, "bans_of": p.bans_of}))
        # ---- BN004: validated as the declared type, resolved as the physical card
        if p.resolves != "physical" or p.card_of != "target":
            continue
        for must in musts:
            q = ctx.query_for({skill.id, must.id})
            S = q.S
            if S.n < 2:
                continue
            x, xb = card_var(S, "bn4_actual")
            y, yb = card_var(S, "bn4_declared")
            ok, _ = enc_conversion(S, x, y, only_must=True)
            in_as = Or([y == S.codes.card[c] for c in p.cards])
            held_must = Or([live for _, live in slots_holding(S, must.id, "ConvertCardSkill")] or [z3.BoolVal(False)])
            # the physical card's own effect runs: in a window that card is used in (else the server fails)
            goal = And(xb, yb, x != y, in_as, ok, held_must, enc_card_window(S, y), enc_card_window(S, x),
                          z3.Not(enc_banned(S, y)) if p.checks_bans else z3.BoolVal(True),
                          enc_skill_usable_now(S, skill.id, 1), enc_has_card(S))    # the owner's hand card
            a = ctx.find(q, goal)
            if a.status == "unknown":
                out.append(ctx.inconclusive("bans", f"{skill.name}结算的是否是宣言的牌", [skill.id, must.id], a))
                continue
            if not a.sat:
                continue
            st = a.state
            xv, yv = a.card(S, x), a.card(S, y)
            names = [cat.characters[s.character].name for s in st.seats]
            msg = (f"{names[1]}用{skill.label}让{names[0]}把{ctx.card(xv)}当作{ctx.card(yv)}使用"
                   f"（{must.label}要求{ctx.card(xv)}必须当作{ctx.card(yv)}）：服务器按{ctx.card(yv)}检查，"
                   f"却结算{ctx.card(xv)}的效果。")
            out.append(Finding(
                "BN004", "bans", "warning", msg, key=f"BN004|{skill.id}|{must.id}",
                message_en=(f"{names[1]} uses {skill.name} to make {names[0]} play {ctx.card(xv)} as {ctx.card(yv)} "
                            f"({must.name} requires {ctx.card(xv)} be played as {ctx.card(yv)}): the server checks "
                            f"{ctx.card(yv)} but resolves the effect of {ctx.card(xv)}."),
                fix_en=(f"make {skill.name} resolve the card it checked (`plays.resolves = \"declared\"`), or check the "
                        f"physical card."),
                fix=f"让{skill.label}结算它检查过的牌（`plays.resolves = \"declared\"`），或检查时按实际的牌检查。",
                rules=[ctx.ref(skill.id, "resolves the physical card"), ctx.ref(must.id, "forces the declared type")],
                witness=ctx.witness(st, {"decision": "plays", "seat": 0, "user": 1, "skill": skill.id,
                                         "actual": xv, "declared": yv},
                                    {"validated": True, "resolves": xv, "has_card": True}),
                details={"actual": xv, "declared": yv}))
