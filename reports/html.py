"""HTML: one self-contained file — no network, no external script, style sheet or font.

A summary (status, counts, checks), the findings table with each witness folded under its row, and the
conflict graph as inline SVG laid out in Python (``layout.py``: deterministic). Nodes are the rules
(circles: skills, squares: grants handed out at run time, diamonds: cards that grant); edges join rules
that touch a common resource (the tooltip says which). Rules involved in a finding carry a ring in the
colour of their worst finding. Clicking (or hovering) a finding highlights its rules and the edges between
them and dims the rest; clicking a rule selects the findings that involve it. The selection lives in the
URL fragment (``report.html#f-CV001-3a1451036d``), so a link opens the report with that finding selected.
A few lines of inline JavaScript do the highlighting; without JavaScript the report still shows everything.
"""
from __future__ import annotations

import html
import re

from skillproof.checks.findings import SEVERITIES, SEVERITY_RANK

from .layout import layout
from .util import (catalogue_paths, change_key, change_rules, change_sides, change_title, change_witness,
                   code_info, diff_view, exit_code, fdict, loc_text, rules_of, summary_line, witness_text)

NAME = "html"
DESCRIPTION = "one self-contained HTML page: findings, witnesses and the conflict graph"

_ID_BAD = re.compile(r"[^A-Za-z0-9_:\-]")


def e(s) -> str:
    return html.escape(str(s), quote=True)


def node_dom_id(node: str) -> str:
    return "n-" + _ID_BAD.sub(lambda m: f"_{ord(m.group()):x}_", node)


def finding_dom_id(fid: str) -> str:
    return "f-" + _ID_BAD.sub(lambda m: f"_{ord(m.group()):x}_", fid)


CSS = """
:root{--err:#c62828;--warn:#e08a00;--note:#1e6fb8;--ink:#1d2330;--mute:#6b7280;--line:#d9dde4;--bg:#fff;
--hl:#ffd400;--panel:#f6f7f9}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Source Han Sans SC",
"PingFang SC","Microsoft YaHei",sans-serif;color:var(--ink);background:var(--bg)}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:18px 0 8px}
.status{display:inline-block;padding:2px 10px;border-radius:10px;color:#fff;font-weight:600;margin-left:8px}
.status.fail{background:var(--err)}.status.ok{background:#2e7d32}.status.inc{background:var(--warn)}
.badges>span{display:inline-block;margin:4px 8px 0 0;padding:1px 8px;border-radius:8px;background:#fff;
border:1px solid var(--line)}
.meta{color:var(--mute);font-size:12px}
main{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;padding:8px 24px 24px}
@media (min-width:1200px){main{grid-template-columns:minmax(0,1.1fr) minmax(0,1fr)}
#graph-panel{position:sticky;top:0;align-self:start}#graph-box{max-height:calc(100vh - 120px)}}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{font-size:12px;color:var(--mute);font-weight:600}
tr.finding{cursor:pointer}tr.finding:hover{background:#fafbfc}
tr.finding.selected{background:#fff7cc;outline:2px solid var(--hl)}
.sev{font-weight:600;white-space:nowrap}.sev.error{color:var(--err)}.sev.warning{color:var(--warn)}
.sev.note{color:var(--note)}
.dot{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:5px;background:currentColor}
code{white-space:nowrap;font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef0f3;padding:0 3px;border-radius:3px}
.fid{color:var(--mute);font-size:12px}
.rules div{margin-bottom:2px}
details pre{white-space:pre-wrap;background:var(--panel);padding:6px 8px;margin:4px 0;border-radius:4px;
font:12px/1.5 ui-monospace,Menlo,Consolas,"Noto Sans Mono CJK SC",monospace}
#graph-box{overflow:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
#graph{display:block}
.edge{stroke:#b8c0cc;stroke-width:1.4}.edge.gives{stroke-dasharray:5 4}
.node circle,.node rect,.node polygon{fill:#e8eef7;stroke:#7d8aa0;stroke-width:1.2}
.node text{font-size:12px;fill:var(--ink);text-anchor:middle;pointer-events:none}
.node{cursor:pointer}
.node .ring{fill:none;stroke-width:3}
.node.sev-error .ring{stroke:var(--err)}.node.sev-warning .ring{stroke:var(--warn)}.node.sev-note .ring{stroke:var(--note)}
.node:not(.involved) .ring{display:none}
.node .chg{fill:none;stroke:#7b1fa2;stroke-width:2;stroke-dasharray:4 3}
#graph.focus .node{opacity:.22}#graph.focus .edge{opacity:.12}
#graph.focus .node.hl{opacity:1}#graph.focus .edge.hl{opacity:1;stroke:#5b6472;stroke-width:2.6}
.node.hl circle,.node.hl rect,.node.hl polygon{fill:var(--hl);stroke:#5b4b00;stroke-width:2}
.legend{font-size:12px;color:var(--mute);margin:6px 0}
#selection{font-size:13px;margin:6px 0;min-height:1.4em}
.empty{color:var(--mute)}
"""

