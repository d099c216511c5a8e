"""The squad kernel: any number of combatants and sides when every attack of the fight is static
(``tables.py``) and nothing but attacks, wounds and the fallen happen in it.

Each turn slot of such a fight is the general kernel's (``kernel.turn``) without the rules that
cannot come up: the start-of-turn events of the fallen (``fate.turn_start``), then each action's
target (``actions.choose_target``'s rules) and its attack read off the pair's table, and what a
blow that takes a target to 0 Health does (``fate.land``). It draws the same numbers in the same
order as the general kernel, and the tests hold the two to the same outcomes bit for bit.

What keeps an attack short (README "Speed"):

- in a fight of two sides, a run of quiet turn slots (``_quiet``: the combatant stands and
  makes one attack a turn at the first standing enemy) runs in a short loop of its own, on
  through the ends of rounds and through the falls its blows cause (``_fall``), with the two
  sides' targets and their Health in registers; a slot that is not quiet (a volley whose later
  hits roll their own FEAT is never) goes to the round's loop below;
- one int64 array holds the state: a row of ``ROW`` words per combatant (unsigned offsets),
  what a quiet slot reads and writes of it in one cache line; then the fight's own words,
  then the turn slots of a round, each a word packed with all a quiet slot needs to find its
  attack (``SLOT``: the attack waits on one load less than through its row); another
  the tables, a block per table, then the pair words by attacker class and target class
  (combatants whose pair words are the same share a class: a battle's are a few rows, not
  C x C);
- the rules of ``fate.py`` a squad fight can meet (a blow to 0 Health, killed outright, the
  Endurance roll and what its colour does, ranks lost, death at Shift 0, the end of the
  fight) are worked out on those rows, with a count of those standing on each side, so that
  the end of the fight is one test; ``_land`` and ``_endurance`` are inlined by numba, the
  small steps they share (``_stand_change``, ``_go_out``, ``_die``, ``_lose_ranks``) called,
  which LLVM inlines as fast, where numba inlining them at every site took most of the
  kernel's compile; what runs once a trial (initiative: ``_initiative``, bits for the sort
  and the ties, ``_initiative_wide`` a counting sort for more than 64; ``_tally``) is called,
  which leaves the trial loop's registers to the rounds;
- a bleeder draws nothing and changes nothing but itself, so the round it will die in is
  worked out when it starts bleeding and recorded if the fight lasts that long
  (``_bleed_out``); the turn slots of a round run over the standing and those with an
  Endurance roll to come (``live``), each slot writing itself back for the next round as
  the round goes;
- a table whose outcome is a function of the two rolls' colours (a contest, a FEAT, a plain
  roll) is two words a roll, one for the attack's and one for the target's, whose sum
  shifted down is the entry's index, the comparison of the rolls' keys the borrow of a
  subtraction (``_colour_words``, ``_entry``); any other table a byte code per roll pair;
- the volley's hits an integer multiply (1 for a miss or a single attack), an attack's colour,
  attack and hit one add into a packed count (``COUNTS``, a quiet attack's read off its
  entry's low bits), and a blow that drops nobody two subtractions and one predictable test;
- each side's first standing member is kept as members fall and stand up again, and each
  side's first standing enemy worked out then (``_enemies``), so an attack on it reads one
  word;
- the trial loop is compiled without reference counting (it allocates nothing), and trials go
  straight into the tally when the run does not keep them (``accumulate``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._jit import INNER, jit
from ...engine.outcomes import outcome_index
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    AF_TARGET,
    BLUE,
    DN_BLEEDING,
    DN_GREEN,
    DN_PENDING,
    DN_STABLE,
    DRAW,
    GREEN,
    M_N_ACTIONS,
    M_SIDE,
    M_TARGETING,
    M_VAL_A,
    MAX_ACTIONS,
    O_DEATH_IMMEDIATE,
    O_FLEE,
    O_KILL_THREATENED,
    O_ROLL_NEXT_TURN,
    O_TIES,
    RED,
    S_ATTACKS,
    S_BLEED_FROM,
    S_BROKEN_N,
    S_DEALT,
    S_DEATH_T,
    S_DIE_NEXT,
    S_DOWN,
    S_DROPS,
    S_HEALTH,
    S_HMAX,
    S_LANDED,
    S_OUT_T,
    S_RANK_E,
    S_SEVERED_N,
    S_STATUS,
    S_TAKEN,
    ST_DEAD,
    ST_DOWN,
    ST_FLED,
    ST_STANDING,
    SUPER_CRIT,
    T_CODED,
    T_CONTEST,
    T_FEAT,
    TAB_CODES,
    TAB_DEF_BYTE,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TAB_VALUES,
    TAB_WIDTH,
    TIE_AGILITY,
    TM_LATER,
    UNRESOLVED,
    WHITE,
    YELLOW,
)
from .kernel import MAX_REROLLS, initiative

__all__ = ["Scratch", "SquadTables", "run_chunk", "squad_tables"]

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_N10000 = np.uint64(10000)
_N100 = np.uint64(100)
_N10 = np.uint64(10)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_S32I = np.int64(32)

#: The columns of a combatant's row of the state (unsigned, so no negative-index wraparound
#: code). First the words a quiet slot (``_quiet``) reads or writes, in one cache line: its
#: Health, status, ``FIRST`` (which actions attack the first standing enemy, a bit each, and
#: more, see ``QUICK``), its packed counts (``COUNTS``: its attacks' colours, 9 bits each,
#: and landed, from bit 54, since the last ``_flush``), dealt, taken, its column of pair words
#: as a target (``squad_tables``' ``where``) and where its side's words start (``fa + SIDES
#: + 4 x side``); then the rest of what a trial changes (``fate.py``'s ``S_*`` of a squad
#: fight), then what it does not: its side, actions a turn, the next member of its side,
#: its turn slot's word (``SLOT``: where its row of pair words starts and more) and the rounds
#: of each action's hit die (1: a single attack).
(
    HEALTH, STATUS, FIRST, COUNTS, DEALT, TAKEN, TCOL, VS, DOWN, DIE_NEXT, BLEED_FROM, RANK_E,
    HMAX, DROPS, OUT_T, DEATH_T, ATTACKS, LANDED, DUE, POS, SIDE, N_ACT, NEXT, SLOT, ROUNDS,
) = (np.uint64(i) for i in range(25))  # fmt: skip
#: ``FIRST``'s bit ``QUICK``: its turn is one attack on the first standing enemy, not a volley
#: whose later hits roll their own FEAT (``_quiet``'s slots).
QUICK = np.int64(1 << MAX_ACTIONS)
#: ``FIRST``'s bit ``UP``: it stands (set and cleared with ``STATUS`` by ``_stand_change``), so
#: that a quiet slot's test of both is one compare of ``FIRST`` with ``QUICK_UP``.
UP = np.int64(1 << (MAX_ACTIONS + 2))
QUICK_UP = QUICK | UP
#: A turn slot's word (``SLOT``; the slots of a round hold these): the combatant (bits 0-19),
#: whether its side is not the first (bit 20), the rounds of its first action's hit die
#: (bits 21-31, up to 2047: ``QUICK`` only then) and where its row of pair words starts
#: (from bit 32). A quiet slot finds its attack's pair word from the slot's word, without
#: waiting on a load of its row first (the row's ``FIRST`` is read alongside, for the test).
_C_MASK = np.int64((1 << 20) - 1)
_SW_SIDE = np.int64(1 << 20)
_SW_ROUNDS = np.uint64(21)
ROW = np.uint64(32)
#: The columns a row starts from ``st0`` and the ``S_*`` they start from.
_COLS = (HEALTH, STATUS, DOWN, DIE_NEXT, BLEED_FROM, RANK_E, HMAX, DROPS, OUT_T, DEATH_T, DEALT,
         TAKEN, ATTACKS, LANDED)  # fmt: skip
_FROM_ST = (S_HEALTH, S_STATUS, S_DOWN, S_DIE_NEXT, S_BLEED_FROM, S_RANK_E, S_HMAX, S_DROPS,
            S_OUT_T, S_DEATH_T, S_DEALT, S_TAKEN, S_ATTACKS, S_LANDED)  # fmt: skip
#: The fight's own state after the rows (``fate``'s ``F_*`` of a squad fight, at ``fa``):
#: over, the winner, the number of sides, the sides with anyone standing; then four words a
#: side (at ``fa + SIDES + 4 x side``): those standing, its first standing member (``n``:
#: none), its first standing enemy (-1: none; ``_enemies``) and one unused; then the turn
#: slots of a round (``live``).
G_OVER, G_WINNER, G_SIDES, G_LEFT = (np.uint64(i) for i in range(4))
SIDES = np.uint64(4)
V_STANDING, V_FIRST_UP, V_ENEMY = (np.uint64(i) for i in range(3))
#: A table's block in ``tabs`` (``TB`` words at ``TB x table``): the attack's words by roll,
#: the target's, then the entries (``tables.entry``; by byte code for a coded table).
TB = 456
_DFN = np.uint64(100)
_ENT = np.uint64(200)
#: A pair word: its table's block (bits 0-31), coded (bit 32), later hits rolling their own
#: FEAT (bit 33), the table (bits 34-47, ``tab_later``'s row), the coded table's byte codes
#: (from bit 48, in 10,000s).
_BLOCK = np.int64(0xFFFFFFFF)
_CODED = np.int64(1 << 32)
_LATER = np.int64(1 << 33)
#: The state of the fallen after an Endurance roll of each colour (``_endurance``): Blue and
#: White bleed, Green rolls again at its next turn, Yellow and Red are stable (and a
#: Super-crit stands up).
_DOWN_OF = np.zeros(6, np.int64)
_DOWN_OF[[BLUE, WHITE]] = DN_BLEEDING
_DOWN_OF[GREEN] = DN_GREEN
_DOWN_OF[[YELLOW, RED, SUPER_CRIT]] = DN_STABLE
#: What an entry adds to its attacker's packed counts (``COUNTS``), by its low four bits
#: (hit, colour).
_COUNT_INC = np.array([((1 << (9 * (e >> 1))) + ((e & 1) << 54)) if e >> 1 < 6 else 0
                       for e in range(16)], np.int64)  # fmt: skip


def _colour_words(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A formula table's words by roll (``tables.entry``): the attack's ``(2 x index part) <<
    32 | key`` and the target's ``(2 x index part + 1) << 32`` less its key and 1. The entry
    is ``index parts + 6 x (attack key > target key)``: a contest's keys are colour x 128 +
    roll (the higher colour, then the higher roll; 0 for an attack below Green, which never
    wins), a FEAT's and a plain roll's never win. The sum of the two words, shifted down 32,
    is twice the index parts plus whether the attack's key is the higher (the keys' difference
    borrows from the high half when it is not), so an entry is two loads, an add and a
    shift from the roll pair (``_entries`` reorders the entries to match)."""
    colours = row[:26].view(np.uint8)
    ca = colours[:100].astype(np.int64)
    cd = colours[TAB_DEF_BYTE:TAB_DEF_BYTE + 100].astype(np.int64)
    rolls = np.arange(100, dtype=np.int64)
    kind = int(row[TAB_WIDTH - 1])
    if kind == T_CONTEST:
        pa, ka = ca, np.where(ca >= GREEN, ca * 128 + rolls, 0)
        pd, kd = np.zeros(100, np.int64), cd * 128 + rolls
    elif kind == T_FEAT:
        pa, ka, pd, kd = 6 * ca, np.zeros(100, np.int64), cd, np.zeros(100, np.int64)
    else:
        pa, ka, pd, kd = ca, np.zeros(100, np.int64), np.zeros(100, np.int64), np.zeros(
            100, np.int64)  # fmt: skip
    return ((2 * pa) << 32) | ka, ((2 * pd + 1) << 32) - kd - 1


