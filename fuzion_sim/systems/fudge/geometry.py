"""Where members stand: the metres between every pair.

A scenario places its members one of two ways (never both):

- ``position``: metres on a line or ``[x, y]`` (a member without one stands at 0); every
  distance is known;
- ``distance``: a member's metres to every enemy (the issue's "Two Fair shooters at 8 metres").
  Two enemies are as far apart as either says (they must agree); friends' distances from each
  other are unknown, so a blast cannot be placed among them.
"""

from __future__ import annotations

import math

import numpy as np

from .model import xy

__all__ = ["by_distance", "pair_distances"]


def by_distance(members) -> bool:
    """The scenario places its members by ``distance`` (else by ``position``)."""
    return any(m.distance is not None for m in members)


def pair_distances(members) -> tuple[np.ndarray, np.ndarray]:
    """Metres between every pair (float64[C, C]) and whether each is known (bool[C, C])."""
    n = len(members)
    dist = np.zeros((n, n))
    known = np.eye(n, dtype=bool)
    if not by_distance(members):
        points = [xy(m) or (0.0, 0.0) for m in members]
        for i in range(n):
            for j in range(n):
                dist[i, j] = math.dist(points[i], points[j])
        known[:] = True
        return dist, known
    for i, a in enumerate(members):
        for j, b in enumerate(members):
            if i == j or a.side == b.side:
                continue
            d = a.distance if a.distance is not None else b.distance
            if d is not None:
                dist[i, j] = d
                known[i, j] = True
    return dist, known
