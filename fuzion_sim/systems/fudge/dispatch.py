"""Which kernel runs a FUDGE fight: the tables of what each specialised kernel honours.

The general kernel (``kernel.py``) runs every rule; the battle kernel (``kernel_battle.py``)
runs gunfights of many shooters faster, and the duel kernel (``kernel_duel.py``) a
one-against-one gunfight faster still. A kernel that ignored part of a scenario would give wrong
numbers nobody could see, so :data:`BATTLE_HONOURS` and :data:`DUEL_HONOURS` list, for every
condition under which the kernel gives exactly the general kernel's fight, what it means when
it fails (for ``validate``). The tests hold both to the general kernel trial by trial.
"""

from __future__ import annotations

import numpy as np

from . import codes as k
from .compile import Plan

__all__ = [
    "BATTLE_HONOURS", "DUEL_HONOURS", "KERNELS", "MAX_SHOT_CLASSES", "blocking_reasons",
    "kernel_for", "shot_classes",
]  # fmt: skip

#: The kernels, the fastest first; ``general`` honours everything.
KERNELS = ("duel", "battle", "general")
#: The most kinds of shot (``shot_classes``) the battle kernel tabulates: 6,561 entries each.
MAX_SHOT_CLASSES = 256
#: The targeting tactics the battle kernel honours: both shoot the first of a fixed list.
_BATTLE_TARGETING = (k.T_FIRST, k.T_NEAREST)


def shot_classes(plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """The shots of a fight by kind: ``(pairs, cls)`` with ``pairs`` (int64[K, 2]) an
    attacker-target pair of each kind and ``cls`` (int32[C * C]) the kind of each pair ``a * C
    + t`` in which ``a`` shoots and may shoot member ``t`` (-1 elsewhere). Two pairs are of
    one kind when a shot of each has the same outcome for every roll (without dodge or hit
    location): the same skill, bonus, result needed and damage row."""
    n = plan.n_combatants
    a, t = np.divmod(np.arange(n * n), n)
    ok = (plan.pair_ok != 0) & (plan.shooter[a] != 0) & (plan.kind[t] == k.KIND_MEMBER)
    q = np.flatnonzero(ok)
    dmg = plan.pair_dmg.reshape(n * n, plan.n_dmg_parts, 9)[q, 0, :].astype(np.int64)
    rows = np.column_stack([plan.skill[a[q]], plan.pair_bonus[q], plan.pair_need[q], dmg])
    cls = np.full(n * n, -1, np.int32)
    if q.size == 0:
        return np.zeros((0, 2), np.int64), cls
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    cls[q] = inverse.reshape(-1)
    return np.column_stack([a[q[first]], t[q[first]]]).astype(np.int64), cls


def _two_shooters(plan: Plan) -> bool:
    return (plan.n_combatants == 2 and plan.n_sides == 2 and bool(plan.shooter.all())
            and bool(plan.pair_ok[1]) and bool(plan.pair_ok[2]))  # fmt: skip


#: (condition on the plan, what it means when it fails) for the battle kernel.
BATTLE_HONOURS = (
    (lambda p: bool((p.kind == k.KIND_MEMBER).all()), "a charge or a barrier"),
    (lambda p: p.options[k.OPT_ORDER] == k.ORDER_FIXED, "rules.order is not fixed"),
    (lambda p: not p.options[k.OPT_DODGE], "rules.ranged_defence: dodge"),
    (lambda p: p.options[k.OPT_LOCATIONS] == k.LOC_NONE, "hit locations"),
    (lambda p: not p.options[k.OPT_CRITICAL], "rules.shot_critical: incapacitate"),
    (lambda p: bool((p.blast_type < 0).all()), "a weapon with a blast"),
    (lambda p: bool(np.isin(p.targeting[p.shooter != 0], _BATTLE_TARGETING).all()),
     "targeting weakest, strongest or random"),
    (lambda p: len(shot_classes(p)[0]) <= MAX_SHOT_CLASSES,
     f"more than {MAX_SHOT_CLASSES} kinds of shot"),
)  # fmt: skip

#: The same for the duel kernel: a battle of one shooter against one.
DUEL_HONOURS = (
    (_two_shooters, "not one armed member against one who can shoot each other"),
    *BATTLE_HONOURS[1:6],
)


def blocking_reasons(plan: Plan, kernel: str = "duel") -> list[str]:
    """Why ``kernel`` (``duel`` or ``battle``) cannot run ``plan`` (empty: it can)."""
    table = DUEL_HONOURS if kernel == "duel" else BATTLE_HONOURS
    return [why for ok, why in table if not ok(plan)]


def kernel_for(plan: Plan) -> str:
    """The fastest kernel that honours the plan."""
    for name in KERNELS[:-1]:
        if not blocking_reasons(plan, name):
            return name
    return "general"
