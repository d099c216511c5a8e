"""The tactics language: codes, parser, bytecode, reference evaluator, presets, pack() and
the new combatant keys of the scenario loader."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from builders import check_error, file_error, write_yaml

from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import load_scenario, scenario_from_dict
from fuzion_sim.systems.fuzion import tactics as T
from fuzion_sim.systems.fuzion.model import DEFAULT_TACTICS, Combatant

# --- helpers --------------------------------------------------------------------------------

BASE = """\
name: tactics test
trials: 10
sides:
  red:
    - name: Marshal
      skills: {Handgun: 4}
      weapon: Magnum Pistol
      tactics:
        - {when: "stun < 10", do: recover}
        - {when: "range > weapon_range", do: run, toward: target}
        - {when: "aim < 2 and not threatened", do: aim}
        - {do: attack}
      targeting: weakest
  blue:
    - name: Outlaw
      skills: {Rifle: 6}
      weapon: {name: Hunting carbine, dc: 6, range: 100, skill: Rifle}
"""

# Line numbers in BASE, for the error tests.
LINE_TACTICS = 8
LINE_RULE = {0: 9, 1: 10, 2: 11, 3: 12}
LINE_OUTLAW = 15


def _env(**values) -> dict[int, float]:
    """Variable values by name (``target.hits`` as ``target__hits``) -> {code: value}."""
    return {T.VARIABLES[k.replace("__", ".")]: float(v) for k, v in values.items()}


def _value(text: str, **values) -> float:
    code, consts = T.compile_condition(text)
    return T.evaluate(code, consts, _env(**values))


def _text(text: str) -> str:
    return T.disassemble(*T.compile_condition(text))


# --- integer codes --------------------------------------------------------------------------


def test_action_codes_follow_the_listed_order():
    expected = (
        "attack aim run sprint move recover dodge block dive punch kick haymaker draw_attack "
        "sweep disarm choke entangle escape presence wait reload move_by move_thru first_aid none "
        "burst launch jump flee_hazard manoeuvre regain_control accelerate brake steer ram "
        "dogfight break_off"
    ).split()
    assert list(T.ACTIONS) == expected
    assert list(T.ACTIONS.values()) == list(range(len(expected)))
    for name, code in T.ACTIONS.items():
        assert getattr(T, f"A_{name.upper()}") == code
    assert T.N_ACTIONS == len(expected)


def test_burst_is_appended_and_older_codes_stay():
    assert (T.A_NONE, T.A_FIRST_AID, T.A_BURST, T.A_LAUNCH, T.A_JUMP, T.A_FLEE_HAZARD,
            T.N_ACTIONS) == (24, 23, 25, 26, 27, 28, 37)  # fmt: skip
    assert T.ACTION_NAMES[25] == "burst" and T.ACTIONS["burst"] == 25
    assert T.ACTION_NAMES[26] == "launch" and T.ACTION_PARAMS["launch"] == {}
    assert T.ACTION_NAMES[27] == "jump" and T.ACTION_PARAMS["jump"] == {"drop": None}
    assert T.ACTION_NAMES[28] == "flee_hazard"
    assert (T.A_DOGFIGHT, T.A_BREAK_OFF) == (35, 36) and T.ACTION_NAMES[-1] == "break_off"
    assert T.ACTION_PARAMS["burst"] == {}


def test_targeting_direction_variable_and_op_codes():
    assert T.TARGETING == {
        "first": 0, "random": 1, "weakest": 2, "nearest": 3, "strongest": 4, "focus": 5
    }  # fmt: skip
    for name, code in T.TARGETING.items():
        assert getattr(T, f"T_{name.upper()}") == code
    assert T.MOVE_DIRECTION == {"target": 0, "nearest": 1, "away": 2}
    for name, code in T.MOVE_DIRECTION.items():
        assert getattr(T, f"M_{name.upper()}") == code
    assert list(T.VARIABLES.values()) == list(range(T.N_VARIABLES))
    for name, code in T.VARIABLES.items():
        assert getattr(T, "V_" + name.replace(".", "_").upper()) == code
    assert (T.V_ADVANTAGE, T.V_TAILING, T.N_VARIABLES) == (37, 38, 39)
    assert "target.threatened" not in T.VARIABLES
    ops = "CONST VAR ADD SUB MUL NEG LT LE GT GE EQ NE AND OR NOT".split()
    assert [getattr(T, f"OP_{op}") for op in ops] == list(range(15))
    assert T.OPS == {op.lower(): i for i, op in enumerate(ops)}
    assert T.MAX_STACK == 16


# --- parser and precedence ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("not aim < 2 and threatened", "((not (aim < 2)) and threatened)"),
        ("not threatened or aim", "((not threatened) or aim)"),
        ("stunned or prone and held", "(stunned or (prone and held))"),
        ("stunned and prone or held", "((stunned and prone) or held)"),
        ("not not prone", "(not (not prone))"),
        ("hits + 2 * stun < 10", "((hits + (2 * stun)) < 10)"),
        ("hits - stun - aim", "((hits - stun) - aim)"),
        ("-hits * 2", "(-hits * 2)"),
        ("- - 3", "3"),
        ("(hits + stun) * 2", "((hits + stun) * 2)"),
        ("range > weapon_range", "(range > weapon_range)"),
        ("target.hits_pct <= 50 and in_reach", "((target.hits_pct <= 50) and in_reach)"),
        ("true", "1"),
        ("false or -2.5 != range", "(0 or (-2.5 != range))"),
    ],
)
def test_precedence(text, expected):
    assert _text(text) == expected


def test_bytecode_is_postfix_with_a_deduplicated_constant_pool():
    code, consts = T.compile_condition("aim < 2 and -2 < 2 * stun")
    assert code.dtype == np.int64 and code.shape == (9, 2) and code.flags.c_contiguous
    assert consts.dtype == np.float64
    assert consts.tolist() == [2.0, -2.0]  # unary minus on a number folds into the constant
    assert code.tolist() == [
        [T.OP_VAR, T.V_AIM], [T.OP_CONST, 0], [T.OP_LT, 0],
        [T.OP_CONST, 1], [T.OP_CONST, 0], [T.OP_VAR, T.V_STUN], [T.OP_MUL, 0], [T.OP_LT, 0],
        [T.OP_AND, 0],
    ]  # fmt: skip
    assert T.stack_depth(code) == 4  # (aim < 2), -2, 2, stun
    code, _ = T.compile_condition("-stun")
    assert code.tolist() == [[T.OP_VAR, T.V_STUN], [T.OP_NEG, 0]]


def test_reference_evaluator_on_sample_environments():
    cond = "aim < 2 and not threatened"
    assert _value(cond, aim=0, threatened=0) == 1.0
    assert _value(cond, aim=1, threatened=1) == 0.0
    assert _value(cond, aim=2, threatened=0) == 0.0
    assert _value("range > weapon_range", range=60, weapon_range=50) == 1.0
    assert _value("range > weapon_range", range=50, weapon_range=50) == 0.0
    assert _value("range <= 2.5", range=2.5) == 1.0
    assert _value("hits + 2 * stun", hits=3, stun=4) == 11.0
    assert _value("-(hits - 10)", hits=3) == 7.0
    assert _value("hits_pct * 2 == 100", hits_pct=50) == 1.0
    assert _value("hits != hits_max", hits=5, hits_max=5) == 0.0
    assert _value("stun >= 10 or prone", stun=3, prone=1) == 1.0
    assert _value("target.stunned and in_reach", target__stunned=1, in_reach=0) == 0.0
    assert _value("2 and 3") == 1.0  # logical operators give 0 or 1, not an operand
    assert _value("not 0.5") == 0.0
    assert _value("true") == 1.0 and _value("false") == 0.0
    assert T.evaluate(np.zeros((0, 2), np.int64), np.zeros(0), {}) == 1.0  # no condition
    code, consts = T.compile_condition("stun < 10")
    with pytest.raises(KeyError, match="stun"):
        T.evaluate(code, consts, {})


def _random_condition(rng: random.Random) -> str:
    """A random condition without parentheses (Python parses it with the same precedence)."""
    names = ["hits", "stun", "aim", "prone", "range"]

    def atom():
        text = rng.choice(names) if rng.random() < 0.6 else str(rng.choice([0, 1, 2, 2.5, 10]))
        return "-" * rng.choice([0, 0, 0, 1, 2]) + text

    def chain(sep, item, most):
        return f" {rng.choice(sep)} ".join(item() for _ in range(rng.randint(1, most)))

    def comparison():
        total = chain(["+", "-"], lambda: chain(["*"], atom, 2), 3)
        if rng.random() < 0.6:
            cmp = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            total += f" {cmp} " + chain(["+", "-"], lambda: chain(["*"], atom, 2), 2)
        return "not " * rng.choice([0, 0, 1, 2]) + total

    return chain(["or"], lambda: chain(["and"], comparison, 3), 3)


def test_evaluator_agrees_with_python_on_random_conditions():
    rng = random.Random(20240611)
    checked = 0
    for _ in range(600):
        text = _random_condition(rng)
        env = {n: rng.choice([0, 1, 2, 3, 10, 2.5]) for n in ("hits", "stun", "aim", "prone")}
        env["range"] = rng.choice([0, 4, 12.5, 60])
        code, consts = T.compile_condition(text)
        assert T.stack_depth(code) <= T.MAX_STACK
        ours = T.evaluate(code, consts, _env(**env))
        python = eval(text, {"__builtins__": {}}, dict(env))  # the oracle
        assert (ours != 0.0) == bool(python), text
        if not any(w in text.split() for w in ("and", "or", "not")):
            assert ours == pytest.approx(float(python)), text
        checked += 1
    assert checked == 600


def test_stack_depth_limit():
    ok = "1" + "+(1" * 15 + ")" * 15  # 16 slots
    code, _ = T.compile_condition(ok)
    assert T.stack_depth(code) == 16
    long_but_shallow = " + ".join(["hits"] * 100)
    assert T.stack_depth(T.compile_condition(long_but_shallow)[0]) == 2
    with pytest.raises(ScenarioError, match="needs 17 stack slots, at most 16"):
        T.compile_condition("1" + "+(1" * 16 + ")" * 16)
    with pytest.raises(ScenarioError, match="nested more than"):
        T.compile_condition("(" * 200 + "1" + ")" * 200)


@pytest.mark.parametrize(
    ("text", "problem", "suggestion"),
    [
        ("stn < 10", "column 1: unknown name 'stn'", "stun"),
        ("target.hp < 10", "column 1: unknown name 'target.hp'", "target.hits"),
        ("ammo < 1", "unknown name 'ammo'", "shots"),
        ("target.range > 4", "unknown name 'target.range'", "range"),
        ("weapon.range > 4", "unknown name 'weapon.range'", "weapon_range"),
        ("stun < 10 AND aim", "column 11: unknown word 'AND'", "and"),
        ("stun < 10 an aim", "column 11: unknown word 'an'", "and"),
        ("AND", "column 1: unknown name 'AND'", "and"),
        ("stun < < 10", "column 8: expected a number, a name, 'not' or '(', found '<'", None),
        ("stun = 3", "column 6: unexpected character '=' (use '==' to compare)", None),
        ("stun && aim", "column 6: unexpected character '&' (use 'and')", None),
        ("!prone", "column 1: unexpected character '!' (use 'not')", None),
        ("hits / 2", "column 6: unexpected character '/'", None),
        ("(stun < 3", "column 10: expected ')' to close the '(' at column 1", None),
        ("stun < 3)", "column 9: unmatched ')'", None),
        ("stun <", "column 7: the condition ends too early", None),
        ("stun 3", "column 6: expected an operator or the end of the condition, found '3'", None),
        ("1 < 2 < 3", "column 7: chained comparisons are not supported", None),
        ("10m > range", "column 3: unexpected 'm' right after the number 10", None),
        ("   ", "the condition is empty", None),
    ],
)
def test_condition_errors(text, problem, suggestion):
    with pytest.raises(ScenarioError) as info:
        T.compile_condition(text, "sides.red[0].tactics[1].when")
    err = info.value
    assert err.path == "sides.red[0].tactics[1].when"
    assert f'condition "{text}"' in str(err)
    assert problem in str(err), str(err)
    assert err.suggestion == suggestion


# --- rules and programs ---------------------------------------------------------------------


def test_default_tactic_is_exactly_close_then_attack():
    raw = [{"when": "range > weapon_range", "do": "run", "toward": "target"}, {"do": "attack"}]
    assert T.validate_tactics(raw) == DEFAULT_TACTICS
    assert T.validate_tactics(None) == DEFAULT_TACTICS
    assert T.presets()["default"] == DEFAULT_TACTICS
    program = T.compile_tactics(None)
    assert program.rules.tolist() == [
        [0, 3, T.A_RUN, T.M_TARGET, 1],
        [3, 0, T.A_ATTACK, 0, 1],
    ]
    assert program.code.tolist() == [[T.OP_VAR, T.V_RANGE], [T.OP_VAR, T.V_WEAPON_RANGE],
                                     [T.OP_GT, 0]]  # fmt: skip
    assert program.first_match(_env(range=80, weapon_range=50)) == 0
    assert program.first_match(_env(range=8, weapon_range=50)) == 1


def test_rule_parameters_compile_to_param_and_fire():
    program = T.compile_tactics(
        [
            {"when": "hits_pct < 25", "do": "sprint", "toward": "away"},
            {"when": "enemies > 1", "do": "move", "toward": "nearest"},
            {"when": "shots == 0", "do": "reload"},
            {"when": "aim >= 3", "do": "attack", "fire": "all"},
            {"when": True, "do": "attack", "fire": 3},
            {"do": "none"},
        ]
    )
    rows = program.rules
    assert rows[:, 2].tolist() == [
        T.A_SPRINT, T.A_MOVE, T.A_RELOAD, T.A_ATTACK, T.A_ATTACK, T.A_NONE
    ]  # fmt: skip
    assert rows[:, 3].tolist() == [T.M_AWAY, T.M_NEAREST, 0, 0, 0, 0]
    assert rows[:, 4].tolist() == [1, 1, 1, 0, 3, 1]
    assert program.source[4]["when"] == "true"
    # code_start/code_len tile the code array
    starts, lengths = rows[:, 0], rows[:, 1]
    assert starts[0] == 0 and (starts[1:] == starts[:-1] + lengths[:-1]).all()
    assert lengths[-1] == 0 and starts[-1] + lengths[-1] == len(program.code)


def test_burst_compiles_with_no_parameters():
    rules = T.validate_tactics([{"when": "shots >= 3", "do": "burst"}, {"do": "attack"}])
    assert rules[0] == {"when": "shots >= 3", "do": "burst"}
    program = T.compile_tactics(rules)
    assert program.rules[:, 2].tolist() == [T.A_BURST, T.A_ATTACK]
    # a burst always fires 3: the fire column keeps 1 (every action but attack), param 0
    assert program.rules[0, 3:].tolist() == [0, 1]
    packed = T.pack([program])
    assert packed.rules[0, 2] == T.A_BURST


@pytest.mark.parametrize(
    ("rule", "key_path", "problem", "suggestion"),
    [
        ({"do": "burst", "fire": 3}, "tactics[0].fire",
         "'fire' does not apply to action 'burst' (only to attack)", None),
        ({"do": "burst", "toward": "target"}, "tactics[0].toward", "does not apply", None),
        ({"do": "brust"}, "tactics[0].do", "unknown action 'brust'", "burst"),
    ],
)  # fmt: skip
def test_burst_rule_errors(rule, key_path, problem, suggestion):
    with pytest.raises(ScenarioError) as info:
        T.validate_tactics([rule], "tactics")
    assert info.value.path == key_path
    assert problem in str(info.value), str(info.value)
    assert info.value.suggestion == suggestion


BURST_GUN = "{name: Burst rifle, dc: 5, rof: 20, autofire: true, burst: true, skill: Rifle}"


def test_loader_burst_needs_a_weapon_that_fires_bursts(tmp_path):
    text = BASE.replace("{do: attack}", "{do: burst}")
    path, err = file_error(tmp_path, text)
    check_error(err, path, LINE_RULE[3], "sides.red[0].tactics[3].do",
                "action 'burst' needs a weapon that fires bursts, but Magnum Pistol has no "
                "'burst: true'", "attack")  # fmt: skip
    scenario = load_scenario(write_yaml(tmp_path, text.replace("Magnum Pistol", BURST_GUN)))
    marshal = scenario.combatants[0]
    assert marshal.weapon.burst and marshal.tactics[3] == {"when": None, "do": "burst"}
    assert T.program_of(marshal).rules[3, 2] == T.A_BURST


def test_first_match_wins_and_no_match_means_nothing():
    program = T.compile_tactics(
        [{"when": "stun < 10", "do": "recover"}, {"when": "aim < 2", "do": "aim"}]
    )
    assert program.first_match(_env(stun=5, aim=0)) == 0  # both hold: the first wins
    assert program.first_match(_env(stun=20, aim=0)) == 1
    assert program.first_match(_env(stun=20, aim=3)) == -1


def test_canonical_rules_validate_unchanged():
    rules = T.validate_tactics([{"when": "aim < 2", "do": "aim"}, {"do": "attack", "fire": 2}])
    assert rules == ({"when": "aim < 2", "do": "aim"}, {"when": None, "do": "attack", "fire": 2})
    assert T.validate_tactics(list(rules)) == rules
    assert T.compile_tactics(rules).rules.tolist() == T.compile_tactics(list(rules)).rules.tolist()


@pytest.mark.parametrize(
    ("rules", "key_path", "problem", "suggestion"),
    [
        ([{"do": "atack"}], "tactics[0].do", "unknown action 'atack'", "attack"),
        ([{"do": 3}], "tactics[0].do", "unknown action 3", None),
        ([{"wen": "x", "do": "aim"}], "tactics[0].wen", "unknown rule key 'wen'", "when"),
        ([{"when": "aim < 2"}], "tactics[0]", "missing key 'do'", None),
        (
            [{"do": "aim", "toward": "away"}],
            "tactics[0].toward",
            "'toward' does not apply to action 'aim'",
            None,
        ),
        ([{"do": "run", "fire": 2}], "tactics[0].fire", "'fire' does not apply", None),
        ([{"do": "run", "toward": "awya"}], "tactics[0].toward", "unknown direction", "away"),
        ([{"do": "attack", "fire": 0}], "tactics[0].fire", "1 or more) or 'all', got 0", None),
        ([{"do": "attack", "fire": "al"}], "tactics[0].fire", "got 'al'", "all"),
        ([{"do": "attack", "fire": True}], "tactics[0].fire", "got true", None),
        ([{"when": 3, "do": "aim"}], "tactics[0].when", "expected a condition", None),
        (["attack"], "tactics[0]", "expected a rule such as", None),
        ([], "tactics", "an empty list of rules never acts", None),
        (5, "tactics", "expected a preset name or a list of rules, got 5", None),
        ("gunslingr", "tactics", "unknown tactics preset 'gunslingr'", "gunslinger"),
    ],
)
def test_rule_errors(rules, key_path, problem, suggestion):
    with pytest.raises(ScenarioError) as info:
        T.validate_tactics(rules, "tactics")
    err = info.value
    assert err.path == key_path
    assert problem in str(err), str(err)
    assert err.suggestion == suggestion


# --- presets --------------------------------------------------------------------------------


def test_presets_load_and_compile():
    presets = T.presets()
    assert list(presets) == ["default", "gunslinger", "brawler", "sniper", "cautious"]
    assert set(T.preset_descriptions()) == set(presets)
    for name, rules in presets.items():
        program = T.compile_tactics(name)
        assert program.source == rules
        assert program.n_rules == len(rules) >= 2
        assert rules[-1]["when"] is None  # every preset ends in an unconditional rule
        for i in range(program.n_rules):
            assert T.stack_depth(program.condition(i)) <= T.MAX_STACK


def _pick(name: str, **values) -> tuple[int, int]:
    """(action, param) a preset picks in an environment (every variable 0 unless given)."""
    program = T.compile_tactics(name)
    env = dict.fromkeys(range(T.N_VARIABLES), 0.0)
    env.update(_env(**values))
    row = program.rules[program.first_match(env)]
    return int(row[2]), int(row[3])


def test_presets_behave_as_described():
    full = {"hits_pct": 100, "stun_pct": 100, "weapon_range": 50, "reach": 4}
    # gunslinger: close in when out of range; aim once when safe and far; else attack
    assert _pick("gunslinger", **full, range=80) == (T.A_RUN, T.M_TARGET)
    assert _pick("gunslinger", **full, range=30, aim=0) == (T.A_AIM, 0)
    assert _pick("gunslinger", **full, range=30, aim=1) == (T.A_ATTACK, 0)
    assert _pick("gunslinger", **full, range=30, threatened=1) == (T.A_ATTACK, 0)
    assert _pick("gunslinger", **full, range=5) == (T.A_ATTACK, 0)
    # brawler: run to reach, attack in reach, recover when stun is low
    assert _pick("brawler", **full, range=20) == (T.A_RUN, T.M_TARGET)
    assert _pick("brawler", **full, range=3, in_reach=1) == (T.A_ATTACK, 0)
    assert _pick("brawler", **{**full, "stun_pct": 10}, in_reach=1) == (T.A_RECOVER, 0)
    # sniper: aim to +3 when not threatened, never moves
    assert _pick("sniper", **full, range=200, aim=2) == (T.A_AIM, 0)
    assert _pick("sniper", **full, range=200, aim=3) == (T.A_ATTACK, 0)
    assert _pick("sniper", **full, range=200, threatened=1) == (T.A_ATTACK, 0)
    sniper_actions = {rule["do"] for rule in T.presets()["sniper"]}
    assert not sniper_actions & set(T.MOVEMENT_ACTIONS)
    # cautious: flee when hits are low, dodge when threatened and hurt, recover, attack
    assert _pick("cautious", **{**full, "hits_pct": 20}) == (T.A_RUN, T.M_AWAY)
    assert _pick("cautious", **{**full, "hits_pct": 50}, threatened=1) == (T.A_DODGE, 0)
    assert _pick("cautious", **{**full, "stun_pct": 30}, range=10) == (T.A_RECOVER, 0)
    assert _pick("cautious", **full, range=10) == (T.A_ATTACK, 0)


def test_a_bad_presets_file_names_its_line(monkeypatch):
    text = "sniper:\n  rules:\n    - {do: attack}\nbrawler:\n  rules:\n    - {do: punsh}\n"

    class Fake:
        def joinpath(self, _name):
            return self

        def read_text(self, encoding):
            return text

    monkeypatch.setattr(T.resources, "files", lambda _pkg: Fake())
    T._presets.cache_clear()
    try:
        with pytest.raises(ScenarioError) as info:
            T.presets()
    finally:
        monkeypatch.undo()
        T._presets.cache_clear()
    err = info.value
    assert err.file == "fuzion_sim/systems/fuzion/data/tactics.yaml"
    assert (err.line, err.path, err.suggestion) == (6, "brawler.rules[0].do", "punch")
    assert "gunslinger" in T.presets()  # the real file again


# --- pack -----------------------------------------------------------------------------------


def test_pack_layout():
    programs = [
        T.compile_tactics(None),
        T.compile_tactics([{"when": "stun < 10", "do": "recover"}, {"do": "attack", "fire": 2}]),
        T.compile_tactics([{"do": "dodge"}]),
        T.compile_tactics([{"when": "aim < 3 and range > 2.5", "do": "aim"}, {"do": "attack"}]),
    ]
    packed = T.pack(programs)
    rule_start, rule_count, rules, code, consts = packed  # a plain tuple for the kernel
    for arr, dtype, ndim in [
        (rule_start, np.int64, 1), (rule_count, np.int64, 1), (rules, np.int64, 2),
        (code, np.int64, 2), (consts, np.float64, 1),
    ]:  # fmt: skip
        assert arr.dtype == dtype and arr.ndim == ndim and arr.flags.c_contiguous
    assert rule_start.tolist() == [0, 2, 4, 5]
    assert rule_count.tolist() == [2, 2, 1, 2]
    assert rules.shape == (7, 5) and code.shape[1] == 2
    assert len(code) == sum(len(p.code) for p in programs)
    assert consts.tolist() == [10.0, 3.0, 2.5]  # program 1's pool, then program 3's
    assert rules[:, 2:].tolist() == [
        [T.A_RUN, T.M_TARGET, 1], [T.A_ATTACK, 0, 1],
        [T.A_RECOVER, 0, 1], [T.A_ATTACK, 0, 2],
        [T.A_DODGE, 0, 1],
        [T.A_AIM, 0, 1], [T.A_ATTACK, 0, 1],
    ]  # fmt: skip
    # every packed condition evaluates as the unpacked one, in many environments
    rng = np.random.default_rng(5)
    for _ in range(50):
        env = {v: float(rng.integers(0, 20)) for v in range(T.N_VARIABLES)}
        for c, program in enumerate(programs):
            for r in range(program.n_rules):
                start, length = rules[rule_start[c] + r, :2]
                packed_value = T.evaluate(code[start : start + length], consts, env)
                assert packed_value == T.evaluate(program.condition(r), program.consts, env)


def test_pack_of_nothing_has_empty_arrays_of_the_right_shape():
    packed = T.pack([])
    assert packed.rule_start.shape == (0,) and packed.rules.shape == (0, 5)
    assert packed.code.shape == (0, 2) and packed.consts.shape == (0,)
    packed = T.pack([T.compile_tactics([{"do": "attack"}])])
    assert packed.code.shape == (0, 2) and packed.rules.tolist() == [[0, 0, T.A_ATTACK, 0, 1]]


# --- the scenario loader --------------------------------------------------------------------


def test_loader_stores_tactics_and_targeting(tmp_path):
    scenario = load_scenario(write_yaml(tmp_path, BASE))
    marshal, outlaw = scenario.combatants
    assert marshal.targeting == "weakest"
    assert [r["do"] for r in marshal.tactics] == ["recover", "run", "aim", "attack"]
    assert marshal.tactics[1] == {"when": "range > weapon_range", "do": "run", "toward": "target"}
    assert outlaw.tactics == DEFAULT_TACTICS and outlaw.targeting == "first"
    program = T.program_of(marshal)
    assert program.rules[:, 2].tolist() == [T.A_RECOVER, T.A_RUN, T.A_AIM, T.A_ATTACK]
    packed = T.pack([T.program_of(c) for c in scenario.combatants])
    assert packed.rule_count.tolist() == [4, 2]


def test_loader_accepts_a_preset_and_an_override(tmp_path):
    text = BASE.replace("      targeting: weakest\n", "")
    path = write_yaml(tmp_path, text)
    scenario = load_scenario(path, overrides=[("sides.blue[0].tactics", "sniper")])
    assert scenario.combatants[1].tactics == T.presets()["sniper"]
    scenario = load_scenario(path, overrides=[("sides.red[0].tactics[3].fire", "all")])
    assert T.program_of(scenario.combatants[0]).rules[3, 4] == 0


def test_loader_new_combatant_keys(tmp_path):
    extra = (
        "      position: [3, -4.5]\n      surprised: true\n      cover: head_only\n"
        "      prone: true\n      crouched: true\n      obscured: true\n      braced: true\n"
        "      silhouetted: true\n      size: large\n      modifiers: -2\n"
        "      defence_modifiers: 3\n      spd: 6\n"
    )
    text = BASE + extra
    text = text.replace(
        "range: 100, skill: Rifle}", "range: 100, skill: Rifle, shots: 5, reload_actions: 2}"
    )
    scenario = load_scenario(write_yaml(tmp_path, text))
    marshal, outlaw = scenario.combatants
    assert outlaw.xy == (3.0, -4.5) and outlaw.position == (3.0, -4.5)
    assert (outlaw.surprised, outlaw.prone, outlaw.crouched) == (True, True, True)
    assert (outlaw.obscured, outlaw.braced, outlaw.silhouetted) == (True, True, True)
    assert (outlaw.cover, outlaw.size, outlaw.spd) == ("head_only", "large", 6)
    assert (outlaw.modifiers, outlaw.defence_modifiers) == (-2, 3)
    assert (outlaw.weapon.shots, outlaw.weapon.reload_actions) == (5, 2)
    # defaults
    assert marshal.xy == (0.0, 0.0)
    assert (marshal.surprised, marshal.prone, marshal.crouched, marshal.obscured) == (False,) * 4
    assert (marshal.braced, marshal.silhouetted) == (False, False)
    assert (marshal.cover, marshal.size, marshal.spd) == ("none", "normal", 4)
    assert (marshal.modifiers, marshal.defence_modifiers) == (0, 0)
    assert marshal.weapon.reload_actions == 1
    assert outlaw.derived["spd"] == 6 and marshal.derived["spd"] == 4  # SPD is a derived value
    assert marshal.position == 0.0  # a number stays a number


def test_compile_sees_spd_and_planar_distance(tmp_path):
    from fuzion_sim.systems.fuzion.compile import _spd, distance

    text = BASE.replace("      targeting: weakest\n", "      position: [0, 0]\n      spd: 6\n")
    path = write_yaml(tmp_path, text + "      position: [3, 4]\n")
    marshal, outlaw = load_scenario(path).combatants
    assert _spd(marshal) == 6 and _spd(outlaw) == 4
    assert distance(marshal.position, outlaw.position) == pytest.approx(5.0)


def test_combatant_defaults_keep_old_constructors_working():
    from fuzion_sim.systems.fuzion import catalogue

    weapon = catalogue.find_weapon("Magnum Pistol")
    c = Combatant(name="a", side="red", stats={}, derived={}, skills={}, weapon=weapon)
    assert c.tactics == DEFAULT_TACTICS and c.tactics[0] is not DEFAULT_TACTICS[0]
    assert c.targeting == "first" and c.xy == (0.0, 0.0) and c.spd == 4


def test_scenario_data_is_unchanged_by_validation(tmp_path):
    data = load_scenario(write_yaml(tmp_path, BASE)).data
    before = copy.deepcopy(data)
    scenario = scenario_from_dict(data)
    assert data == before and scenario.combatants[0].tactics[3]["fire"] == 1
    assert "fire" not in data["sides"]["red"][0]["tactics"][3]


def _rule_line(index: int, rule: str) -> str:
    lines = BASE.splitlines(keepends=True)
    lines[LINE_RULE[index] - 1] = f"        - {rule}\n"
    return "".join(lines)


@pytest.mark.parametrize(
    ("index", "rule", "key", "problem", "suggestion"),
    [
        (2, "{when: 'aim < 2', do: aimm}", "do", "unknown action 'aimm'", "aim"),
        (3, "{do: attack, fier: 2}", "fier", "unknown rule key 'fier'", "fire"),
        (2, "{do: aim, fire: 2}", "fire", "'fire' does not apply to action 'aim'", None),
        (1, "{do: run, toward: nearst}", "toward", "unknown direction 'nearst'", "nearest"),
        (0, "{when: 'stn < 10', do: recover}", "when", "unknown name 'stn'", "stun"),
        (0, "{when: 'target.hp < 10', do: recover}", "when", "unknown name", "target.hits"),
        (0, "{when: 'stun < (10', do: recover}", "when", "column 11: expected ')'", None),
    ],
)
def test_loader_rule_errors_name_file_line_and_path(
    tmp_path, index, rule, key, problem, suggestion
):
    path, err = file_error(tmp_path, _rule_line(index, rule))
    key_path = f"sides.red[0].tactics[{index}].{key}"
    check_error(err, path, LINE_RULE[index], key_path, problem, suggestion)


@pytest.mark.parametrize(
    ("replace", "by", "key_path", "problem", "suggestion"),
    [
        ("targeting: weakest", "targeting: weakst", "targeting", "unknown targeting", "weakest"),
        ("targeting: weakest", "tactic: sniper", "tactic", "unknown key 'tactic'", "tactics"),
        ("targeting: weakest", "cover: halfbody", "cover", "unknown cover 'halfbody'", "half_body"),
        ("targeting: weakest", "size: huge", "size", "unknown size 'huge'", None),
        ("targeting: weakest", "spd: 13", "spd", "spd must be at most 12, got 13", None),
        ("targeting: weakest", "spd: 0", "spd", "spd must be at least 1, got 0", None),
        ("targeting: weakest", "prone: yes please", "prone", "expected true or false", None),
        ("targeting: weakest", "modifiers: 1.5", "modifiers", "expected an integer", None),
        ("targeting: weakest", "defense_modifiers: 2", "defense_modifiers", "unknown key",
         "defence_modifiers"),
        ("targeting: weakest", "position: [1, 2, 3]", "position", "expected [x, y]", None),
        ("targeting: weakest", "position: [1, near]", "position[1]", "expected a number", None),
        ("targeting: weakest", "position: far", "position", "expected a number or [x, y]", None),
        ("weapon: Magnum Pistol", "weapon: {name: Gun, dc: 2, skill: Handgun, reload_actions: 0}",
         "weapon.reload_actions", "must be at least 1, got 0", None),
    ],
)  # fmt: skip
def test_loader_new_key_errors(tmp_path, replace, by, key_path, problem, suggestion):
    path, err = file_error(tmp_path, BASE.replace(replace, by))
    check_error(err, path, None, f"sides.red[0].{key_path}", problem, suggestion)


def test_loader_preset_and_shape_errors(tmp_path):
    lines = BASE.splitlines(keepends=True)
    text = "".join(lines[: LINE_TACTICS - 1]) + "      tactics: snipr\n" + "".join(lines[12:])
    path, err = file_error(tmp_path, text)
    check_error(err, path, LINE_TACTICS, "sides.red[0].tactics", "unknown tactics preset", "sniper")
    text = "".join(lines[: LINE_TACTICS - 1]) + "      tactics: []\n" + "".join(lines[12:])
    path, err = file_error(tmp_path, text)
    check_error(err, path, LINE_TACTICS, "sides.red[0].tactics", "never acts")


def test_random_sample_of_the_language_never_crashes_the_parser():
    """Garbage in, ScenarioError out: never another exception."""
    rng = random.Random(7)
    alphabet = [*"abcdehilmnorstuv_.0123456789 ()<>=!+-*/&|", " and ", " or ", " not "]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        try:
            code, _ = T.compile_condition(text)
        except ScenarioError:
            continue
        assert code.shape[1] == 2 and T.stack_depth(code) <= T.MAX_STACK


def test_cli_validate_prints_a_planar_position(tmp_path):
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    path = write_yaml(tmp_path, BASE + "      position: [3, 4]\n")
    res = CliRunner().invoke(cli, ["validate", str(path)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "at (3, 4) m" in res.output and "at 0 m" in res.output
