"""Interchangeable characters (model/symmetry.py) and the question cones that use them (checks/context.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from skillproof.checks import context as C
from skillproof.model import loader
from skillproof.model.symmetry import Symmetry

FAM = Path(__file__).parent / "fixtures" / "families"
BASE = (FAM / "base.toml").read_text(encoding="utf-8")


def invalidator(i: int, *, grant: str = "Wrap", to: str = "others", own_grant: bool = False) -> str:
    """A character whose one skill hands an InvalidSkill to another player."""
    g = f"Wrap{i}" if own_grant else grant
    text = f'''
[[character]]
id = "inv{i}"
name = "封印者{i}"
hidden = false
female = false
skills = ["Seal{i}"]
[[skill]]
id = "Seal{i}"
name = "封印{i}"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "{g}"
to = "{to}"
'''
    if own_grant:
        text += f'''
[[grant]]
id = "{g}"
name = "无效{i}"
kinds = ["InvalidSkill"]
lifetime = "turn"
'''
    return text


WRAP = '''
[[grant]]
id = "Wrap"
name = "无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
'''

SUBJECT = '''
[[character]]
id = "subject"
name = "主角"
hidden = false
female = false
skills = ["Conv"]
[[skill]]
id = "Conv"
name = "转化"
kinds = ["ConvertCardSkill"]
convert = { from = "A", to = ["B"], must = false }
'''


def load(*parts: str):
    return loader.load(texts={"base.toml": BASE, "rest.toml": "\n".join(parts)})


def test_copies_of_a_character_share_a_key_and_different_ones_do_not():
    cat = load(WRAP, invalidator(1), invalidator(2), invalidator(3, to="all"), SUBJECT)
    sy = Symmetry(cat)
    assert sy.key("inv1") is not None and sy.key("inv1") == sy.key("inv2")
    assert sy.key("inv3") != sy.key("inv1")          # hands it to everyone: another behaviour
    assert sy.key("subject") not in (sy.key("inv1"), None)


def test_copies_that_hand_out_a_pair_of_own_grants_together_stay_interchangeable():
    """A site's ``with`` names the partner's grant as the site names its own: a mention that does not make the
    grant (or its giver) unique — 10 copies of 禁闭's holder would otherwise all enter every cone."""
    def jailer(i):
        return invalidator(i, own_grant=True) + f'''
[[skill.gives]]
grant = "Ban{i}"
to = "others"
with = "Wrap{i}"
[[grant]]
id = "Ban{i}"
name = "禁{i}"
kinds = ["CannotPlayCard", "OneTurnSkill"]
lifetime = "turn"
ban = {{ cards = [], all = true }}
[[card]]
id = "Cage{i}"
name = "囚笼{i}"
windows = {{ main = "turn" }}
[[card.gives]]
grant = "Ban{i}"
to = "target"
'''                                  # (a card hands the ban out too: it is no giver's private grant)
    cat = load(*(jailer(i) for i in (1, 2, 3)), SUBJECT)
    assert [g.partner_id for g in cat.skills["Seal1"].gives] == ["Seal1#1", "Seal1#0"]
    sy = Symmetry(cat)
    assert sy.key("inv1") is not None and sy.key("inv1") == sy.key("inv2") == sy.key("inv3")


def test_copies_whose_effect_hands_out_their_own_grant_stay_interchangeable():
    """A ``do`` op ``{ op = "grant", grant = … }`` hands out one of the rule's own gives sites' grants: like the site,
    a mention that does not make the grant unique — copies of 钱敏 and 王田香 (``do`` grants InvalidSkill) would
    otherwise all enter every cone, and a cone grow with the catalogue (benchmarks/check_bench.py --big)."""
    def doer(i):
        return invalidator(i, own_grant=True).replace(
            'kinds = ["TriggeredSkill"]\n',
            f'kinds = ["TriggeredSkill"]\ndo = [{{ op = "grant", grant = "Wrap{i}", to = "others" }}]\n', 1) + f'''
[[card]]
id = "Cage{i}"
name = "囚笼{i}"
windows = {{ main = "turn" }}
[[card.gives]]
grant = "Wrap{i}"
to = "target"
'''                                  # (a card hands it out too: it is no giver's private grant, as InvalidSkill)
    cat = load(*(doer(i) for i in (1, 2, 3)), SUBJECT)
    assert cat.skills["Seal1"].do and cat.skills["Seal1"].do[0].args["grant"] == "Wrap1"
    sy = Symmetry(cat)
    assert sy.key("inv1") is not None and sy.key("inv1") == sy.key("inv2") == sy.key("inv3")
    ctx = C.Context(cat, C.Options(shared_query=False), None)
    chars, _ = ctx.cone(["Conv"])
    assert sum(1 for c in chars if c.startswith("inv")) == 3


