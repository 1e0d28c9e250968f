"""HTML: one self-contained file — no network, no external script, style sheet or font.

A summary (status, counts), a table of contents (sections, and every check with its count), a toolbar that
filters the findings by severity and by check and searches their text (messages, rules, witnesses), the
findings that need action grouped by check (broken [[intent]]s lead) — each finding's witness folded in a
row of its own, across the whole table — designed behaviour (findings an intent documents as intended) in
one line with the rows folded below it, the proved intents as a table of passes, and the conflict graph as inline SVG laid out in Python (``layout.py``: deterministic), scaled to fit
its box, with zoom (wheel, buttons) and pan (drag). Nodes are the rules (circles: skills, squares: grants
handed out at run time, diamonds: cards that grant); edges join rules that touch a common resource (the
tooltip says which). Rules involved in a finding carry a ring in the colour of their worst finding.
Clicking (or hovering) a finding highlights its rules and the edges between them, dims the rest and zooms
the graph to them; clicking a rule selects the findings that involve it. The selection lives in the URL
fragment (``report.html#f-CV001-3a1451036d``), so a link opens the report with that finding selected.
The text is Chinese: the font stack names the CJK fonts of every platform (the CI's browser test fails when
Chinese renders as missing-glyph boxes). Without JavaScript the report still shows everything.
"""
from __future__ import annotations

import html
import re

from skillproof.checks.findings import SEVERITIES, SEVERITY_RANK

from .layout import layout
from .i18n import (code_title, current, family_title, fix as fix_of, is_en, msg, page_text, pick, role as role_word,
                   sev as sev_word, t)
from .util import (accepted_reason, accepted_where, catalogue_paths, change_key, change_rules, change_sides, change_text, change_title,
                   change_witness, changed_name, code_info, diff_view, exit_code, fdict, intended_line, intended_text,
                   lead_with_intents, loc_text, rules_of, stale_text, summary_line, witness_text)

NAME = "html"
DESCRIPTION = "one self-contained HTML page: findings, witnesses and the conflict graph"

_ID_BAD = re.compile(r"[^A-Za-z0-9_:\-]")


def e(s) -> str:
    return html.escape(str(s), quote=True)


def node_dom_id(node: str) -> str:
    return "n-" + _ID_BAD.sub(lambda m: f"_{ord(m.group()):x}_", node)


def finding_dom_id(fid: str) -> str:
    return "f-" + _ID_BAD.sub(lambda m: f"_{ord(m.group()):x}_", fid)


FONTS = ('system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC",'
         '"Source Han Sans CN","PingFang SC","Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei",'
         '"WenQuanYi Zen Hei","Droid Sans Fallback","Noto Sans CJK JP",sans-serif')
MONO = ('ui-monospace,SFMono-Regular,Menlo,Consolas,"Noto Sans Mono CJK SC","Noto Sans CJK SC","Source Han Sans SC",'
        '"PingFang SC","Microsoft YaHei","WenQuanYi Micro Hei",monospace')

