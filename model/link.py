"""Link a loaded catalogue across files: names resolved (with the nearest valid one when misspelt), conditions
and lambdas parsed and type-checked, card references, conversions, bans, plays, receive and send rules, effects,
``fires`` and the gives sites' arguments — the second pass of the loader (``model/loader.py`` reads the files
and their tables; this module is mixed into its builder). Every problem is recorded with its file, line and key.
"""
from __future__ import annotations

from . import events as EV
from . import expr as E
from . import turn as T
from . import vocab as V
from .catalogue import (Ban, Character, Convert, Effect, Fires, Give, Intent, Loc, On, Plays, Receive, Ref, Rule, Send)
from .errtext import in_expr, type_name
from . import limits as L
from .locate import line_of
from .msg import Msg
from .names import did_you_mean, echo, hint, nearest, quoted, shown  # noqa: F401
from .link_do import DoLinker

#: a MainPhaseSkill's reminder when the catalogue says none: the server's default (skill/Skill.kt)
DEFAULT_REMIND = "not used"

EFFECT_KEYS = {"when", "each", "pick", "winners_add", "winners_remove", "declared_add", "declared_remove"}
ON_KEYS = {"event", "whose", "when", "once", "guard_prose"}


class Linker(DoLinker):
    """The cross-file pass of the loader's builder (needs its ``err``, ``_loc``, tables and ``_pending``)."""

    def link(self):
        cards = frozenset(self.cards)
        chars = frozenset(self.characters)
        self.universe = E.Universe(cards, chars)
        for kind, F, path, obj in self._pending:
            if kind == "character":
                self._link_character(F, path, obj)
            elif kind == "rule":
                self._link_rule(F, path, *obj)
            elif kind == "give":
                self._link_give(F, path, *obj)
            elif kind == "intent":
                self._link_intent(F, path, obj)
            elif kind == "rules":                      # [rules] send_dir / send_lock: send-context expressions
                rules, data = obj
                for key in ("send_dir", "send_lock"):
                    if key in data:
                        node = self._expr(F, path + (key,), key, data[key], "send")
                        if node is not None:
                            setattr(rules, key, node)
            elif kind == "card":
                card, e = obj
                if "do" in e:
                    card.do = self._do_list(F, path, e["do"], card, (), {})
                if "target" in e:
                    card.target = self._card_target(F, path, e["target"], card)
                if "requires" in e:
                    card.requires = self._requires(F, path, e["requires"], {})
                    if card.target is not None or "target" not in e:     # a bad target is its own error, not "none"
                        self._requires_target(F, path, card)
        for key in ("send_dir", "send_lock"):          # a default not written: checked like a written one
            node = getattr(self.rules, key)
            if not getattr(node, "type", ""):
                E.check(node, E.Scope("send", self.universe, {}), V.BOOL)

    TARGET_WHO = ("none", "any", "other")

    def _plays_when(self, F, pp, v, cards: list, params) -> dict:
        """``plays.when``: the condition on which the skill acts as a card (应变自如: 截获 only on a red or blue message,
        skill/YingBianZiRu.kt) — one condition for every card of ``as``, or a table card -> condition; over the user
        (``self``) and the message, as a condition of 争夺阶段 reads them."""
        p = pp + ("when",)
        if isinstance(v, str):
            v = {"*": v}
        if not isinstance(v, dict):
            self.err(F[0], F[1], p, "plays.when", Msg("'plays.when' 必须是条件，或“牌 = 条件”的表",
                                                    "plays.when must be a condition, or a table of card = condition"))
            return {}
        out = {}
        for card, text in v.items():
            if card != "*" and card not in cards:
                hint = nearest(card, set(cards))
                self.err(F[0], F[1], p + (card,), "plays.when",
                         Msg("'{c}' 不是 'plays.as' 里的牌{dym}", "'{c}' is not a card of plays.as{dym}", c=str(card),
                             dym=did_you_mean(f"'{hint}'") if hint else ""))
                continue
            node = self._expr(F, p + (card,), "plays.when", text, "when", params)
            if node is not None:
                out[card] = node
        return out

    def _requires_target(self, F, path, card) -> None:
        """A card with no target (``target = "none"`` or no ``target``) whose ``requires`` reads the target: a use of
        it has no target to read, so the catalogue contradicts itself (the server's canUse tests an argument the
        card's ``target`` does not give it) — a mistake of the catalogue, not a finding about the rules."""
        who = card.target.who if card.target is not None else "none"
        if card.requires is None or who != "none":
            return
        read = sorted({x.name for x in E.walk(card.requires) if isinstance(x, E.Var) and x.role == "player"
                       and (x.name == "target" or x.name.startswith("target_"))})
        if read:
            self.err(F[0], F[1], path + ("requires",), "requires",
                     Msg("'requires' 读了目标（{names}），可 {id} 没有目标（{none}）：给这张牌它读的目标（{forms}），"
                         "或者让 'requires' 不读目标",
                         "'requires' reads the target ({names}), yet {id} has no target ({none}): give the card the "
                         "target it reads ({forms}), or keep 'requires' off it", names=", ".join(read), id=card.id,
                         none='target = "none"', forms='target = "any" / "other" / { who, when }'))

    def _card_target(self, F, path, v, card):
        """``target = "any"`` or ``target = { who = "other", when = "target.hand_count > 0" }`` (``when`` may be a
        table window -> condition: ``{ main = "…", dying = "target == dying" }``)."""
        from .catalogue import CardTarget
        p = path + ("target",)
        if isinstance(v, str):
            if v not in self.TARGET_WHO:            # the one-word form: its own key, the word, the nearest one
                near = nearest(v, set(self.TARGET_WHO))
                self.err(F[0], F[1], p, "target",
                         Msg("'target' 必须是 {one}，不能是 {v}{dym}", "'target' must be one of {one}, not {v}{dym}",
                             one=", ".join(self.TARGET_WHO), v=_q(v), dym=did_you_mean(f"'{near}'") if near else ""))
                return None
            v = {"who": v}
        if not isinstance(v, dict):
            self.err(F[0], F[1], p, "target", Msg("'target' 必须是 \"any\" / \"other\" / \"none\" 或含 'who'、'when' 的表",
                                                   "'target' must be \"any\", \"other\", \"none\" or a table {{ who = …, when = … }}"))
            return None
        for k in v:
            if k not in ("who", "when"):
                self.err(F[0], F[1], p + (k,), k, Msg("'target' 中有未知的键 {k}（只有 'who'、'when'）",
                                                     "unknown key {k} in 'target' (who, when)", k=_q(k)))
        who = v.get("who", "any")
        if who not in self.TARGET_WHO:
            self.err(F[0], F[1], p + ("who",), "who", Msg("'who' 必须是 {one}", "'who' must be one of {one}",
                                                        one=", ".join(self.TARGET_WHO)))
            return None
        when = v.get("when", {})
        if isinstance(when, str):
            when = {"*": when}
        if not isinstance(when, dict):
            self.err(F[0], F[1], p + ("when",), "when", Msg("'when' 必须是条件，或“时机 = 条件”的表",
                                                          "'when' must be a condition, or a table of window = condition"))
            return None
        out = {}
        for w, text in when.items():
            if w != "*" and w not in card.windows:
                self.err(F[0], F[1], p + ("when", w), "when", Msg("{w} 不是这张牌使用的时机", "{w} is not a window the card is used in",
                                                                  w=_q(w)))
                continue
            # the window's players (model/turn.target_players); for every window ("*"): those all its windows have
            players = T.target_players(w) if w != "*" else tuple(
                p for p in T.target_players(next(iter(card.windows), "main"))
                if all(p in T.target_players(x) for x in card.windows))
            if not isinstance(text, str):
                self.err(F[0], F[1], p + ("when", w), "when", Msg("条件必须是字符串", "a condition must be a string"))
                continue
            try:
                node = E.parse(text)
                E.check(node, E.Scope("do", self.universe, {}, players, {}), V.BOOL)
            except E.ExprError as ex:
                self.err(F[0], F[1], p + ("when", w), "when", _in_expr(text, ex))
                continue
            out[w] = node
        if who == "none" and out:
            self.err(F[0], F[1], p + ("when",), "when", Msg("没有目标的牌不能有目标条件", "a card with no target has no target condition"))
        return CardTarget(who, out, self._loc(F, p))

    def _link_intent(self, F, path, it: Intent):
        for x in it.intends:
            if x.rule and x.rule not in self.skills and x.rule not in self.cards and x.rule not in self.characters:
                hint = nearest(x.rule, set(self.skills) | set(self.cards) | set(self.characters))
                self.err(F[0], F[1], path + ("intends",), "intends",
                         Msg("'{x}' 写的规则 '{r}' 未知{dym}", "'{x}' names unknown rule '{r}'{dym}", x=str(x), r=x.rule,
                             dym=did_you_mean(f"'{hint}'") if hint else ""))

    def _link_character(self, F, path, ch: Character):
        for s in ch.skills:
            if s not in self.skills:
                self.err(F[0], F[1], path + ("skills",), "skills",
                         Msg("未知的技能 {s}（在 {name} 的 'skills' 中）{dym}", "unknown skill {s} for {name}{dym}", s=_q(s), name=ch.name,
                             dym=self._dym_rule(s, grants=False)))
            elif self.skills[s].is_grant:
                self.err(F[0], F[1], path + ("skills",), "skills",
                         Msg("{s} 是 [[grant]]（运行时给出的技能），不是角色开局就有的技能",
                             "{s} is a [[grant]] (handed out at run time), not a skill a character starts with", s=_q(s)))

    def _dym_rule(self, s, grants):
        rules = [r for r in self.skills.values() if r.is_grant == grants]

        def show(n):
            r = self.skills.get(n) or next((x for x in rules if x.name == n), None)
            return _id_name(r.id, r.name) if r else f"'{n}'"
        return hint(s, [r.id for r in rules] + [r.name for r in rules], show)

    def _dym_card(self, s):
        def show(n):
            c = self.cards.get(n) or next(x for x in self.cards.values() if x.name == n)
            return _id_name(c.id, c.name)
        return hint(s, list(self.cards) + [c.name for c in self.cards.values()], show)

    def _expr(self, F, path, key, text, context, params=None, want=V.BOOL, unknown_key=""):
        if not isinstance(text, str):
            self.err(F[0], F[1], path, key, Msg("'{key}' 必须是表达式字符串，不能是{t}", "'{key}' must be an expression string, not {t}",
                                                key=key, t=_tname(text)))
            return None
        try:
            node = E.parse(text)
            E.check(node, E.Scope(context, self.universe, params or {}), want)
        except E.ExprError as ex:
            self.err(F[0], F[1], path, key, in_expr(text, ex))
            return None
        _key_unknowns(node, unknown_key or key)
        return node

    def _lambda(self, F, path, key, text, context, scope_players, unknown_key=""):
        if not isinstance(text, str):
            self.err(F[0], F[1], path, key, Msg("'{key}' 必须是 '变量: 条件' 形式的字符串，不能是{t}",
                                                "'{key}' must be a string 'VAR: condition', not {t}", key=key, t=_tname(text)))
            return None
        try:
            lam = E.parse_lambda(text)
            if lam.var in scope_players:
                raise E.ExprError(Msg("{v} 在这里已经用过了；换一个字母", "{v} is already bound here; pick another letter",
                                      v=_q(lam.var)), 0)
            E.check(lam.body, E.Scope(context, self.universe, {}, scope_players + (lam.var,)), V.BOOL)
        except E.ExprError as ex:
            self.err(F[0], F[1], path, key, in_expr(text, ex))
            return None
        _key_unknowns(lam.body, unknown_key or key)
        return lam

    def _card_ref(self, F, path, key, v, params, want_param_type="card", allow_any=False):
        if not isinstance(v, str):
            self.err(F[0], F[1], path, key, Msg("'{key}' 必须是一张牌，不能是{t}", "'{key}' must name a card, not {t}",
                                                key=key, t=_tname(v)))
            return None
        if allow_any and v == "any":
            return Ref("any")
        if v in self.cards:
            return Ref("card", v)
        if v in params:
            if params[v] != want_param_type:
                self.err(F[0], F[1], path, key, Msg("参数 {p} 是 '{t}'，这里需要 '{want}'",
                                                    "parameter {p} is a {t}, a {want} is needed here",
                                                    p=_q(v), t=params[v], want=want_param_type))
                return None
            return Ref("param", v)
        suggestion = self._dym_card(v)
        if not suggestion and params:
            suggestion = hint(v, params, lambda n: Msg("参数 '{n}'", "parameter '{n}'", n=n))
        self.err(F[0], F[1], path, key, Msg("未知的牌 {v}{dym}", "unknown card {v}{dym}", v=_q(v), dym=suggestion))
        return None

    def _link_rule(self, F, path, r: Rule, e: dict):
        P = r.params
        rid = r.id
        if "fight" in e:
            r.fight = self._expr(F, path + ("fight",), "fight", e["fight"], "fight", P, unknown_key=f"{rid}.fight")
        elif r.has("ActiveSkill"):
            r.fight = E.Lit(False)
            E.check(r.fight, E.Scope("fight", self.universe))
        if "dying" in e:
            r.dying = self._expr(F, path + ("dying",), "dying", e["dying"], "dying", P, unknown_key=f"{rid}.dying")
        elif r.has("ActiveSkill"):
            r.dying = E.Lit(False)
            E.check(r.dying, E.Scope("dying", self.universe))
        if r.has("ActiveSkill") and "windows" not in e:
            r.windows = default_windows(r)
        if "main" in e:
            r.main = self._expr(F, path + ("main",), "main", e["main"], "main", P, unknown_key=f"{rid}.main")
            if r.has("ActiveSkill") and "main" not in r.windows:
                self.err(F[0], F[1], path + ("main",), "main",
                         Msg("'main' 是出牌阶段的使用条件，而 '{id}' 不在出牌阶段使用（它的 'windows' 里没有 'main'）",
                             "'main' is the condition of the main phase, in which {id} is not used (its 'windows' "
                             "have no 'main')", id=rid))
        elif r.has("ActiveSkill"):
            r.main = E.Lit(True)
            E.check(r.main, E.Scope("main", self.universe))
        if "remind" in e:
            r.remind = self._expr(F, path + ("remind",), "remind", e["remind"], "remind", P,
                                  unknown_key=f"{rid}.remind")
        elif r.has("MainPhaseSkill"):
            # server skill/Skill.kt MainPhaseSkill.mainPhaseNeedNotify: `r.getSkillUseCount(skillId) == 0`
            r.remind = E.parse(DEFAULT_REMIND)
            E.check(r.remind, E.Scope("remind", self.universe), V.BOOL)
        if "plays" in e:
            pv = e["plays"]
            pp = path + ("plays",)
            if not isinstance(pv, dict):
                self.err(F[0], F[1], pp, "plays", Msg("'plays' 必须是表 `{{ as = [牌], checks_bans = true/false }}`",
                                                      "'plays' must be a table {{ as = [cards], checks_bans = bool }}"))
            else:
                self._keys(F, pp, pv, {"as", "checks_bans", "bans_of", "card_of", "resolves", "when"}, "plays")
                choice = {}
                for key, allowed, default, what in (
                        ("bans_of", ("user", "target"), "user", Msg("服务器检查谁的禁令", "whose bans the server consults")),
                        ("card_of", ("none", "user", "target"), "none",
                         Msg("谁的牌被打出；'none'：不打出牌", "whose card is put into play; none: no card")),
                        ("resolves", ("declared", "physical"), "declared",
                         Msg("结算哪张牌的效果：宣言的牌还是实际的牌",
                             "the effect that happens: the declared type's or the physical card's"))):
                    v = pv.get(key, default)
                    if v not in allowed:
                        self.err(F[0], F[1], pp + (key,), f"plays.{key}",
                                 Msg("'plays.{key}' 必须是 {zh}（{what}），不能是 {v}",
                                     "plays.{key} must be {en} ({what}), not {v}", key=key,
                                     zh=" 或 ".join(repr(a) for a in allowed), en=" or ".join(repr(a) for a in allowed),
                                     what=what, v=Msg("{zh}", "{en}", zh=quoted(v), en=echo(repr(v)))))
                        v = default
                    choice[key] = v
                bans_of = choice["bans_of"]
                if choice["card_of"] == "none":
                    # no card is put into play: no target's bans to consult, no physical card to resolve
                    for key, bad_v in (("bans_of", "target"), ("resolves", "physical")):
                        if choice[key] == bad_v:
                            self.err(F[0], F[1], pp + (key,), f"plays.{key}", Msg(
                                "'plays.{key}' = \"{v}\" 与 'plays.card_of' = \"none\" 矛盾：不打出牌时{why}",
                                "plays.{key} = \"{v}\" contradicts plays.card_of = \"none\": with no card put into play "
                                "{why_en}", key=key, v=bad_v,
                                why="没有“出牌的角色”的禁令可查" if key == "bans_of" else "没有实际的牌可结算",
                                why_en="there is no card owner whose bans to consult" if key == "bans_of"
                                else "there is no physical card to resolve"))
                as_ = pv.get("as")
                refs = []
                if not isinstance(as_, list) or not as_:
                    self.err(F[0], F[1], pp + ("as",), "plays.as", Msg("'plays.as' 必须是非空的牌列表",
                                                                       "plays.as must be a non-empty list of cards"))
                else:
                    refs = [self._card_ref(F, pp + ("as",), "plays.as", x, {}) for x in as_]
                cb = pv.get("checks_bans")
                if not isinstance(cb, bool):
                    self.err(F[0], F[1], pp + ("checks_bans",), "plays.checks_bans",
                             Msg("'plays.checks_bans' 必须是 'true' 或 'false'（使用它时是否检查禁令 'CannotPlayCard'？）",
                                 "plays.checks_bans must be true or false (does using it respect CannotPlayCard?)"))
                when = self._plays_when(F, pp, pv.get("when"), [x.value for x in refs if x], P) \
                    if "when" in pv else {}
                if refs and all(refs) and isinstance(cb, bool):
                    r.plays = Plays(tuple(x.value for x in refs), cb, Loc(F[0], line_of(F[1], pp)), bans_of,
                                    choice["card_of"], choice["resolves"], when or {})
        if "convert" in e:
            c = e["convert"]
            cp = path + ("convert",)
            if not isinstance(c, dict):
                self.err(F[0], F[1], cp, "convert", Msg("'convert' 必须是表 `{{ from, to, must }}`",
                                                        "'convert' must be a table {{ from, to, must }}"))
            else:
                self._keys(F, cp, c, {"from", "to", "must"}, "convert")
                src = self._card_ref(F, cp + ("from",), "convert.from", c.get("from"), P, allow_any=True) \
                    if "from" in c else self.err(F[0], F[1], cp, "convert", Msg("'convert' 需要 'from'（牌的 id 或 \"any\"）",
                                                                                "convert needs 'from' (a card id or \"any\")"))
                tos = c.get("to")
                targets = []
                if not isinstance(tos, list) or not tos:
                    self.err(F[0], F[1], cp + ("to",), "convert.to", Msg("'convert.to' 必须是非空的牌列表",
                                                                         "convert.to must be a non-empty list of cards"))
                else:
                    for t in tos:
                        ref = self._card_ref(F, cp + ("to",), "convert.to", t, P)
                        if ref:
                            targets.append(ref)
                must = c.get("must")
                if not isinstance(must, bool):
                    self.err(F[0], F[1], cp + ("must",), "convert.must", Msg("'convert.must' 必须是 'true' 或 'false'",
                                                                             "convert.must must be true or false"))
                if src and targets and isinstance(must, bool) and len(targets) == len(tos):
                    r.convert = Convert(src, tuple(targets), must, Loc(F[0], line_of(F[1], cp)))
        if "ban" in e:
            b = e["ban"]
            bp = path + ("ban",)
            if not isinstance(b, dict):
                self.err(F[0], F[1], bp, "ban", Msg("'ban' 必须是表 `{{ cards, all }}`", "'ban' must be a table {{ cards, all }}"))
            else:
                self._keys(F, bp, b, {"cards", "all"}, "ban")
                cards_v = b.get("cards", [])
                cards: tuple | Ref | None
                if isinstance(cards_v, str):
                    cards = self._card_ref(F, bp + ("cards",), "ban.cards", cards_v, P, want_param_type="set<card>")
                elif isinstance(cards_v, list):
                    refs = [self._card_ref(F, bp + ("cards",), "ban.cards", x, {}) for x in cards_v]
                    cards = tuple(refs) if all(refs) else None
                else:
                    self.err(F[0], F[1], bp + ("cards",), "ban.cards", Msg("'ban.cards' 必须是牌的列表或 'set<card>' 类型的参数",
                                                                           "ban.cards must be a list of cards or a set<card> parameter"))
                    cards = None
                all_v = b.get("all", False)
                if isinstance(all_v, bool):
                    allv: bool | Ref | None = all_v
                elif isinstance(all_v, str) and P.get(all_v) == "bool":
                    allv = Ref("param", all_v)
                else:
                    self.err(F[0], F[1], bp + ("all",), "ban.all", Msg("'ban.all' 必须是 'true'、'false' 或 'bool' 类型的参数",
                                                                       "ban.all must be true, false or a bool parameter"))
                    allv = None
                if cards is not None and allv is not None:
                    r.ban = Ban(cards, allv, Loc(F[0], line_of(F[1], bp)))
        if "receive" in e:
            rv = e["receive"]
            rp = path + ("receive",)
            if not isinstance(rv, dict):
                self.err(F[0], F[1], rp, "receive", Msg("'receive' 必须是表 `{{ must, cannot }}`",
                                                        "'receive' must be a table {{ must, cannot }}"))
            else:
                self._keys(F, rp, rv, {"must", "cannot"}, "receive")
                must = self._expr(F, rp + ("must",), "receive.must", rv.get("must", "false"), "receive", P, unknown_key=f"{rid}.receive.must")
                cannot = self._expr(F, rp + ("cannot",), "receive.cannot", rv.get("cannot", "false"), "receive", P, unknown_key=f"{rid}.receive.cannot")
                if must is not None and cannot is not None:
                    r.receive = Receive(must, cannot, Loc(F[0], line_of(F[1], rp)))
        if "send" in e:
            sv = e["send"]
            sp = path + ("send",)
            if not isinstance(sv, dict):
                self.err(F[0], F[1], sp, "send", Msg("'send' 必须是表 `{{ rule }}`", "'send' must be a table {{ rule }}"))
            else:
                self._keys(F, sp, sv, {"rule"}, "send")
                if "rule" not in sv:
                    self.err(F[0], F[1], sp, "send", Msg("'send' 需要 'rule' 表达式", "send needs a 'rule' expression"))
                else:
                    rule = self._expr(F, sp + ("rule",), "send.rule", sv["rule"], "send", P, unknown_key=f"{rid}.send")
                    if rule is not None:
                        r.send = Send(rule, Loc(F[0], line_of(F[1], sp)))
        if "draw" in e:
            r.draw = self._expr(F, path + ("draw",), "draw", e["draw"], "draw", P, want=V.INT, unknown_key=f"{rid}.draw")
        if "fires" in e and r.has("TriggeredSkill"):
            r.fires = self._fires(F, path + ("fires",), e["fires"], P, rid)
        if "on" in e and r.has("TriggeredSkill"):
            r.on = self._on_list(F, path + ("on",), e["on"], r)
            if r.on and not r.has("ActiveSkill"):
                self._sites_answer_events(F, path, r)
        on_failed = "on" in e and r.has("TriggeredSkill") and not r.on
        if "do" in e and (r.has("ActiveSkill") or r.has("TriggeredSkill")) and not on_failed:
            # an `on` that did not load (its error is reported) leaves the effect without its moment: checking `do`
            # against the window's players instead would report every event role it names as unknown — errors that
            # only follow from the `on` (and from a file the `on` reads not being readable, which are folded)
            r.do = self._do_list(F, path, e["do"], r, r.on, P)
        if "requires" in e:
            if r.has("ActiveSkill"):
                r.requires = self._requires(F, path, e["requires"], P)
            else:
                self.err(F[0], F[1], path + ("requires",), "requires",
                         Msg("'requires' 只用于主动技能（'ActiveSkill'）和牌：'{id}' 不是主动技能（触发技能的条件写在 'on.when'）",
                             "'requires' is only for ActiveSkills and cards: {id} is not an ActiveSkill (a triggered "
                             "skill's condition is its 'on.when')", id=rid))
        for key in ("win", "result"):
            if key not in e:
                continue
            lst = e[key]
            if not isinstance(lst, list) or not lst:
                self.err(F[0], F[1], path + (key,), key, Msg("'{key}' 必须是一个或多个 [[skill.{key}]] 效果表",
                                                             "'{key}' must be one or more [[skill.{key}]] effect tables", key=key))
                continue
            if self._long(F, path, e, key):
                continue
            for i, ef in enumerate(lst):
                ep = path + (key, i)
                if not isinstance(ef, dict):
                    self.err(F[0], F[1], ep, key, Msg("每个 [[skill.{key}]] 都必须是表", "each [[skill.{key}]] must be a table",
                                                      key=key))
                    continue
                eff = self._effect(F, ep, key, ef, f"{rid}.{key}{i}")
                if eff:
                    getattr(r, key).append(eff)

    def _fires(self, F, fp, fv, P, rid) -> Fires | None:
        """``fires = { at = [windows], when = condition }``: when the triggered effect happens."""
        if not isinstance(fv, dict):
            self.err(F[0], F[1], fp, "fires", Msg("'fires' 必须是表 `{{ at = [时机], when = 条件 }}`",
                                                  "'fires' must be a table {{ at = [windows], when = condition }}"))
            return None
        self._keys(F, fp, fv, {"at", "when"}, "fires")
        at_v = fv.get("at")
        at_v = [at_v] if isinstance(at_v, str) else at_v
        at: list = []
        if not isinstance(at_v, list) or not at_v or not all(isinstance(x, str) for x in at_v):
            at_v = None
            self.err(F[0], F[1], fp + ("at",), "fires.at", Msg("'fires.at' 必须是一个时机或非空的时机列表",
                                                               "fires.at must be a window or a non-empty list of windows"))
        else:
            for w in at_v:
                if w not in T.WINDOWS or w == "turn_end":
                    self.err(F[0], F[1], fp + ("at",), "fires.at",
                             Msg("未知的时机 {w}{dym}", "unknown window {w}{dym}", w=_q(w),
                                 dym=_dym(w, tuple(x for x in T.WINDOWS if x != 'turn_end'))))
                else:
                    at.append(w)
        when = self._expr(F, fp + ("when",), "fires.when", fv.get("when", "true"), "fires", P,
                          unknown_key=f"{rid}.fires")
        if when is None or at_v is None or len(at) != len(at_v):
            return None
        return Fires(tuple(at), when, Loc(F[0], line_of(F[1], fp)))

    def _on_list(self, F, op, v, r: Rule) -> tuple:
        """``on``: one table ``{ event = …, whose = …, when = … }`` or a list of them (``[[skill.on]]``) — the events
        a TriggeredSkill answers (vocabulary: model.events)."""
        single = isinstance(v, dict)
        items = [v] if single else v
        if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
            self.err(F[0], F[1], op, "on", Msg("'on' 必须是表 `{{ event = 事件, whose = …, when = 条件 }}` 或这样的表的列表（[[skill.on]]）",
                                               "'on' must be a table {{ event = EVENT, whose = …, when = condition }} "
                                               "or a list of them ([[skill.on]])"))
            return ()
        if len(items) > L.TRIGGERS_PER_RULE:
            self.err(F[0], F[1], op, "on", Msg("'on' 有 {n:,} 项，上限是 {limit}", "'on' has {n:,} entries; the limit is {limit}",
                                               n=len(items), limit=L.TRIGGERS_PER_RULE))
            return ()
        out = []
        for i, ov in enumerate(items):
            one = self._on(F, op if single else op + (i,), ov, r, f"{r.id}.on{i}")
            if one is not None:
                out.append(one)
        return tuple(out) if len(out) == len(items) else ()

    def _on(self, F, op, ov: dict, r: Rule, ukey: str) -> On | None:
        self._keys(F, op, ov, ON_KEYS, "on")
        ok = True
        ev = ov.get("event")
        if "event" not in ov:
            self.err(F[0], F[1], op, "on.event", Msg("'on' 缺少必需的键 'event'（它回应的事件）",
                                                     "'on' is missing required key 'event' (the event it answers)"))
            return None
        if not isinstance(ev, str) or ev not in EV.EVENT_KINDS:
            self.err(F[0], F[1], op + ("event",), "on.event",
                     Msg("未知的事件 {v}{dym}", "unknown event {v}{dym}", v=_q(ev) if isinstance(ev, str) else _tname(ev),
                         dym=(_dym(ev, EV.EVENT_KINDS) if isinstance(ev, str) else "") or _one_of(EV.EVENT_KINDS)))
            return None
        kind = EV.EVENT_KINDS[ev]
        whose = self._whose(F, op, ov.get("whose", "any"), kind)
        if whose is None:
            ok = False
        once = ov.get("once", kind.is_event)
        guard_prose = ov.get("guard_prose", False)
        for key, val in (("once", once), ("guard_prose", guard_prose)):
            if not isinstance(val, bool):
                self.err(F[0], F[1], op + (key,), f"on.{key}", Msg("'on.{key}' 必须是 'true' 或 'false'，不能是{got}",
                                                                  "on.{key} must be true or false, not {got}", key=key, got=_tname(val)))
                ok = False
        if once is True and not kind.is_event:
            self.err(F[0], F[1], op + ("once",), "on.once",
                     Msg("'{e}' 不是事件而是状态（服务器 {s}）：没有“每个事件一次”，写 'once = false' 或不写",
                         "{e} is a state, not an event (server {s}): there is no once per event; write once = false or leave it out",
                         e=ev, s=kind.server))
            ok = False
        # the event's players and values must not be hidden by a parameter of the same name
        for pn in r.params:
            if pn in kind.role_names or pn in kind.word_types:
                self.err(F[0], F[1], op + ("event",), "on.event",
                         Msg("参数 {p} 与事件 '{e}' 的名字 {p} 重名；改掉参数的名字", "parameter {p} has the name of a word of "
                             "event {e}; rename the parameter", p=_q(pn), e=ev))
                ok = False
        text = ov.get("when", "true")
        when = None
        if not isinstance(text, str):
            self.err(F[0], F[1], op + ("when",), "on.when", Msg("'on.when' 必须是表达式字符串，不能是{t}",
                                                                "on.when must be an expression string, not {t}", t=_tname(text)))
        else:
            try:
                node = E.parse(text)
                E.check(node, E.Scope("on", self.universe, dict(r.params), ("self",) + kind.role_names,
                                      kind.word_types), V.BOOL)
                _key_unknowns(node, ukey)
                when = node
            except E.ExprError as ex:
                self.err(F[0], F[1], op + ("when",), "on.when", in_expr(text, ex))
        if when is None or not ok:
            return None
        on = On(ev, whose, when, Loc(F[0], line_of(F[1], op)), once, guard_prose, text)
        # the engine's dispatch (server Game.dealListeningSkill): a dead player's skills are asked only when they are
        # BeforeDieSkills or granted; an invalidated skill is an InvalidSkill, never asked (kinds: exclusive)
        # a BeforeDieSkill answering another event than its death is asked while its holder is dead as well (the
        # server's dispatch does not look at the event): the twins' dispatch says so, the catalogue loads
        # an initial skill, no BeforeDieSkill, answering its holder's own death is never asked (the holder is dead
        # by then): a rule the server may well hold (the skill then never fires) — the twins' dispatch rules it out
        # and the family ``triggers`` says so (TR005), the catalogue still loads
        return on

    def _sites_answer_events(self, F, path, r: Rule):
        """A TriggeredSkill (and no ActiveSkill) hands its grants out as it answers an event: a gives site's moment
        that names an event must be one of those ``on`` names. (Its windows, ``at``, are not held to the events'
        windows here: ``at`` is what the twins read today — a site widened beyond its events is a question for the
        firing semantics, not a file that cannot be read.)"""
        events = [o.event for o in r.on]
        for g in r.gives:
            gp = path + ("gives", g.index)
            want = EV.SITE_MOMENTS.get(g.on)
            if want is not None and want not in events:
                self.err(F[0], F[1], gp + ("on",), "on",
                         Msg("这里在 {m} 时给出 '{g}'，但 '{id}' 的 'on' 不回应这个事件（{ev}，它回应的是 {have}）",
                             "this site hands {g} out on {m}, but {id} answers no such event ({ev}; its on: {have})",
                             m=_q(g.on), g=g.grant, id=r.id, ev=want, have=", ".join(events)))

    def _whose(self, F, op, v, kind) -> tuple | None:
        """``whose``: ``any``, ``self``, ``other``, a role of the event, or a list of roles."""
        vals = [v] if isinstance(v, str) else v
        names = tuple(EV.WHOSE_WORDS) + kind.role_names
        if not isinstance(vals, list) or not vals or not all(isinstance(x, str) for x in vals):
            self.err(F[0], F[1], op + ("whose",), "on.whose",
                     Msg("'on.whose' 必须是 'any'、'self'、'other'、事件中的一个角色或角色的列表，不能是{t}",
                         "on.whose must be any, self, other, a role of the event or a list of roles, not {t}", t=_tname(v)))
            return None
        for x in vals:
            if x not in names:
                self.err(F[0], F[1], op + ("whose",), "on.whose",
                         Msg("事件 '{e}' 中没有 {v}{dym}", "event {e} has no {v}{dym}", e=kind.key, v=_q(x),
                             dym=_dym(x, names) or _one_of(names)))
                return None
        if len(vals) > 1 and any(x in EV.WHOSE_WORDS for x in vals):
            self.err(F[0], F[1], op + ("whose",), "on.whose",
                     Msg("'any'、'self'、'other' 只能单独写，不能与角色并列", "any, self and other stand alone, not in a list of roles"))
            return None
        if len(set(vals)) != len(vals):
            self.err(F[0], F[1], op + ("whose",), "on.whose", Msg("'on.whose' 中有重复的角色", "on.whose names a role twice"))
            return None
        if vals[0] in ("self", "other") and kind.principal is None:
            self.err(F[0], F[1], op + ("whose",), "on.whose",
                     Msg("事件 '{e}' 不属于任何人（服务器 {s} 没有说是谁的）：写 'any' 或它的一个角色（{roles}）",
                         "event {e} belongs to nobody (server {s} does not say whose): write any or one of its roles ({roles})",
                         e=kind.key, s=kind.server, roles=", ".join(kind.role_names)))
            return None
        return tuple(vals)

    def _effect(self, F, ep, key, ef, ukey) -> Effect | None:
        self._keys(F, ep, ef, EFFECT_KEYS, f"[[{key}]]")
        if "each" in ef and "pick" in ef:
            self.err(F[0], F[1], ep, key, Msg("一个效果只能有 'each' 或 'pick' 之一", "an effect has either 'each' or 'pick', not both"))
            return None
        players: tuple = ("self",)
        each = pick = None
        if "each" in ef:
            each = self._lambda(F, ep + ("each",), f"{key}.each", ef["each"], "effect", players, ukey + ".each")
            if each:
                players = players + (each.var,)
        if "pick" in ef:
            pick = self._lambda(F, ep + ("pick",), f"{key}.pick", ef["pick"], "effect", players, ukey + ".pick")
            if pick:
                players = players + (pick.var,)
        when_t = ef.get("when", "true")
        when = None
        if isinstance(when_t, str):
            try:
                when = E.parse(when_t)
                E.check(when, E.Scope("effect", self.universe, {}, players), V.BOOL)
                _key_unknowns(when, ukey + ".when")
            except E.ExprError as ex:
                self.err(F[0], F[1], ep + ("when",), f"{key}.when", in_expr(when_t, ex))
                when = None
        else:
            self.err(F[0], F[1], ep + ("when",), f"{key}.when", Msg("'when' 必须是表达式字符串", "'when' must be an expression string"))
        sets = {}
        for sk in ("winners_add", "winners_remove", "declared_add", "declared_remove"):
            sets[sk] = self._lambda(F, ep + (sk,), f"{key}.{sk}", ef[sk], "effect", players, f"{ukey}.{sk}") \
                if sk in ef else None
        if not any(sets.values()):
            self.err(F[0], F[1], ep, key, Msg("这个效果什么也不改变：写出 'winners_add'、'winners_remove'、'declared_add' 或 'declared_remove'",
                                              "an effect changes nothing: give winners_add, winners_remove, declared_add or declared_remove"))
        if when is None:
            return None
        return Effect(when, each, pick, sets["winners_add"], sets["winners_remove"], sets["declared_add"],
                      sets["declared_remove"], Loc(F[0], line_of(F[1], ep)))

    def _link_give(self, F, gp, give: Give, g: dict):
        grant = self.skills.get(give.grant)
        if grant is None or not grant.is_grant:
            suggestion = self._dym_rule(give.grant, grants=True) if grant is None else ""
            if grant:
                m = Msg("{g} 是 [[skill]]，不是 [[grant]]", "a [[skill]], not a [[grant]] {g}", g=_q(give.grant))
            else:
                m = Msg("未知的给出技能 {g}{dym}", "unknown grant {g}{dym}", g=_q(give.grant), dym=suggestion)
            self.err(F[0], F[1], gp + ("grant",), "grant", m)
            return
        P = grant.params
        for pn, val in give.args.items():
            if pn not in P:
                self.err(F[0], F[1], gp + ("args",), "args",
                         Msg("'{g}' 没有参数 {p}{dym}", "{g} has no parameter {p}{dym}", g=grant.id, p=_q(pn),
                             dym=_dym(pn, P) if P else Msg("（它不带参数）", " (it takes none)")))
                continue
            msg = _check_arg(P[pn], val, self.cards)
            if msg:
                self.err(F[0], F[1], gp + ("args",), "args", Msg("'{p}'：{m}", "{p}: {m}", p=pn, m=msg))
        if "when" in g:
            w = self._expr(F, gp + ("when",), "when", g["when"], "when", {}, unknown_key=f"{give.giver}.gives{give.index}.when")
            give.when = w if w is not None else give.when
        else:
            E.check(give.when, E.Scope("when", self.universe))
        if "where" in g:
            free = {k: v for k, v in P.items() if k not in give.args}
            give.where = self._expr(F, gp + ("where",), "where", g["where"], "where", free,
                                    unknown_key=f"{give.giver}.gives{give.index}.where")


