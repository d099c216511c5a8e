"""The Fuzion kernels' integer codes, in one place: option slots of ``Plan.options``, target
scales, hit-location modes, aborts, presence effects, holds, waits, attack forms, and the event
log's columns, kinds and flags (``narrate.py`` reads them back).

Every kernel, ``compile.py`` and ``narrate.py`` import the codes from here; no kernel imports
another kernel's names.
"""

from __future__ import annotations

from ...engine.outcomes import DRAW, UNRESOLVED
from .model import SWITCHES

__all__ = [
    "DRAW",
    "UNRESOLVED",
    "MELEE_REACH",
    "FIGHT_OPTIONS",
    "OPTIONS",
    "N_OPTIONS",
    "SWITCH_OPTIONS",
    "declared",
    "number",
    "SCALE_PERSON",
    "SCALE_OBJECT",
    "SCALE_KILLS",
    "LOC_NONE",
    "LOC_RANDOM",
    "LOC_CALLED",
    "UNMANNED_BY_RANGE",
    "UNMANNED_ZERO_BASE",
    "MT_ROUND_FREE",
    "MT_ROUND_ACTION",
    "MT_PHASE",
    "MA_LAUNCH",
    "MA_REAR",
    "MA_SIDE",
    "STAGED_MINUS_ONE",
    "STAGED_ALL",
    "STAGED_AMOUNT",
    "INTEGRITY_TOTAL",
    "INTEGRITY_FRACTION",
    "VCLASS_GROUND",
    "VCLASS_AIRCRAFT",
    "VCLASS_BOAT",
    "VCLASS_MECHA",
    "V_ROWS",
    "V_OUTCOMES",
    "ASPECT_FRONT",
    "ASPECT_SIDE",
    "ASPECT_REAR",
    "ARC_ALL",
    "ARC_FRONT",
    "ARC_REAR",
    "ARC_LEFT",
    "ARC_RIGHT",
    "ARC_SIDES",
    "ARM_MELEE",
    "ARM_SHOTS",
    "ARM_MISSILE",
    "EFF_NONE",
    "EFF_IMMOBILE",
    "EFF_UNCONTROLLED",
    "EFF_DOWN",
    "EFF_WRECKED",
    "EFF_WEAPON",
    "VS_IMMOBILE",
    "VS_UNCONTROLLED",
    "VS_WEAPONLESS",
    "VS_NO_MOVE",
    "ABORT_NONE",
    "ABORT_DODGE",
    "ABORT_BLOCK",
    "ABORT_DIVE",
    "PA_NONE",
    "PA_PENALTY",
    "PA_LOSE_ACTION",
    "PA_SURRENDER",
    "HOLD_NONE",
    "HOLD_CHOKE",
    "HOLD_ENTANGLE",
    "WAIT_IN_RANGE",
    "WAIT_ENEMY_MOVES",
    "WAIT_ENEMY_ATTACKS",
    "EV_TIME",
    "EV_KIND",
    "EV_ACTOR",
    "EV_TARGET",
    "EV_ROLL",
    "EV_AV",
    "EV_DV",
    "EV_RAW",
    "EV_THROUGH",
    "EV_HITS",
    "EV_STUN",
    "EV_FLAGS",
    "EV_ACTION",
    "EV_X",
    "EV_Y",
    "EV_LOCATION",
    "EV_SHOTS",
    "N_EV_FIELDS",
    "EVENT_ATTACK",
    "EVENT_LOST_ACTION",
    "EVENT_SURPRISED",
    "EVENT_OUT_OF_REACH",
    "EVENT_WAKE",
    "EVENT_BLEED",
    "EVENT_END",
    "EVENT_MOVE",
    "EVENT_AIM",
    "EVENT_DEFEND",
    "EVENT_RECOVER",
    "EVENT_ESCAPE",
    "EVENT_RELOAD",
    "EVENT_PRESENCE",
    "EVENT_WAIT",
    "EVENT_INTERRUPT",
    "EVENT_IDLE",
    "EVENT_HELD",
    "EVENT_CHOKE",
    "EVENT_DISARM",
    "EVENT_DRAW",
    "EVENT_PERCEPTION",
    "EVENT_KNOCKBACK",
    "EVENT_FIRST_AID",
    "EVENT_AREA",
    "EVENT_LAUNCH",
    "EVENT_EVADE",
    "EVENT_MISSILE_HITS",
    "EVENT_OUT_OF_ARC",
    "EVENT_CRITICAL",
    "EVENT_NO_WEAPON",
    "FLAG_HIT",
    "FLAG_STUNNED",
    "FLAG_OUT",
    "FLAG_DEAD",
    "FLAG_DYING",
    "FLAG_UNOPPOSED",
    "FLAG_UNMANNED",
    "F_WEAPON",
    "F_PUNCH",
    "F_KICK",
]