def _entries(values: np.ndarray) -> np.ndarray:
    """A formula table's entries (``index parts + 6 x won``) at ``2 x index parts + won``
    (``_colour_words``)."""
    out = np.zeros_like(values)
    idx = np.arange(len(values))
    src = (idx >> 1) + 6 * (idx & 1)
    ok = src < len(values)
    out[ok] = values[src[ok]]
    return out


class SquadTables(NamedTuple):
    """What the squad kernel reads of a fight's static tables and actions (``squad_tables``
    says what each holds): ``tabs`` (int64: the tables' blocks, then the pair words),
    ``codes`` (uint8: the coded tables' byte codes), ``a_rounds`` and ``a_first``
    (int64[C, MAX_ACTIONS]: each action's hit die rounds, whether it attacks the first
    standing enemy) and ``where`` (int64[C, 2]: each combatant's row and column of pair
    words)."""

    tabs: np.ndarray
    codes: np.ndarray
    a_rounds: np.ndarray
    a_first: np.ndarray
    where: np.ndarray


class Scratch(NamedTuple):
    """The arrays :func:`run_chunk` allocates once a chunk for its trial loop (``_trials``),
    which writes them and allocates nothing. ``fresh``: the rows and the fight's words as
    every trial starts (``_fresh``); ``st``: the trial's (a row of ``ROW`` words a
    combatant, then the fight's, then the turn slots); ``colours`` (int64[8 C]): the attack
    colours counted over the chunk; ``agi``, ``u_agi`` (int64[C], uint64[C]): each
    combatant's Agility and its die (at least 1); initiative's working arrays: ``order``
    (int64[C + 3]: the turn order, three spare words for ``_rerun_short``), ``key``
    (int64[C]), ``masks`` (uint64[65]: ``_initiative``'s words of bits), ``rs`` (uint64[4]:
    the generator's state for ``kernel.initiative``), ``group`` (int64[C]), ``tie``
    (int64[3 C + 2]: the runs of ties) and ``cnt`` (int64[max Agility + 2]:
    ``_initiative_wide``'s counting sort)."""

    fresh: np.ndarray
    st: np.ndarray
    colours: np.ndarray
    agi: np.ndarray
    u_agi: np.ndarray
    order: np.ndarray
    key: np.ndarray
    masks: np.ndarray
    rs: np.ndarray
    group: np.ndarray
    tie: np.ndarray
    cnt: np.ndarray


def squad_tables(plan, rounds, autofire) -> SquadTables:
    """What the squad kernel reads of a fight's static tables and actions, once per plan:
    ``tabs`` (int64: a block of ``TB`` words a table, then the pair words by attacker class
    and target class), the byte codes of the coded tables (uint8[10000 a coded table], at
    least one), by action (int64[C, MAX_ACTIONS]) the rounds of its hit die and whether it
    attacks the first standing enemy (no preferred target, ``targeting: first``), and by
    combatant (int64[C, 2]) where its row of pair words starts as an attacker and its column
    as a target: the pair word of action ``k`` of ``c`` at ``t`` is at ``where[c, 0] +
    where[t, 1] + k``. Combatants whose pair words are the same share a class, so a battle
    of many members of a few kinds reads a few rows."""
    tab = plan.tab
    n_tab = tab.shape[0]
    n = plan.n_combatants
    tabs = np.zeros(n_tab * TB, np.int64)
    coded = [p for p in range(n_tab) if tab[p, TAB_WIDTH - 1] == T_CODED]
    codes = np.zeros(10000 * max(len(coded), 1), np.uint8)
    flags = np.zeros(n_tab, np.int64)
    for p in range(n_tab):
        block = tabs[TB * p:TB * (p + 1)]
        values = tab[p, TAB_CODES:TAB_CODES + TAB_VALUES]
        flags[p] = TB * p | (p << 34) | (int(_LATER) if plan.tab_meta[p, TM_LATER] else 0)
        if p in coded:
            i = coded.index(p)
            flags[p] |= int(_CODED) | (i << 48)
            codes[10000 * i:10000 * (i + 1)] = tab[p, :TAB_CODES].view(np.uint8)[:10000]
            block[200:456] = values
        else:
            block[:100], block[100:200] = _colour_words(tab[p])
            block[200:456] = _entries(values)
    pair = np.transpose(plan.pair_tab, (0, 2, 1))  # [c, t, k]
    words = np.where(pair >= 0, flags[np.maximum(pair, 0)], -1)
    # targets with the same pair words from every attacker share a column, attackers with the
    # same row over those columns a row: a battle's words are a few classes' (the L1 cache)
    t_first, t_cls = np.unique(words.transpose(1, 0, 2).reshape(n, -1), axis=0,
                               return_index=True, return_inverse=True)[1:]  # fmt: skip
    by_class = words[:, t_first, :]  # [c, target class, k]
    rows, a_cls = np.unique(by_class.reshape(n, -1), axis=0, return_inverse=True)
    tabs = np.concatenate([tabs[:n_tab * TB], rows.reshape(-1)])
    a_rounds = np.where(autofire != 0, rounds, 1).astype(np.int64)
    a_first = ((plan.acts[:, :, AF_TARGET] < 0)
               & (plan.mem[:, M_TARGETING] == 0)[:, None]).astype(np.int64)
    n_cls = len(t_first)
    where = np.stack([n_tab * TB + a_cls.reshape(-1) * n_cls * MAX_ACTIONS,
                      t_cls.reshape(-1) * MAX_ACTIONS], axis=1).astype(np.int64)  # fmt: skip
    return SquadTables(tabs, codes, a_rounds, a_first, where)


