"""Static attack tables: the outcome of every one of the 10,000 roll pairs of an attack whose
result depends on nothing but the two rolls while both sides stand as they started.

An attack of ``a``'s action ``k`` on ``t`` is *static* when it is a single attack or an
autofire volley with no called shot, the target raises no force field and cannot strain its
Endurance by soaking, and no rule that changes a fight's state on a hit or draws more numbers
(counter-attacks, the armour FEAT, rattle, damage table, breakage, Soak after a lost dodge, a
Super Crit's called shot) is on. Then :func:`build` works out, with the kernels' own functions
(``strike.first_hit``, ``strike.later_hit``), what each roll pair does: whether it lands, the
attack's colour, the first hit's net and threatened damage; and for a Roll with Blow or a Soak
per hit, each later hit's net damage by colour and FEAT roll. A kernel reads them instead of
working the attack out, and draws the same numbers either way.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from .codes import (
    A_ATTACK,
    A_AUTOFIRE,
    AF_CALLED,
    AF_KIND,
    AF_POWER,
    BLUE,
    D_BLOCK,
    D_DODGE,
    D_PARRY,
    D_RWB,
    D_SOAK,
    GREEN,
    K_ATT_COL,
    K_DEF,
    K_DEF_COL,
    M_DEF_MASK,
    M_DEFENCE,
    M_FIELD,
    M_HAS_SHIELD,
    M_N_ACTIONS,
    M_RANK_E,
    M_SIDE,
    M_W_AREA,
    M_W_RF,
    N_K,
    N_TM,
    O_ARMOUR_ACTIVE,
    O_BREAKAGE,
    O_COUNTER,
    O_DAMAGE_TABLE,
    O_FALLBACK_SOAK,
    O_PER_EXTRA,
    O_RATTLE,
    O_REACTIVE,
    O_SC_DAMAGE,
    O_SHIELD_CRIT,
    O_STRAIN,
    RED,
    S_SH_MODE,
    SC_DOUBLE,
    SHIELD_NEVER,
    T_CODED,
    T_CONTEST,
    T_FEAT,
    T_PLAIN,
    TAB_CODES,
    TAB_DEF_BYTE,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TAB_VALUES,
    TAB_WIDTH,
    TM_FORM,
    TM_LATER,
    TM_MODE,
    TM_ROUNDS,
    WHITE,
)
from .strike import choose_defence, first_hit, later_hit, prepare, set_defence

__all__ = ["N_LATER", "build", "compress", "entry", "plan_tables", "sheet_classes", "static_pair"]

#: Entries of a later-hit table: (colour, FEAT roll 0..100).
N_LATER = 6 * 101


@jit
def build(mem, opts, shift, rank_col, colour_tab, values, st0, a, t, form, power, multi,
          out, later, cols):  # fmt: skip
    """Fill ``out`` (int64[10000], entry ``(ra - 1) * 100 + rd - 1``, see ``codes.TAB_*``)
    and ``later`` (int64[606]) for ``a``'s attack on ``t``, and ``cols`` (int64[3]) with the
    columns of the attack and of the defence and the defence (-1 when it depends on the attack
    roll, CA19). Returns whether later hits roll their own FEAT."""
    ak = np.zeros(N_K, np.int64)
    rapid = 1 if mem[a, M_W_RF] != 0 else 0
    manoeuvre = -2 if power != 0 else 0
    feat_kind = False
    for j in range(10000):
        ra = j // 100 + 1
        rd = j % 100 + 1
        prepare(mem, st0, opts, shift, rank_col, ak, a, t, form, power, -1, manoeuvre, multi, 0,
                0, rapid)  # fmt: skip
        choose_defence(mem, st0, opts, shift, rank_col, values, colour_tab, ak, ra)
        landed, ca, net, thr, _soaked, _dcol, _outright, _bypass, feat = first_hit(
            mem, st0, opts, values, colour_tab, ak, ra, rd, -1, 100)  # fmt: skip
        out[j] = ((1 if landed else 0) | (ca << 1) | (min(net, TAB_FIELD) << TAB_NET_SHIFT)
                  | (min(thr, TAB_FIELD) << TAB_THR_SHIFT))  # fmt: skip
        if ak[K_DEF] == D_RWB or ak[K_DEF] == D_SOAK:
            feat_kind = True
        if j == 0:
            cols[0], cols[1], cols[2] = ak[K_ATT_COL], ak[K_DEF_COL], ak[K_DEF]
        elif ak[K_DEF] != cols[2] or ak[K_DEF_COL] != cols[1]:
            cols[2] = -1
    if feat_kind:
        prepare(mem, st0, opts, shift, rank_col, ak, a, t, form, power, -1, manoeuvre, multi, 0,
                0, rapid)  # fmt: skip
        kind = ak[K_DEF]
        for ca in range(6):
            for roll in range(1, 101):
                set_defence(mem, st0, opts, shift, rank_col, ak, kind)
                feat = colour_tab[ak[K_DEF_COL], roll]
                later[ca * 101 + roll] = later_hit(mem, st0, opts, values, ak, ca, False, feat,
                                                   -1, 100)[0]  # fmt: skip
    return feat_kind


@jit(inline="always")
def _byte(tab, p, i):
    return (tab[p, i >> 3] >> ((i & 7) << 3)) & 0xFF


@jit(inline="always")
def entry(tab, p, j):
    """The packed outcome (``codes.TAB_*``) of roll pair ``j`` in table ``p``."""
    kind = tab[p, TAB_WIDTH - 1]
    if kind == T_CODED:
        return tab[p, TAB_CODES + _byte(tab, p, j)]
    ra = j // 100
    rd = j - 100 * ra
    ca = _byte(tab, p, ra)
    cd = _byte(tab, p, TAB_DEF_BYTE + rd)
    if kind == T_CONTEST:
        won = ca >= GREEN and (ca > cd or (ca == cd and ra > rd))
        return tab[p, TAB_CODES + (6 if won else 0) + ca]
    if kind == T_FEAT:
        return tab[p, TAB_CODES + 6 * ca + cd]
    return tab[p, TAB_CODES + ca]


def _formula(out, colour_tab, cols):
    """A row that finds the outcomes from the rolls' colours, when they are a function of them
    (checked on all 10,000 pairs); else None."""
    att_col, def_col, kind = (int(v) for v in cols)
    if kind < 0:
        return None
    ca = colour_tab[att_col, 1:101]
    cd = np.where(colour_tab[def_col, 1:101] == BLUE, WHITE,
                  np.minimum(colour_tab[def_col, 1:101], RED))  # fmt: skip
    ra, rd = np.divmod(np.arange(10000), 100)
    a, d = ca[ra], cd[rd]
    if kind in (D_DODGE, D_BLOCK, D_PARRY):
        won = (a >= GREEN) & ((a > d) | ((a == d) & (ra > rd)))
        index, how = np.where(won, 6, 0) + a, T_CONTEST
    elif kind in (D_RWB, D_SOAK):
        index, how = 6 * a + d, T_FEAT
    else:
        index, how = a, T_PLAIN
    values = np.full(64, -1, np.int64)
    values[index] = out
    if not np.array_equal(values[index], out):
        return None
    row = np.zeros(TAB_WIDTH, np.int64)
    colours = np.zeros(8 * 26, np.uint8)
    colours[:100] = ca
    colours[TAB_DEF_BYTE:TAB_DEF_BYTE + 100] = cd
    row[:26] = colours.view(np.int64)
    row[TAB_CODES:TAB_CODES + 64] = np.maximum(values, 0)
    row[TAB_WIDTH - 1] = how
    return row


def compress(out: np.ndarray, colour_tab=None, cols=None) -> np.ndarray | None:
    """A table row (``codes.TAB_WIDTH`` int64) of the 10,000 outcomes ``out``: from the rolls'
    colours when that holds for every pair (``cols``: the attack's and the defence's columns
    and the defence, -1 when it depends on the attack roll), else a byte code per roll pair
    and the distinct outcomes; None when there are too many of those."""
    if cols is not None:
        row = _formula(out, colour_tab, cols)
        if row is not None:
            return row
    values, codes = np.unique(out, return_inverse=True)
    if len(values) > TAB_VALUES - 1:
        return None
    row = np.zeros(TAB_WIDTH, np.int64)
    row[:TAB_CODES] = codes.astype(np.uint8).view(np.int64)
    row[TAB_CODES:TAB_CODES + len(values)] = values
    row[TAB_WIDTH - 1] = T_CODED
    return row


def _global_static(opts) -> bool:
    """No rule that changes the fight on a hit or draws more numbers is on."""
    return not any(opts[o] for o in (O_COUNTER, O_ARMOUR_ACTIVE, O_RATTLE, O_DAMAGE_TABLE,
                                     O_BREAKAGE, O_FALLBACK_SOAK))  # fmt: skip


def static_pair(mem, acts, opts, values, a, k, t) -> bool:
    """Whether ``a``'s action ``k`` on ``t`` is static (see the module docstring)."""
    kind = acts[a, k, AF_KIND]
    if kind not in (A_ATTACK, A_AUTOFIRE) or mem[a, M_W_AREA] or acts[a, k, AF_CALLED] >= 0:
        return False
    if kind == A_ATTACK and opts[O_SC_DAMAGE] != SC_DOUBLE:
        return False
    if mem[t, M_FIELD] > 0:
        return False
    reactive = bool(opts[O_REACTIVE]) and bin(int(mem[t, M_DEF_MASK])).count("1") > 1
    mask = int(mem[t, M_DEF_MASK]) if reactive else 1 << int(mem[t, M_DEFENCE])
    if (mask >> D_SOAK) & 1 and opts[O_STRAIN] and values[mem[t, M_RANK_E]] > 10:
        return False
    if kind == A_AUTOFIRE and mask & ((1 << D_RWB) | (1 << D_SOAK)):
        if reactive or (mem[t, M_HAS_SHIELD] and opts[O_SHIELD_CRIT] != SHIELD_NEVER):
            return False
    return True