MELEE_REACH = 4.0  # F10: melee and hand-to-hand reach (polearms: their weapon's range, 6 m)


def number(namespace: dict, names: tuple[str, ...], prefix: str = "") -> int:
    """Each of ``names`` as a constant of ``namespace`` (a module's ``globals()``), its index:
    ``prefix`` + the name in upper case. Slots and rows are numbered from one declaration, so
    no count or index is typed by hand; returns how many there are."""
    for index, name in enumerate(names):
        constant = prefix + name.upper()
        if constant in namespace:
            raise ValueError(f"{constant} is declared twice")
        namespace[constant] = index
    return len(names)


#: The slots of ``Plan.options`` that ``compile.py`` works out, from a switch read with others
#: or with what the fight holds (a switch the kernels read as it is declares ``slot=True`` in
#: ``model.SWITCHES`` instead and gets a slot of its own name after these).
FIGHT_OPTIONS = (
    "has_ties",  # two combatants share a REF (the tie order of F9 switch1)
    "switch2",  # F9 switch2: initiative rolled every phase (speed chart: every segment)
    "init_dice",  # the action die of switch2: 3 (3d6) or 10 (1d10)
    "wake_own_phase",  # speed chart: waking "every phase" means on the sleeper's own phases
    "recovery_slot",  # slot after which everyone gets a free Recovery (-1: none)
    "perception_dv",  # obscured: the Perception roll's DV (F11, F4)
    "autofire_ratio",  # F15
    "chinks",  # F30
    "any_vehicle",  # some combatant is a vehicle
    "vehicle_locations",  # VA-06: 1 a hit on a vehicle rolls its table by facing
    "front_arc",  # VA-05: half the front arc in degrees (quarters 45, hex 30)
    "any_missile",  # some combatant's weapon is a missile
    "staged",  # staged penetration: 0 off, else STAGED_* (VA-42 staged_loss)
    "integrity",  # structural integrity: 0 off, else INTEGRITY_* (VA-45)
    "chinks_vehicles",  # chinks against vehicles (OPT_CHINKS: against the others, VA-43)
    "unmanned",  # VA-04 unmanned_dv: 0 (no vehicle fights), else UNMANNED_*
    "unmanned_shift",  # F4: 5 under Interlock (the DV by range is for 3d6)
    "area_kill_falloff",  # VA-52 area_kill_falloff: per_radius_step (1 Kill per 4 m)
    "any_hazard",  # a hazard zone, or someone carries a poison: the hazard room runs
    "poison_period",  # VA-48 poison_timing: phases between doses' effects (20 or 1)
    "any_obscuring",  # a hazard zone obscures (the F11 Perception roll inside it)
    "semi_auto_rof",  # F15 semi_auto_rof: extra_attacks, each shot its own attack (0: one_shot)
)
def declared(vector: str) -> tuple[str, ...]:
    """The switches the kernels read as they are from ``vector`` (``Switch.slot``: True for
    ``options``, else the vector's name), in ``model.SWITCHES`` order."""
    return tuple(name for name, switch in SWITCHES.items()
                 if switch.slot == vector or (switch.slot is True and vector == "options"))


