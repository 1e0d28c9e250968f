"""Readings the tenth designers' table (tests/fixtures/ask-designer10.toml) needed, each tested on a question of its
class that the table does not ask: how many cards a skill's effect draws (…发动X能摸几张牌), told from the catalogue's
``do`` — not the draw phase's count."""
from __future__ import annotations

from askkit import cat, outcome, sess  # noqa: F401  (fixtures)


def test_the_draws_of_a_skills_effect_are_told_from_the_catalogue(cat, sess):
    # 博爱 (BoAi.kt:67, :145): one card, one more when the card went to a woman — was "no" (the draw phase's count
    # never showing under the premise): no answer to 几张
    got, text, _ = outcome(cat, sess, "白沧浪发动博爱能摸几张牌")
    assert got == "data", text
    head = text.splitlines()[0]
    assert head.count("摸1张") == 2 and "女性" in head, text
    assert "bai_cang_lang.toml" in text
    # 明饵's draws hang on whether the sender received it himself (MingEr.kt:26-29): each branch said with its condition
    got, text, _ = outcome(cat, sess, "老鳖发动明饵后摸几张牌")
    assert got == "data" and "摸2张（当传出者是接收者）" in text, text


def test_an_effect_drawing_nothing_is_said_so_and_the_draw_phase_count_stays(cat, sess):
    got, text, _ = outcome(cat, sess, "肥原龙川发动诡诈能摸几张牌")
    assert got == "data" and "不摸牌" in text, text
    got, text, _ = outcome(cat, sess, "CP韩梅摸几张牌？")        # no premise: the draw phase's count, searched
    assert got == "yes" and "白月光" in text, text


def test_a_next_turn_question_is_asked_without_what_the_turns_end_clears(cat, sess):
    # 新思潮 once a turn (XinSiChao.kt:29), the count reset at NextTurn.kt:34 — was refused at '发动过'
    got, text, _ = outcome(cat, sess, "端木静这回合发动过新思潮，下回合还能再发动吗")
    assert got == "yes" and "NextTurn.kt" in text and "新思潮的使用次数清零" in text, text
    # 调虎离山's grants are turn-scoped (lifetime = turn): its effect does not last — was refused
    got, text, _ = outcome(cat, sess, "调虎离山的效果会持续到下个回合吗")
    assert got == "no" and "lifetime = turn" in text, text


def test_a_premise_that_outlasts_the_turn_is_not_dropped(cat, sess):
    # 对症下药 turns 黄济仁's role face up (DuiZhengXiaYao.kt:34): the next turn still has it face up
    got, text, _ = outcome(cat, sess, "黄济仁这回合发动过对症下药，下回合还能再发动吗")
    assert got == "unknown" and "翻开角色牌" in text, text
    assert "--timeout" not in text                  # told from the catalogue: no advice on the solver's budget


def test_what_a_game_of_n_players_deals_is_told_from_the_deal(cat, sess):
    # Game.kt:142-143: 诱变者 / 搅局者 / 清道夫 join the pool at five players — was refused at '四'
    got, text, _ = outcome(cat, sess, "五人局能抽到诱变者吗")
    assert got == "yes" and "win.py" in text, text
    got, text, _ = outcome(cat, sess, "Can a 4-player game deal a mutator?")
    assert got == "no" and "五人或以上" in text, text


def test_a_misspelt_everyday_word_and_a_spoken_face_are_read(cat, sess):
    # 自已 for 自己: 试探 is never used on oneself (ShiTan.kt:46) — was refused at the target 「自已」
    got, text, _ = outcome(cat, sess, "试探能对自已使用吗")
    assert got == "no", text
    # 角色牌面朝上 (the role card face up) is 面朝上; 别人死亡 right before her pronoun is someone else's death, not hers
    # (ChengZhi.kt:27-29) — was read as her own death, answering no
    got, text, _ = outcome(cat, sess, "顾小梦角色牌面朝上时，别人死亡她能发动承志吗")
    assert got == "yes", text


