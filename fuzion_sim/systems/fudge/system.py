"""FUDGE Firearms behind the :class:`~fuzion_sim.systems.base.RuleSystem` interface."""

from __future__ import annotations

from typing import ClassVar

from ..base import NotAvailable, RuleSystem, inert_by_table
from .model import SWITCHES

__all__ = ["Fudge", "SYSTEM"]


class Fudge(RuleSystem):
    """FUDGE Firearms (seed 003, M. Lambertini 1995): 4dF on the trait ladder, Basic Damage,
    Scale and Damage Capacity, wound tracks, explosions, hit locations (RULINGS U1-U5,
    rulings UA1-UA31)."""

    name = "fudge"
    title = "FUDGE Firearms (seed 003): 4dF, Basic Damage, Scale, explosions"
    switches = SWITCHES
    side_keys = ()
    catalogue_kinds = ("weapons", "ladder", "locations")
    catalogue_columns: ClassVar[dict] = {
        "weapons": ("name", "bd", "scale", "concussion", "concussion_range", "burst_radius",
                    "source"),
        "ladder": ("level", "value", "dc_modifier", "p_4df_at_least"),
        "locations": ("part", "roll", "p_method_1", "needed", "multiplier", "cripple_blow",
                      "cripple_total"),
    }  # fmt: skip

    # --- scenarios ----------------------------------------------------------------------
    @property
    def member_keys(self):
        from .build import MEMBER_KEYS

        return MEMBER_KEYS

    def build_member(self, ctx, parts, value, side, side_options):
        from . import build

        return build.build_member(ctx, parts, value, side, side_options)

    def check_scenario(self, ctx, rules, sides):
        from .consistency import check_scenario

        check_scenario(ctx, rules, sides)
        self.warn_inert(ctx, rules, sides)

    def inert_switches(self, scenario, names=None):
        from .relevance import INERT

        return inert_by_table(INERT, scenario, names)

    def catalogue(self, kind):
        from . import catalogue

        entries = {"weapons": catalogue.weapon_entries, "ladder": catalogue.ladder_entries,
                   "locations": catalogue.location_entries}  # fmt: skip
        if kind not in entries:
            raise NotAvailable(f"FUDGE has no {kind} catalogue (it has {', '.join(entries)})")
        return list(entries[kind]())

    def catalogue_entry(self, slot, name):
        from . import catalogue

        return catalogue.slot_entry(slot, name)

    def member_schema(self):
        from .schema import member_schema

        return member_schema()

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
    #: (``benchmarks/results/cold-all.json``; a test holds them to it).
    compile_seconds_by_kernel: ClassVar[dict] = {"duel": 4.0, "battle": 7.0, "general": 11.0}

    # --- one trial ------------------------------------------------------------------------
    def replay(self, scenario, plan, seed, trial):
        from . import narrate, run

        out, events = run.run_logged(plan, seed, trial)
        return {
            "winner": int(out.winner[0]),
            "end_time": int(out.end_slot[0]),
            "events": narrate.event_dicts(events, scenario),
            "lines": narrate.narrate(events, scenario),
        }

    # --- exact answers --------------------------------------------------------------------
    def attack(self, scenario, attacker, target):
        from .oracle import scenario_attack

        return scenario_attack(scenario, attacker, target)

    def exact_check(self, scenario):
        from .oracle import fight_check

        fight_check(scenario)

    def exact(self, scenario):
        from .oracle import scenario_fight

        return scenario_fight(scenario)


SYSTEM = Fudge()
