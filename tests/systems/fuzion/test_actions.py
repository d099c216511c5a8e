"""Every action, modifier and tactic from YAML (dicts) to the kernel's event log.

Each test builds a small fight, runs fixed trials with their event log (``fight_log.logged``,
the raw ``run_logged`` arrays) and checks the seed's own numbers: attack values against the
sheet, damage dice ranges, metres moved, who acts when. Statistical checks use a fixed seed and
4 standard errors.
"""

from __future__ import annotations

import math
from importlib import resources

import numpy as np
import pytest
import yaml
from fight_log import (
    HARMLESS,
    IDLE,
    STUN_GUN,
    dummy,
    events_of,
    fighter,
    logged,
    run,
    scenario,
)

from fuzion_sim.systems.fuzion.rules import range_modifier

SURE = {"Handgun": 30, "Hand to Hand": 30}  # only a natural 3 (1 in 216) can miss
BASE_AV = 6 + 4 - 4  # the standard fighter at 20 m: REF 6 + Handgun 4, Medium range -4
KATANA_AV = 6 + 4 + 2  # REF 6 + Melee 4 + WA 2


def attacks(events, actor=None, target=None):
    return [
        e for e in events
        if e["kind"] == "attack" and (actor is None or e["actor"] == actor)
        and (target is None or e["target"] == target)
    ]  # fmt: skip


def first_attack_av(sides, rules=None, attacker="A"):
    sc = scenario(sides, max_rounds=1, **(rules or {}))
    return attacks(logged(sc)[1], attacker)[0]


def mean_ok(values, mean, sd):
    return abs(np.mean(values) - mean) <= 4 * sd / math.sqrt(len(values))


def nd6_sd(n):
    return math.sqrt(n * 35 / 12)


# --- aim ------------------------------------------------------------------------------------


def test_aim_adds_one_per_action_capped_at_3():
    """F11: +1 per action aiming, at most +3: an always-aiming gunman shows 1, 2, 3, 3, ..."""
    sc = scenario({"a": [fighter("A", tactics=[{"do": "aim"}])], "b": [dummy()]})
    aims = [e["raw"] for e in events_of(sc, kind="aim", actor="A")]
    assert aims == [1, 2, 3] + [3] * 9


def test_aim_to_3_then_fire_is_3_higher_and_the_shot_spends_it():
    sniper = [{"when": "aim < 3", "do": "aim"}, {"do": "attack"}]
    sc = scenario({"a": [fighter("A", tactics=sniper)], "b": [dummy()]}, max_rounds=4)
    _, events = logged(sc)
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == ["aim", "aim", "aim", "attack"] * 4
    assert [e["raw"] for e in mine if e["kind"] == "aim"] == [1, 2, 3] * 4
    assert {e["av"] for e in attacks(events, "A")} == {BASE_AV + 3}
    plain = scenario({"a": [fighter("A")], "b": [dummy()]})
    assert {e["av"] for e in attacks(logged(plain)[1], "A")} == {BASE_AV}


def test_the_preset_sniper_aims_to_3():
    sc = scenario({"a": [fighter("A", tactics="sniper")], "b": [dummy()]}, max_rounds=2)
    assert {e["av"] for e in attacks(logged(sc)[1], "A")} == {BASE_AV + 3}


def test_aim_is_lost_when_the_aimer_moves():
    tac = [{"when": "phase == 3", "do": "run", "toward": "away"}, {"do": "aim"}]
    sc = scenario({"a": [fighter("A", tactics=tac)], "b": [dummy()]})
    _, events = logged(sc)
    mine = [(e["kind"], e["raw"]) for e in events if e.get("actor") == "A"]
    assert mine[:7] == [("aim", 1), ("aim", 2), ("move", 1000), ("aim", 1), ("aim", 2),
                        ("aim", 3), ("aim", 3)]  # fmt: skip


def test_aim_is_lost_when_the_aimer_is_hit():
    """A sure shot (DC 1 killing, so always something through) hits the aimer in phase 2
    only: its aim goes 1, 2, then starts again at 1."""
    shooter = fighter("S", 20, skills=SURE, weapon={"name": "Pin", "dc": 1, "skill": "Handgun"},
                      tactics=[{"when": "phase == 2", "do": "attack"}, {"do": "none"}])  # fmt: skip
    aimer = fighter("A", stats={"REF": 8, "DEX": 5}, hits=500, tactics=[{"do": "aim"}])
    sc = scenario({"a": [aimer], "b": [shooter]})
    for trial in range(3):
        _, events = logged(sc, trial)
        shot = attacks(events, "S")[0]
        assert shot["hit"] and shot["through"] > 0
        aims = [e["raw"] for e in events if e["kind"] == "aim"]
        assert aims[:6] == [1, 2, 1, 2, 3, 3]


def test_melee_weapons_cannot_aim():
    sc = scenario({"a": [fighter("A", weapon="Katana", tactics=[{"do": "aim"}])],
                   "b": [dummy()]})  # fmt: skip
    assert {e["raw"] for e in events_of(sc, kind="aim", actor="A")} == {0}


# --- static modifiers: cover, posture, size, silhouette, braced, the GM's flat modifier ------


RANGED_TARGET = [
    ({"cover": "half_body"}, -2), ({"cover": "head_and_shoulders"}, -3),
    ({"cover": "head_only"}, -4), ({"cover": "behind_someone"}, -4), ({"prone": True}, -2),
    ({"crouched": True}, -1), ({"silhouetted": True}, 2), ({"size": "tiny"}, -6),
    ({"size": "small"}, -4), ({"size": "large"}, 2), ({"size": "very_large"}, 4),
    ({"cover": "half_body", "prone": True, "silhouetted": True}, -2),
]  # fmt: skip


@pytest.mark.parametrize(("target_extra", "delta"), RANGED_TARGET)
def test_ranged_target_modifiers(target_extra, delta):
    """F11, the seed's ranged cover and situation tables: the logged AV moves by the table."""
    shot = first_attack_av({"a": [fighter("A")], "b": [dummy(**target_extra)]})
    assert shot["av"] == BASE_AV + delta
    assert shot["dv"] == 5  # the defence never moves