CSS = """
:root{--err:#c62828;--warn:#e08a00;--note:#1e6fb8;--ink:#1d2330;--mute:#6b7280;--line:#d9dde4;--bg:#fff;
--hl:#ffd400;--panel:#f6f7f9}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 %FONTS%;color:var(--ink);background:var(--bg)}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:18px 0 8px}
.status{display:inline-block;padding:2px 10px;border-radius:10px;color:#fff;font-weight:600;margin-left:8px}
.status.fail{background:var(--err)}.status.ok{background:#2e7d32}.status.inc{background:var(--warn)}
.badges>span{display:inline-block;margin:4px 8px 0 0;padding:1px 8px;border-radius:8px;background:#fff;
border:1px solid var(--line)}
.meta{color:var(--mute);font-size:12px}
#toolbar{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;
padding:8px 24px;background:#fff;border-bottom:1px solid var(--line)}
#toolbar input[type=search]{font:inherit;padding:3px 8px;min-width:18em;border:1px solid var(--line);border-radius:4px}
#toolbar select{font:inherit;padding:2px 4px}
#toolbar label{white-space:nowrap}
#shown{color:var(--mute);font-size:12px}
#layout{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;padding:8px 24px 24px}
@media (min-width:1200px){#layout{grid-template-columns:13em minmax(0,1.15fr) minmax(0,1fr)}
#toc,#graph-panel{position:sticky;top:52px;align-self:start;max-height:calc(100vh - 60px)}#toc{overflow:auto}}
#toc{font-size:13px}#toc ul{list-style:none;margin:0;padding:0}#toc li{margin:2px 0}
#toc ul ul{padding-left:10px}#toc a{color:var(--ink);text-decoration:none}#toc a:hover{text-decoration:underline}
#toc .n{color:var(--mute)}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{font-size:12px;color:var(--mute);font-weight:600}
tr.group th{font-size:13px;color:var(--ink);background:var(--panel);padding-top:10px}
tr.finding{cursor:pointer}tr.finding:hover{background:#fafbfc}
tr.finding.selected,tr.finding.selected+tr.witness-row{background:#fff7cc}
tr.finding.selected td{border-top:2px solid var(--hl)}
tr.finding.has-witness td{border-bottom:none}
tr.witness-row td{padding-top:0}
.hidden{display:none}
.sev{font-weight:600;white-space:nowrap}.sev.error{color:var(--err)}.sev.warning{color:var(--warn)}
.sev.note{color:var(--note)}
.sev.pass{color:#1a7f37;white-space:nowrap}.designed{color:var(--note)}
.dot{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:5px;background:currentColor}
code{white-space:nowrap;font:12px %MONO%;background:#eef0f3;padding:0 3px;border-radius:3px}
.fid{color:var(--mute);font-size:12px}
.fix{margin-top:3px;font-size:13px}.fix b{color:#2e7d32}
.rules div{margin-bottom:2px}
details pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);padding:6px 8px;margin:4px 0;
border-radius:4px;font:12px/1.6 %MONO%}
#graph-tools{display:flex;gap:6px;align-items:center;margin:4px 0}
#graph-tools button{font:inherit;padding:1px 9px;border:1px solid var(--line);border-radius:4px;background:#fff;cursor:pointer}
#graph-box{height:min(72vh,900px);border:1px solid var(--line);border-radius:6px;background:#fff;overflow:hidden;
cursor:grab;touch-action:none}
#graph-box.dragging{cursor:grabbing}
#graph{display:block;width:100%;height:100%}
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
.group-box{fill:#f6f7f9;stroke:#d9dde4;stroke-width:1}
.group-caption{font-size:12px;fill:var(--mute)}
.legend{font-size:12px;color:var(--mute);margin:6px 0}
#selection{font-size:13px;margin:6px 0;min-height:1.4em}
.empty{color:var(--mute)}
@media (max-width:700px){header,#toolbar{padding-left:12px;padding-right:12px}#layout{padding:8px 12px 16px}
#toolbar input[type=search]{min-width:0;width:100%}
#toolbar label.check{display:flex;gap:6px;align-items:center;width:100%}#toolbar label.check select{flex:1;min-width:0}
table,tbody,tr,td{display:block;width:100%}thead{display:none}tr.group th{display:block}
td{border-bottom:none;padding:2px 4px}tr.finding{border-bottom:1px solid var(--line);padding:4px 0}
tr.witness-row td{padding:0 4px 6px}
code{white-space:normal;overflow-wrap:anywhere}.meta,.badges{overflow-wrap:anywhere}
#graph-box{height:70vh}}
""".replace("%FONTS%", FONTS).replace("%MONO%", MONO)