#: The switches ``options`` carries as they are.
SWITCH_OPTIONS = declared("options")
#: Every slot of ``Plan.options``: ``OPT_<NAME>`` is the index of each.
OPTIONS = FIGHT_OPTIONS + SWITCH_OPTIONS
N_OPTIONS = number(globals(), OPTIONS, "OPT_")
__all__ += [f"OPT_{name.upper()}" for name in OPTIONS]

#: ``Plan.im_opts`` (falls and obstacles, ``scene.build.impact_arrays``), ``IO_<NAME>`` each
#: slot's index: whether the fight has an obstacle, a drop or terrain (the kernel's one flag),
#: VA-41's mode, whether obstacles block moves on foot and lines of fire (M-10
#: obstacles_block, with an obstacle), then the switches declared ``slot="im_opts"``.
IMPACT_OPTIONS = ("any", "kb_mode", "block", *declared("im_opts"))
number(globals(), IMPACT_OPTIONS, "IO_")
#: ``Plan.mo_opts`` (vehicles in motion, ``features/motion/room.py``), ``MO_<NAME>`` each slot's
#: index: the flag, the DV shift (5 under Interlock with ``manoeuvre_dv: full``), the
#: conditions' DV (M-52), altitude lost out of control, the speed change a phase (0: any),
#: ``collision_obstacle: same_dc``, ``collision_occupants`` (``motion.room.OCC_*``), the index
#: of the hard turn and of the fixed target's ram in ``mo.dv``, then the switches declared
#: ``slot="mo_opts"`` (``skid_rounding`` reads as ``motion.room.SKID_*``).
MOTION_OPTIONS = ("any", "dv_shift", "conditions", "altitude_loss", "acceleration",
                  "obstacle_same", "occupants", "hard_turn", "ram_dv",
                  *declared("mo_opts"))  # fmt: skip
N_MO_OPTS = number(globals(), MOTION_OPTIONS, "MO_")
#: ``Plan.df_opts`` (dogfights, ``dogfights.build.dogfight_arrays``), ``DO_<NAME>`` each slot's
#: index: the room is on, the Advantage chart (VA-32), then the switches declared
#: ``slot="df_opts"``.
DOGFIGHT_OPTIONS = ("on", "adv_min", "tail_min", "tail_bonus", *declared("df_opts"))
N_DO = number(globals(), DOGFIGHT_OPTIONS, "DO_")
__all__ += ["IMPACT_OPTIONS", "MOTION_OPTIONS", "N_MO_OPTS", "DOGFIGHT_OPTIONS", "N_DO"]
_SLOTS = (("IO_", IMPACT_OPTIONS), ("MO_", MOTION_OPTIONS), ("DO_", DOGFIGHT_OPTIONS))
for _prefix, _names in _SLOTS:
    __all__ += [f"{_prefix}{name.upper()}" for name in _names]


# scale of a target (F29): a person (Hits and Stun), an object (SDP), or Kill-rated structure
SCALE_PERSON = 0
SCALE_OBJECT = 1
SCALE_KILLS = 2
# hit locations (F27)
LOC_NONE = 0
LOC_RANDOM = 1
LOC_CALLED = 2
# missiles (F18, M-42 to M-45, VA-20 to VA-26): OPT_MISSILE_TIMING, OPT_MISSILE_ASPECT
MT_ROUND_FREE = 0  # one roll a round, at the target's first action, costing no action
MT_ROUND_ACTION = 1  # one roll a round, costing the target's action
MT_PHASE = 2  # one roll a phase (each of the target's actions)
MA_LAUNCH = 0  # the launcher's bearing at launch
MA_REAR = 1
MA_SIDE = 2
# VA-04 OPT_UNMANNED; the special armour rules for mecha (F30, M-32 to M-36, VA-42 to VA-45)
UNMANNED_BY_RANGE = 1
UNMANNED_ZERO_BASE = 2
STAGED_MINUS_ONE = 1
STAGED_ALL = 2
STAGED_AMOUNT = 3
INTEGRITY_TOTAL = 1
INTEGRITY_FRACTION = 2