def test_grants_of_the_same_content_are_the_same_grant_unless_something_names_them():
    cat = load(invalidator(1, own_grant=True), invalidator(2, own_grant=True), SUBJECT)
    sy = Symmetry(cat)
    assert sy.key("inv1") == sy.key("inv2")          # Wrap1 and Wrap2 do the same: interchangeable givers
    # a rule that reads which grant a player holds makes the grant's identity matter
    reader = '''
[[character]]
id = "reader"
name = "读者"
hidden = false
female = false
skills = ["Reads"]
[[skill]]
id = "Reads"
name = "读"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Wrap1"
to = "self"
when = "self.alive"
'''
    cat = load(invalidator(1, own_grant=True), invalidator(2, own_grant=True), reader, SUBJECT)
    sy = Symmetry(cat)
    assert sy.key("inv1") != sy.key("inv2") or sy.key("inv1") is None


def test_a_private_rule_named_elsewhere_makes_its_owner_unique():
    other = '''
[[character]]
id = "fan"
name = "拥趸"
hidden = false
female = false
skills = ["Seal1"]
'''
    cat = load(WRAP, invalidator(1), invalidator(2), other, SUBJECT)
    sy = Symmetry(cat)
    # Seal1 is shared with another character: not private, so inv1's key names it literally
    assert sy.key("inv1") != sy.key("inv2")


def test_thin_keeps_as_many_of_a_kind_as_seats_counting_those_already_kept():
    cat = load(WRAP, *(invalidator(i) for i in range(1, 7)), SUBJECT)
    sy = Symmetry(cat)
    chars = [f"inv{i}" for i in range(1, 7)]
    assert sy.thin(chars, 3) == chars[:3]
    assert sy.thin(chars[1:], 3, kept=["inv1"]) == chars[1:3]
    assert sy.thin(["subject"] + chars, 2) == ["subject"] + chars[:2]


def test_a_question_cone_does_not_grow_with_interchangeable_invalidators():
    sizes = []
    for k in (2, 4, 8):
        cat = load(WRAP, *(invalidator(i) for i in range(1, k + 1)), SUBJECT)
        ctx = C.Context(cat, C.Options(shared_query=False), None)
        chars, _ = ctx.cone(["Conv"])
        sizes.append(sum(1 for c in chars if c.startswith("inv")))
    assert sizes == [2, 3, 3]                         # at most max_seats (3) of one kind


def test_findings_are_the_same_with_and_without_thinning():
    """Thinning is sound: the check of a catalogue with many interchangeable invalidators reports what it
    reports with every one of them in every cone."""
    trigger = (FAM / "invalidation" / "trigger.toml").read_text(encoding="utf-8")
    cat = load(trigger, *(invalidator(i, to="all", own_grant=True) for i in range(1, 6)), SUBJECT)
    opts = C.Options(shared_query=False)
    thin = C.run(cat, opts, jobs=1)
    import skillproof.model.symmetry as S
    orig = S.Symmetry.thin
    try:
        S.Symmetry.thin = lambda self, chars, keep, kept=(): list(chars)
        full = C.run(cat, C.Options(shared_query=False), jobs=1)
    finally:
        S.Symmetry.thin = orig
    assert any(f.family == "invalidation" for f in full.findings)
    assert [f.id for f in thin.findings] == [f.id for f in full.findings]


def test_a_plan_shares_states_between_questions_without_changing_findings(monkeypatch):
    """Context.plan: a family that says which questions come next builds fewer symbolic states (one wide
    enough for several questions), and reports the same findings."""
    from skillproof.checks import solve as SO
    cat = loader.load()
    built = []
    orig_init = SO.Query.__init__

    def counting(self, *a, **kw):
        built.append(1)
        orig_init(self, *a, **kw)
    monkeypatch.setattr(SO.Query, "__init__", counting)
    only = ("receive", "override", "conversion")

    def run():          # in this process (a lane process would count its own states)
        found = []
        opts = C.Options(shared_query=False, only=only)
        for lane in C.lanes_of(cat, opts):
            found += C._run_lane(cat, opts, lane)[0]
        return sorted(f.id for f in found)
    planned = run()
    n_planned = len(built)
    built.clear()
    monkeypatch.setattr(C.Context, "plan", lambda self, *a, **kw: None)
    unplanned = run()
    assert len(built) > n_planned > 0
    assert planned == unplanned and planned


# ------------------------------------------------------------------------------------ card types
def unnamed_cards(k: int) -> str:
    """``k`` card types no rule names, in two kinds (fight-phase ones and main-phase ones)."""
    return "".join(f'''
[[card]]
id = "Plain{i}"
name = "闲牌{i}"
phases = ["{'fight' if i % 2 else 'main'}"]
''' for i in range(k))


