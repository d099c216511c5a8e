"""The general colour kernel: every rule of seeds 004 and 002 for any number of combatants and
sides, one trial after another over a chunk.

A fight is rounds (CA15): initiative 1d(Agility value) once a fight in the order of
:func:`initiative` (CA13-CA14), then each round every combatant's turn slot in that order
(:func:`turn`): the start-of-turn events of :func:`~.fate.turn_start`, then, standing, its
turn's actions (:func:`do_action`). The fight ends the moment at most one side has anyone
standing (CA79) or after ``max_rounds`` (unresolved).

A pair whose attack is the same whenever both stand as they started reads it off a static
table (``tables.py``) instead of working it out: the numbers are the same either way
(``O_NO_TABLES`` turns the tables off; the tests hold the two bit for bit).

The trial loop is made per set of manoeuvres in the fight (:func:`features`, :func:`_kernel`):
a fight without a grapple, a sweep, an area attack or a burst compiles none of their code.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._jit import INNER, jit
from ...engine.rng import trial_seed
from .actions import armour_total, choose_target, volley
from .codes import (
    A_ATTACK,
    A_AUTOFIRE,
    A_BURST,
    A_CONCENTRATED,
    A_GRAPPLE,
    A_SWEEP,
    AF_CALLED,
    AF_KIND,
    AF_POWER,
    AF_ROUNDS,
    EVENT_AIM,
    EVENT_END,
    EVENT_ESCAPE,
    EVENT_FIELD,
    EVENT_IDLE,
    EVENT_INITIATIVE,
    F_DEFER,
    F_LOG,
    F_N,
    F_OVER,
    F_ROUND,
    F_SIDES,
    F_WINNER,
    HEAD,
    M_AIM,
    M_FIELD,
    M_FIELD_RANK,
    M_HAS_SHIELD,
    M_N_ACTIONS,
    M_RERAISE,
    M_SIDE,
    M_VAL_A,
    M_W_AREA,
    M_W_GUN,
    M_W_MELEE,
    M_W_POWER,
    M_W_RF,
    M_W_ROUNDS,
    M_WHEN_GRAPPLED,
    N_F,
    N_K,
    O_AMMO,
    O_CONC_NEEDS_ARMOUR,
    O_FEAT_MIN,
    O_FIELD_AUTO,
    O_HEAD_ADD,
    O_HOLDER_OTHER,
    O_PER_EXTRA,
    O_RELEASE_RED,
    O_SHIELD_PER_ROUND,
    O_TIES,
    RED,
    RF_FULL_AUTO,
    S_AIM,
    S_ATTACKS,
    S_BROKEN_N,
    S_DEALT,
    S_DEATH_T,
    S_FIELD_UP,
    S_GRAPPLE_ROUND,
    S_GRAPPLED_BY,
    S_HOLDING,
    S_LANDED,
    S_OUT_T,
    S_POWER_OFF,
    S_SEVERED_N,
    S_SH_MODE,
    S_SHOTS,
    S_STATUS,
    S_TAKEN,
    ST_STANDING,
    TIE_AGILITY,
    TIE_SIMULTANEOUS,
    UNRESOLVED,
)
from .fate import aid, check_end, draw, event, final_state, turn_start
from .manoeuvres import area_attack, burst, escape, grapple, squeeze, sweep
from .rules import d100
from .typed import typed

_LOW32 = np.uint64(0xFFFFFFFF)
#: Most rounds of re-rolls that break an initiative tie before the listed order does.
MAX_REROLLS = 64


@jit(inline="always")
def _init_die(x, value):
    """1d(value) from the low half of a generator output (CA13: a value of 0 rolls a d1)."""
    n = np.uint64(max(value, 1))
    return np.int64(((x & _LOW32) * n) >> np.uint64(32)) + 1


@jit(inline="always")
def _before(mem, rule, key, c, d):
    """Whether ``c`` goes before ``d`` in the first sort (higher roll; under ``agility`` a
    higher Agility value breaks a tie)."""
    if key[c] != key[d]:
        return key[c] > key[d]
    return rule == TIE_AGILITY and mem[c, M_VAL_A] > mem[d, M_VAL_A]


@typed
def initiative(mem, opts, rs, order, group, key, tie, n):
    """The order of the fight (004 L30; CA13-CA14): each rolls 1d(its Agility value) in listed
    order; highest first. Ties (``initiative_ties``): ``reroll``, the tied roll again, in
    their current order, until the tie breaks (a tie of d1s, or one that outlasts
    :data:`MAX_REROLLS` rounds, keeps the listed order); ``agility``, the higher Agility value
    first, then re-rolls; ``simultaneous``, the tied share a group and act together.

    Fills ``order`` (combatants, first to act first) and ``group`` (the group of each
    position). ``key`` and ``tie`` are scratch arrays of ``n``.
    """
    rule = opts[O_TIES]
    for c in range(n):
        key[c] = _init_die(draw(rs), mem[c, M_VAL_A])
        order[c] = c
    for i in range(1, n):  # insertion sort: stable, highest first
        c = order[i]
        j = i - 1
        while j >= 0 and _before(mem, rule, key, c, order[j]):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = c
    for p in range(n - 1):
        a, b = order[p], order[p + 1]
        tie[p] = 1 if key[a] == key[b] and (rule != TIE_AGILITY
                                            or mem[a, M_VAL_A] == mem[b, M_VAL_A]) else 0
    if n > 0:
        tie[n - 1] = 0
    for p in range(n):
        group[p] = p
    if rule == TIE_SIMULTANEOUS:
        for p in range(1, n):
            if tie[p - 1] != 0:
                group[p] = group[p - 1]
        return
    for _ in range(MAX_REROLLS):
        any_tie = False
        p = 0
        while p < n - 1:
            if tie[p] == 0:
                p += 1
                continue
            q = p
            while q < n - 1 and tie[q] != 0:
                q += 1
            small = True
            for i in range(p, q + 1):
                if mem[order[i], M_VAL_A] > 1:
                    small = False
            if small:
                for i in range(p, q):
                    tie[i] = 0
                p = q + 1
                continue
            any_tie = True
            for i in range(p, q + 1):
                key[order[i]] = _init_die(draw(rs), mem[order[i], M_VAL_A])
            for i in range(p + 1, q + 1):
                c = order[i]
                j = i - 1
                while j >= p and key[c] > key[order[j]]:
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = c
            for i in range(p, q):
                tie[i] = 1 if key[order[i]] == key[order[i + 1]] else 0
            p = q + 1
        if not any_tie:
            break
    for p in range(n - 1):
        tie[p] = 0




@typed
def _first_enemy(mem, st, fs, c):
    side = mem[c, M_SIDE]
    for e in range(fs[F_N]):
        if mem[e, M_SIDE] != side and st[e, S_STATUS] == ST_STANDING:
            return e
    return -1


@jit(inline="always")
def do_action(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
              tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
              c, k, n_act, rounds_left, bonus, exclude, grapples, sweeps, areas,
              bursts):  # fmt: skip
    """Action ``k`` of ``c``'s turn (004 L70-99): its form, the rounds it fires from the turn's
    Rating(X) (CA18) and the magazine (CA52), its column shifts (Power Attack -2, called shot
    -2 or the head -3, CA82; Sweep -1; concentrated fire -3 Full-Auto, -1 Continuous; burst
    -1; -1CS on every roll of a turn of two or more actions, CA17). Returns the rounds left.
    The last four arguments (:func:`features`) leave out the code of a manoeuvre no one in the
    fight makes: the trial loops pass constants, and LLVM folds the branches on them once it
    has inlined :func:`turn` (numba compiles ``turn`` once, with every manoeuvre)."""
    kind = acts[c, k, AF_KIND]
    multi = 0
    if n_act >= 2:
        multi = -(n_act - 1) if opts[O_PER_EXTRA] != 0 else -1
    if grapples and kind == A_GRAPPLE:
        grapple(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, c,
                k, multi)  # fmt: skip
        return rounds_left
    rapid = mem[c, M_W_RF] != 0
    if kind == A_BURST:
        need = 3
    elif kind == A_AUTOFIRE or kind == A_SWEEP or kind == A_CONCENTRATED:
        need = acts[c, k, AF_ROUNDS] if acts[c, k, AF_ROUNDS] > 0 else rounds_left
    elif rapid:
        need = 1
    else:
        need = 0
    if need > rounds_left:
        return rounds_left
    ammo = opts[O_AMMO] != 0 and mem[c, M_W_GUN] != 0 and st[c, S_SHOTS] >= 0
    if ammo:
        need = min(need, st[c, S_SHOTS])
        if need == 0 or (kind == A_BURST and need < 3) or (
                mem[c, M_W_GUN] != 0 and not rapid and st[c, S_SHOTS] == 0):  # fmt: skip
            event(fs, events, n_events, EVENT_IDLE, c, -1, 1, 0, 0, 0)
            return rounds_left
    if sweeps and kind == A_SWEEP:
        used = sweep(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                     tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                     n_events, c, need, multi, bonus)  # fmt: skip
        if ammo:
            st[c, S_SHOTS] -= used
        return rounds_left - used
    if areas and mem[c, M_W_AREA] != 0:
        area_attack(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                    tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                    n_events, c, multi, bonus)  # fmt: skip
        if ammo:
            st[c, S_SHOTS] -= need
        return rounds_left - need
    t = choose_target(mem, acts, st, fs, c, k, exclude)
    if t < 0:
        return rounds_left
    if ammo:
        st[c, S_SHOTS] -= need
    if bursts and kind == A_BURST:
        burst(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
              tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, c,
              t, multi, bonus)  # fmt: skip
        return rounds_left - need
    manoeuvre = 0
    form = kind
    if kind == A_CONCENTRATED:
        if opts[O_CONC_NEEDS_ARMOUR] != 0 and armour_total(mem, st, t) == 0:
            form = A_AUTOFIRE
        else:
            manoeuvre = -3 if mem[c, M_W_RF] == RF_FULL_AUTO else -1
    elif kind == A_ATTACK:
        if acts[c, k, AF_POWER] != 0:
            manoeuvre -= 2
        called = acts[c, k, AF_CALLED]
        if called >= 0:
            manoeuvre -= (5 if opts[O_HEAD_ADD] != 0 else 3) if called == HEAD else 2
    rounds = max(need, 1)
    volley(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
           tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, c, k, t,
           form, rounds, manoeuvre, multi, bonus, 0, True)  # fmt: skip
    return rounds_left - need


# a room the trial loops inline in LLVM, not numba: 2.4 to 2.7 times the speed of numba's
# inlining for 8 to 12 s more of a first run (PERFORMANCE-NOTES lesson 51)
@jit(**INNER, forceinline=True)
def turn(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
         tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, c,
         is_acting, grapples, sweeps, areas, bursts):  # fmt: skip
    """``c``'s turn slot: the start-of-turn events, then, if it stands (or ``is_acting``: it stood
    when its simultaneous group began), one of: a grappled victim's escape or attack on its
    captor (CA95-CA96); raising its force field again (CA39); aid to a fallen ally (CA78); the
    holder's squeeze (CA94); a turn of aiming (CA100); or its actions. The features as
    :func:`do_action`'s (no one is held in a fight without a grapple)."""
    turn_start(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
               n_events, c)  # fmt: skip
    if fs[F_OVER] != 0 or not (is_acting or st[c, S_STATUS] == ST_STANDING):
        return
    holder = st[c, S_GRAPPLED_BY]
    if grapples and holder >= 0:
        if mem[c, M_WHEN_GRAPPLED] == 0:
            if fs[F_ROUND] > st[c, S_GRAPPLE_ROUND]:
                escape(mem, opts, shift, rank_col, colour_tab, st, rs, fs, events, n_events, c)
            else:
                event(fs, events, n_events, EVENT_IDLE, c, holder, 2, 0, 0, 0)
            return
        ca, landed = volley(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask,
                            pair_tab, tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours,
                            cat_rolls, events, n_events, c, -1, holder, A_ATTACK, 1, -3, 0, 0, 1,
                            True)  # fmt: skip
        if landed and ca >= RED and opts[O_RELEASE_RED] != 0 and st[c, S_GRAPPLED_BY] == holder:
            st[c, S_GRAPPLED_BY] = -1
            st[holder, S_HOLDING] = -1
            event(fs, events, n_events, EVENT_ESCAPE, c, holder, 0, ca, 1, 1)
        return
    if mem[c, M_FIELD] > 0 and st[c, S_FIELD_UP] == 0 and mem[c, M_RERAISE] != 0:
        up = opts[O_FIELD_AUTO] != 0
        roll = 0
        if not up:
            roll = d100(draw(rs))
            up = colour_tab[rank_col[mem[c, M_FIELD_RANK]], roll] >= opts[O_FEAT_MIN]
        if up:
            st[c, S_FIELD_UP] = 1
        event(fs, events, n_events, EVENT_FIELD, c, -1, 1, roll, 1 if up else 0, 0)
        return
    if aid(mem, st, opts, fs, events, n_events, c):
        return
    exclude = -1
    if grapples and st[c, S_HOLDING] >= 0:
        victim = st[c, S_HOLDING]
        if opts[O_HOLDER_OTHER] == 0 or choose_target(mem, acts, st, fs, c, 0, victim) < 0:
            squeeze(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                    tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                    n_events, c)  # fmt: skip
            return
        exclude = victim
    if mem[c, M_W_POWER] != 0 and st[c, S_POWER_OFF] != 0:
        event(fs, events, n_events, EVENT_IDLE, c, -1, 3, 0, 0, 0)
        return
    if mem[c, M_AIM] > 0 and st[c, S_AIM] < mem[c, M_AIM]:
        st[c, S_AIM] += 1
        event(fs, events, n_events, EVENT_AIM, c, -1, st[c, S_AIM], 0, 0, 0)
        return
    bonus = 2 * st[c, S_AIM] if mem[c, M_W_MELEE] == 0 else 0
    st[c, S_AIM] = 0
    rounds_left = mem[c, M_W_ROUNDS]
    n_act = mem[c, M_N_ACTIONS]
    for k in range(n_act):
        if fs[F_OVER] != 0 and fs[F_DEFER] == 0:
            break
        rounds_left = do_action(mem, acts, opts, shift, rank_col, colour_tab, values,
                                area_mask, pair_tab, tab, tab_later, tab_meta, st, ak, rs, fs,
                                cat_colours, cat_rolls, events, n_events, c, k, n_act,
                                rounds_left, bonus if k == 0 else 0, exclude, grapples, sweeps,
                                areas, bursts)  # fmt: skip


