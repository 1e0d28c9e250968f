"""HTML: one self-contained file, tested in a real headless Chromium (Debian's package; .ci/run installs it):
it renders with every host unresolvable, the findings rows and the graph's SVG nodes are in the DOM, a
link to a finding highlights exactly its rules, a link to a rule selects its findings, and a screenshot
is not blank. Skipped only when no Chromium can be found, and then loudly."""
from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from pathlib import Path
from html.parser import HTMLParser

import pytest

from reportkit import CONVERSION, report_for, sp

from skillproof.checks.findings import Finding, RuleRef
from skillproof.reports import html as H
from skillproof.reports import layout as L

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
         "--disable-extensions", "--disable-default-apps", "--mute-audio",
         "--host-resolver-rules=MAP * ~NOTFOUND"]     # no host resolves: the page must not need the network


class Elements(HTMLParser):
    """Every start tag with its attributes, in document order."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, {k: v or "" for k, v in attrs}))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def cls(self, tag, name):
        return [a for t, a in self.items if t == tag and name in a.get("class", "").split()]


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        p = shutil.which(name)
        if p:
            return p
    return None


@pytest.fixture(scope="module")
def chromium():
    exe = chromium_binary()
    if exe is None:
        msg = ("NO CHROMIUM: the HTML report was NOT tested in a browser. Install Debian's `chromium` "
               "(apt-get install chromium chromium-driver; .ci/run does this when it can).")
        sys.stderr.write(f"\n\n*** {msg} ***\n\n")
        warnings.warn(msg)
        pytest.skip(msg)
    return exe


def run_chromium(exe, url, *extra, timeout=90):
    with tempfile.TemporaryDirectory(prefix="skillproof-chromium-") as prof:
        r = subprocess.run([exe, *FLAGS, f"--user-data-dir={prof}", *extra, url], capture_output=True,
                           timeout=timeout)
    return r


def png_pixels(path):
    """Decode an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium writes): (width, height, rows of bytes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    cat, result, rep = report_for(fmt="html")
    t = time.perf_counter()
    text = H.render(rep, cat=cat)
    secs = time.perf_counter() - t
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(text, encoding="utf-8")
    sys.stderr.write(f"\nhtml report: {len(text.encode('utf-8'))} bytes, rendered in {secs:.3f}s\n")
    return cat, result, rep, text, path


# ----------------------------------------------------------------------------------------- static
def test_self_contained(page):
    _, _, _, text, _ = page
    low = text.lower()
    for bad in ("<link", "@import", "url(", " src=", "http://", "https://", "//cdn", "<iframe", "<object"):
        assert bad not in low.replace('xmlns="http://www.w3.org/2000/svg"', ""), bad
    el = Elements(text)
    assert [t for t, _ in el.items].count("script") == 1 and all(not a.get("src") for t, a in el.items if t == "script")
    assert "default-src 'none'" in text          # and the page forbids itself any fetch


def test_rows_and_nodes_match_the_report(page):
    cat, result, rep, text, _ = page
    el = Elements(text)
    rows = el.cls("tr", "finding")
    assert [r["id"] for r in rows] == [H.finding_dom_id(f.id) for f in result.findings]
    nodes = el.cls("g", "node")
    assert sorted(n["data-node"] for n in nodes) == sorted(n["id"] for n in rep.graph["nodes"])
    node_ids = {n["data-node"] for n in nodes}
    for r, f in zip(rows, result.findings):
        want = [x.id if x.id in node_ids else f"card:{x.id}" for x in f.rules
                if x.id in node_ids or f"card:{x.id}" in node_ids]
        assert r["data-nodes"].split() == list(dict.fromkeys(want))
    # rules in a finding wear a ring of their worst severity
    involved = {n["data-node"]: n["class"] for n in nodes if "involved" in n["class"].split()}
    assert "sev-error" in involved["MustAC"].split()          # MustAC is in CV001 (error)
    assert len(el.cls("line", "edge")) == len(rep.graph["edges"])


def test_layout_is_deterministic_and_readable(page):
    _, _, rep, _, _ = page
    nodes = [n["id"] for n in rep.graph["nodes"]]
    edges = [(e["source"], e["target"]) for e in rep.graph["edges"]]
    files = {n["id"]: n.get("file", "") for n in rep.graph["nodes"]}
    drawing = L.layout(nodes, edges, group_of=files)
    pos, w, h = drawing
    assert L.layout(list(reversed(nodes)), list(reversed(edges)), group_of=files) == drawing
    assert set(pos) == set(nodes)
    for a in nodes:
        x, y = pos[a]
        assert 0 < x < w and 0 < y < h
    closest = min(math.dist(pos[a], pos[b]) for i, a in enumerate(nodes) for b in nodes[i + 1:])
    assert closest >= 0.9 * min(L.NODE_GAP, L.GRID_CELL[1]), closest
    # rules that share no resource are grouped by their file, each group a box holding its rules, no two boxes
    # overlapping; every other rule sits outside the boxes
    single = {c[0] for c in L.components(nodes, edges) if len(c) == 1}
    assert single and {v for g in drawing.groups for v in g.nodes} == single
    for g in drawing.groups:
        assert len({files[v] for v in g.nodes}) == 1
        assert all(g.x < pos[v][0] < g.x + g.w and g.y < pos[v][1] < g.y + g.h for v in g.nodes)
    for i, a in enumerate(drawing.groups):
        for b in drawing.groups[i + 1:]:
            assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y, (a, b)
    inside = [v for v in nodes if v not in single and any(g.x < pos[v][0] < g.x + g.w and g.y < pos[v][1] < g.y + g.h
                                                          for g in drawing.groups)]
    assert inside == []


def test_layout_needs_no_numpy_and_is_quick():
    """The drawing is our own force layout: no numpy, no scipy (networkx's layouts need them), and a component of
    500 rules is laid out in seconds."""
    import random
    import subprocess
    code = ("import sys; from skillproof.reports import layout as L; "
            "L.layout(['a', 'b', 'c', 'd'], [('a', 'b'), ('b', 'c')]); "
            "assert 'numpy' not in sys.modules and 'scipy' not in sys.modules, sorted(sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rng = random.Random(1)
    nodes = [f"r{i:03d}" for i in range(500)]
    edges = [(nodes[i], nodes[rng.randrange(i)]) for i in range(1, 500)] + \
            [(rng.choice(nodes), rng.choice(nodes)) for _ in range(200)]
    t = time.perf_counter()
    pos, w, h = L.layout(nodes, edges)
    assert time.perf_counter() - t < 20 and len(pos) == 500
    closest = min(math.dist(pos[a], pos[b]) for i, a in enumerate(nodes) for b in nodes[i + 1:])
    assert closest >= 0.5 * L.NODE_GAP, closest


def test_diff_sections_render():
    cat, result, _ = report_for(fmt="html")
    change = {"decision": "can_play", "message": "【甲变乙】把甲当作乙", "old": {"ok": True}, "new": {"ok": False},
              "rules": [{"id": "OptAB", "name": "甲变乙", "file": "rules.toml", "line": 56}]}
    gone = Finding("CV002", "conversion", "warning", "旧发现", "gone", rules=[RuleRef("OptAB", "甲变乙", "r.toml", 5)])
    _, _, rep = report_for(fmt="html", extra={"decision_changes": [change], "new": [], "resolved": [gone]})
    text = H.render(rep, cat=cat)
    el = Elements(text)
    dec = el.cls("tr", "decision")
    assert len(dec) == 1 and dec[0]["data-nodes"] == "OptAB"
    assert "Decisions changed (1)" in text and "Resolved findings (1)" in text
    assert [r["id"] for r in el.cls("tr", "resolved")] == [H.finding_dom_id(gone.id)]


# ----------------------------------------------------------------------------------------- in Chromium
def dom(chromium, path, fragment=""):
    r = run_chromium(chromium, path.as_uri() + fragment, "--dump-dom", "--virtual-time-budget=3000")
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    text = r.stdout.decode("utf-8")
    assert 'data-ready="1"' in text, "the page's script did not run"
    return Elements(text)


def test_chromium_renders_findings_and_graph(chromium, page):
    cat, result, rep, _, path = page
    t = time.perf_counter()
    el = dom(chromium, path)
    sys.stderr.write(f"\nchromium --dump-dom: {time.perf_counter() - t:.1f}s\n")
    assert len(el.cls("tr", "finding")) == len(result.findings)
    assert len(el.cls("g", "node")) == len(rep.graph["nodes"]) > 10
    assert not el.cls("g", "hl") and not el.cls("tr", "selected")      # nothing selected without a fragment


def test_chromium_link_to_a_finding_highlights_its_rules(chromium, page):
    _, result, _, _, path = page
    f = next(f for f in result.findings if f.check == "BN001")
    el = dom(chromium, path, "#" + H.finding_dom_id(f.id))
    sel = el.cls("tr", "selected")
    assert [r["id"] for r in sel] == [H.finding_dom_id(f.id)]
    want = set(sel[0]["data-nodes"].split())
    assert len(want) >= 2
    assert {n["data-node"] for n in el.cls("g", "hl")} == want
    hl_edges = el.cls("line", "hl")
    assert hl_edges and all(e["data-a"] in want and e["data-b"] in want for e in hl_edges)
    assert "focus" in next(a for t, a in el.items if t == "svg" and a.get("id") == "graph")["class"].split()


def test_chromium_link_to_a_rule_selects_its_findings(chromium, page):
    _, result, _, text, path = page
    el = dom(chromium, path, "#" + H.node_dom_id("Giver"))
    expect = [r["id"] for r in Elements(text).cls("tr", "finding") if "Giver" in r["data-nodes"].split()]
    assert expect and [r["id"] for r in el.cls("tr", "selected")] == expect
    assert [n["data-node"] for n in el.cls("g", "hl")] == ["Giver"]


def test_chromium_screenshot_is_not_blank(chromium, page, tmp_path):
    _, _, _, _, path = page
    shot = tmp_path / "shot.png"
    r = run_chromium(chromium, path.as_uri(), f"--screenshot={shot}", "--window-size=1400,1000",
                     "--hide-scrollbars", "--virtual-time-budget=3000")
    assert r.returncode == 0 and shot.exists(), r.stderr.decode("utf-8", "replace")[-2000:]
    w, h, bpp, rows = png_pixels(shot)
    assert (w, h) == (1400, 1000)
    colours, ink = set(), 0
    for y in range(0, h, 2):
        row = rows[y]
        for x in range(0, w, 2):
            px = row[x * bpp:x * bpp + 3]
            colours.add(px)
            if sum(px) < 600:                     # clearly darker than the white / light-grey background
                ink += 1
    assert len(colours) > 50, len(colours)
    assert ink / ((w // 2) * (h // 2)) > 0.02, ink
    # the graph's right half is drawn too: some pixel on the right side is a node colour, not background
    right = [rows[y][x * bpp:x * bpp + 3] for y in range(200, h, 4) for x in range(w // 2 + 50, w - 50, 4)]
    assert sum(1 for px in right if sum(px) < 600) > 50


def test_cli_html(tmp_path):
    out = tmp_path / "r.html"
    r = sp("check", *CONVERSION, "-f", "html", "-o", str(out))
    assert r.returncode == 1 and r.stdout == ""
    el = Elements(out.read_text(encoding="utf-8"))
    assert len(el.cls("tr", "finding")) == 3 and el.cls("g", "node")


# ----------------------------------------------------------------------------------- navigable, readable
def probe(chromium, path, js, *extra, fragment=""):
    """Run ``js`` (an expression giving a JSON-able value) in the report after its own script; its value."""
    import json as J
    text = path.read_text(encoding="utf-8")
    probe_path = path.with_name("probe-" + path.name)
    script = ("<script>(function(){var v;try{v=(function(){" + js + "})();}catch(err){v={error:String(err)};}"
              "document.documentElement.setAttribute('data-probe',JSON.stringify(v));})();</script>")
    probe_path.write_text(text.replace("</body>", script + "</body>"), encoding="utf-8")
    r = run_chromium(chromium, probe_path.as_uri() + fragment, "--dump-dom", "--virtual-time-budget=3000", *extra)
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    html_el = next(a for t, a in Elements(r.stdout.decode("utf-8")).items if t == "html")
    value = J.loads(html_el["data-probe"])
    assert not (isinstance(value, dict) and "error" in value), value
    return value


def test_static_navigation(page):
    _, result, _, text, _ = page
    el = Elements(text)
    toc_links = [a["href"] for t, a in el.items if t == "a" and a.get("href", "").startswith("#")]
    ids = {a.get("id") for _, a in el.items if a.get("id")}
    assert toc_links and all(h[1:] in ids for h in toc_links)
    groups = el.cls("tr", "group")
    assert {(f.severity, f.check) for f in result.findings} == {tuple(g["id"].split("-")[2:0:-1]) for g in groups}
    assert all(f"#{g['id']}" in toc_links for g in groups)
    assert el.cls("input", "sev-filter") and any(a.get("id") == "search" for _, a in el.items)
    # each witness sits in a row of its own, right after its finding, across all the columns
    order = [(a.get("class", ""), a.get("id", "")) for t, a in el.items if t == "tr"]
    for i, (cls, ident) in enumerate(order):
        if "witness-row" in cls.split():
            assert ident == "w-" + order[i - 1][1] and "finding" in order[i - 1][0].split()
    assert all(a.get("colspan") == "4" for t, a in el.items if t == "td" and a.get("colspan"))
    assert 'preserveAspectRatio="xMidYMid meet"' in text and " width=\"" not in text.split("<svg", 1)[1][:200]


def test_chromium_renders_chinese_glyphs_not_boxes(chromium, page):
    """Chinese must render with a real CJK font: distinct characters give distinct bitmaps, none of them the
    missing-glyph box a private-use character gets. Fails on a machine without a CJK font (.ci/run installs
    fonts-noto-cjk)."""
    _, result, _, _, path = page
    got = probe(chromium, path, r"""
      var font=getComputedStyle(document.querySelector('tr.finding td:nth-child(3)')).fontFamily;
      function bm(ch){var c=document.createElement('canvas');c.width=48;c.height=48;var x=c.getContext('2d');
        x.font='36px '+font;x.fillStyle='#000';x.fillText(ch,4,38);return Array.prototype.join.call(x.getImageData(0,0,48,48).data,'');}
      var msg=document.querySelector('tr.finding td:nth-child(3)').textContent;
      var cjk=[];for(var i=0;i<msg.length&&cjk.length<6;i++){var ch=msg[i];if(/[\u4e00-\u9fff]/.test(ch)&&cjk.indexOf(ch)<0){cjk.push(ch);}}
      var maps=cjk.map(bm),box=bm('\uE000'),box2=bm('\uE001');
      var distinct={};maps.forEach(function(m){distinct[m]=1;});
      return {chars:cjk.join(''),distinct:Object.keys(distinct).length,tofu:maps.filter(function(m){return m===box;}).length,
              boxesAlike:box===box2};""")
    assert len(got["chars"]) == 6, got
    assert got["tofu"] == 0 and got["distinct"] == 6, (
        f"Chinese renders as missing-glyph boxes ({got}): install a CJK font (Debian: fonts-noto-cjk)")


def test_chromium_filters_and_search(chromium, page):
    _, result, _, _, path = page
    notes = sum(1 for f in result.findings if f.severity == "note")
    target = next(f for f in result.findings if f.witness)
    word = target.message[:6]            # the page is rendered before the test: in Chinese
    got = probe(chromium, path, r"""
      function visible(){return [].slice.call(document.querySelectorAll('tr.finding')).filter(function(r){
        return !r.classList.contains('hidden');}).map(function(r){return r.id;});}
      var out={all:visible().length};
      var note=document.querySelector('input.sev-filter[value=note]');note.checked=false;
      note.dispatchEvent(new Event('change'));out.noNotes=visible().length;out.shown=document.getElementById('shown').textContent;
      note.checked=true;note.dispatchEvent(new Event('change'));
      var sel=document.getElementById('check-filter');sel.value='CV001';sel.dispatchEvent(new Event('change'));
      out.cv001=visible();sel.value='';sel.dispatchEvent(new Event('change'));
      var q=document.getElementById('search');q.value='""" + word + r"""';q.dispatchEvent(new Event('input'));
      out.search=visible();
      out.groupsShown=[].slice.call(document.querySelectorAll('tr.group')).filter(function(g){return !g.classList.contains('hidden');}).length;
      return out;""")
    n = len(result.findings)
    assert got["all"] == n and got["noNotes"] == n - notes and got["shown"] == f"显示 {n - notes} / {n} 个问题"
    assert got["cv001"] == [H.finding_dom_id(f.id) for f in result.findings if f.check == "CV001"]
    assert H.finding_dom_id(target.id) in got["search"] and len(got["search"]) < n
    assert got["groupsShown"] == len({(f.severity, f.check) for f in result.findings
                                      if H.finding_dom_id(f.id) in got["search"]})


def test_chromium_witness_full_width_and_graph_fits(chromium, page):
    _, result, _, _, path = page
    f = next(f for f in result.findings if f.witness and f.check == "BN001")
    got = probe(chromium, path, r"""
      var w=document.getElementById('w-""" + H.finding_dom_id(f.id) + r"""');w.querySelector('details').open=true;
      var pre=w.querySelector('pre').getBoundingClientRect(),table=w.closest('table').getBoundingClientRect();
      var svg=document.getElementById('graph'),box=document.getElementById('graph-box').getBoundingClientRect();
      var vb=svg.getAttribute('viewBox').split(' ').map(Number),r=svg.getBoundingClientRect();
      return {pre:pre.width,table:table.width,box:[box.width,box.height],svg:[r.width,r.height],vb:vb};""",
                "--window-size=1400,1000", fragment="#" + H.finding_dom_id(f.id))
    assert got["pre"] > 0.9 * got["table"] and got["pre"] > 450, got        # not a narrow column
    assert got["svg"][0] <= got["box"][0] + 1 and got["svg"][1] <= got["box"][1] + 1, got   # no cropping
    full = [float(x) for x in Elements(path.read_text(encoding="utf-8")).items[[t for t, _ in Elements(
        path.read_text(encoding="utf-8")).items].index("svg")][1]["viewbox"].split()]
    assert got["vb"][2] < full[2], (got["vb"], full)      # a link to a finding zooms the graph to its rules


# ------------------------------------------------------------------------- the shipped report, as a person sees it
SHOTS = os.environ.get("SKILLPROOF_SCREENSHOTS")      # a directory: keep the screenshots for a person to look at


@pytest.fixture(scope="module")
def shipped_page(tmp_path_factory):
    """The HTML report of the shipped catalogue (Chinese, as `skillproof check -f html` writes it)."""
    path = tmp_path_factory.mktemp("shipped") / "report.html"
    r = sp("check", "-f", "html", "-o", str(path), "--fail-on", "none")
    assert r.returncode == 0, r.stderr
    return path


def _shot(chromium, path, width, height, name, tmp_path):
    shot = (Path(SHOTS) if SHOTS else tmp_path) / f"{name}-{width}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    r = run_chromium(chromium, path.as_uri(), f"--screenshot={shot}", f"--window-size={width},{height}",
                     "--hide-scrollbars", "--virtual-time-budget=3000")
    assert r.returncode == 0 and shot.exists(), r.stderr.decode("utf-8", "replace")[-2000:]
    w, h, bpp, rows = png_pixels(shot)
    assert (w, h) == (width, height)
    ink = sum(1 for y in range(0, h, 3) for x in range(0, w, 3) if sum(rows[y][x * bpp:x * bpp + 3]) < 600)
    assert ink > 0.01 * (w // 3) * (h // 3), (name, width, ink)        # not blank
    return shot


LEGIBILITY = r"""
  var svg=document.getElementById('graph'),r=svg.getBoundingClientRect(),vb=svg.getAttribute('viewBox').split(' ').map(Number);
  var scale=Math.min(r.width/vb[2],r.height/vb[3]);
  var labels=[].slice.call(svg.querySelectorAll('.node text'));
  var px=labels.map(function(t){return parseFloat(getComputedStyle(t).fontSize)*scale;});
  var shown=labels.filter(function(t){var b=t.getBoundingClientRect();return b.width>0&&b.right>r.left&&b.left<r.right&&b.bottom>r.top&&b.top<r.bottom;});
  var heights=shown.map(function(t){return t.getBoundingClientRect().height;});
  return {min:Math.min.apply(null,px),shown:shown.length,minHeight:Math.min.apply(null,heights),
          groups:svg.querySelectorAll('.group-box').length,
          counter:document.getElementById('shown').textContent,
          rows:[].slice.call(document.querySelectorAll('tr.finding[data-counted]')).length,
          scrollW:document.documentElement.scrollWidth,innerW:window.innerWidth,
          /* anything drawn past the right edge (the graph's own box clips and pans its drawing) */
          past:[].slice.call(document.querySelectorAll('body *')).filter(function(el){
            if(el.closest('#graph-box')||el.closest('.hidden')||el.closest('details:not([open]) > :not(summary)')){return false;}
            var b=el.getBoundingClientRect();return b.width>0&&b.right>window.innerWidth+1;}).slice(0,5).map(function(el){
            return el.tagName+'#'+el.id+'.'+el.className;})};"""


@pytest.mark.parametrize("width", [1280, 390])
def test_chromium_the_shipped_report_at_a_desk_and_on_a_phone(chromium, shipped_page, tmp_path, width):
    """The report of the shipped catalogue at 1280 and 390 px: the counter counts what the table shows, the graph's
    labels are at least 11 px on the screen, rules that share no resource are drawn in groups, and the page is no
    wider than the window (no sideways scroll). Screenshots are taken (kept in $SKILLPROOF_SCREENSHOTS when set)."""
    _shot(chromium, shipped_page, width, 1000, "shipped", tmp_path)
    got = probe(chromium, shipped_page, LEGIBILITY, f"--window-size={width},1000")
    text = shipped_page.read_text(encoding="utf-8")
    n = len(Elements(text).cls("tr", "finding")) - len([a for t, a in Elements(text).items if t == "tr"
                                                         and "intended" in a.get("class", "").split()])
    assert got["rows"] == n and got["counter"] == f"显示 {n} / {n} 个问题", got          # it read "55 / 15"
    assert got["min"] >= 11 and got["shown"] > 3 and got["minHeight"] >= 11, got
    assert got["groups"] >= 10, got
    assert got["scrollW"] <= got["innerW"] and got["past"] == [], got


def test_chromium_a_selected_finding_keeps_the_labels_legible(chromium, shipped_page):
    text = shipped_page.read_text(encoding="utf-8")
    row = next(a for a in Elements(text).cls("tr", "finding") if len(a.get("data-nodes", "").split()) >= 2)
    got = probe(chromium, shipped_page, LEGIBILITY, "--window-size=1280,1000", fragment="#" + row["id"])
    assert got["min"] >= 11 and got["shown"] >= 2, got
