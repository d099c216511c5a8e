"""The colour kernel's attacks on several targets or with several rolls (the sweep, area
effects and dive for cover, the three-round burst; 004 L83, L91, L99; 002 L34-36) and
grappling (004 L72; CA93-CA98). Arguments as in :mod:`.actions`.
"""

from __future__ import annotations

from .actions import _extra_feats, _log_attack, apply_hit, choose_target, helpless
from .codes import (
    A_ATTACK,
    A_BURST,
    A_SWEEP,
    AGILITY,
    D_DODGE,
    D_NONE,
    D_RWB,
    D_SOAK,
    EVENT_ESCAPE,
    EVENT_GRAPPLE,
    EVENT_SQUEEZE,
    F_N,
    F_OVER,
    F_ROUND,
    FIGHTING,
    GREEN,
    K_ATT_COL,
    K_DEF,
    M_DIVE,
    M_DIVE_AREAS,
    M_SIDE,
    O_AIM_LOST_ATTACKED,
    O_CLAMP_ATTACKS_ONLY,
    O_DIVE_NORMAL,
    O_FEAT_MIN,
    O_GRAPPLE_FLAT,
    O_KILL_THREATENED,
    O_RWB_PER_ATTACK,
    S_AIM,
    S_ATTACKS,
    S_DROPS,
    S_GRAPPLE_ROUND,
    S_GRAPPLED_BY,
    S_HEALTH,
    S_HOLDING,
    S_LANDED,
    S_STATUS,
    ST_DOWN,
    ST_STANDING,
    STRENGTH,
    YELLOW,
)
from .fate import draw, event, land
from .rules import beats, clamp_defence, d100, joint_rolls, roll_column
from .strike import choose_defence, first_hit, hit_damage, prepare, set_defence
from .typed import typed


@typed
def _one_target(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
                a, t, form, ra, rd, x, manoeuvre, multi, bonus, forced):  # fmt: skip
    """One target of a sweep or an area effect, against the shared attack roll ``ra`` with its
    own roll ``rd``: one hit on a loss. ``forced``: the target avoids with a contested
    Agility roll whatever its defence (an area, 004 L83), or dives for cover (002 L34-36)."""
    st[a, S_ATTACKS] += 1
    if opts[O_AIM_LOST_ATTACKED] != 0:
        st[t, S_AIM] = 0
    prepare(mem, st, opts, shift, rank_col, ak, a, t, form, 0, -1, manoeuvre, multi, bonus, 0,
            1 if form == A_SWEEP else 0)  # fmt: skip
    if forced:
        set_defence(mem, st, opts, shift, rank_col, ak, D_DODGE)
        if mem[t, M_DIVE] != 0:
            dive_col = roll_column(mem, st, opts, shift, rank_col, t, AGILITY,
                                   -(mem[t, M_DIVE_AREAS] - 1), 0, 0, False, True)  # fmt: skip
            safe = clamp_defence(colour_tab[dive_col, rd]) >= opts[O_FEAT_MIN]
            if safe:
                _log_attack(fs, events, n_events, a, t, form, ra, colour_tab[ak[K_ATT_COL], ra],
                            rd, -2, 0, 0)  # fmt: skip
                return
            if opts[O_DIVE_NORMAL] != 0:
                rd = d100(draw(rs))
            else:
                ak[K_DEF] = D_NONE
    else:
        choose_defence(mem, st, opts, shift, rank_col, values, colour_tab, ak, ra)
    fallback, armour_pct = _extra_feats(opts, rank_col, colour_tab, values, st, ak, rs, mem, t)
    landed, ca, net, thr, soaked, dcol, _outright, _bypass, _feat = first_hit(
        mem, st, opts, values, colour_tab, ak, ra, rd, fallback, armour_pct)  # fmt: skip
    if landed:
        st[a, S_LANDED] += 1
    _log_attack(fs, events, n_events, a, t, form, ra, ca, rd, ak[K_DEF], 1 if landed else 0,
                1 if landed else 0)  # fmt: skip
    if landed or net > 0:
        apply_hit(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                  tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
                  a, t, ca, net, thr, soaked, dcol, landed, True, -1)  # fmt: skip