def default_windows(r: Rule) -> dict:
    """Where an ActiveSkill without a ``windows`` table is used (design note: ActiveSkill is used in
    出牌阶段, 争夺阶段 or while someone is dying; MainPhaseSkill only in 出牌阶段): 出牌阶段 by the turn
    player for a MainPhaseSkill, else 争夺阶段 / 濒死求澄清 by anyone where its condition is not plainly false."""
    if r.has("MainPhaseSkill"):
        return {"main": "turn"}
    out = {}
    for win in ("fight", "dying"):
        cond = getattr(r, win)
        if cond is not None and not (isinstance(cond, E.Lit) and cond.value is False):
            out[win] = "anyone"
    return out


def _check_arg(ptype, val, cards) -> Msg | None:
    got = Msg("{zh}", "{en}", zh=quoted(val), en=echo(val))
    if ptype == "card":
        if not isinstance(val, str) or val not in cards:
            return Msg("应是牌的 id，却是 {got}{dym}", "expected a card id, got {got}{dym}", got=got,
                       dym=_dym(val, cards) if isinstance(val, str) else "")
    elif ptype == "set<card>":
        if not isinstance(val, list) or any(not isinstance(x, str) or x not in cards for x in val):
            return Msg("应是牌的 id 的列表，却是 {got}", "expected a list of card ids, got {got}", got=got)
    elif ptype == "bool":
        if not isinstance(val, bool):
            return Msg("应是 'true' 或 'false'，却是 {got}", "expected true or false, got {got}", got=got)
    elif ptype == "int":
        if not isinstance(val, int) or isinstance(val, bool):
            return Msg("应是整数，却是 {got}", "expected an integer, got {got}", got=got)
    elif ptype == "colour":
        if val not in V.COLOURS:
            return Msg("应是颜色（{zh}），却是 {got}", "expected a colour ({en}), got {got}", got=got,
                       zh="、".join(f"'{c}'" for c in V.COLOURS), en=", ".join(V.COLOURS))
    return None


def _key_unknowns(node, key):
    i = 0
    for n in E.walk(node):
        if isinstance(n, E.Unknown):
            n.key = f"{key}#{i}"
            i += 1


def _id_name(ident: str, name: str) -> Msg:
    """A suggested rule or card: "Jie_Huo (截获)" / "'Jie_Huo'（截获）"."""
    return Msg("'{i}'（{n}）", "{i} ({n})", i=ident, n=name)


def _dym(name, cands) -> Msg:
    return hint(name, cands)


def _q(v) -> Msg:
    """An input value quoted in a message: escaped, one line, long ones cut."""
    return quoted(v)


def _tname(v) -> Msg:
    return type_name(v)


def _one_of(values) -> Msg:
    """" (one of a, b, c)" / "（可选：'a'、'b'、'c'）"."""
    vals = [str(v) for v in values]
    return Msg("（可选：{zh}）", " (one of {en})", zh="、".join(f"'{v}'" for v in vals), en=", ".join(vals))
