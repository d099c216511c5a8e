"""The enumerations behind the colour system's exact answers (``exact.py``): every roll pair of
an attack worked out with the kernels' own functions (``strike.py``), at the fight's start.

These enumerate and decide; they draw nothing. Each returns per roll pair (index
``(ra - 1) * 100 + rd - 1``) what the first hit of the attack does, or the later-hit damage of
a volley for each of the FEAT rolls, for ``exact.py`` to turn into distributions.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from .actions import _called_loss, armour_total
from .codes import (
    A_ATTACK,
    AGILITY,
    D_DODGE,
    D_NONE,
    D_RWB,
    D_SOAK,
    GREEN,
    K_ATT_COL,
    K_DEF,
    K_DEF_COL,
    K_TYPE,
    M_DIVE,
    M_DIVE_AREAS,
    M_SC_CALL,
    N_K,
    O_ARMOUR_ACTIVE,
    O_DIVE_NORMAL,
    O_FALLBACK_SOAK,
    O_FEAT_MIN,
    O_SC_DAMAGE,
    O_VALUE_NEAREST,
    S_HEALTH,
    SC_BEST,
    SC_DOUBLE,
    SUPER_CRIT,
    WHITE,
    YELLOW,
)
from .rules import clamp_defence, endurance_column, roll_column, value_rank
from .strike import (
    choose_defence,
    concentrated_hit,
    first_hit,
    hit_damage,
    later_hit,
    prepare,
    set_defence,
)

__all__ = ["armour_pct_of", "fallback_of", "first_hits", "later_hits"]


@jit
def armour_pct_of(mem, st, opts, rank_col, colour_tab, values, t, roll):
    """The armour FEAT's scaling for FEAT roll ``roll`` (CA32; 100 when passive or 0)."""
    if opts[O_ARMOUR_ACTIVE] == 0 or roll == 0:
        return 100
    rank = value_rank(values, armour_total(mem, st, t), opts[O_VALUE_NEAREST] != 0)
    colour = clamp_defence(colour_tab[rank_col[rank], roll])
    if colour == WHITE:
        return 0
    if colour == GREEN:
        return 50
    if colour == YELLOW:
        return 100
    return 150


@jit
def fallback_of(st, opts, rank_col, colour_tab, ak, t, roll):
    """The colour of a Soak after a lost dodge for FEAT roll ``roll`` (CA64; -1: none)."""
    if opts[O_FALLBACK_SOAK] == 0 or roll == 0 or ak[K_DEF] != D_DODGE:
        return -1
    return colour_tab[endurance_column(st, rank_col, t), roll]


@jit
def first_hits(mem, st, opts, shift, rank_col, colour_tab, values, a, t, form, power, called,
               manoeuvre, multi, rapid, stack, fb_roll, ap_roll, area, out):  # fmt: skip
    """The first hit of ``a``'s attack on ``t`` for each roll pair, with the extra rolls fixed
    (``fb_roll``, ``ap_roll``: 1..100, or 0 for none): ``out`` int64[10000, 9] holds landed,
    the attack's colour, net, threatened, bypass, the FEAT colour, the defender's raw colour,
    the defence and its column. ``stack``: concentrated fire's hits (0: not concentrated);
    ``area``: an area effect (the target avoids with Agility or dives, CA66, CA99)."""
    ak = np.zeros(N_K, np.int64)
    for j in range(10000):
        ra = j // 100 + 1
        rd = j % 100 + 1
        prepare(mem, st, opts, shift, rank_col, ak, a, t, form, power, called, manoeuvre, multi,
                0, 0, rapid)  # fmt: skip
        if area != 0:
            set_defence(mem, st, opts, shift, rank_col, ak, D_DODGE)
        else:
            choose_defence(mem, st, opts, shift, rank_col, values, colour_tab, ak, ra)
        if area != 0 and mem[t, M_DIVE] != 0:
            col = roll_column(mem, st, opts, shift, rank_col, t, AGILITY,
                              -(mem[t, M_DIVE_AREAS] - 1), 0, 0, False, True)  # fmt: skip
            if clamp_defence(colour_tab[col, rd]) >= opts[O_FEAT_MIN]:
                out[j, 0] = 0
                out[j, 1] = colour_tab[ak[K_ATT_COL], ra]
                for f in range(2, 9):
                    out[j, f] = 0
                out[j, 7] = -2  # dived clear
                continue
            if opts[O_DIVE_NORMAL] == 0:
                ak[K_DEF] = D_NONE
            else:
                out[j, 7] = -3  # a failed dive rolls the avoid again (exact.py enumerates it)
        fb = fallback_of(st, opts, rank_col, colour_tab, ak, t, fb_roll)
        apct = armour_pct_of(mem, st, opts, rank_col, colour_tab, values, t, ap_roll)
        if stack > 0:
            res = concentrated_hit(mem, st, opts, values, colour_tab, ak, ra, rd, stack, fb, apct)
        else:
            res = first_hit(mem, st, opts, values, colour_tab, ak, ra, rd, fb, apct)
        landed, ca, net, thr, _soaked, dcol, _outright, bypass, feat = res
        if (ca == SUPER_CRIT and landed and form == A_ATTACK and called < 0 and stack == 0
                and opts[O_SC_DAMAGE] != SC_DOUBLE):  # fmt: skip
            alt = hit_damage(mem, st, opts, values, ak, ca, YELLOW, False, 100, fb, False, 1,
                             apct)  # fmt: skip
            if opts[O_SC_DAMAGE] != SC_BEST or _called_loss(
                    mem, st, opts, values, t, mem[a, M_SC_CALL], ak[K_TYPE],
                    alt[0]) > min(net, st[t, S_HEALTH]):  # fmt: skip
                net, thr = alt[0], alt[1]
        if out[j, 7] != -3:
            out[j, 7] = ak[K_DEF]
        out[j, 0] = 1 if landed else 0
        out[j, 1] = ca
        out[j, 2] = net
        out[j, 3] = thr
        out[j, 4] = 1 if bypass else 0
        out[j, 5] = feat
        out[j, 6] = dcol
        out[j, 8] = ak[K_DEF_COL]


@jit
def later_hits(mem, st, opts, shift, rank_col, colour_tab, values, a, t, form, ca, bypass, feat,
               kind, def_col, rapid, fb_roll, ap_roll, out):  # fmt: skip
    """A later hit's net damage for each FEAT roll 1..100 (``out[roll - 1]``; CA53: its own
    roll per hit, or ``feat`` for every hit under ``rwb_rolls: per_attack``, where ``feat``
    >= 0), of an attack of colour ``ca`` against defence ``kind`` on column ``def_col``."""
    ak = np.zeros(N_K, np.int64)
    prepare(mem, st, opts, shift, rank_col, ak, a, t, form, 0, -1, 0, 0, 0, 0, rapid)
    set_defence(mem, st, opts, shift, rank_col, ak, kind)
    ak[K_DEF_COL] = def_col
    fb_base = fallback_of(st, opts, rank_col, colour_tab, ak, t, fb_roll)
    apct = armour_pct_of(mem, st, opts, rank_col, colour_tab, values, t, ap_roll)
    for roll in range(1, 101):
        colour = feat
        if (kind == D_RWB or kind == D_SOAK) and feat < 0:
            colour = colour_tab[def_col, roll]
        out[roll - 1] = later_hit(mem, st, opts, values, ak, ca, bypass != 0, colour, fb_base,
                                  apct)[0]  # fmt: skip
