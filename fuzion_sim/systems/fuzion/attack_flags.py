"""Fuzion's flag form of ``fuzion-sim attack``: the exact odds of one attack from numbers on the
command line (``attack --av 11 --dv-base 9 --dc 4 --pd 6``), one autofire attack or a burst."""

from __future__ import annotations

import click

from ...errors import FuzionSimError
from .model import CAMPAIGNS

__all__ = ["OPTIONS", "flag_attack"]

_N = click.IntRange(min=0)

#: The flag form's options (the shared ``attack`` command adds them).
OPTIONS = [
    click.Option(["--av"], type=int, help="Fuzion flag form: the attacker's action value."),
    click.Option(["--dv-base"], type=int, help="The defender's DEX + defence skill + mods."),
    click.Option(["--dc"], type=_N, help="Damage class (d6)."),
    click.Option(["--pd"], type=_N, help="The target's armour PD (default 0)."),
    click.Option(["--sd"], type=_N, help="The target's Stun Defense (default 0)."),
    click.Option(["--damage"], type=click.Choice(["killing", "stun"]), help="Default killing."),
    click.Option(["--dice"], type=click.Choice(["hero", "interlock"]), help="Default hero."),
    click.Option(["--criticals"], type=click.Choice(["both", "attacker", "none"]),
                 help="Default both."),
    click.Option(["--hit-locations"], is_flag=True, help="Each hit rolls 3d6 for a location."),
    click.Option(["--covers"], help="With --hit-locations: armour covers only these."),
    click.Option(["--knockback-body"], type=_N, help="Target's BODY: add knockback (F28)."),
    click.Option(["--autofire", "shots"], type=click.IntRange(min=1),
                 help="Autofire SHOTS (F15; AV before -1/10)."),
    click.Option(["--ratio"], type=click.IntRange(min=1), help="Autofire ratio."),
    click.Option(["--campaign"], type=click.Choice(CAMPAIGNS),
                 help="Autofire ratio by campaign style, instead of --ratio."),
    click.Option(["--autofire-hits", "rule"], type=click.Choice(["ceil_margin", "one_plus_floor"]),
                 help="Autofire hits reading (default ceil_margin)."),
    click.Option(["--burst"], is_flag=True, help="A 3-shot burst: ceil(1d6/2) bullets hit (F16)."),
]


def flag_attack(flags: dict, rows: int, as_json: bool, dump) -> None:
    """Work out and print the flag form's attack (``flags``: the options above by name)."""
    from . import exact
    from .tables import autofire_ratio
    from .tables import hit_locations as location_table

    f = dict(flags)
    for name in ("av", "dv_base", "dc"):
        if f[name] is None:
            raise FuzionSimError(
                f"the flag form of attack needs --av, --dv-base and --dc (missing "
                f"--{name.replace('_', '-')}); or give a SCENARIO with --attacker and --target"
            )
    av, dv_base, dc = f["av"], f["dv_base"], f["dc"]
    shots, ratio, campaign, rule = f["shots"], f["ratio"], f["campaign"], f["rule"]
    burst = f["burst"]
    if shots is None and (ratio is not None or campaign is not None or rule is not None):
        raise FuzionSimError("--ratio, --campaign and --autofire-hits need --autofire SHOTS")
    if burst and shots is not None:
        raise FuzionSimError("--burst and --autofire are exclusive (a burst is 3 shots)")
    if shots is not None:
        if ratio is not None and campaign is not None:
            raise FuzionSimError("give --ratio or --campaign, not both")
        if ratio is None and campaign is None:
            raise FuzionSimError("--autofire needs --ratio R or --campaign STYLE")
        ratio = ratio if ratio is not None else autofire_ratio(campaign)
    if f["knockback_body"] is not None and (burst or shots is not None):
        raise FuzionSimError(
            "--knockback-body applies to a single attack, not to --autofire or --burst"
        )
    armor_covers = None
    if f["covers"] is not None:
        if not f["hit_locations"]:
            raise FuzionSimError("--covers needs --hit-locations")
        armor_covers = {c.strip() for c in f["covers"].split(",") if c.strip()}
        known = location_table().names
        unknown = sorted(armor_covers - set(known))
        if unknown:
            raise FuzionSimError(
                f"--covers: unknown location {unknown[0]!r}; known: {', '.join(known)}"
            )
    damage, dice = f["damage"] or "killing", f["dice"] or "hero"
    criticals = f["criticals"] or "both"
    per_hit = dict(pd=f["pd"] or 0, sd=f["sd"] or 0, damage=damage, dice=dice,
                   criticals=criticals, hit_locations=bool(f["hit_locations"]),
                   armor_covers=armor_covers)  # fmt: skip
    if shots is not None:
        res = exact.autofire(av, dv_base, dc, shots, ratio, rule=rule or "ceil_margin", **per_hit)
    elif burst:
        res = exact.burst(av, dv_base, dc, **per_hit)
    else:
        res = exact.attack(av, dv_base, dc, **per_hit)
    kb = None
    if f["knockback_body"] is not None:
        kb = exact.knockback(dc, f["knockback_body"], av, dv_base, dice=dice, criticals=criticals)
    if as_json:
        out = res.to_json_dict()
        if kb is not None:
            out["knockback"] = {"mean": float(kb.mean), "pmf": kb.to_dict()}
        dump(out)
    else:
        from .render import render_attack

        render_attack(res, damage, knockback=kb, rows=rows)
