"""The general kernel's terrain (../shared/rulings/vehicles/ M-11, M-52, VA-51, E-04).

The scenario's ``terrain:`` zones (rectangles and circles of Easy, Rough or Very Rough ground)
reduce the MOVE of whoever crosses them on the ground, by the terrain of the phase: "the
majority of terrain you will be crossing over that phase" (L121). Rough and Very Rough also add
to a vehicle's manoeuvre DVs where it stands (VA-27; ``terrain_effect: move_only``: they do
not). Where zones overlap, the one listed later lies on top (a road across the mud).

Everything lives in one flat float64 array, ``im.terrain`` (``scene.build.terrain_array``): a
header of :data:`TZ_HEADER` numbers, the MOVE factor of each class then the DV each adds, and a
record of :data:`TZ_STRIDE` numbers a zone: its shape (``TZ_RECT``: x0, y0, x1, y1;
``TZ_CIRCLE``: x, y, radius, 0), its class (``T_*``) and the geometry. Aircraft in flight
ignore it.
"""

from __future__ import annotations

import numpy as np

from ....._jit import INNER, jit

__all__ = [
    "TERRAIN_CLASSES", "TZ_CIRCLE", "TZ_DV", "TZ_HEADER", "TZ_RECT", "TZ_STRIDE", "T_EASY",
    "T_ROUGH", "T_VERY_ROUGH", "class_at", "has_terrain", "majority", "slowed", "terrain_dv",
]  # fmt: skip

#: The classes of ground, in code order (``T_*``).
TERRAIN_CLASSES = ("easy", "rough", "very_rough")
T_EASY = 0
T_ROUGH = 1
T_VERY_ROUGH = 2
#: The header: the MOVE factor of each class, then (from ``TZ_DV``) the manoeuvre DV each adds.
TZ_DV = len(TERRAIN_CLASSES)
TZ_HEADER = 2 * TZ_DV
#: A zone's record: shape, class, then four numbers of geometry.
TZ_STRIDE = 6
TZ_RECT = 0
TZ_CIRCLE = 1


@jit(**INNER)
def has_terrain(tz):
    """Whether the fight has a terrain zone."""
    return tz.shape[0] > TZ_HEADER


@jit(**INNER)
def _inside(tz, z, x, y):
    r = TZ_HEADER + z * TZ_STRIDE
    if tz[r] == TZ_RECT:
        return tz[r + 2] <= x <= tz[r + 4] and tz[r + 3] <= y <= tz[r + 5]
    fx = x - tz[r + 2]
    fy = y - tz[r + 3]
    return fx * fx + fy * fy <= tz[r + 4] * tz[r + 4]


@jit(_nrt=False)
def class_at(tz, x, y):
    """The class of the ground at ``(x, y)``: the last zone listed that holds it, else Easy."""
    n = (tz.shape[0] - TZ_HEADER) // TZ_STRIDE
    for z in range(n - 1, -1, -1):
        if _inside(tz, z, x, y):
            return np.int64(tz[TZ_HEADER + z * TZ_STRIDE + 1])
    return np.int64(T_EASY)


@jit(inline="always")
def _span(tz, z, ox, oy, dx, dy):
    """The fractions ``(t0, t1)`` of the path ``(ox, oy) + t (dx, dy)``, t in [0, 1], inside
    zone ``z`` (``t0 >= t1``: none)."""
    r = TZ_HEADER + z * TZ_STRIDE
    t0 = 0.0
    t1 = 1.0
    if tz[r] == TZ_RECT:  # Liang-Barsky
        for k in range(4):
            if k == 0:
                p, q = -dx, ox - tz[r + 2]
            elif k == 1:
                p, q = dx, tz[r + 4] - ox
            elif k == 2:
                p, q = -dy, oy - tz[r + 3]
            else:
                p, q = dy, tz[r + 5] - oy
            if p == 0.0:
                if q < 0.0:
                    return 1.0, 0.0
            elif p < 0.0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
        return t0, t1
    fx = ox - tz[r + 2]
    fy = oy - tz[r + 3]
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - tz[r + 4] * tz[r + 4]
    if a == 0.0:
        return 1.0, 0.0
    b = 2.0 * (fx * dx + fy * dy)
    disc = b * b - 4.0 * a * c
    if disc <= 0.0:
        return 1.0, 0.0
    root = np.sqrt(disc)
    return max((-b - root) / (2.0 * a), 0.0), min((-b + root) / (2.0 * a), 1.0)


@jit(_nrt=False)
def majority(tz, ox, oy, dx, dy):
    """The terrain of a phase's path ``(ox, oy) + t (dx, dy)``: the class it crosses most of
    (L121; a tie goes to the rougher). It walks the pieces between the zones' edges, each of
    one class (the top zone at its middle)."""
    n = (tz.shape[0] - TZ_HEADER) // TZ_STRIDE
    easy = 0.0
    rough = 0.0
    very = 0.0
    t = 0.0
    while t < 1.0:
        nxt = 1.0
        for z in range(n):  # the next edge after t
            t0, t1 = _span(tz, z, ox, oy, dx, dy)
            if t0 < t1:
                if t < t0 < nxt:
                    nxt = t0
                if t < t1 < nxt:
                    nxt = t1
        mid = 0.5 * (t + nxt)
        kind = class_at(tz, ox + mid * dx, oy + mid * dy)
        if kind == T_VERY_ROUGH:
            very += nxt - t
        elif kind == T_ROUGH:
            rough += nxt - t
        else:
            easy += nxt - t
        t = nxt
    if very >= rough and very >= easy:
        return np.int64(T_VERY_ROUGH)
    if rough >= easy:
        return np.int64(T_ROUGH)
    return np.int64(T_EASY)


@jit(_nrt=False)
def slowed(tz, ox, oy, dx, dy, budget):
    """How far a mover gets along the path ``(ox, oy) + t (dx, dy)`` it set out on with
    ``budget`` metres of MOVE: the path, or the phase's terrain's share of the budget if that
    is shorter (VA-51)."""
    metres = np.sqrt(dx * dx + dy * dy)
    if metres <= 0.0:
        return metres
    return min(metres, budget * tz[majority(tz, ox, oy, dx, dy)])


@jit(_nrt=False)
def terrain_dv(tz, x, y):
    """What the ground at ``(x, y)`` adds to a manoeuvre's DV (VA-27, VA-51; 0 under
    ``terrain_effect: move_only``)."""
    if not has_terrain(tz):
        return np.int64(0)
    return np.int64(tz[TZ_DV + class_at(tz, x, y)])
