"""A deterministic drawing of the conflict graph, computed in Python (no browser-side layout, no numpy).

Each connected component is placed by a force-directed layout of our own (Fruchterman–Reingold: edges pull,
every pair of nodes pushes, a cooling step; a spatial grid keeps the pushing linear for large components),
started from a seeded spiral so the same graph gives the same coordinates on every run and under every hash
seed. Then a component is scaled so its closest pair sits about NODE_GAP apart (room for a label) and nodes
whose labels would still overlap are pushed apart. The components are packed in rows, largest first, to a
width chosen so the drawing is about as wide as it is tall. Rules that share no resource with any other are
not scattered in a grid: they are drawn in *groups* (``group_of``: for the report, the catalogue file that
defines them, i.e. a character and its skills), each group a captioned box with its rules in a row, the
boxes packed in rows below the components.

Only ``math`` and ``random`` (seeded) are used: the graph is small (a hundred rules for the real game) and
the layout takes milliseconds; a catalogue ten times larger takes well under a second.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

SEED = 20261129
NODE_GAP = 76.0          # the least distance between two node centres (room for a label)
GRID_CELL = (84.0, 48.0)  # a rule's cell in a group of unconnected rules (width, height)
CAPTION_H = 22.0         # a group's caption line
GROUP_PAD = 10.0         # inside a group's box
GROUP_GAP = 14.0         # between two group boxes
GROUP_COLUMNS = 6        # rules per row inside one group
MARGIN = 40.0
ASPECT = 1.4             # width / height the packing aims at
ITERATIONS = 240
FONT = 12.0              # the labels' font size (svg units): label widths are estimated from it


@dataclass
class Group:
    """A captioned box of unconnected rules: its caption and its box (x, y, w, h)."""
    caption: str
    x: float
    y: float
    w: float
    h: float
    nodes: list = field(default_factory=list)


@dataclass
class Drawing:
    pos: dict            # node -> (x, y), rounded to 0.1
    width: float
    height: float
    groups: list         # of Group

    def __iter__(self):   # pos, width, height = layout(...) reads like the old tuple
        return iter((self.pos, self.width, self.height))


def text_width(s: str, size: float = FONT) -> float:
    """An estimate of a label's width: wide (CJK) characters one em, others about 0.6 em."""
    return sum(size if _wide(ch) else size * 0.6 for ch in str(s))


def _wide(ch: str) -> bool:
    o = ord(ch)
    return (0x1100 <= o <= 0x115F or 0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7A3 or 0xF900 <= o <= 0xFAFF
            or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFF60 or 0xFFE0 <= o <= 0xFFE6 or 0x20000 <= o <= 0x3FFFD)


def _adjacency(nodes, edges) -> dict:
    known = set(nodes)
    adj: dict = {v: set() for v in known}
    for a, b in edges:
        if a in known and b in known and a != b:
            adj[a].add(b)
            adj[b].add(a)
    return adj