@pytest.mark.parametrize(
    ("attacker_extra", "delta"),
    [({"braced": True}, 2), ({"modifiers": -3}, -3), ({"modifiers": 2, "braced": True}, 4)],
)
def test_ranged_attacker_modifiers(attacker_extra, delta):
    shot = first_attack_av({"a": [fighter("A", **attacker_extra)], "b": [dummy()]})
    assert shot["av"] == BASE_AV + delta


MELEE_TARGET = [
    ({"cover": "half_body"}, -1), ({"cover": "head_and_shoulders"}, -1),
    ({"cover": "head_only"}, -2), ({"cover": "behind_someone"}, -2), ({"prone": True}, 0),
    ({"crouched": True}, 0), ({"silhouetted": True}, 0), ({"size": "tiny"}, 0),
]  # fmt: skip


@pytest.mark.parametrize(("target_extra", "delta"), MELEE_TARGET)
def test_melee_target_modifiers(target_extra, delta):
    """The seed's melee cover table (-1/-1/-2/-2); posture, size and silhouette are ranged."""
    katana = fighter("A", weapon="Katana", skills={"Melee": 4})
    shot = first_attack_av({"a": [katana], "b": [dummy(position=2, **target_extra)]})
    assert shot["av"] == KATANA_AV + delta


@pytest.mark.parametrize(
    ("attacker_extra", "delta"), [({"braced": True}, 0), ({"modifiers": -3}, -3)]
)
def test_melee_attacker_modifiers(attacker_extra, delta):
    katana = fighter("A", weapon="Katana", skills={"Melee": 4}, **attacker_extra)
    shot = first_attack_av({"a": [katana], "b": [dummy(position=2)]})
    assert shot["av"] == KATANA_AV + delta


def test_moving_target_minus_1_per_10_m_of_its_last_action():
    """Moving target: -1 per full 10 m the target moved in its last action (sprint 21 m: -2;
    a later non-move action clears it); the range band follows the new distance."""
    runner = dummy("R", 5, stats={"REF": 9, "DEX": 5, "MOVE": 7},
                   tactics=[{"when": "phase <= 2", "do": "sprint", "toward": "away"},
                            {"do": "none"}])  # fmt: skip
    sc = scenario({"a": [fighter("A")], "b": [runner]}, max_rounds=1)
    _, events = logged(sc)
    moves = [e for e in events if e["kind"] == "move"]
    assert [(m["actor"], m["raw"], m["x"]) for m in moves] == [("R", 2100, 26.0), ("R", 2100, 47.0)]
    shots = attacks(events, "A")
    assert [e["time"] for e in shots] == [1, 2, 3, 4]
    assert [e["av"] for e in shots] == [6 + 4 - 4 - 2] * 2 + [6 + 4 - 4] * 2


# --- surprise (also in test_timing) ---------------------------------------------------------


def test_surprise_plus_5_only_against_the_surprised():
    both = {"a": [fighter("A", stats={"REF": 9, "DEX": 5}), dummy("Ally", 1)],
            "b": [dummy("Calm", 20), dummy("Napping", 20, surprised=True)]}  # fmt: skip
    _, events = logged(scenario(both, max_rounds=1))
    assert attacks(events, "A")[0]["target"] == "Calm"
    assert attacks(events, "A")[0]["av"] == 9 + 4 - 4
    both["a"][0]["targeting"] = "strongest"  # equal: the last listed with the top score
    both["b"][0]["hits"] = 5_000  # Napping (10,000, the most a scenario may give) is strongest
    _, events = logged(scenario(both, max_rounds=1))
    assert attacks(events, "A")[0]["target"] == "Napping"
    assert attacks(events, "A")[0]["av"] == 9 + 4 - 4 + 5


# --- unarmed attacks, haymaker, kick, draw & attack -----------------------------------------


UNARMED = [("punch", 0, 0), ("kick", -1, 1), ("haymaker", -3, 3)]


@pytest.mark.parametrize(("action", "av_delta", "extra_dice"), UNARMED)
def test_unarmed_attacks(action, av_delta, extra_dice):
    """F14: punch = STR dice of Stun at REF + Hand to Hand; kick STR + 1 dice at -1; haymaker
    +3 dice at -3. The dice show in the range and the mean of the damage rolled."""
    strength, h2h = 6, 3
    a = fighter("A", stats={"REF": 6, "DEX": 5, "STR": strength}, skills={"Hand to Hand": h2h},
                tactics=[{"do": action}])  # fmt: skip
    sc = scenario({"a": [a], "b": [dummy(position=2)]}, max_rounds=50)
    _, events = logged(sc)
    mine = attacks(events, "A")
    assert len(mine) == 200
    assert {e["av"] for e in mine} == {6 + h2h + av_delta}
    assert {e["action"] for e in mine} == {action}
    n = strength + extra_dice
    raws = [e["raw"] for e in mine]
    assert n <= min(raws) and max(raws) <= 6 * n
    assert mean_ok(raws, 3.5 * n, nd6_sd(n))
    # Stun damage against SD 10: Stun falls by what gets through, Hits by a fifth of it
    stun, hits = 10_000, 10_000
    for e in mine:
        through = max(e["raw"] - 10, 0) * e["hit"]
        assert e["through"] == through
        stun, hits = stun - through, hits - through // 5
        assert (e["stun"], e["hits"]) == (stun, hits)


def test_haymaker_with_a_melee_weapon_adds_3_dice():
    """Katana (DC 4, min STR 2) at STR 6: 4 + 4 extra dice (F13 cap 2 x DC); haymaker 11."""
    a = fighter("A", weapon="Katana", skills={"Melee": 4}, stats={"REF": 6, "STR": 6},
                tactics=[{"do": "haymaker"}])  # fmt: skip
    sc = scenario({"a": [a], "b": [dummy(position=2)]}, max_rounds=40)
    mine = attacks(logged(sc)[1], "A")
    assert {e["av"] for e in mine} == {KATANA_AV - 3}
    raws = [e["raw"] for e in mine]
    assert 11 <= min(raws) and max(raws) <= 66 and max(raws) > 48  # more than 8 dice
    assert mean_ok(raws, 38.5, nd6_sd(11))


