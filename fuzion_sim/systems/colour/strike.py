"""One attack's rolls and damage, shared by every kernel and the exact oracle: which defence the
target makes and on which column (seed 002; CA19, CA56-CA59), the contest (K4), and the net
damage of each hit through the damage pipeline (K5, CA22, CA26, CA28-CA31, CA37-CA43, CA60-CA65).

An attack in the making lives in a small int64 array ``ak`` (``codes.K_*``) that
:func:`prepare` fills; :func:`first_hit` and :func:`later_hit` then read the rolls. No
function here draws a random number: the kernels draw, these decide.
"""

from __future__ import annotations

from ..._jit import jit
from .codes import (
    A_CONCENTRATED,
    AGILITY,
    D_BLOCK,
    D_DODGE,
    D_NONE,
    D_PARRY,
    D_RWB,
    D_SOAK,
    ENDURANCE,
    FIGHTING,
    GREEN,
    K_A,
    K_AP,
    K_AP_PCT,
    K_ATT_COL,
    K_BASE,
    K_CALLED,
    K_DEF,
    K_DEF_ABILITY,
    K_DEF_COL,
    K_DEF_COL_PLAIN,
    K_DEFLECT,
    K_FISTS,
    K_FORM,
    K_GUN,
    K_IGNORES,
    K_MELEE,
    K_POWER,
    K_RAPID,
    K_T,
    K_TYPE,
    K_UNARMED_PARRY,
    M_BODY,
    M_BODY_COVERS,
    M_BODY_NSAP,
    M_DEF_MASK,
    M_DEFENCE,
    M_FIELD,
    M_FIELD_COVERS,
    M_FIELD_NSAP,
    M_HAS_SHIELD,
    M_NAT,
    M_NAT_COVERS,
    M_NAT_NSAP,
    M_SH_COVERS,
    M_SH_DEFL,
    M_SH_PROT,
    M_VAL_S,
    M_W_ABILITY,
    M_W_AP,
    M_W_AP_PCT,
    M_W_GUN,
    M_W_IGNORES,
    M_W_MELEE,
    M_W_PARRY,
    M_W_THROWN,
    M_W_TYPE,
    M_W_UNARMED,
    NAT_BYPASS_RED,
    NAT_BYPASS_SC,
    O_AP_OF_DAMAGE,
    O_ARMOUR_FIRST,
    O_BLOCK_NONE,
    O_CONC_ON_SUM,
    O_COVERS_ALL,
    O_FAILED_FULL,
    O_GRAPPLED_NO_DEFENCE,
    O_IGNORES_ALL,
    O_NATURAL_CRIT,
    O_PARRY_FULL,
    O_PARRY_RANGED,
    O_REACTIVE,
    O_RED_IGNORES,
    O_RWB_ABILITY,
    O_SHIELD_AP,
    O_SHIELD_CRIT,
    O_SHIELD_CRIT_MIN,
    O_SOAK_AFTER_ARMOUR,
    O_SOAK_NEAREST,
    O_SOAK_ONLY,
    PARRY_ANY,
    PARRY_NONE,
    RED,
    RWB_AGILITY,
    RWB_AS_DODGE,
    RWB_ENDURANCE,
    S_BODY_BROKEN,
    S_FIELD_UP,
    S_GRAPPLED_BY,
    S_RANK_E,
    S_SH_MODE,
    S_SHIELD_BROKEN,
    S_STATUS,
    SHIELD_ALWAYS,
    SHIELD_BLOCK,
    SHIELD_DEFLECT,
    SHIELD_NEVER,
    ST_STANDING,
    SUPER_CRIT,
    UNLISTED,
    YELLOW,
)
from .rules import (
    base_damage,
    beats,
    clamp_defence,
    colour_pct,
    endurance_column,
    roll_column,
    rwb_taken,
    soak_amount,
    soak_needed,
    through_armour,
    value_rank,
)
from .typed import typed

#: Contested defences: the target rolls against the attack (K4).
_CONTESTED = (D_DODGE, D_BLOCK, D_PARRY)


@jit(inline="always")
def _covers(opts, mask, bit):
    """Whether an armour layer covers a damage type (CA30): as listed, or without a list the
    physical types (every type under ``armour_covers: all``)."""
    return (mask & bit) != 0 or (opts[O_COVERS_ALL] != 0 and (mask & UNLISTED) != 0)


