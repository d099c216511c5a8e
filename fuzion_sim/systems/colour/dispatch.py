"""Which colour kernel runs a fight: the duel kernel for one against one when every attack of
the fight is static (``tables.py``) and nothing else can happen in it, else the general
kernel. :func:`blocking_reasons` says what keeps a fight from a kernel."""

from __future__ import annotations

from . import codes as k

__all__ = ["KERNELS", "blocking_reasons", "kernel_for"]

#: The kernels, fastest first.
KERNELS = ("duel", "general")


def blocking_reasons(plan, kernel: str) -> list[str]:
    """What in ``plan`` the ``kernel`` does not honour (empty: it honours everything)."""
    if kernel == "general":
        return []
    why = []
    mem, opts = plan.mem, plan.opts
    if plan.n_combatants != 2 or plan.n_sides != 2:
        why.append(f"{plan.n_combatants} combatants on {plan.n_sides} sides (a duel is 1 v 1)")
        return why
    for a in (0, 1):
        n_act = int(mem[a, k.M_N_ACTIONS])
        for j in range(n_act):
            if plan.pair_tab[a, j, 1 - a] < 0:
                why.append(f"combatant {a}'s action {j} is not static (see tables.py)")
        if mem[a, k.M_AIM]:
            why.append("sniping (aim)")
        if mem[a, k.M_W_SHOTS] >= 0:
            why.append("ammunition")
        if mem[a, k.M_FINISH]:
            why.append("finish_fallen")
    if opts[k.O_SHIELD_PER_ROUND] and (mem[0, k.M_HAS_SHIELD] or mem[1, k.M_HAS_SHIELD]):
        why.append("a shield mode chosen each round")
    if opts[k.O_HEALTH_TRACKS]:
        why.append("health_tracks_endurance")
    if opts[k.O_TIES] == k.TIE_SIMULTANEOUS:
        why.append("simultaneous initiative ties")
    return why


def kernel_for(plan) -> str:
    """The fastest kernel that honours every key of ``plan``."""
    for kernel in KERNELS:
        if not blocking_reasons(plan, kernel):
            return kernel
    return "general"  # pragma: no cover
