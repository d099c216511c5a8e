"""Narration of the event log: every event kind renders, the dicts are JSON, and the replay of a
fight with movement and manoeuvres matches the bulk run."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import yaml
from conftest import SCENARIOS

from fuzion_sim import simulate
from fuzion_sim.api import replay
from fuzion_sim.scenario import load_scenario, scenario_from_dict
from fuzion_sim.systems.fuzion import codes as k
from fuzion_sim.systems.fuzion import narrate
from fuzion_sim.systems.fuzion import tactics as tx

NAMES = ["Ann", "Bob"]
SIDES = ["red", "blue"]


def _ev(kind, actor=0, target=-1, time=1, **fields):
    row = np.zeros(k.N_EV_FIELDS, np.int64)
    row[k.EV_TIME] = time
    row[k.EV_KIND] = kind
    row[k.EV_ACTOR] = actor
    row[k.EV_TARGET] = target
    for name, value in fields.items():
        row[getattr(k, "EV_" + name.upper())] = value
    return row


def _one_of_each() -> np.ndarray:
    hit = k.FLAG_HIT
    rows = [
        _ev(k.EVENT_SURPRISED, 1),
        _ev(k.EVENT_MOVE, 0, 1, action=tx.A_SPRINT, raw=1850, x=1850, y=-300),
        _ev(k.EVENT_AIM, 1, 0, raw=2),
        _ev(k.EVENT_DEFEND, 1, action=tx.A_DODGE, raw=3),
        _ev(k.EVENT_DEFEND, 1, action=tx.A_BLOCK, raw=3),
        _ev(k.EVENT_DEFEND, 1, action=tx.A_DIVE),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            action=tx.A_ATTACK,
            roll=2,
            av=12,
            dv=9,
            raw=20,
            through=14,
            hits=16,
            stun=16,
            flags=hit,
        ),
        _ev(k.EVENT_ATTACK, 0, 1, action=tx.A_HAYMAKER, roll=-3, av=9, dv=9),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            action=tx.A_SWEEP,
            roll=4,
            av=11,
            dv=9,
            hits=16,
            stun=16,
            flags=hit,
        ),
        _ev(k.EVENT_DISARM, 0, 1, roll=1, flags=hit),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            action=tx.A_DISARM,
            roll=4,
            av=11,
            dv=9,
            hits=16,
            stun=16,
            flags=hit,
        ),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            action=tx.A_CHOKE,
            roll=4,
            av=11,
            dv=9,
            hits=16,
            stun=16,
            flags=hit,
        ),
        _ev(k.EVENT_HELD, 1, 0),
        _ev(k.EVENT_ESCAPE, 1, 0, roll=-2),
        _ev(k.EVENT_CHOKE, 0, 1, time=2, through=7),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            time=2,
            action=tx.A_CHOKE,
            raw=7,
            through=7,
            hits=9,
            stun=9,
            flags=hit,
        ),
        _ev(k.EVENT_ESCAPE, 1, 0, time=2, roll=3, flags=hit),
        _ev(k.EVENT_RELOAD, 1, time=2, raw=0, roll=1, dv=2),
        _ev(k.EVENT_RELOAD, 1, time=2, raw=6, through=6, roll=2, dv=2),
        _ev(k.EVENT_PRESENCE, 0, 1, time=2, raw=24, dv=12, roll=k.PA_PENALTY),
        _ev(k.EVENT_PRESENCE, 0, 1, time=2, raw=40, dv=12, roll=k.PA_LOSE_ACTION),
        _ev(k.EVENT_WAIT, 1, time=3, action=tx.A_WAIT),
        _ev(k.EVENT_INTERRUPT, 1, 0, time=3),
        _ev(k.EVENT_IDLE, 0, time=3, action=tx.A_NONE),
        _ev(k.EVENT_OUT_OF_REACH, 0, 1, time=3, action=tx.A_PUNCH),
        _ev(k.EVENT_LOST_ACTION, 1, time=3),
        _ev(
            k.EVENT_ATTACK,
            0,
            1,
            time=3,
            action=tx.A_MOVE_THRU,
            roll=5,
            av=8,
            dv=9,
            raw=30,
            through=20,
            hits=-4,
            stun=-11,
            flags=hit | k.FLAG_OUT | k.FLAG_STUNNED,
        ),
        _ev(k.EVENT_RECOVER, 0, time=3, raw=10, stun=25),
        _ev(k.EVENT_WAKE, 1, time=4, hits=2, stun=3),
        _ev(k.EVENT_BLEED, 1, time=4, hits=-1, stun=0),
        _ev(k.EVENT_DRAW, 1, time=4),
        _ev(k.EVENT_PERCEPTION, 1, time=4, roll=3, raw=2),
        _ev(k.EVENT_KNOCKBACK, 1, 0, time=4, raw=2, x=2400, y=0),
        _ev(k.EVENT_FIRST_AID, 0, 1, time=4, roll=4, av=8, dv=10, flags=hit),
        _ev(k.EVENT_AREA, 1, 0, time=4, raw=9, through=3, x=3000, y=0),
        _ev(k.EVENT_OUT_OF_ARC, 0, 1, time=4, flags=hit),
        _ev(k.EVENT_NO_WEAPON, 0, 1, time=4),
        _ev(k.EVENT_CRITICAL, 1, time=4, raw=2, through=k.EFF_IMMOBILE),
        _ev(k.EVENT_BREATH, 1, 0, time=4),  # the environment: target 0 is a hazard zone
        _ev(k.EVENT_HAZARD, 1, 0, time=4, action=0, raw=20, through=15, hits=1, stun=1),
        _ev(k.EVENT_LAUNCH, 0, 1, time=4, raw=4, action=tx.A_LAUNCH,
            flags=hit | k.FLAG_UNOPPOSED),
        _ev(k.EVENT_EVADE, 1, 0, time=4, roll=9, av=17, dv=18, raw=2, through=3, shots=1004,
            action=tx.A_LAUNCH, flags=hit),
        _ev(k.EVENT_MISSILE_HITS, 0, 1, time=4, shots=3004, raw=30, through=12, hits=4, stun=4,
            action=tx.A_LAUNCH, flags=hit),
        # a jump (the drop's index 0) and a knockback into obstacle 0
        _ev(k.EVENT_FALL, 1, 0, time=4, raw=800, dv=6, roll=20, through=14, hits=11, stun=11,
            action=tx.A_JUMP, x=1000, y=0),
        _ev(k.EVENT_COLLISION, 1, 0, time=4, dv=8, roll=30, through=26, raw=0, shots=1800,
            x=500, y=0, flags=hit),
        # M-10: a run stopped by obstacle 0, and a shot it blocks
        _ev(k.EVENT_BLOCKED, 0, 1, time=4, action=tx.A_RUN, raw=0, x=399, y=0),
        _ev(k.EVENT_BLOCKED, 1, 0, time=4, action=tx.A_ATTACK, raw=0),
        # dogfights: the engaging roll won by 6 (tailing), a barred attack, a break-off
        _ev(k.EVENT_DOGFIGHT, 0, 1, time=4, raw=6, av=27, dv=21, roll=12, through=8,
            location=2, action=1, flags=hit),
        _ev(k.EVENT_DOGFIGHT_BARRED, 1, 0, time=4, raw=-6),
        _ev(k.EVENT_BREAK_OFF, 0, 1, time=4, roll=0, raw=2),
        _ev(k.EVENT_BREAK_OFF, 0, 1, time=4, roll=2, flags=k.FLAG_OUT),
        # vehicles in motion: a manoeuvre made, a loss of control (a ground spin), coming out
        # of it, an aircraft's regain roll, a drive, a ram, a crash and a crew member inside
        _ev(k.EVENT_CONTROL, 0, time=4, action=29, roll=19, dv=18, shots=3, flags=hit),
        _ev(k.EVENT_CONTROL, 0, time=4, raw=2, dv=5, shots=1100, roll=1, x=4000, y=0),
        _ev(k.EVENT_REGAIN, 0, time=4, raw=2, flags=hit),
        _ev(k.EVENT_REGAIN, 1, time=4, raw=5, roll=14, dv=18, shots=30000),
        _ev(k.EVENT_DRIVE, 0, 1, time=4, action=31, raw=9000, shots=45, x=15000, y=0),
        _ev(k.EVENT_RAM, 0, 1, time=4, action=3, roll=17, dv=15, raw=416, flags=hit),
        _ev(k.EVENT_CRASH, 1, 0, time=4, dv=14, roll=55, through=51, hits=-11, stun=1 << 40),
        _ev(k.EVENT_CRASH, 0, 1, time=4, dv=6, roll=21, through=15, hits=10, stun=20,
            flags=hit),
        _ev(k.EVENT_END, 0, time=4),
    ]
    return np.stack(rows)


def test_every_kernel_event_kind_has_a_name():
    kinds = {v for name, v in vars(k).items() if name.startswith("EVENT_")}
    assert kinds == set(narrate.KIND_NAMES)
    assert {int(r[k.EV_KIND]) for r in _one_of_each()} == kinds


def test_every_kind_renders_from_hand_built_events():
    events = _one_of_each()
    dicts = narrate.event_dicts(events, NAMES, positions=[(0.0, 0.0), (30.0, 0.0)])
    json.dumps(dicts)  # plain Python values only
    lines = narrate.narrate(events, NAMES, SIDES, "phase", "hero", [(0.0, 0.0), (30.0, 0.0)])
    assert len(lines) == len(events) == len(dicts)
    for line, ev in zip(lines, dicts, strict=True):
        assert line.startswith(f"Phase {ev['time']:>3}: ")
        assert ev.get("actor", "") in line
        assert "kind " not in line and "action " not in line  # no unknown codes
    text = "\n".join(lines)
    for part in [
        "Ann sprints 18.5 m toward Bob to (18.5, -3.0)",
        "Bob aims at Ann: +2",
        "Bob dodges: +3 DV", "Bob blocks: +3 DV against melee", "Bob dives for cover",
        "Ann makes a high-speed turn (19 vs DV 18)",
        "Ann loses control by 5: spins 11 m straight on (now backwards), to (40.0, 0.0)",
        "Ann comes out of its spin",
        "Bob fails to regain control from its spin (14 vs DV 18); altitude 300 m",
        "Ann speeds up, drives 90 m at MOVE 45 to (150.0, 0.0)",
        "Ann rams Bob rear (closing 4.16 m/s): hit by 2",
        "Bob crashes into Ann: 14 DC, 55 rolled, 51 through (-11 left (structure))",
        "Ann is thrown about inside Bob: 6 DC, 21 rolled, 15 through (10 Hits, 20 Stun)",
        "Ann attacks Bob (AV 12; 3d6 roll 12 -> AT 24 vs DV 19): hit, 20 damage rolled, 14 "
        "through; Bob at 16 Hits, 16 Stun",
        "Ann throws a haymaker at Bob (AV 9; 3d6 roll 7 -> AT 16 vs DV 19): miss",
        "Ann sweeps at Bob", "goes down (prone",
        "the weapon is knocked away", "Ann grabs for the weapon of Bob",
        "Bob is held in a choke hold", "Bob is held and cannot act",
        "Bob struggles against Ann (contest difference -2): still held",
        "Ann keeps the choke on Bob: 7 killing damage", "Ann's choke holds: Bob at 9 Hits",
        "breaks free", "Bob reloads (1 of 2 actions): 0 shots", "Bob reloads 6 rounds: 6 shots",
        "Ann's presence attack on Bob: 24 vs RES 12 (+12): impressed, -3 to its next action",
        "awed, loses its next action",
        "Ann and Bob engage in a dogfight: Ann wins the dogfight roll by 6 against Bob (27 "
        "against 21): tailing", "Bob may not attack Ann: it lost the dogfight",
        "Ann announces a break-off from Bob: it must hold the Advantage for 2 rounds",
        "Ann breaks off from Bob and escapes: it leaves the fight",
        "Bob waits", "Bob interrupts Ann", "Ann does nothing", "Ann cannot reach Bob (punch)",
        "Bob is stunned and loses this action",
        "Ann slams into (move thru) Bob", "stunned; out of the fight",
        "Ann recovers 10 Stun: 25 Stun", "Bob recovers Stun: 3 Stun and is back on their feet",
        "Bob bleeds: -1 Hits", "Bob draws a weapon", "-2 to attack and defence",
        "Bob is knocked back 2 by Ann, to (24.0, 0.0)",
        "Ann is stopped by #0 at (4.0, 0.0)", "Bob has no line of fire to Ann: #0 is in the way",
        "Ann gives first aid to Bob (TECH + Physician 8, roll +4 vs 10): stabilised",
        "Ann launches a cluster of 4 at Bob",
        "Bob fails to evade Ann's missiles by 1 (round 2 of 3; roll 9, total 17 vs DV 18)",
        "3 of 4 missiles hit Bob (Ann's): 30 damage rolled, 12 through; Bob at 4 Hits, 4 Stun",
        "the fight ends: red wins",
    ]:  # fmt: skip
        assert part in text, part
    by_kind = {d["kind"]: d for d in dicts}
    assert by_kind["move"] == {
        "time": 1, "kind": "move", "actor": "Ann", "target": "Bob", "action": "sprint",
        "metres": 18.5, "x": 18.5, "y": -3.0, "direction": "toward",
    }  # fmt: skip
    presence = [d for d in dicts if d["kind"] == "presence"]
    assert [(d["effect"], d["penalty"], d["margin"]) for d in presence] == [
        ("penalty", 3, 12), ("lose_action", 0, 28),
    ]  # fmt: skip
    assert [d["held_choke"] for d in dicts if d["kind"] == "attack"] == [
        False, False, False, False, False, True, False,
    ]  # fmt: skip


def test_move_away_and_without_positions():
    events = np.stack([_ev(k.EVENT_MOVE, 1, 0, action=tx.A_RUN, raw=1000, x=4000, y=0)])
    assert (
        "Bob runs 10.0 m away from Ann to (40.0, 0.0)"
        in narrate.narrate(events, NAMES, SIDES, "phase", "hero", [(0.0, 0.0), (30.0, 0.0)])[0]
    )
    assert (
        "Bob runs 10.0 m (goal: Ann)"
        in narrate.narrate(events, NAMES, SIDES, "segment", "interlock")[0]
    )


def test_free_recovery_is_not_waking():
    events = np.stack([_ev(k.EVENT_WAKE, 0, stun=20)])
    line = narrate.narrate(events, NAMES, SIDES, "segment", "hero")[0]
    assert line == "Segment   1: Ann recovers Stun: 20 Stun (the free Recovery after segment 12)"


def _replay_kinds(path, trials, seed=None):
    sc = load_scenario(path)
    kinds, actions = set(), set()
    for t in range(trials):
        rep = replay(sc, t, seed=seed)
        json.dumps(rep)
        assert len(rep["lines"]) == len(rep["events"])
        assert rep["events"][-1]["kind"] == "end"
        kinds |= {e["kind"] for e in rep["events"]}
        actions |= {e.get("action") for e in rep["events"]}
    return kinds, actions


def test_replays_of_the_new_scenarios_show_movement_and_manoeuvres():
    kinds, actions = _replay_kinds(SCENARIOS / "brawler-vs-gunman.yaml", 20)
    assert {"move", "attack", "end"} <= kinds
    sc = load_scenario(SCENARIOS / "brawler-vs-gunman.yaml")
    reloads = (
        [e for e in replay(sc, t)["events"] if e["kind"] == "reload"] for t in range(20, 2000)
    )
    # the gunman empties his six shots in some fights and lives to finish reloading in some
    first = next(r for r in reloads if len(r) >= 2)
    assert [e["shots"] for e in first[:2]] == [0, 6]  # reload_actions: 2
    assert {"sprint", "run", "sweep", "punch", "attack"} <= actions
    kinds, actions = _replay_kinds(SCENARIOS / "ambush.yaml", 20)
    assert {"surprised", "aim", "wait", "interrupt", "move", "attack"} <= kinds
    kinds, _ = _replay_kinds(SCENARIOS / "squad-4v4-cover.yaml", 5)
    assert {"move", "aim", "wait", "attack"} <= kinds


GRAPPLE = {
    "name": "grapple",
    "seed": 5,
    "max_rounds": 5,
    "sides": {
        "a": [
            {
                "name": "Wrestler",
                "stats": {"REF": 8, "STR": 8, "PRE": 8, "BODY": 8},
                "skills": {"Hand to Hand": 7},
                "weapon": {
                    "name": "Fists",
                    "kind": "melee",
                    "damage": "stun",
                    "dc": 0,
                    "skill": "Hand to Hand",
                },
                "position": 2,
                "tactics": [
                    {"when": "phase == 1", "do": "presence"},
                    {"when": "phase == 2", "do": "disarm"},
                    {"when": "phase == 3", "do": "kick"},
                    {"when": "stun_pct < 50", "do": "recover"},
                    {"do": "choke"},
                ],
            }
        ],
        "b": [
            {
                "name": "Duellist",
                "stats": {"REF": 6, "STR": 5, "BODY": 8},
                "skills": {"Melee": 4, "Athletics": 3},
                "weapon": "Short Sword",
                "tactics": [
                    {"when": "held", "do": "escape"},
                    {"when": "phase == 1", "do": "dodge"},
                    {"when": "phase == 2", "do": "block"},
                    {"when": "phase == 3", "do": "none"},
                    {"do": "attack"},
                ],
            }
        ],
    },
}


def test_replays_of_grapples_render_every_action():
    sc = scenario_from_dict(copy.deepcopy(GRAPPLE))
    kinds, actions, held = set(), set(), []
    for t in range(15):
        rep = replay(sc, t)
        held += [e for e in rep["events"] if e["kind"] == "attack" and e["held_choke"]]
        json.dumps(rep)
        kinds |= {e["kind"] for e in rep["events"]}
        actions |= {e.get("action") for e in rep["events"]}
        for e, line in zip(rep["events"], rep["lines"], strict=True):
            if e["kind"] == "attack" and e["action"] in ("kick", "choke", "disarm"):
                assert e["actor"] in line and e["target"] in line
    assert {"presence", "disarm", "defend", "idle", "escape", "attack"} <= kinds
    assert held  # a choke kept on: 2D6 a phase, no attack roll
    assert {"kick", "choke", "disarm", "dodge", "block"} <= actions


@pytest.mark.parametrize("name", ["brawler-vs-gunman.yaml", "squad-4v4-cover.yaml"])
def test_replay_of_a_moving_fight_matches_the_bulk_run(name):
    """Winner, end time, per-combatant attacks and damage of 30 trials of the general kernel."""
    sc = load_scenario(SCENARIOS / name)
    n = 3000
    bulk = simulate(sc, trials=n, seed=3, keep_trials=True, progress=False)
    sides = sc.side_names
    for trial in np.linspace(0, n - 1, 30).astype(int):
        rep = replay(sc, int(trial), seed=3)
        w = int(bulk.outcomes.winner[trial])
        assert rep["winner"] == (sides[w] if w >= 0 else ("draw" if w == -1 else "unresolved"))
        assert rep["end_time"] == int(bulk.outcomes.end_slot[trial])
        attacks = [e for e in rep["events"] if e["kind"] == "attack"]
        for i, c in enumerate(sc.combatants):
            mine = [e for e in attacks if e["actor"] == c.name]
            assert len(mine) == bulk.outcomes.attacks[trial, i]
            assert sum(e["damage_through"] for e in mine) == bulk.outcomes.dealt[trial, i]
            assert sum(e["hit"] for e in mine) == bulk.outcomes.landed[trial, i]


def test_new_scenarios_are_valid_yaml_with_positions():
    for name in ("squad-4v4-cover", "spd-duel", "brawler-vs-gunman", "ambush"):
        data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
        sc = load_scenario(SCENARIOS / f"{name}.yaml")
        assert len(sc.side_names) == 2 and data["trials"] == 100_000
