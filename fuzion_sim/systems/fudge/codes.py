"""The FUDGE kernels' integer codes, in one place: member kinds, option slots of
``Plan.options``, wound levels and core-track bits, and the event log's columns and kinds
(``narrate.py`` reads them back)."""

from __future__ import annotations

from ...engine.outcomes import DRAW as DRAW
from ...engine.outcomes import UNRESOLVED as UNRESOLVED

KIND_MEMBER = 0
KIND_CHARGE = 1
KIND_BARRIER = 2

#: Wound levels (``tables.LEVELS``): 0 none .. 6 dead.
L_SCRATCH = 1
L_HURT = 2
L_VERY_HURT = 3
L_INCAPACITATED = 4
L_NEAR_DEATH = 5
L_DEAD = 6

#: Core track state bits: the Scratch count (0-3) in bits 0-1, then one bit per box
#: (Hurt, Very Hurt, Incapacitated, Near Death) and Dead.
CORE_SCRATCHES = 3
CORE_HURT = 1 << 2
CORE_DEAD = 1 << 6

#: Body parts of the hit-location table (``tables.locations()`` order).
N_PARTS = 9
NO_PART = -1

#: Barrier states (the ``breach`` category).
BREACH_INTACT = 0
BREACH_ABOUT = 1
BREACH_DONE = 2

#: A dodge result no shot has to beat.
NO_DODGE = -(1 << 40)
#: A result below Poor never hits (FUDGE core, UA3).
POOR = -2

#: Codes of the switches the kernels read.
TRACK_FIREARMS, TRACK_CORE = 0, 1
ORDER_FIXED, ORDER_SIMULTANEOUS, ORDER_ROLLED = 0, 1, 2
SHOT_SEPARATE, SHOT_MARGIN, SHOT_ATTACK_DICE = 0, 1, 2
LOC_NONE, LOC_RANDOM, LOC_AIMED = 0, 1, 2
FALLBACK_TORSO, FALLBACK_RANDOM, FALLBACK_MISS = 0, 1, 2
T_FIRST, T_NEAREST, T_WEAKEST, T_STRONGEST, T_RANDOM = 0, 1, 2, 3, 4


#: Slots of ``Plan.options`` (int64).
OPT_TRACK = 0  # TRACK_*
OPT_ORDER = 1  # ORDER_*
OPT_HAS_TIES = 2  # fixed order with tied initiatives broken at random
OPT_DODGE = 3  # ranged_defence: dodge
OPT_DODGE_COSTS = 4  # dodge_costs_action
OPT_SHOT_ROLL = 5  # SHOT_*
OPT_CRITICAL = 6  # shot_critical: incapacitate
OPT_OUT_LEVEL = 7  # the level a member is out at (UA15)
OPT_PENALTIES = 8  # wound_penalties
OPT_CORE_UP = 9  # core_overflow: up
OPT_CORE_DEAD = 10  # core_dead_damage (0: never)
OPT_LOCATIONS = 11  # LOC_*
OPT_FALLBACK = 12  # FALLBACK_*
OPT_CRIPPLE_OUT = 13  # cripple_out
OPT_CV_AVOID = 14  # concussion_value: avoid_roll
OPT_BLAST_SEPARATE = 15  # blast_damage: separate
OPT_FRAG_BOTH = 16  # frag_zones: both
OPT_TIMING = 17  # action_timing
OPT_TORSO = 18  # the torso's part index
OPT_HEAD = 19  # the head's part index


N_OPTIONS = 20


#: Columns of the event log (int64 rows).
EV_KIND = 0
EV_ROUND = 1
EV_ACTOR = 2
EV_TARGET = 3
EV_ROLL = 4  # the to-hit roll (4dF), the tamping roll, the breach roll
EV_NEED = 5  # the result needed to hit (the DL, UA3)
EV_RESULT = 6  # the to-hit result (skill + roll + bonus + penalty)
EV_HIT = 7
EV_ROW = 8  # the Damage Roll row (UA5), or the blast's concussion
EV_DAMAGE = 9
EV_PART = 10  # the hit location (-1: none)
EV_LEVEL = 11  # the target's wound level after
EV_EXTRA = 12  # the dodge result; the blast's fragmentation; the breach result
EV_POINTS = 13  # the target's track after (firearms points, core bits)


N_EV_FIELDS = 14

EVENT_SHOT = 0
EVENT_DETONATE = 1
EVENT_TAMP = 2
EVENT_BLAST = 3
EVENT_BREACH = 4
EVENT_CRIPPLE = 5
EVENT_END = 6
EVENT_WOUND = 7  # a wound landing at the end of a simultaneous round
EVENT_CONTACT = 8  # a charge's Basic Damage on the member it is set against

#: Every code (the upper-case names above).
__all__ = sorted(name for name in dir() if name.isupper())