@typed
def armour_layers(mem, st, opts, ak, colour, bypass_shield):
    """The armour between an attack and its target (CA29): ``(subject, exempt)``, the layers
    Armor-Piercing reduces and those it does not. Body armour (not when broken, CA36, or
    against a Red under ``red_ignores_armour``, CA37), natural armour (not against the
    colours ``natural_armour_crit`` lets through, CA38), a Block-mode shield's Protection (not
    when bypassed, CA41; AP-exempt unless ``shield_ap``, CA43), a raised force field (CA39)."""
    t = ak[K_T]
    if ak[K_IGNORES] != 0:
        return 0, 0
    bit = 1 << ak[K_TYPE]
    subject = 0
    exempt = 0
    body = mem[t, M_BODY]
    if (body > 0 and st[t, S_BODY_BROKEN] == 0 and _covers(opts, mem[t, M_BODY_COVERS], bit)
            and not (opts[O_RED_IGNORES] != 0 and colour >= RED)):  # fmt: skip
        if mem[t, M_BODY_NSAP] != 0:
            exempt += body
        else:
            subject += body
    nat = mem[t, M_NAT]
    crit = opts[O_NATURAL_CRIT]
    bypass_nat = (crit == NAT_BYPASS_RED and colour >= RED) or (
        crit == NAT_BYPASS_SC and colour == SUPER_CRIT)
    if nat > 0 and not bypass_nat and _covers(opts, mem[t, M_NAT_COVERS], bit):
        if mem[t, M_NAT_NSAP] != 0:
            exempt += nat
        else:
            subject += nat
    if (mem[t, M_HAS_SHIELD] != 0 and st[t, S_SH_MODE] == SHIELD_BLOCK
            and st[t, S_SHIELD_BROKEN] == 0 and not bypass_shield
            and _covers(opts, mem[t, M_SH_COVERS], bit)):  # fmt: skip
        if opts[O_SHIELD_AP] != 0:
            subject += mem[t, M_SH_PROT]
        else:
            exempt += mem[t, M_SH_PROT]
    field = mem[t, M_FIELD]
    if field > 0 and st[t, S_FIELD_UP] != 0 and _covers(opts, mem[t, M_FIELD_COVERS], bit):
        if mem[t, M_FIELD_NSAP] != 0:
            exempt += field
        else:
            subject += field
    return subject, exempt


