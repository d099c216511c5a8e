"""What happens to a combatant's Health, Endurance and life, shared by every colour kernel:
blows landing (K5), killed outright (K8, CA74-CA75), 0 Health and the Endurance roll (004
L40-49; CA68-CA72, CA77), Endurance ranks lost (CA70, CA103), death at Shift 0 (CA71), the
turn slot of the fallen (CA15), aid (CA78), and when a fight is over (CA79).

The random numbers come from ``rs`` (the trial's xoshiro256+ state, uint64[4]); ``fs`` is the
fight's own state (``codes.F_*``); an event is written when ``fs[F_LOG]``.
"""

from __future__ import annotations

from ..._jit import jit
from ...engine.rng import xoshiro_bits
from .codes import (
    BLUE,
    DN_BLEEDING,
    DN_GREEN,
    DN_PENDING,
    DN_STABLE,
    EV_A,
    EV_ACTOR,
    EV_B,
    EV_C,
    EV_D,
    EV_KIND,
    EV_ROUND,
    EV_TARGET,
    EVENT_AID,
    EVENT_BLEED,
    EVENT_DEATH,
    EVENT_DOWN,
    EVENT_ENDURANCE,
    EVENT_FLEE,
    EVENT_WAKE,
    F_DEFER,
    F_EPOCH,
    F_LOG,
    F_N,
    F_OVER,
    F_ROUND,
    F_SIDES,
    F_WINNER,
    GREEN,
    M_SIDE,
    O_AID,
    O_DEATH_IMMEDIATE,
    O_FLEE,
    O_HEALTH_TRACKS,
    O_ROLL_NEXT_TURN,
    RED,
    S_AIM,
    S_BLEED_FROM,
    S_DEALT,
    S_DEATH_T,
    S_DIE_NEXT,
    S_DOWN,
    S_DROPS,
    S_GRAPPLED_BY,
    S_HEALTH,
    S_HMAX,
    S_HOLDING,
    S_OUT_T,
    S_PRISTINE,
    S_RANK_E,
    S_STATUS,
    S_TAKEN,
    ST_DEAD,
    ST_DOWN,
    ST_FLED,
    ST_STANDING,
    SUPER_CRIT,
    WHITE,
    YELLOW,
)
from .rules import d100, high_die
from .typed import typed


@jit(inline="always")
def draw(rs):
    """The next 64-bit output of the trial's generator (``rs`` updated in place)."""
    rs[0], rs[1], rs[2], rs[3], x = xoshiro_bits(rs[0], rs[1], rs[2], rs[3])
    return x


@typed
def event(fs, events, n_events, kind, actor, target, a, b, c, d):
    """Append an event (when this trial is logged): ``(round, kind, actor, target, a, b, c,
    d)``; past the log's end the last row is overwritten and the count still rises."""
    if fs[F_LOG] == 0:
        return
    i = min(n_events[0], events.shape[0] - 1)
    for f in range(events.shape[1]):
        events[i, f] = 0
    events[i, EV_ROUND] = fs[F_ROUND]
    events[i, EV_KIND] = kind
    events[i, EV_ACTOR] = actor
    events[i, EV_TARGET] = target
    events[i, EV_A] = a
    events[i, EV_B] = b
    events[i, EV_C] = c
    events[i, EV_D] = d
    n_events[0] += 1


@typed
def event_row(fs, events, n_events):
    """The row the next event goes to (for events with more fields), or -1 when not logging."""
    if fs[F_LOG] == 0:
        return -1
    i = min(n_events[0], events.shape[0] - 1)
    for f in range(events.shape[1]):
        events[i, f] = 0
    events[i, EV_ROUND] = fs[F_ROUND]
    n_events[0] += 1
    return i


@typed
def check_end(mem, st, fs):
    """Whether the fight is over (CA79): at most one side still has anyone standing. Sets
    ``fs[F_OVER]`` and the winner (the side left, or a draw) the first time."""
    if fs[F_OVER] != 0:
        return True
    n_sides = fs[F_SIDES]
    left = -1
    count = 0
    for s in range(n_sides):
        for c in range(fs[F_N]):
            if mem[c, M_SIDE] == s and st[c, S_STATUS] == ST_STANDING:
                count += 1
                left = s
                break
    if count <= 1:
        fs[F_OVER] = 1
        fs[F_WINNER] = left if count == 1 else -1
        return True
    return False


