"""A deterministic drawing of the conflict graph, computed in Python (no browser-side layout).

Connected components are laid out one by one with Fruchterman–Reingold (a seeded ``random.Random``, a fixed
number of iterations, nodes and edges in sorted order), pushed apart until labels do not overlap, then
packed in rows, largest first; rules that share no resource with any other go in a grid below. The
same graph gives the same coordinates on every run and under every hash seed.
"""
from __future__ import annotations

import math
import random

SEED = 20261129
NODE_GAP = 76.0          # the least distance between two node centres (room for a label)
ROW_WIDTH = 1000.0
GRID_CELL = (84.0, 48.0)
MARGIN = 40.0


def components(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    adj: dict[str, set] = {n: set() for n in nodes}
    for a, b in edges:
        if a in adj and b in adj and a != b:
            adj[a].add(b)
            adj[b].add(a)
    seen: set = set()
    out = []
    for n in sorted(nodes):
        if n in seen:
            continue
        comp, stack = [], [n]
        seen.add(n)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in sorted(adj[x]):
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        out.append(sorted(comp))
    return sorted(out, key=lambda c: (-len(c), c[0]))


def _fr(comp: list[str], edges: list[tuple[str, str]], seed: int, iterations: int = 300) -> dict:
    """Fruchterman–Reingold in a square of side proportional to sqrt(n); returns centre-0 coordinates."""
    n = len(comp)
    rng = random.Random(seed)
    side = NODE_GAP * math.sqrt(n) * 1.1
    k = side / math.sqrt(n)
    pos = {v: [rng.uniform(-side / 2, side / 2), rng.uniform(-side / 2, side / 2)] for v in comp}
    es = [(a, b) for a, b in edges if a in pos and b in pos and a != b]
    t = side / 8
    for it in range(iterations):
        disp = {v: [0.0, 0.0] for v in comp}
        for i in range(n):
            a = comp[i]
            pa = pos[a]
            for j in range(i + 1, n):
                b = comp[j]
                pb = pos[b]
                dx, dy = pa[0] - pb[0], pa[1] - pb[1]
                d2 = dx * dx + dy * dy
                if d2 < 1e-9:
                    dx, dy, d2 = 0.01 * (i - j), 0.01, 0.0001 + 0.0001 * (i - j) ** 2
                d = math.sqrt(d2)
                f = k * k / d
                disp[a][0] += dx / d * f
                disp[a][1] += dy / d * f
                disp[b][0] -= dx / d * f
                disp[b][1] -= dy / d * f
        for a, b in es:
            pa, pb = pos[a], pos[b]
            dx, dy = pa[0] - pb[0], pa[1] - pb[1]
            d = math.sqrt(dx * dx + dy * dy) or 0.01
            f = d * d / k
            disp[a][0] -= dx / d * f
            disp[a][1] -= dy / d * f
            disp[b][0] += dx / d * f
            disp[b][1] += dy / d * f
        for v in comp:
            dx, dy = disp[v]
            d = math.sqrt(dx * dx + dy * dy)
            if d > 0:
                pos[v][0] += dx / d * min(d, t)
                pos[v][1] += dy / d * min(d, t)
        t = max(side / 200, t * 0.97)
    # compact: scale so that the closest pair sits at about NODE_GAP, then push apart what still overlaps
    dmin = min((math.dist(pos[comp[i]], pos[comp[j]]) for i in range(n) for j in range(i + 1, n)), default=NODE_GAP)
    if dmin > 1e-6:
        s = max(NODE_GAP * 1.05 / dmin, 0.35)
        s = min(s, 1.0)
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
    comps = components(nodes, edges)
    big = [c for c in comps if len(c) > 1]
    single = sorted(c[0] for c in comps if len(c) == 1)
    out: dict[str, tuple[float, float]] = {}
    x, y, row_h = MARGIN, MARGIN, 0.0
    width = 0.0
    for idx, comp in enumerate(big):
        pos = _fr(comp, edges, seed + idx)
        xs = [p[0] for p in pos.values()]
        ys = [p[1] for p in pos.values()]
        w = max(xs) - min(xs) + NODE_GAP
        h = max(ys) - min(ys) + NODE_GAP
        if x > MARGIN and x + w > ROW_WIDTH:
            x, y, row_h = MARGIN, y + row_h, 0.0
        for v, (px, py) in pos.items():
            out[v] = (round(x + (px - min(xs)) + NODE_GAP / 2, 1), round(y + (py - min(ys)) + NODE_GAP / 2, 1))
        x += w
        row_h = max(row_h, h)
        width = max(width, x)
    y += row_h
    if single:
        cw, ch = GRID_CELL
        per_row = max(1, int((max(width, ROW_WIDTH) - MARGIN) // cw))
        y += 20.0 if big else 0.0
        for i, v in enumerate(single):
            r, c = divmod(i, per_row)
            out[v] = (round(MARGIN + c * cw + cw / 2, 1), round(y + r * ch + ch / 2, 1))
        width = max(width, MARGIN + min(len(single), per_row) * cw)
        y += math.ceil(len(single) / per_row) * ch
    return out, round(width + MARGIN, 1), round(y + MARGIN, 1)