JS = r"""
(function(){
  var T=%WORDS%;
  var svg=document.getElementById('graph');
  var box=document.getElementById('graph-box');
  var nodes=[].slice.call(document.querySelectorAll('#graph .node'));
  var edges=[].slice.call(document.querySelectorAll('#graph .edge'));
  var rows=[].slice.call(document.querySelectorAll('tr.finding'));
  var info=document.getElementById('selection');
  /* ------------------------------------------------------------ the graph: fit, zoom, pan */
  var full=svg?svg.getAttribute('viewBox').split(' ').map(Number):[0,0,1,1];
  var vb=full.slice();
  var LEGIBLE=%LEGIBLE%;      /* the least scale at which a label is still read (11 px of a 12-unit font) */
  function setVB(v){vb=v;if(svg){svg.setAttribute('viewBox',v.map(function(x){return Math.round(x*10)/10;}).join(' '));}}
  function boxSize(){var r=box?box.getBoundingClientRect():{width:0,height:0};return [Math.max(r.width,1),Math.max(r.height,1)];}
  function legible(v,cx,cy){     /* a view no wider than the box can show at a legible scale, centred on cx, cy */
    var b=boxSize(),w=v[2],h=v[3],r=b[0]/b[1];
    if(w/h<r){w=h*r;}else{h=w/r;}
    var mw=b[0]/LEGIBLE,mh=b[1]/LEGIBLE;
    if(w>mw){w=mw;h=mh;}
    return [cx-w/2,cy-h/2,w,h];
  }
  function start(){   /* the first view: the whole graph when it is legible so, else its top left at a legible scale */
    var v=legible(full,full[0]+full[2]/2,full[1]+full[3]/2);
    if(v[2]<full[2]||v[3]<full[3]){
      var c=(svg.getAttribute('data-start')||'').split(' ').map(Number);
      var x=Math.min(Math.max(full[0],(c[0]||0)-v[2]/2),full[0]+full[2]-v[2]);
      var y=Math.min(Math.max(full[1],(c[1]||0)-v[3]/2),full[1]+full[3]-v[3]);
      v=[Math.max(full[0],x),Math.max(full[1],y),v[2],v[3]];
    }
    setVB(v);
  }
  function zoom(f,cx,cy){
    var w=Math.min(full[2]*4,Math.max(60,vb[2]*f)),h=w*vb[3]/vb[2];
    if(cx===undefined){cx=vb[0]+vb[2]/2;cy=vb[1]+vb[3]/2;}
    setVB([cx-(cx-vb[0])*w/vb[2],cy-(cy-vb[1])*h/vb[3],w,h]);
  }
  function fitTo(ids){
    var xs=[],ys=[];
    nodes.forEach(function(n){if(ids[n.getAttribute('data-node')]){xs.push(+n.getAttribute('data-x'));ys.push(+n.getAttribute('data-y'));}});
    if(!xs.length){start();return;}
    var x0=Math.min.apply(null,xs)-90,x1=Math.max.apply(null,xs)+90,y0=Math.min.apply(null,ys)-60,y1=Math.max.apply(null,ys)+70;
    var w=Math.max(x1-x0,260),h=Math.max(y1-y0,200),cx=(x0+x1)/2,cy=(y0+y1)/2;
    setVB(legible([0,0,w,h],cx,cy));
  }
  function toSvg(ev){var r=svg.getBoundingClientRect(),s=Math.max(vb[2]/r.width,vb[3]/r.height);
    return [vb[0]+(ev.clientX-r.left-(r.width-vb[2]/s)/2)*s,vb[1]+(ev.clientY-r.top-(r.height-vb[3]/s)/2)*s,s];}
  if(svg&&box){
    box.addEventListener('wheel',function(ev){ev.preventDefault();var p=toSvg(ev);zoom(ev.deltaY>0?1.2:1/1.2,p[0],p[1]);},{passive:false});
    var drag=null;
    box.addEventListener('pointerdown',function(ev){if(ev.target.closest&&ev.target.closest('.node')){return;}
      drag=[ev.clientX,ev.clientY,vb.slice(),toSvg(ev)[2]];box.classList.add('dragging');});
    window.addEventListener('pointermove',function(ev){if(!drag){return;}
      setVB([drag[2][0]-(ev.clientX-drag[0])*drag[3],drag[2][1]-(ev.clientY-drag[1])*drag[3],drag[2][2],drag[2][3]]);});
    window.addEventListener('pointerup',function(){drag=null;box.classList.remove('dragging');});
    var b=function(id,fn){var el=document.getElementById(id);if(el){el.addEventListener('click',fn);}};
    b('zoom-in',function(){zoom(1/1.4);});b('zoom-out',function(){zoom(1.4);});
    b('zoom-fit',function(){setVB(full.slice());});
    start();
  }
  /* ------------------------------------------------------------ selection */
  function clear(){
    nodes.forEach(function(n){n.classList.remove('hl');});
    edges.forEach(function(x){x.classList.remove('hl');});
    rows.forEach(function(r){r.classList.remove('selected');});
    if(svg){svg.classList.remove('focus');}
    if(info){info.textContent='';}
  }
  function mark(ids,label,fit){
    var set={};ids.forEach(function(i){set[i]=1;});
    nodes.forEach(function(n){if(set[n.getAttribute('data-node')]){n.classList.add('hl');}});
    edges.forEach(function(x){if(set[x.getAttribute('data-a')]&&set[x.getAttribute('data-b')]){x.classList.add('hl');}});
    if(svg&&ids.length){svg.classList.add('focus');}
    if(fit&&ids.length){fitTo(set);}
    if(info){info.textContent=label;}
  }
  function show(target,fit){
    clear();
    if(!target){return;}
    var el=document.getElementById(target);
    if(!el){return;}
    if(el.classList.contains('finding')){
      el.classList.add('selected');
      var ids=(el.getAttribute('data-nodes')||'').split(' ').filter(Boolean);
      mark(ids,T.selected+el.getAttribute('data-label')+(ids.length?'':T.noRule),fit);
    }else if(el.classList.contains('node')){
      var id=el.getAttribute('data-node'),n=0;
      rows.forEach(function(r){
        if((' '+(r.getAttribute('data-nodes')||'')+' ').indexOf(' '+id+' ')>=0){r.classList.add('selected');n++;}
      });
      mark([id],T.selected+el.getAttribute('data-label')+T.inFindings.replace('{n}',n).replace('{s}',n===1?'':'s'),false);
    }
  }
  function fromHash(){show(decodeURIComponent(location.hash.slice(1)),true);}
  function select(id){   /* the selection is kept in the URL fragment, without jumping the page */
    if(history.replaceState){history.replaceState(null,'','#'+id);}else{location.hash=id;}
    show(id,true);
  }
  rows.forEach(function(r){
    r.addEventListener('click',function(ev){
      if(ev.target.closest&&(ev.target.closest('details')||ev.target.closest('a'))){return;}
      select(r.id);
    });
    r.addEventListener('mouseenter',function(){show(r.id,false);});
    r.addEventListener('mouseleave',function(){var h=decodeURIComponent(location.hash.slice(1));show(h,false);});
  });
  nodes.forEach(function(n){
    n.addEventListener('click',function(){
      select(n.id);
      var first=document.querySelector('tr.finding.selected');
      if(first&&first.scrollIntoView){first.scrollIntoView({block:'nearest'});}
    });
  });
  /* ------------------------------------------------------------ filters and search */
  var q=document.getElementById('search'),chk=document.getElementById('check-filter');
  var sevs=[].slice.call(document.querySelectorAll('input.sev-filter'));
  var shown=document.getElementById('shown');
  function filter(){
    var text=(q&&q.value||'').trim().toLowerCase(),code=chk?chk.value:'',on={};
    sevs.forEach(function(s){on[s.value]=s.checked;});
    var n=0;
    rows.forEach(function(r){
      var w=document.getElementById('w-'+r.id);
      var hay=(r.textContent+' '+(w?w.textContent:'')).toLowerCase();
      var ok=(!r.hasAttribute('data-sev')||on[r.getAttribute('data-sev')]!==false)&&
             (!code||!r.hasAttribute('data-check')||r.getAttribute('data-check')===code)&&(!text||hay.indexOf(text)>=0);
      r.classList.toggle('hidden',!ok);if(w){w.classList.toggle('hidden',!ok);}
      if(ok&&r.hasAttribute('data-counted')){n++;}
    });
    [].slice.call(document.querySelectorAll('tr.group')).forEach(function(g){
      var any=false,x=g.nextElementSibling;
      while(x&&!x.classList.contains('group')){if(x.classList.contains('finding')&&!x.classList.contains('hidden')){any=true;}x=x.nextElementSibling;}
      g.classList.toggle('hidden',!any);
    });
    if(shown){shown.textContent=shown.getAttribute('data-fmt').replace('{n}',n).replace('{t}',shown.getAttribute('data-total'));}
  }
  if(q){q.addEventListener('input',filter);}
  if(chk){chk.addEventListener('change',filter);}
  sevs.forEach(function(s){s.addEventListener('change',filter);});
  window.addEventListener('hashchange',fromHash);
  filter();
  fromHash();
  document.documentElement.setAttribute('data-ready','1');
})();
"""


