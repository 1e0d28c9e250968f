"""The conflict graph (networkx): rules that touch the same resource are joined.

Nodes are skills and grant templates (and cards that hand out grants). An edge joins two rules that
touch a common resource — a card type as conversion source or target or ban, a SendMessage group, the
receive decision, the draw count, the game result, invalidation — or a giver and what it gives. The
graph splits the catalogue into independent components (each solver query only sees its component),
names the rules behind a finding, and is exported for the reports.
"""
from __future__ import annotations

import itertools


from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue, Ref
from skillproof.model.interp.core import Env, evaluate


def _memo(cat, key, fn):
    """Per-catalogue memo for the pruning helpers (they enumerate parameter domains)."""
    store = cat.__dict__.setdefault("_graph_memo", {})
    if key not in store:
        store[key] = fn()
    return store[key]


def param_domains(cat: Catalogue, grant_id: str) -> dict:
    return _memo(cat, ("domains", grant_id), lambda: _param_domains(cat, grant_id))


def _param_domains(cat: Catalogue, grant_id: str) -> dict:
    """For each parameter of a grant, the values some gives site can hand out (args, or `where`
    solved by enumeration over small domains; set<card> parameters: every card)."""
    rule = cat.skills[grant_id]
    out = {p: set() for p in rule.params}
    cards = list(cat.cards)
    small = {"card": cards, "bool": [False, True], "colour": list(V.COLOURS), "int": list(range(0, 6))}
    for give in cat.sites(grant_id):
        free = [p for p in rule.params if p not in give.args]
        for p, v in give.args.items():
            out[p].update(v if isinstance(v, list) else [v])
        enum = [p for p in free if rule.params[p] in small]
        for p in free:
            if rule.params[p] not in small:
                out[p].update(cards)
        if not enum:
            continue
        if give.where is None:
            for p in enum:
                out[p].update(small[rule.params[p]])
            continue
        for combo in itertools.product(*[small[rule.params[p]] for p in enum]):
            args = dict(zip(enum, combo))
            env = Env(cat, None, {"self": 0}, {**give.args, **args}, {})
            try:
                ok = evaluate(give.where, env)
            except Exception:          # a where that reads game state: keep the value (over-approximate)
                ok = True
            if ok:
                for p, v in args.items():
                    out[p].add(v)
    return {p: frozenset(v) for p, v in out.items()}


def _cards_of(cat, ref: Ref, domains) -> set:
    if ref.kind == "any":
        return set(cat.cards)
    if ref.kind == "card":
        return {ref.value}
    return set(domains.get(ref.value, cat.cards))


def resources(cat: Catalogue, rid: str) -> dict[str, set]:
    """The resources a rule touches, by role: {resource: {roles}}."""
    r = cat.skills[rid]
    dom = param_domains(cat, rid) if r.is_grant else {}
    res: dict[str, set] = {}

    def touch(name, role):
        res.setdefault(name, set()).add(role)

    if r.convert:
        for c in _cards_of(cat, r.convert.source, dom):
            touch(f"card:{c}", "converts-from")
        for t in r.convert.targets:
            for c in _cards_of(cat, t, dom):
                touch(f"card:{c}", "converts-to")
    if r.ban:
        all_ = r.ban.all
        banned_cards = set()
        if isinstance(r.ban.cards, Ref):
            banned_cards = set(dom.get(r.ban.cards.value, cat.cards))
        else:
            banned_cards = {x.value for x in r.ban.cards}
        if (isinstance(all_, Ref) and True in dom.get(all_.value, {True})) or all_ is True:
            banned_cards = set(cat.cards)
        for c in banned_cards:
            touch(f"card:{c}", "bans")
    if r.receive:
        touch("receive", "receive")
    for g in ("SendMessageDirectionSkill", "SendMessageCanLockSkill", "SendMessageCardSkill"):
        if g in r.closure:
            touch(f"send:{g}", "send")
    if r.draw is not None:
        touch("draw", "draw")
    if r.win or r.result:
        touch("result", "result")
    if "InvalidSkill" in r.closure or any(g.grant in cat.skills and "InvalidSkill" in cat.skills[g.grant].closure
                                          for g in r.gives):
        touch("invalidation", "invalidates")
    return res