JS = r"""
(function(){
  var svg=document.getElementById('graph');
  var nodes=[].slice.call(document.querySelectorAll('#graph .node'));
  var edges=[].slice.call(document.querySelectorAll('#graph .edge'));
  var rows=[].slice.call(document.querySelectorAll('tr.finding'));
  var info=document.getElementById('selection');
  function clear(){
    nodes.forEach(function(n){n.classList.remove('hl');});
    edges.forEach(function(x){x.classList.remove('hl');});
    rows.forEach(function(r){r.classList.remove('selected');});
    if(svg){svg.classList.remove('focus');}
    if(info){info.textContent='';}
  }
  function mark(ids,label){
    var set={};ids.forEach(function(i){set[i]=1;});
    nodes.forEach(function(n){if(set[n.getAttribute('data-node')]){n.classList.add('hl');}});
    edges.forEach(function(x){if(set[x.getAttribute('data-a')]&&set[x.getAttribute('data-b')]){x.classList.add('hl');}});
    if(svg&&ids.length){svg.classList.add('focus');}
    if(info){info.textContent=label;}
  }
  function show(target){
    clear();
    if(!target){return;}
    var el=document.getElementById(target);
    if(!el){return;}
    if(el.classList.contains('finding')){
      el.classList.add('selected');
      var ids=(el.getAttribute('data-nodes')||'').split(' ').filter(Boolean);
      mark(ids,'Selected: '+el.getAttribute('data-label')+(ids.length?'':' (no rule of the graph)'));
    }else if(el.classList.contains('node')){
      var id=el.getAttribute('data-node'),n=0;
      rows.forEach(function(r){
        if((' '+(r.getAttribute('data-nodes')||'')+' ').indexOf(' '+id+' ')>=0){r.classList.add('selected');n++;}
      });
      mark([id],'Selected: '+el.getAttribute('data-label')+' — in '+n+' finding'+(n===1?'':'s'));
    }
  }
  function fromHash(){show(decodeURIComponent(location.hash.slice(1)));}
  function select(id){   /* the selection is kept in the URL fragment, without jumping the page */
    if(history.replaceState){history.replaceState(null,'','#'+id);}else{location.hash=id;}
    show(id);
  }
  rows.forEach(function(r){
    r.addEventListener('click',function(ev){
      if(ev.target.closest&&ev.target.closest('details')){return;}
      select(r.id);
      var first=document.querySelector('#graph .node.hl');
      if(first&&first.scrollIntoView){first.scrollIntoView({block:'nearest',inline:'nearest'});}
    });
    r.addEventListener('mouseenter',function(){show(r.id);});
    r.addEventListener('mouseleave',fromHash);
  });
  nodes.forEach(function(n){
    n.addEventListener('click',function(){
      select(n.id);
      var first=document.querySelector('tr.finding.selected');
      if(first&&first.scrollIntoView){first.scrollIntoView({block:'nearest'});}
    });
  });
  window.addEventListener('hashchange',fromHash);
  fromHash();
  var first=document.querySelector('#graph .node.hl');
  if(first&&first.scrollIntoView){first.scrollIntoView({block:'nearest',inline:'nearest'});}
  document.documentElement.setAttribute('data-ready','1');
})();
"""


def _graph_of(report, cat):
    if report.graph:
        return report.graph
    if cat is not None:
        from skillproof.checks import graph as GR
        return GR.export(GR.build(cat))
    return {"nodes": [], "edges": []}


def _node_ids_for(fd: dict, node_set: set) -> list[str]:
    out = []
    for r in rules_of(fd):
        rid = r.get("id", "")
        for cand in (rid, f"card:{rid}"):
            if cand in node_set and cand not in out:
                out.append(cand)
                break
    return out