@typed
def sweep(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
          tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
          a, rounds, multi, bonus):  # fmt: skip
    """A Sweep (004 L91; CA48): one roll at -1CS against up to ``rounds`` different standing
    enemies in listed order, one round each; each rolls its own defence. Returns the rounds
    spent (one per target)."""
    n = fs[F_N]
    side = mem[a, M_SIDE]
    x = draw(rs)
    ra, rd = joint_rolls(x)
    used = 0
    counted = False
    for t in range(n):
        if used >= rounds or fs[F_OVER] != 0:
            break
        if mem[t, M_SIDE] == side or st[t, S_STATUS] != ST_STANDING:
            continue
        if used > 0:
            rd = d100(draw(rs))
        used += 1
        _one_target(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                    tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                    n_events, a, t, A_SWEEP, ra, rd, x, -1, multi, bonus, False)  # fmt: skip
        if not counted:
            cat_colours[a, colour_tab[ak[K_ATT_COL], ra]] += 1
            counted = True
    return used


@typed
def area_attack(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
                a, multi, bonus):  # fmt: skip
    """An area effect (004 L83; CA99): one roll against everyone standing in the area (the
    member's ``area`` list, allies too, or every standing enemy), each avoiding with its own
    contested Agility roll or diving for cover (CA66)."""
    n = fs[F_N]
    x = draw(rs)
    ra, rd = joint_rolls(x)
    first = True
    for t in range(n):
        if fs[F_OVER] != 0:
            break
        if t == a or area_mask[a, t] == 0 or st[t, S_STATUS] != ST_STANDING:
            continue
        if not first:
            rd = d100(draw(rs))
        _one_target(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                    tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                    n_events, a, t, A_ATTACK, ra, rd, x, 0, multi, bonus, True)  # fmt: skip
        if first:
            cat_colours[a, colour_tab[ak[K_ATT_COL], ra]] += 1
        first = False


@typed
def burst(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
          tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
          a, t, multi, bonus):  # fmt: skip
    """A three-round burst (004 L99; CA50): three rolls at -1CS each, one defence roll compared
    with each; every roll that wins is a hit at its own colour (a Roll with Blow or Soak
    rolls its FEAT per hit)."""
    x1 = draw(rs)
    ra1, rd = joint_rolls(x1)
    if st[t, S_STATUS] == ST_DOWN:
        st[a, S_ATTACKS] += 1
        prepare(mem, st, opts, shift, rank_col, ak, a, t, A_BURST, 0, -1, -1, multi, bonus, 0, 1)
        helpless(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                 tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
                 a, t, ra1, x1, A_BURST, 1)  # fmt: skip
        return
    x2 = draw(rs)
    ra2, ra3 = joint_rolls(x2)
    hit_no = 0
    kind = D_DODGE
    drops = st[t, S_DROPS]
    for i in range(3):
        if st[t, S_STATUS] != ST_STANDING or st[t, S_DROPS] != drops:
            break
        ra = ra1 if i == 0 else (ra2 if i == 1 else ra3)
        st[a, S_ATTACKS] += 1
        if opts[O_AIM_LOST_ATTACKED] != 0:
            st[t, S_AIM] = 0
        prepare(mem, st, opts, shift, rank_col, ak, a, t, A_BURST, 0, -1, -1, multi,
                bonus if i == 0 else 0, 0, 1)  # fmt: skip
        if i == 0:
            choose_defence(mem, st, opts, shift, rank_col, values, colour_tab, ak, ra)
            kind = ak[K_DEF]
        else:
            set_defence(mem, st, opts, shift, rank_col, ak, kind)
        roll = rd
        if (kind == D_RWB or kind == D_SOAK) and hit_no > 0 and opts[O_RWB_PER_ATTACK] == 0:
            roll = d100(draw(rs))
        fallback, armour_pct = _extra_feats(opts, rank_col, colour_tab, values, st, ak, rs, mem,
                                            t)  # fmt: skip
        landed, ca, net, thr, soaked, dcol, _outright, _bypass, _feat = first_hit(
            mem, st, opts, values, colour_tab, ak, ra, roll, fallback, armour_pct)  # fmt: skip
        cat_colours[a, ca] += 1
        _log_attack(fs, events, n_events, a, t, A_BURST, ra, ca, roll, kind, 1 if landed else 0,
                    1 if landed else 0)  # fmt: skip
        if landed:
            st[a, S_LANDED] += 1
            hit_no += 1
        if landed or net > 0:
            apply_hit(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                      tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                      n_events, a, t, ca, net, thr, soaked, dcol, landed, hit_no <= 1,
                      -1)  # fmt: skip