@jit(inline="always")
def _entry(tabs, codes, w, lo):
    """The packed outcome (``codes.TAB_*``) of the roll pair of the low half ``lo`` (uint64)
    of a generator output (``(lo x 10000) >> 32``, the attack's roll its hundreds) of the
    table of pair word ``w`` (``tables.entry``)."""
    b = np.uint64(w & _BLOCK)
    jj = (lo * _N10000) >> _S32
    if w & _CODED:
        code = np.uint64(codes[np.uint64(10000 * (w >> 48)) + jj])
        return tabs[b + _ENT + code]
    ra = (lo * _N100) >> _S32  # jj // 100, without waiting on jj
    i = (tabs[b + ra] + tabs[b + _DFN + jj - _N100 * ra]) >> _S32I
    return tabs[b + _ENT + np.uint64(i)]


@jit(inline="always")
def _target(mem, acts, st, n, c, k):
    """``actions.choose_target`` without ``finish_fallen`` or an excluded victim."""
    side = mem[c, M_SIDE]
    pref = acts[c, k, AF_TARGET]
    if pref >= 0 and st[np.uint64(pref) * ROW + STATUS] == ST_STANDING:
        return pref
    rule = mem[c, M_TARGETING]
    best = -1
    for e in range(n):
        re = np.uint64(e) * ROW
        if mem[e, M_SIDE] == side or st[re + STATUS] != ST_STANDING:
            continue
        if rule == 0:
            return e
        h = st[re + HEALTH]
        if best < 0 or (rule == 1 and h < st[np.uint64(best) * ROW + HEALTH]) or (
                rule == 2 and h > st[np.uint64(best) * ROW + HEALTH]):  # fmt: skip
            best = e
    return best


@jit(inline="always")
def _live(st, rc):
    """Whether the combatant of row ``rc`` can still do anything at its turn slot (1 or 0): it
    stands, or it lies with an Endurance roll to come (``fate.turn_start``; a bleeder's slots
    are worked out when it starts bleeding, see ``_endurance``)."""
    status = st[rc + STATUS]
    down = st[rc + DOWN]
    return np.int64((status == ST_STANDING) | (
        (status == ST_DOWN) & ((down == DN_PENDING) | (down == DN_GREEN))))  # fmt: skip


@jit(**INNER)
def _stand_change(st, fa, rc, c, d, n):
    """``c`` (of row ``rc``) stands up (``d`` 1) or stops standing (-1): its ``UP`` bit, the
    count of its side standing and of the sides with anyone standing, and its side's first
    standing member, found again along the side's members (``NEXT``) when it was ``c``."""
    vs = fa + SIDES + np.uint64(4) * np.uint64(st[rc + SIDE])
    before = st[vs + V_STANDING]
    st[vs + V_STANDING] = before + d
    if before == 0:
        st[fa + G_LEFT] += 1
    elif before + d == 0:
        st[fa + G_LEFT] -= 1
    if d > 0:
        st[rc + FIRST] |= UP
        if c < st[vs + V_FIRST_UP]:
            st[vs + V_FIRST_UP] = c
    else:
        st[rc + FIRST] &= ~UP
    if d < 0 and st[vs + V_FIRST_UP] == c:
        e = st[rc + NEXT]
        while e < n and st[np.uint64(e) * ROW + STATUS] != ST_STANDING:
            e = st[np.uint64(e) * ROW + NEXT]
        st[vs + V_FIRST_UP] = e
    _enemies(st, fa, n)


@jit(**INNER)
def _enemies(st, fa, n):
    """Each side's first standing enemy (``V_ENEMY``; -1: none), the lowest first standing
    member of the other sides: the lowest and the second lowest over the sides, one pass.
    Worked out whenever anyone stops or starts standing, so that an attack on it reads one
    word (``_quiet`` runs on through a fall)."""
    first = n
    second = n
    at = -1
    for s in range(st[fa + G_SIDES]):
        up = st[fa + SIDES + np.uint64(4 * s) + V_FIRST_UP]
        if up < first:
            second = first
            first = up
            at = s
        elif up < second:
            second = up
    for s in range(st[fa + G_SIDES]):
        e = second if s == at else first
        st[fa + SIDES + np.uint64(4 * s) + V_ENEMY] = e if e < n else -1


@jit(**INNER)
def _go_out(st, fa, rc, r, n_sides):
    """``fate.go_out``: the round it first went out; then whether the fight is over
    (``fate.check_end``: at most one side with anyone standing)."""
    if st[rc + OUT_T] == 0:
        st[rc + OUT_T] = r
    if st[fa + G_OVER] == 0 and st[fa + G_LEFT] <= 1:
        st[fa + G_OVER] = 1
        st[fa + G_WINNER] = DRAW
        for s in range(n_sides):
            if st[fa + SIDES + np.uint64(4 * s) + V_STANDING] > 0:
                st[fa + G_WINNER] = s


@jit(**INNER)
def _die(st, fa, rc, c, r, n, n_sides):
    """``fate.die``: death at Shift 0 or killed outright."""
    status = st[rc + STATUS]
    if status == ST_DEAD:
        return
    st[rc + DROPS] += 1
    st[rc + STATUS] = ST_DEAD
    st[rc + DEATH_T] = r
    st[rc + DIE_NEXT] = 0
    if status == ST_STANDING:
        _stand_change(st, fa, rc, c, -1, n)
    if status == ST_STANDING or st[rc + OUT_T] == 0:
        _go_out(st, fa, rc, r, n_sides)


@jit(**INNER)
def _lose_ranks(st, fa, rc, c, r, n, n_sides, k, immediate):
    """``fate.lose_ranks``: ``k`` ranks (no Health tracks Endurance in a squad fight)."""
    new = st[rc + RANK_E] - k
    new = new if new > 0 else 0
    st[rc + RANK_E] = new
    if k > 0 and new == 0:
        if immediate:
            _die(st, fa, rc, c, r, n, n_sides)
        else:
            st[rc + DIE_NEXT] = 1


