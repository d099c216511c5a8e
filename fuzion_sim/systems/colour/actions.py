"""A combatant's actions in the general colour kernel: attacks in every form (single, autofire,
concentrated fire, sweep, three-round burst, area effects; 004 L70-99), called shots (L73-82),
grappling (L72), counter-attacks (CA20), attacks on helpless bodies (L50), and what a hit does
besides Health (force fields, Soak strain, armour breakage, rattle and the damage table, CA32-
CA39, CA63).

Every function takes the plan's arrays then the trial's state, in the same order:
``mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab, tab_later,
tab_meta`` and ``st, ak, rs, fs, cat_colours, cat_rolls, events, n_events``.

Random numbers, in the order every kernel draws them: one output per contest (both d100s
from its low half, a hit die from its high half), one per later hit's own FEAT, per armour
FEAT (CA32) and per Soak after a lost dodge (CA64), one per rattle (5d10) and table roll, per
Endurance, severance and strain roll, per burst's second and third rolls, per further target
of a sweep or an area.
"""

from __future__ import annotations

import numpy as np

from .codes import (
    A_ATTACK,
    A_AUTOFIRE,
    A_CONCENTRATED,
    AF_CALLED,
    AF_POWER,
    AF_TARGET,
    BLUDGEONING,
    BLUE,
    D_DODGE,
    D_NONE,
    D_RWB,
    D_SOAK,
    ENERGY,
    EV_A,
    EV_ACTOR,
    EV_B,
    EV_C,
    EV_D,
    EV_E,
    EV_F,
    EV_G,
    EV_H,
    EV_KIND,
    EV_TARGET,
    EVENT_ATTACK,
    EVENT_BREAK,
    EVENT_COUNTER,
    EVENT_FIELD,
    EVENT_HELPLESS,
    EVENT_HIT,
    EVENT_KO,
    EVENT_LIMB,
    EVENT_STRAIN,
    EVENT_TABLE,
    F_N,
    F_OVER,
    GREEN,
    HEAD,
    K_ATT_COL,
    K_BASE,
    K_DEF,
    K_DEF_COL,
    K_MELEE,
    K_TYPE,
    LIMB_ALWAYS,
    LIMB_BROKEN,
    LIMB_OK,
    LIMB_SEVERED,
    LIMB_UNLESS_DISABLED,
    M_BODY,
    M_FIELD,
    M_FINISH,
    M_HAS_SHIELD,
    M_NAT,
    M_SC_CALL,
    M_SH_PROT,
    M_SIDE,
    M_TARGETING,
    M_VAL_E,
    M_W_ABILITY,
    M_W_MELEE,
    M_W_POWER,
    M_W_RF,
    O_AIM_LOST_ATTACKED,
    O_ARMOUR_ACTIVE,
    O_BREAKAGE,
    O_CONC_HALF,
    O_COUNTER,
    O_CRIT_MIN,
    O_DAMAGE_TABLE,
    O_FALLBACK_SOAK,
    O_FIELD_END,
    O_HEAD_PIERCE_SLASH,
    O_HELPLESS_PER_HIT,
    O_KILL_AT_ZERO,
    O_KILL_THREATENED,
    O_LIMB_HEALTH,
    O_LIMB_PENALTY_SEVERED_ONLY,
    O_NO_TABLES,
    O_RATTLE,
    O_RWB_PER_ATTACK,
    O_SC_DAMAGE,
    O_SEVER_FULL,
    O_STRAIN,
    O_VALUE_NEAREST,
    PIERCING,
    RED,
    S_AIM,
    S_ARMS_LOST,
    S_ATTACKS,
    S_BODY_BROKEN,
    S_BROKEN_N,
    S_DROPS,
    S_FASE_CS,
    S_FIELD_UP,
    S_GRAPPLED_BY,
    S_HEAD_HP,
    S_HEALTH,
    S_HOLDING,
    S_LANDED,
    S_LEGS_LOST,
    S_LIMB,
    S_LIMB_HP,
    S_POWER_CS,
    S_POWER_OFF,
    S_PRISTINE,
    S_RANK_E,
    S_SEVERED_N,
    S_SH_MODE,
    S_SHIELD_BROKEN,
    S_STATUS,
    SC_BEST,
    SC_DOUBLE,
    SHIELD_BLOCK,
    SLASHING,
    ST_DEAD,
    ST_DOWN,
    ST_KO,
    ST_STANDING,
    SUPER_CRIT,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TM_LATER,
    TM_MODE,
    WHITE,
    YELLOW,
)
from .fate import die, draw, event, event_row, go_out, land, lose_ranks
from .rules import (
    clamp_defence,
    d100,
    d100_high,
    endurance_column,
    high_die,
    joint_rolls,
    sever_fraction_pct,
    strain_ranks,
    value_rank,
)
from .strike import (
    choose_defence,
    concentrated_hit,
    first_hit,
    hit_damage,
    later_hit,
    prepare,
    set_defence,
)
from .tables import entry
from .typed import typed

