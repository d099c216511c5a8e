"""How Fuzion's exact results read on a terminal: the flag form of ``fuzion-sim attack``."""

from __future__ import annotations

from ...pmf_rows import DEFAULT_ROWS
from ...terminal import console, new_table, pmf_table, show

__all__ = ["render_attack"]


def render_attack(res, damage: str, knockback=None, rows: int = DEFAULT_ROWS) -> None:
    """P(hit) and the damage distribution of one attack.

    Parameters
    ----------
    res : AttackResult or AutofireResult
        An exact result (an autofire result adds the distribution of bullets that hit, and its
        damage is the total over all hits); with hit locations each location's probability is
        listed.
    damage : str
        ``"killing"`` or ``"stun"``, for the headline.
    knockback : Pmf, optional
        The knockback distribution in units, added as a table.
    rows : int
        The most rows of each distribution's table; outcomes past them are merged into one
        "N or more" row and a line says how much probability it holds.
    """
    con = console()
    hits = getattr(res, "hits", None)
    total = "total " if hits is not None else ""
    con.print(
        f"P(hit) = {res.p_hit:.6f}; mean {total}{damage} damage after defences = {res.mean:.4f}"
    )
    if hits is not None:
        penalty = f", attack penalty -{res.penalty}" if res.penalty else ""
        con.print(f"{res.shots} shots{penalty}; mean bullets that hit = {hits.mean:.4f}")
        pmf_table(con, "Bullets that hit (a miss counts 0)", "hits", hits.to_dict(), rows)
    title = "Total damage over all hits" if hits is not None else "Damage after defences"
    pmf_table(con, f"{title} (a miss counts 0)", "damage", res.damage.to_dict(), rows)
    locations = getattr(res, "locations", None)
    if locations:
        table = new_table(["location", "probability"], right=["probability"])
        for name, p in locations.items():
            table.add_row(name, f"{p:.6f}")
        show(con, "Hit location (per hit)", table)
    if knockback is not None:
        con.print(f"mean knockback = {knockback.mean:.4f} units")
        pmf_table(con, "Knockback (a miss counts 0)", "units", knockback.to_dict(), rows)