# vehicle classes (Plan.vclass; 0: not a vehicle), rows of a hit table, aspects, effects
VCLASS_GROUND = 1
VCLASS_AIRCRAFT = 2
VCLASS_BOAT = 3
VCLASS_MECHA = 4
V_ROWS = 10  # printed rows of each class's table
V_OUTCOMES = 216  # equally likely outcomes of the 3d6 (2d6: the first 36)
ASPECT_FRONT = 0
ASPECT_SIDE = 1
ASPECT_REAR = 2
# the arc a vehicle weapon covers, from the vehicle's heading (Plan.w_arc; model.ARCS)
ARC_ALL = 0
ARC_FRONT = 1
ARC_REAR = 2
ARC_LEFT = 3
ARC_RIGHT = 4
ARC_SIDES = 5
# columns of the weapons of those who fire several (compile.ARM_INT_FIELDS) read by name
ARM_MELEE = 1
ARM_SHOTS = 8
ARM_MISSILE = 18
EFF_NONE = 0
EFF_IMMOBILE = 1
EFF_UNCONTROLLED = 2
EFF_DOWN = 3
EFF_WRECKED = 4
EFF_WEAPON = 5  # the vehicle's weapons fire no more (VA-11 weapon_disable_pct)
# vehicle state bits (the kernel's vstate)
VS_IMMOBILE = 1
VS_UNCONTROLLED = 2
VS_WEAPONLESS = 4  # its Weapon location destroyed (VA-11)
VS_NO_MOVE = VS_IMMOBILE | VS_UNCONTROLLED  # no move or turn of its own (VA-10)

# abort (F32: a combatant attacked before its turn uses its coming action to defend)
ABORT_NONE = 0
ABORT_DODGE = 1
ABORT_BLOCK = 2
ABORT_DIVE = 3

# presence attack effects (Plan.presence_effect[:, 0])
PA_NONE = 0
PA_PENALTY = 1  # value: penalty to the target's next action
PA_LOSE_ACTION = 2  # the target loses its next action
PA_SURRENDER = 3  # the target gives up: out of the fight

# holds (F33)
HOLD_NONE = 0
HOLD_CHOKE = 1
HOLD_ENTANGLE = 2

# what a waiting combatant waits for (rule param of `wait`)
WAIT_IN_RANGE = 0
WAIT_ENEMY_MOVES = 1
WAIT_ENEMY_ATTACKS = 2