_LOW32 = np.uint64(0xFFFFFFFF)


# --- targets ---------------------------------------------------------------------------------


@typed
def choose_target(mem, acts, st, fs, c, k, exclude):
    """Whom ``c``'s action ``k`` attacks: a fallen enemy first under ``finish_fallen``, then
    its preferred target while it stands, then by its ``targeting`` (the first standing enemy
    in listed order, the weakest or the strongest by Health); -1 when no one is left."""
    n = fs[F_N]
    side = mem[c, M_SIDE]
    if mem[c, M_FINISH] != 0:
        for e in range(n):
            if mem[e, M_SIDE] != side and st[e, S_STATUS] == ST_DOWN and e != exclude:
                return e
    pref = acts[c, k, AF_TARGET] if k >= 0 else -1
    if pref >= 0 and pref != exclude and st[pref, S_STATUS] == ST_STANDING:
        return pref
    rule = mem[c, M_TARGETING]
    best = -1
    for e in range(n):
        if mem[e, M_SIDE] == side or e == exclude or st[e, S_STATUS] != ST_STANDING:
            continue
        if rule == 0:
            return e
        h = st[e, S_HEALTH]
        if best < 0 or (rule == 1 and h < st[best, S_HEALTH]) or (
                rule == 2 and h > st[best, S_HEALTH]):  # fmt: skip
            best = e
    return best


@typed
def armour_total(mem, st, t):
    """The armour a target wears now (every layer, before AP): for the rattle, the damage table
    and the armour FEAT (CA32-CA35)."""
    total = 0
    if st[t, S_BODY_BROKEN] == 0:
        total += mem[t, M_BODY]
    total += mem[t, M_NAT]
    if (mem[t, M_HAS_SHIELD] != 0 and st[t, S_SH_MODE] == SHIELD_BLOCK
            and st[t, S_SHIELD_BROKEN] == 0):  # fmt: skip
        total += mem[t, M_SH_PROT]
    if st[t, S_FIELD_UP] != 0:
        total += mem[t, M_FIELD]
    return total


# --- what a hit does -----------------------------------------------------------------------------


@typed
def damage_table(mem, st, opts, rs, fs, events, n_events, t):
    """The 1d100 table of an overmatched armour (002 L49-55, CA35), as column shifts on the
    wearer's FASE rolls and its power (its weapon, when that is a power), for the fight."""
    roll = d100(draw(rs))
    power = mem[t, M_W_POWER] != 0
    if roll <= 20:
        if power:
            st[t, S_POWER_CS] -= 2
    elif roll <= 40:
        st[t, S_FASE_CS + mem[t, M_W_ABILITY]] -= 2
    elif roll <= 65:
        if power:
            st[t, S_POWER_OFF] = 1
    elif roll <= 90:
        if power:
            st[t, S_POWER_CS] -= 1
    elif roll <= 94:
        for i in range(4):
            st[t, S_FASE_CS + i] -= 1
    elif roll <= 98:
        for i in range(4):
            st[t, S_FASE_CS + i] -= 2
        if power:
            st[t, S_POWER_CS] -= 2
    else:
        for i in range(4):
            st[t, S_FASE_CS + i] -= 2
    st[t, S_PRISTINE] = 0
    event(fs, events, n_events, EVENT_TABLE, -1, t, roll, 0, 0, 0)