@typed
def hit_damage(mem, st, opts, values, ak, colour, dmg_colour, full, frac_pct, soak_colour,
               bypass_shield, stack, armour_pct):  # fmt: skip
    """One hit's damage: ``(net, threatened, soaked)``.

    ``colour`` is the attack's colour (for the crit rules of armour), ``dmg_colour`` the one
    its percentage is read from (Yellow for a shield bypass, CA41); ``full``: a failed
    defence at 100% (CA22); ``frac_pct``: the percent a fractional defence lets through (Roll
    with Blow, an unarmed parry's 1/4); ``soak_colour``: the Soak FEAT's colour (-1: no
    soak); ``stack``: rounds stacked by concentrated fire (CA45); ``armour_pct``: the armour
    FEAT's scaling (100: passive armour, CA32). The order (CA26, CA31): percentage (floored),
    the fraction (floored), armour after AP (``armour_first`` swaps the two), Soak.
    """
    t = ak[K_T]
    power = ak[K_POWER] != 0
    pct = (150 if power else 100) if full else colour_pct(opts, dmg_colour, power, ak[K_GUN] != 0)
    base = ak[K_BASE]
    if stack > 1:
        if opts[O_CONC_ON_SUM] != 0:
            dmg = stack * base * pct // 100
        else:
            dmg = stack * (base * pct // 100)
    else:
        dmg = base * pct // 100
    threatened = dmg
    subject, exempt = armour_layers(mem, st, opts, ak, colour, bypass_shield)
    if armour_pct != 100:
        subject = subject * armour_pct // 100
        exempt = exempt * armour_pct // 100
    ap, ap_pct, of_damage = ak[K_AP], ak[K_AP_PCT], opts[O_AP_OF_DAMAGE] != 0
    if opts[O_ARMOUR_FIRST] != 0:
        net = through_armour(dmg, subject, exempt, ap, ap_pct, of_damage) * frac_pct // 100
        unarmoured = dmg * frac_pct // 100
    else:
        unarmoured = dmg * frac_pct // 100
        net = through_armour(unarmoured, subject, exempt, ap, ap_pct, of_damage)
    soaked = 0
    if soak_colour >= 0 and not (ak[K_IGNORES] != 0 and opts[O_IGNORES_ALL] != 0):
        if opts[O_SOAK_ONLY] != 0:
            net = unarmoured
        basis = net if opts[O_SOAK_AFTER_ARMOUR] != 0 else threatened
        rank_e = st[t, S_RANK_E]
        needed = soak_needed(value_rank(values, basis, opts[O_SOAK_NEAREST] != 0), rank_e)
        soaked = min(soak_amount(opts, soak_colour, needed, values[rank_e]), net)
        net -= soaked
    return net, threatened, soaked


@jit(inline="always")
def _thrown(mem, ak):
    return ak[K_FISTS] == 0 and mem[ak[K_A], M_W_THROWN] != 0


@typed
def defence_of(mem, st, opts, ak, kind):
    """The defence ``kind`` becomes against this attack and the ability it rolls:
    ``(defence, ability, unarmed parry)`` (002; CA56-CA59, CA62, CA97). A block against anything
    but a brawling attack, and a parry that cannot apply (a gun under ``parry_ranged:
    thrown_only``, an unarmed parry against rapid fire), fall back to a dodge (``block_invalid:
    none``: no defence); a grappled victim cannot block or parry."""
    t = ak[K_T]
    melee = ak[K_MELEE] != 0
    if st[t, S_STATUS] != ST_STANDING:
        return D_NONE, 0, 0
    if st[t, S_GRAPPLED_BY] >= 0:
        if opts[O_GRAPPLED_NO_DEFENCE] != 0:
            return D_NONE, 0, 0
        if kind == D_BLOCK or kind == D_PARRY:
            kind = D_DODGE
    unarmed = 0
    if kind == D_BLOCK and not (melee and ak[K_FISTS] != 0):
        kind = D_NONE if opts[O_BLOCK_NONE] != 0 else D_DODGE
    elif kind == D_PARRY:
        armed = mem[t, M_W_PARRY] != 0 or (mem[t, M_HAS_SHIELD] != 0
                                          and st[t, S_SHIELD_BROKEN] == 0)  # fmt: skip
        rule = opts[O_PARRY_RANGED]
        ok = melee or rule == PARRY_ANY or (rule != PARRY_NONE and _thrown(mem, ak))
        if ok and not armed and ak[K_RAPID] != 0:
            ok = False
        if not ok:
            kind = D_NONE if opts[O_BLOCK_NONE] != 0 else D_DODGE
        else:
            unarmed = 0 if armed else 1
            return D_PARRY, FIGHTING if melee else AGILITY, unarmed
    if kind == D_DODGE or kind == D_BLOCK:
        return kind, FIGHTING if melee else AGILITY, 0
    if kind == D_RWB:
        rule = opts[O_RWB_ABILITY]
        if rule == RWB_AGILITY:
            return D_RWB, AGILITY, 0
        if rule == RWB_ENDURANCE:
            return D_RWB, ENDURANCE, 0
        return D_RWB, FIGHTING if melee and rule == RWB_AS_DODGE else AGILITY, 0
    if kind == D_SOAK:
        return D_SOAK, ENDURANCE, 0
    return D_NONE, 0, 0




@typed
def set_defence(mem, st, opts, shift, rank_col, ak, kind):
    """Fill in the defence ``kind`` of ``ak``'s target: the defence after fallbacks, its
    ability and its columns (a contested roll with the Deflect shifts, and without them for a
    crit's bypass, CA41, CA44; a Soak FEAT on the current Endurance, CA81)."""
    t = ak[K_T]
    kind, ability, unarmed = defence_of(mem, st, opts, ak, kind)
    ak[K_DEF] = kind
    ak[K_DEF_ABILITY] = ability
    ak[K_UNARMED_PARRY] = unarmed
    ak[K_DEFLECT] = 0
    if kind == D_NONE:
        ak[K_DEF_COL] = 0
        ak[K_DEF_COL_PLAIN] = 0
        return
    if kind == D_SOAK:
        ak[K_DEF_COL] = endurance_column(st, rank_col, t)
        ak[K_DEF_COL_PLAIN] = ak[K_DEF_COL]
        return
    movement = ability == AGILITY and (kind == D_DODGE or kind == D_RWB)
    ak[K_DEF_COL_PLAIN] = roll_column(mem, st, opts, shift, rank_col, t, ability, 0, 0, 0,
                                      False, movement)  # fmt: skip
    deflect = 0
    if (kind != D_RWB and mem[t, M_HAS_SHIELD] != 0 and st[t, S_SH_MODE] == SHIELD_DEFLECT
            and st[t, S_SHIELD_BROKEN] == 0):  # fmt: skip
        deflect = mem[t, M_SH_DEFL]
    ak[K_DEFLECT] = deflect
    ak[K_DEF_COL] = roll_column(mem, st, opts, shift, rank_col, t, ability, 0, 0, deflect,
                                False, movement)  # fmt: skip


@typed
def prepare(mem, st, opts, shift, rank_col, ak, a, t, form, power, called, manoeuvre, multi,
            bonus, fists, rapid):  # fmt: skip
    """Fill ``ak`` for an attack of ``a`` on ``t`` in the form ``form`` (``codes.A_*``):
    what it does (the weapon's, or the fists' of a grappled victim, CA96), the column of its
    roll (manoeuvre, multi-action and aim shifts), and the target's declared defence."""
    ak[K_A] = a
    ak[K_T] = t
    ak[K_FORM] = form
    ak[K_POWER] = power
    ak[K_CALLED] = called
    ak[K_FISTS] = fists
    ak[K_RAPID] = rapid
    if fists:
        ability = FIGHTING
        ak[K_MELEE] = 1
        ak[K_BASE] = max(mem[a, M_VAL_S], 0)
        ak[K_TYPE] = 0
        ak[K_AP] = 0
        ak[K_AP_PCT] = 0
        ak[K_IGNORES] = 0
        ak[K_GUN] = 0
    else:
        ability = mem[a, M_W_ABILITY]
        ak[K_MELEE] = mem[a, M_W_MELEE]
        ak[K_BASE] = base_damage(mem, a)
        ak[K_TYPE] = mem[a, M_W_TYPE]
        ak[K_AP] = mem[a, M_W_AP]
        ak[K_AP_PCT] = mem[a, M_W_AP_PCT]
        ak[K_IGNORES] = mem[a, M_W_IGNORES]
        ak[K_GUN] = mem[a, M_W_GUN]
        if mem[a, M_W_UNARMED] != 0:
            ak[K_FISTS] = 1
    ak[K_ATT_COL] = roll_column(mem, st, opts, shift, rank_col, a, ability, manoeuvre, multi,
                                bonus, True, False)  # fmt: skip
    set_defence(mem, st, opts, shift, rank_col, ak, mem[t, M_DEFENCE])


@typed
def _bypass_dmg(mem, st, opts, values, ak, ca, full, fallback, armour_pct):
    """(net, threatened, soaked) of a crit through a Block-mode shield, normally and
    bypassed."""
    normal = hit_damage(mem, st, opts, values, ak, ca, ca, full, 100, fallback, False, 1,
                        armour_pct)  # fmt: skip
    bypass = hit_damage(mem, st, opts, values, ak, ca, YELLOW, False, 100, fallback, True, 1,
                        armour_pct)  # fmt: skip
    return normal, bypass


@typed
def _unopposed(mem, st, opts, values, ak, ca, feat, may_bypass, raw, armour_pct):
    """A threatening hit on a target without a contested roll (Roll with Blow, Soak, none):
    its FEAT colour ``feat`` (-1: none) sets the fraction or the soak; a crit may bypass a
    Block-mode shield (CA41)."""
    frac = rwb_taken(opts, feat) if ak[K_DEF] == D_RWB else 100
    soak = feat if ak[K_DEF] == D_SOAK else -1
    net, thr, soaked = hit_damage(mem, st, opts, values, ak, ca, ca, False, frac, soak, False, 1,
                                  armour_pct)  # fmt: skip
    bypass = False
    if may_bypass:
        alt = hit_damage(mem, st, opts, values, ak, ca, YELLOW, False, frac, soak, True, 1,
                         armour_pct)  # fmt: skip
        if opts[O_SHIELD_CRIT] == SHIELD_ALWAYS or alt[0] > net:
            net, thr, soaked = alt
            bypass = True
    return True, ca, net, thr, soaked, raw, False, bypass, feat


@typed
def first_hit(mem, st, opts, values, colour_tab, ak, ra, rd, fallback, armour_pct):
    """The contest and the first hit of an attack (single, autofire, sweep, area, burst) from
    the attack roll ``ra`` and the target's roll ``rd``.

    Returns ``(landed, ca, net, threatened, soaked, dcolour, outright, bypass, feat)``:
    whether the attack landed (beat the defence, or threatened a target that makes no
    contested roll), the attack's colour, the hit's damage, what a Soak absorbed, the
    defender's raw colour (-1: no roll), whether it won a contested roll outright (a
    counter-attack, CA20), whether the hit bypassed a shield (CA41) and the FEAT colour later
    hits reuse under ``rwb_rolls: per_attack``. ``fallback`` is the colour of a Soak after a
    lost dodge (CA64; -1: none) and ``armour_pct`` the armour FEAT's scaling (CA32; 100).
    """
    ca = colour_tab[ak[K_ATT_COL], ra]
    kind = ak[K_DEF]
    t = ak[K_T]
    if kind == D_DODGE or kind == D_BLOCK or kind == D_PARRY:
        raw = colour_tab[ak[K_DEF_COL], rd]
        cd = clamp_defence(raw)
        won = beats(ca, ra, cd, rd)
        outright = ca >= GREEN and (cd > ca or (cd == ca and rd > ra))
        full = opts[O_FAILED_FULL] != 0
        bypass = False
        crit = ca >= opts[O_SHIELD_CRIT_MIN] and ak[K_FORM] != A_CONCENTRATED
        rule = opts[O_SHIELD_CRIT]
        if (crit and rule != SHIELD_NEVER and ak[K_DEFLECT] != 0):
            won_plain = beats(ca, ra, clamp_defence(colour_tab[ak[K_DEF_COL_PLAIN], rd]), rd)
            if rule == SHIELD_ALWAYS or (won_plain and not won):
                if won_plain:
                    net, thr, soaked = hit_damage(mem, st, opts, values, ak, ca, YELLOW, False,
                                                  100, fallback, True, 1, armour_pct)  # fmt: skip
                    return True, ca, net, thr, soaked, raw, False, True, -1
                return False, ca, 0, 0, 0, raw, outright, True, -1
        if won:
            if (crit and rule != SHIELD_NEVER and mem[t, M_HAS_SHIELD] != 0
                    and st[t, S_SH_MODE] == SHIELD_BLOCK
                    and st[t, S_SHIELD_BROKEN] == 0):  # fmt: skip
                normal, bypassed = _bypass_dmg(mem, st, opts, values, ak, ca, full, fallback,
                                               armour_pct)  # fmt: skip
                if rule == SHIELD_ALWAYS or bypassed[0] > normal[0]:
                    return True, ca, bypassed[0], bypassed[1], bypassed[2], raw, False, True, -1
                return True, ca, normal[0], normal[1], normal[2], raw, False, False, -1
            net, thr, soaked = hit_damage(mem, st, opts, values, ak, ca, ca, full, 100, fallback,
                                          False, 1, armour_pct)  # fmt: skip
            return True, ca, net, thr, soaked, raw, False, bypass, -1
        if kind == D_PARRY and ak[K_UNARMED_PARRY] != 0 and ca >= GREEN:
            # K7: an unarmed parry that wins still takes 1/4 (CA58)
            net, thr, _ = hit_damage(mem, st, opts, values, ak, ca, ca,
                                     opts[O_PARRY_FULL] != 0, 25, -1, False, 1,
                                     armour_pct)  # fmt: skip
            return False, ca, net, thr, 0, raw, outright, False, -1
        return False, ca, 0, 0, 0, raw, outright, False, -1
    if ca < GREEN:
        raw = colour_tab[ak[K_DEF_COL], rd] if kind != D_NONE else -1
        return False, ca, 0, 0, 0, raw, False, False, -1
    bypass = False
    if (ca >= opts[O_SHIELD_CRIT_MIN] and opts[O_SHIELD_CRIT] != SHIELD_NEVER
            and ak[K_FORM] != A_CONCENTRATED and mem[t, M_HAS_SHIELD] != 0
            and st[t, S_SH_MODE] == SHIELD_BLOCK and st[t, S_SHIELD_BROKEN] == 0):  # fmt: skip
        bypass = True
    if kind == D_NONE:
        return _unopposed(mem, st, opts, values, ak, ca, -1, bypass, -1, armour_pct)
    feat = colour_tab[ak[K_DEF_COL], rd]
    return _unopposed(mem, st, opts, values, ak, ca, feat, bypass, feat, armour_pct)




@typed
def later_hit(mem, st, opts, values, ak, ca, bypass, feat, fallback, armour_pct):
    """A later hit of a volley (CA49: the attack's colour; 004 L90: each hit through the
    defences on its own): ``(net, threatened, soaked)``. ``feat`` is this hit's FEAT colour
    for a Roll with Blow or a Soak (its own roll per hit, or the first one's under
    ``rwb_rolls: per_attack``); ``fallback`` and ``armour_pct`` as for :func:`first_hit`."""
    kind = ak[K_DEF]
    full = opts[O_FAILED_FULL] != 0 and (kind == D_DODGE or kind == D_BLOCK or kind == D_PARRY)
    dmg_colour = YELLOW if bypass else ca
    if kind == D_RWB:
        return hit_damage(mem, st, opts, values, ak, ca, dmg_colour, False, rwb_taken(opts, feat),
                          -1, bypass, 1, armour_pct)  # fmt: skip
    if kind == D_SOAK:
        return hit_damage(mem, st, opts, values, ak, ca, dmg_colour, False, 100, feat, bypass, 1,
                          armour_pct)  # fmt: skip
    return hit_damage(mem, st, opts, values, ak, ca, dmg_colour, full and not bypass, 100,
                      fallback, bypass, 1, armour_pct)  # fmt: skip


@typed
def expected_first(mem, st, opts, values, colour_tab, ak, ra):
    """The mean damage of the first hit over the target's 100 rolls, for an attack rolled
    ``ra`` (the reactive defender's yardstick, CA19)."""
    total = 0
    for rd in range(1, 101):
        total += first_hit(mem, st, opts, values, colour_tab, ak, ra, rd, -1, 100)[2]
    return total


@typed
def choose_defence(mem, st, opts, shift, rank_col, values, colour_tab, ak, ra):
    """Set the target's defence: its declared one, or under ``defence_choice: reactive`` the
    one of its defences (``defence: [...]``) with the least expected damage from the first hit
    of this attack roll (ties to the earlier listed)."""
    t = ak[K_T]
    declared = mem[t, M_DEFENCE]
    mask = mem[t, M_DEF_MASK]
    if opts[O_REACTIVE] == 0 or (mask & (mask - 1)) == 0:
        return
    best = declared
    set_defence(mem, st, opts, shift, rank_col, ak, declared)
    best_value = expected_first(mem, st, opts, values, colour_tab, ak, ra)
    for kind in range(6):
        if kind == declared or (mask >> kind) & 1 == 0:
            continue
        set_defence(mem, st, opts, shift, rank_col, ak, kind)
        value = expected_first(mem, st, opts, values, colour_tab, ak, ra)
        if value < best_value:
            best, best_value = kind, value
    set_defence(mem, st, opts, shift, rank_col, ak, best)


@typed
def concentrated_hit(mem, st, opts, values, colour_tab, ak, ra, rd, hits, fallback, armour_pct):
    """Concentrated fire (004 L92; K6, CA45): ``hits`` rounds stacked into one blow before the
    defences, armour and AP once; no shield bypass. Returns as :func:`first_hit`."""
    ca = colour_tab[ak[K_ATT_COL], ra]
    kind = ak[K_DEF]
    if kind == D_DODGE or kind == D_BLOCK or kind == D_PARRY:
        raw = colour_tab[ak[K_DEF_COL], rd]
        cd = clamp_defence(raw)
        won = beats(ca, ra, cd, rd)
        outright = ca >= GREEN and (cd > ca or (cd == ca and rd > ra))
        if not won:
            return False, ca, 0, 0, 0, raw, outright, False, -1
        net, thr, soaked = hit_damage(mem, st, opts, values, ak, ca, ca, opts[O_FAILED_FULL] != 0,
                                      100, fallback, False, hits, armour_pct)  # fmt: skip
        return True, ca, net, thr, soaked, raw, False, False, -1
    if ca < GREEN:
        return False, ca, 0, 0, 0, -1, False, False, -1
    feat = colour_tab[ak[K_DEF_COL], rd] if kind != D_NONE else -1
    frac = rwb_taken(opts, feat) if kind == D_RWB else 100
    soak = feat if kind == D_SOAK else -1
    net, thr, soaked = hit_damage(mem, st, opts, values, ak, ca, ca, False, frac, soak, False,
                                  hits, armour_pct)  # fmt: skip
    return True, ca, net, thr, soaked, feat, False, False, feat
