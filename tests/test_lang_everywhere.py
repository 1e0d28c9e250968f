"""One language per run, over every format and every command's output (issue 26, point 2).

Under zh no English word and no internal value: no status word (``ok``, ``FAIL``), no enum value of an answer
(``能接收 = must``), no Python value (``牌={}``), no catalogue id where a name belongs; under en no Chinese but the
catalogue's own texts. Checked with ``tests/langcheck_diff.py`` (what is not prose — paths, ids, codes, flags,
code spans, the keys of the catalogue format — is taken out first) on the shipped catalogue and the synthetic one:
`check` in every human-facing format (SARIF's messages, locations and rule help; the HTML's text, tips and the
words of its script), `baseline`'s file and messages, `catalogue`, `rules` (the listing and every family page),
`explain` (every finding of the shipped catalogue), `replay`, and `ask` (a yes, a no, a which). (`--help`, errors,
`extract` and `diff` have their own tests: test_lang_help.py, test_lang_errors.py, test_lang_extract.py,
test_lang_diff.py.)"""
from __future__ import annotations

import json
import re

import pytest
from langcheck_diff import catalogue_texts, cjk_lines, english_words, internal_ids, visible
from reportkit import SYNTHETIC, sp

from skillproof.checks.registry import RUN_CODES, all_codes, families
from skillproof.model import lang, loader

FORMATS = ["text", "markdown", "html", "github", "junit", "gitlab", "sarif"]
#: identifiers a person types as they are: family names (`--select conversion`, `skillproof rules bans`) and the
#: kinds of the design note (`kinds = ["OneTurnSkill"]`)
IDENTIFIERS = [f.name for f in families()] + sorted(__import__("skillproof.model.kinds", fromlist=["KINDS"]).KINDS)
QUESTIONS = ["can SP李宁玉 still play 截获 as 误导 while 变则通 is active?",
             "can SP李宁玉 play 截获 as 误导 in the main phase?", "which send rule for lock for SP韩梅"]


def _params(cats) -> list[str]:
    """The grants' parameter names (`col`, `A`): the catalogue's own words."""
    from skillproof.model.lang import PARAMS
    return sorted({p for cat in cats for r in cat.skills.values() for p in (r.params or {}) if p not in PARAMS},
                  key=len, reverse=True)


def leaks(text: str, cats, language: str, quoted=(), ids: bool = True) -> list[str]:
    """What is not in the run's language; ``quoted``: the person's own words the output echoes (a question)."""
    for q in quoted:                      # the question, and the parts of it an answer quotes 「like this」
        text = text.replace(q, " ")
    text = re.sub(r"「([^」]*)」", lambda m: " " if any(m.group(1) in q for q in quoted) else m.group(0), text)
    import html
    text = visible(text)
    for n in catalogue_texts(cats):       # the catalogue's texts first: a claim may hold a parameter (A=截获)
        text = text.replace(n, " ")
    for p in _params(cats):
        text = re.sub(rf"(?<![A-Za-z_]){re.escape(p)}(?=\s*=)", " ", text)
    text = html.escape(text, quote=False)     # (read as HTML again by the checkers)
    found = internal_ids(text, cats) if ids else []
    if language == "zh":
        return english_words(text, cats, IDENTIFIERS) + found
    return cjk_lines(text, cats) + found


def _examples() -> dict:
    out = {c: x.example for c, (_f, x) in all_codes().items()}
    out.update({c: x.example for c, x in RUN_CODES.items()})
    return out


def human(fmt: str, out: str) -> tuple[str, str]:
    """(the text people read in a report of ``fmt``, the rules' help that comes with it — prose about the checks,
    less the example catalogues, which are printed as written)."""
    if fmt == "sarif":
        run = json.loads(out)["runs"][0]
        parts = []
        for r in run["results"]:
            parts.append(r["message"]["text"])
            parts += [loc.get("message", {}).get("text", "") for loc in r.get("locations", [])]
            parts += r["properties"].get("witnessText", [])
            parts += [s.get("justification", "") for s in r.get("suppressions", [])]
        examples = _examples()
        help_ = []
        for r in run["tool"]["driver"]["rules"]:
            for text in (r["shortDescription"]["text"], r["fullDescription"]["text"], r["help"]["text"],
                         r["help"]["markdown"]):
                help_.append(text.replace(examples.get(r["id"]) or "\0", " ").replace("```toml", " "))
        parts.append(run["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"])
        return "\n".join(parts), "\n".join(help_)
    if fmt == "gitlab":
        return "\n".join(i["description"] + "\n" + i["content"]["body"] for i in json.loads(out)), ""
    if fmt == "junit":
        # what a test report shows: the failure and skip messages and texts (test names are identifiers)
        return "\n".join(re.findall(r'message="([^"]*)"', out) + re.findall(r">([^<]+)<", out)), ""
    if fmt == "html":                      # the page as read, its tips, and the words its script shows
        words = re.search(r"var T=(\{.*?\});", out)
        return visible(out) + "\n" + " ".join(json.loads(words.group(1)).values()), ""
    return out, ""