@typed
def _disable(opts, st, t, loc, state):
    st[t, S_LIMB + loc] = state
    st[t, S_PRISTINE] = 0
    if state == LIMB_SEVERED:
        st[t, S_SEVERED_N] += 1
    else:
        st[t, S_BROKEN_N] += 1
    if opts[O_LIMB_PENALTY_SEVERED_ONLY] == 0 or state == LIMB_SEVERED:
        if loc < 2:
            st[t, S_ARMS_LOST] += 1
        else:
            st[t, S_LEGS_LOST] += 1


@typed
def called_effect(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                  tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                  n_events, a, t, loc, net, thr):  # fmt: skip
    """A called shot's damage at ``loc`` (004 L76-79; CA83-CA89): an arm or a leg takes it on
    its hit points (its owner's Endurance value, cumulative) and is disabled at 0, broken by
    bludgeoning or piercing, severed by slashing with the victim's Endurance roll setting what
    Health loses; the head takes bludgeoning on Health too (at most its hit points a strike)
    and is knocked out by one strike of its full hit points; slashing to the head takes its
    hit points, and at 0 Health drops to 0. Energy counts as bludgeoning (CA88)."""
    typ = ak[K_TYPE]
    if typ == ENERGY:
        typ = BLUDGEONING
    e_value = values[st[t, S_RANK_E]]
    blow = thr if opts[O_KILL_THREATENED] != 0 else net
    if loc == HEAD:
        if typ == PIERCING:
            typ = SLASHING if opts[O_HEAD_PIERCE_SLASH] != 0 else BLUDGEONING
        if typ == SLASHING:
            st[t, S_HEAD_HP] -= net
            if st[t, S_HEAD_HP] <= 0:
                land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                     n_events, a, t, st[t, S_HEALTH], thr, blow)  # fmt: skip
            return
        loss = min(net, e_value)
        land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events,
             a, t, loss, thr, blow)  # fmt: skip
        if net >= e_value and st[t, S_STATUS] == ST_STANDING:
            st[t, S_STATUS] = ST_KO
            event(fs, events, n_events, EVENT_KO, a, t, net, e_value, 0, 0)
            go_out(mem, st, fs, t)
        return
    before = st[t, S_LIMB_HP + loc]
    st[t, S_LIMB_HP + loc] = before - net
    disabled = before - net <= 0
    rule = opts[O_LIMB_HEALTH]
    loss = net if rule == LIMB_ALWAYS or (rule == LIMB_UNLESS_DISABLED and not disabled) else 0
    if disabled:
        if typ == SLASHING:
            roll = d100(draw(rs))
            colour = colour_tab[endurance_column(st, rank_col, t), roll]
            cap = mem[t, M_VAL_E] if opts[O_SEVER_FULL] != 0 else max(before, 0)
            loss = min(net, cap) * sever_fraction_pct(colour) // 100
            state = LIMB_BROKEN if colour >= RED else LIMB_SEVERED
            _disable(opts, st, t, loc, state)
            event(fs, events, n_events, EVENT_LIMB, a, t, loc, state, roll, colour)
        else:
            _disable(opts, st, t, loc, LIMB_BROKEN)
            event(fs, events, n_events, EVENT_LIMB, a, t, loc, LIMB_BROKEN, 0, -1)
    land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a, t,
         loss, thr, blow)  # fmt: skip


@typed
def _called_loss(mem, st, opts, values, t, loc, typ, net):
    """The Health a called-shot effect at ``loc`` would take, for a Super Crit under
    ``super_crit_damage: best`` (CA24; a severance's roll is not known yet and counts 0)."""
    e_value = values[st[t, S_RANK_E]]
    if typ == ENERGY:
        typ = BLUDGEONING
    if loc == HEAD:
        if typ == PIERCING:
            typ = SLASHING if opts[O_HEAD_PIERCE_SLASH] != 0 else BLUDGEONING
        if typ == SLASHING:
            return st[t, S_HEALTH] if st[t, S_HEAD_HP] - net <= 0 else 0
        return min(net, e_value, st[t, S_HEALTH])
    rule = opts[O_LIMB_HEALTH]
    disabled = st[t, S_LIMB_HP + loc] - net <= 0
    if rule == LIMB_ALWAYS or (rule == LIMB_UNLESS_DISABLED and not disabled):
        return min(net, st[t, S_HEALTH])
    return 0


