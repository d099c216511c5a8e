"""Integer codes of the colour system: colours, abilities, damage types, defences, actions, the
columns of the member and state tables, the rule options and the event log.

Kernels take plain int64 arrays (ARCHITECTURE rule 1): a member table ``mem[c, M_*]`` the
compile step fills from the scenario, a state table ``st[c, S_*]`` a kernel keeps per trial,
an action table ``acts[c, k, AF_*]`` and the options ``opts[O_*]`` from the ``rules:`` block.
"""

from __future__ import annotations

# --- colours (K2: Blue < White < Green < Yellow < Red < Super Crit) --------------------------
BLUE, WHITE, GREEN, YELLOW, RED, SUPER_CRIT = 0, 1, 2, 3, 4, 5
COLOUR_NAMES = ("blue", "white", "green", "yellow", "red", "super_crit")

# --- abilities (FASE, in ``ladder.ABILITIES`` order) ----------------------------------------
FIGHTING, AGILITY, STRENGTH, ENDURANCE = 0, 1, 2, 3

# --- damage types (CA91) and what armour covers (CA30) --------------------------------------
BLUDGEONING, PIERCING, SLASHING, ENERGY = 0, 1, 2, 3
TYPE_NAMES = ("bludgeoning", "piercing", "slashing", "energy")
#: Covers mask bit of armour given without ``covers`` (``armour_covers: all`` adds energy).
UNLISTED = 1 << 7
PHYSICAL = (1 << BLUDGEONING) | (1 << PIERCING) | (1 << SLASHING)

# --- defences (002; CA56-CA62) ----------------------------------------------------------------
D_DODGE, D_BLOCK, D_PARRY, D_RWB, D_SOAK, D_NONE = 0, 1, 2, 3, 4, 5
DEFENCE_NAMES = ("dodge", "block", "parry", "roll_with_blow", "soak", "none")

# --- actions (004 L70-99) ---------------------------------------------------------------------
A_ATTACK, A_AUTOFIRE, A_SWEEP, A_CONCENTRATED, A_BURST, A_GRAPPLE = 0, 1, 2, 3, 4, 5
ACTION_NAMES = ("attack", "autofire", "sweep", "concentrated", "burst", "grapple")
#: Fields of an action row ``acts[c, k]``: kind, rounds, preferred target (-1: none), power
#: attack (0/1), called location (-1: none; ``LOCATIONS``).
AF_KIND, AF_ROUNDS, AF_TARGET, AF_POWER, AF_CALLED = 0, 1, 2, 3, 4
N_AF = 5
#: Most actions a tactic lists for one turn.
MAX_ACTIONS = 8

# --- called-shot locations (004 L76-78) ---------------------------------------------------------
LOCATIONS = ("left_arm", "right_arm", "left_leg", "right_leg", "head")
HEAD = 4
#: A broken (disabled, attached) limb, and a severed one.
LIMB_OK, LIMB_BROKEN, LIMB_SEVERED = 0, 1, 2

# --- rapid fire (004 L89-99) --------------------------------------------------------------------
RF_SINGLE, RF_FULL_AUTO, RF_CONTINUOUS = 0, 1, 2
RAPID_FIRE = ("single", "full_auto", "continuous")

# --- targeting -------------------------------------------------------------------------------
TARGETING = ("first", "weakest", "strongest")
T_FIRST, T_WEAKEST, T_STRONGEST = 0, 1, 2

# --- the member table mem[c, M_*] ---------------------------------------------------------------
(
    M_SIDE, M_RANK_F, M_RANK_A, M_RANK_S, M_RANK_E, M_VAL_F, M_VAL_A, M_VAL_S, M_VAL_E,
    M_HEALTH,
    M_W_MELEE, M_W_ABILITY, M_W_BASE, M_W_STR, M_W_TYPE, M_W_AP, M_W_AP_PCT, M_W_IGNORES,
    M_W_GUN, M_W_THROWN, M_W_UNARMED, M_W_PARRY, M_W_RF, M_W_ROUNDS, M_W_BURST, M_W_AREA,
    M_W_SHOTS, M_W_POWER, M_W_AIM_MAX,
    M_BODY, M_BODY_NSAP, M_BODY_COVERS, M_NAT, M_NAT_NSAP, M_NAT_COVERS,
    M_FIELD, M_FIELD_NSAP, M_FIELD_COVERS, M_FIELD_RANK,
    M_HAS_SHIELD, M_SH_PROT, M_SH_DEFL, M_SH_COVERS, M_SH_MODE,
    M_DEFENCE, M_DEF_MASK, M_N_ACTIONS, M_TARGETING, M_FINISH, M_AIM, M_DIVE, M_DIVE_AREAS,
    M_ATT_CS, M_DEF_CS, M_ARMS, M_WHEN_GRAPPLED, M_RERAISE, M_SC_CALL, M_INIT_FIRST,
) = range(59)
N_MEM = 59
#: The first rank and value columns, by ability (``M_RANK_F + FIGHTING`` ...).
M_RANK = M_RANK_F
M_VAL = M_VAL_F
SHIELD_BLOCK, SHIELD_DEFLECT = 0, 1

