"""Which colour kernel runs a fight: the duel kernel (state in scalars) for one against one and
the squad kernel for any other fight in which every attack is static (``tables.py``) and
nothing else can happen (no aim, magazine, finishing the fallen, aid, shield modes chosen each
round, simultaneous initiative, Health falling with Endurance); the general kernel otherwise.
:func:`blocking_reasons` says what keeps a fight from a kernel."""

from __future__ import annotations

import numpy as np

from . import codes as k

__all__ = ["KERNELS", "blocking_reasons", "kernel_for"]

#: The kernels, fastest first.
KERNELS = ("duel", "squad", "general")


def blocking_reasons(plan, kernel: str) -> list[str]:
    """What in ``plan`` (a ``compile.Plan``) the ``kernel`` does not honour (empty: it
    honours everything)."""
    if kernel == "general":
        return []
    why = []
    mem, opts = plan.mem, plan.opts
    n = plan.n_combatants
    if kernel == "duel" and (n != 2 or plan.n_sides != 2):
        why.append(f"{n} combatants on {plan.n_sides} sides (a duel is one against one)")
    side = mem[:, k.M_SIDE]
    for a in range(n):
        enemy = side != side[a]
        for j in range(int(mem[a, k.M_N_ACTIONS])):
            dynamic = enemy & (plan.pair_tab[a, j] < 0)
            if dynamic.any():
                t = int(np.argmax(dynamic))
                why.append(f"combatant {a}'s action {j + 1} on combatant {t} is worked out "
                           "rule by rule (not static, see tables.py)")  # fmt: skip
        for key, what in ((k.M_AIM, "sniping (aim)"), (k.M_FINISH, "finish_fallen")):
            if mem[a, key]:
                why.append(what)
        if mem[a, k.M_W_SHOTS] >= 0:
            why.append("a magazine (ammunition)")
    if opts[k.O_SHIELD_PER_ROUND] and mem[:, k.M_HAS_SHIELD].any():
        why.append("a shield mode chosen each round")
    for option, what in ((k.O_HEALTH_TRACKS, "health_tracks_endurance"), (k.O_AID, "aid_fallen")):
        if opts[option]:
            why.append(what)
    if opts[k.O_TIES] == k.TIE_SIMULTANEOUS:
        why.append("simultaneous initiative ties")
    return list(dict.fromkeys(why))


def kernel_for(plan) -> str:
    """The fastest kernel that honours every key of ``plan``."""
    for kernel in KERNELS:
        if not blocking_reasons(plan, kernel):
            return kernel
    return "general"  # pragma: no cover