def components(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    """The connected components, each sorted, largest first (ties by first node)."""
    adj = _adjacency(nodes, edges)
    seen: set = set()
    comps = []
    for v in sorted(adj):
        if v in seen:
            continue
        stack, comp = [v], []
        seen.add(v)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        comps.append(sorted(comp))
    return sorted(comps, key=lambda c: (-len(c), c[0]))


def _neighbours(pos: dict, order: list, cell: float):
    """Pairs (i, j), i < j, of nodes within one grid cell of each other (``cell`` the cut-off distance)."""
    grid: dict = {}
    for i, v in enumerate(order):
        x, y = pos[v]
        grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append(i)
    for (gx, gy), members in grid.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                other = grid.get((gx + dx, gy + dy))
                if not other:
                    continue
                for i in members:
                    for j in other:
                        if i < j:
                            yield i, j


def force_layout(comp: list[str], adj: dict, seed: int, k: float = NODE_GAP,
                 iterations: int = ITERATIONS) -> dict:
    """Fruchterman–Reingold on one component: {node: [x, y]}, centred on 0. Attraction d²/k along edges,
    repulsion k²/d between every pair (within 3k over a spatial grid when the component is large), the step
    bounded by a temperature that cools linearly. Deterministic: sorted nodes, a seeded spiral start."""
    n = len(comp)
    if n == 1:
        return {comp[0]: [0.0, 0.0]}
    rng = random.Random(seed)
    pos: dict = {}
    for i, v in enumerate(comp):                 # a golden-angle spiral, jittered: no two nodes start together
        r = k * 0.5 * math.sqrt(i + 0.5)
        a = i * 2.399963229728653
        pos[v] = [r * math.cos(a) + rng.uniform(-1, 1), r * math.sin(a) + rng.uniform(-1, 1)]
    index = {v: i for i, v in enumerate(comp)}
    links = sorted({(min(index[a], index[b]), max(index[a], index[b])) for a in comp for b in adj[a]})
    iterations = max(60, min(iterations, int(iterations * 60 / n))) if n > 60 else iterations
    big = n > 150
    temp = k * math.sqrt(n) * 0.5
    cool = temp / (iterations + 1)
    k2 = k * k
    for _ in range(iterations):
        disp = [[0.0, 0.0] for _ in range(n)]
        P = [pos[v] for v in comp]
        pairs = _neighbours(pos, comp, 3 * k) if big else ((i, j) for i in range(n) for j in range(i + 1, n))
        for i, j in pairs:
            dx, dy = P[i][0] - P[j][0], P[i][1] - P[j][1]
            d2 = dx * dx + dy * dy
            if d2 < 1e-9:
                dx, dy, d2 = 0.01 * (1 + i % 3), 0.01 * (1 + j % 3), 1e-4
            f = k2 / d2                            # (k² / d) along the unit vector (dx, dy) / d
            disp[i][0] += dx * f
            disp[i][1] += dy * f
            disp[j][0] -= dx * f
            disp[j][1] -= dy * f
        for i, j in links:
            dx, dy = P[i][0] - P[j][0], P[i][1] - P[j][1]
            d = math.sqrt(dx * dx + dy * dy) or 1e-6
            f = d / k                              # (d² / k) along the unit vector
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i in range(n):
            dx, dy = disp[i]
            d = math.sqrt(dx * dx + dy * dy)
            if d > 1e-9:
                s = min(d, temp) / d
                P[i][0] += dx * s
                P[i][1] += dy * s
        temp = max(temp - cool, k * 0.01)
    cx = sum(p[0] for p in pos.values()) / n
    cy = sum(p[1] for p in pos.values()) / n
    return {v: [p[0] - cx, p[1] - cy] for v, p in pos.items()}


def _place(comp: list[str], adj: dict, seed: int) -> dict:
    """One component: the force layout, scaled so the closest pair sits about NODE_GAP apart (never blown
    up more than it needs, never shrunk below a third), labels pushed apart; centre-0 coordinates."""
    pos = force_layout(comp, adj, seed)
    n = len(comp)
    if n > 1:
        pts = [pos[v] for v in comp]
        if n <= 150:
            dmin = min(math.dist(pts[i], pts[j]) for i in range(n) for j in range(i + 1, n))
        else:
            dmin = min((math.dist(pts[i], pts[j]) for i, j in _neighbours(pos, comp, NODE_GAP)), default=NODE_GAP)
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
    """Push apart nodes closer than NODE_GAP (labels need the room); over a spatial grid."""
    for _ in range(rounds):
        moved = False
        for i, j in list(_neighbours(pos, comp, NODE_GAP)):
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


def _group_box(caption: str, members: list[str], labels: dict) -> tuple[float, float, list]:
    """A group's size and its rules' offsets inside it: a caption line, then rows of GROUP_COLUMNS cells."""
    cw, ch = GRID_CELL
    cells = [max(cw, text_width(labels.get(v, v)) + 14) for v in members]
    rows = [cells[i:i + GROUP_COLUMNS] for i in range(0, len(cells), GROUP_COLUMNS)]
    inner_w = max(sum(r) for r in rows)
    w = max(inner_w, text_width(caption) + 8) + 2 * GROUP_PAD
    h = CAPTION_H + len(rows) * ch + GROUP_PAD
    offsets, k = [], 0
    for r, row in enumerate(rows):
        x = GROUP_PAD + (w - 2 * GROUP_PAD - sum(row)) / 2
        for c in row:
            offsets.append((x + c / 2, CAPTION_H + r * ch + ch / 2 - 6))
            x += c
            k += 1
    return w, h, offsets


def layout(nodes: list[str], edges: list[tuple[str, str]], seed: int = SEED, group_of: dict | None = None,
           captions: dict | None = None, labels: dict | None = None) -> Drawing:
    """The drawing: coordinates {node: (x, y)} (rounded to 0.1), its width and height, and the groups of
    unconnected rules. ``group_of``: node -> group key (default: one group of all); ``captions``: group key ->
    its caption (default: the key); ``labels``: node -> its label (for the cells' widths)."""
    adj = _adjacency(nodes, edges)
    comps = components(nodes, edges)
    big = [c for c in comps if len(c) > 1]
    single = sorted(c[0] for c in comps if len(c) == 1)
    labels = labels or {}
    placed = []
    for idx, comp in enumerate(big):
        pos = _place(comp, adj, seed + idx)
        xs = [p[0] for p in pos.values()]
        ys = [p[1] for p in pos.values()]
        placed.append((pos, min(xs), min(ys), max(xs) - min(xs) + NODE_GAP, max(ys) - min(ys) + NODE_GAP))
    by_group: dict = {}
    for v in single:
        by_group.setdefault((group_of or {}).get(v, ""), []).append(v)
    boxes = []
    for key in sorted(by_group, key=lambda g: (str(g) == "", str(g))):
        cap = (captions or {}).get(key, key) or ""
        w, h, offs = _group_box(cap, by_group[key], labels)
        boxes.append((cap, by_group[key], w, h, offs))
    area = sum(w * h for *_, w, h in placed) + sum((w + GROUP_GAP) * (h + GROUP_GAP) for _c, _m, w, h, _o in boxes)
    row_width = max([math.sqrt(area * ASPECT)] + [w for *_, w, _h in placed] + [w for _c, _m, w, _h, _o in boxes]
                    + [GRID_CELL[0] * 4])
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
    groups = []
    if boxes:
        y += 24.0 if big else 0.0
        x, row_h = MARGIN, 0.0
        limit = MARGIN + max(row_width, width - MARGIN)
        for cap, members, w, h, offs in boxes:
            if x > MARGIN and x + w > limit:
                x, y, row_h = MARGIN, y + row_h + GROUP_GAP, 0.0
            for v, (ox, oy) in zip(members, offs):
                out[v] = (round(x + ox, 1), round(y + oy, 1))
            groups.append(Group(cap, round(x, 1), round(y, 1), round(w, 1), round(h, 1), list(members)))
            x += w + GROUP_GAP
            row_h = max(row_h, h)
            width = max(width, x - GROUP_GAP)
        y += row_h
    return Drawing(out, round(width + MARGIN, 1), round(y + MARGIN, 1), groups)