def _resource_text(res: str, cat) -> str:
    if res.startswith("card:") and cat is not None:
        cid = res[5:]
        if cid in cat.cards:
            return f"card {cat.cards[cid].name} ({cid})"
    return res


def svg(report, cat, worst: dict, changed: dict | None = None) -> str:
    g = _graph_of(report, cat)
    nodes = {n["id"]: n for n in g.get("nodes", [])}
    edges = [(x["source"], x["target"], x.get("resources", [])) for x in g.get("edges", [])]
    pos, W, H = layout(sorted(nodes), [(a, b) for a, b, _ in edges])
    out = [f'<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
           f'role="img" aria-label="conflict graph: {len(nodes)} rules, {len(edges)} edges">']
    out.append('<g class="edges">')
    for a, b, res in edges:
        if a not in pos or b not in pos:
            continue
        (x1, y1), (x2, y2) = pos[a], pos[b]
        cls = "edge gives" if list(res) == ["gives"] else "edge"
        tip = ", ".join(_resource_text(r, cat) for r in res)
        out.append(f'<line class="{cls}" data-a="{e(a)}" data-b="{e(b)}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}">'
                   f'<title>{e(nodes[a].get("name", a))} — {e(nodes[b].get("name", b))}: {e(tip)}</title></line>')
    out.append("</g>")
    out.append('<g class="nodes">')
    for nid in sorted(nodes):
        n = nodes[nid]
        x, y = pos[nid]
        kind = n.get("kind", "skill")
        sev = worst.get(nid)
        chg = (changed or {}).get(nid) or (changed or {}).get(nid[5:] if nid.startswith("card:") else "")
        cls = f"node {kind}" + (f" involved sev-{sev}" if sev else "") + (" changed" if chg else "")
        name = n.get("name", nid)
        label = f"{name} ({nid})"
        where = f"{n['file']}:{n.get('line', 0)}" if n.get("file") else ""
        if kind == "grant":
            shape = f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" rx="3"/>'
            ring = f'<rect class="ring" x="{x - 12}" y="{y - 12}" width="24" height="24" rx="5"/>'
        elif kind == "card":
            shape = f'<polygon points="{x},{round(y - 10, 1)} {round(x + 10, 1)},{y} {x},{round(y + 10, 1)} {round(x - 10, 1)},{y}"/>'
            ring = f'<circle class="ring" cx="{x}" cy="{y}" r="14"/>'
        else:
            shape = f'<circle cx="{x}" cy="{y}" r="8"/>'
            ring = f'<circle class="ring" cx="{x}" cy="{y}" r="12"/>'
        marker = f'<circle class="chg" cx="{x}" cy="{y}" r="17"/>'
        out.append(f'<g class="{cls}" id="{node_dom_id(nid)}" data-node="{e(nid)}" data-label="{e(label)}">'
                   f'<title>{e(label)} {e(kind)}{" — " + e(where) if where else ""}'
                   f'{" — worst finding: " + sev if sev else ""}{" — " + e(chg) + " in NEW" if chg else ""}</title>'
                   f'{marker if chg else ""}{ring}{shape}'
                   f'<text x="{x}" y="{round(y + 22, 1)}">{e(name)}</text></g>')
    out.append("</g></svg>")
    return "\n".join(out)


def _short_loc(r: dict) -> str:
    """``name.toml:line`` (the full path is in the title)."""
    if not r.get("file"):
        return "-"
    return f"{str(r['file']).replace(chr(92), '/').rsplit('/', 1)[-1]}:{r.get('line', 0)}"


def _rules_html(rules) -> str:
    return "".join(f'<div>{e(r.get("name") or r.get("id"))} <code title="{e(loc_text(r))}">{e(_short_loc(r))}</code>'
                   + (f' <span class="fid">{e(r["role"])}</span>' if r.get("role") else "") + "</div>"
                   for r in rules) or "—"


def _witness_html(fd, cat) -> str:
    lines = witness_text(fd, cat)
    if not lines:
        return '<span class="empty">—</span>'
    return f'<details><summary>witness</summary><pre>{e(chr(10).join(lines))}</pre></details>'


