"""Where members stand: the metres between every pair.

A scenario places its members one of two ways (never both):

- ``position``: metres on a line or ``[x, y]`` (a member without one stands at 0); every
  distance is known;
- ``distance``: a member's metres to every enemy (as in "Two Fair shooters at 8 metres").
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
    """Metres between every pair (float64[C, C]) and whether each is known (bool[C, C]).

    By position, each distance is ``math.dist`` of the two points, worked out once per
    distinct offset (members in rows and files share few)."""
    n = len(members)
    dist = np.zeros((n, n))
    known = np.eye(n, dtype=bool)
    if not by_distance(members):
        points = np.array([xy(m) or (0.0, 0.0) for m in members], np.float64).reshape(n, 2)
        dx = np.abs(points[:, None, 0] - points[None, :, 0]).reshape(-1)
        dy = np.abs(points[:, None, 1] - points[None, :, 1]).reshape(-1)
        offsets, where = np.unique(dx + 1j * dy, return_inverse=True)  # (dx, dy) as one key
        lengths = np.array([math.dist((float(z.real), float(z.imag)), (0.0, 0.0))
                            for z in offsets])  # fmt: skip
        dist[:] = lengths[where.reshape(-1)].reshape(n, n)
        known[:] = True
        return dist, known
    side = np.array([m.side for m in members], object)
    own = np.array([np.nan if m.distance is None else m.distance for m in members], np.float64)
    either = np.where(np.isnan(own)[:, None], own[None, :], own[:, None])
    pairs = (side[:, None] != side[None, :]) & ~np.isnan(either)
    dist[pairs] = either[pairs]
    known |= pairs
    return dist, known
