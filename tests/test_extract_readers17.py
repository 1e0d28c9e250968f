"""Readers of the gate written at the forty-eighth stop (issue 24; tuned on the thirteenth planted sample,
benchmarks/history/planted13.toml): a colour check of a card a state's handler takes out of an area reaches the op
that moves it, a refusal that tests the answer and a card's colour together is read per choice of the answer, and a
colour check no op takes up — or a refusal testing the game state beside the answer — leaves its construct partly read
(so a change there is named, never passed). Each on small Kotlin of our own (tests/fixtures/kotlin/server), never the
game's code."""
from __future__ import annotations

from skillproof.checks.diff_rules import rule_changes
from skillproof.model.extract import extract

#: a triggered skill whose sender may take one of the receiver's messages, into his hand or in front of himself; the
#: state's handler refuses a card by REFUSAL (the answer names the card by id)
VAULT = """package demo.game.skill

import demo.game.*

class Vault : TriggeredSkill {
    override val skillId = SkillId.VAULT
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val event = g.findEvent<ReceiveCardEvent>(this) { event ->
            askWhom === event.sender
        } ?: return null
        return ResolveResult(ExecuteVault(g.fsm!!, event), true)
    }

    private data class ExecuteVault(val fsm: Fsm, val event: ReceiveCardEvent) : WaitingFsm {
        override fun resolve(): Any? = null

        override fun resolveProtocol(player: Player, message: Any): Any? {
            if (player !== event.sender) {
                logger.error("not you")
                player.sendErrorMessage("not you")
                return null
            }
            val target = event.inFrontOfWhom
            if (message.enable) {
                val card = target.findMessageCard(message.cardId)
                if (card == null) {
                    player.sendErrorMessage("no such card")
                    return null
                }
                if (REFUSAL) {
                    logger.error("refused")
                    player.sendErrorMessage("refused")
                    return null
                }
                if (message.asMessageCard) {
                    target.deleteMessageCard(message.cardId)
                    player.messageCards.add(card)
                } else {
                    target.deleteMessageCard(message.cardId)
                    player.cards.add(card)
                }
            }
            return ResolveResult(fsm, true)
        }
    }
}
"""

KEY = ("skill/Vault.kt", "Vault.ExecuteVault", "resolveProtocol")