@typed
def _release(st, c, n):
    """A combatant out of the fight lets go of, and is let go by, whoever it grappled (CA98)."""
    held = st[c, S_HOLDING]
    if held >= 0:
        st[held, S_GRAPPLED_BY] = -1
        st[c, S_HOLDING] = -1
    holder = st[c, S_GRAPPLED_BY]
    if holder >= 0:
        st[holder, S_HOLDING] = -1
        st[c, S_GRAPPLED_BY] = -1


@typed
def go_out(mem, st, fs, c):
    """Bookkeeping of a combatant leaving the standing: the round it first went out, its
    grapples and aim; then whether its side's fall ends the fight (not inside a simultaneous
    group, which checks at its end)."""
    if st[c, S_OUT_T] == 0:
        st[c, S_OUT_T] = fs[F_ROUND]
    fs[F_EPOCH] += 1
    _release(st, c, fs[F_N])
    st[c, S_AIM] = 0
    if fs[F_DEFER] == 0:
        check_end(mem, st, fs)


@typed
def die(mem, st, fs, events, n_events, c, how):
    """Death (004 L48, L51): at Shift 0 (``how`` 0) or killed outright (1)."""
    if st[c, S_STATUS] == ST_DEAD:
        return
    was_standing = st[c, S_STATUS] == ST_STANDING
    st[c, S_DROPS] += 1
    st[c, S_STATUS] = ST_DEAD
    st[c, S_DEATH_T] = fs[F_ROUND]
    st[c, S_DIE_NEXT] = 0
    event(fs, events, n_events, EVENT_DEATH, c, -1, how, 0, 0, 0)
    if was_standing or st[c, S_OUT_T] == 0:
        go_out(mem, st, fs, c)


@typed
def lose_ranks(mem, st, opts, values, fs, events, n_events, c, n, why):
    """``c`` loses ``n`` Endurance ranks down the ladder, stopping at Shift 0 (CA70); reaching
    Shift 0 kills at its next turn (``immediate``: at once, CA71). Under
    ``health_tracks_endurance`` its Health falls with the value lost (CA103)."""
    old = st[c, S_RANK_E]
    new = max(old - n, 0)
    st[c, S_RANK_E] = new
    st[c, S_PRISTINE] = 0
    event(fs, events, n_events, EVENT_BLEED, c, -1, old, new, why, 0)
    if opts[O_HEALTH_TRACKS] != 0 and new < old:
        lost = values[old] - values[new]
        st[c, S_HMAX] = max(st[c, S_HMAX] - lost, 0)
        if st[c, S_STATUS] == ST_STANDING and st[c, S_HEALTH] > 0:
            st[c, S_HEALTH] = max(st[c, S_HEALTH] - lost, 0)
            if st[c, S_HEALTH] == 0:
                st[c, S_STATUS] = ST_DOWN
                st[c, S_DOWN] = DN_PENDING
                event(fs, events, n_events, EVENT_DOWN, c, -1, 0, 0, 0, 0)
                go_out(mem, st, fs, c)
    if n > 0 and new == 0:
        if opts[O_DEATH_IMMEDIATE] != 0:
            die(mem, st, fs, events, n_events, c, 0)
        else:
            st[c, S_DIE_NEXT] = 1


@typed
def endurance_roll(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                   n_events, c):  # fmt: skip
    """The Endurance roll at 0 Health (004 L40-49; not clamped, on the current Endurance with
    no shifts, CA81): Super Crit wakes with 1d10 Health (CA77: it flees under
    ``flee_after_wake``); Red and Yellow are stable; Green rolls again at its next turn; White
    bleeds from the next round on; Blue loses 2 ranks at once and bleeds (CA70, CA72)."""
    x = draw(rs)
    roll = d100(x)
    colour = colour_tab[rank_col[st[c, S_RANK_E]], roll]
    cat_rolls[c, colour] += 1
    event(fs, events, n_events, EVENT_ENDURANCE, c, -1, roll, colour, 0, 0)
    if colour == SUPER_CRIT:
        health = high_die(x, 10)
        if opts[O_FLEE] != 0:
            st[c, S_STATUS] = ST_FLED
            event(fs, events, n_events, EVENT_FLEE, c, -1, health, 0, 0, 0)
            return
        st[c, S_STATUS] = ST_STANDING
        fs[F_EPOCH] += 1
        st[c, S_HEALTH] = min(health, max(st[c, S_HMAX], 1))
        st[c, S_DOWN] = DN_STABLE
        event(fs, events, n_events, EVENT_WAKE, c, -1, st[c, S_HEALTH], 0, 0, 0)
    elif colour == RED or colour == YELLOW:
        st[c, S_DOWN] = DN_STABLE
    elif colour == GREEN:
        st[c, S_DOWN] = DN_GREEN
    else:
        st[c, S_DOWN] = DN_BLEEDING
        st[c, S_BLEED_FROM] = fs[F_ROUND]
        if colour == BLUE:
            lose_ranks(mem, st, opts, values, fs, events, n_events, c, 2, BLUE)


