"""Nearest-name suggestions ("did you mean …?") for ids, keys and vocabulary."""
from __future__ import annotations

import difflib


def _dist(a: str, b: str) -> int:
    """Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions)."""
    a, b = a.lower(), b.lower()
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def nearest(name: str, candidates) -> str | None:
    """The candidate closest to ``name``, or None if nothing is reasonably close."""
    cands = sorted(set(c for c in candidates if isinstance(c, str)))
    if not cands or not name:
        return None
    best = min(cands, key=lambda c: (_dist(name, c), c))
    limit = max(1, min(len(name), len(best)) // 3)
    if _dist(name, best) <= limit:
        return best
    close = difflib.get_close_matches(name, cands, n=1, cutoff=0.75)
    return close[0] if close else None