@typed
def apply_hit(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
              tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
              a, t, ca, net, thr, soaked, dcol, is_hit, is_first, called):  # fmt: skip
    """Everything one hit of ``a`` on the standing ``t`` does: the rattle (CA34), the damage
    table (CA35, the attack's first hit), Health or a called location, a force field's drop
    (CA39), Soak strain (CA63) and armour breakage (CA36, after the first hit)."""
    if st[t, S_STATUS] != ST_STANDING:
        return
    crit = ca >= opts[O_CRIT_MIN]
    if is_hit and crit and opts[O_RATTLE] != 0:
        total = armour_total(mem, st, t)
        nearest = opts[O_VALUE_NEAREST] != 0
        if total > 0 and value_rank(values, ak[K_BASE], nearest) < value_rank(values, total,
                                                                               nearest):
            if dcol >= 0 and clamp_defence(dcol) == RED:
                if opts[O_DAMAGE_TABLE] != 0 and is_first:
                    damage_table(mem, st, opts, rs, fs, events, n_events, t)
            else:
                x = draw(rs)
                low = np.int64((x & _LOW32) * np.uint64(1000) >> np.uint64(32))
                rattle = (low // 100 + 1) + (low // 10 % 10 + 1) + (low % 10 + 1)
                two = d100_high(x) - 1
                rattle += two // 10 + 1 + two % 10 + 1
                net += rattle
                event(fs, events, n_events, EVENT_BREAK, a, t, 2, rattle, 0, 0)
    if (is_hit and is_first and opts[O_DAMAGE_TABLE] != 0 and mem[t, M_BODY] > 0
            and st[t, S_BODY_BROKEN] == 0):  # fmt: skip
        nearest = opts[O_VALUE_NEAREST] != 0
        if value_rank(values, ak[K_BASE], nearest) >= value_rank(values, mem[t, M_BODY],
                                                                 nearest) + 2:
            damage_table(mem, st, opts, rs, fs, events, n_events, t)
    field_up = st[t, S_FIELD_UP] != 0 and mem[t, M_FIELD] > 0
    row = event_row(fs, events, n_events)
    if row >= 0:
        events[row, EV_KIND] = EVENT_HIT
        events[row, EV_ACTOR] = a
        events[row, EV_TARGET] = t
        events[row, EV_A] = net
        events[row, EV_B] = thr
        events[row, EV_C] = soaked
        events[row, EV_D] = called
    if called >= 0 and net > 0:
        called_effect(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask,
                      pair_tab, tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours,
                      cat_rolls, events, n_events, a, t, called, net, thr)  # fmt: skip
    else:
        blow = thr if opts[O_KILL_THREATENED] != 0 else net
        land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events,
             a, t, net, thr, blow)  # fmt: skip
    if row >= 0:
        events[row, EV_E] = st[t, S_HEALTH]
        events[row, EV_F] = st[t, S_STATUS]
    if field_up and net > 0 and opts[O_FIELD_END] == 0:
        st[t, S_FIELD_UP] = 0
        st[t, S_PRISTINE] = 0
        event(fs, events, n_events, EVENT_FIELD, t, a, 0, 0, 0, 0)
    if soaked > 10 and opts[O_STRAIN] != 0 and st[t, S_STATUS] != ST_DEAD:
        n = strain_ranks(opts, soaked)
        roll = d100(draw(rs))
        colour = colour_tab[endurance_column(st, rank_col, t), roll]
        event(fs, events, n_events, EVENT_STRAIN, t, -1, soaked, roll, colour, n)
        if colour < RED and n > 0:
            lose_ranks(mem, st, opts, values, fs, events, n_events, t, n, 0)
    if (is_first and is_hit and crit and opts[O_BREAKAGE] != 0 and (dcol == BLUE or dcol == WHITE)
            and (mem[t, M_BODY] > 0 or mem[t, M_HAS_SHIELD] != 0)):  # fmt: skip
        if st[t, S_BODY_BROKEN] == 0 or st[t, S_SHIELD_BROKEN] == 0:
            st[t, S_BODY_BROKEN] = 1
            st[t, S_SHIELD_BROKEN] = 1
            st[t, S_PRISTINE] = 0
            event(fs, events, n_events, EVENT_BREAK, a, t, 1, 0, 0, 0)