def test_a_card_slice_keeps_named_card_types_and_a_few_of_each_unnamed_kind():
    cat = load(SUBJECT, unnamed_cards(10))
    sy = Symmetry(cat)
    assert sy.card_key("Plain0") == sy.card_key("Plain2") != sy.card_key("Plain1")
    cut = sy.card_slice({"Conv"}, 2)
    assert {"A", "B"} <= set(cut)                          # named by the rule: always there
    plain = [c for c in cut if c.startswith("Plain")]
    # two of each kind, in catalogue order: the base's unnamed main-phase card C and Plain0, of the fight-phase
    # ones Plain1 and Plain3 (A and B are named, so they do not count)
    assert plain == ["Plain0", "Plain1", "Plain3"] and "C" in cut
    assert cut == [c for c in cat.cards if c in cut]
    assert sy.card_slice({"Conv"}, 100) == list(cat.cards)


def _ids(cat, card_slice: bool, only=()):
    """The findings' ids of a sliced run, with or without the card slice."""
    opts = C.Options(shared_query=False, card_slice=card_slice, only=only)
    return sorted(f.id for lane in C.lanes_of(cat, opts) for f in C._run_lane(cat, opts, lane)[0])


def test_findings_are_the_same_with_and_without_the_card_slice(monkeypatch):
    """The card slice is sound: every family's trigger catalogue, with ten card types no rule names added,
    reports the same findings when each sliced state holds every card type — and the slice does cut."""
    from skillproof.checks import solve as SO
    sizes = []
    orig_init = SO.Query.__init__

    def counting(self, *a, **kw):
        orig_init(self, *a, **kw)
        sizes.append((len(self.S.codes.cards), len(self.S.cat.cards)))
    monkeypatch.setattr(SO.Query, "__init__", counting)
    compared = 0
    for trig in sorted(FAM.glob("*/trigger.toml")):
        cat = loader.load(texts={"base.toml": BASE, "trigger.toml": trig.read_text(encoding="utf-8"),
                                 "plain.toml": unnamed_cards(10)})
        sliced = _ids(cat, True)
        full = _ids(cat, False)
        assert sliced == full, trig.parent.name
        compared += bool(sliced)
    assert compared >= 8                                   # most trigger catalogues do report something
    assert any(n < total for n, total in sizes)            # some state held fewer card types than the catalogue


def test_a_cone_holds_the_characters_its_rules_name():
    """白月光-like: a win that needs a face-up named character at the table. A sliced state without that
    character would find the win impossible (a false UR003); the cone holds what the rules name."""
    fillers = "".join(f'''
[[character]]
id = "filler{i}"
name = "路人{i}"
hidden = false
female = false
skills = []
''' for i in range(4))
    text = fillers + '''
[[character]]
id = "friend"
name = "挚友"
hidden = false
female = false
skills = []
[[character]]
id = "lover"
name = "恋人"
hidden = false
female = true
skills = ["Moon"]
[[skill]]
id = "Moon"
name = "月光"
kinds = ["WinSkill"]
initial = true
[[skill.win]]
when = "true"
each = "p: p.alive and p.face_up and p.character in {friend} and p.blue_messages >= 3 and not p.in_declared"
declared_add = "q: q == self"
winners_add = "q: q == self or q == p"
'''
    cat = load(text)
    ctx = C.Context(cat, C.Options(shared_query=False), None)
    chars, _ = ctx.cone({"Moon"})
    assert "friend" in chars and "lover" in chars
    only = ("unreachable",)
    sliced = _ids(cat, True, only)
    opts = C.Options(shared_query=True, only=only)
    shared = sorted(f.id for lane in C.lanes_of(cat, opts) for f in C._run_lane(cat, opts, lane)[0])
    assert sliced == shared
    assert not [i for i in sliced if i.startswith("UR003")]


# ------------------------------------------------------------------------------------ slices vs one state
_FIXTURES = sorted(p.relative_to(FAM).as_posix() for p in FAM.glob("*/*.toml"))


def _run_ids(cat, shared: bool) -> list:
    opts = C.Options(shared_query=shared)
    return sorted(f.id for lane in C.lanes_of(cat, opts) for f in C._run_lane(cat, opts, lane)[0])



@pytest.mark.parametrize("fixture", _FIXTURES)
def test_sliced_states_report_what_one_shared_state_reports(fixture):
    """The cross-check of the slicing (cones of characters and grants, card slice, plans): every family's
    trigger and clean catalogue reports the same findings over per-question slices as over one state that
    holds the whole catalogue."""
    cat = loader.load(texts={"base.toml": BASE, "f.toml": (FAM / fixture).read_text(encoding="utf-8")})
    assert _run_ids(cat, False) == _run_ids(cat, True)


def test_the_shipped_catalogue_sliced_reports_what_it_reports_shared():
    cat = loader.load()
    sliced = C.run(cat, C.Options(shared_query=False), jobs=2)
    shared = C.run(cat, C.Options(shared_query=True), jobs=2)
    assert sorted(f.id for f in sliced.findings) == sorted(f.id for f in shared.findings)
    assert len(shared.findings) > 40