def _ex(tmp_path, sub: str, refusal: str, body: str = VAULT):
    from test_effects_read import _server as eff_server
    d = eff_server(tmp_path / sub)
    (d / "skill" / "Vault.kt").write_text(body.replace("REFUSAL", refusal), encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'VAULT("库"),\n    ECHO(', 1), encoding="utf-8")
    roles = d / "skill" / "Roles.kt"
    roles.write_text(roles.read_text(encoding="utf-8").replace("Echo()", "Echo(), Vault()", 1), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _removes(ex) -> list:
    """The colour of each message the rule takes out of an area, per alternative of its choices."""
    out = []

    def walk(ops):
        for o in ops:
            if o.op == "remove_message":
                out.append((o.args.get("to"), o.args.get("colour", "any")))
            for alt in o.options:
                walk(alt)
    walk(ex.catalogue.skills["Vault"].do)
    return sorted(out)


def test_a_colour_check_of_a_card_found_by_the_answers_id_reaches_the_op_moving_it(tmp_path):
    ex = _ex(tmp_path, "a", "!card.isBlack()")
    assert _removes(ex) == [("area", "black"), ("hand", "black")]
    assert ex.reads[KEY] is True


def test_a_refusal_of_one_choice_on_a_cards_colour_is_that_choices_colour(tmp_path):
    # p13-eff-cangshenjiaotang-any-colour-to-area: `&& !message.asMessageCard` added to the colour refusal — any
    # colour may now go to the area; the catalogues were identical and the gate passed (exit 0)
    a = _ex(tmp_path, "a", "!card.isBlack()")
    b = _ex(tmp_path, "b", "!card.isBlack() && !message.asMessageCard")
    assert _removes(b) == [("area", "any"), ("hand", "black")]
    assert b.reads[KEY] is True
    assert [(c.id, c.key) for c in rule_changes(a.catalogue, b.catalogue) if c.id == "Vault"] == [("Vault", "do")]
    c = _ex(tmp_path, "c", "message.asMessageCard && !card.isBlack()")       # the other choice refused
    assert _removes(c) == [("area", "black"), ("hand", "any")]


def test_a_refusal_testing_the_game_state_beside_the_answer_is_not_read_whole(tmp_path):
    ex = _ex(tmp_path, "a", "!message.asMessageCard && !target.roleFaceUp")
    assert ex.reads[KEY] is False
    assert _removes(ex) == [("area", "any"), ("hand", "any")]


def test_a_card_taken_out_by_its_own_id_keeps_its_colour_check(tmp_path):
    body = VAULT.replace("target.deleteMessageCard(message.cardId)", "target.deleteMessageCard(card.id)")
    ex = _ex(tmp_path, "a", "!card.isBlack()", body)
    assert _removes(ex) == [("area", "black"), ("hand", "black")]
    assert ex.reads[KEY] is True


def test_a_colour_check_no_op_takes_up_leaves_the_construct_partly_read(tmp_path):
    # the card checked is taken out by another id: the check reaches no op, so it is not read
    body = VAULT.replace("target.deleteMessageCard(message.cardId)", "target.deleteMessageCard(message.otherId)")
    ex = _ex(tmp_path, "a", "!card.isBlack()", body)
    assert ex.reads[KEY] is False


# ------------------------------------------------------------------------------------------ rounds of one dispatch
DEAL = """    fun dealListeningSkill(beginLocation: Int): Fsm? {
        OPEN
            var i = beginLocation % players.size
            do {
                val player = players[i]!!
                player.skills.forEach { skill ->
                    if (player.alive) (skill as? TriggeredSkill)?.execute(this, player)?.let { return it }
                }
                i = (i + 1) % players.size
            } while (i != beginLocation % players.size)
        CLOSE
        return null
    }

    fun resolve(next: Fsm) {"""


def _rounds(tmp_path, sub: str, open_: str, close: str = "}"):
    from test_extract_readers8 import _server
    d = _server(tmp_path / sub)
    game = d / "Game.kt"
    text = game.read_text(encoding="utf-8").replace(
        "    fun resolve(next: Fsm) {", DEAL.replace("OPEN", open_).replace("CLOSE", close), 1)
    game.write_text(text.replace("import demo.game.skill.Skill\n", "import demo.game.skill.Skill\n"
                                 "import demo.game.skill.TriggeredSkill\n"), encoding="utf-8")
    return extract(d).engine.get("trigger.rounds")


def test_the_rounds_of_pending_events_one_dispatch_resolves_are_read(tmp_path):
    # p13-eng-one-listening-round: `repeat(100)` around the dispatch became `repeat(1)` — events raised while skills
    # resolve wait for the next state; the gate said only "unread code" at Game.dealListeningSkill
    many = _rounds(tmp_path, "a", "repeat(100) { // a bound against endless loops")
    one = _rounds(tmp_path, "b", "repeat(1) {")
    none = _rounds(tmp_path, "c", "run {")                      # no counted loop: one round
    assert (many.value, one.value, none.value) == (100, 1, 1)
    assert many.where.startswith("Game.kt:") and many.where != none.where
    assert _rounds(tmp_path, "d", "repeat(LIMIT) {").value is None   # a bound that is no number: not read


def test_a_public_role_is_one_not_hidden(tmp_path):
    # p13-eff-cangshenjiaotang-face-down-public-hidden / -two-black: `isPublicRole` was not translated, so every
    # test built on it was `unknown` and a change beside it only inconclusive
    from test_extract_readers10 import _ex as duet, _when
    a = duet(tmp_path, "a", "            askWhom === event.inFrontOfWhom || return@findEvent false\n"
                            "            event.inFrontOfWhom.isPublicRole")
    b = duet(tmp_path, "b", "            askWhom === event.inFrontOfWhom || return@findEvent false\n"
                            "            !askWhom.isPublicRole || !askWhom.roleFaceUp")
    assert _when(a) == "not hidden"
    assert _when(b) == "hidden or not face_up"