@typed
def _contest(mem, st, opts, shift, rank_col, colour_tab, rs, actor, responder, ability, multi):
    """A contest other than an attack (a grapple, an escape; K4, CA10): the actor needs Green
    or better and to beat the responder, whose roll is clamped under ``contest_clamp:
    all_responders``. Returns (won, the actor's colour, its roll)."""
    x = draw(rs)
    ra, rd = joint_rolls(x)
    ca = colour_tab[roll_column(mem, st, opts, shift, rank_col, actor, ability, 0, multi, 0,
                                True, False), ra]  # fmt: skip
    cd = colour_tab[roll_column(mem, st, opts, shift, rank_col, responder, ability, 0, 0, 0,
                                False, False), rd]  # fmt: skip
    if opts[O_CLAMP_ATTACKS_ONLY] == 0:
        cd = clamp_defence(cd)
    return beats(ca, ra, cd, rd), ca, ra


@typed
def grapple(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
            tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
            a, k, multi):  # fmt: skip
    """A grapple (004 L72; CA93): a contested Fighting roll, then a contested Strength roll;
    winning both holds the target from the next round on."""
    t = choose_target(mem, acts, st, fs, a, k, -1)
    if t < 0 or st[t, S_GRAPPLED_BY] >= 0 or st[a, S_HOLDING] >= 0:
        return
    st[a, S_ATTACKS] += 1
    if opts[O_AIM_LOST_ATTACKED] != 0:
        st[t, S_AIM] = 0
    won, ca, ra = _contest(mem, st, opts, shift, rank_col, colour_tab, rs, a, t, FIGHTING, multi)
    cat_colours[a, ca] += 1
    held = False
    if won:
        held, _, _ = _contest(mem, st, opts, shift, rank_col, colour_tab, rs, a, t, STRENGTH,
                              multi)  # fmt: skip
    if held:
        st[t, S_GRAPPLED_BY] = a
        st[a, S_HOLDING] = t
        st[t, S_GRAPPLE_ROUND] = fs[F_ROUND]
        st[a, S_LANDED] += 1
    event(fs, events, n_events, EVENT_GRAPPLE, a, t, ra, ca, 1 if won else 0, 1 if held else 0)


@typed
def squeeze(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
            tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, a):
    """The holder's squeeze (004 L72; CA94): an unopposed Strength FEAT, the Strength value in
    damage scaled by its colour (``grapple_damage: flat``: the whole value), then armour; no
    defence roll."""
    t = st[a, S_HOLDING]
    st[a, S_ATTACKS] += 1
    roll = d100(draw(rs))
    ca = colour_tab[roll_column(mem, st, opts, shift, rank_col, a, STRENGTH, 0, 0, 0, True,
                                False), roll]  # fmt: skip
    cat_colours[a, ca] += 1
    net = 0
    if ca >= opts[O_FEAT_MIN] and ca >= GREEN:
        st[a, S_LANDED] += 1
        prepare(mem, st, opts, shift, rank_col, ak, a, t, A_ATTACK, 0, -1, 0, 0, 0, 1, 0)
        ak[K_DEF] = D_NONE
        dmg_colour = YELLOW if opts[O_GRAPPLE_FLAT] != 0 else ca
        net, thr, _ = hit_damage(mem, st, opts, values, ak, ca, dmg_colour, False, 100, -1, False,
                                 1, 100)  # fmt: skip
        blow = thr if opts[O_KILL_THREATENED] != 0 else net
        land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a,
             t, net, thr, blow)  # fmt: skip
    event(fs, events, n_events, EVENT_SQUEEZE, a, t, roll, ca, net, st[t, S_HEALTH])


@typed
def escape(mem, opts, shift, rank_col, colour_tab, st, rs, fs, events, n_events, c):
    """A grappled victim's escape (CA95): a contested Strength roll against its holder, ties to
    the holder."""
    holder = st[c, S_GRAPPLED_BY]
    won, ca, ra = _contest(mem, st, opts, shift, rank_col, colour_tab, rs, c, holder, STRENGTH, 0)
    if won:
        st[c, S_GRAPPLED_BY] = -1
        st[holder, S_HOLDING] = -1
    event(fs, events, n_events, EVENT_ESCAPE, c, holder, ra, ca, 1 if won else 0, 0)