def build(cat: Catalogue):
    """The conflict graph of a catalogue (a networkx Graph; networkx is imported on first use)."""
    import networkx as nx
    G = nx.Graph()
    by_res: dict[str, list] = {}
    for rid, r in cat.skills.items():
        G.add_node(rid, kind="grant" if r.is_grant else "skill", name=r.name, file=r.loc.file, line=r.loc.line)
        for res, roles in resources(cat, rid).items():
            by_res.setdefault(res, []).append((rid, roles))
    for cid, c in cat.cards.items():
        if c.gives:
            G.add_node(f"card:{cid}", kind="card", name=c.name, file=c.loc.file, line=c.loc.line)
    for res, members in sorted(by_res.items()):
        for (a, ra), (b, rb) in itertools.combinations(members, 2):
            if res.startswith("card:") and ra == {"bans"} and rb == {"bans"}:
                continue                      # two bans of one card do not interact
            if res.startswith("card:") and ra == {"converts-to"} and rb == {"converts-to"}:
                continue                      # two conversions to one target only meet via a source
            if G.has_edge(a, b):
                G[a][b]["resources"].add(res)
            else:
                G.add_edge(a, b, resources={res})
    for src in list(cat.skills.values()) + list(cat.cards.values()):
        node = src.id if src.id in cat.skills else f"card:{src.id}"
        for g in src.gives:
            if g.grant in cat.skills:
                if G.has_edge(node, g.grant):
                    G[node][g.grant]["resources"].add("gives")
                else:
                    G.add_edge(node, g.grant, resources={"gives"})
    return G


def components(G) -> list[list[str]]:
    """Connected components, each sorted, in a stable order."""
    import networkx as nx
    return sorted((sorted(c) for c in nx.connected_components(G)), key=lambda c: (c[0], len(c)))


def component_of(G, node: str) -> set:
    import networkx as nx
    return nx.node_connected_component(G, node) if node in G else {node}


def export(G) -> dict:
    """A JSON-ready form (stable order) for reports."""
    nodes = [{"id": n, **{k: v for k, v in sorted(G.nodes[n].items())}} for n in sorted(G.nodes)]
    edges = [{"source": a, "target": b, "resources": sorted(G[a][b]["resources"])}
             for a, b in sorted(tuple(sorted(e)) for e in G.edges)]
    return {"nodes": nodes, "edges": edges}


def site_args(cat: Catalogue, give) -> list:
    return _memo(cat, ("site_args", give.giver, give.index), lambda: _site_args(cat, give))


def _site_args(cat: Catalogue, give) -> list:
    """Every parameter assignment a gives site can hand out, over small domains (set<card> parameters
    stay unassigned = any set). Used to prune pairs that cannot interact before asking the solver."""
    rule = cat.skills[give.grant]
    small = {"card": list(cat.cards), "bool": [False, True], "colour": list(V.COLOURS), "int": list(range(0, 6))}
    free = [p for p in rule.params if p not in give.args and rule.params[p] in small]
    out = []
    for combo in itertools.product(*[small[rule.params[p]] for p in free]):
        args = {**give.args, **dict(zip(free, combo))}
        if give.where is not None:
            try:
                if not evaluate(give.where, Env(cat, None, {"self": 0}, args, {})):
                    continue
            except Exception:
                pass
        out.append(args)
    return out


def site_ban_cards(cat: Catalogue, give, include_all: bool = True) -> set:
    """Card types a ban handed out by this site can ban (every card if it may ban all; with
    ``include_all=False`` only bans of specific cards count)."""
    return _memo(cat, ("ban_cards", give.giver, give.index, include_all),
                 lambda: _site_ban_cards(cat, give, include_all))


def _site_ban_cards(cat: Catalogue, give, include_all: bool = True) -> set:
    rule = cat.skills[give.grant]
    if rule.ban is None:
        return set()
    out: set = set()
    for args in site_args(cat, give):
        b = rule.ban
        all_ = args.get(b.all.value, True) if isinstance(b.all, Ref) else b.all
        if all_:
            if include_all:
                return set(cat.cards)
            continue
        if isinstance(b.cards, Ref):
            v = args.get(b.cards.value)
            out |= set(cat.cards) if v is None else set(v)
        else:
            out |= {x.value for x in b.cards}
    return out


def conversion_pairs(cat: Catalogue, rid: str) -> set:
    """(source, target) card pairs a conversion rule can have ('*' = any source)."""
    return _memo(cat, ("conv_pairs", rid), lambda: _conversion_pairs(cat, rid))


def _conversion_pairs(cat: Catalogue, rid: str) -> set:
    r = cat.skills[rid]
    conv = r.convert
    if conv is None:
        return set()
    if not r.is_grant:
        src = {"*"} if conv.source.kind == "any" else {conv.source.value}
        return {(a, t.value) for a in src for t in conv.targets}
    out = set()
    for give in cat.sites(rid):
        for args in site_args(cat, give):
            val = lambda ref: "*" if ref.kind == "any" else (ref.value if ref.kind == "card" else args.get(ref.value))
            s = val(conv.source)
            for t in conv.targets:
                tv = val(t)
                for a in ([s] if s is not None else list(cat.cards)):
                    for b in ([tv] if tv is not None else list(cat.cards)):
                        out.add((a, b))
    return out


def sources_meet(p1: set, p2: set) -> bool:
    s1, s2 = {a for a, _ in p1}, {a for a, _ in p2}
    return bool(s1 and s2) and ("*" in s1 or "*" in s2 or bool(s1 & s2))