# --- attack rolls ------------------------------------------------------------------------------


@typed
def _extra_feats(opts, rank_col, colour_tab, values, st, ak, rs, mem, t):
    """The colours drawn before a hit's damage: a Soak after a lost dodge (CA64) and the armour
    FEAT (CA32), or -1 and 100 when those rules are off."""
    fallback = -1
    if opts[O_FALLBACK_SOAK] != 0 and ak[K_DEF] == D_DODGE:
        fallback = colour_tab[endurance_column(st, rank_col, t), d100(draw(rs))]
    armour_pct = 100
    if opts[O_ARMOUR_ACTIVE] != 0:
        total = armour_total(mem, st, t)
        rank = value_rank(values, total, opts[O_VALUE_NEAREST] != 0)
        colour = clamp_defence(colour_tab[rank_col[rank], d100(draw(rs))])
        armour_pct = 0 if colour == WHITE else (50 if colour == GREEN else (
            100 if colour == YELLOW else 150))  # fmt: skip
    return fallback, armour_pct


@typed
def _log_attack(fs, events, n_events, a, t, form, ra, ca, rd, kind, hit, hits):
    row = event_row(fs, events, n_events)
    if row >= 0:
        events[row, EV_KIND] = EVENT_ATTACK
        events[row, EV_ACTOR] = a
        events[row, EV_TARGET] = t
        events[row, EV_A] = form
        events[row, EV_B] = ra
        events[row, EV_C] = ca
        events[row, EV_D] = rd
        events[row, EV_E] = kind
        events[row, EV_F] = hit
        events[row, EV_G] = hits
        events[row, EV_H] = 0


@typed
def helpless(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
             tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
             a, t, ra, x, form, rounds):  # fmt: skip
    """An attack on a helpless body at 0 Health (004 L50; CA73-CA76): no defence roll; a
    threatening attack costs it one Endurance rank (per hit under ``helpless_loss_per: hit``),
    or kills it outright under ``kill_outright_at_zero`` when its damage reaches the
    Endurance value."""
    ca = colour_tab[ak[K_ATT_COL], ra]
    cat_colours[a, ca] += 1
    hits = high_die(x, rounds) if form == A_AUTOFIRE and ca >= GREEN else 1
    _log_attack(fs, events, n_events, a, t, form, ra, ca, -1, D_NONE, 1 if ca >= GREEN else 0,
                hits)  # fmt: skip
    if ca < GREEN:
        return ca, False
    st[a, S_LANDED] += 1
    if opts[O_KILL_AT_ZERO] != 0:
        ak[K_DEF] = D_NONE
        net, thr, _ = hit_damage(mem, st, opts, values, ak, ca, ca, False, 100, -1, False, 1, 100)
        blow = thr if opts[O_KILL_THREATENED] != 0 else net
        if blow >= values[st[t, S_RANK_E]]:
            die(mem, st, fs, events, n_events, t, 1)
            return ca, True
    n = hits if opts[O_HELPLESS_PER_HIT] != 0 else 1
    event(fs, events, n_events, EVENT_HELPLESS, a, t, n, 0, 0, 0)
    lose_ranks(mem, st, opts, values, fs, events, n_events, t, n, 1)
    return ca, True


