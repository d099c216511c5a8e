"""The ``fuzion-sim`` command: parse, call the public API, render. No rules here.

Bad input prints one line, ``fuzion-sim: error: <file>:<line>: <key path>: <what is wrong>``,
and exits with status 2; never a traceback.
"""

from __future__ import annotations

import json
import sys

import click

from . import api
from .errors import FuzionSimError
from .scenario import load_scenario

EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    click.echo(f"fuzion-sim: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def _load(path: str, overrides=()):
    scenario = load_scenario(path, overrides=list(overrides))
    for warning in scenario.warnings:
        click.echo(f"fuzion-sim: warning: {warning}", err=True)
    return scenario


def _dump(obj) -> None:
    click.echo(json.dumps(obj, indent=None, separators=(",", ": ")))


class _Group(click.Group):
    """Turns user-input errors raised anywhere below into one line and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except FuzionSimError as err:
            _fail(str(err))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fuzion_sim")
def cli():
    """Monte Carlo balance analysis for Fuzion combat."""


@cli.command()
@click.argument("scenario")
@click.option("--trials", type=click.IntRange(min=1), help="Override the scenario's trials.")
@click.option("--seed", type=click.IntRange(min=0), help="Override the scenario's seed.")
@click.option("--dice", type=click.Choice(["hero", "interlock"]), help="Override rules.dice.")
@click.option("--threads", type=click.IntRange(min=1), help="Worker threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def run(scenario, trials, seed, dice, threads, as_json):
    """Simulate SCENARIO and report who wins, how often, and how long it takes."""
    overrides = [("rules.dice", dice)] if dice else []
    result = api.simulate(_load(scenario, overrides), trials=trials, seed=seed, threads=threads)
    if as_json:
        _dump(result.to_json_dict())
    else:
        from .report.text import render_result

        render_result(result)


@cli.command()
@click.option("--av", type=int, required=True, help="Attacker's action value (all modifiers in).")
@click.option("--dv-base", type=int, required=True, help="Defender's DEX + defence skill + mods.")
@click.option("--dc", type=click.IntRange(min=0), required=True, help="Damage class (d6).")
@click.option("--pd", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--sd", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--damage", type=click.Choice(["killing", "stun"]), default="killing")
@click.option("--dice", type=click.Choice(["hero", "interlock"]), default="hero")
@click.option("--criticals", type=click.Choice(["both", "attacker", "none"]), default="both")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def attack(av, dv_base, dc, pd, sd, damage, dice, criticals, as_json):
    """Exact odds and damage distribution of one attack."""
    from .systems.fuzion import exact

    res = exact.attack(av, dv_base, dc, pd=pd, sd=sd, damage=damage, dice=dice, criticals=criticals)
    if as_json:
        _dump(res.to_json_dict())
    else:
        from .report.text import render_attack

        render_attack(res, damage)


@cli.command()
@click.argument("scenario")
def validate(scenario):
    """Check SCENARIO and print what it resolves to."""
    sc = _load(scenario)
    click.echo(
        f"{scenario}: ok: {sc.name!r}, system {sc.system}, {sc.trials} trials, seed {sc.seed}"
    )
    for side, members in sc.sides.items():
        for c in members:
            armour = f", {c.armor.name} (PD {c.armor.pd})" if c.armor.pd or c.armor.ekd else ""
            click.echo(
                f"  {side}: {c.name}: {c.weapon.name} (DC {c.weapon.dc}, {c.weapon.skill}"
                f" {c.skill(c.weapon.skill)}){armour}, Hits {c.derived['hits']},"
                f" Stun {c.derived['stun']}, at {c.position:g} m"
            )


@cli.command()
@click.argument("kind", type=click.Choice(["weapons", "armor", "skills"]), default="weapons")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def catalog(kind, as_json):
    """List the catalogue's weapons, armour or skills."""
    from .scenario import catalogue

    entries = {
        "weapons": catalogue.weapon_entries,
        "armor": catalogue.armor_entries,
        "skills": lambda: [{"name": s} for s in catalogue.skills()],
    }[kind]()
    if as_json:
        _dump({kind: list(entries)})
        return
    from .report.text import render_catalog

    render_catalog(kind, list(entries))


def main(argv=None) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="fuzion-sim")


if __name__ == "__main__":
    main()
