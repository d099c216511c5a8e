"""What a fight kernel writes, and the streaming aggregates (tallies) the engine keeps.

Every rule system's kernel fills the same per-trial outcome arrays (:class:`TrialOutcomes`).
The engine reduces each chunk to a :class:`Tally` of integer counts and sums, which merge by
addition in any order, so a run's statistics are exact and identical whether it kept the
per-trial arrays or streamed, and whatever the thread count or cluster.

A tally's size does not depend on ``max_rounds``: its time histograms hold the first
:data:`HIST_SLOTS` slots one by one and every later time in their last bin, whose trials also
add up how far past that bin they ended (``*_excess``), so means and standard deviations stay
exact however long a fight lasts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .._jit import jit

__all__ = [
    "DRAW", "HIST_SLOTS", "SHARED", "TALLY_SHARED", "Shared", "Streamed", "UNRESOLVED", "Tally",
    "TrialOutcomes", "hist_size", "outcome_index", "record_trial",
]  # fmt: skip

DRAW = -1
UNRESOLVED = -2
#: Time slots a tally's histograms hold one by one (4,096: 1,024 rounds in phases, 341 on the
#: speed chart); a fight that may last longer shares the last bin (see :class:`Tally`).
HIST_SLOTS = 4096

class Shared(NamedTuple):
    """The per-trial arrays every kernel writes (:class:`TrialOutcomes` says what each holds),
    passed to a jitted kernel as one argument (``TrialOutcomes.arrays``)."""

    winner: np.ndarray
    end_slot: np.ndarray
    out_slot: np.ndarray
    death_slot: np.ndarray
    dealt: np.ndarray
    taken: np.ndarray
    attacks: np.ndarray
    landed: np.ndarray


#: The names of the :class:`Shared` arrays, in their order.
SHARED = Shared._fields


def hist_size(max_slots: int) -> int:
    """Bins of a tally's time histograms for fights of at most ``max_slots`` slots: one per
    slot 0 .. max_slots, or :data:`HIST_SLOTS` + 1 with the last one holding every later
    slot."""
    return min(int(max_slots), HIST_SLOTS) + 1


def _extras(schema) -> tuple[tuple[str, ...], dict[str, int]]:
    """A schema's counter names and its categories' sizes (none without a schema)."""
    if schema is None:
        return (), {}
    return (tuple(c.name for c in schema.counters),
            {c.name: len(c.labels) for c in schema.categories})  # fmt: skip


@dataclass
class TrialOutcomes:
    """Per-trial outcome arrays of ``n`` trials and ``C`` combatants.

    The shared outcomes, written by every rule system's kernels: ``winner`` int8[n] (a side
    index, DRAW or UNRESOLVED), ``end_slot`` int32[n] (the 1-based time the fight ended),
    ``out_slot`` / ``death_slot`` int32[n, C] (the time a combatant first went out / died, 0:
    never), ``dealt`` / ``taken`` int32[n, C] (damage after defences), ``attacks`` / ``landed``
    int32[n, C] (attacks made and attacks that hit). Then a system's extras, by name, as its
    :class:`~fuzion_sim.systems.base.OutcomeSchema` lists them: ``counters[name]`` int32[n, C]
    per trial, and ``categories[name]`` int64[C, K], counts summed over the block.
    """

    winner: np.ndarray
    end_slot: np.ndarray
    out_slot: np.ndarray
    death_slot: np.ndarray
    dealt: np.ndarray
    taken: np.ndarray
    attacks: np.ndarray
    landed: np.ndarray
    counters: dict[str, np.ndarray] = field(default_factory=dict)
    categories: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, n: int, n_comb: int, schema=None) -> TrialOutcomes:
        """Arrays for ``n`` trials of ``n_comb`` combatants and the extras of ``schema``
        (categories zeroed: kernels add to them)."""
        per = lambda: np.empty((n, n_comb), np.int32)  # noqa: E731
        names, sizes = _extras(schema)
        return cls(
            np.empty(n, np.int8), np.empty(n, np.int32), per(), per(), per(), per(), per(), per(),
            counters={k: per() for k in names},
            categories={k: np.zeros((n_comb, size), np.int64) for k, size in sizes.items()},
        )  # fmt: skip

    def arrays(self) -> Shared:
        """The shared arrays (a kernel's first outputs)."""
        return Shared(*(getattr(self, name) for name in SHARED))

    @classmethod
    def concatenate(cls, parts: list[TrialOutcomes]) -> TrialOutcomes:
        joined = {k: np.concatenate([getattr(p, k) for p in parts]) for k in SHARED}
        first = parts[0]
        return cls(
            **joined,
            counters={k: np.concatenate([p.counters[k] for p in parts]) for k in first.counters},
            categories={k: sum(p.categories[k] for p in parts) for k in first.categories},
        )

    @property
    def n(self) -> int:
        return int(self.winner.shape[0])


#: The Tally's shared arrays, after ``n_trials``, in their order.
TALLY_SHARED = (
    "outcome_counts", "end_hist", "out_hist", "death_hist", "dealt_sum", "dealt_sq",
    "taken_sum", "taken_sq", "attacks_sum", "landed_sum", "end_excess", "end_excess_sq",
    "out_excess", "death_excess",
)  # fmt: skip


@dataclass
class Tally:
    """Streaming aggregates of a run; ``merge`` adds another tally of the same shape.

    ``outcome_counts[k]``: trials won by side k, then draws (index n_sides) and unresolved
    (n_sides + 1). ``end_hist[k, t]``: trials with outcome k that ended in slot t.
    ``out_hist[c, t]`` / ``death_hist[c, t]``: slot combatant c first went out / died (t = 0:
    never). The ``*_sum`` and ``*_sq`` arrays are per-combatant sums and sums of squares.
    A system's extras: ``counter_sum[name]`` / ``counter_sq[name]`` int64[C] per counter, and
    ``categories[name]`` int64[C, K].

    The histograms have :func:`hist_size` bins; when a fight may last past the last one
    (``max_slots > HIST_SLOTS``) that bin ``L`` holds every slot from ``L`` on, and
    ``end_excess[k]`` / ``end_excess_sq[k]`` add ``t - L`` and ``t*t - L*L`` over the trials
    of outcome k that ended there at slot ``t`` (``out_excess`` and ``death_excess`` add
    ``t - L`` per combatant): exact sums for the means. Otherwise they are 0.
    """

    n_trials: int
    outcome_counts: np.ndarray
    end_hist: np.ndarray
    out_hist: np.ndarray
    death_hist: np.ndarray
    dealt_sum: np.ndarray
    dealt_sq: np.ndarray
    taken_sum: np.ndarray
    taken_sq: np.ndarray
    attacks_sum: np.ndarray
    landed_sum: np.ndarray
    end_excess: np.ndarray
    end_excess_sq: np.ndarray
    out_excess: np.ndarray
    death_excess: np.ndarray
    counter_sum: dict[str, np.ndarray] = field(default_factory=dict)
    counter_sq: dict[str, np.ndarray] = field(default_factory=dict)
    categories: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def zeros(cls, n_sides: int, n_comb: int, max_slots: int, schema=None) -> Tally:
        """An empty tally of ``n_sides`` sides, ``n_comb`` combatants, fights of at most
        ``max_slots`` time units, and the extras of ``schema``."""
        t = hist_size(max_slots)
        z = lambda *shape: np.zeros(shape, np.int64)  # noqa: E731
        names, sizes = _extras(schema)
        return cls(
            0, z(n_sides + 2), z(n_sides + 2, t), z(n_comb, t), z(n_comb, t),
            z(n_comb), z(n_comb), z(n_comb), z(n_comb), z(n_comb), z(n_comb),
            z(n_sides + 2), z(n_sides + 2), z(n_comb), z(n_comb),
            counter_sum={k: z(n_comb) for k in names}, counter_sq={k: z(n_comb) for k in names},
            categories={k: z(n_comb, size) for k, size in sizes.items()},
        )  # fmt: skip

    @property
    def last_slot(self) -> int:
        """Index of the histograms' last bin."""
        return int(self.end_hist.shape[1]) - 1

    @property
    def capped(self) -> bool:
        """True when the last bin may hold later slots (some trial ended past it)."""
        return bool(self.end_excess.any() or self.out_excess.any() or self.death_excess.any())

    def merge(self, other: Tally) -> Tally:
        """Add ``other`` into this tally (in place) and return self."""
        self.n_trials += other.n_trials
        for name in TALLY_SHARED:
            getattr(self, name)[...] += getattr(other, name)
        for group in ("counter_sum", "counter_sq", "categories"):
            mine, theirs = getattr(self, group), getattr(other, group)
            for key in mine:
                mine[key] += theirs[key]
        return self

    @classmethod
    def of(cls, out: TrialOutcomes, n_sides: int, max_slots: int, schema=None) -> Tally:
        """The tally of a block of per-trial outcomes (``schema``: the extras to sum; by
        default those ``out`` holds)."""
        n_comb = out.out_slot.shape[1]
        tally = cls.zeros(n_sides, n_comb, max_slots)
        tally.n_trials = out.n
        _tally(
            out.winner, out.end_slot, out.out_slot, out.death_slot, out.dealt, out.taken,
            out.attacks, out.landed, n_sides, tally.outcome_counts, tally.end_hist,
            tally.out_hist, tally.death_hist, tally.dealt_sum, tally.dealt_sq, tally.taken_sum,
            tally.taken_sq, tally.attacks_sum, tally.landed_sum, tally.end_excess,
            tally.end_excess_sq, tally.out_excess, tally.death_excess,
        )  # fmt: skip
        names = out.counters if schema is None else _extras(schema)[0]
        for name in names:
            values = out.counters[name].astype(np.int64)
            tally.counter_sum[name] = values.sum(axis=0)
            tally.counter_sq[name] = (values * values).sum(axis=0)
        sizes = out.categories if schema is None else _extras(schema)[1]
        tally.categories = {k: out.categories[k].copy() for k in sizes}
        return tally

    def to_state(self) -> dict:
        """A flat dict of arrays (for pickling across processes and for Parquet/JSON): the
        shared arrays by name, the extras as ``counter_sum.<name>``, ``counter_sq.<name>``
        and ``categories.<name>``."""
        state = {"n_trials": self.n_trials}
        state.update({name: getattr(self, name) for name in TALLY_SHARED})
        for group in ("counter_sum", "counter_sq", "categories"):
            state.update({f"{group}.{k}": v for k, v in getattr(self, group).items()})
        return state

    @classmethod
    def from_state(cls, state: dict) -> Tally:
        groups: dict[str, dict] = {"counter_sum": {}, "counter_sq": {}, "categories": {}}
        shared = {}
        for key, value in state.items():
            group, _, name = key.partition(".")
            if name:
                groups[group][name] = value
            else:
                shared[key] = value
        return cls(**shared, **groups)


class Streamed(NamedTuple):
    """What a kernel that streams adds each trial into, as one argument: with ``accumulate``
    its trials go straight into these arrays of a :class:`Tally` (which says what each holds)
    and the per-trial outputs are left alone, the numbers being the same; without it the
    arrays are placeholders the kernel never touches (:meth:`into`)."""

    accumulate: bool
    outcome_counts: np.ndarray
    end_hist: np.ndarray
    out_hist: np.ndarray
    death_hist: np.ndarray
    dealt_sum: np.ndarray
    dealt_sq: np.ndarray
    taken_sum: np.ndarray
    taken_sq: np.ndarray
    attacks_sum: np.ndarray
    landed_sum: np.ndarray

    @classmethod
    def into(cls, tally: Tally | None) -> Streamed:
        """The arrays of ``tally`` to add into, or (None) placeholders and no streaming."""
        if tally is None:
            return _NOT_STREAMED
        return cls(True, *(getattr(tally, name) for name in cls._fields[1:]))


_NOT_STREAMED = Streamed(False, *(
    np.zeros((1, 1), np.int64) if name.endswith("hist") else np.zeros(1, np.int64)
    for name in Streamed._fields[1:]))  # fmt: skip


@jit(inline="always")
def _bin(t, last):
    """The histogram bin of slot ``t`` and how far past the last bin it is."""
    return (t, 0) if t <= last else (last, t - last)


@jit(inline="always")
def outcome_index(result, n_sides):
    """The row of a trial's result in ``Tally.outcome_counts`` and ``end_hist``: a side, then
    draws (``n_sides``), then unresolved fights (``n_sides + 1``)."""
    return result if result >= 0 else (n_sides if result == DRAW else n_sides + 1)


@jit(inline="always")
def tally_duel(result, n_sides, finish, out0, out1, death0, death1, outcome_counts, end_hist,
               out_hist, death_hist):  # fmt: skip
    """A streamed duel's outcome, end and each side's out and death time units into the
    tally's histograms (``Tally``): the duel kernels of every system (their sums they keep
    their own way)."""
    k = outcome_index(result, n_sides)
    outcome_counts[k] += 1
    end_hist[k, finish] += 1
    out_hist[0, out0] += 1
    out_hist[1, out1] += 1
    death_hist[0, death0] += 1
    death_hist[1, death1] += 1


@jit(inline="always")
def tally_trial(result, finish, n_sides, c_out, c_death, c_dealt, c_taken, c_attacks, c_landed,
                tl):  # fmt: skip
    """A streamed trial into the tally (``tl``, a :class:`Streamed`): its outcome and end, and
    per combatant the time unit it went out and died and its sums, from the trial's
    per-combatant counters (the kernels that keep them in arrays; the histograms' last bins
    hold every later time: a kernel's ``finish`` and times never pass them)."""
    (_, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum, taken_sq,
     attacks_sum, landed_sum) = tl  # fmt: skip
    k = outcome_index(result, n_sides)
    outcome_counts[k] += 1
    end_hist[k, finish] += 1
    for c in range(c_out.shape[0]):
        out_hist[c, c_out[c]] += 1
        death_hist[c, c_death[c]] += 1
        dealt_sum[c] += c_dealt[c]
        dealt_sq[c] += c_dealt[c] * c_dealt[c]
        taken_sum[c] += c_taken[c]
        taken_sq[c] += c_taken[c] * c_taken[c]
        attacks_sum[c] += c_attacks[c]
        landed_sum[c] += c_landed[c]


@jit
def _tally(
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, n_sides,
    outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum, taken_sq,
    attacks_sum, landed_sum, end_excess, end_excess_sq, out_excess, death_excess,
):  # fmt: skip
    n, n_comb = out_slot.shape
    last = np.int64(end_hist.shape[1] - 1)
    for j in range(n):
        k = outcome_index(winner[j], n_sides)
        outcome_counts[k] += 1
        t = np.int64(end_slot[j])
        b, over = _bin(t, last)
        end_hist[k, b] += 1
        end_excess[k] += over
        end_excess_sq[k] += t * t - b * b
        for c in range(n_comb):
            b, over = _bin(np.int64(out_slot[j, c]), last)
            out_hist[c, b] += 1
            out_excess[c] += over
            b, over = _bin(np.int64(death_slot[j, c]), last)
            death_hist[c, b] += 1
            death_excess[c] += over
            d = np.int64(dealt[j, c])
            dealt_sum[c] += d
            dealt_sq[c] += d * d
            d = np.int64(taken[j, c])
            taken_sum[c] += d
            taken_sq[c] += d * d
            attacks_sum[c] += attacks[j, c]
            landed_sum[c] += landed[j, c]


@jit(inline="always")
def record_trial(j, result, finish, c_out, c_death, c_dealt, c_taken, c_attacks, c_landed, winner,
                 end_slot, out_slot, death_slot, dealt, taken, attacks, landed):  # fmt: skip
    """Trial ``j``'s row of the outcomes every kernel writes (:class:`TrialOutcomes`): the
    winner (or DRAW, UNRESOLVED), the time it ended, and per combatant the time it went out and
    died (0: never), damage dealt and taken, attacks made and landed, from the trial's
    per-combatant counters. Kernels that keep their counters in arrays call it at a trial's
    end, so the shared row is written in one place."""
    winner[j] = result
    end_slot[j] = finish
    for c in range(c_out.shape[0]):
        out_slot[j, c] = c_out[c]
        death_slot[j, c] = c_death[c]
        dealt[j, c] = c_dealt[c]
        taken[j, c] = c_taken[c]
        attacks[j, c] = c_attacks[c]
        landed[j, c] = c_landed[c]
