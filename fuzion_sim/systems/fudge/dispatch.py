"""Which kernel runs a FUDGE fight: the one table of what the duel kernel honours.

The general kernel (``kernel.py``) runs every rule; the duel kernel (``kernel_duel.py``) runs a
one-against-one gunfight faster. A kernel that ignored part of a scenario would give wrong
numbers nobody could see, so :data:`DUEL_HONOURS` lists, for every condition under which the
duel kernel gives exactly the general kernel's fight, what it means when it fails (for
``validate``). The tests hold the duel kernel to the general one bit for bit.
"""

from __future__ import annotations

from . import codes as k
from .compile import Plan

__all__ = ["DUEL_HONOURS", "KERNELS", "blocking_reasons", "kernel_for"]

#: The kernels, the fastest first; ``general`` honours everything.
KERNELS = ("duel", "general")


def _two_shooters(plan: Plan) -> bool:
    return (plan.n_combatants == 2 and plan.n_sides == 2 and bool(plan.shooter.all())
            and bool(plan.pair_ok[1]) and bool(plan.pair_ok[2]))  # fmt: skip


#: (condition on the plan, what it means when it fails).
DUEL_HONOURS = (
    (_two_shooters, "not one armed member against one who can shoot each other"),
    (lambda p: p.options[k.OPT_ORDER] == k.ORDER_FIXED, "rules.order is not fixed"),
    (lambda p: not p.options[k.OPT_DODGE], "rules.ranged_defence: dodge"),
    (lambda p: p.options[k.OPT_LOCATIONS] == k.LOC_NONE, "hit locations"),
    (lambda p: not p.options[k.OPT_CRITICAL], "rules.shot_critical: incapacitate"),
    (lambda p: bool((p.blast_type < 0).all()), "a weapon with a blast"),
)


def blocking_reasons(plan: Plan) -> list[str]:
    """Why the duel kernel cannot run ``plan`` (empty: it can)."""
    return [why for ok, why in DUEL_HONOURS if not ok(plan)]


def kernel_for(plan: Plan) -> str:
    """The fastest kernel that honours the plan."""
    return "general" if blocking_reasons(plan) else "duel"
