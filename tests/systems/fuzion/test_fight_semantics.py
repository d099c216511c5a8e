"""Fight semantics of RULINGS F21-F26 through the whole kernel: dying, bleeding and death,
stunned, knock-out and waking, impairment, initiative order."""

from __future__ import annotations

import math
from functools import partial

import fight_log
import numpy as np
from fight_log import HARMLESS, fighter

#: A run of the fight's sides, twenty rounds long unless told.
run = partial(fight_log.run, max_rounds=20)


def test_dying_is_out_unless_dying_can_act():
    """A dying target (Hits <= 0) ends the fight at once by default; with dying_can_act it
    fights on while it has Stun, bleeds 1 Hit a round and dies at -2 x BODY."""
    sides = {
        "red": [fighter("Gun")],
        "blue": [fighter("Tough", 3, weapon=HARMLESS, hits=6, stun=500,
                         stats={"DEX": 5, "BODY": 3}, armor="Light Kevlar")],
    }  # fmt: skip
    default = run(sides)
    assert default.win_probability("red") == 1.0
    # ended while dying, not dead: only a hit from 6 Hits to <= -6 kills outright
    assert default.tally.death_hist[1, 0] / default.trials > 0.5
    acting = run(sides, dying_can_act=True)
    assert acting.win_probability("red") == 1.0
    assert acting.tally.death_hist[1, 0] == 0  # every fight ends with the target dead
    assert acting.kill_time()["mean"] > default.kill_time()["mean"]


def test_stunned_costs_the_victim_actions():
    """Heavy Stun blows (more than half the victim's Stun in one attack) cost it its next
    action: with the switch on, the victim makes fewer attacks."""
    club = {"name": "Maul", "dc": 6, "damage": "stun", "skill": "Handgun", "range": 50}
    sides = {
        "red": [fighter("Bruiser", weapon=club)],
        "blue": [fighter("Victim", 3, stun=30, hits=60, stats={"DEX": 5, "CON": 1, "BODY": 12})],
    }  # fmt: skip
    on = run(sides, max_rounds=1, stunned=True)
    off = run(sides, max_rounds=1, stunned=False)
    victim_on = on.tally.attacks_sum[1] / on.trials
    victim_off = off.tally.attacks_sum[1] / off.trials
    assert victim_on < victim_off - 0.1


def test_knocked_out_ally_wakes_up():
    """A side of two: a knocked-out member with Hits left regains REC Stun each phase from
    0 to -10 and comes back; with REC 0 it never does, so the side loses more often."""
    stun_gun = {"name": "Stunner", "dc": 5, "damage": "stun", "skill": "Handgun", "range": 50}

    def red(rec):
        body = {"stun": 15, "hits": 40, "rec": rec, "stats": {"DEX": 5, "CON": 2, "BODY": 8}}
        return [fighter("Red1", **body), fighter("Red2", **body)]

    blue = [fighter("Blue", 3, weapon=stun_gun, stun=60, hits=60, armor="Light Kevlar",
                    stats={"DEX": 5, "BODY": 12})]  # fmt: skip
    wakes = run({"red": red(10), "blue": blue}, stunned=False)
    sleeps = run({"red": red(0), "blue": blue}, stunned=False)
    assert wakes.win_probability("red") > sleeps.win_probability("red") + 0.02


def test_impairment_lowers_the_wounded_sides_odds():
    sides = {"a": [fighter("A")], "b": [fighter("B", 3)]}
    on = run(sides, trials=60_000, impairment=True)
    off = run(sides, trials=60_000, impairment=False)
    # same fight, same seed: impairment changes the outcome distribution measurably
    p_on, p_off = on.kill_time()["mean"], off.kill_time()["mean"]
    se = math.hypot(on.kill_time()["se"], off.kill_time()["se"])
    assert abs(p_on - p_off) > 4 * se


def test_initiative_higher_ref_acts_first():
    """Equal gunmen, one faster: the faster one wins more than half; equal REF ties are
    broken per fight by a die roll, so the identical pair splits evenly."""
    fast = run({"a": [fighter("Fast", stats={"REF": 7, "DEX": 5})], "b": [fighter("Slow", 3)]},
               trials=60_000, impairment=False, stunned=False)  # fmt: skip
    assert fast.win_probability("a") > 0.52
    tie = run({"a": [fighter("A")], "b": [fighter("B", 3)]}, trials=60_000,
              impairment=False, stunned=False)  # fmt: skip
    p = tie.win_probability("a")
    assert abs(p - 0.5) < 4 * math.sqrt(0.25 / tie.trials)
    assert np.all(tie.tally.attacks_sum > 0)