LABEL_FONT = 12          # the graph's labels, in svg units (the CSS below)
LEGIBLE_PX = 12          # the least size a label is shown at, in CSS pixels (11 at the least, with rounding)


def _script() -> str:
    """The page's script, with its words in the run's language."""
    import json
    words = {"selected": pick("已选：", "Selected: "), "noRule": pick("（不在冲突图中）", " (no rule of the graph)"),
             "inFindings": pick("——涉及 {n} 个问题", " — in {n} finding{s}")}
    return (JS.replace("%WORDS%", json.dumps(words, ensure_ascii=False, sort_keys=True))
            .replace("%LEGIBLE%", f"{LEGIBLE_PX / LABEL_FONT:.4f}"))


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


RESOURCE_WORD = {"receive": ("是否接收情报", "the receive decision"), "draw": ("摸牌数", "the draw count"),
                 "result": ("胜负结算", "the game result"), "invalidation": ("无效", "invalidation"),
                 "gives": ("给出", "gives")}


def _resource_text(res: str, cat) -> str:
    """A resource two rules share (checks.graph.resources), for people in the run's language."""
    if res.startswith("card:"):
        cid = res[5:]
        name = cat.cards[cid].name if cat is not None and cid in cat.cards else cid
        return pick(f"牌 {name}", f"card {name}")
    if res.startswith("send:"):
        from .common import GROUP_EN, GROUP_ZH
        g = res[5:]
        return pick(f"传出规则：{GROUP_ZH.get(g, g)}", f"send rule: {GROUP_EN.get(g, g)}")
    zh, en = RESOURCE_WORD.get(res, (res, res))
    return pick(zh, en)


def _components_by_size(pos: dict, edges) -> list:
    from .layout import components
    return [c for c in components(sorted(pos), [(a, b) for a, b, _ in edges]) if len(c) > 1]


KIND_WORD = {"skill": ("技能", "skill"), "grant": ("运行时给出的技能", "grant handed out at run time"),
             "card": ("给出技能的牌", "card that grants")}


def _groups(nodes: dict, cat) -> tuple[dict, dict]:
    """The group of each rule that shares no resource (the layout draws those in captioned boxes): the file that
    defines it; a file's caption is the characters it defines (the shipped catalogue has one file a
    character), else its name."""
    group_of = {nid: str(n.get("file") or "") for nid, n in nodes.items()}
    captions: dict = {}
    for f in set(group_of.values()):
        names = []
        if cat is not None:
            names = [c.name for c in cat.characters.values() if c.loc is not None and str(c.loc.file) == f]
        captions[f] = pick("、", ", ").join(names) if names else (f.replace(chr(92), "/").rsplit("/", 1)[-1] or
                                                               pick("其他", "other"))
    return group_of, captions