def features(mem, acts) -> tuple[bool, bool, bool, bool]:
    """Which manoeuvres anyone in a fight makes (the general kernel compiles the code of
    these only): a grapple (and then an escape or a squeeze), a sweep, an area attack, a
    three-round burst."""
    n_act = mem[:, M_N_ACTIONS]
    kinds = [int(acts[c, j, AF_KIND]) for c in range(mem.shape[0]) for j in range(int(n_act[c]))]
    return (A_GRAPPLE in kinds, A_SWEEP in kinds, bool((mem[:, M_W_AREA] != 0).any()),
            A_BURST in kinds)  # fmt: skip


def _kernel(grapples, sweeps, areas, bursts):
    """The general kernel's trial loop with the code of the manoeuvres switched on here
    compiled in (:func:`features`): numba takes a closure's variables for constants and prunes
    the branches on them before it types anything, through the inlined ``turn`` and
    ``do_action``, so a fight without a manoeuvre compiles none of its code; each kernel is
    cached apart (its key holds the closure's values)."""

    def trials(chunk, first, n_trials, mem, acts, opts, shift, rank_col, colour_tab, values,
               area_mask, pair_tab, tab, tab_later, tab_meta, pref, st0, n_sides, max_rounds,
               shared, counters, cat_colours, cat_rolls, log_trial, events, n_events, st, ak, rs,
               fs, order, group, key, tie, acting):  # fmt: skip
        winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
        unconscious, dying, broken, severed = counters
        n = mem.shape[0]
        n_events[0] = 0
        for j in range(n_trials):
            rs[0], rs[1], rs[2], rs[3] = trial_seed(chunk[0], chunk[1], chunk[2], chunk[3],
                                                    first + j)  # fmt: skip
            for f in range(fs.shape[0]):
                fs[f] = 0
            fs[F_SIDES] = n_sides
            fs[F_N] = n
            fs[F_LOG] = 1 if j == log_trial else 0
            # one fight from st0 (the state at the start) with the generator rs: fills st and
            # fs (the winner and the round it ended, or unresolved)
            for c in range(n):
                for f in range(st0.shape[1]):
                    st[c, f] = st0[c, f]
            initiative(mem, opts, rs, order, group, key, tie, n)
            for p in range(n):
                event(fs, events, n_events, EVENT_INITIATIVE, order[p], -1, key[order[p]], p,
                      group[p], 0)  # fmt: skip
            end = max_rounds
            for r in range(1, max_rounds + 1):
                fs[F_ROUND] = r
                if opts[O_SHIELD_PER_ROUND] != 0:
                    for c in range(n):
                        if mem[c, M_HAS_SHIELD] != 0 and st[c, S_STATUS] == ST_STANDING:
                            e = _first_enemy(mem, st, fs, c)
                            if e >= 0:
                                st[c, S_SH_MODE] = pref[c, e]
                p = 0
                while p < n and fs[F_OVER] == 0:
                    q = p
                    while q + 1 < n and group[q + 1] == group[p]:
                        q += 1
                    if q > p:
                        fs[F_DEFER] = 1
                        for i in range(p, q + 1):
                            acting[order[i]] = st[order[i], S_STATUS] == ST_STANDING
                    for i in range(p, q + 1):
                        c = order[i]
                        turn(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask,
                             pair_tab, tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours,
                             cat_rolls, events, n_events, c, q > p and acting[c], grapples,
                             sweeps, areas, bursts)  # fmt: skip
                        if fs[F_OVER] != 0 and fs[F_DEFER] == 0:
                            break
                    if q > p:
                        fs[F_DEFER] = 0
                        check_end(mem, st, fs)
                    p = q + 1
                if fs[F_OVER] != 0:
                    end = r
                    break
            if fs[F_OVER] == 0:
                fs[F_WINNER] = UNRESOLVED
            fs[F_ROUND] = end
            event(fs, events, n_events, EVENT_END, -1, -1, fs[F_WINNER], end, 0, 0)
            winner[j] = fs[F_WINNER]
            end_slot[j] = fs[F_ROUND]
            for c in range(n):
                out_slot[j, c] = st[c, S_OUT_T]
                death_slot[j, c] = st[c, S_DEATH_T]
                dealt[j, c] = st[c, S_DEALT]
                taken[j, c] = st[c, S_TAKEN]
                attacks[j, c] = st[c, S_ATTACKS]
                landed[j, c] = st[c, S_LANDED]
                down, bleeding = final_state(st, c)
                unconscious[j, c] = down
                dying[j, c] = bleeding
                broken[j, c] = st[c, S_BROKEN_N]
                severed[j, c] = st[c, S_SEVERED_N]

    name = "trials_" + "".join(str(int(f)) for f in (grapples, sweeps, areas, bursts))
    trials.__name__ = trials.__qualname__ = name  # an index file of numba's cache each
    return jit(trials, _nrt=False)


