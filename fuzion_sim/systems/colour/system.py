"""The colour-result system behind the :class:`~fuzion_sim.systems.base.RuleSystem` interface."""

from __future__ import annotations

from typing import ClassVar

from ..base import NotAvailable, RuleSystem, inert_by_table
from .model import SWITCHES

__all__ = ["Colour", "SYSTEM"]


class Colour(RuleSystem):
    """The d100 colour-result superhero system of seeds 004 (combat) and 002 (defences): every
    roll read as Blue, White, Green, Yellow, Red or Super Crit on the column of the acting
    rank, damage by colour, Health = F + A + S + E (RULINGS K1-K8; colour rulings CA1-CA104)."""

    name = "colour"
    title = "colour results (seeds 004 and 002): d100 on the Universal Table"
    switches = SWITCHES
    side_keys = ()
    catalogue_kinds = ("weapons", "armor", "shields")
    catalogue_columns: ClassVar[dict] = {
        "weapons": ("name", "kind", "damage", "str_plus", "type", "ap", "rapid_fire", "rounds",
                    "notes"),
        "armor": ("name", "layer", "value", "notes"),
        "shields": ("name", "protection", "deflection", "notes"),
    }  # fmt: skip

    # --- scenarios ----------------------------------------------------------------------
    @property
    def member_keys(self):
        from .build import MEMBER_KEYS

        return MEMBER_KEYS

    def build_member(self, ctx, parts, value, side, side_options):
        from . import build

        return build.build_member(ctx, parts, value, side, side_options)

    def build_side_options(self, ctx, parts, value):
        from . import build

        return build.build_side_options(ctx, parts, value)

    def check_scenario(self, ctx, rules, sides):
        from . import build

        build.check_scenario(ctx, rules, sides)
        self.warn_inert(ctx, rules, sides)

    def inert_switches(self, scenario, names=None):
        from .relevance import INERT

        return inert_by_table(INERT, scenario, names)

    def catalogue(self, kind):
        from . import catalogue

        if kind not in self.catalogue_kinds:
            raise NotAvailable(f"the colour system has no {kind} catalogue (it has "
                               f"{', '.join(self.catalogue_kinds)})")  # fmt: skip
        return catalogue.entries(kind)

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
        return int(plan.arrays.max_rounds)

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
    compile_seconds_by_kernel: ClassVar[dict] = {"duel": 7.5, "squad": 13.5, "general": 25.0}

    # --- one trial ------------------------------------------------------------------------
    def replay(self, scenario, plan, seed, trial):
        from . import narrate, run
        from .ladder import ladder

        out, events = run.run_logged(plan, seed, trial)
        names = [c.name for c in scenario.combatants]
        ranks = ladder(scenario.rules.ladder).names
        return {
            "winner": int(out.winner[0]),
            "end_time": int(out.end_slot[0]),
            "events": narrate.event_dicts(events, names, ranks),
            "lines": narrate.narrate(events, names, scenario.side_names, ranks),
        }

    # --- exact answers --------------------------------------------------------------------
    def attack(self, scenario, attacker, target):
        from .exact import scenario_attack

        return scenario_attack(scenario, attacker, target)

    def exact_check(self, scenario):
        from .exact import fight_check

        fight_check(scenario)

    def exact(self, scenario):
        from .exact import scenario_fight

        return scenario_fight(scenario)


SYSTEM = Colour()