def svg(report, cat, worst: dict, changed: dict | None = None) -> str:
    g = _graph_of(report, cat)
    nodes = {n["id"]: n for n in g.get("nodes", [])}
    edges = [(x["source"], x["target"], x.get("resources", [])) for x in g.get("edges", [])]
    group_of, captions = _groups(nodes, cat)
    drawing = layout(sorted(nodes), [(a, b) for a, b, _ in edges], group_of=group_of, captions=captions,
                     labels={nid: n.get("name", nid) for nid, n in nodes.items()})
    pos, W, H = drawing
    first = max(_components_by_size(pos, edges), key=len, default=list(pos))      # the first view centres on it
    sx = round(sum(pos[v][0] for v in first) / len(first), 1) if first else round(W / 2, 1)
    sy = round(sum(pos[v][1] for v in first) / len(first), 1) if first else round(H / 2, 1)
    out = [f'<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" data-start="{sx} {sy}" '
           f'preserveAspectRatio="xMidYMid meet" '
           f'role="img" aria-label="{pick(f"冲突图：{len(nodes)} 条规则，{len(edges)} 条边", f"conflict graph: {len(nodes)} rules, {len(edges)} edges")}">']
    if drawing.groups:
        n_single = sum(len(g.nodes) for g in drawing.groups)
        out.append(f'<g class="groups"><title>{e(pick(f"与其他规则没有共同资源的 {n_single} 条规则，按定义它们的文件分组", f"{n_single} rules that share no resource with another, grouped by the file that defines them"))}</title>')
        for g in drawing.groups:
            out.append(f'<rect class="group-box" x="{g.x}" y="{g.y}" width="{g.w}" height="{g.h}" rx="6"/>'
                       f'<text class="group-caption" x="{round(g.x + 8, 1)}" y="{round(g.y + 15, 1)}">{e(g.caption)}</text>')
        out.append("</g>")
    out.append('<g class="edges">')
    for a, b, res in edges:
        if a not in pos or b not in pos:
            continue
        (x1, y1), (x2, y2) = pos[a], pos[b]
        cls = "edge gives" if list(res) == ["gives"] else "edge"
        tip = pick("，", ", ").join(_resource_text(r, cat) for r in sorted(res))
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
        label = name
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
        out.append(f'<g class="{cls}" id="{node_dom_id(nid)}" data-node="{e(nid)}" data-label="{e(label)}" '
                   f'data-x="{x}" data-y="{y}">'
                   f'<title>{e(label)} {e(pick(*KIND_WORD.get(kind, (kind, kind))))}{" — " + e(where) if where else ""}'
                   f'{e(pick("——最严重的问题：", " — worst finding: ")) + e(sev_word(sev)) if sev else ""}'
                   f'{e(pick(f"——新版中{change_text(dict(change=chg))}", f" — {chg} in NEW")) if chg else ""}</title>'
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
                   + (f' <span class="fid">{e(role_word(r))}</span>' if r.get("role") else "") + "</div>"
                   for r in rules) or "—"



def _family_names(report) -> list[str]:
    """The families that ran, by their titles in the run's language (their ids in English)."""
    if is_en():
        return list(report.families)
    from skillproof.checks.registry import families
    known = {f.name: f for f in families()}
    return [family_title(n, known.get(n)) for n in report.families]


def _head() -> list[str]:
    return [pick("级别", "Severity"), pick("检查", "Check"), pick("问题", "Finding"), pick("规则", "Rules")]


def _witness_row(dom_id: str, lines: list[str], label: str = "") -> str:
    """A finding's witness, folded, in a row of its own across the whole table."""
    if not lines:
        return ""
    label = label or pick("例证", "witness")
    return (f'<tr class="witness-row" id="w-{dom_id}"><td colspan="4"><details><summary>{e(label)}</summary>'
            f'<pre>{e(chr(10).join(lines))}</pre></details></td></tr>')


def _finding_row(report, fd, cat, node_set, extra_cls="", extra_cell=None) -> str:
    """A finding's row (severity, check, message with fix hint and id, rules) and its witness row."""
    sev = fd.get("severity", "")
    _fam, c = code_info(report, fd.get("check", ""))
    ids = _node_ids_for(fd, node_set)
    label = f"{fd.get('check')} {fd.get('id')}"
    tag = t("inconclusive") if fd.get("inconclusive") else sev_word(sev)
    fix = f'<div class="fix"><b>{e(t("fix"))}</b>{e(fix_of(fd))}</div>' if fix_of(fd) else ""
    extra = f'<div class="fix">{extra_cell}</div>' if extra_cell is not None else ""
    cells = [f'<td class="sev {e(sev)}"><span class="dot"></span>{e(tag)}</td>',
             f'<td><code>{e(fd.get("check", ""))}</code><br><span class="fid">{e(pick(code_title(fd.get("check", ""), c), c.name)) if c else ""}</span></td>',
             f'<td>{e(msg(fd))}{fix}{extra}<div class="fid">{e(fd.get("id", ""))}</div></td>',
             f'<td class="rules">{_rules_html(rules_of(fd))}</td>']
    dom = finding_dom_id(fd.get("id", ""))
    wit = _witness_row(dom, witness_text(fd, cat))
    counted = ' data-counted="1"' if extra_cls.strip() in ("", "new") else ""     # in the counter of shown findings
    return (f'<tr class="finding sev-{e(sev)}{extra_cls}{" has-witness" if wit else ""}" id="{dom}"{counted} '
            f'data-sev="{e(sev)}" data-check="{e(fd.get("check", ""))}" '
            f'data-nodes="{e(" ".join(ids))}" data-label="{e(label)}" title="{e(code_title(fd.get("check", ""), c)) if c else ""}">'
            + "".join(cells) + "</tr>" + wit)


def _grouped(report, fds, cat, node_set, extra_cls="", prefix="c") -> tuple[list[str], list[tuple]]:
    """Rows grouped by (severity, check) under a header row each; and [(anchor, code, name, count, severity)]."""
    rows, groups = [], []
    i = 0
    while i < len(fds):
        key = (fds[i].get("severity", ""), fds[i].get("check", ""))
        j = i
        while j < len(fds) and (fds[j].get("severity", ""), fds[j].get("check", "")) == key:
            j += 1
        _fam, c = code_info(report, key[1])
        anchor = f"{prefix}-{key[1]}-{key[0]}"
        name = (c.name if is_en() else code_title(key[1], c)) if c else ""
        head = f"{e(name)} — {e(code_title(key[1], c))}" if c and is_en() else e(name)
        rows.append(f'<tr class="group" id="{e(anchor)}"><th colspan="4"><span class="sev {e(key[0])}">'
                    f'<span class="dot"></span>{e(sev_word(key[0]))}</span> <code>{e(key[1])}</code> {head} '
                    f'({j - i})</th></tr>')
        rows += [_finding_row(report, fd, cat, node_set, extra_cls) for fd in fds[i:j]]
        groups.append((anchor, key[1], name, j - i, key[0]))
        i = j
    return rows, groups