_MADE: dict = {}
_MAKING = threading.Lock()


def trials_for(grapples: bool, sweeps: bool, areas: bool, bursts: bool):
    """The trial loop for a fight with these :func:`features`, made on first use (and compiled
    on its first call): one for each set, whichever thread asks first."""
    key = (bool(grapples), bool(sweeps), bool(areas), bool(bursts))
    with _MAKING:
        if key not in _MADE:
            _MADE[key] = _kernel(*key)
        return _MADE[key]


def run_chunk(key, first, n_trials, plan, shared, counters, cat_colours, cat_rolls, log_trial,
              events, n_events):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of the chunk with stream key ``key``, on the
    trial loop of the fight's :func:`features`, with its scratch arrays.

    ``plan`` (``compile.Plan``), its arrays int64: ``mem[C, N_MEM]``,
    ``acts[C, MAX_ACTIONS, N_AF]``, ``opts[N_OPT]``, ``shift[K, 2 * CS_MAX + 1]``,
    ``rank_col[R]``, ``colour_tab[K, 101]``, ``values[R]``, ``area_mask[C, C]``,
    ``pair_tab[C, MAX_ACTIONS, C]`` (a static table or -1), ``tab[T, TAB_WIDTH]``,
    ``tab_later[T, 606]``, ``tab_meta[T, N_TM]``, ``pref[C, C]`` (a shield's mode against each
    enemy), ``st0[C, N_ST]``. Outputs: the shared per-trial arrays (``Shared``), the counters
    (``typed.Counters``, int32[n, C]) and the categories (int64[C, 6], added into: attack
    colours, Endurance rolls). ``log_trial`` >= 0: record that trial's events.
    """
    mem, st0 = plan.mem, plan.st0
    n = mem.shape[0]
    trials = trials_for(*features(mem, plan.acts))
    trials(key, first, n_trials, mem, plan.acts, plan.opts, plan.shift, plan.rank_col,
           plan.colour_tab, plan.values, plan.area_mask, plan.pair_tab, plan.tab, plan.tab_later,
           plan.tab_meta, plan.pref, st0, int(plan.n_sides), int(plan.max_rounds), shared,
           counters, cat_colours, cat_rolls, int(log_trial), events, n_events,
           np.empty_like(st0), np.zeros(N_K, np.int64), np.zeros(4, np.uint64),
           np.zeros(N_F, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
           np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_))  # fmt: skip