# --- the state table st[c, S_*] a kernel keeps per trial ----------------------------------------
(
    S_HEALTH, S_HMAX, S_RANK_E, S_STATUS, S_DOWN, S_BLEED_FROM, S_DIE_NEXT, S_FIELD_UP,
    S_BODY_BROKEN, S_SHIELD_BROKEN, S_LIMB_HP, S_LIMB_HP1, S_LIMB_HP2, S_LIMB_HP3, S_HEAD_HP,
    S_LIMB, S_LIMB1, S_LIMB2, S_LIMB3, S_ARMS_LOST, S_LEGS_LOST, S_GRAPPLED_BY, S_HOLDING,
    S_GRAPPLE_ROUND, S_AIM, S_SHOTS, S_FASE_CS, S_FASE_CS1, S_FASE_CS2, S_FASE_CS3,
    S_POWER_CS, S_POWER_OFF, S_SH_MODE, S_PRISTINE, S_OUT_T, S_DEATH_T, S_DEALT, S_TAKEN,
    S_ATTACKS, S_LANDED, S_BROKEN_N, S_SEVERED_N, S_ORDER, S_DROPS,
) = range(44)
N_ST = 44

#: ``S_DROPS`` counts the times a combatant went to 0 Health or died: a volley's later hits stop
#: at the blow that did it (CA73), even if a Super Crit wakes it at once.
#: Status: standing; down (Health 0, alive: ``S_DOWN`` says how); knocked out (the head rule,
#: CA85); dead; fled (CA77).
ST_STANDING, ST_DOWN, ST_KO, ST_DEAD, ST_FLED = 0, 1, 2, 3, 4
#: How a combatant at 0 Health lies (004 L41-49): its Endurance roll still to come (CA69
#: next_turn), a Green (rolls again next turn), stable (Yellow, Red, or aided), bleeding
#: (White, Blue).
DN_PENDING, DN_GREEN, DN_STABLE, DN_BLEEDING = 0, 1, 2, 3

# --- rule options opts[O_*] (from the rules: block; see model.SWITCHES) -------------------------
(
    O_RWB_LEFT, O_SOAK_LITERAL, O_CS_SEQUENTIAL, O_VALUE_NEAREST, O_CLAMP_ATTACKS_ONLY,
    O_FEAT_MIN, O_TIES, O_PER_EXTRA, O_REACTIVE, O_COUNTER, O_FAILED_FULL, O_SC_DAMAGE,
    O_GUN_FLAT, O_AP_OF_DAMAGE, O_IGNORES_ALL, O_COVERS_ALL, O_ARMOUR_FIRST, O_ARMOUR_ACTIVE,
    O_CRIT_MIN, O_RATTLE, O_DAMAGE_TABLE, O_BREAKAGE, O_RED_IGNORES, O_NATURAL_CRIT,
    O_FIELD_END, O_FIELD_AUTO, O_SHIELD_CRIT, O_SHIELD_CRIT_MIN, O_SHIELD_PER_ROUND,
    O_SHIELD_AP, O_CONC_ON_SUM, O_CONC_HALF, O_AMMO, O_RWB_PER_ATTACK, O_CONC_NEEDS_ARMOUR,
    O_BLOCK_NONE, O_PARRY_RANGED, O_PARRY_FULL, O_RWB_ABILITY, O_SOAK_NEAREST,
    O_SOAK_AFTER_ARMOUR, O_SOAK_ANYWAY, O_STRAIN, O_STRAIN_CEIL, O_FALLBACK_SOAK, O_SOAK_ONLY,
    O_DIVE_NORMAL, O_ROLL_NEXT_TURN, O_DEATH_IMMEDIATE, O_HELPLESS_PER_HIT, O_KILL_AT_ZERO,
    O_KILL_THREATENED, O_FLEE, O_AID, O_HEAD_ADD, O_LIMB_HEALTH, O_SEVER_FULL,
    O_HEAD_PIERCE_SLASH, O_LIMB_PENALTY_SEVERED_ONLY, O_GRAPPLE_FLAT, O_HOLDER_OTHER,
    O_RELEASE_RED, O_GRAPPLED_NO_DEFENCE, O_AIM_LOST_ATTACKED, O_HEALTH_TRACKS, O_FEEBLE,
    O_NO_TABLES, O_SC_CALL_LOC,
) = range(68)
N_OPT = 68

