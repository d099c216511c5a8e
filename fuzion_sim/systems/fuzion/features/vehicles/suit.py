"""The general kernel's powered-armour room (../shared/rulings/vehicles M-35, VA-44; RULINGS
F30 ``powered_armour``) and the mecha range scale's correction (M-18, VA-17).

A hit on a person in powered armour (armour with SDP) runs :func:`suited_hits`, the people's
hit loop of ``strike.strike`` with the split of what gets through: half to the suit's SDP,
half to the wearer. Like ``vehicles.room.vehicle_hits`` it is *called* (compiled without reference
counting), not inlined: a fight without suits pays one branch per attack and its hit loop is
the one it was (PERFORMANCE-NOTES lesson 12). The arrays come in ``strike.py``'s groups and
``vehicles.room.Mecha`` (``mc``).
"""

from __future__ import annotations

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import xoshiro
from ...codes import LOC_CALLED, LOC_NONE
from ...dice import TABLE_DICE
from ...kernel_parts import hit_damage
from ...rules import KILLING, penetration, range_modifier, split_through

__all__ = ["scaled_rmod", "suit_split", "suited_area", "suited_hits"]


@jit(**INNER)
def suit_split(c, killing, through, stun_before, mc):
    """Powered armour (F30, M-35, VA-44): the damage ``through`` the PD of ``c``'s suit is
    split, half to the suit's SDP (the odd point to the suit, or under ``powered_split:
    wearer_ceil`` to the wearer), half to the wearer: killing damage to Hits with collateral
    Stun (F21), a Stun attack's half to Stun (``powered_stun: as_stun``) or as killing damage
    to Hits (``to_hits``). What the suit cannot take (its last SDP) goes to the wearer; at 0
    SDP it is wrecked (the callers then give it PD 0) and the wearer takes everything as
    usual. Returns ``(Hits lost, Stun lost)`` of the wearer."""
    left = mc.suit[c]
    if left <= 0 or through <= 0:
        return split_through(killing, through, stun_before)
    half = through // 2 if mc.wearer_ceil else through - through // 2
    take = min(half, left)
    mc.suit[c] = left - take
    return split_through(killing or mc.to_hits, through - take, stun_before)


@jit(**INNER)
def suited_area(c, dmg_type, dmg, arm, sd, stun_before, mc):
    """An area attack's damage ``dmg`` on ``c`` in powered armour (PD ``arm``; 0 once the suit
    is wrecked): ``(damage through, Hits lost, Stun lost)`` after the split."""
    if mc.suit[c] <= 0:
        arm = 0
    thr = penetration(dmg_type, dmg, arm, sd)
    lost, stun = suit_split(c, dmg_type == KILLING, thr, stun_before, mc)
    return thr, lost, stun


@jit(**INNER)
def suited_hits(a, tgt, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special, ar,
                sh, md, hl, tl, dt, rl, mc, s0, s1, s2, s3):  # fmt: skip
    """The hits of one attack on ``tgt``, a person in powered armour, as ``strike.strike`` rolls
    a person's (the same draws: dice from the roll's bits, then the F27 location): each hit
    meets the suit's PD (none when chinked, F30, on a location it does not cover, or once the
    suit is wrecked), takes the location's multiplier (before the split, VA-44), and is split
    by :func:`suit_split`. Returns ``(state, damage rolled, location, Hits lost, Stun lost,
    damage through)``."""
    nd6_start = np.uint64(dt.nd6_offsets[TABLE_DICE])
    u_nd6_size = np.uint64(dt.nd6_offsets[TABLE_DICE + 1]) - nd6_start
    loc = np.int64(-1)
    raw = np.int64(0)
    hits_lost = np.int64(0)
    stun_lost = np.int64(0)
    through = np.int64(0)
    for h in range(max(n_hits, 1)):
        s0, s1, s2, s3, raw_h = hit_damage(h, dice_bits, n_dice, dt.nd6_table, dt.nd6_offsets,
                                           nd6_start, u_nd6_size, s0, s1, s2, s3)
        if special:
            raw_h = 0  # these manoeuvres do no damage themselves
        raw += raw_h
        armour_h = armour
        if rl.chinks and margin - h * rl.autofire_ratio >= 10:
            armour_h = 0  # F30 chinks: beat the DV by 10 or more
        if rl.loc_mode != LOC_NONE:
            if rl.loc_mode == LOC_CALLED and md.called_loc[a] >= 0:
                loc = md.called_loc[a]
            else:  # F27: 3d6 on the location table
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                loc = dt.loc_by_roll[dt.nd6_table[dt.nd6_offsets[3] + np.int64(u * 216.0)]]
            if (ar.cover[tgt] >> loc) & 1 == 0:
                armour_h = 0  # the armour does not cover it
            if hit:
                tl.location_hits[tgt, loc] += 1
        if mc.suit[tgt] <= 0:
            armour_h = 0  # the suit is wrecked: PD 0, no split
        through_h = penetration(dmg_type, raw_h, armour_h, sh.sd[tgt])
        if loc >= 0:  # F27: the multiplier after armour, rounded down
            through_h = through_h * dt.loc_num[loc] // dt.loc_den[loc]
        through_h *= hit
        lost_h, stun_h = suit_split(tgt, dmg_type == KILLING, through_h,
                                    hl.stun[tgt] - stun_lost, mc)  # fmt: skip
        hits_lost += lost_h
        stun_lost += stun_h
        through += through_h
    return s0, s1, s2, s3, raw, loc, hits_lost, stun_lost, through


@jit(**INNER)
def scaled_rmod(a, tgt, pair, w_range, dist, rmod, rscale, rs_target):
    """The range modifier of ``a``'s attack on ``tgt`` under the mecha range scale (M-18,
    VA-17, examples E-05): F10's bands x ``rscale[a]`` (the modifier of ``dist / 10`` against
    the listed range / 10) where it applies against ``tgt``, else the pair table's."""
    if rs_target[tgt]:
        return range_modifier(dist[pair] / rscale[a], w_range[a] / rscale[a])
    return rmod[pair]