def sheet_classes(mem, acts, st0) -> np.ndarray:
    """Each combatant's class: combatants of one class have the same member row, start state
    and actions, so every table of an attack by or on one is that of any other of the class
    (``build`` reads the attacker's and the target's rows only). Classes are numbered in order
    of first appearance."""
    n = mem.shape[0]
    rows = np.concatenate([mem, st0, acts.reshape(n, -1)], axis=1)
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    renumber = np.empty(len(first), np.int64)
    renumber[np.argsort(first, kind="stable")] = np.arange(len(first))
    return renumber[inverse.reshape(-1)]


def plan_tables(mem, acts, opts, shift, rank_col, colour_tab, values, st0):
    """Every static pair's tables, deduplicated: ``(pair_tab int64[C, A, C], tab int64[T,
    TAB_WIDTH], tab_later int64[T, 606], tab_meta int64[T, N_TM])``; ``pair_tab`` is -1 for a
    pair the kernels work out rule by rule.

    A pair's tables are those of its classes (:func:`sheet_classes`), so each is built once per
    pair of classes: an attacker whose class came before copies that one's row, and a target
    whose class this attacker has met is looked up. The tables come out in the order of the
    pairs, as if every pair were built."""
    n, n_acts = acts.shape[0], acts.shape[1]
    pair_tab = np.full((n, n_acts, n), -1, np.int64)
    tabs: list[np.ndarray] = []
    laters: list[np.ndarray] = []
    metas: list[np.ndarray] = []
    seen: dict[bytes, int] = {}
    if _global_static(opts):
        classes = sheet_classes(mem, acts, st0)
        first_of: dict[int, int] = {}
        for a in range(n):
            ca = int(classes[a])
            if ca in first_of:
                pair_tab[a] = pair_tab[first_of[ca]]
                continue
            first_of[ca] = a
            n_act = int(mem[a, M_N_ACTIONS])
            multi = 0 if n_act < 2 else (-(n_act - 1) if opts[O_PER_EXTRA] else -1)
            for k in range(n_act):
                met: dict[int, int] = {}
                for t in range(n):
                    if mem[t, M_SIDE] == mem[a, M_SIDE]:
                        continue
                    ct = int(classes[t])
                    if ct in met:
                        pair_tab[a, k, t] = met[ct]
                        continue
                    met[ct] = -1
                    if not static_pair(mem, acts, opts, values, a, k, t):
                        continue
                    out = np.zeros(10000, np.int64)
                    later = np.zeros(N_LATER, np.int64)
                    form = int(acts[a, k, AF_KIND])
                    cols = np.zeros(3, np.int64)
                    feat = build(mem, opts, shift, rank_col, colour_tab, values, st0, a, t, form,
                                 int(acts[a, k, AF_POWER]), multi, out, later, cols)  # fmt: skip
                    row = compress(out, colour_tab, cols)
                    if row is None:
                        continue
                    meta = np.zeros(N_TM, np.int64)
                    meta[TM_FORM] = form
                    meta[TM_ROUNDS] = 0
                    meta[TM_LATER] = 1 if feat else 0
                    meta[TM_MODE] = st0[t, S_SH_MODE]
                    digest = row.tobytes() + later.tobytes() + meta.tobytes()
                    if digest not in seen:
                        seen[digest] = len(tabs)
                        tabs.append(row)
                        laters.append(later)
                        metas.append(meta)
                    pair_tab[a, k, t] = met[ct] = seen[digest]
    if not tabs:
        return (pair_tab, np.zeros((1, TAB_WIDTH), np.int64), np.zeros((1, N_LATER), np.int64),
                np.zeros((1, N_TM), np.int64))  # fmt: skip
    return pair_tab, np.stack(tabs), np.stack(laters), np.stack(metas)