# event log: one row per event of the logged trial (see narrate.py)
EV_TIME = 0  # reported time unit (phase or segment), 1-based
EV_KIND = 1  # EVENT_* below
EV_ACTOR = 2
EV_TARGET = 3
EV_ROLL = 4  # attacker roll minus defender roll (D)
EV_AV = 5  # attack value with every modifier
EV_DV = 6  # defence base (the DV is this + 10 under HERO, + 1d10 under Interlock, in D)
EV_RAW = 7  # damage rolled
EV_THROUGH = 8  # damage through the defences
EV_HITS = 9  # target's Hits after
EV_STUN = 10  # target's Stun after
EV_FLAGS = 11  # FLAG_* bits
EV_ACTION = 12  # tactics action code (tactics.A_*)
EV_X = 13  # actor's position after the event, centimetres
EV_Y = 14
EV_LOCATION = 15  # hit location index (tables.hit_locations), -1 for none
EV_SHOTS = 16  # 1000 x hits + shots fired (autofire and bursts)
N_EV_FIELDS = 17
EVENT_ATTACK = 0
EVENT_LOST_ACTION = 1  # stunned: the action is lost
EVENT_SURPRISED = 2  # surprised: no action in the opening phase/segment
EVENT_OUT_OF_REACH = 3
EVENT_WAKE = 4  # Stun recovered while knocked out (or the free post-segment-12 Recovery)
EVENT_BLEED = 5  # dying: 1 Hit lost at the end of the round
EVENT_END = 6  # the fight ends (ACTOR: winning side, or DRAW / UNRESOLVED)
EVENT_MOVE = 7  # EV_RAW: centimetres moved
EVENT_AIM = 8  # EV_RAW: aim bonus now
EVENT_DEFEND = 9  # dodge / block / dive (EV_ACTION), EV_RAW: the bonus
EVENT_RECOVER = 10  # EV_RAW: Stun recovered (0 when damaged that phase)
EVENT_ESCAPE = 11  # FLAG_HIT: freed
EVENT_RELOAD = 12  # EV_RAW: shots after, EV_THROUGH rounds loaded, EV_ROLL of EV_DV actions
EVENT_PRESENCE = 13  # EV_RAW: dice total, EV_DV: the target's RES, EV_ROLL: effect code
EVENT_WAIT = 14  # starts waiting
EVENT_INTERRUPT = 15  # a waiting combatant interrupts (the attack follows as its own event)
EVENT_IDLE = 16  # no rule matched, or the action could not be taken
EVENT_HELD = 17  # cannot act: held (escape attempt follows)
EVENT_CHOKE = 18  # (unused: a held choke is logged as an attack with EV_ACTION choke)
EVENT_DISARM = 19  # FLAG_HIT: the weapon is knocked away
EVENT_DRAW = 20  # draws its weapon (the action)
EVENT_PERCEPTION = 21  # obscured: EV_ROLL the task roll, EV_RAW the penalty this phase
EVENT_KNOCKBACK = 22  # ACTOR knocked back: EV_RAW units, EV_X/EV_Y its new position (cm)
EVENT_FIRST_AID = 23  # ACTOR treats TARGET: EV_ROLL task roll, EV_DV the DV, FLAG_HIT stable
EVENT_AREA = 24  # ACTOR caught in TARGET's area attack: EV_RAW damage there, EV_THROUGH taken
# missiles: ACTOR launches at TARGET (EV_RAW missiles fired, EV_ROLL / EV_AV / EV_DV the
# launch's attack roll under missile_launch: attack_roll, FLAG_HIT it engages)
EVENT_LAUNCH = 25
# ACTOR (the evader) rolls against TARGET's missiles: EV_ROLL the task roll, EV_AV its total
# (with countermeasures), EV_DV the missile DV, EV_RAW the round, EV_THROUGH the rounds of
# the engagement, EV_SHOTS 1000 x missiles that hit + missiles flying, FLAG_HIT failed
EVENT_EVADE = 26
# ACTOR's missiles hit TARGET: EV_SHOTS 1000 x hits + missiles fired, EV_RAW damage rolled,
# EV_THROUGH through, EV_HITS / EV_STUN the target's after, EV_LOCATION the last location
EVENT_MISSILE_HITS = 27
EVENT_OUT_OF_ARC = 28  # ACTOR's vehicle weapon does not bear on TARGET; FLAG_HIT: it turned
EVENT_CRITICAL = 29  # ACTOR's critical location EV_RAW (vehicle location) destroyed: effect
#                      EV_THROUGH (EFF_*)
EVENT_NO_WEAPON = 30  # ACTOR's vehicle weapon is out of action (its Weapon location lost)
# --- falls and knockback into obstacles (features/scene/room.py) ------------------------------
# ACTOR falls EV_RAW centimetres (a jump, EV_ACTION jump, or knocked into a drop TARGET: the
# drop's index): EV_DV the DC, EV_ROLL the damage rolled, EV_THROUGH through, EV_HITS /
# EV_STUN after, EV_X / EV_Y where it lands (cm); FLAG_DEAD / FLAG_OUT / FLAG_DYING
EVENT_FALL = 40
# ACTOR knocked into obstacle TARGET (its index): EV_DV the DC, EV_ROLL the damage rolled,
# EV_THROUGH through to ACTOR, EV_RAW the obstacle's SDP (or Kills) left, EV_SHOTS the
# knockback distance in cm, EV_X / EV_Y where it stops; FLAG_HIT: the obstacle broke (it went
# through)
EVENT_COLLISION = 41
# --- the environment (features/hazards/room.py); codes 42-43 ---
EVENT_HAZARD = 42  # ACTOR takes a hazard's damage: TARGET the zone (-1: its own poison),
#   EV_ACTION the source (hazard.HZ_*), EV_RAW dice, EV_THROUGH through, EV_HITS/EV_STUN after
EVENT_BREATH = 43  # ACTOR is out of breath (TARGET the asphyxiating zone)
# --- vehicles in motion (features/motion/room.py); codes 44-47 and 52 ---
# ACTOR's manoeuvre roll (EV_ACTION the action, EV_ROLL the total, EV_DV the DV, EV_SHOTS the
# manoeuvre's index in manoeuvres.yaml, -1 a steer's hard turn; FLAG_HIT made it), or, with
# EV_ACTION 0, its loss of control: EV_RAW the state (motion.CTL_*), EV_DV the miss, EV_SHOTS
# the skid in cm, EV_ROLL a spin's facing die, EV_X / EV_Y where it stops
EVENT_CONTROL = 44
# ACTOR comes out of its skid or spin or gets up (EV_RAW the state), or an aircraft's regain
# roll (EV_ROLL total, EV_DV the DV, EV_SHOTS its altitude in cm after); FLAG_HIT regained
EVENT_REGAIN = 45
# ACTOR rams TARGET: EV_ACTION the kind (tactics.RAM_KINDS), EV_ROLL the total, EV_DV the DV,
# EV_RAW the closing speed in cm/s; FLAG_HIT it hit
EVENT_RAM = 46
# ACTOR drives (EV_ACTION the action): EV_RAW cm, EV_SHOTS its MOVE now, EV_X / EV_Y
EVENT_DRIVE = 47
# ACTOR takes a collision from TARGET (a combatant; -1 the ground, -2 - o obstacle o): EV_DV
# the DC, EV_ROLL the damage rolled, EV_THROUGH through, EV_HITS / EV_STUN after; a crew
# member's (TARGET its vehicle): what passed the vehicle's armour, through its own
EVENT_CRASH = 52
# ACTOR's way to TARGET (EV_ACTION a move; EV_X / EV_Y where it stopped) or its line of fire
# (EV_ACTION the attack; spent) is blocked by obstacle EV_RAW (M-10)
EVENT_BLOCKED = 51
# --- dogfights (features/dogfights/room.py); codes 48-50 (44-47 are the manoeuvres') ---
# ACTOR wins the dogfight roll against TARGET by EV_RAW (0: a tie, neither wins): EV_AV / EV_DV
# the totals, EV_ROLL / EV_THROUGH the dice, EV_LOCATION the position (dogfight.POS_*),
# EV_ACTION what roll (dogfight.DF_*: a phase's, the engaging one, the Perception intercept),
# FLAG_HIT tailing
EVENT_DOGFIGHT = 48
# ACTOR's break-off from TARGET (its partner): EV_ROLL what (dogfight.BO_*), EV_RAW the rounds to
# hold (an announcement) or the margin (no Advantage); FLAG_OUT it left the fight
EVENT_BREAK_OFF = 49
# ACTOR may not attack TARGET: it lost (EV_RAW the margin, < 0) or tied the dogfight roll
EVENT_DOGFIGHT_BARRED = 50
FLAG_HIT = 1
FLAG_STUNNED = 2
FLAG_OUT = 4
FLAG_DEAD = 8
FLAG_DYING = 16
FLAG_UNOPPOSED = 32  # an explosion's throw at a point: EV_ROLL is the plain die, EV_DV the DV
FLAG_UNMANNED = 64  # with FLAG_UNOPPOSED: a shot at a vehicle nobody drives (VA-04)

# attack forms
F_WEAPON = 0
F_PUNCH = 1
F_KICK = 2
