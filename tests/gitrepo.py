"""A tiny git repository of the invented server (tests/fixtures/kotlin/server) with a few labelled commits, built
in a test's temporary directory: nothing is downloaded and no server code is used."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

SERVER = Path(__file__).parent / "fixtures" / "kotlin" / "server"

#: the conversion loop of the engine, in the form of today's server (face-down initial skills skipped)
ENGINE = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.game.card.Card
import demo.game.phase.FightPhaseIdle
import demo.game.phase.SendPhaseIdle
import demo.protos.Common.card_type

fun Player.canUseCardTypes(needType: card_type, actualCard: Card, onlyMust: Boolean = false): Pair<Boolean, ConvertCardSkill?> {
    val actualType = actualCard.type
    var ok = needType == actualType
    var convertCardSkill: ConvertCardSkill? = null
    for (s in skills) {
        GUARD
        if (s is ConvertCardSkill && (s.source == actualType || s.source == null)) {
            if (needType in s.targets) {
                if (!onlyMust || s.must) {
                    ok = true
                    if (needType != actualType || s.must) {
                        if (convertCardSkill == null || !convertCardSkill.must || s.must)
                            convertCardSkill = s
                    }
                }
            } else if (s.must) return false to null
        }
    }
    return ok to convertCardSkill
}
"""

#: the fixture's 账本 with its canUse replaced by CAN_USE (a body, or `= expression`)
LEDGER = re.sub(r"    override fun canUse\(.*?(?=    override fun executeProtocol)",
                "    override fun canUse(phase: FightPhaseIdle, user: Player): Boolean CAN_USE\n\n",
                (SERVER / "skill" / "Ledger.kt").read_text(encoding="utf-8"), flags=re.S)

#: (name, label, files to write relative to src/main/kotlin) — each commit builds on the one before
COMMITS = [
    ("base", None, {"skill/Engine.kt": ENGINE.replace("GUARD", "roleFaceUp || !s.isInitialSkill || continue"),
                    "skill/Ledger.kt": LEDGER.replace("CAN_USE", "{\n        val many = user.cards.size > 1\n"
                                                                 "        return many\n    }")}),
    # same play: the guard spelt another way, the condition written as one expression (newly understood)
    ("refactor", "refactor", {"skill/Engine.kt": ENGINE.replace("GUARD", "if (!roleFaceUp && s.isInitialSkill) continue"),
                              "skill/Ledger.kt": LEDGER.replace("CAN_USE", "= user.cards.size > 1")}),
    # face-down players keep every conversion
    ("engine", "engine_change", {"skill/Engine.kt": ENGINE.replace("GUARD", "")}),
    # 账本 needs three cards now
    ("rule", "rule_change", {"skill/Ledger.kt": LEDGER.replace("CAN_USE", "= user.cards.size > 2")}),
    # a skill file that no longer parses
    ("broken", "refactor", {"skill/Shadow.kt": "package demo.game.skill\n\nclass Shadow : ActiveSkill, {{ (\n"}),
]


def git(cwd, *args) -> str:
    r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                       env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
                            "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
                            "HOME": str(cwd), "PATH": "/usr/bin:/bin:/usr/local/bin"})
    return r.stdout.strip()


def make_server_repo(root: Path) -> dict:
    """A git repository at ``root/server`` whose commits are COMMITS; returns name -> sha."""
    work = root / "server"
    src = work / "src" / "main" / "kotlin"
    shutil.copytree(SERVER, src)
    roles = src / "skill" / "Roles.kt"                 # the fixture's deliberately unknown skill class
    roles.write_text("\n".join(ln for ln in roles.read_text(encoding="utf-8").splitlines()
                               if "NotASkill" not in ln) + "\n", encoding="utf-8")
    git(work, "init", "-q", "-b", "main")
    shas = {}
    for name, _label, files in COMMITS:
        for rel, text in files.items():
            (src / rel).write_text(text, encoding="utf-8")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", name)
        shas[name] = git(work, "rev-parse", "HEAD")
    return shas


def labels_toml(shas: dict) -> str:
    """The commits as labelled pairs in the format of benchmarks/history/labels.toml."""
    out = []
    names = [c[0] for c in COMMITS]
    for i, (name, label, _f) in enumerate(COMMITS):
        if label is None:
            continue
        rules = {"engine": '["ConvertCardSkill"]', "rule": '["Ledger"]'}.get(name, "[]")
        fields = {"engine": '["rules.face_down_converts"]', "rule": '["fight"]'}.get(name, "[]")
        out.append(f'[[commit]]\nsha = "{shas[name]}"\nparent = "{shas[names[i - 1]]}"\nlabel = "{label}"\n'
                   f'rules = {rules}\nfields = {fields}\nsummary = "{name}"\n')
    return "\n".join(out)