def _change_row(ch, cat, node_set, cls: str) -> str:
    """A table row of a `diff` change (a changed decision, or a situation possible in one version only)."""
    old, new = change_sides(ch, cat)
    title = change_title(ch, cat)
    ids = _node_ids_for({"rules": change_rules(ch)}, node_set)
    dom = finding_dom_id(change_key(ch))
    return (f'<tr class="finding {cls}" id="{dom}" data-nodes="{e(" ".join(ids))}" '
            f'data-label="{e(title)}"><td>{e(title)}</td><td>{e(old) or "—"}</td><td>{e(new) or "—"}</td>'
            f'<td class="rules">{_rules_html(change_rules(ch))}</td></tr>'
            + _witness_row(dom, change_witness(ch, cat)))


def _table(head: list[str], rows: list[str], empty: str) -> str:
    if not rows:
        return f'<p class="empty">{e(empty)}</p>'
    return ("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>\n"
            + "\n".join(rows) + "\n</tbody></table>")


def _folded(anchor: str, title: str, rows: list[str]) -> list[str]:
    """A section of finding rows folded under its title (accepted findings, designed behaviour)."""
    return [f'<details id="{e(anchor)}"><summary><h2 style="display:inline">{e(title)} ({len(rows)})</h2></summary>',
            _table(_head(), rows, ""), "</details>"]


def _toc(sections: list[tuple[str, str, list]]) -> str:
    """The table of contents: [(anchor, title, [(anchor, code, name, count, severity)])]."""
    out = [f'<nav id="toc" aria-label="{pick("目录", "contents")}"><h2>{pick("目录", "Contents")}</h2><ul>']
    for anchor, title, groups in sections:
        out.append(f'<li><a href="#{e(anchor)}">{e(title)}</a>')
        if groups:
            out.append("<ul>")
            out += [f'<li><a href="#{e(a)}"><span class="sev {e(s)}"><span class="dot"></span></span>'
                    f'<code>{e(code)}</code> {e(name)} <span class="n">({n})</span></a></li>'
                    for a, code, name, n, s in groups]
            out.append("</ul>")
        out.append("</li>")
    out.append("</ul></nav>")
    return "".join(out)