def test_a_named_senders_coloured_message_received_by_someone(cat, sess):
    # 怜悯 (LianMin.kt:24-26): her non-black message received — was refused at '后'
    got, text, _ = outcome(cat, sess, "白菲菲传出的蓝色情报被别人接收后，白菲菲能发动怜悯吗")
    assert got == "yes", text
    got, text, _ = outcome(cat, sess, "白菲菲传出的纯黑色情报被接收后，她能发动怜悯吗")
    assert got == "no", text


def test_the_holders_neighbour_is_a_target_word(cat, sess):
    # WuDao.kt:44-46 the living neighbour left (上家, the lower seat) or right of the holder — was refused at the target
    got, text, res = outcome(cat, sess, "误导能把待收情报转给情报所在角色的上家吗")
    assert got == "yes", text
    assert res.witness is not None


def test_how_often_a_skill_is_used_and_a_cards_draws(cat, sess):
    # 博爱 once a turn (BoAi.kt:30, catalogue limit = turn) — was refused at '最多'
    got, text, _ = outcome(cat, sess, "白沧浪一回合最多能发动几次博爱")
    assert got == "data" and text.startswith("1 次") and "NextTurn.kt:34" in text, text
    # 欲擒故纵's user draws two (YuQinGuZong.kt:63): a card named first, then 几张 — was refused at '结算'
    got, text, _ = outcome(cat, sess, "欲擒故纵结算后使用者摸几张牌")
    assert got == "data" and "使用者摸2张" in text, text


def test_a_spaced_pinyin_card_in_an_english_target_question(cat, sess):
    # 平衡 never on oneself (PingHeng.kt:41): was refused at 'on' (the two-word name)
    got, text, _ = outcome(cat, sess, "Can Ping Heng be used on yourself?")
    assert got == "no", text


def test_a_receive_clause_closed_by_a_comma_and_any_card(cat, sess):
    # 视死 (ShiSi.kt:17-19): the receiver of a black message — was refused at '黑色' without 后
    got, text, _ = outcome(cat, sess, "老汉面朝上时接收黑色情报，能发动视死吗")
    assert got == "yes", text
    # 任何牌 is any card: 调虎离山's CannotPlayCard(forbidAllCard) (DiaoHuLiShan.kt:71) — was refused at '任何牌'
    got, text, _ = outcome(cat, sess, "被调虎离山禁止出牌的角色本回合还能使用任意牌吗")
    assert got == "no", text


def test_a_players_living_neighbour_in_an_effect(cat, sess):
    # 以牙还牙 (YiYaHuanYa.kt:91-92): the sender or the sender's living neighbour — was refused at '下家'
    got, text, res = outcome(cat, sess, "以牙还牙能把黑色手牌放进传出者的上家的情报区吗")
    assert got == "yes" and res.witness is not None, text
    # 'X 能用 S 把 …' is S's effect; 移到 … 面前 moves the message (JiSong.kt:44-54: any living player) — was refused at '把'
    got, text, _ = outcome(cat, sess, "鬼脚能用急送把情报移到传出者面前吗")
    assert got == "yes", text
    # the skill of another character is not hers: left as the grammar reads it
    got, text, _ = outcome(cat, sess, "王魁能用急送把情报移到传出者面前吗")
    assert got != "yes", text


def test_receiving_the_message_in_english(cat, sess):
    # MessageMoveNext.kt:32-38 a dead seat is passed over — was refused at 'receive'
    got, text, _ = outcome(cat, sess, "can a dead player receive a message?")
    assert got == "no", text
    got, text, _ = outcome(cat, sess, "can a locked player accept the message?")
    assert got == "yes", text


def test_a_once_a_turn_skill_over_a_game_and_a_card_that_leaves_nothing(cat, sess):
    # limit = turn says nothing of a whole game: once in each turn (NextTurn.kt:34 resets the count)
    got, text, _ = outcome(cat, sess, "博爱一局能发动几次")
    assert got == "data" and "一局里没有总数" in text, text
    # a card that hands out nothing is no premise cleared at the turn's end: read as the grammar reads it
    got, text, _ = outcome(cat, sess, "截获下回合能用吗")
    assert "下回合：" not in text, text
