"""The RuleSystem interface: everything a rule system gives the shared rooms.

The shared rooms (``scenario/``, ``engine/``, ``analysis/``, ``report/``, ``api.py``,
``cli.py``) know a rule system only through this interface, found by name in the registry
(:func:`fuzion_sim.systems.get_system`). A system is a package under ``fuzion_sim/systems/``
(or any installed package, through the ``fuzion_sim.systems`` entry-point group) with the
same rooms as every other: model and catalogue, compile, rules, kernels, exact, narrate. It
subclasses :class:`RuleSystem` and overrides what it has; what it lacks says so with a
:class:`NotAvailable` (``exact`` for a fight it cannot solve, say).

The boundary is the Python chunk call (:meth:`RuleSystem.run_chunk`): kernels that take jitted
functions as arguments did not cache (PERFORMANCE-NOTES lesson 6), so each system's kernels
stay behind its own Python functions.

What every system's kernels write is the shared per-trial outcomes of
:class:`~fuzion_sim.engine.outcomes.TrialOutcomes` (winner, end time, each combatant's time
out and of death, damage dealt and taken, attacks and hits) plus the extras its
:class:`OutcomeSchema` names: per-combatant counters (summed, with their squares) and counts by
category (hit locations, colours).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..errors import FuzionSimError

__all__ = [
    "Categories",
    "inert_by_table",
    "Counter",
    "FightView",
    "NotAvailable",
    "OutcomeSchema",
    "Question",
    "RuleSystem",
    "Switch",
]


class NotAvailable(FuzionSimError):
    """What was asked has no answer in this system or for this scenario (an exact answer to a
    fight too big for the chain, say); the message says why. The command prints it as one line
    and exits with status 2."""


class Switch(NamedTuple):
    """A rule switch of a system's ``rules:`` block.

    Parameters
    ----------
    kind : tuple of str, or bool, int, float
        The words it takes, or the type of its value (booleans are YAML true / false).
    default : object
        Its value when the scenario does not set it (the ruling's reading).
    ruling : str
        The ruling it comes from (``F2`` of RULINGS.md, ``CA12`` of the colour rulings).
    label : str
        A few words for tables and reports.
    low, high : number, optional
        Bounds of a numeric switch (inclusive).
    positive : bool
        A numeric switch that must be above 0.
    nullable : bool
        ``null`` means unset (the default).
    flag : str, optional
        A shortcut option of the commands that take overrides (``dice`` -> ``--dice``).
    unset : str
        What a nullable switch left out means, for messages ("the campaign's ratio").
    slot : bool or str
        The kernels read it as it is, from the slot of its name in the system's option vector
        (True) or in a feature's own vector (its name: Fuzion's ``im_opts``, ``mo_opts``,
        ``df_opts``); :meth:`encode` says how. Declaring it is all a new switch needs to reach
        them. False: the compiler works its number out with other switches or with what the
        fight holds.
    """

    kind: Any
    default: Any
    ruling: str
    label: str
    low: float | None = None
    high: float | None = None
    positive: bool = False
    nullable: bool = False
    flag: str | None = None
    unset: str = ""
    slot: bool | str = False

    def encode(self, value) -> int:
        """The number its slot holds for ``value``: a word its place among the switch's
        words (the first word 0), a boolean 0 or 1, a whole number itself."""
        if isinstance(self.kind, tuple):
            return self.kind.index(value)
        if self.kind is float:
            raise TypeError("a switch with a fractional value has no slot: the compiler scales it")
        return int(value)


class Question(NamedTuple):
    """A question a rule system answers exactly about one scenario beyond its fight (Fuzion's
    falls and collisions, hazards, manoeuvres, dogfights): the command ``fuzion-sim NAME
    SCENARIO ...`` and :func:`fuzion_sim.ask`. A system lists its own in
    :meth:`RuleSystem.questions`; nothing outside it names them.

    Parameters
    ----------
    name : str
        The command's name and ``ask``'s.
    help : str
        What it answers, as the command's help says it.
    options : callable
        ``options() -> list of click.Option``: what it asks besides the scenario (made when the
        command is first needed). Their names are ``ask``'s keyword arguments; a
        ``required=True`` option must be given.
    answer : callable
        ``answer(scenario, **arguments) -> dict``: the answer as JSON-ready data.
    render : callable
        ``render(answer, arguments)``: the answer for a reader, as the command prints it:
        ``(title, numbers)`` (the numbers as lines, each distribution a table, as
        ``fuzion-sim attack`` shows its answer) or the text itself.
    tables : bool
        Whether the answer has distributions: the command then takes ``--rows``.
    """

    name: str
    help: str
    options: Any
    answer: Any
    render: Any
    tables: bool = True


class FightView(NamedTuple):
    """What decides whether a rule switch can matter: the effective rules, the sides' members
    and the scene (a system's own top-level keys, built). A loaded
    :class:`~fuzion_sim.scenario.Scenario` has the same attributes, so whatever reads one reads
    the other; the loader builds a view before the scenario exists, to warn at load."""

    rules: Any
    sides: Mapping[str, tuple]
    scene: Mapping[str, Any]

    @property
    def combatants(self) -> list:
        """All members, side by side in listed order."""
        return [m for side in self.sides.values() for m in side]


def inert_by_table(table: Mapping, scenario, names=None) -> dict[str, str]:
    """A system's relevance table applied to ``scenario``: each switch whose test gives a
    reason it cannot change the fight, with that reason (of ``names`` only, when given).

    Parameters
    ----------
    table : mapping of str to callable
        Switch -> a test of the scenario returning why the switch cannot matter, or None.
    scenario : Scenario or FightView
    names : collection of str, optional
    """
    return {name: reason for name, test in table.items()
            if (names is None or name in names) and (reason := test(scenario))}  # fmt: skip


class Counter(NamedTuple):
    """A per-trial, per-combatant integer a system's kernels count beyond the shared outcomes
    (``TrialOutcomes.counters[name]``, int32[n, C]). Results report its mean per fight as
    ``<label>_mean`` for each combatant.

    ``percent``: it is 0 or 1 in a trial, so its mean is a probability (shown as a percent).
    ``per``: the name of such a 0-or-1 counter; the mean is then over the trials where that
    one is 1 (a time to an event, over the fights in which it happened), None where it never
    is."""

    name: str
    label: str
    description: str = ""
    percent: bool = False
    per: str = ""


class Categories(NamedTuple):
    """Counts per combatant by category, summed over a block of trials
    (``TrialOutcomes.categories[name]``, int64[C, K], K = ``len(labels)``), such as hits by
    location or attacks by colour. Results report them under ``json_key`` as ``{combatant:
    {label: count}}``, leaving out zeros."""

    name: str
    labels: tuple[str, ...]
    json_key: str
    description: str = ""


@dataclass(frozen=True)
class OutcomeSchema:
    """How a system's results read: its time unit and what its kernels count beyond the
    shared outcomes.

    Parameters
    ----------
    unit : str
        The time unit fights are reported in (``"phase"``, ``"segment"``, ``"round"``).
    seconds : float
        Seconds of game time a unit lasts.
    per_round : float
        Units to the system's round (``mean_rounds`` = mean / per_round).
    counters, categories : tuple
        The extras (see :class:`Counter`, :class:`Categories`).
    """

    unit: str
    seconds: float
    per_round: float
    counters: tuple[Counter, ...] = ()
    categories: tuple[Categories, ...] = ()

    @property
    def time_unit(self) -> dict:
        """``{"unit", "seconds", "per_round"}``, as a Result carries it."""
        return {"unit": self.unit, "seconds": float(self.seconds), "per_round": self.per_round}


class RuleSystem:
    """A rule system as the shared rooms see it. Subclass and override.

    Class attributes
    ----------------
    name : str
        The ``system:`` of its scenarios (lower case, one word).
    title : str
        A line for listings.
    switches : mapping of str to Switch
        Its ``rules:`` block, in display order.
    member_keys : tuple of str
        Every key a member (combatant) may have; the loader rejects the rest.
    side_keys : tuple of str
        Keys of a side given as a mapping, besides ``members``.
    scene_keys : tuple of str
        Keys it adds to the scenario's top level (Fuzion's ``obstacles``, ``drops``,
        ``hazards``); built by :meth:`build_scene` into ``Scenario.scene``.
    catalogue_kinds : tuple of str
        What ``fuzion-sim catalog`` lists for it (``weapons``, ``armor``, ...).
    catalogue_columns : mapping of str to tuple of str
        Per catalogue kind, the columns its terminal table shows (default: every key).
    """

    name: str = ""
    title: str = ""
    switches: Mapping[str, Switch] = {}
    member_keys: tuple[str, ...] = ("name",)
    side_keys: tuple[str, ...] = ()
    scene_keys: tuple[str, ...] = ()
    catalogue_kinds: tuple[str, ...] = ()
    catalogue_columns: Mapping[str, tuple[str, ...]] = {}

    def __reduce__(self):
        """Pickled by name (a Dask task): the process that loads it takes the system of that
        name from its own registry."""
        from . import get_system

        return get_system, (self.name,)

    # --- scenarios --------------------------------------------------------------------
    def build_member(self, ctx, parts: list, value: Any, side: str, side_options: dict):
        """Validate one member's mapping (``value``, at key path ``parts``) with the shared
        checks (:mod:`fuzion_sim.validation.checks`) and build the system's member object,
        which has ``name`` and ``side``, or a tuple of them when one entry is several
        combatants (a Fuzion vehicle and its crew). ``side_options`` holds the side's own
        keys."""
        raise NotImplementedError

    def build_side_options(self, ctx, parts: list, value: dict) -> dict:
        """The side-wide keys of a side given as a mapping (``side_keys``), validated."""
        return {}

    def check_scenario(self, ctx, rules, sides: dict) -> None:
        """Checks across members once every side is built (append to ``ctx.warnings``, or
        raise ``ctx.fail(...)``)."""

    def build_scene(self, ctx, data: dict, rules, sides: dict) -> dict:
        """The scenario's own top-level keys (``scene_keys``) validated and built, once the
        sides are (for the checks across them): a mapping, ``Scenario.scene``."""
        return {}

    def inert_switches(self, scenario, names=None) -> dict[str, str]:
        """The rule switches that cannot change this scenario's fight, each with a short reason
        ("no weapon is autofire", "no vehicle in the fight").

        ``scenario`` is a :class:`~fuzion_sim.scenario.Scenario` or a :class:`FightView`;
        ``names``, when given, limits the answer to those switches (the tests cost time). A
        switch left out may matter: one whose reach cannot be decided from the scenario alone
        counts as relevant, so a switch is never called inert wrongly. None by default.
        """
        return {}

    def inert_keys(self, scenario) -> list[tuple[str, str]]:
        """Other keys the scenario gives (a member's, by its name: ``"Torch: resting"``) that
        cannot change its fight, each with a short reason; none by default."""
        return []

    def warn_inert(self, ctx, rules, sides: Mapping, scene: Mapping | None = None) -> None:
        """Warn (``ctx.warnings``) of each switch the scenario sets away from its default that
        :meth:`inert_switches` calls inert (``rules.X: has no effect in this scenario
        (reason)``), and of each key :meth:`inert_keys` names. A system calls it once its
        members (and scene) are built."""
        view = FightView(rules, sides, scene or {})
        changed = [name for name, spec in self.switches.items()
                   if rules.values.get(name, spec.default) != spec.default]
        inert = self.inert_switches(view, changed) if changed else {}
        for name in changed:
            if name in inert:
                ctx.warnings.append(f"rules.{name}: has no effect in this scenario "
                                    f"({inert[name]})")
        for where, reason in self.inert_keys(view):
            ctx.warnings.append(f"{where}: has no effect in this scenario ({reason})")

    def catalogue(self, kind: str) -> list[dict]:
        """The entries of a catalogue (``catalogue_kinds``), as plain dicts."""
        raise NotAvailable(f"system {self.name} has no {kind} catalogue")

    def catalogue_entry(self, slot: str, name: str) -> dict | None:
        """The catalogue entry a member's ``slot`` (``weapon``, ``armor``) names, as a
        mapping: key paths such as ``sides.blue[0].armor.pd`` reach into it. None: no such
        slot or entry."""
        return None

    def scene_schema(self) -> dict:
        """JSON Schemas of its own top-level keys (``scene_keys``), by key."""
        return {}

    def member_schema(self) -> dict:
        """A JSON Schema of one member mapping (every key, its type, range and meaning)."""
        return {"type": "object", "properties": {"name": {"type": "string"}}}

    def side_option_schema(self) -> dict:
        """JSON Schemas of the side-wide keys (``side_keys``), by key."""
        return {}

    def describe_member(self, member) -> str:
        """One line of ``validate`` for a member: what it fights with, its dice, its pools."""
        return str(member.name)

    # --- running ----------------------------------------------------------------------
    def compile(self, scenario):
        """The scenario as a plan: flat arrays and integer codes for the kernels (it must
        pickle, for the Dask backend)."""
        raise NotImplementedError

    def outcome_schema(self, plan) -> OutcomeSchema:
        raise NotImplementedError

    def n_sides(self, plan) -> int:
        raise NotImplementedError

    def n_combatants(self, plan) -> int:
        raise NotImplementedError

    def max_slots(self, plan) -> int:
        """The latest time (in reported units) a fight can end at."""
        raise NotImplementedError

    def run_chunk(self, plan, key, first: int, n: int):
        """Trials ``first .. first + n - 1`` of the chunk with stream key ``key``
        (``engine.rng.chunk_key``), as :class:`~fuzion_sim.engine.outcomes.TrialOutcomes`."""
        raise NotImplementedError

    def tally_chunk(self, plan, key, first: int, n: int):
        """Their :class:`~fuzion_sim.engine.outcomes.Tally` without keeping them, for a system
        whose kernels add trials straight into a tally (the same numbers, without writing and
        reading back the per-trial arrays); None (the default): the engine tallies
        :meth:`run_chunk`'s outcomes."""
        return None

    def describe_plan(self, plan) -> str:
        """What ``validate`` says of how the fight will run (which kernel, and why)."""
        return ""

    #: CPU seconds a cold first run of each kernel (by the name a plan's ``kernel`` holds)
    #: took on a 2-core machine: what the compile notice tells the user to expect.
    compile_seconds_by_kernel: ClassVar[dict[str, float]] = {}

    def compile_seconds(self, plan) -> float | None:
        """About how many CPU seconds compiling ``plan``'s kernel takes on its first run (None:
        not measured)."""
        return self.compile_seconds_by_kernel.get(getattr(plan, "kernel", ""))

    # --- one trial ----------------------------------------------------------------------
    def replay(self, scenario, plan, seed: int, trial: int) -> dict:
        """Trial ``trial`` of a run seeded ``seed`` alone, with its event log: ``{"winner":
        side index (or -1 draw, -2 unresolved), "end_time", "events": [dict, ...], "lines":
        [str, ...]}``. The outcome must be exactly the bulk run's."""
        raise NotAvailable(f"system {self.name} has no replay")

    # --- exact answers ------------------------------------------------------------------
    def attack(self, scenario, attacker: str, target: str) -> dict:
        """The exact distribution of one default attack of ``attacker`` on ``target`` under
        the scenario's rules and positions: ``{"p_hit": p, "damage": {"mean": m, "pmf":
        {"0": p0, ...}}}`` and what the system adds."""
        raise NotAvailable(f"system {self.name} has no exact attack")

    def questions(self) -> tuple[Question, ...]:
        """The questions the system answers about a scenario beyond its fight and one attack
        (:class:`Question`): each a command of ``fuzion-sim`` and a question of
        :func:`fuzion_sim.ask`. Listing them must not load the kernels (``fuzion-sim --help``
        lists them). None by default."""
        return ()

    def exact_check(self, scenario) -> None:
        """Raise :class:`NotAvailable` saying why when :meth:`exact` cannot solve the fight
        (cheap: ``validate`` and ``run`` use it to mention an exact answer)."""
        raise NotAvailable(f"system {self.name} solves no fight exactly")

    def exact(self, scenario) -> dict:
        """The exact answer to the fight where the system can solve it, in ``run --json``'s
        shape for ``sides`` (``win_probability``), ``draw_probability``,
        ``unresolved_probability`` and ``kill_time`` (``unit``, ``mean``, ``pmf``); else
        :class:`NotAvailable` saying why."""
        self.exact_check(scenario)
        raise NotImplementedError

    # --- the command line -----------------------------------------------------------------
    def attack_flags(self) -> list:
        """``click.Option`` objects of a flag form of ``fuzion-sim attack`` (the odds of one
        attack from numbers, without a scenario); none by default."""
        return []

    def flag_attack(self, flags: dict, rows: int, as_json: bool, dump) -> None:
        """Work out and print the flag form's attack (``flags``: :meth:`attack_flags` by name;
        ``dump`` prints one JSON object)."""
        raise NotAvailable(f"system {self.name} has no flag form of attack")