def test_draw_and_attack_is_minus_3_with_a_holstered_weapon():
    """Draw & Attack: draw and use a holstered weapon in one action at -3; a plain attack
    with the weapon holstered spends its action drawing (a draw event), then fires at +0."""
    fast = fighter("A", drawn=False, tactics=[{"do": "draw_attack"}])
    mine = attacks(logged(scenario({"a": [fast], "b": [dummy()]}))[1], "A")
    assert len(mine) == 12 and mine[0]["time"] == 1
    assert [e["av"] for e in mine] == [BASE_AV - 3] + [BASE_AV] * 11
    slow = fighter("A", drawn=False)
    _, events = logged(scenario({"a": [slow], "b": [dummy()]}))
    kinds = [(e["time"], e["kind"]) for e in events if e.get("actor") == "A"]
    assert kinds[:3] == [(1, "draw"), (2, "attack"), (3, "attack")]
    assert {e["av"] for e in attacks(events, "A")} == {BASE_AV}


# --- sweep, disarm, choke, entangle and escape ----------------------------------------------


def test_sweep_target_prone_minus_2_next_attack_attacker_plus_2():
    """Sweep/Trip: on a hit the target is knocked down: -2 to its next attack, +2 to the
    sweeper's next; the sweep itself does no damage. The swept target stands up when it next
    acts (a free action)."""
    sweeper = fighter(
        "A",
        stats={"REF": 8, "DEX": 5},
        skills=SURE,
        tactics=[{"when": "phase == 1", "do": "sweep"}, {"do": "punch"}],
    )
    victim = fighter("B", 2, skills={"Hand to Hand": 2}, hits=500, stun=500,
                     tactics=[{"do": "punch"}])  # fmt: skip
    sc = scenario({"a": [sweeper], "b": [victim]}, max_rounds=2)
    for trial in range(3):
        _, events = logged(sc, trial)
        a, b = attacks(events, "A"), attacks(events, "B")
        assert a[0]["action"] == "sweep" and a[0]["hit"] and a[0]["raw"] == 0
        assert a[0]["through"] == 0 and a[0]["stun"] == 500
        assert [e["action"] for e in a[1:]] == ["punch"] * 7
        assert [e["av"] for e in a[1:]] == [8 + 30 + 2] + [8 + 30] * 6
        assert [e["av"] for e in b] == [6 + 2 - 2] + [6 + 2] * 7


def test_disarm_contest_and_the_disarmed_fights_with_fists():
    """Disarm: on a hit, STR + Hand to Hand against the same; a disarmed combatant punches
    (REF + Hand to Hand, STR dice of Stun) from then on."""
    strong = fighter(
        "A",
        stats={"REF": 8, "DEX": 5, "STR": 10},
        skills={"Hand to Hand": 10},
        hits=500,
        stun=500,
        tactics=[{"when": "phase == 2", "do": "disarm"}, {"do": "none"}],
    )
    swordsman = fighter("B", 2, weapon="Katana", skills={"Melee": 4}, hits=500, stun=500,
                        stats={"REF": 6, "STR": 2, "DEX": 5})  # fmt: skip
    sc = scenario({"a": [strong], "b": [swordsman]}, max_rounds=2)
    n_disarmed = 0
    for trial in range(10):
        _, events = logged(sc, trial)
        dis = [e for e in events if e["kind"] == "disarm"]
        tries = [e for e in attacks(events, "A") if e["action"] == "disarm"]
        assert len(tries) == 1 and tries[0]["raw"] == 0 and tries[0]["through"] == 0
        assert len(dis) == int(tries[0]["hit"])
        b = attacks(events, "B")
        # (B STR 2 + 0) against (A STR 10 + 10): any roll wins the contest
        if dis:
            n_disarmed += 1
            assert dis[0]["hit"]
            # B's phase-1 cut with the Katana; A disarms in phase 2 before B acts
            assert [e["av"] for e in b] == [6 + 4 + 2] + [6 + 0] * 7
            for e in b[1:]:
                assert 2 <= e["raw"] <= 12  # 2 dice (STR 2)
        else:
            assert {e["av"] for e in b} == {6 + 4 + 2}
    assert n_disarmed >= 5


