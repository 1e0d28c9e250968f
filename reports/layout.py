"""A deterministic drawing of the conflict graph, computed in Python (no browser-side layout).

networkx does the graph work: ``connected_components`` splits the graph, ``spring_layout`` (Fruchterman–
Reingold, seeded, a fixed number of iterations, nodes and edges given in sorted order) places each
component. What no library does is kept here: scaling a component so that its labels have room and pushing
apart nodes whose labels would still overlap, then packing the components in rows, largest first, to a
width chosen so the whole drawing is about as wide as it is tall (it is shown scaled to fit its box);
rules that share no resource with any other go in a grid below. The same graph gives the same coordinates
on every run and under every hash seed.
"""
from __future__ import annotations

import math

import networkx as nx

SEED = 20261129
NODE_GAP = 76.0          # the least distance between two node centres (room for a label)
GRID_CELL = (84.0, 48.0)
MARGIN = 40.0
ASPECT = 1.4             # width / height the packing aims at
ITERATIONS = 200


def _graph(nodes, edges) -> nx.Graph:
    """An undirected graph with nodes and edges inserted in sorted order (so layouts are reproducible)."""
    known = set(nodes)
    G = nx.Graph()
    G.add_nodes_from(sorted(known))
    G.add_edges_from(sorted({tuple(sorted((a, b))) for a, b in edges if a in known and b in known and a != b}))
    return G


def components(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    """The connected components, each sorted, largest first (ties by first node)."""
    comps = [sorted(c) for c in nx.connected_components(_graph(nodes, edges))]
    return sorted(comps, key=lambda c: (-len(c), c[0]))


def _place(G: nx.Graph, comp: list[str], seed: int) -> dict:
    """One component: networkx's seeded spring layout, scaled so the closest pair sits about NODE_GAP apart,
    then labels pushed apart; centre-0 coordinates."""
    H = _graph(comp, G.subgraph(comp).edges())
    n = len(comp)
    pos = {v: [float(x), float(y)] for v, (x, y) in
           nx.spring_layout(H, seed=seed, iterations=ITERATIONS, scale=NODE_GAP * math.sqrt(n) * 0.6).items()}
    dmin = min((math.dist(pos[comp[i]], pos[comp[j]]) for i in range(n) for j in range(i + 1, n)),
               default=NODE_GAP)
    if dmin > 1e-6:
        s = min(max(NODE_GAP * 1.05 / dmin, 0.35), 1.0)
        for v in comp:
            pos[v][0] *= s
            pos[v][1] *= s
    _separate(comp, pos)
    cx = sum(p[0] for p in pos.values()) / n
    cy = sum(p[1] for p in pos.values()) / n
    return {v: (pos[v][0] - cx, pos[v][1] - cy) for v in comp}


def _separate(comp, pos, rounds: int = 60):
    """Push apart nodes closer than NODE_GAP (labels need the room)."""
    for _ in range(rounds):
        moved = False
        for i in range(len(comp)):
            for j in range(i + 1, len(comp)):
                a, b = pos[comp[i]], pos[comp[j]]
                dx, dy = b[0] - a[0], b[1] - a[1]
                d = math.sqrt(dx * dx + dy * dy)
                if d < NODE_GAP:
                    if d < 1e-6:
                        dx, dy, d = 1.0, 0.0, 1.0
                    push = (NODE_GAP - d) / 2 + 0.5
                    a[0] -= dx / d * push
                    a[1] -= dy / d * push
                    b[0] += dx / d * push
                    b[1] += dy / d * push
                    moved = True
        if not moved:
            return


def layout(nodes: list[str], edges: list[tuple[str, str]], seed: int = SEED) -> tuple[dict, float, float]:
    """Coordinates {node: (x, y)} (rounded to 0.1) and the drawing's width and height."""
    G = _graph(nodes, edges)
    comps = components(nodes, edges)
    big = [c for c in comps if len(c) > 1]
    single = sorted(c[0] for c in comps if len(c) == 1)
    placed = []
    for idx, comp in enumerate(big):
        pos = _place(G, comp, seed + idx)
        xs = [p[0] for p in pos.values()]
        ys = [p[1] for p in pos.values()]
        placed.append((pos, min(xs), min(ys), max(xs) - min(xs) + NODE_GAP, max(ys) - min(ys) + NODE_GAP))
    cw, ch = GRID_CELL
    area = sum(w * h for *_, w, h in placed) + len(single) * cw * ch
    row_width = max([math.sqrt(area * ASPECT)] + [w for *_, w, _h in placed] + [cw * 4])
    out: dict[str, tuple[float, float]] = {}
    x, y, row_h = MARGIN, MARGIN, 0.0
    width = 0.0
    for pos, x0, y0, w, h in placed:
        if x > MARGIN and x + w > MARGIN + row_width:
            x, y, row_h = MARGIN, y + row_h, 0.0
        for v, (px, py) in pos.items():
            out[v] = (round(x + (px - x0) + NODE_GAP / 2, 1), round(y + (py - y0) + NODE_GAP / 2, 1))
        x += w
        row_h = max(row_h, h)
        width = max(width, x)
    y += row_h
    if single:
        per_row = max(1, int(max(width - MARGIN, row_width) // cw))
        y += 20.0 if big else 0.0
        for i, v in enumerate(single):
            r, c = divmod(i, per_row)
            out[v] = (round(MARGIN + c * cw + cw / 2, 1), round(y + r * ch + ch / 2, 1))
        width = max(width, MARGIN + min(len(single), per_row) * cw)
        y += math.ceil(len(single) / per_row) * ch
    return out, round(width + MARGIN, 1), round(y + MARGIN, 1)
