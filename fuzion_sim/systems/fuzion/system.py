"""Fuzion behind the :class:`~fuzion_sim.systems.base.RuleSystem` interface."""

from __future__ import annotations

from typing import ClassVar

from ..base import NotAvailable, RuleSystem, inert_by_table
from .model import SWITCHES

__all__ = ["Fuzion", "SYSTEM"]


class Fuzion(RuleSystem):
    """The Fuzion combat chapter (seed 000): HERO 3d6 against a flat 10, or Interlock 1d10
    against 1d10, people fighting people (RULINGS F1-F33)."""

    name = "fuzion"
    title = "Fuzion (seed 000): HERO 3d6 or Interlock 1d10"
    switches = SWITCHES
    catalogue_kinds = ("weapons", "armor", "skills")
    catalogue_columns: ClassVar[dict] = {
        "weapons": ("name", "skill", "kind", "damage", "dc", "accuracy", "range", "rof", "min_str"),
        "armor": ("name", "category", "pd", "ekd", "description"),
    }

    # --- scenarios ----------------------------------------------------------------------
    @property
    def member_keys(self):
        from .build import COMBATANT_KEYS

        return COMBATANT_KEYS

    @property
    def side_keys(self):
        from .build import SIDE_KEYS

        return SIDE_KEYS

    @property
    def scene_keys(self):
        from .features.scene.build import SCENE_KEYS

        return (*SCENE_KEYS, "hazards")  # obstacles, drops, terrain; the environment

    def build_member(self, ctx, parts, value, side, side_options):
        from . import build

        return build.build_member(ctx, parts, value, side, side_options)

    def build_side_options(self, ctx, parts, value):
        from . import build

        return build.build_side_options(ctx, parts, value)

    def check_scenario(self, ctx, rules, sides):
        from . import build

        build.check_called_shots(ctx, rules, sides)
        build.check_powered_armour(ctx, rules, sides)
        build.check_rate_of_fire(ctx, rules, sides)
        from .features.motion.build import check_motion

        check_motion(ctx, rules, sides)
        from .features.scene.throws import resolve_thrown

        resolve_thrown(ctx, rules, sides)  # thrown objects' damage and range (VA-49)

    def build_scene(self, ctx, data, rules, sides):
        from .features.hazards.build import build_hazards
        from .features.scene.build import build_scene, check_scene

        scene = build_scene(ctx, data)
        check_scene(ctx, rules, sides, scene)
        scene = {**scene, "hazards": build_hazards(ctx, data.get("hazards"))}
        self.warn_inert(ctx, rules, sides, scene)  # once the scene is known
        return scene

    def inert_switches(self, scenario, names=None):
        from .relevance import INERT

        return inert_by_table(INERT, scenario, names)

    def inert_keys(self, scenario):
        from .relevance import inert_keys

        return inert_keys(scenario)

    def catalogue(self, kind):
        from . import catalogue

        entries = {"weapons": catalogue.weapon_entries, "armor": catalogue.armor_entries,
                   "skills": lambda: [{"name": s} for s in catalogue.skills()]}  # fmt: skip
        if kind not in entries:
            raise NotAvailable(f"Fuzion has no {kind} catalogue (it has {', '.join(entries)})")
        return list(entries[kind]())

    def catalogue_entry(self, slot, name):
        from . import catalogue

        return catalogue.slot_entry(slot, name)

    def member_schema(self):
        from .schema import member_schema

        return member_schema()

    def scene_schema(self):
        from .schema import scene_schema

        return scene_schema()

    def side_option_schema(self):
        from .schema import side_option_schema

        return side_option_schema()

    def describe_member(self, member):
        from .describe import describe_member

        return describe_member(member)

    # --- running ------------------------------------------------------------------------
    def compile(self, scenario):
        from . import run

        return run.compile_scenario(scenario)

    def outcome_schema(self, plan):
        from . import run

        return run.outcome_schema(plan)

    def n_sides(self, plan):
        return plan.n_sides

    def n_combatants(self, plan):
        return plan.n_combatants

    def max_slots(self, plan):
        from . import run

        return run.max_slots(plan)

    def run_chunk(self, plan, key, first, n):
        from . import run

        return run.run_chunk(plan, key, first, n)

    def tally_chunk(self, plan, key, first, n):
        from . import run

        return run.tally_chunk(plan, key, first, n)

    def describe_plan(self, plan):
        from .describe import describe_kernel

        return describe_kernel(plan)

    #: The longest cold first run of a shipped fight on each kernel, CPU s on 2 cores
    #: (``benchmarks/results/cold-all.json``; a test holds them to it), the general kernel's
    #: by its compiled set (every room: the car chase in smoke, ``benchmarks/cold_start.py``).
    #: The standing kernel runs no shipped fight (it replays trials).
    compile_seconds_by_kernel: ClassVar[dict] = {"duel": 8.5, "squad": 13.0, "standing": 20.0}

    def compile_seconds(self, plan):
        if plan.kernel != "general":
            return super().compile_seconds(plan)
        from . import kernel, run

        rooms = kernel.compiled_set(run.features(plan.arrays))
        return {kernel.PEOPLE: 16.5, kernel.HAZARDS: 20.0, kernel.SCENE: 20.0,
                kernel.GROUND: 24.0, kernel.VEHICLES: 21.0, kernel.DRIVEN: 32.0,
                kernel.AIR: 32.0}.get(rooms, 41.0)

    # --- one trial ------------------------------------------------------------------------
    def replay(self, scenario, plan, seed, trial):
        from . import narrate, run

        out, events = run.run_logged(plan, seed, trial)
        names = [c.name for c in scenario.combatants]
        positions = [c.xy for c in scenario.combatants]
        locations = scenario.rules.hit_locations != "none"
        unit = run.outcome_schema(plan).unit
        return {
            "winner": int(out.winner[0]),
            "end_time": int(out.end_slot[0]),
            "events": narrate.event_dicts(events, names, positions, locations, scenario.scene),
            "lines": narrate.narrate(events, names, scenario.side_names, unit,
                                     scenario.rules.dice, positions, locations, scenario.scene),
        }  # fmt: skip

    # --- exact answers --------------------------------------------------------------------
    def attack(self, scenario, attacker, target):
        from .oracle import scenario_attack

        return scenario_attack(scenario, attacker, target)

    def questions(self):
        from .questions import QUESTIONS

        return QUESTIONS

    def exact_check(self, scenario):
        from .oracle import fight_check

        fight_check(scenario)

    def exact(self, scenario):
        from .oracle import scenario_fight

        return scenario_fight(scenario)

    # --- the command line -----------------------------------------------------------------
    def attack_flags(self):
        from .attack_flags import OPTIONS

        return OPTIONS

    def flag_attack(self, flags, rows, as_json, dump):
        from .attack_flags import flag_attack

        flag_attack(flags, rows, as_json, dump)


SYSTEM = Fuzion()