def test_disarm_contest_follows_str_plus_hand_to_hand():
    """Evenly matched: the disarm event's flag is the contest roll >= defender's STR + Hand to
    Hand - attacker's; about half the hits disarm."""
    a = fighter("A", stats={"REF": 8, "STR": 5}, skills={"Hand to Hand": 30}, hits=500,
                stun=500, tactics=[{"do": "disarm"}])  # fmt: skip
    b = fighter("B", 2, weapon="Katana", stats={"STR": 5}, skills={"Hand to Hand": 3},
                hits=500, stun=500, tactics=IDLE)  # fmt: skip
    sc = scenario({"a": [a], "b": [b]}, max_rounds=1)
    results = []
    for trial in range(200):
        dis = events_of(sc, trial, kind="disarm")
        assert len(dis) >= 1
        first = dis[0]
        need = (5 + 3) - (5 + 30)
        assert first["hit"] == (first["roll"] >= need)
        results.append(first["hit"])
    assert all(results)  # 35 against 8: the attacker always wins
    a["skills"] = {"Hand to Hand": 3}
    b["skills"] = {"Hand to Hand": 3}
    sc = scenario({"a": [a], "b": [b]}, max_rounds=1)
    wins, n = 0, 0
    for trial in range(300):
        for e in events_of(sc, trial, kind="disarm")[:1]:
            assert e["hit"] == (e["roll"] >= 0)
            wins += e["hit"]
            n += 1
    p = 0.5 + 0.5 * 0.1235  # roll difference >= 0 under 3d6 - 3d6 (ties to the attacker)
    assert n > 100 and abs(wins / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_choke_hold_2d6_killing_each_later_action():
    """Choke: on a hit the target is held (its actions are escape attempts); every later action
    of the choker deals 2D6 killing (logged as attacks with action choke, 2..12), coming off
    Hits."""
    choker = fighter("A", stats={"REF": 8, "STR": 8}, skills=SURE, hits=500, stun=500,
                     tactics=[{"do": "choke"}])  # fmt: skip
    victim = fighter("B", 2, hits=5_000, stun=5_000, weapon=HARMLESS, tactics=[{"do": "attack"}])
    sc = scenario({"a": [choker], "b": [victim]}, max_rounds=25)
    _, events = logged(sc)
    grab = attacks(events, "A")[0]
    assert grab["action"] == "choke" and grab["hit"] and grab["through"] == 0
    chokes = attacks(events, "A")[1:]
    assert len(chokes) == 99  # every later phase: the hold cannot be broken (8 + 30 vs 5)
    dmg = [e["through"] for e in chokes]
    assert 2 <= min(dmg) and max(dmg) <= 12
    assert mean_ok(dmg, 7.0, math.sqrt(35 / 6))
    escapes = [e for e in events if e["kind"] == "escape"]
    # the grab comes first (REF 8), so every action of B, from phase 1, is an escape attempt
    assert len(escapes) == 100 and not any(e["hit"] for e in escapes)
    assert {e["target"] for e in escapes} == {"A"}
    assert not attacks(events, "B")
    # killing: Hits fall by exactly the choke damage
    hits_after = [e["hits"] for e in attacks(events, "A")[1:]]
    assert hits_after[-1] == 5_000 - sum(dmg)


def test_choke_log_agrees_with_the_attack_counters():
    choker = fighter("A", stats={"REF": 8, "STR": 8}, skills=SURE, tactics=[{"do": "choke"}])
    victim = fighter("B", 2, hits=500, stun=500, weapon=HARMLESS, tactics=IDLE)
    out, events = logged(scenario({"a": [choker], "b": [victim]}, max_rounds=2))
    assert len(attacks(events, "A")) == out.attacks[0, 0]


def test_entangle_and_escape():
    """Entangle: on a hit the target cannot move or attack; each of its actions is an escape
    roll, STR + Athletics (or Hand to Hand) against the holder's; freed on success."""
    holder = fighter(
        "A",
        stats={"REF": 8, "STR": 6},
        skills={"Hand to Hand": 30, "Athletics": 2},
        weapon="Whip",
        hits=500,
        stun=500,
        tactics=[{"when": "not target.held", "do": "entangle"}, {"do": "none"}],
    )
    victim = fighter("B", 2, stats={"STR": 5}, skills={"Athletics": 4}, hits=500, stun=500,
                     weapon=HARMLESS, tactics=[{"do": "attack"}])  # fmt: skip
    sc = scenario({"a": [holder], "b": [victim]}, max_rounds=10)
    freed_total = 0
    for trial in range(5):
        _, events = logged(sc, trial)
        held = False
        for e in events:
            if e["kind"] == "attack" and e["actor"] == "A" and e["action"] == "entangle":
                assert e["raw"] == 0
                held = held or e["hit"]
            elif e.get("actor") == "B" and e["kind"] != "end":
                if held:
                    assert e["kind"] == "escape" and e["target"] == "A"
                    # 6 + max(30, 2) against 5 + 4
                    assert e["hit"] == (e["roll"] >= (6 + 30) - (5 + 4))
                    held = not e["hit"]
                    freed_total += e["hit"]
                else:
                    assert e["kind"] == "attack"
    # 27 to make: never freed; now an even contest frees the victim regularly
    assert freed_total == 0
    holder["skills"] = {"Hand to Hand": 4, "Athletics": 0}
    holder["stats"]["STR"] = 5
    sc = scenario({"a": [holder], "b": [victim]}, max_rounds=10)
    tries = [e for t in range(5) for e in events_of(sc, t, kind="escape")]
    assert tries and all(e["hit"] == (e["roll"] >= 0) for e in tries)
    assert 0 < sum(e["hit"] for e in tries) < len(tries)


# --- presence -------------------------------------------------------------------------------


def presence_table():
    text = resources.files("fuzion_sim.systems.fuzion.data").joinpath("presence.yaml").read_text()
    return yaml.safe_load(text)["presence"]


def test_presence_table_thresholds():
    rows = presence_table()
    assert [r["margin"] for r in rows] == [0, 10, 20, 30]
    assert [r["effect"] for r in rows] == ["penalty", "penalty", "lose_action", "surrender"]


def test_presence_attack_dice_and_effects():
    """1d6 per PRE against RES (WILL x 3); the effect by margin from data: a penalty to the
    target's next attack, its next action lost, or surrender (out of the fight)."""
    codes = {"none": 0, "penalty": 1, "lose_action": 2, "surrender": 3}
    rows = presence_table()
    pre, res = 6, 6  # 6d6 (6..36) against RES 6: margins 0..30
    a = fighter("A", stats={"REF": 8, "PRE": pre}, hits=500, stun=500,
                tactics=[{"do": "presence"}])  # fmt: skip
    b = fighter("B", 20, stats={"REF": 6, "DEX": 5, "WILL": 2}, hits=500, stun=500)
    sc = scenario({"a": [a], "b": [b]}, max_rounds=10)
    seen = set()
    totals = []
    for trial in range(4):
        _, events = logged(sc, trial)
        pending, lost_next = 0, False
        for e in events:
            if e["kind"] == "presence":
                assert e["dv"] == res and e["target"] == "B"
                total = e["raw"]
                totals.append(total)
                assert pre <= total <= 6 * pre
                effect, value = "none", 0
                for r in rows:
                    if total - res >= r["margin"]:
                        effect, value = r["effect"], r["value"]
                assert e["roll"] == codes[effect]
                seen.add(effect)
                pending += value if effect == "penalty" else 0
                lost_next = lost_next or effect == "lose_action"
            elif e.get("actor") == "B" and e["kind"] == "lost_action":
                assert lost_next
                lost_next = False
            elif e.get("actor") == "B" and e["kind"] == "attack":
                assert not lost_next
                assert e["av"] == BASE_AV - pending
                pending = 0
    assert {"penalty", "lose_action"} <= seen
    assert mean_ok(totals, 3.5 * pre, nd6_sd(pre))


def test_presence_surrender_ends_the_fight():
    a = fighter("A", stats={"REF": 8, "PRE": 10}, tactics=[{"do": "presence"}])
    b = fighter("B", 20, stats={"WILL": 1}, hits=500, stun=500)  # RES 3: 10d6 - 3 >= 30 often
    res = run({"a": [a], "b": [b]}, trials=4_000, max_rounds=5)
    assert res.win_probability("a") > 0.99
    assert res.tally.attacks_sum[0] == 0  # won without an attack
    _, events = logged(scenario({"a": [a], "b": [b]}, max_rounds=5))
    last = [e for e in events if e["kind"] == "presence"][-1]
    assert last["roll"] == 3 and last["raw"] - 3 >= 30
    assert events[-1]["kind"] == "end" and events[-1]["winner"] == 0


# --- defences: dodge, block, dive -----------------------------------------------------------


@pytest.mark.parametrize(("rules", "bonus"), [({}, 3), ({"dodge_bonus": 5}, 5)])
def test_dodge_lasts_until_the_dodgers_next_action(rules, bonus):
    """F32: +3 DV against every attack until the dodger's next action (rules.dodge_bonus).
    The dodger is slower, so the shooter's phase-2 attack meets it; phase 3 not."""
    dodger = dummy(
        "D",
        20,
        stats={"REF": 4, "DEX": 5},
        tactics=[{"when": "phase == 1", "do": "dodge"}, {"do": "none"}],
    )
    katana = fighter("K", 22, weapon="Katana", skills={"Melee": 4}, stats={"REF": 5})
    sc = scenario({"a": [fighter("S"), katana], "b": [dodger]}, max_rounds=1, **rules)
    _, events = logged(sc)
    defend = [e for e in events if e["kind"] == "defend"]
    assert len(defend) == 1 and defend[0]["action"] == "dodge" and defend[0]["raw"] == bonus
    shots = attacks(events, "S")
    assert [e["dv"] for e in shots] == [5, 5 + bonus, 5, 5]
    cuts = attacks(events, "K")  # melee too
    assert [e["dv"] for e in cuts] == [5, 5 + bonus, 5, 5]


@pytest.mark.parametrize(("rules", "bonus"), [({}, 3), ({"block_bonus": 4}, 4)])
def test_block_is_against_melee_only(rules, bonus):
    blocker = dummy("D", 20, stats={"REF": 9, "DEX": 5}, tactics=[{"do": "block"}])
    katana = fighter("K", 22, weapon="Katana", skills={"Melee": 4})
    sc = scenario({"a": [fighter("S"), katana], "b": [blocker]}, max_rounds=1, **rules)
    _, events = logged(sc)
    assert {e["raw"] for e in events if e["kind"] == "defend"} == {bonus}
    assert {e["dv"] for e in attacks(events, "K")} == {5 + bonus}
    assert {e["dv"] for e in attacks(events, "S")} == {5}


def test_dive_for_cover_is_a_defend_event():
    diver = dummy("D", 20, stats={"REF": 9, "DEX": 5}, tactics=[{"do": "dive"}])
    _, events = logged(scenario({"a": [fighter("S")], "b": [diver]}, max_rounds=1))
    dives = [e for e in events if e["kind"] == "defend"]
    assert len(dives) == 4 and {e["action"] for e in dives} == {"dive"}
    assert {e["dv"] for e in attacks(events, "S")} == {5}  # no effect on a plain shot


# --- recover and tactic conditions ----------------------------------------------------------


def test_recover_rec_stun_unless_damaged_and_minus_5_dex():
    """Recover (F23): +REC Stun at the end of the phase, none if damaged that phase; DEX -5
    meanwhile (the shots against the recoverer meet DV base 0 instead of 5)."""
    r = fighter("R", 20, stats={"REF": 8, "DEX": 5}, stun=60, hits=500, rec=4,
                tactics=[{"do": "recover"}])  # fmt: skip
    s = fighter("S", weapon=STUN_GUN, stats={"REF": 6})
    sc = scenario({"a": [s], "b": [r]}, max_rounds=5)
    checked = 0
    for trial in range(4):
        _, events = logged(sc, trial)
        stun = 60
        for e in events:
            if e["kind"] == "attack":
                assert e["dv"] == 5 - 5
                stun = e["stun"]
                damaged = e["through"] > 0
            elif e["kind"] == "recover":
                gain = 0 if damaged else min(4, 60 - stun)
                assert e["raw"] == gain and e["stun"] == stun + gain
                stun = e["stun"]
                checked += 1
    assert checked >= 15


def test_recover_when_stun_below_10():
    """A tactic condition: recover when stun < 10, else aim; the choice follows the Stun the
    combatant has when it acts (it acts first in each phase, so the Stun at the end of the
    phase before). An ally keeps the side in the fight while it is knocked out."""
    tac = [{"when": "stun < 10", "do": "recover"}, {"do": "aim"}]
    r = fighter("R", 20, stats={"REF": 8, "DEX": 5}, stun=25, hits=500, rec=5, tactics=tac)
    s = fighter("S", weapon=dict(STUN_GUN, dc=5), skills={"Handgun": 8}, hits=500, stun=500)
    sc = scenario({"a": [s], "b": [r, dummy("Ally", 40)]}, max_rounds=6)
    recovers = aims = 0
    for trial in range(6):
        _, events = logged(sc, trial)
        stun, start = 25, {}
        for e in events:
            start.setdefault(e["time"], stun)
            if e["kind"] == "attack" and e["target"] == "R":
                stun = e["stun"]
            elif e["kind"] in ("recover", "wake") and e["actor"] == "R":
                stun = e["stun"]
            if e.get("actor") != "R":
                continue
            if e["kind"] == "aim":
                assert start[e["time"]] >= 10
                aims += 1
            elif e["kind"] == "recover":
                assert 0 < start[e["time"]] < 10
                recovers += 1
    assert recovers >= 5 and aims >= 20


# --- movement -------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "metres"), [("run", 10), ("sprint", 15)])
def test_run_and_sprint_metres(action, metres):
    """Run = MOVE x 2, Sprint = MOVE x 3 metres a phase (MOVE 5), straight at the target, in
    two dimensions."""
    mover = fighter("A", position=[0, 0], tactics=[{"do": action}])
    sc = scenario({"a": [mover], "b": [dummy(position=[300, 400])]}, max_rounds=1)
    moves = events_of(sc, kind="move", actor="A")
    assert [m["raw"] for m in moves] == [metres * 100] * 4
    for i, m in enumerate(moves, 1):
        assert m["x"] == pytest.approx(0.6 * metres * i, abs=0.011)
        assert m["y"] == pytest.approx(0.8 * metres * i, abs=0.011)
        assert m["action"] == action and m["target"] == "Dummy"


def test_run_away():
    mover = fighter("A", position=10, stats={"MOVE": 4}, tactics=[{"do": "run", "toward": "away"}])
    moves = events_of(scenario({"a": [mover], "b": [dummy(position=0)]}, max_rounds=1),
                      kind="move", actor="A")  # fmt: skip
    assert [m["x"] for m in moves] == [18.0, 26.0, 34.0, 42.0]


def test_move_is_half_run_then_an_attack():
    mover = fighter("A", tactics=[{"do": "move"}])
    sc = scenario({"a": [mover], "b": [dummy(position=100)]}, max_rounds=1)
    _, events = logged(sc)
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == ["move", "attack"] * 4
    xs = [e["x"] for e in mine if e["kind"] == "move"]
    assert xs == [5.0, 10.0, 15.0, 20.0]
    for x, shot in zip(xs, attacks(events, "A"), strict=True):
        assert shot["av"] == 6 + 4 + range_modifier(100 - x, 50.0)


def test_default_tactic_melee_fighter_runs_into_reach():
    """The default tactic: a melee fighter out of reach runs (MOVE x 2) until within 4 m, then
    attacks; a polearm (reach 6) strikes from 6 m without moving."""
    katana = fighter("A", weapon="Katana", skills={"Melee": 4})
    sc = scenario({"a": [katana], "b": [dummy(position=30)]}, max_rounds=2)
    _, events = logged(sc)
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == ["move"] * 3 + ["attack"] * 5
    assert [e["raw"] for e in mine[:3]] == [1000, 1000, 601]  # ends 1 cm inside reach
    assert mine[2]["x"] == 26.01  # 1 cm inside the 4 m reach
    pole = fighter("A", weapon="Polearm", skills={"Melee": 4})
    _, events = logged(scenario({"a": [pole], "b": [dummy(position=6)]}, max_rounds=1))
    assert [e["kind"] for e in events if e.get("actor") == "A"] == ["attack"] * 4
    _, events = logged(scenario({"a": [katana], "b": [dummy(position=6)]}, max_rounds=1))
    assert [e["kind"] for e in events if e.get("actor") == "A"][:2] == ["move", "attack"]


def test_gunman_out_of_range_closes_to_the_listed_range():
    gun = fighter("A", stats={"MOVE": 10})
    _, events = logged(scenario({"a": [gun], "b": [dummy(position=85)]}, max_rounds=1))
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == ["move", "move", "attack", "attack"]
    assert [e["x"] for e in mine[:2]] == [20.0, 35.01]  # stops 1 cm inside the Colt's 50 m


@pytest.mark.parametrize(
    ("action", "av_pen", "dice", "share", "dex_pen"),
    [("move_by", 2, 5 + 2, 3, 2), ("move_thru", 2, 10 + 4, 2, 3)],
)
def test_move_by_and_move_thru(action, av_pen, dice, share, dex_pen):
    """Move By: -2 to hit, half STR dice + 1 per 10 m, the mover takes 1/3, -2 DEX. Move Thru:
    -1 to hit per 10 m, STR dice + 1 per 5 m, the mover takes 1/2, -3 DEX. STR 10, MOVE 10
    (20 m), the target 21 m away (the mover stops 1 m short): 7 and 14 dice; later actions
    move 0 m: 5 and 10 dice. The mover's share is Stun against its SD (CON 1: 2)."""
    mover = fighter("A", stats={"REF": 8, "DEX": 5, "STR": 10, "MOVE": 10, "CON": 1},
                    skills={"Hand to Hand": 5}, hits=500, stun=500,
                    tactics=[{"do": action}])  # fmt: skip
    target = dummy(position=21, skills={"Hand to Hand": 1}, weapon=HARMLESS,
                   tactics=[{"do": "attack"}])  # fmt: skip
    sc = scenario({"a": [mover], "b": [target]}, max_rounds=2)
    all_first = []
    for trial in range(20):
        out, events = logged(sc, trial)
        mine = [e for e in events if e.get("actor") == "A"]
        assert [e["kind"] for e in mine] == ["move", "attack"] * 8
        assert mine[0]["raw"] == 2000 and mine[0]["x"] == 20.0
        assert {e["raw"] for e in mine[2::2]} <= {0, 1}  # already there (within 1 cm)
        hits = attacks(events, "A")
        assert hits[0]["av"] == 8 + 5 - av_pen
        assert {e["av"] for e in hits[1:]} == {8 + 5 - (2 if action == "move_by" else 0)}
        all_first.append(hits[0]["raw"])
        later = 5 if action == "move_by" else 10
        for e in hits[1:]:
            assert later <= e["raw"] <= 6 * later
        own = sum(max(e["raw"] // share - 2, 0) for e in hits if e["hit"])
        assert out.taken[0, 0] == own
        # the target's attacks meet the mover at -2 / -3 DEX: DV base 5 + 5 - pen
        assert {e["dv"] for e in attacks(events, "Dummy")} == {5 + 5 - dex_pen}
    assert dice <= min(all_first) and max(all_first) <= 6 * dice
    assert mean_ok(all_first, 3.5 * dice, nd6_sd(dice))


# --- wait -----------------------------------------------------------------------------------


def wait_order(until, enemy_tactics, enemy_at):
    waiter = fighter("W", stats={"REF": 8, "DEX": 5}, hits=500, stun=500,
                     tactics=[{"do": "wait", "until": until}])  # fmt: skip
    enemy = fighter("E", enemy_at, hits=500, stun=500, tactics=enemy_tactics)
    _, events = logged(scenario({"a": [waiter], "b": [enemy]}, max_rounds=1))
    return [(e["kind"], e.get("actor")) for e in events if e["time"] == 1]


def test_wait_until_enemy_attacks_interrupts_before_the_attack():
    order = wait_order("enemy_attacks", [{"do": "attack"}], 20)
    assert order == [("wait", "W"), ("interrupt", "W"), ("attack", "W"), ("attack", "E")]


def test_wait_until_enemy_moves_interrupts_before_the_move():
    order = wait_order("enemy_moves", [{"do": "run"}], 100)
    assert order == [("wait", "W"), ("interrupt", "W"), ("attack", "W"), ("move", "E")]


def test_wait_carries_into_the_next_phase():
    """A slower waiter waits after the enemy acted; its held action interrupts the enemy's
    next attack and is its turn of that phase (no second action in phase 2)."""
    waiter = fighter(
        "W",
        stats={"REF": 4},
        hits=500,
        stun=500,
        tactics=[{"do": "wait", "until": "enemy_attacks"}],
    )
    enemy = fighter("E", 20, hits=500, stun=500)
    _, events = logged(scenario({"a": [waiter], "b": [enemy]}, max_rounds=1))
    order = [(e["time"], e["kind"], e.get("actor")) for e in events if e["kind"] != "end"]
    assert order[:6] == [(1, "attack", "E"), (1, "wait", "W"), (2, "interrupt", "W"),
                         (2, "attack", "W"), (2, "attack", "E"), (3, "attack", "E")]  # fmt: skip


def test_wait_until_in_range_with_a_conditional_tactic():
    """Waiting until the enemy comes within the Colt's 50 m: it runs 10 m a phase from 100 m;
    the waiter interrupts right after the move that brings it to 50 m and shoots."""
    tac = [{"when": "not in_range", "do": "wait", "until": "in_range"}, {"do": "attack"}]
    waiter = fighter("W", stats={"REF": 8, "DEX": 5}, hits=500, stun=500, tactics=tac)
    enemy = dummy("E", 100, tactics=[{"do": "run"}])
    _, events = logged(scenario({"a": [waiter], "b": [enemy]}, max_rounds=2))
    order = [(e["time"], e["kind"], e.get("actor")) for e in events if e["kind"] != "end"]
    assert [k for t, k, _ in order[:10]] == ["wait", "move"] * 5  # 100 m to 50 m
    assert order[9:13] == [(5, "move", "E"), (5, "interrupt", "W"), (5, "attack", "W"),
                           (6, "attack", "W")]  # fmt: skip
    assert attacks(events, "W")[0]["av"] == 8 + 4 - 4 - 1  # Medium; the target moved 10 m


def test_wait_until_in_range_fires_on_the_interrupt():
    waiter = fighter("W", stats={"REF": 8, "DEX": 5}, hits=500, stun=500,
                     tactics=[{"do": "wait", "until": "in_range"}])  # fmt: skip
    enemy = dummy("E", 100, tactics=[{"do": "run"}])
    _, events = logged(scenario({"a": [waiter], "b": [enemy]}, max_rounds=2))
    order = [(e["kind"], e.get("actor")) for e in events if e["time"] == 5]
    assert order[:3] == [("wait", "W"), ("move", "E"), ("interrupt", "W")]
    assert order[3] == ("attack", "W")


# --- ammunition -----------------------------------------------------------------------------


@pytest.mark.parametrize(("reload_actions", "pattern"), [
    (1, ["attack", "attack", "reload"]), (2, ["attack", "attack", "reload", "reload"]),
])  # fmt: skip
def test_magazine_runs_dry_and_reloads(reload_actions, pattern):
    gun = {"name": "Derringer", "dc": 3, "skill": "Handgun", "range": 50, "shots": 2,
           "reload_actions": reload_actions}  # fmt: skip
    sc = scenario({"a": [fighter("A", weapon=gun)], "b": [dummy()]}, max_rounds=3)
    _, events = logged(sc)
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == (pattern * 12)[:12]
    reloads = [e["raw"] for e in mine if e["kind"] == "reload"]
    assert reloads[:reload_actions] == [0] * (reload_actions - 1) + [2]


def test_shots_variable_and_explicit_reload():
    gun = {"name": "Derringer", "dc": 3, "skill": "Handgun", "range": 50, "shots": 3}
    tac = [{"when": "shots < 2", "do": "reload"}, {"do": "attack"}]
    sc = scenario({"a": [fighter("A", weapon=gun, tactics=tac)], "b": [dummy()]}, max_rounds=2)
    kinds = [e["kind"] for e in events_of(sc, actor="A")]
    assert kinds == ["attack", "attack", "reload"] * 2 + ["attack", "attack"]


# --- targeting ------------------------------------------------------------------------------


def targets_side():
    # D2 is the weakest and stays standing through 8 attacks of 4d6 (at most 192)
    return [dummy("D1", 20, hits=1_000), dummy("D2", 10, hits=300), dummy("D3", 30, hits=500)]


@pytest.mark.parametrize(
    ("mode", "expect"),
    [("first", "D1"), ("weakest", "D2"), ("nearest", "D2"), ("strongest", "D1")],
)
def test_targeting_rules(mode, expect):
    a = fighter("A", skills=SURE, targeting=mode)
    _, events = logged(scenario({"a": [a], "b": targets_side()}, max_rounds=2))
    assert {e["target"] for e in attacks(events, "A")} == {expect}


def test_targeting_weakest_and_strongest_follow_the_damage():
    """weakest / strongest are re-chosen at every action among those still standing: from level
    Hits the weakest stays on the one it hurt; the strongest switches to the unhurt one."""
    side = [dummy("D1", 20, hits=100), dummy("D2", 20, hits=100)]
    for mode, pick in (("weakest", min), ("strongest", max)):
        a = fighter("A", skills=SURE, targeting=mode)
        _, events = logged(scenario({"a": [a], "b": side}, max_rounds=3))
        left = {"D1": 100, "D2": 100}
        chosen = []
        for e in attacks(events, "A"):
            assert left[e["target"]] == pick(left.values())
            chosen.append(e["target"])
            left[e["target"]] = e["hits"]
            if e["flags"] & 4:  # FLAG_OUT: no longer a candidate
                del left[e["target"]]
        assert set(chosen) == {"D1", "D2"}
        if mode == "weakest":  # D1 until it falls, then D2
            n1 = chosen.count("D1")
            assert chosen == ["D1"] * n1 + ["D2"] * (len(chosen) - n1)
        else:
            assert chosen[:2] == ["D1", "D2"]


def test_targeting_focus_is_the_sides_shared_target():
    """focus: the side's shared target (its first member's): the follower shoots the leader's
    nearest target, not the first listed."""
    side = [dummy("D1", 20), dummy("D2", 10), dummy("D3", 30)]
    lead = fighter("L", stats={"REF": 8, "DEX": 5}, skills=SURE, targeting="nearest")
    for mode, expect in (("focus", "D2"), ("first", "D1")):
        follower = fighter("F", skills=SURE, targeting=mode)
        _, events = logged(scenario({"a": [lead, follower], "b": side}, max_rounds=2))
        assert {e["target"] for e in attacks(events, "L")} == {"D2"}
        assert {e["target"] for e in attacks(events, "F")} == {expect}


def test_targeting_random_is_uniform_and_kept():
    a = fighter("A", skills=SURE, targeting="random")
    res = run({"a": [a], "b": targets_side()}, trials=6_000, seed=8, max_rounds=1)
    hit = res.outcomes.taken[:, 1:] > 0
    assert np.all(hit.sum(axis=1) <= 1)  # one target a fight, kept while it stands
    share = hit.mean(axis=0)
    assert np.all(np.abs(share - 1 / 3) <= 4 * math.sqrt(2 / 9 / res.trials) + 0.0)
    assert hit.sum() > 0.98 * res.trials


@pytest.mark.parametrize("action", ["draw_attack", "move"])
def test_every_shooting_action_spends_the_magazine(action):
    gun = {"name": "Derringer", "dc": 3, "skill": "Handgun", "range": 50, "shots": 2}
    sc = scenario({"a": [fighter("A", weapon=gun, tactics=[{"do": action}])],
                   "b": [dummy(position=60)]}, max_rounds=2)  # fmt: skip
    out, events = logged(sc)
    assert out.attacks[0, 0] <= 6  # 2 shots, a reload, 2 shots, ... in 8 actions
    assert [e for e in events if e["kind"] == "reload"]


# --- range bands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "metres", "band"),
    [("Colt Revolver", 3, 0), ("Colt Revolver", 4, 0), ("Colt Revolver", 8, -2),
     ("Colt Revolver", 10, -2), ("Colt Revolver", 30, -4), ("Colt Revolver", 50, -4),
     ("Bolt Action Rifle", 80, -6), ("Bolt Action Rifle", 100, -6),
     ("Bolt Action Rifle", 149, -6), ("Bolt Action Rifle", 150, -7),
     ("Bolt Action Rifle", 260, -9), ("Shotgun (12-ga.)", 30, -4), ("Shotgun (12-ga.)", 40, -4),
     ("Shotgun (12-ga.)", 90, -7)],
)  # fmt: skip
def test_range_bands(weapon, metres, band):
    """F10: Melee <= 4 m +0, Close <= 10 m -2, Medium <= 50 m -4, Long to the listed range -6,
    Extreme -6 and -1 per full 50 m past it (a sniper never moves, so the band is the start's)."""
    skills = {"Handgun": 4, "Rifle": 4, "Shotgun": 4}
    a = fighter("A", weapon=weapon, skills=skills, tactics="sniper")
    shots = attacks(logged(scenario({"a": [a], "b": [dummy(position=metres)]}))[1], "A")
    aim = 3 if metres > 4 else 0  # the sniper does not aim when threatened (within 4 m)
    assert shots and {e["av"] for e in shots} == {6 + 4 + aim + band}


# --- presets --------------------------------------------------------------------------------


def test_brawler_preset_runs_into_reach_and_punches_on():
    brawler = fighter("A", weapon="Katana", skills={"Melee": 4}, tactics="brawler")
    _, events = logged(scenario({"a": [brawler], "b": [dummy(position=25)]}, max_rounds=1))
    mine = [(e["kind"], e["x"]) for e in events if e.get("actor") == "A"]
    assert mine == [("move", 10.0), ("move", 20.0), ("move", 21.01), ("attack", 21.01)]


def test_gunslinger_preset_aims_once_when_far():
    a = fighter("A", tactics="gunslinger")
    _, events = logged(scenario({"a": [a], "b": [dummy(position=30)]}, max_rounds=1))
    mine = [e for e in events if e.get("actor") == "A"]
    assert [e["kind"] for e in mine] == ["aim", "attack", "aim", "attack"]
    assert {e["av"] for e in attacks(events, "A")} == {6 + 4 - 4 + 1}


# --- the log agrees with the run ------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["squad-4v4-cover.yaml", "brawler-vs-gunman.yaml", "spd-duel.yaml", "ambush.yaml"]
)
def test_logged_trials_match_the_bulk_run(name):
    """Fights with movement, tactics and timing: a trial re-run alone with its log has the
    bulk run's outcome, and its attack events add up to the run's per-combatant counters."""
    from conftest import SCENARIOS

    from fuzion_sim.scenario import load_scenario

    sc = load_scenario(SCENARIOS / name)
    bulk = run_scenario(sc, trials=5_000, seed=3)
    names = [c.name for c in sc.combatants]
    for trial in range(0, 5_000, 250):
        out, events = logged(sc, trial, seed=3)
        assert out.winner[0] == bulk.outcomes.winner[trial]
        assert out.end_slot[0] == bulk.outcomes.end_slot[trial]
        np.testing.assert_array_equal(out.dealt[0], bulk.outcomes.dealt[trial])
        for i, who in enumerate(names):
            mine = attacks(events, who)
            assert len(mine) == bulk.outcomes.attacks[trial, i]
            assert sum(e["hit"] for e in mine) == bulk.outcomes.landed[trial, i]
        assert events[-1]["kind"] == "end" and events[-1]["time"] == out.end_slot[0]


def run_scenario(sc, trials, seed):
    from fuzion_sim import simulate

    return simulate(sc, trials=trials, seed=seed, threads=2, keep_trials=True)