def _finding_row(report, fd, cat, node_set, extra_cls="", extra_cell=None) -> str:
    sev = fd.get("severity", "")
    _fam, c = code_info(report, fd.get("check", ""))
    ids = _node_ids_for(fd, node_set)
    label = f"{fd.get('check')} {fd.get('id')}"
    tag = "inconclusive" if fd.get("inconclusive") else sev
    cells = [f'<td class="sev {e(sev)}"><span class="dot"></span>{e(tag)}</td>',
             f'<td><code>{e(fd.get("check", ""))}</code><br><span class="fid">{e(c.name) if c else ""}</span></td>',
             f'<td>{e(fd.get("message", ""))}<div class="fid">{e(fd.get("id", ""))}</div></td>',
             f'<td class="rules">{_rules_html(rules_of(fd))}</td>']
    if extra_cell is not None:
        cells.append(f"<td>{extra_cell}</td>")
    else:
        cells.append(f"<td>{_witness_html(fd, cat)}</td>")
    return (f'<tr class="finding sev-{e(sev)}{extra_cls}" id="{finding_dom_id(fd.get("id", ""))}" '
            f'data-nodes="{e(" ".join(ids))}" data-label="{e(label)}" title="{e(c.summary) if c else ""}">'
            + "".join(cells) + "</tr>")


def _table(head: list[str], rows: list[str], empty: str) -> str:
    if not rows:
        return f'<p class="empty">{e(empty)}</p>'
    return ("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>\n"
            + "\n".join(rows) + "\n</tbody></table>")


