"""Bans sidestepped (BN).

CannotPlayCard bans card types for a turn (强令, 禁闭, 调虎离山, 冷血训练, 借车运货). The server checks the
*declared* type — the type after conversion — so a banned card can still reach play converted, and
skills that resolve a card's effect without playing the card may not consult bans at all.

* BN001 — a banned card type still reaches play through a conversion;
* BN002 — a skill that acts as a banned card type ignores the ban.
"""
from __future__ import annotations

import itertools

import z3

from skillproof.checks import encode as X
from skillproof.checks.findings import Finding, site_key
from skillproof.checks.graph import conversion_pairs, site_ban_cards
from skillproof.checks.registry import Code, register

BN001 = Code(
    "BN001", "ban-sidestepped-by-conversion", "warning",
    "a card type that is banned for the player still reaches play, converted to another type",
    "bans are checked on the declared type, so 'you cannot use 截获 this turn' does not stop a 截获 "
    "being played as 误导; designers who meant to take the card out of play are surprised",
    example='''[[skill]]
id = "YingBian"
kinds = ["ConvertCardSkill"]
convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }
[[skill]]
id = "QiangLing"      # 强令：宣言的牌本回合所有人不能使用
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "CannotPlayCard"
to = "all"
args = { all_cards = false }''')

BN002 = Code(
    "BN002", "ban-ignored-by-skill", "warning",
    "a skill that resolves a card's effect does not consult the player's bans of that card type",
    "a ban announced to every player ('nobody may use 截获 this turn') is silently bypassed by a skill "
    "that acts as 截获",
    example='''[[skill]]
id = "TouTian"        # 偷天：当作截获使用
kinds = ["ActiveSkill"]
plays = { as = ["Jie_Huo"], checks_bans = false }''')


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
        terms.append(z3.And(sl.present, S.rule_is(sl, give.grant), sl.site == site,
                            z3.Not(X._ban_all(S, rule, sl)), X._ban_has(S, rule, sl, card)))
    return z3.Or(terms) if terms else z3.BoolVal(False)


def _site_name(ctx, give):
    return ctx.cat.giver_name(give)


@register("bans", "Bans sidestepped", [BN001, BN002], order=20, lane=1)
def run(ctx):
    cat = ctx.cat
    out = []
    sites = _ban_sites(cat)
    convs = [r for r in cat.skills.values() if r.convert is not None]
    # ---------------------------------------------------------------- BN001
    for give, conv in itertools.product(sites, convs):
        banned = site_ban_cards(cat, give, include_all=False)
        srcs = {a for a, _ in conversion_pairs(cat, conv.id)}
        if not banned or not ("*" in srcs or srcs & banned):
            continue                # the ban never touches a card this conversion starts from
        q = ctx.query(ctx.chars_for({conv.id} | ({give.giver} if not give.giver_is_card else set())))
        S = q.S
        x, xb = X.card_var(S, "bn_actual")
        y, yb = X.card_var(S, "bn_declared")
        holds = []
        for sl, _ in X.holds(S, conv.id):
            holds.append(z3.And(X.conversion_applies(S, sl, conv.id), X.conversion_source_is(S, sl, conv.id, x),
                                X.conversion_targets_has(S, sl, conv.id, y),
                                _ban_slot_goal(S, give, lambda s2, sl=sl: s2.index != sl.index, x)))
        if not holds:
            continue
        ok, via = X.enc_conversion(S, x, y)
        goal = z3.And(xb, yb, x != y, z3.Or(holds), ok, z3.Not(X.enc_banned(S, y)))
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
            "BN001", "bans", "warning", msg, fix=f"让{conv.label}查看禁令（换用 plays 并设 checks_bans = true），或让{_site_name(ctx, give)}的禁令也覆盖转化前的牌；若本意如此，写明理由忽略它。", key=f"BN001|{site_key(give)}|{conv.id}",
            rules=[ctx.ref(give.giver, "bans the card"), ctx.ref(give.grant, "the ban"),
                   ctx.ref(conv.id, "converts it past the ban")],
            witness=ctx.witness(st, {"decision": "can_play", "seat": 0, "actual": xv, "declared": yv},
                                {"can_play": True, "banned": False}),
            details={"banned": xv, "played_as": yv}))
    # ---------------------------------------------------------------- BN002
    players = [r for r in cat.skills.values() if r.plays is not None and not r.plays.checks_bans]
    for give, skill in itertools.product(sites, players):
        if not set(skill.plays.cards) & site_ban_cards(cat, give, include_all=False):
            continue
        q = ctx.query(ctx.chars_for({skill.id} | ({give.giver} if not give.giver_is_card else set())))
        S = q.S
        held = [live for sl, live in X.holds(S, skill.id, "Skill")]
        if not held:
            continue
        found = None
        for card in skill.plays.cards:
            cc = z3.IntVal(S.codes.card[card])
            goal = z3.And(z3.Or(held), z3.And([z3.Not(S.inv[0])] if skill.initial else []),
                          _ban_slot_goal(S, give, lambda sl: True, cc))
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
            "BN002", "bans", "warning", msg, fix=f"在{skill.label}的 plays 里设 checks_bans = true（让服务器为它检查禁令），或接受并写明理由。", key=f"BN002|{site_key(give)}|{skill.id}",
            rules=[ctx.ref(give.giver, "bans the card"), ctx.ref(skill.id, "acts as the card, unchecked")],
            witness=ctx.witness(st, {"decision": "banned", "seat": 0, "declared": card}, {"banned": True}),
            details={"card": card}))
    return out
