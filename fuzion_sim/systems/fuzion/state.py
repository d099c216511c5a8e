"""The general kernel's tables: each a 2-D array whose rows are declared here once, by name.

The trial loop (``kernel.trials``) takes a table as one argument and reads its rows by number:
``ci[st.REF]`` is the plan's REF of every combatant, ``si[st.HITS]`` every combatant's Hits left
in the current trial. Each name below becomes a module constant, its row number, in upper case
(``ref`` -> ``REF``), which numba reads as a compile-time constant. One table a dtype (and a
length) keeps the loop's arguments few: numba's compile time grows with the square of a jitted
function's arguments (PERFORMANCE-NOTES lesson 40), and the loop once took 293.

Tables of the plan (``kernel.run_chunk`` stacks the plan's arrays of these names, a copy a
chunk, so a weapon taken up changes the chunk's copy, never the plan):

- :data:`PLAN_INT` (``ci``): the plan's per-combatant int64 arrays (``compile.Plan`` documents
  each field);
- :data:`PLAN_FLOAT` (``cf``): its per-combatant float64 arrays.

Tables of a trial's state (``kernel.run_chunk`` allocates them, zeroed, once a chunk):

- :data:`STATE_INT` (``si``), :data:`STATE_BOOL` (``sb``), :data:`STATE_FLOAT` (``sf``): one
  row a combatant's quantity;
- :data:`ENGAGEMENT` (``se``): one column a missile engagement in flight (``missiles.room.MState``).
"""

from __future__ import annotations

from .codes import number

__all__ = ["ENGAGEMENT", "PLAN_FLOAT", "PLAN_INT", "STATE_BOOL", "STATE_FLOAT",
           "STATE_INT"]  # fmt: skip

PLAN_INT = (
    # the sheet, the skills each attack form uses, initiative order, targeting and surprise
    "side", "ref", "dex", "strength", "body", "hits_max", "stun_max", "sd", "rec", "att_skill",
    "h2h_skill", "escape_skill", "def_ranged", "def_melee", "pre", "res", "base_order",
    "targeting", "surprised", "int_", "perception", "obscured", "holstered0", "unarmed0",
    "abort_kind", "tech", "physician", "scale", "knock_body", "called_loc",
    # the weapon in hand and the armour
    "w_melee", "w_dmg", "w_dc", "w_acc", "w_min_str", "w_ap", "w_energy", "w_shots", "w_reload",
    "w_kills", "w_blade", "w_autofire", "w_rof", "w_explosive", "a_pd", "a_ekd", "a_kills",
    "a_half_blades", "a_cover",
    # static modifiers against it and by it; its tactics
    "tgt_mod_r", "tgt_mod_m", "cover_r", "cover_m", "att_mod_r", "att_mod_m", "tac_default",
    "rule_start", "rule_count",
    # vehicles and crews, missiles, weapons taken up, mecha
    "carrier", "pilot_of", "vclass", "kill_unit", "w_missile", "w_mdv", "m_evade", "m_evade_ref",
    "m_cm", "w_arc", "w_mounted", "arm_start", "rs_target", "suit_max",
    # falls, hazards and poison, dogfights
    "im_row", "hz_who", "hz_arm", "ps_dc0", "ps_pool0", "df_fly", "df_skill", "df_intel",
)  # fmt: skip

PLAN_FLOAT = ("run_m", "sprint_m", "pos_x0", "pos_y0", "w_range", "w_area", "heading0", "rscale")

STATE_INT = (
    "hits", "stun",
    "target",
    "penalty",  # to the primaries now (wounds, stunned)
    "e_ref", "e_dex", "e_str",  # effective primaries under that penalty
    "aim", "aim_tgt",  # aim bonus, and whom it is on
    "next_mod",  # to its next attack (sweep: -2 / +2; presence)
    "dodge",  # defence bonus against every attack until it acts
    "block",  # against melee attacks until it acts
    "dv_pen",  # DEX penalty until its next action (move by / through)
    "held_by", "hold", "ammo", "reloading",
    "waiting",  # WAIT_* or -1
    "obs_pen",  # obscured: -2 / -4 to attack and defence this phase
    "acted_t",  # slot (1-based, since the start) of its last turn
    "aborted_t",  # slot whose turn it gave up to defend
    "v_c", "v_hits", "v_stun", "v_through",  # the combatants an attack damaged and what each lost
    # the trial's counters, written out at its end
    "c_knock", "c_out", "c_death", "c_dealt", "c_taken", "c_attacks", "c_landed",
    "order",  # acting order of the slot
    # vehicles (hull.VState): rows destroyed, state, counters, the crew member a hit found
    "vdest", "vstate", "c_immob", "c_unctl", "c_crits", "c_crit_t", "hit_crew",
    # missiles (missile.MState): countermeasure charges left, engagements against it, counters
    "cm_left", "incoming", "c_mhit", "c_meng", "c_mevaded",
    "arm_cur",  # the weapon taken up (arsenal.py), -1: the plan's
    "suit",  # its powered armour's SDP left
    "room",  # 1: its hits are not the people's (a vehicle or a suit, features/vehicles/room.py)
    # falls and obstacles (impact.Impacts)
    "fallen", "c_falls", "c_colls", "c_imp", "c_broke",
    # the environment (hazard.HState)
    "in_smoke", "was_in", "ps_dc", "ps_pool", "ps_clock", "c_hz_dmg", "c_hz_ph", "c_hz_out",
    "c_breath",
    # dogfights (dogfight.DState)
    "df_req", "df_since", "df_need", "df_wish", "c_df_rolls", "c_df_won", "c_df_tail",
    "c_df_broke",
    # vehicles in motion (motion.Motion): MOVE and control now, counters
    "mo_speed", "mo_ctl", "mo_lost", "mo_spin", "mo_ram", "mo_crash",
)  # fmt: skip

STATE_BOOL = (
    "dead",
    "gave_up",  # presence attack: surrendered
    "lose",  # F22 stunned, or awed: loses its next action
    "is_out",
    "in_cover",  # still behind its cover and in its posture
    "prone", "diving", "disarmed", "recovering",
    "damaged",  # took damage this time unit
    "holstered",
    "stable",  # stabilised by first aid: no more bleeding (F25)
    "hidden",  # a crew member: no target of its own
)  # fmt: skip

STATE_FLOAT = (
    "px", "py",  # position now, metres
    "tiebreak", "init_key",  # initiative
    "hd",  # a vehicle's heading now
    "mo_alt",  # altitude now (motion.Motion)
)  # fmt: skip

ENGAGEMENT = ("e_from", "e_tgt", "e_left", "e_rounds", "e_round", "e_bonus", "e_asp", "e_last",
              "e_hit")  # fmt: skip


for _table in (PLAN_INT, PLAN_FLOAT, STATE_INT, STATE_BOOL, STATE_FLOAT, ENGAGEMENT):
    number(globals(), _table)