def render(report, cat=None) -> str:
    g = _graph_of(report, cat)
    node_set = {n["id"] for n in g.get("nodes", [])}
    active = [fdict(f) for f in report.findings]
    worst: dict[str, str] = {}
    view = diff_view(report)
    extra_new = view.new if view is not None and not view.new_are_findings else []
    for fd in active + extra_new:
        for nid in _node_ids_for(fd, node_set):
            s = fd.get("severity", "note")
            if nid not in worst or SEVERITY_RANK.get(s, 9) < SEVERITY_RANK.get(worst[nid], 9):
                worst[nid] = s
    rc = exit_code(report)
    status = ("fail", "failing") if rc == 1 else (("inc", "inconclusive") if rc == 3 else ("ok", "passing"))
    cnt = report.counts()
    badges = "".join(f'<span class="sev {s}"><span class="dot"></span>{cnt[s]} {s}{"s" if cnt[s] != 1 else ""}</span>'
                     for s in SEVERITIES)
    if report.inconclusive:
        badges += f"<span>{len(report.inconclusive)} inconclusive</span>"
    if report.suppressed:
        badges += f"<span>{len(report.suppressed)} accepted in the baseline</span>"
    if report.stale:
        badges += f"<span>{len(report.stale)} stale baseline entries</span>"
    if view is not None:
        badges += (f"<span>{len(view.changes)} changed decision{'s' if len(view.changes) != 1 else ''}"
                   f"{' (allowed)' if view.changes and view.allow_changes else ''}</span>"
                   f"<span>{len(view.resolved)} resolved</span>")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh-Hans"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{e(report.title)} — {e(status[1])}</title>",
        f"<style>{CSS}</style></head><body>",
        "<header>",
        f'<h1>{e(report.title)}<span class="status {status[0]}">{e(status[1])}</span></h1>',
        f'<div class="badges">{badges}</div>',
        f'<div class="meta">{e(summary_line(report))}</div>',
        f'<div class="meta">skillproof {e(report.tool_version)} · catalogue: '
        + ", ".join(f"<code>{e(f)}</code>" for f in catalogue_paths(report.catalogue_files)[0])
        + e(catalogue_paths(report.catalogue_files)[1])
        + f" · checks run: {e(', '.join(report.families))}</div>",
        "</header>",
        "<main>",
        '<section id="findings-panel">',
    ]
    if view is not None:
        if view.old_files or view.new_files:
            parts.append('<p class="meta">OLD: ' + ", ".join(f"<code>{e(f)}</code>" for f in view.old_files)
                         + "<br>NEW: " + ", ".join(f"<code>{e(f)}</code>" for f in view.new_files) + "</p>")
        if view.changed_rules:
            parts.append("<p>Rules changed: " + ", ".join(f"<code>{e(r.get('id', ''))}</code> {e(r.get('change', ''))}"
                                                          for r in view.changed_rules) + "</p>")
        rows = []
        for ch in view.changes:
            old, new = change_sides(ch, cat)
            title = change_title(ch, cat)
            ids = _node_ids_for({"rules": change_rules(ch)}, node_set)
            wl = change_witness(ch, cat)
            wh = f'<details><summary>witness</summary><pre>{e(chr(10).join(wl))}</pre></details>' if wl else "—"
            rows.append(f'<tr class="finding decision" id="{finding_dom_id(change_key(ch))}" '
                        f'data-nodes="{e(" ".join(ids))}" data-label="{e(title)}"><td>{e(title)}</td>'
                        f'<td>{e(old) or "—"}</td><td>{e(new) or "—"}</td>'
                        f'<td class="rules">{_rules_html(change_rules(ch))}</td><td>{wh}</td></tr>')
        allowed = " — allowed by --allow-changes" if view.changes and view.allow_changes else ""
        parts.append(f"<h2>Decisions changed ({len(view.changes)}){e(allowed)}</h2>")
        parts.append(_table(["Decision", "OLD", "NEW", "Rules", "Witness"], rows, "No decision changed."))
        if not view.new_are_findings:
            parts.append(f"<h2>New findings ({len(view.new)})</h2>")
            parts.append(_table(["Severity", "Check", "Finding", "Rules", "Witness"],
                                [_finding_row(report, fd, cat, node_set, " new") for fd in view.new], "None."))
    ftitle = "New findings" if view is not None and view.new_are_findings else "Findings"
    parts.append(f"<h2>{ftitle} ({len(active)})</h2>")
    parts.append(_table(["Severity", "Check", "Finding", "Rules", "Witness"],
                        [_finding_row(report, fd, cat, node_set) for fd in active], "No findings."))
    if view is not None:
        parts.append(f"<h2>Resolved findings ({len(view.resolved)})</h2>")
        parts.append(_table(["Severity", "Check", "Finding", "Rules", "Witness"],
                            [_finding_row(report, fd, None, node_set, " resolved") for fd in view.resolved], "None."))
    if report.suppressed:
        rows = [_finding_row(report, fdict(f), cat, node_set, " suppressed", e(reason))
                for f, reason in report.suppressed]
        parts.append(f"<details><summary><h2 style=\"display:inline\">Accepted in the baseline "
                     f"({len(report.suppressed)})</h2></summary>")
        parts.append(_table(["Severity", "Check", "Finding", "Rules", "Reason"], rows, ""))
        parts.append("</details>")
    if report.stale:
        parts.append(f"<h2>Stale baseline entries ({len(report.stale)})</h2>")
        parts.append("<p>Accepted findings that no longer occur — delete these entries from the baseline:</p><ul>")
        for st in report.stale:
            at = f' <code>{e(st["file"])}:{e(st.get("line", 0))}</code>' if st.get("file") else ""
            parts.append(f"<li><code>{e(st.get('id', ''))}</code>{at}: {e(st.get('reason', ''))}</li>")
        parts.append("</ul>")
    by_check = report.summary().get("by_check", {})
    if by_check:
        rows = []
        for code, n in by_check.items():
            _fam, c = code_info(report, code)
            rows.append(f"<tr><td><code>{e(code)}</code></td><td>{e(c.name) if c else ''}</td><td>{n}</td>"
                        f"<td>{e(c.summary) if c else ''}</td></tr>")
        parts.append("<h2>By check</h2>")
        parts.append(_table(["Check", "Name", "Findings", "What it finds"], rows, ""))
    parts += [
        "</section>",
        '<section id="graph-panel">',
        f"<h2>Conflict graph ({len(node_set)} rules, {len(g.get('edges', []))} edges)</h2>",
        '<div class="legend">● skill &nbsp; ■ grant handed out at run time &nbsp; ◆ card that grants &nbsp;·&nbsp; '
        'an edge joins rules touching a common resource (dashed: gives) &nbsp;·&nbsp; a coloured ring marks a rule '
        'in a finding' + (' &nbsp;·&nbsp; dashed purple ring: a rule changed in NEW' if view is not None else '')
        + ' &nbsp;·&nbsp; click a finding or a rule to highlight</div>',
        '<div id="selection" aria-live="polite"></div>',
        '<div id="graph-box">', svg(report, cat, worst, {r.get("id"): r.get("change", "changed") for r in
                                    view.changed_rules} if view is not None else None), "</div>",
        "</section>",
        "</main>",
        f"<script>{JS}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
