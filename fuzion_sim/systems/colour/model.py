"""The colour system's members and gear as plain frozen dataclasses (no YAML, no numpy), and its
rule switches: every open point of ``rulings/colour/rulings.md`` (CA1-CA104) that has a
named switch, each defaulting to its ruling, with RULINGS.md K1-K8 winning where they differ.

A :class:`Member` is what ``build.py`` makes of a scenario's member mapping; ``compile.py``
turns the members into the kernels' integer tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import Switch

__all__ = [
    "Action",
    "Armour",
    "Member",
    "Rated",
    "SWITCHES",
    "Shield",
    "Weapon",
    "ZERO",
    "FISTS",
]


def _words(*words: str) -> tuple[str, ...]:
    return tuple(words)


#: Every rule switch of the colour system, in display order (K: RULINGS.md; CA: the colour
#: rulings). A multi-way switch's first word is its default.
SWITCHES: dict[str, Switch] = {
    # dice, ranks and columns
    "ladder": Switch(_words("seed004", "standard"), "seed004", "K3", "rank ladder",
                     flag="ladder"),
    "super_crit_on": Switch(int, 100, "K2", "Super Crit on a d100 of at least", low=6, high=100),
    "interp_round": Switch(_words("down", "up"), "down", "CA1", "interpolated columns rounded"),
    "cs_steps": Switch(_words("ladder", "table"), "ladder", "CA2", "one column shift steps"),
    "cs_clamp": Switch(_words("ladder_ends", "msh"), "ladder_ends", "CA3", "column shifts stop"),
    "cs_combine": Switch(_words("sum", "sequential"), "sum", "CA4", "column shifts combine"),
    "unknown_rank": Switch(_words("error", "nearest"), "error", "CA6",
                           "a rank the ladder lacks"),
    "value_to_rank": Switch(_words("floor", "nearest"), "floor", "CA7", "a number's rank"),
    # contests, FEATs, turns
    "contest_clamp": Switch(_words("all_responders", "attacks_only"), "all_responders", "CA10",
                            "responders' rolls clamped"),
    "feat_success": Switch(_words("green", "yellow"), "green", "CA11", "an unopposed FEAT needs"),
    "initiative_ties": Switch(_words("reroll", "agility", "simultaneous"), "reroll", "CA14",
                              "initiative ties"),
    "round_seconds": Switch(float, 6.0, "CA15", "seconds per round (not in the seeds)",
                            high=3600, positive=True),
    "max_actions_per_turn": Switch(int, 2, "CA16", "most actions in a turn", low=1, high=8),
    "multi_action_penalty": Switch(_words("flat", "per_extra"), "flat", "CA17",
                                   "multi-action penalty"),
    "defence_choice": Switch(_words("declared", "reactive"), "declared", "CA19",
                             "defence chosen"),
    "counter_attack": Switch(bool, False, "CA20", "counter-attacks"),
    # damage
    "failed_defence_damage": Switch(_words("colour", "full"), "colour", "CA22",
                                    "damage of a failed defence"),
    "thrown_damage": Switch(_words("str_plus", "weapon"), "str_plus", "CA23", "thrown damage"),
    "super_crit_damage": Switch(_words("double", "called_shot", "best"), "double", "CA24",
                                "Super Crit damage"),
    "gun_damage": Switch(_words("colour", "flat"), "colour", "CA25", "gun damage"),
    # armour
    "ap_percent": Switch(_words("of_armour", "of_damage"), "of_armour", "CA28",
                         "armour piercing percent"),
    "ignores_armour_scope": Switch(_words("armour", "all_resistance"), "armour", "CA29",
                                   "what Ignores Armor ignores"),
    "armour_covers": Switch(_words("physical", "all"), "physical", "CA30",
                            "armour without covers"),
    "reduction_order": Switch(_words("defence_first", "armour_first"), "defence_first", "CA31",
                              "reduction order"),
    "armour_roll": Switch(_words("passive", "active"), "passive", "CA32", "armour roll"),
    "crit_colours": Switch(_words("red", "super_crit"), "red", "CA33", "a critical success is"),
    "armour_rattle": Switch(bool, False, "CA34", "armour rattle (+5d10)"),
    "armour_damage_table": Switch(bool, False, "CA35", "armour damage table"),
    "armour_breakage": Switch(bool, False, "CA36", "armour breakage"),
    "red_ignores_armour": Switch(bool, False, "CA37", "a Red ignores body armour"),
    "natural_armour_crit": Switch(_words("holds", "bypass_red", "bypass_super_crit"), "holds",
                                  "CA38", "natural armour against crits"),
    "field_drop": Switch(_words("per_hit", "end_of_attack"), "per_hit", "CA39",
                         "force field drops"),
    "field_reraise": Switch(_words("feat", "auto"), "feat", "CA39", "force field raised again"),
    # shields
    "shield_crit": Switch(_words("best", "always", "never"), "best", "CA41",
                          "crits bypass shields"),
    "shield_crit_colours": Switch(_words("red", "super_crit"), "red", "CA41",
                                  "colours that bypass shields"),
    "shield_mode_choice": Switch(_words("fixed", "per_round"), "fixed", "CA42", "shield mode"),
    "shield_ap": Switch(bool, True, "CA43", "AP reduces shield Protection"),
    # rapid fire
    "concentrated_pct": Switch(_words("per_round", "on_sum"), "per_round", "CA45",
                               "concentrated fire percentage"),
    "concentrated_hits": Switch(_words("rounds", "half_rounds"), "rounds", "CA46",
                                "concentrated fire hits"),
    "ammunition": Switch(bool, False, "CA52", "magazines"),
    "rwb_rolls": Switch(_words("per_hit", "per_attack"), "per_hit", "CA53",
                        "defence FEATs against a volley"),
    "concentrated_needs_armour": Switch(bool, False, "CA55", "concentrated fire needs armour"),
    # seed 002's defences
    "roll_with_blow": Switch(_words("fraction_taken", "fraction_left"), "fraction_taken", "K7",
                             "Roll with Blow"),
    "soak": Switch(_words("graded", "literal"), "graded", "K7", "soak amounts", flag="soak"),
    "block_invalid": Switch(_words("dodge", "none"), "dodge", "CA56",
                            "a block or parry that cannot apply"),
    "parry_ranged": Switch(_words("thrown_only", "any", "none"), "thrown_only", "CA57",
                           "parrying ranged attacks"),
    "unarmed_parry_base": Switch(_words("colour", "full"), "colour", "CA58",
                                 "unarmed parry 1/4 of"),
    "roll_with_blow_ability": Switch(_words("as_dodge", "agility", "endurance"), "as_dodge",
                                     "CA59", "Roll with Blow rolls"),
    "soak_damage_rank": Switch(_words("floor", "nearest"), "floor", "CA60", "soak damage rank"),
    "soak_damage_basis": Switch(_words("threatened", "after_armour"), "threatened", "CA60",
                                "soak compares"),
    "soak_below_required": Switch(_words("nothing", "graded_anyway"), "nothing", "CA61",
                                  "a soak below the colour needed"),
    "soak_strain": Switch(bool, True, "CA63", "soak strain"),
    "soak_strain_count": Switch(_words("floor", "ceil_minus_one"), "floor", "CA63",
                                "soak strain ranks"),
    "defence_fallback": Switch(_words("none", "soak_after_failed_dodge"), "none", "CA64",
                               "defence fallback"),
    "soak_with_armour": Switch(_words("both", "soak_only"), "both", "CA65", "soak with armour"),
    "dive_fail": Switch(_words("hit", "normal_avoid"), "hit", "CA66", "a failed dive"),
    # death, Endurance, staying down
    "endurance_roll_timing": Switch(_words("immediate", "next_turn"), "immediate", "CA69",
                                    "Endurance roll at 0 Health"),
    "death_at_shift0": Switch(_words("next_turn", "immediate"), "next_turn", "CA71",
                              "death at Shift 0"),
    "helpless_loss_per": Switch(_words("attack", "hit"), "attack", "CA73",
                                "a helpless body loses a rank per"),
    "kill_outright_at_zero": Switch(bool, False, "CA74", "killed outright at 0 Health"),
    "kill_outright_damage": Switch(_words("net", "threatened"), "net", "CA75",
                                   "killed-outright damage"),
    "flee_after_wake": Switch(bool, False, "CA77", "a Super Crit waker flees"),
    "aid_fallen": Switch(bool, False, "CA78", "allies aid the fallen"),
    # called shots
    "head_penalty": Switch(_words("replace", "add"), "replace", "CA82", "head called shot"),
    "limb_damage_to_health": Switch(_words("never", "unless_disabled", "always"), "never", "CA83",
                                    "limb damage to Health"),
    "sever_cap": Switch(_words("remaining", "full"), "remaining", "CA84", "severing cap"),
    "head_piercing": Switch(_words("as_bludgeoning", "as_slashing"), "as_bludgeoning", "CA86",
                            "piercing to the head"),
    "energy_called_shot": Switch(_words("as_bludgeoning", "not_allowed"), "as_bludgeoning",
                                 "CA88", "energy called shots"),
    "disabled_limb_penalty": Switch(bool, True, "CA89", "disabled limbs count as lost"),
    # grappling
    "grapple_damage": Switch(_words("colour", "flat"), "colour", "CA94", "squeeze damage"),
    "holder_other_actions": Switch(bool, False, "CA94", "a holder attacks others"),
    "release_on_red": Switch(bool, True, "CA96", "a Red frees a grappled victim"),
    "grappled_defence": Switch(_words("normal", "none"), "normal", "CA97",
                               "a grappled victim's defence"),
    # sniping and bookkeeping
    "aim_lost_on": Switch(_words("damage", "attacked"), "damage", "CA100", "the aim is lost on"),
    "health_tracks_endurance": Switch(bool, False, "CA103", "Health falls with Endurance"),
}  # fmt: skip


@dataclass(frozen=True)
class Rated:
    """A number a scenario gives as a rank name or a plain number (an ability, a damage
    rating, armour, AP, a rapid-fire rating), kept as written until the scenario's ladder is
    known (``ranks.resolve`` gives its value and rank). ``parts`` is its key path, for the
    messages of a name the ladder lacks."""

    given: str | int
    parts: tuple = ()

    def __str__(self) -> str:
        return str(self.given)


ZERO = Rated(0)


@dataclass(frozen=True)
class Weapon:
    """A weapon or attack form (004 L27-99; CA23, CA47-CA51, CA91-CA92).

    ``damage`` is a flat rating (None: the Strength value plus ``str_plus``; a thrown weapon
    adds its figure to the Strength value under ``thrown_damage: str_plus``). ``ability`` is
    the ability the attack rolls (default Fighting for melee, Agility for ranged); the defender
    rolls Fighting against melee and Agility against ranged attacks. ``rounds`` is the
    rapid-fire rating X (rounds per turn), ``shots`` the magazine (``ammunition: true``).
    ``parry``: a weapon to parry with (CA57); ``power``: a power, for the armour damage table
    (CA35).
    """

    name: str
    kind: str = "melee"
    ability: str = "Fighting"
    damage: Rated | None = None
    str_plus: int = 0
    type: str = "bludgeoning"
    ap: Rated = ZERO
    ap_percent: int = 0
    ignores_armour: bool = False
    gun: bool = False
    thrown: bool = False
    unarmed: bool = False
    parry: bool = False
    rapid_fire: str = "single"
    rounds: Rated = Rated(1)
    burst: bool = False
    area: bool = False
    aim_max_rounds: int = 1
    shots: int | None = None
    power: bool = False
    notes: str = ""


FISTS = Weapon(name="Fists", unarmed=True, notes="004 L32: the Strength value")


@dataclass(frozen=True)
class Armour:
    """One armour layer (004 L60-68; 002 L38-59; CA29-CA30): its value (a rank or a number; its
    rank also counts for CA34-CA35 and a field's re-raise FEAT), whether Armor-Piercing
    reduces it, the damage types it covers (None: bludgeoning, piercing and slashing, or every
    type under ``armour_covers: all``) and its layer (body, natural or field)."""

    name: str
    value: Rated = ZERO
    not_subject_to_ap: bool = False
    covers: tuple[str, ...] | None = None
    layer: str = "body"
    notes: str = ""


@dataclass(frozen=True)
class Shield:
    """A carried shield (004 L84): armour in Block mode, column shifts to contested defence
    rolls in Deflect mode."""

    name: str
    protection: Rated = ZERO
    deflection: int = 0
    covers: tuple[str, ...] | None = None
    notes: str = ""


@dataclass(frozen=True)
class Action:
    """One action of a turn (004 L70-99; CA16): ``do`` one of ``codes.ACTION_NAMES``,
    ``rounds`` fired (rapid fire; 0: all the weapon may), ``target`` a preferred enemy's
    name, ``power`` a Power Attack (L80), ``called`` a called-shot location (L73-78)."""

    do: str = "attack"
    rounds: int = 0
    target: str | None = None
    power: bool = False
    called: str | None = None


@dataclass(frozen=True)
class Member:
    """One combatant with every value resolved.

    ``abilities`` maps each of Fighting, Agility, Strength and Endurance to its
    :class:`Rated`; ``health`` overrides F + A + S + E values (K5; None: that sum).
    ``defences`` lists the defences it knows, the first the one it declares (CA19).
    """

    name: str
    side: str
    abilities: dict[str, Rated]
    weapon: Weapon
    health: int | None = None
    armour: Armour | None = None
    natural_armour: Armour | None = None
    force_field: Armour | None = None
    shield: Shield | None = None
    shield_mode: str = "block"
    defences: tuple[str, ...] = ("dodge",)
    actions: tuple[Action, ...] = field(default_factory=lambda: (Action(),))
    targeting: str = "first"
    finish_fallen: bool = False
    aim: int = 0
    dive_for_cover: bool = False
    dive_areas: int = 1
    attack_cs: int = 0
    defence_cs: int = 0
    arms: int = 2
    when_grappled: str = "escape"
    reraise_field: bool = True
    super_crit_call: str = "head"
    area: tuple[str, ...] | None = None

    @property
    def defence(self) -> str:
        return self.defences[0]