def _toolbar(report, fds) -> str:
    cnt = {s: sum(1 for fd in fds if fd.get("severity") == s) for s in SEVERITIES}
    codes = sorted({fd.get("check", "") for fd in fds})
    opts = "".join(f'<option value="{e(c)}">{e(c)} {e(pick(code_title(c, code_info(report, c)[1]), code_info(report, c)[1].name)) if code_info(report, c)[1] else ""}'
                   f' ({sum(1 for fd in fds if fd.get("check") == c)})</option>' for c in codes)
    sev = "".join(f'<label><input type="checkbox" class="sev-filter" value="{s}" checked> '
                  f'<span class="sev {s}"><span class="dot"></span>{sev_word(s)}</span> ({cnt[s]})</label>' for s in SEVERITIES)
    return ('<div id="toolbar" role="search">'
            f'<input type="search" id="search" placeholder="{pick("搜索：技能、角色、牌、编号…", "search: skill, character, card, id…")}" '
            f'aria-label="{pick("搜索问题", "search the findings")}">'
            f'{sev}<label class="check">{t("check")} <select id="check-filter"><option value="">{pick("全部", "all")}</option>{opts}</select></label>'
            f'<span id="shown" data-total="{len(fds)}" data-fmt="{pick("显示 {n} / {t} 个问题", "{n} of {t} findings shown")}">{pick(f"显示 {len(fds)} / {len(fds)} 个问题", f"{len(fds)} of {len(fds)} findings shown")}</span></div>')


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
    status = (("fail", pick("未通过", "failing")) if rc == 1 else
              (("inc", pick("无法判定", "inconclusive")) if rc == 3 else ("ok", pick("通过", "passing"))))
    cnt = report.counts()
    badges = "".join(f'<span class="sev {s}"><span class="dot"></span>'
                     + pick(f"{sev_word(s)} {cnt[s]}", f'{cnt[s]} {s}{"s" if cnt[s] != 1 else ""}') + '</span>'
                     for s in SEVERITIES)
    if report.inconclusive:
        badges += f"<span>{len(report.inconclusive)} {t('inconclusive')}</span>"
    if report.suppressed:
        badges += f"<span>{len(report.suppressed)} {t('accepted')}</span>"
    if report.stale:
        n_st = len(report.stale)
        badges += f"<span>{pick(f'{n_st} 条过时的忽略', f'{n_st} stale suppression' + ('s' if n_st != 1 else ''))}</span>"
    if view is not None:
        n_dec, n_pos = len(view.decisions), len(view.possible)
        allowed_b = pick("（已允许）", " (allowed)") if view.changes and view.allow_changes else ""
        badges += ("<span>" + pick(f"{n_dec} 个判定改变", f"{n_dec} changed decision{'s' if n_dec != 1 else ''}")
                   + (pick(f"，{n_pos} 个局面只在一个版本中可能", f", {n_pos} possible in one version only") if n_pos else "")
                   + f"{allowed_b}</span><span>" + pick(f"{len(view.resolved)} 个已解决", f"{len(view.resolved)} resolved")
                   + "</span>")
    body: list[str] = []
    toc: list[tuple] = []
    if view is not None:
        if view.old_files or view.new_files:
            body.append(f'<p class="meta">{t("OLD")}: ' + ", ".join(f"<code>{e(f)}</code>" for f in view.old_files)
                        + f"<br>{t('NEW')}: " + ", ".join(f"<code>{e(f)}</code>" for f in view.new_files) + "</p>")
        if view.changed_rules:
            body.append(f"<p>{pick('改动的规则：', 'Rules changed: ')}" + e(pick("，", ", ").join(
                pick(f"{changed_name(r)}（{change_text(r)}）", f"{changed_name(r)} ({change_text(r)})")
                for r in view.changed_rules)) + "</p>")
        allowed = pick("——--allow-changes 允许", " — allowed by --allow-changes") if view.changes and view.allow_changes else ""
        rows = [_change_row(ch, cat, node_set, "decision") for ch in view.decisions]
        dc = pick("改变的判定", "Decisions changed")
        body.append(f'<h2 id="decisions">{dc} ({len(view.decisions)}){e(allowed)}</h2>')
        body.append(_table([pick("判定", "Decision"), t("OLD"), t("NEW"), pick("规则", "Rules")], rows,
                           pick("没有判定改变。", "No decision changed.")))
        toc.append(("decisions", f"{dc} ({len(view.decisions)})", []))
        if view.possible:
            rows = [_change_row(ch, cat, node_set, "decision possible") for ch in view.possible]
            body.append(f'<h2 id="possible">{pick("只在一个版本中可能的局面", "Situations possible in one version only")} '
                        f'({len(view.possible)}){e(allowed)}</h2>')
            body.append(_table([pick("局面", "Situation"), t("OLD"), t("NEW"), pick("规则", "Rules")], rows, ""))
            toc.append(("possible", f"{pick('只在一个版本中可能', 'Possible in one version only')} ({len(view.possible)})", []))
        if not view.new_are_findings:
            rows, groups = _grouped(report, view.new, cat, node_set, " new", "n")
            body.append(f'<h2 id="new">{pick("新问题", "New findings")} ({len(view.new)})</h2>')
            body.append(_table(_head(), rows, pick("无。", "None.")))
            toc.append(("new", f"{pick('新问题', 'New findings')} ({len(view.new)})", groups))
    ftitle = pick("新问题", "New findings") if view is not None and view.new_are_findings else pick("问题", "Findings")
    shown = [fdict(f) for f in lead_with_intents(report.findings if report.show_intended else report.actionable)]
    rows, groups = _grouped(report, shown, cat, node_set)
    body.append(f'<h2 id="findings">{ftitle} ({len(shown)})</h2>')
    body.append(_table(_head(), rows, pick("没有问题。", "No findings.")))
    toc.append(("findings", f"{ftitle} ({len(shown)})", groups))
    line = intended_line(report)
    if line:
        body.append(f'<p id="designed" class="designed"><span class="sev note"><span class="dot"></span></span> {e(line)}</p>')
        if not report.show_intended:
            body += _folded("intended", pick("设计如此", "Designed behaviour"),
                            [_finding_row(report, fd, cat, node_set, " intended", e(intended_text(fd)))
                             for fd in (fdict(f) for f in report.intended)])
        toc.append(("designed", f"{pick('设计如此', 'Designed behaviour')} ({len(report.intended)})", []))
    if report.passes:
        rows = [f'<tr class="pass"><td class="sev pass">✓ {pick("成立", "holds")}</td><td><code>{e(p.get("intent", ""))}</code></td>'
                f'<td>{e(p.get("text") or p.get("claim", ""))}<div class="fid">{e(p.get("claim", ""))}</div></td>'
                f'<td class="rules">{e(p.get("source", ""))}<br><code>{e(str(p.get("file", "")))}:{e(str(p.get("line", "")))}'
                f'</code></td></tr>' for p in report.passes]
        body.append(f'<h2 id="intents">{pick("已证明的意图", "Proved intents")} ({len(rows)})</h2>')
        body.append(pick("<p>规则遵守的规则书承诺（每条都在搜索范围内证明）。</p>",
                         "<p>The rule book's promises the rules keep (each proved within the search bounds).</p>"))
        body.append(_table([pick("结果", "Result"), pick("意图", "Intent"), pick("承诺", "Promise"), pick("出处", "Source")],
                           rows, ""))
        toc.append(("intents", f"{pick('已证明的意图', 'Proved intents')} ({len(rows)})", []))
    if view is not None:
        rows, _ = _grouped(report, view.resolved, None, node_set, " resolved", "r")
        body.append(f'<h2 id="resolved">{pick("已解决的问题", "Resolved findings")} ({len(view.resolved)})</h2>')
        body.append(_table(_head(), rows, pick("无。", "None.")))
        toc.append(("resolved", f"{pick('已解决的问题', 'Resolved findings')} ({len(view.resolved)})", []))
    if report.suppressed:
        body += _folded("accepted", pick("已接受", "Accepted"),
                        [_finding_row(report, fdict(f), cat, node_set, " suppressed",
                                      pick(f"已接受（{e(accepted_where(report, fdict(f).get('id', '')))}）：{e(accepted_reason(report, fdict(f).get('id', ''), reason))}",
                                           f"accepted {e(accepted_where(report, fdict(f).get('id', '')))}: {e(accepted_reason(report, fdict(f).get('id', ''), reason))}"))
                         for f, reason in report.suppressed])
        toc.append(("accepted", f"{pick('已接受', 'Accepted')} ({len(report.suppressed)})", []))
    if report.stale:
        body.append(f'<h2 id="stale">{pick("过时的忽略", "Stale suppressions")} ({len(report.stale)})</h2>')
        body.append(pick("<p>接受的问题已不再出现——删掉这些基线条目或注释：</p><ul>",
                         "<p>Accepted findings that no longer occur — delete these baseline entries or comments:</p><ul>"))
        body += [f"<li>{e(stale_text(st))}</li>" for st in report.stale]
        body.append("</ul>")
        toc.append(("stale", f"{pick('过时的忽略', 'Stale suppressions')} ({len(report.stale)})", []))
    by_check = report.summary().get("by_check", {})
    if by_check:
        rows = []
        for code, n in by_check.items():
            _fam, c = code_info(report, code)
            rows.append(f"<tr><td><code>{e(code)}</code></td><td>{e(pick(code_title(code, c), c.name)) if c else ''}</td>"
                        f"<td>{n}</td><td>{e(page_text(c, 'summary')) if c else ''}</td></tr>")
        body.append(f'<h2 id="by-check">{pick("按检查", "By check")}</h2>')
        body.append(_table([t("check"), pick("名称", "Name"), pick("问题数", "Findings"), pick("查找什么", "What it finds")],
                           rows, ""))
        toc.append(("by-check", pick("按检查", "By check"), []))
    toc.append(("graph-panel", pick(f"冲突图（{len(node_set)} 条规则）", f"Conflict graph ({len(node_set)} rules)"), []))
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{"en" if is_en() else "zh-Hans"}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{e(report.title)} — {e(status[1])}</title>",
        f"<style>{CSS}</style></head><body>",
        "<header>",
        f'<h1>{e(report.title)}<span class="status {status[0]}">{e(status[1])}</span></h1>',
        f'<div class="badges">{badges}</div>',
        f'<div class="meta">{e(summary_line(report))}</div>',
        f'<div class="meta">skillproof {e(report.tool_version)} · {t("catalogue")}: '
        + ", ".join(f"<code>{e(f)}</code>" for f in catalogue_paths(report.catalogue_files)[0])
        + e(catalogue_paths(report.catalogue_files)[1])
        + f" · {pick('运行的检查族：', 'checks run: ')}{e(pick('、', ', ').join(_family_names(report)))}</div>",
        "</header>",
        _toolbar(report, shown + extra_new),
        '<div id="layout">',
        _toc(toc),
        '<main id="findings-panel">',
        *body,
        "</main>",
        '<section id="graph-panel">',
        pick(f"<h2>冲突图（{len(node_set)} 条规则，{len(g.get('edges', []))} 条边）</h2>",
             f"<h2>Conflict graph ({len(node_set)} rules, {len(g.get('edges', []))} edges)</h2>"),
        pick('<div class="legend">● 技能 &nbsp; ■ 运行时给出的技能 &nbsp; ◆ 给出技能的牌 &nbsp;·&nbsp; '
             '边连接涉及同一资源的规则（虚线：给出） &nbsp;·&nbsp; 彩色圆环标出问题中的规则'
             + (' &nbsp;·&nbsp; 紫色虚线圆环：新版改动的规则' if view is not None else '')
             + ' &nbsp;·&nbsp; 点击问题或规则以高亮；滚轮缩放，拖动平移</div>',
             '<div class="legend">● skill &nbsp; ■ grant handed out at run time &nbsp; ◆ card that grants &nbsp;·&nbsp; '
             'an edge joins rules touching a common resource (dashed: gives) &nbsp;·&nbsp; a coloured ring marks a rule '
             'in a finding' + (' &nbsp;·&nbsp; dashed purple ring: a rule changed in NEW' if view is not None else '')
             + ' &nbsp;·&nbsp; click a finding or a rule to highlight; wheel to zoom, drag to pan</div>'),
        f'<div id="graph-tools"><button type="button" id="zoom-in" title="{pick("放大", "zoom in")}">+</button>'
        f'<button type="button" id="zoom-out" title="{pick("缩小", "zoom out")}">−</button>'
        f'<button type="button" id="zoom-fit" title="{pick("整张图", "the whole graph")}">{pick("全图", "fit")}</button>'
        '<span id="selection" aria-live="polite"></span></div>',
        '<div id="graph-box">', svg(report, cat, worst, {r.get("id"): r.get("change", "changed") for r in
                                    view.changed_rules} if view is not None else None), "</div>",
        "</section>",
        "</div>",
        f"<script>{_script()}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