@typed
def drop(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, c):
    """Health reached 0 (004 L40; CA68): out of the fight at once, and the Endurance roll now
    (``endurance_roll_timing: immediate``) or at its next turn slot (CA69). The fight's end
    is checked before a Super Crit's wake-up, which does not reopen a fight that is over."""
    st[c, S_STATUS] = ST_DOWN
    st[c, S_DOWN] = DN_PENDING
    st[c, S_DROPS] += 1
    event(fs, events, n_events, EVENT_DOWN, c, -1, 0, 0, 0, 0)
    go_out(mem, st, fs, c)
    if opts[O_ROLL_NEXT_TURN] == 0:
        endurance_roll(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                       n_events, c)  # fmt: skip


@typed
def land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a,
         t, net, threatened, blow):  # fmt: skip
    """A blow of ``net`` damage from ``a`` on the standing ``t`` (004 L37): Health falls,
    floored at 0 (CA68); what it lost counts as dealt and taken. A blow that takes Health to 0
    kills outright when ``blow`` (its net or threatened damage, CA75) is at least the Health
    it had plus the current Endurance value (K8); else ``t`` drops. Returns the Health lost."""
    if net <= 0 or st[t, S_STATUS] != ST_STANDING:
        return 0
    h = st[t, S_HEALTH]
    loss = min(net, h)
    st[t, S_HEALTH] = h - loss
    st[a, S_DEALT] += loss
    st[t, S_TAKEN] += loss
    if st[t, S_HEALTH] <= 0:
        if blow >= h + values[st[t, S_RANK_E]]:
            die(mem, st, fs, events, n_events, t, 1)
        else:
            drop(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                 n_events, t)  # fmt: skip
    return loss


@typed
def aid(mem, st, opts, fs, events, n_events, c):
    """Under ``aid_fallen`` (CA78) a standing combatant spends its turn on the first fallen ally
    (listed order) who is not yet stable: stabilised as on a Red, bleeding and a death at
    Shift 0 to come stopped. Returns whether it did."""
    if opts[O_AID] == 0:
        return False
    side = mem[c, M_SIDE]
    for b in range(fs[F_N]):
        if b == c or mem[b, M_SIDE] != side or st[b, S_STATUS] != ST_DOWN:
            continue
        if st[b, S_DOWN] != DN_STABLE or st[b, S_DIE_NEXT] != 0:
            st[b, S_DOWN] = DN_STABLE
            st[b, S_DIE_NEXT] = 0
            event(fs, events, n_events, EVENT_AID, c, b, 0, 0, 0, 0)
            return True
    return False


@typed
def turn_start(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events,
               c):  # fmt: skip
    """The start of ``c``'s turn slot (CA15), which ticks whether it stands or not: (1) death
    at Shift 0 (CA71); (2) a bleeder's rank, from the round after its White or Blue (CA72);
    (3) a Green's (or a delayed) Endurance roll (CA69)."""
    if st[c, S_DIE_NEXT] != 0 and st[c, S_STATUS] != ST_DEAD:
        die(mem, st, fs, events, n_events, c, 0)
        return
    if st[c, S_STATUS] != ST_DOWN:
        return
    down = st[c, S_DOWN]
    if down == DN_BLEEDING and st[c, S_BLEED_FROM] < fs[F_ROUND]:
        lose_ranks(mem, st, opts, values, fs, events, n_events, c, 1, WHITE)
    elif down == DN_GREEN or down == DN_PENDING:
        endurance_roll(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                       n_events, c)  # fmt: skip


@typed
def final_state(st, c):
    """How ``c`` ends the fight, for the counters: (unconscious, dying): alive and out (down or
    knocked out), and of those still bleeding or bound to die at Shift 0 (no one helps after a
    fight)."""
    status = st[c, S_STATUS]
    if status == ST_DEAD or status == ST_FLED or status == ST_STANDING:
        return 0, 0
    dying = 1 if status == ST_DOWN and (st[c, S_DOWN] == DN_BLEEDING
                                        or st[c, S_DIE_NEXT] != 0) else 0  # fmt: skip
    return 1, dying