@typed
def table_volley(mem, st, opts, values, rank_col, colour_tab, tab, tab_later, tab_meta, rs, fs,
                 cat_colours, cat_rolls, events, n_events, a, t, p, j, x, autofire,
                 rounds):  # fmt: skip
    """A single attack or autofire volley read off its static table ``p`` (``tables.py``):
    the same numbers as :func:`volley` for a pair at its starting state."""
    v = entry(tab, p, j)
    landed = (v & 1) != 0
    ca = (v >> 1) & 7
    net = (v >> TAB_NET_SHIFT) & TAB_FIELD
    thr = (v >> TAB_THR_SHIFT) & TAB_FIELD
    cat_colours[a, ca] += 1
    if landed:
        st[a, S_LANDED] += 1
    if not landed and net <= 0:
        return ca, landed
    hits = high_die(x, rounds) if autofire and landed else 1
    threatened = opts[O_KILL_THREATENED] != 0
    drops = st[t, S_DROPS]
    land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a, t,
         net, thr, thr if threatened else net)  # fmt: skip
    later = tab_meta[p, TM_LATER] != 0
    for _ in range(1, hits):
        if st[t, S_DROPS] != drops:
            break
        net2 = net
        if later:
            net2 = tab_later[p, ca * 101 + d100(draw(rs))]
        land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a,
             t, net2, thr, thr if threatened else net2)  # fmt: skip
    return ca, landed