#: ``O_TIES``: re-roll, higher Agility first, act together (CA14).
TIE_REROLL, TIE_AGILITY, TIE_SIMULTANEOUS = 0, 1, 2
#: ``O_SC_DAMAGE`` (CA24), ``O_NATURAL_CRIT`` (CA38), ``O_SHIELD_CRIT`` (CA41),
#: ``O_PARRY_RANGED`` (CA57), ``O_RWB_ABILITY`` (CA59), ``O_LIMB_HEALTH`` (CA83).
SC_DOUBLE, SC_CALLED, SC_BEST = 0, 1, 2
NAT_HOLDS, NAT_BYPASS_RED, NAT_BYPASS_SC = 0, 1, 2
SHIELD_BEST, SHIELD_ALWAYS, SHIELD_NEVER = 0, 1, 2
PARRY_THROWN, PARRY_ANY, PARRY_NONE = 0, 1, 2
RWB_AS_DODGE, RWB_AGILITY, RWB_ENDURANCE = 0, 1, 2
LIMB_NEVER, LIMB_UNLESS_DISABLED, LIMB_ALWAYS = 0, 1, 2

# --- an attack in the making ak[K_*] (``strike.prepare`` fills it) ------------------------------
(
    K_A, K_T, K_FORM, K_POWER, K_CALLED, K_ATT_COL, K_DEF, K_DEF_ABILITY, K_DEF_COL,
    K_DEF_COL_PLAIN, K_UNARMED_PARRY, K_MELEE, K_BASE, K_TYPE, K_AP, K_AP_PCT, K_IGNORES,
    K_GUN, K_RAPID, K_DEFLECT, K_FISTS,
) = range(21)
N_K = 21

# --- the fight's own state fs[F_*] ---------------------------------------------------------------
#: over (0/1), winner, deferring the end (a simultaneous group, CA14), the round, sides, log
#: this trial (0/1), combatants, and a count of the times anyone stopped or started standing
#: (a kernel's cached targets are good while it is unchanged).
F_OVER, F_WINNER, F_DEFER, F_ROUND, F_SIDES, F_LOG, F_N, F_EPOCH = range(8)
N_F = 8

# --- the static attack tables (``tables.py``): per table, what it assumes ----------------------
#: the form (single or autofire), rounds fired, whether later hits roll their own FEAT (Roll
#: with Blow or Soak per hit), the target's shield mode.
TM_FORM, TM_ROUNDS, TM_LATER, TM_MODE = range(4)
N_TM = 4
#: A table entry: bit 0 landed, bits 1-3 the attack's colour, bits 8-31 the first hit's net
#: damage, bits 32-55 its threatened damage.
TAB_NET_SHIFT, TAB_THR_SHIFT = 8, 32
TAB_FIELD = (1 << 24) - 1
#: A table row: the outcome code of each of the 10,000 roll pairs, one byte each, eight to an
#: int64 word (``TAB_CODES`` words), then the entries the codes stand for (``TAB_VALUES``).
#: 12 kB a table, so a fight's tables stay in the caches (80 kB a table of entries did not).
TAB_CODES, TAB_VALUES = 1250, 256
TAB_WIDTH = TAB_CODES + TAB_VALUES
#: How a row finds a roll pair's entry (its last word): by its byte code (``T_CODED``), or,
#: when the outcome is a function of the two colours, from the two rolls' colours kept in its
#: first bytes (the attack's at byte ``roll - 1``, the target's clamped at ``TAB_DEF_BYTE +
#: roll - 1``): the entry of (landed, colour) of a contest (``T_CONTEST``), of (colour, FEAT
#: colour) (``T_FEAT``), or of the colour (``T_PLAIN``). 200 bytes a table instead of 10 kB.
T_CODED, T_CONTEST, T_FEAT, T_PLAIN = 0, 1, 2, 3
TAB_DEF_BYTE = 104

# --- fight results ----------------------------------------------------------------------------
DRAW = -1
UNRESOLVED = -2

# --- the event log: one int64 row per event ------------------------------------------------------
EV_ROUND, EV_KIND, EV_ACTOR, EV_TARGET, EV_A, EV_B, EV_C, EV_D, EV_E, EV_F, EV_G, EV_H = range(12)
N_EV_FIELDS = 12
(
    EVENT_INITIATIVE, EVENT_ATTACK, EVENT_HIT, EVENT_DOWN, EVENT_ENDURANCE, EVENT_BLEED,
    EVENT_DEATH, EVENT_WAKE, EVENT_AID, EVENT_GRAPPLE, EVENT_ESCAPE, EVENT_SQUEEZE,
    EVENT_LIMB, EVENT_KO, EVENT_FIELD, EVENT_AIM, EVENT_STRAIN, EVENT_BREAK, EVENT_TABLE,
    EVENT_END, EVENT_IDLE, EVENT_HELPLESS, EVENT_FLEE, EVENT_COUNTER, EVENT_SHIELD,
) = range(25)