@pytest.fixture(scope="module")
def shipped():
    return loader.load(None)


@pytest.fixture(scope="module")
def synthetic():
    return loader.load([str(SYNTHETIC)])


def reports(tmp_path, paths, language):
    """Every format of one `check` run (designed behaviour and proved intents listed in full)."""
    extra = []
    for fmt in FORMATS[1:]:
        extra += ["--output-format", f"{fmt}:{tmp_path / f'{language}.{fmt}'}"]
    r = sp("check", *paths, "--fail-on", "none", "--show", "intended", "--show", "proved", "--lang", language, *extra)
    assert r.returncode == 0, r.stderr
    out = {"text": r.stdout}
    out.update({fmt: (tmp_path / f"{language}.{fmt}").read_text(encoding="utf-8") for fmt in FORMATS[1:]})
    return out


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("which", ["shipped", "synthetic"])
def test_every_format_in_one_language(tmp_path, shipped, synthetic, which, language):
    cat = shipped if which == "shipped" else synthetic
    got = reports(tmp_path, [] if which == "shipped" else [str(SYNTHETIC)], language)
    bad = {}
    for fmt, out in got.items():
        text, help_ = human(fmt, out)
        found = leaks(text, [cat], language)
        if help_:                     # the checks' pages name the real game's cards (截获) in both languages
            found += english_words(help_, [cat, shipped], IDENTIFIERS) if language == "zh" else \
                cjk_lines(help_, [cat, shipped])
        if found:
            bad[fmt] = sorted(set(found))[:12]
    assert bad == {}
    if language == "zh":               # the words of the issue, each gone
        for fmt, out in got.items():
            out = human(fmt, out)[0]
            for word in ("ok：", "FAIL", "能接收 = must", "={}", "INCONCLUSIVE", "worst finding", "Selected: "):
                assert word not in out, (fmt, word)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_command_in_one_language(tmp_path, shipped, language, capsys):
    from skillproof.cli import main
    outs, pages = {}, {}   # pages: prose about the checks, which names the server's classes (CannotPlayCard)
    for name, args in {"catalogue": ["catalogue"], "rules": ["rules"],
                       **{f"rules {f.name}": ["rules", f.name] for f in families()},
                       **{f"ask {i}": ["ask", q] for i, q in enumerate(QUESTIONS)}}.items():
        assert main([*args, "--lang", language]) == 0, name          # in process: the same output, faster
        got = capsys.readouterr()
        (pages if name.startswith("rules") else outs)[name] = got.out + got.err
    # explain and replay on the command line, with a witness saved and replayed
    save = tmp_path / "w.json"
    r = sp("explain", "IN001-fbf92b4ac7", "--save", str(save), "--lang", language)
    assert r.returncode == 0, r.stderr
    outs["explain"] = r.stdout
    r = sp("replay", str(save), "--lang", language)
    assert r.returncode == 0, r.stderr
    outs["replay"] = r.stdout
    # baseline: the file a new baseline starts as, and what the command says
    r = sp("baseline", str(SYNTHETIC), "--output", str(tmp_path / "b.toml"), "--lang", language)
    assert r.returncode == 0, r.stderr
    outs["baseline (messages)"] = r.stderr
    outs["baseline (comments)"] = "\n".join(x for x in (tmp_path / "b.toml").read_text(encoding="utf-8").splitlines()
                                            if x.lstrip().startswith("#") or "#" in x.split('"')[-1])
    bad = {k: sorted(set(v))[:12] for k, v in ((k, leaks(t, [shipped], language, QUESTIONS)) for k, t in outs.items())
           if v}
    bad.update({k: sorted(set(v))[:12] for k, v in ((k, leaks(t, [shipped], language, ids=False))
                                                     for k, t in pages.items()) if v})
    assert bad == {}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_finding_explained_in_one_language(shipped, language):
    """explain's story of every finding of the shipped catalogue (rendered in process: the words, not the solver)."""
    from skillproof.checks import context as CX
    from skillproof.cmd_explain import tell
    codes = all_codes()
    result = CX.run(shipped, CX.Options())
    bad = {}
    with lang.using(language):
        for f in result.findings:
            fam, code = codes[f.check]
            text = "\n".join(tell(shipped, f, fam, code)["lines"])
            found = leaks(text, [shipped], language)
            if found:
                bad[f.id] = sorted(set(found))[:8]
    assert bad == {}


def test_every_role_a_check_gives_a_rule_has_its_chinese():
    """A rule's part in a finding (``RuleRef.role``, written by the families in English) is translated in zh: every
    role string the families write is in reports/i18n.py ROLE_ZH."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent / "checks"
    from skillproof.reports.i18n import ROLE_ZH
    roles = set()
    for path in list((root / "families").glob("*.py")) + list(root.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        roles |= set(re.findall(r"ref\([^()]*(?:\([^()]*\))?[^()]*, *f?\"([^\"{}]+)\"\)", text))
    assert len(roles) > 20
    assert sorted(r for r in roles if r not in ROLE_ZH) == []