@typed
def _attack_roll(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                 tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
                 a, k, t, form, rounds, manoeuvre, multi, bonus, fists, x, ra, rd):  # fmt: skip
    """The attack roll of :func:`volley` worked out rule by rule: the defence, the contest,
    every hit. Returns (the attack's colour, landed, the defender won a melee contest
    outright)."""
    rapid = 1 if mem[a, M_W_RF] != 0 and fists == 0 else 0
    power = acts[a, k, AF_POWER] if k >= 0 else 0
    called = acts[a, k, AF_CALLED] if k >= 0 else -1
    if called >= 0 and called != HEAD and st[t, S_LIMB + called] != LIMB_OK:
        called = -1
    prepare(mem, st, opts, shift, rank_col, ak, a, t, form, power, called, manoeuvre, multi,
            bonus, fists, rapid)  # fmt: skip
    choose_defence(mem, st, opts, shift, rank_col, values, colour_tab, ak, ra)
    if st[t, S_STATUS] == ST_DOWN:
        ca, landed = helpless(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask,
                              pair_tab, tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours,
                              cat_rolls, events, n_events, a, t, ra, x, form, rounds)  # fmt: skip
        return ca, landed, False
    fallback, armour_pct = _extra_feats(opts, rank_col, colour_tab, values, st, ak, rs, mem, t)
    if form == A_CONCENTRATED:
        n_hits = high_die(x, max(rounds // 2, 1) if opts[O_CONC_HALF] != 0 else rounds)
        res = concentrated_hit(mem, st, opts, values, colour_tab, ak, ra, rd, n_hits, fallback,
                               armour_pct)  # fmt: skip
    else:
        res = first_hit(mem, st, opts, values, colour_tab, ak, ra, rd, fallback, armour_pct)
    landed, ca, net, thr, soaked, dcol, outright, bypass, feat = res
    cat_colours[a, ca] += 1
    if landed:
        st[a, S_LANDED] += 1
    hits = high_die(x, rounds) if form == A_AUTOFIRE and landed else 1
    _log_attack(fs, events, n_events, a, t, form, ra, ca, rd, ak[K_DEF], 1 if landed else 0,
                hits if landed else 0)  # fmt: skip
    if ca == SUPER_CRIT and landed and form == A_ATTACK and called < 0:
        rule = opts[O_SC_DAMAGE]
        if rule != SC_DOUBLE:
            loc = mem[a, M_SC_CALL]
            alt = hit_damage(mem, st, opts, values, ak, ca, YELLOW, False, 100, fallback,
                             False, 1, armour_pct)  # fmt: skip
            if rule != SC_BEST or _called_loss(mem, st, opts, values, t, loc, ak[K_TYPE],
                                               alt[0]) > min(net, st[t, S_HEALTH]):
                called = loc
                net, thr, soaked = alt
    if not landed and net <= 0:
        return ca, landed, outright
    field_up = st[t, S_FIELD_UP] != 0 and mem[t, M_FIELD] > 0
    penetrated = net > 0
    drops = st[t, S_DROPS]
    apply_hit(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
              tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
              a, t, ca, net, thr, soaked, dcol, landed, True, called)  # fmt: skip
    kind = ak[K_DEF]
    for _ in range(1, hits):
        if st[t, S_DROPS] != drops or st[t, S_STATUS] != ST_STANDING:
            break
        set_defence(mem, st, opts, shift, rank_col, ak, kind)
        feat_h = feat
        if (kind == D_RWB or kind == D_SOAK) and opts[O_RWB_PER_ATTACK] == 0:
            feat_h = colour_tab[ak[K_DEF_COL], d100(draw(rs))]
        fb, apct = _extra_feats(opts, rank_col, colour_tab, values, st, ak, rs, mem, t)
        net_h, thr_h, soaked_h = later_hit(mem, st, opts, values, ak, ca, bypass, feat_h, fb,
                                           apct)  # fmt: skip
        penetrated = penetrated or net_h > 0
        apply_hit(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                  tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                  n_events, a, t, ca, net_h, thr_h, soaked_h, dcol, True, False, -1)  # fmt: skip
    if field_up and penetrated and opts[O_FIELD_END] != 0 and st[t, S_FIELD_UP] != 0:
        st[t, S_FIELD_UP] = 0
        st[t, S_PRISTINE] = 0
        event(fs, events, n_events, EVENT_FIELD, t, a, 0, 0, 0, 0)
    return ca, landed, outright


@typed
def volley(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
           tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events,
           a, k, t, form, rounds, manoeuvre, multi, bonus, fists, counter_ok):  # fmt: skip
    """One attack roll of ``a`` on ``t``: a single attack, an autofire volley of 1d(rounds)
    hits (K6) or concentrated fire, through the target's defence, read off a static table
    when both stand as they started (``tables.py``); then a counter-attack when the defender
    wins a melee contest outright (CA20). Returns (the attack's colour, landed)."""
    x = draw(rs)
    ra, rd = joint_rolls(x)
    st[a, S_ATTACKS] += 1
    if opts[O_AIM_LOST_ATTACKED] != 0:
        st[t, S_AIM] = 0
    if (k >= 0 and opts[O_NO_TABLES] == 0 and bonus == 0 and fists == 0
            and form != A_CONCENTRATED):  # fmt: skip
        p = pair_tab[a, k, t]
        if (p >= 0 and st[a, S_PRISTINE] != 0 and st[t, S_PRISTINE] != 0
                and st[t, S_STATUS] == ST_STANDING and st[a, S_GRAPPLED_BY] < 0
                and st[a, S_HOLDING] < 0 and st[t, S_GRAPPLED_BY] < 0 and st[t, S_HOLDING] < 0
                and tab_meta[p, TM_MODE] == st[t, S_SH_MODE]):  # fmt: skip
            return table_volley(mem, st, opts, values, rank_col, colour_tab, tab, tab_later,
                                tab_meta, rs, fs, cat_colours, cat_rolls, events, n_events, a, t,
                                p, (ra - 1) * 100 + rd - 1, x, form == A_AUTOFIRE,
                                rounds)  # fmt: skip
    ca, landed, outright = _attack_roll(
        mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
        tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events, n_events, a, k, t,
        form, rounds, manoeuvre, multi, bonus, fists, x, ra, rd)  # fmt: skip
    melee = ak[K_MELEE] != 0
    if (outright and counter_ok and opts[O_COUNTER] != 0 and melee
            and st[t, S_STATUS] == ST_STANDING and st[a, S_STATUS] == ST_STANDING
            and fs[F_OVER] == 0):  # fmt: skip
        x2 = draw(rs)
        ra2, rd2 = joint_rolls(x2)
        st[t, S_ATTACKS] += 1
        counter_fists = 1 if mem[t, M_W_MELEE] == 0 else 0
        event(fs, events, n_events, EVENT_COUNTER, t, a, 0, 0, 0, 0)
        _attack_roll(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab,
                     tab, tab_later, tab_meta, st, ak, rs, fs, cat_colours, cat_rolls, events,
                     n_events, t, -1, a, A_ATTACK, 1, 0, 0, 0, counter_fists, x2, ra2,
                     rd2)  # fmt: skip
    return ca, landed