@jit(inline="always")
def _endurance(s0, s1, s2, s3, st, fa, colour_tab, rank_col, cat_rolls, c, rc, r, n, n_sides,
               flee, immediate, now):  # fmt: skip
    """``fate.endurance_roll`` in round ``r`` at the turn slot of position ``now``: one
    generator step. Returns the generator.

    A White or Blue bleeds out of the fight: it loses a rank at each of its turn slots from
    the next round on and dies at Shift 0 or at its next slot (CA70-CA72), which draws nothing
    and changes nothing else, so the round it will die in is worked out here (``DUE``, at its
    own slot; ``_bleed_out`` records it if the fight lasts that long) and its slots are
    skipped."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    roll = (((x & _LOW32) * _N100) >> _S32) + _ONE
    colour = colour_tab[np.uint64(rank_col[np.uint64(st[rc + RANK_E])]), roll]
    cat_rolls[np.uint64(c), np.uint64(colour)] += 1
    if colour == SUPER_CRIT:
        health = np.int64(((x >> _S32) * _N10) >> _S32) + 1
        if flee:
            st[rc + STATUS] = ST_FLED
            return s0, s1, s2, s3
        st[rc + STATUS] = ST_STANDING
        _stand_change(st, fa, rc, c, 1, n)
        cap = st[rc + HMAX] if st[rc + HMAX] > 1 else 1
        st[rc + HEALTH] = health if health < cap else cap
        st[rc + DOWN] = DN_STABLE
        return s0, s1, s2, s3
    # Blue and White bleed, Green rolls again, Yellow and Red are stable: written without a
    # branch on the colour but Blue's ranks lost
    bleeds = (colour == WHITE) | (colour == BLUE)
    st[rc + DOWN] = _DOWN_OF[np.uint64(colour)]
    st[rc + BLEED_FROM] = r if bleeds else st[rc + BLEED_FROM]
    if colour == BLUE:
        _lose_ranks(st, fa, rc, c, r, n, n_sides, 2, immediate)
        if st[rc + RANK_E] == 0:  # dead now, or at its next slot: this round's if to come
            if not immediate:
                st[rc + DUE] = r if st[rc + POS] > now else r + 1
            return s0, s1, s2, s3
    # a rank at each slot from round r + 1: at 0 in round r + q (a rank of 0 at once)
    q = st[rc + RANK_E]
    due = r + (q if q > 1 else 1) + (0 if immediate else 1)
    st[rc + DUE] = due if bleeds else st[rc + DUE]
    return s0, s1, s2, s3


@jit(inline="always")
def _land(s0, s1, s2, s3, st, fa, values, colour_tab, rank_col, cat_rolls, ra, t, rt, r, n,
          n_sides, net, blow, roll_now, flee, immediate):  # fmt: skip
    """``fate.land``: a blow of ``net`` from the attacker of row ``ra`` on ``t``; killed
    outright when ``blow`` reaches the Health it had plus its Endurance value, else down
    (``fate.drop``) and the Endurance roll now or at its next turn. Returns the generator."""
    if net <= 0 or st[rt + STATUS] != ST_STANDING:
        return s0, s1, s2, s3
    h = st[rt + HEALTH]
    loss = net if net < h else h
    st[rt + HEALTH] = h - loss
    st[ra + DEALT] += loss
    st[rt + TAKEN] += loss
    if h - loss > 0:
        return s0, s1, s2, s3
    if blow >= h + values[np.uint64(st[rt + RANK_E])]:
        _die(st, fa, rt, t, r, n, n_sides)
        return s0, s1, s2, s3
    st[rt + STATUS] = ST_DOWN
    st[rt + DOWN] = DN_PENDING
    st[rt + DROPS] += 1
    _stand_change(st, fa, rt, t, -1, n)
    _go_out(st, fa, rt, r, n_sides)
    if roll_now:
        s0, s1, s2, s3 = _endurance(s0, s1, s2, s3, st, fa, colour_tab, rank_col, cat_rolls, t,
                                    rt, r, n, n_sides, flee, immediate,
                                    st[ra + POS])  # fmt: skip
    return s0, s1, s2, s3


@jit(inline="always")
def _fall(s0, s1, s2, s3, st, fa, colour_tab, rank_col, cat_rolls, t, rt, r, n, n_sides, over,
          roll_now, flee, immediate, now):  # fmt: skip
    """``fate.land``'s end for a blow that took ``t`` (of row ``rt``, standing) to 0 Health,
    its Health and what it took already written: killed outright when the blow is over what
    it had by at least its Endurance value (``over``, what the blow exceeds its Health by,
    against ``values``' entry), else down (``fate.drop``) and the Endurance roll now or at its
    next turn (attacker at position ``now``), for the quiet loop (``_quiet``), which goes on
    after it. Returns the generator."""
    if over:
        _die(st, fa, rt, t, r, n, n_sides)
        return s0, s1, s2, s3
    st[rt + STATUS] = ST_DOWN
    st[rt + DOWN] = DN_PENDING
    st[rt + DROPS] += 1
    _stand_change(st, fa, rt, t, -1, n)
    _go_out(st, fa, rt, r, n_sides)
    if roll_now:
        s0, s1, s2, s3 = _endurance(s0, s1, s2, s3, st, fa, colour_tab, rank_col, cat_rolls, t,
                                    rt, r, n, n_sides, flee, immediate, now)  # fmt: skip
    return s0, s1, s2, s3


@jit(**INNER)
def _rerun_short(s0, s1, s2, s3, u_agi, order, ip, iq):
    """Initiative's re-roll of the run of ties at positions ``ip .. iq`` (uint64) of ``order``,
    three or four long, with no branch on its rolls or its length: four draws, the generator
    kept after as many as the run has members; the members sorted by a network on keys made
    distinct (the roll, then the earlier position first: the insertion sort's stable order),
    the positions past the run keyed below every roll, so that they keep what they hold
    (``order`` has three words more than the combatants). Returns the generator and whether
    the first and second, second and third, third and fourth members tie again (0 or 1).
    Called, not inlined: inlined into both initiatives it was 10 % faster and cost 1.5 s more
    of a cold compile."""
    ln = iq - ip + _ONE
    c0 = np.uint64(order[ip])
    c1 = np.uint64(order[ip + _ONE])
    c2 = np.uint64(order[ip + _TWO])
    c3 = np.uint64(order[ip + _THREE])
    a0, a1, a2, a3, x0 = xoshiro_bits(s0, s1, s2, s3)
    b0, b1, b2, b3, x1 = xoshiro_bits(a0, a1, a2, a3)
    d0, d1, d2, d3, x2 = xoshiro_bits(b0, b1, b2, b3)
    e0, e1, e2, e3, x3 = xoshiro_bits(d0, d1, d2, d3)
    three = ln == _THREE
    four = ln > _THREE
    s0 = e0 if four else (d0 if three else b0)
    s1 = e1 if four else (d1 if three else b1)
    s2 = e2 if four else (d2 if three else b2)
    s3 = e3 if four else (d3 if three else b3)
    k0 = (((((x0 & _LOW32) * u_agi[c0]) >> _S32) + _ONE) << _TWO) | _THREE
    k1 = (((((x1 & _LOW32) * u_agi[c1]) >> _S32) + _ONE) << _TWO) | _TWO
    k2 = (((((x2 & _LOW32) * u_agi[c2]) >> _S32) + _ONE) << _TWO) | _ONE if ln > _TWO else _ONE
    k3 = ((((x3 & _LOW32) * u_agi[c3]) >> _S32) + _ONE) << _TWO if four else _ZERO
    k0, k1, c0, c1 = (k1, k0, c1, c0) if k1 > k0 else (k0, k1, c0, c1)
    k2, k3, c2, c3 = (k3, k2, c3, c2) if k3 > k2 else (k2, k3, c2, c3)
    k0, k2, c0, c2 = (k2, k0, c2, c0) if k2 > k0 else (k0, k2, c0, c2)
    k1, k3, c1, c3 = (k3, k1, c3, c1) if k3 > k1 else (k1, k3, c1, c3)
    k1, k2, c1, c2 = (k2, k1, c2, c1) if k2 > k1 else (k1, k2, c1, c2)
    order[ip] = c0
    order[ip + _ONE] = c1
    order[ip + _TWO] = c2
    order[ip + _THREE] = c3
    t01 = np.uint64((k0 >> _TWO) == (k1 >> _TWO))
    t12 = np.uint64((k1 >> _TWO) == (k2 >> _TWO)) & np.uint64(ln > _TWO)
    t23 = np.uint64((k2 >> _TWO) == (k3 >> _TWO)) & np.uint64(four)
    return s0, s1, s2, s3, t01, t12, t23


@jit(**INNER)
def _initiative(s0, s1, s2, s3, agi, u_agi, max_u, order, key, masks, n):
    """``kernel.initiative`` under ``initiative_ties: reroll`` for at most 64 combatants whose
    Agility values are at most 64, with the generator in registers; returns it. The first
    sort counts the combatants by roll and places them highest roll first, in listed order
    within a roll (the insertion sort's stable order), with no branch on the rolls; the ties
    are the bits of a word (position p tied with p + 1), and each round of re-rolls runs over
    its runs of set bits, a tied pair (the most common) without a loop, a run of three or four
    without a branch on its rolls (``_rerun_short``). Every index read off an array is unsigned
    (numba's code for a negative index is three instructions an index). ``order`` has three
    words more than the combatants."""
    for v in range(max_u + 1):
        masks[v] = _ZERO
    for c in range(n):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        k = (((x & _LOW32) * u_agi[c]) >> _S32) + _ONE  # unsigned: no wraparound code
        key[c] = np.int64(k)
        masks[k] += _ONE
    start = _ZERO
    tied = _ZERO
    for v in range(max_u, 0, -1):  # counts to first positions, the ties' bits: no branch
        m = masks[v]
        masks[v] = start
        run = (_ALL >> ((np.uint64(64) - m) & np.uint64(63))) >> _ONE
        tied |= (run if m > _ONE else _ZERO) << (start & np.uint64(63))
        start += m
    for c in range(n):
        k = np.uint64(key[c])
        order[masks[k]] = c
        masks[k] += _ONE
    any_small = False  # anyone of Agility 1 or less (a run of them all is not re-rolled)
    for c in range(n):
        any_small |= agi[c] <= 1
    for _ in range(MAX_REROLLS):
        if tied == _ZERO:
            break
        left = tied
        tied = _ZERO
        while left != _ZERO:
            p = trailing_zeros(left)
            q = p + trailing_zeros(~(left >> p))  # positions p .. q tied
            left &= ~(((_ONE << (q - p)) - _ONE) << p)
            ip, iq = np.uint64(p), np.uint64(q)
            if iq == ip + _ONE:  # a pair, the most common tie: no loops, no branch on the rolls
                ca, cb = np.uint64(order[ip]), np.uint64(order[iq])
                if agi[ca] <= 1 and agi[cb] <= 1:
                    continue
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                ka = np.int64(((x & _LOW32) * u_agi[ca]) >> _S32) + 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                kb = np.int64(((x & _LOW32) * u_agi[cb]) >> _S32) + 1
                key[ca] = ka
                key[cb] = kb
                swap = kb > ka
                order[ip] = cb if swap else ca
                order[iq] = ca if swap else cb
                tied |= np.uint64(ka == kb) << p
                continue
            if iq - ip < np.uint64(4) and not any_small:
                s0, s1, s2, s3, t01, t12, t23 = _rerun_short(s0, s1, s2, s3, u_agi, order, ip,
                                                             iq)  # fmt: skip
                tied |= (t01 | (t12 << _ONE) | (t23 << _TWO)) << ip
                continue
            if any_small:  # a tie of d1s keeps the listed order
                small = True
                for i in range(ip, iq + _ONE):
                    if agi[np.uint64(order[i])] > 1:
                        small = False
                if small:
                    continue
            for i in range(ip, iq + _ONE):
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                c = np.uint64(order[i])
                key[c] = np.int64(((x & _LOW32) * u_agi[c]) >> _S32) + 1
            for i in range(ip + _ONE, iq + _ONE):
                c = order[i]
                kc = key[np.uint64(c)]
                jj = i
                while jj > ip and kc > key[np.uint64(order[jj - _ONE])]:
                    order[jj] = order[jj - _ONE]
                    jj -= _ONE
                order[jj] = c
            for i in range(ip, iq):
                tied |= np.uint64(key[np.uint64(order[i])] == key[np.uint64(order[i + _ONE])]) << i
    return s0, s1, s2, s3


@jit(**INNER)
def _initiative_wide(s0, s1, s2, s3, agi, u_agi, max_u, order, key, cnt, runs, n):
    """``kernel.initiative`` under ``initiative_ties: reroll`` for any number of combatants
    (``_initiative`` holds at most 64), with the generator in registers; returns it.

    The first sort counts the combatants by roll and places them highest roll first, in
    listed order within a roll (the insertion sort's stable order), in one pass; a roll's
    combatants, where more than one, are a run of ties. Each round of re-rolls goes over the
    round's runs in order (``runs``: two lists of ``start << 32 | end``, this round's and the
    next's, ``n`` words apart), re-rolls a run in its order and sorts it again, by insertion
    (a pair without a loop) or, for a long run, by counting; the ties that remain in it are
    the next round's runs, in the same order. Only the runs are visited, not every position
    (a battle of many combatants with a few sides of die has runs of ten and more, and most
    positions tie at first, few after a round or two). Every index read off an array is
    unsigned: numba's code for a negative index (three instructions an index) was a quarter of
    the time. A run of three or four is re-rolled without a branch on its rolls
    (``_rerun_short``); ``order`` has three words more than the combatants."""
    for v in range(max_u + 2):
        cnt[v] = 0
    for c in range(n):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        k = ((x & _LOW32) * u_agi[c]) >> _S32  # the roll less 1 (unsigned: no wraparound code)
        key[c] = np.int64(k) + 1
        cnt[k + _ONE] += 1
    start = 0
    n_runs = 0
    for v in range(max_u, 0, -1):
        m = cnt[v]
        cnt[v] = start
        if m > 1:
            runs[n_runs] = (start << 32) | (start + m - 1)
            n_runs += 1
        start += m
    for c in range(n):
        at = np.uint64(key[c])
        order[np.uint64(cnt[at])] = c
        cnt[at] += 1
    for v in range(max_u + 2):
        cnt[v] = 0
    any_small = False  # anyone of Agility 1 or less (a run of them all is not re-rolled)
    for c in range(n):
        any_small |= agi[c] <= 1
    un = np.uint64(n)
    cur = _ZERO
    spare = un + un
    for _ in range(MAX_REROLLS):
        if n_runs == 0:
            break
        nxt = un - cur  # the other list
        n_next = _ZERO
        for i_run in range(n_runs):
            word = np.uint64(runs[cur + np.uint64(i_run)])
            p = word >> _S32
            q = word & _LOW32
            if q == p + _ONE:  # a pair, the most common tie: no loops, no branch on the rolls
                ca, cb = np.uint64(order[p]), np.uint64(order[q])
                if agi[ca] <= 1 and agi[cb] <= 1:
                    continue
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                ka = np.int64(((x & _LOW32) * u_agi[ca]) >> _S32) + 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                kb = np.int64(((x & _LOW32) * u_agi[cb]) >> _S32) + 1
                key[ca] = ka
                key[cb] = kb
                swap = kb > ka
                order[p] = cb if swap else ca
                order[q] = ca if swap else cb
                runs[nxt + n_next] = word
                n_next += np.uint64(ka == kb)
                continue
            if q - p < _FOUR and not any_small:
                # three or four: the next round's runs from the ties, with no branch (a word
                # past the list's end is written over by the next)
                s0, s1, s2, s3, t01, t12, t23 = _rerun_short(s0, s1, s2, s3, u_agi, order, p,
                                                             q)  # fmt: skip
                runs[nxt + n_next] = (p << _S32) | (p + _ONE + t12 + (t12 & t23))
                n_next += t01
                runs[nxt + n_next] = ((p + _ONE) << _S32) | (p + _TWO + t23)
                n_next += t12 & (_ONE - t01)
                runs[nxt + n_next] = ((p + _TWO) << _S32) | (p + _THREE)
                n_next += t23 & (_ONE - t12)
                continue
            if any_small:  # a tie of d1s keeps the listed order
                small = True
                for i in range(p, q + _ONE):
                    if agi[np.uint64(order[i])] > 1:
                        small = False
                if small:
                    continue
            if q - p < 8:
                for i in range(p, q + _ONE):
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    c = np.uint64(order[i])
                    key[c] = np.int64(((x & _LOW32) * u_agi[c]) >> _S32) + 1
                for i in range(p + _ONE, q + _ONE):
                    c = order[i]
                    kc = key[np.uint64(c)]
                    jj = i
                    while jj > p and kc > key[np.uint64(order[jj - _ONE])]:
                        order[jj] = order[jj - _ONE]
                        jj -= _ONE
                    order[jj] = c
                i = p
                while i < q:
                    j = i
                    ki = key[np.uint64(order[i])]
                    while j < q and key[np.uint64(order[j + _ONE])] == ki:
                        j += _ONE
                    if j > i:
                        runs[nxt + n_next] = (i << _S32) | j
                        n_next += _ONE
                    i = j + _ONE
                continue
            # a long run: re-rolled into ``key`` and counted, its members kept aside in
            # ``runs``' spare words (from ``2 n``) and placed back by roll
            for i in range(p, q + _ONE):
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                c = order[i]
                uc = np.uint64(c)
                k = ((x & _LOW32) * u_agi[uc]) >> _S32
                key[uc] = np.int64(k) + 1
                cnt[k + _ONE] += 1
                runs[spare + i - p] = c
            at = p
            # the next round's runs with no branch on the counts (a run of one or none is
            # written past the list's end, then over: the list has room for ``n`` words)
            for v in range(max_u, 0, -1):
                m = np.uint64(cnt[v])
                cnt[v] = at
                runs[nxt + n_next] = (at << _S32) | (at + m - _ONE)
                n_next += np.uint64(m > _ONE)
                at += m
            for i in range(q - p + _ONE):
                c = runs[spare + i]
                at = np.uint64(key[np.uint64(c)])
                order[np.uint64(cnt[at])] = c
                cnt[at] += 1
            for v in range(max_u + 2):
                cnt[v] = 0
        cur = nxt
        n_runs = n_next
    return s0, s1, s2, s3


@jit(inline="always")
def _flush_row(st, colours, c, rc):
    """A row's packed counts (``COUNTS``) into its attacks and landed and the chunk's
    colours."""
    w = st[rc + COUNTS]
    st[rc + COUNTS] = 0
    total = 0
    for ca in range(6):
        m = (w >> (9 * ca)) & 511
        colours[np.uint64(8 * c + ca)] += m
        total += m
    st[rc + ATTACKS] += total
    st[rc + LANDED] += w >> 54


@jit(inline="always")
def _flush(st, colours, n):
    """Every row's packed counts (``_flush_row``)."""
    for c in range(n):
        _flush_row(st, colours, c, np.uint64(c) * ROW)


@jit(inline="always")
def _act(s0, s1, s2, s3, st, fa, tabs, codes, mem, acts, values, colour_tab, rank_col, cat_rolls,
         tab_later, c, rc, vs, k, r, n, n_sides, threatened, roll_now, flee,
         immediate):  # fmt: skip
    """Action ``k`` of the standing ``c`` (row ``rc``; its side's words at ``vs``) in round
    ``r``: its target (the first standing enemy, ``_enemies``, or ``_target``), the attack off
    the pair's table, its blows (``_attack``). Returns the generator."""
    if (st[rc + FIRST] >> k) & 1:
        t = st[vs + V_ENEMY]
    else:
        t = _target(mem, acts, st, n, c, k)
    if t < 0:
        return s0, s1, s2, s3
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    w = tabs[np.uint64(st[rc + SLOT] >> 32) + np.uint64(st[np.uint64(t) * ROW + TCOL])
             + np.uint64(k)]
    return _attack(s0, s1, s2, s3, st, fa, tabs, codes, values, colour_tab, rank_col, cat_rolls,
                   tab_later, rc, k, t, w, _entry(tabs, codes, w, x & _LOW32), x, r, n,
                   n_sides, threatened, roll_now, flee, immediate)  # fmt: skip


@jit(inline="always")
def _attack(s0, s1, s2, s3, st, fa, tabs, codes, values, colour_tab, rank_col, cat_rolls,
            tab_later, rc, k, t, w, v, x, r, n, n_sides, threatened, roll_now, flee,
            immediate):  # fmt: skip
    """Action ``k`` of the combatant of row ``rc`` on ``t`` once its roll is drawn (``x``, the
    generator's output) and read off the pair's table (pair word ``w``, entry ``v``): the
    counts, the volley's hits, the blows. Returns the generator."""
    rt = np.uint64(t) * ROW
    ca = (v >> 1) & 7
    hit = v & 1
    net = (v >> TAB_NET_SHIFT) & TAB_FIELD
    st[rc + COUNTS] += (np.int64(1) << (9 * ca)) + (hit << 54)
    hits = 1 + hit * np.int64(((x >> _S32) * np.uint64(st[rc + ROUNDS + np.uint64(k)])) >> _S32)
    later = (w & _LATER) != 0
    total = net * hits
    h = st[rt + HEALTH]
    if total < h and not (later and hits > 1):  # no blow drops the target
        st[rt + HEALTH] = h - total
        st[rc + DEALT] += total
        st[rt + TAKEN] += total
        return s0, s1, s2, s3
    if hit == 0 and net <= 0:
        return s0, s1, s2, s3
    thr = (v >> TAB_THR_SHIFT) & TAB_FIELD
    drops = st[rt + DROPS]
    blow = net
    first = 0
    if not later and net > 0 and hits > 1 and st[rt + STATUS] == ST_STANDING:
        # the blows of ``net`` that leave it standing at once (as ``_land`` one by one would)
        first = (st[rt + HEALTH] - 1) // net
        first = min(max(first, 0), hits - 1)
        st[rt + HEALTH] -= first * net
        st[rc + DEALT] += first * net
        st[rt + TAKEN] += first * net
    for h in range(first, hits):  # until one takes it to 0 Health (CA73)
        if h > 0:
            if st[rt + DROPS] != drops:
                break
            if later:
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                roll = np.int64(((x & _LOW32) * _N100) >> _S32) + 1
                blow = tab_later[(w >> 34) & 0x3FFF, ca * 101 + roll]
        s0, s1, s2, s3 = _land(s0, s1, s2, s3, st, fa, values, colour_tab, rank_col, cat_rolls,
                               rc, t, rt, r, n, n_sides, blow, thr if threatened else blow,
                               roll_now, flee, immediate)  # fmt: skip
    return s0, s1, s2, s3


@jit(inline="always")
def _quiet(s0, s1, s2, s3, st, fa, tabs, codes, values, colour_tab, rank_col, cat_rolls, live,
           pos, kept, n_live, r, max_rounds, n, threatened, roll_now, flee,
           immediate):  # fmt: skip
    """The turn slots of a fight of two sides from position ``pos`` (uint64) of round ``r`` on
    while each is quiet: its combatant stands and makes one attack a turn at the first
    standing enemy (``QUICK``). Such a slot is ``_act`` with none of its branches taken: the
    attack off the pair's table, the target's Health, the counts; its combatant is written
    back to the slots of the next round (at ``kept``). An attack whose blow takes the target
    to 0 Health is worked out here too (``_fall``), and the run goes on at the new first
    standing enemies. (A volley whose later hits roll their own FEAT is never quiet: its
    combatant has no ``QUICK``, so that the loop's one test of an attack is its total against
    the target's Health.) A round's end goes on to the next round here too, unless the
    packed counts are due a flush (``r`` a multiple of 63) or the rounds are over. Returns the
    generator, the position of the first slot that is not quiet (``n_live``: the round's end),
    left for the round's loop to work out in full, ``kept``, the slots of the round, the round,
    and an attack handed on as drawn (``drawn``, its target ``t``, ``w``, ``v``, ``x``: only
    with no target, where a fall ended the fight).

    Between falls each side has one target, and the two targets' Health stays in registers
    (written back, with what they took, at a fall and when the run ends): an attack waits on
    its own table lookups and not on the store of the attack before it. A fall ends the run
    only where it ends the fight (handed on as drawn with no target, so that the round's loop
    ends it at this slot)."""
    ta = st[fa + SIDES + V_ENEMY]
    tb = st[fa + SIDES + np.uint64(4) + V_ENEMY]
    if ta < 0 or tb < 0:
        return s0, s1, s2, s3, pos, kept, n_live, r, False, ta, np.int64(0), np.int64(0), _ZERO
    ra = np.uint64(ta) * ROW
    rb = np.uint64(tb) * ROW
    wa = np.uint64(st[ra + TCOL])
    wb = np.uint64(st[rb + TCOL])
    ha0 = st[ra + HEALTH]
    hb0 = st[rb + HEALTH]
    ha, hb = ha0, hb0
    here, back, end = live + pos, live + kept, live + n_live  # indices into ``st``
    drawn = False
    t = np.int64(-1)
    w = v = np.int64(0)
    x = _ZERO
    while True:
        if here >= end:  # the round's end
            if r % 63 == 0:
                break
            end = back
            back = live
            here = live
            r += 1
            if r > max_rounds:
                break
            continue
        sw = st[here]
        rc = np.uint64(sw & _C_MASK) * ROW
        f = st[rc + FIRST]
        if (f & QUICK_UP) != QUICK_UP:
            if (f & UP) != 0 or _live(st, rc) != 0:  # not quiet, or an Endurance roll to come
                break
            here += _ONE  # it fell earlier this round: no longer among the slots
            continue
        b = (sw & _SW_SIDE) != 0
        h = hb if b else ha
        a0, a1, a2, a3, x = xoshiro_bits(s0, s1, s2, s3)
        w = tabs[np.uint64(sw >> 32) + (wb if b else wa)]
        v = _entry(tabs, codes, w, x & _LOW32)
        hit = v & 1
        net = (v >> TAB_NET_SHIFT) & TAB_FIELD
        rounds = (np.uint64(sw) >> _SW_ROUNDS) & np.uint64(0x7FF)
        extra = np.int64(((x >> _S32) * rounds) >> _S32)
        hits = 1 + (extra & -hit)  # the volley's hits: 1 on a miss
        total = net * hits
        if total >= h:  # it falls
            s0, s1, s2, s3 = a0, a1, a2, a3
            t = tb if b else ta
            # one blow takes it to 0 Health (those before it leave it standing; CA73)
            first = (h - 1) // net
            first = min(max(first, 0), hits - 1)
            last = h - first * net  # its Health as the blow lands
            st[rc + COUNTS] += _COUNT_INC[v & 15]
            st[rc + DEALT] += h
            ha = ha if b else 0
            hb = 0 if b else hb
            st[ra + HEALTH] = ha
            st[ra + TAKEN] += ha0 - ha
            st[rb + HEALTH] = hb
            st[rb + TAKEN] += hb0 - hb
            rt = rb if b else ra
            blow = ((v >> TAB_THR_SHIFT) & TAB_FIELD) if threatened else net
            s0, s1, s2, s3 = _fall(s0, s1, s2, s3, st, fa, colour_tab, rank_col, cat_rolls, t,
                                   rt, r, n, 2, blow - last >= values[np.uint64(st[rt + RANK_E])],
                                   roll_now, flee, immediate, st[rc + POS])  # fmt: skip
            if st[fa + G_OVER] != 0:  # the round's loop ends the fight at this slot
                ha0 = ha = st[ra + HEALTH]
                hb0 = hb = st[rb + HEALTH]
                drawn = True
                t = np.int64(-1)
                break
            ta = st[fa + SIDES + V_ENEMY]
            tb = st[fa + SIDES + np.uint64(4) + V_ENEMY]
            ra = np.uint64(ta) * ROW
            rb = np.uint64(tb) * ROW
            wa = np.uint64(st[ra + TCOL])
            wb = np.uint64(st[rb + TCOL])
            ha0 = ha = st[ra + HEALTH]
            hb0 = hb = st[rb + HEALTH]
            st[back] = sw
            back += _ONE
            here += _ONE
            continue
        st[rc + COUNTS] += _COUNT_INC[v & 15]
        st[rc + DEALT] += total
        h -= total
        ha = ha if b else h
        hb = h if b else hb
        s0, s1, s2, s3 = a0, a1, a2, a3
        st[back] = sw  # it stands: it acts next round
        back += _ONE
        here += _ONE
    pos, kept, n_live = here - live, back - live, end - live
    st[ra + HEALTH] = ha
    st[ra + TAKEN] += ha0 - ha
    st[rb + HEALTH] = hb
    st[rb + TAKEN] += hb0 - hb
    return s0, s1, s2, s3, pos, kept, n_live, r, drawn, t, w, v, x


@jit(inline="always")
def _bleed_out(st, rc, end, end_pos):
    """A bleeder who died before the fight ended (at its slot in round ``DUE``, before the slot
    of position ``end_pos`` in round ``end``): ``fate.die`` of the fallen."""
    due = st[rc + DUE]
    if due > 0 and st[rc + STATUS] == ST_DOWN and (
            due < end or (due == end and st[rc + POS] < end_pos)):  # fmt: skip
        st[rc + STATUS] = ST_DEAD
        st[rc + DEATH_T] = due
        st[rc + DIE_NEXT] = 0
        st[rc + DROPS] += 1


@jit(**INNER)
def _tally(st, colours, n, n_sides, result, end, end_pos, outcome_counts, end_hist, out_hist,
           death_hist, sums):  # fmt: skip
    """A streamed trial's outcome into the tally (``outcome_counts``, the histograms, ``sums``:
    see ``_trials``), called once a trial: out of the trial loop, which then holds its
    registers for the rounds."""
    kk = outcome_index(result, n_sides)
    outcome_counts[kk] += 1
    end_hist[kk, end] += 1
    for c in range(n):
        rc = np.uint64(c) * ROW
        # the row's packed counts read, not flushed into it (the next trial starts it afresh)
        w = st[rc + COUNTS]
        total = 0
        for ca in range(6):
            m = (w >> (9 * ca)) & 511
            colours[np.uint64(8 * c + ca)] += m
            total += m
        _bleed_out(st, rc, end, end_pos)
        status = st[rc + STATUS]
        d, tk = st[rc + DEALT], st[rc + TAKEN]
        out_hist[c, st[rc + OUT_T]] += 1
        death_hist[c, st[rc + DEATH_T]] += 1
        sums[c, 0] += d
        sums[c, 1] += d * d
        sums[c, 2] += tk
        sums[c, 3] += tk * tk
        sums[c, 4] += st[rc + ATTACKS] + total
        sums[c, 5] += st[rc + LANDED] + (w >> 54)
        sums[c, 6] += 1 if status != ST_DEAD and status != ST_FLED and status != ST_STANDING else 0
        sums[c, 7] += 1 if status == ST_DOWN and (st[rc + DOWN] == DN_BLEEDING
                                                 or st[rc + DIE_NEXT] != 0) else 0  # fmt: skip


@jit(_nrt=False)  # called from Python, once a chunk: numba emits its code once (lesson 40)
def _trials(chunk, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, tab_later,
            st0, n_sides, max_rounds, tabs, codes, shared, counters, cat_rolls, stream,
            scratch):  # fmt: skip
    """The trial loop of :func:`run_chunk`: the plan's arrays, the tables (``squad_tables``),
    the outputs (``Shared``, ``typed.Counters``, the Endurance rolls' colours int64[C, 6],
    ``typed.Stream``: its ``sums`` int64[C, 12] gathers a streamed run's per-combatant sums:
    dealt, its square, taken, its square, attacks, landed, then the counters unconscious,
    dying, broken, severed and the last two's squares) and the scratch arrays
    (:class:`Scratch`), with no allocation (compiled without reference counting)."""
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
    unconscious, dying, broken, severed = counters
    accumulate, tally = stream
    outcome_counts, end_hist, out_hist, death_hist, sums = tally
    fresh, st, colours, agi, u_agi, order, key, masks, rs, group, tie, cnt = scratch
    n = mem.shape[0]
    un = np.uint64(n)
    fa = un * ROW
    live = fa + SIDES + np.uint64(4 * n_sides)
    threatened = opts[O_KILL_THREATENED] != 0
    roll_now = opts[O_ROLL_NEXT_TURN] == 0
    flee = opts[O_FLEE] != 0
    immediate = opts[O_DEATH_IMMEDIATE] != 0
    max_u = 0
    for c in range(n):
        max_u = max_u if u_agi[c] <= max_u else np.int64(u_agi[c])
    two = n_sides == 2  # ``_quiet``
    reroll = opts[O_TIES] != TIE_AGILITY
    bits = reroll and n <= 64 and max_u <= 64  # ``_initiative``
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(chunk[0], chunk[1], chunk[2], chunk[3], first + j)
        for i in range(live):  # the rows whole (one straight copy) and the fight's words
            st[i] = fresh[i]
        if bits:
            s0, s1, s2, s3 = _initiative(s0, s1, s2, s3, agi, u_agi, max_u, order, key, masks,
                                         n)  # fmt: skip
        elif reroll:
            s0, s1, s2, s3 = _initiative_wide(s0, s1, s2, s3, agi, u_agi, max_u, order, key,
                                              cnt, tie, n)  # fmt: skip
        else:
            rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
            initiative(mem, opts, rs, order, group, key, tie, n)
            s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
        n_live = np.uint64(0)
        for pos in range(n):
            c = order[pos]
            st[np.uint64(c) * ROW + POS] = pos
            st[live + n_live] = st[np.uint64(c) * ROW + SLOT]
            n_live += np.uint64(_live(st, np.uint64(c) * ROW))
        end = max_rounds
        end_pos = n  # the fight ended at the turn slot of this position in round ``end``
        # the slots that can still act next round are written back over this round's as it
        # goes (``kept`` <= ``slot``): a slot left in that cannot act draws nothing
        r = 1
        kept = _ZERO
        slot = _ZERO
        t = np.int64(-1)
        w = v = np.int64(0)
        x = _ZERO
        while r <= max_rounds:
            drawn = False
            if two:
                s0, s1, s2, s3, slot, kept, n_live, r, drawn, t, w, v, x = _quiet(
                    s0, s1, s2, s3, st, fa, tabs, codes, values, colour_tab, rank_col,
                    cat_rolls, live, slot, kept, n_live, r, max_rounds, n, threatened, roll_now,
                    flee, immediate)  # fmt: skip
                if r > max_rounds:
                    break
            if slot >= n_live:  # the end of round r
                if r % 63 == 0:  # before a row's packed counts can reach 512
                    _flush(st, colours, n)
                n_live = kept
                kept = _ZERO
                slot = _ZERO
                r += 1
                continue
            c = st[live + slot] & _C_MASK
            slot += _ONE
            uc = np.uint64(c)
            rc = uc * ROW
            vs = np.uint64(st[rc + VS])
            if not drawn:  # (a quiet run whose fall ended the fight: drawn, no target)
                status = st[rc + STATUS]
                if status != ST_STANDING:  # the start of its turn (``fate.turn_start``)
                    down = st[rc + DOWN]
                    if status == ST_DOWN and (down == DN_GREEN or down == DN_PENDING):
                        s0, s1, s2, s3 = _endurance(s0, s1, s2, s3, st, fa, colour_tab,
                                                    rank_col, cat_rolls, c, rc, r, n, n_sides,
                                                    flee, immediate, st[rc + POS])  # fmt: skip
                    if st[rc + STATUS] != ST_STANDING:
                        st[live + kept] = st[rc + SLOT]
                        kept += np.uint64(_live(st, rc))
                        continue
                # the first action (``_act``) out of the loop of the rest, as one attack
                t = st[vs + V_ENEMY] if st[rc + FIRST] & 1 else _target(mem, acts, st, n, c, 0)
                if t >= 0:
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    w = tabs[np.uint64(st[rc + SLOT] >> 32)
                             + np.uint64(st[np.uint64(t) * ROW + TCOL])]
                    v = _entry(tabs, codes, w, x & _LOW32)
            if t >= 0:
                s0, s1, s2, s3 = _attack(s0, s1, s2, s3, st, fa, tabs, codes, values, colour_tab,
                                         rank_col, cat_rolls, tab_later, rc, 0, t, w, v, x, r, n,
                                         n_sides, threatened, roll_now, flee,
                                         immediate)  # fmt: skip
            for k in range(1, st[rc + N_ACT]):
                if st[fa + G_OVER] != 0:
                    break
                s0, s1, s2, s3 = _act(s0, s1, s2, s3, st, fa, tabs, codes, mem, acts, values,
                                      colour_tab, rank_col, cat_rolls, tab_later, c, rc, vs, k,
                                      r, n, n_sides, threatened, roll_now, flee,
                                      immediate)  # fmt: skip
            if st[fa + G_OVER] != 0:
                end_pos = st[rc + POS]
                end = r
                break
            st[live + kept] = st[rc + SLOT]
            kept += np.uint64(_live(st, rc))
        result = st[fa + G_WINNER] if st[fa + G_OVER] != 0 else UNRESOLVED
        if accumulate:
            _tally(st, colours, n, n_sides, result, end, end_pos, outcome_counts, end_hist,
                   out_hist, death_hist, sums)  # fmt: skip
            continue
        winner[j] = result
        end_slot[j] = end
        for c in range(n):
            rc = np.uint64(c) * ROW
            _flush_row(st, colours, c, rc)
            _bleed_out(st, rc, end, end_pos)
            status = st[rc + STATUS]
            out_slot[j, c] = st[rc + OUT_T]
            death_slot[j, c] = st[rc + DEATH_T]
            dealt[j, c] = st[rc + DEALT]
            taken[j, c] = st[rc + TAKEN]
            attacks[j, c] = st[rc + ATTACKS]
            landed[j, c] = st[rc + LANDED]
            unconscious[j, c] = 1 if status != ST_DEAD and status != ST_FLED and (
                status != ST_STANDING) else 0  # fmt: skip
            dying[j, c] = 1 if status == ST_DOWN and (st[rc + DOWN] == DN_BLEEDING
                                                     or st[rc + DIE_NEXT] != 0) else 0  # fmt: skip
            broken[j, c] = st0[c, S_BROKEN_N]
            severed[j, c] = st0[c, S_SEVERED_N]
    if accumulate:  # the limbs are as the fight starts: the same every trial
        for c in range(n):
            b, sv = st0[c, S_BROKEN_N], st0[c, S_SEVERED_N]
            sums[c, 8] += b * n_trials
            sums[c, 9] += sv * n_trials
            sums[c, 10] += b * b * n_trials
            sums[c, 11] += sv * sv * n_trials


@jit
def _fresh(mem, st0, n_sides, tabs, a_rounds, a_first, where):
    """The rows and the fight's state as every trial of the chunk starts (``_trials``'s
    ``fresh``), from the plan's arrays and the tables and actions ``squad_tables`` gives."""
    n = mem.shape[0]
    fa = np.uint64(n) * ROW
    fresh = np.zeros(n * 32 + 4 + 4 * n_sides + n, np.int64)  # as a trial starts: ROW, SIDES
    for s in range(n_sides):
        fresh[fa + SIDES + np.uint64(4 * s) + V_FIRST_UP] = n
    fresh[fa + G_SIDES] = n_sides
    for c in range(n):
        rc = np.uint64(c) * ROW
        for f in range(len(_FROM_ST)):
            fresh[rc + _COLS[f]] = st0[c, _FROM_ST[f]]
        side = mem[c, M_SIDE]
        fresh[rc + SIDE] = side
        fresh[rc + N_ACT] = mem[c, M_N_ACTIONS]
        for k in range(MAX_ACTIONS):
            fresh[rc + FIRST] |= a_first[c, k] << k
            fresh[rc + ROUNDS + np.uint64(k)] = a_rounds[c, k]
        fresh[rc + VS] = fa + SIDES + np.uint64(4 * side)
        later = False  # a volley whose later hits roll their own FEAT (``_attack``)
        for t in range(n):
            w = tabs[where[c, 0] + where[t, 1]]
            if a_rounds[c, 0] > 1 and w >= 0 and w & _LATER:
                later = True
        fresh[rc + SLOT] = c | (_SW_SIDE if side != 0 else 0) | (
            min(a_rounds[c, 0], 0x7FF) << 21) | (where[c, 0] << 32)  # fmt: skip
        if (mem[c, M_N_ACTIONS] == 1 and a_first[c, 0] != 0 and a_rounds[c, 0] < 1 << 11
                and not later):  # fmt: skip
            fresh[rc + FIRST] |= QUICK
        if st0[c, S_STATUS] == ST_STANDING:
            fresh[rc + FIRST] |= UP
        fresh[rc + TCOL] = where[c, 1]
        fresh[rc + NEXT] = n
        for d in range(c + 1, n):
            if mem[d, M_SIDE] == side:
                fresh[rc + NEXT] = d
                break
        if st0[c, S_STATUS] == ST_STANDING:
            vs = fa + SIDES + np.uint64(4 * side)
            if fresh[vs + V_STANDING] == 0:
                fresh[fa + G_LEFT] += 1
            fresh[vs + V_STANDING] += 1
            if fresh[vs + V_FIRST_UP] == n:
                fresh[vs + V_FIRST_UP] = c
    _enemies(fresh, fa, n)
    return fresh


def run_chunk(chunk, first, n_trials, plan, squad, shared, counters, cat_colours, cat_rolls,
              stream):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of a static fight: the plan's arrays
    (``compile.Plan``) and its tables and actions (:class:`SquadTables`), then the outputs:
    the per-trial ones (``Shared``, ``typed.Counters``: written unless the run is streamed),
    the categories (int64[C, 6] each, added into: the attack rolls' colours, the Endurance
    rolls') and a streamed run's tally (``typed.Stream``, ``sums`` int64[C, 12]: see
    ``_trials``)."""
    mem, st0 = plan.mem, plan.st0
    n = mem.shape[0]
    tabs, codes, a_rounds, a_first, where = squad
    fresh = _fresh(mem, st0, plan.n_sides, tabs, a_rounds, a_first, where)
    agi = mem[:, M_VAL_A].astype(np.int64)
    u_agi = np.maximum(agi, 1).astype(np.uint64)
    max_agi = max(1, int(agi.max(initial=1)))
    colours = np.zeros(n * 8, np.int64)
    scratch = Scratch(
        fresh=fresh, st=fresh.copy(), colours=colours, agi=agi, u_agi=u_agi,
        order=np.zeros(n + 3, np.int64), key=np.zeros(n, np.int64),
        masks=np.zeros(65, np.uint64), rs=np.zeros(4, np.uint64), group=np.zeros(n, np.int64),
        tie=np.zeros(3 * n + 2, np.int64), cnt=np.zeros(max_agi + 2, np.int64))  # fmt: skip
    _trials(chunk, first, n_trials, mem, plan.acts, plan.opts, plan.rank_col, plan.colour_tab,
            plan.values, plan.tab_later, st0, plan.n_sides, plan.max_rounds, tabs, codes, shared,
            counters, cat_rolls, stream, scratch)  # fmt: skip
    cat_colours += colours.reshape(n, 8)[:, : cat_colours.shape[1]]
