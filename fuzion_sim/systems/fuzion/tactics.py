"""Tactics: the per-combatant rule language, validated and compiled to integer codes.

A combatant's ``tactics:`` is an ordered list of rules (or the name of a preset from
``data/tactics.yaml``); at every action the kernel takes the first rule whose
condition holds, and does nothing that action when none holds::

    tactics:
      - {when: "stun < 10", do: recover}
      - {when: "range > weapon_range", do: run, toward: target}
      - {when: "aim < 2 and not threatened", do: aim}
      - {do: attack, fire: all}
    targeting: weakest

A rule has ``do`` (an action of :data:`ACTIONS`), an optional ``when`` (a condition; absent
means always) and the parameters of its action: ``toward: target | nearest | away`` for the
movement actions (default ``target``) and ``fire: N | all`` for ``attack`` (default 1).

Condition language
------------------
Numbers (``10``, ``2.5``), the variables of :data:`VARIABLES`, ``true`` and ``false``,
arithmetic ``+ - *`` and unary ``-``, comparisons ``< <= > >= == !=``, and ``not``, ``and``,
``or`` with parentheses. Precedence, loosest first: ``or``; ``and``; ``not``; one comparison
(chains such as ``a < b < c`` are rejected); ``+ -``; ``*``; unary ``-``. So
``not a < b and c`` reads ``(not (a < b)) and c``. Every value is a number: comparisons and
the logical operators give 1 or 0, and a condition holds when its value is not 0.

Compiled form
-------------
A condition compiles to postfix bytecode: an ``int64[n, 2]`` array of ``(op, arg)`` pairs over
a ``float64`` constant pool (ops ``OP_CONST`` .. ``OP_NOT``; ``OP_CONST`` pushes
``consts[arg]``, ``OP_VAR`` pushes variable ``arg``). An empty code (a rule without ``when``)
is true. Evaluation never needs more than :data:`MAX_STACK` slots. :func:`pack` concatenates
the programs of all combatants into the flat arrays the kernel takes; :func:`evaluate` is the
pure-Python reference of the kernel's evaluator.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from fuzion_sim.errors import ScenarioError, did_you_mean, shorten
from fuzion_sim.validation.checks import describe
from fuzion_sim.validation.keypath import format_path, parse_path
from fuzion_sim.validation.yaml_io import parse_yaml_text

from .model import DEFAULT_TACTICS

__all__ = [
    "ACTIONS",
    "ACTION_NAMES",
    "ACTION_PARAMS",
    "DEFAULT_TACTICS",
    "MAX_STACK",
    "MOTION_ACTIONS",
    "MOVEMENT_ACTIONS",
    "MOVE_DIRECTION",
    "OPS",
    "RAM_KINDS",
    "RULE_KEYS",
    "TARGETING",
    "VARIABLES",
    "VARIABLE_NAMES",
    "WAIT_UNTIL",
    "WEAPON_ACTIONS",
    "PackedTactics",
    "TacticsProgram",
    "check_weapon_names",
    "compile_condition",
    "compile_tactics",
    "disassemble",
    "evaluate",
    "pack",
    "preset",
    "preset_descriptions",
    "presets",
    "program_of",
    "stack_depth",
    "validate_tactics",
]

# --- integer codes --------------------------------------------------------------------------

#: Action names in code order; ``ACTIONS`` maps name -> code. The order is fixed: the kernel
#: and the event log use these codes.
ACTION_NAMES = (
    "attack", "aim", "run", "sprint", "move", "recover", "dodge", "block", "dive", "punch",
    "kick", "haymaker", "draw_attack", "sweep", "disarm", "choke", "entangle", "escape",
    "presence", "wait", "reload", "move_by", "move_thru", "first_aid", "none", "burst",
    "launch", "jump", "flee_hazard", "manoeuvre", "regain_control", "accelerate", "brake",
    "steer", "ram", "dogfight", "break_off",
)  # fmt: skip
ACTIONS: dict[str, int] = {name: code for code, name in enumerate(ACTION_NAMES)}
A_ATTACK = 0
A_AIM = 1
A_RUN = 2
A_SPRINT = 3
A_MOVE = 4
A_RECOVER = 5
A_DODGE = 6
A_BLOCK = 7
A_DIVE = 8
A_PUNCH = 9
A_KICK = 10
A_HAYMAKER = 11
A_DRAW_ATTACK = 12
A_SWEEP = 13
A_DISARM = 14
A_CHOKE = 15
A_ENTANGLE = 16
A_ESCAPE = 17
A_PRESENCE = 18
A_WAIT = 19
A_RELOAD = 20
A_MOVE_BY = 21
A_MOVE_THRU = 22
A_FIRST_AID = 23
A_NONE = 24
#: A 3-round burst (F16): 3 shots, no autofire penalty, ceil(1d6 / 2) hits; needs a weapon
#: with ``burst: true``; it takes no ``fire:`` (a burst always fires 3).
A_BURST = 25
#: Fire the combatant's missile weapon at its target (F18, M-42 to M-45): the engagement its
#: target evades over ceil(1d6 / 2) rounds; needs a weapon with ``missile:``. A plain
#: ``attack`` with a missile weapon launches too.
A_LAUNCH = 26
# --- falls: jump down a drop of the scenario (``drop: NAME``) -------------------
#: Jump down the named drop (``drops:``, M-60, M-72): move to it and fall its height; the
#: rule's ``param`` is the drop's index.
A_JUMP = 27
#: Run out of the hazard zone it stands in by the shortest way (M-67 to M-71; hazard.flee);
#: in no zone it stands.
A_FLEE_HAZARD = 28
# --- features/motion/room.py: a vehicle's driving, manoeuvres and rams (M-46 to M-52, M-63 to
# M-66, VA-19, VA-27 to VA-31, VA-40) ------------------------------------------------------
#: A named manoeuvre (``name:`` of ``data/manoeuvres.yaml``): REF + control skill + the task
#: die against its DV; it then drives on (``toward:`` or ``heading:``, default straight
#: ahead). A miss loses control (skid, spin, stall, or a walker falls over).
A_MANOEUVRE = 29
#: The roll to regain control of an aircraft in a stall or spin (DV ``stall_dv`` or 18); an
#: aircraft out of control makes it whatever its rule says (VA-30).
A_REGAIN_CONTROL = 30
#: Speed up or slow down by up to 10 MOVE (VA-19), then drive straight on.
A_ACCELERATE = 31
A_BRAKE = 32
#: Turn (``toward:`` target, nearest, away, or ``heading:`` degrees) and drive 2 x speed m; a
#: turn of more than 45 degrees is a hard turn manoeuvre (DV 14).
A_STEER = 33
#: Drive into the target (``kind: auto | head_on | side | rear``): a manoeuvre made as an
#: attack; on a hit both take the collision table's damage (VA-39, VA-40).
A_RAM = 34
# --- dogfights (M-53 to M-58, VA-32 to VA-34; features/dogfights/room.py) -------
#: Engage the current target in a dogfight (both must be flying vehicles) or keep engaged:
#: the pilot's action of the phase spent manoeuvring for position, a ``run`` toward it.
A_DOGFIGHT = 35
#: Announce a break-off (it needs the Advantage; VA-34) or keep to it: a ``run`` away from the
#: dogfight's other pilot. Both pilots choosing it is mutual agreement.
A_BREAK_OFF = 36
N_ACTIONS = 37

#: Targeting rule name -> code (``targeting:``; default ``first``). ``focus``: the side's
#: shared target.
TARGETING: dict[str, int] = {
    "first": 0, "random": 1, "weakest": 2, "nearest": 3, "strongest": 4, "focus": 5,
}  # fmt: skip
T_FIRST = 0
T_RANDOM = 1
T_WEAKEST = 2
T_NEAREST = 3
T_STRONGEST = 4
T_FOCUS = 5

#: Direction of a movement action (``toward:``) -> code, stored as the rule's ``param``.
MOVE_DIRECTION: dict[str, int] = {"target": 0, "nearest": 1, "away": 2}
M_TARGET = 0
M_NEAREST = 1
M_AWAY = 2

#: What a waiting combatant waits for (``until:`` of ``wait``), stored as the rule's ``param``:
#: an enemy comes within its weapon's range, an enemy moves, an enemy attacks.
WAIT_UNTIL: dict[str, int] = {"in_range": 0, "enemy_moves": 1, "enemy_attacks": 2}

#: Actions that move the combatant; they take ``toward:``.
MOVEMENT_ACTIONS = ("run", "sprint", "move", "move_by", "move_thru")
#: A vehicle's own actions (features/motion/room.py): only a vehicle's tactics take them.
MOTION_ACTIONS = ("manoeuvre", "regain_control", "accelerate", "brake", "steer", "ram")
#: Where a steer or manoeuvre drives (the low part of its ``param``): the movement directions,
#: straight on, or ``D_HEADING + degrees`` (0 to 359, counter-clockwise from +x).
D_STRAIGHT = 3
D_HEADING = 4
#: A manoeuvre's ``param`` is ``D_SPAN * name index + direction``.
D_SPAN = 1024
#: ``kind:`` of a ram (VA-39): worked out from the headings, or as given.
RAM_KINDS: dict[str, int] = {"auto": 0, "head_on": 1, "side": 2, "rear": 3}

#: Parameters each action accepts (beyond ``when`` and ``do``) with their defaults.
ACTION_PARAMS: dict[str, dict[str, Any]] = {name: {} for name in ACTION_NAMES}
ACTION_PARAMS["attack"] = {"fire": 1}
ACTION_PARAMS.update({name: {"toward": "target"} for name in MOVEMENT_ACTIONS})
ACTION_PARAMS["wait"] = {"until": "enemy_attacks"}
ACTION_PARAMS["jump"] = {"drop": None}  # the drop's name (required)
ACTION_PARAMS["steer"] = {"toward": "target", "heading": None}  # features/motion/room.py
ACTION_PARAMS["manoeuvre"] = {"name": None, "toward": None, "heading": None}
ACTION_PARAMS["ram"] = {"kind": "auto"}

#: The actions that use a weapon, which a rule may give by name (``weapon: NAME``, one of the
#: weapons the combatant fires: a crew member operating several vehicle weapons, M-76).
WEAPON_ACTIONS = ("attack", "aim", "reload", "burst", "draw_attack", "launch")

#: Every key a rule may have.
RULE_KEYS = ("when", "do", "toward", "fire", "until", "weapon", "drop", "name", "kind",
             "heading")

#: Variable name -> code. Own state first, then the current target (under the combatant's
#: targeting rule) and the distance to it. Booleans are 0 or 1; ``shots`` is 999 for a weapon
#: without a magazine; ``*_pct`` are 0 to 100 of the full value.
VARIABLE_NAMES = (
    "hits", "stun", "hits_max", "stun_max", "hits_pct", "stun_pct", "aim", "shots", "prone",
    "held", "stunned", "threatened", "enemies", "allies", "phase", "dodging", "target.hits",
    "target.stun", "target.hits_pct", "target.stun_pct", "target.prone", "target.held",
    "target.stunned", "range", "weapon_range", "reach", "in_range", "in_reach",
    "missiles", "missiles_incoming", "target.missiles_incoming",
    "in_hazard", "breath", "out_of_control", "speed", "target.speed", "altitude",
    "advantage", "tailing",
)  # fmt: skip
VARIABLES: dict[str, int] = {name: code for code, name in enumerate(VARIABLE_NAMES)}
V_HITS = 0
V_STUN = 1
V_HITS_MAX = 2
V_STUN_MAX = 3
V_HITS_PCT = 4
V_STUN_PCT = 5
V_AIM = 6
V_SHOTS = 7
V_PRONE = 8
V_HELD = 9
V_STUNNED = 10
V_THREATENED = 11
V_ENEMIES = 12
V_ALLIES = 13
V_PHASE = 14
V_DODGING = 15
V_TARGET_HITS = 16
V_TARGET_STUN = 17
V_TARGET_HITS_PCT = 18
V_TARGET_STUN_PCT = 19
V_TARGET_PRONE = 20
V_TARGET_HELD = 21
V_TARGET_STUNNED = 22
V_RANGE = 23
V_WEAPON_RANGE = 24
V_REACH = 25
V_IN_RANGE = 26
V_IN_REACH = 27
#: Missiles (F18): launches left of a missile weapon (999 without a magazine; 0 for any
#: other weapon), and the missile engagements in flight against me / my target.
V_MISSILES = 28
V_MISSILES_INCOMING = 29
V_TARGET_MISSILES_INCOMING = 30
#: The environment (features/hazards/room.py): 1 while it stands in a hazard zone (as of the last
#: phase's end or its flee), and the phases of breath it has left (M-71, VA-47; full outside a
#: zone).
V_IN_HAZARD = 31
V_BREATH = 32
#: A vehicle's motion (features/motion/room.py): 1 while it is out of control (a skid or spin it
#: has not come out of, an aircraft's stall or spin, a walker down), its MOVE now and its target's,
#: and an aircraft's altitude in metres (0 for the others).
V_OUT_OF_CONTROL = 33
V_SPEED = 34
V_TARGET_SPEED = 35
V_ALTITUDE = 36
#: Dogfights (features/dogfights/room.py): this phase's dogfight margin against the
#: current target (negative when losing; 0 when not engaged with it), and 1 when tailing it
#: (the margin reaches the chart's tailing row, VA-32).
V_ADVANTAGE = 37
V_TAILING = 38
N_VARIABLES = 39

#: ``shots`` of a weapon without a magazine.
UNLIMITED_SHOTS = 999

# Bytecode operations: (op, arg) pairs in postfix order.
OP_CONST = 0  # push consts[arg]
OP_VAR = 1  # push variable arg
OP_ADD = 2
OP_SUB = 3
OP_MUL = 4
OP_NEG = 5
OP_LT = 6
OP_LE = 7
OP_GT = 8
OP_GE = 9
OP_EQ = 10
OP_NE = 11
OP_AND = 12
OP_OR = 13
OP_NOT = 14

#: Op name -> code (for :func:`disassemble` and tests).
OPS: dict[str, int] = {
    "const": OP_CONST, "var": OP_VAR, "add": OP_ADD, "sub": OP_SUB, "mul": OP_MUL,
    "neg": OP_NEG, "lt": OP_LT, "le": OP_LE, "gt": OP_GT, "ge": OP_GE, "eq": OP_EQ,
    "ne": OP_NE, "and": OP_AND, "or": OP_OR, "not": OP_NOT,
}  # fmt: skip

#: The evaluation stack of the kernel has this many slots; deeper conditions are rejected.
MAX_STACK = 16

#: Parser recursion guard (parentheses, ``not`` and unary minus nested this deep are rejected).
_MAX_NESTING = 40
#: Longest condition, in words, numbers and symbols (a chain of 20,000 ``+`` would build a
#: tree too deep to compile; shipped tactics use at most a dozen).
MAX_TOKENS = 500
#: Largest number in a condition (Hits, metres and phases are all far smaller).
MAX_CONSTANT = 1e9

_BINARY = {
    "+": OP_ADD, "-": OP_SUB, "*": OP_MUL, "<": OP_LT, "<=": OP_LE, ">": OP_GT, ">=": OP_GE,
    "==": OP_EQ, "!=": OP_NE, "and": OP_AND, "or": OP_OR,
}  # fmt: skip
_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
_KEYWORDS = ("and", "or", "not", "true", "false")

#: Words people reach for, offered as did-you-mean only (never accepted).
_ALIASES = {
    "hp": "hits", "health": "hits", "body": "hits", "life": "hits", "distance": "range",
    "dist": "range", "ammo": "shots", "rounds": "shots", "aiming": "aim", "reach_range": "reach",
    "&&": "and", "||": "or", "!": "not",
}  # fmt: skip

# --- errors ---------------------------------------------------------------------------------

Fail = Callable[..., ScenarioError]


def _default_fail(parts: Sequence, message: str, suggestion: str | None = None) -> ScenarioError:
    return ScenarioError(message, path=format_path(parts) or None, suggestion=suggestion)


def _parts(path) -> list:
    if path is None:
        return ["tactics"]
    if isinstance(path, str):
        return parse_path(path)
    return list(path)


def _describe(value: Any) -> str:
    return describe(value)


# --- condition language: lexer and parser ---------------------------------------------------

_TOKEN = re.compile(
    r"(?P<ws>\s+)"
    r"|(?P<num>\d+(?:\.\d*)?|\.\d+)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<op><=|>=|==|!=|<|>|\+|-|\*|\(|\))"
)

_BAD_CHARS = {
    "=": "use '==' to compare",
    "!": "use 'not'",
    "&": "use 'and'",
    "|": "use 'or'",
    "/": "division is not part of the language",
    "%": "'%' is not part of the language",
}


class _Token(NamedTuple):
    kind: str  # num | name | kw | op | end
    text: str
    pos: int  # 0-based offset in the condition


class _ConditionError(Exception):
    """A problem in a condition: message, 0-based position, suggestion."""

    def __init__(self, message: str, pos: int | None = None, suggestion: str | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.suggestion = suggestion


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        m = _TOKEN.match(text, i)
        if m is None:
            char = text[i]
            two = text[i : i + 2]
            hint = _BAD_CHARS.get(char, "")
            if two in ("&&", "||"):
                hint = _BAD_CHARS[char]
            why = f"unexpected character '{char}'" + (f" ({hint})" if hint else "")
            raise _ConditionError(why, i)
        kind = m.lastgroup
        if kind == "num" and m.end() < n and (text[m.end()].isalpha() or text[m.end()] == "_"):
            raise _ConditionError(
                f"unexpected '{text[m.end()]}' right after the number {m.group()}", m.end()
            )
        if kind == "name" and m.group() in _KEYWORDS:
            kind = "kw"
        if kind != "ws":
            out.append(_Token(kind, m.group(), i))
        i = m.end()
    out.append(_Token("end", "", n))
    return out


def _unknown_name(name: str) -> str | None:
    """The did-you-mean for an unknown variable name."""
    head, _, last = name.rpartition(".")
    alias = _ALIASES.get(last.lower())
    if alias is not None:
        candidate = f"{head}.{alias}" if head else alias
        if candidate in VARIABLES:
            return candidate
        if alias in VARIABLES:
            return alias
    if head == "target" and last in VARIABLES and f"target.{last}" not in VARIABLES:
        return last  # target.range -> range
    return did_you_mean(name, (*VARIABLES, *_KEYWORDS))


class _Parser:
    """Recursive descent over the tokens; builds a small tree of tuples.

    Nodes: ``("num", float)``, ``("var", code)``, ``("un", op, node)``,
    ``("bin", op, left, right)``.
    """

    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        if len(self.toks) > MAX_TOKENS + 1:  # + the end token
            raise _ConditionError(
                f"longer than {MAX_TOKENS} words, numbers and symbols (split it into rules)", None
            )
        self.i = 0
        self.nesting = 0

    @property
    def tok(self) -> _Token:
        return self.toks[self.i]

    def take(self) -> _Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def found(self, tok: _Token) -> str:
        return "the end of the condition" if tok.kind == "end" else f"'{tok.text}'"

    def nest(self, pos: int) -> None:
        self.nesting += 1
        if self.nesting > _MAX_NESTING:
            raise _ConditionError(f"nested more than {_MAX_NESTING} deep", pos)

    def parse(self):
        node = self.or_()
        if self.tok.kind != "end":
            tok = self.tok
            if tok.text == ")":
                raise _ConditionError("unmatched ')'", tok.pos)
            if tok.kind == "name":  # a misspelt 'and' / 'or' between two terms
                hint = did_you_mean(tok.text, ("and", "or"))
                if hint:
                    raise _ConditionError(f"unknown word '{tok.text}'", tok.pos, hint)
            raise _ConditionError(
                f"expected an operator or the end of the condition, found {self.found(tok)}",
                tok.pos,
            )
        return node

    def or_(self):
        node = self.and_()
        while self.tok.text == "or" and self.tok.kind == "kw":
            self.take()
            node = ("bin", OP_OR, node, self.and_())
        return node

    def and_(self):
        node = self.not_()
        while self.tok.text == "and" and self.tok.kind == "kw":
            self.take()
            node = ("bin", OP_AND, node, self.not_())
        return node

    def not_(self):
        if self.tok.kind == "kw" and self.tok.text == "not":
            tok = self.take()
            self.nest(tok.pos)
            node = ("un", OP_NOT, self.not_())
            self.nesting -= 1
            return node
        return self.comparison()

    def comparison(self):
        node = self.sum_()
        if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
            op = self.take()
            node = ("bin", _BINARY[op.text], node, self.sum_())
            if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
                raise _ConditionError(
                    "chained comparisons are not supported (write 'a < b and b < c')",
                    self.tok.pos,
                )
        return node

    def sum_(self):
        node = self.product()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.take()
            node = ("bin", _BINARY[op.text], node, self.product())
        return node

    def product(self):
        node = self.unary()
        while self.tok.kind == "op" and self.tok.text == "*":
            self.take()
            node = ("bin", OP_MUL, node, self.unary())
        return node

    def unary(self):
        if self.tok.kind == "op" and self.tok.text == "-":
            tok = self.take()
            self.nest(tok.pos)
            child = self.unary()
            self.nesting -= 1
            if child[0] == "num":
                return ("num", -child[1])
            return ("un", OP_NEG, child)
        return self.atom()

    def atom(self):
        tok = self.tok
        if tok.kind == "num":
            self.take()
            value = float(tok.text)
            if not abs(value) <= MAX_CONSTANT:
                raise _ConditionError(
                    f"the number {shorten(tok.text, 20)} is out of range "
                    f"(allowed: -{MAX_CONSTANT:g} to {MAX_CONSTANT:g})", tok.pos,
                )  # fmt: skip
            return ("num", value)
        if tok.kind == "kw" and tok.text in ("true", "false"):
            self.take()
            return ("num", 1.0 if tok.text == "true" else 0.0)
        if tok.kind == "name":
            self.take()
            code = VARIABLES.get(tok.text)
            if code is None:
                raise _ConditionError(
                    f"unknown name '{tok.text}'", tok.pos, _unknown_name(tok.text)
                )
            return ("var", code)
        if tok.text == "(":
            self.take()
            self.nest(tok.pos)
            node = self.or_()
            self.nesting -= 1
            if self.tok.text != ")":
                raise _ConditionError(
                    f"expected ')' to close the '(' at column {tok.pos + 1}, "
                    f"found {self.found(self.tok)}",
                    self.tok.pos,
                )
            self.take()
            return node
        what = "a number, a name, 'not' or '('"
        if tok.kind == "end":
            raise _ConditionError(f"the condition ends too early: expected {what}", tok.pos)
        raise _ConditionError(f"expected {what}, found {self.found(tok)}", tok.pos)


def _emit(node, code: list[tuple[int, int]], consts: list[float]) -> None:
    kind = node[0]
    if kind == "num":
        value = float(node[1])
        if value not in consts:
            consts.append(value)
        code.append((OP_CONST, consts.index(value)))
    elif kind == "var":
        code.append((OP_VAR, node[1]))
    elif kind == "un":
        _emit(node[2], code, consts)
        code.append((node[1], 0))
    else:
        _emit(node[2], code, consts)
        _emit(node[3], code, consts)
        code.append((node[1], 0))


def stack_depth(code) -> int:
    """The most stack slots the bytecode needs.

    Parameters
    ----------
    code : array_like of int, shape (n, 2)
        ``(op, arg)`` pairs.

    Returns
    -------
    int
        0 for an empty code.
    """
    depth = deepest = 0
    for op, _ in np.asarray(code, dtype=np.int64).reshape(-1, 2):
        if op in (OP_CONST, OP_VAR):
            depth += 1
        elif op not in (OP_NEG, OP_NOT):
            depth -= 1
        deepest = max(deepest, depth)
    return deepest


def _compile_text(text: str, consts: list[float]) -> list[tuple[int, int]]:
    """Parse and emit one condition, appending to ``consts``; raises _ConditionError."""
    if not text.strip():
        raise _ConditionError("the condition is empty (leave out 'when' for 'always')", 0)
    node = _Parser(text).parse()
    code: list[tuple[int, int]] = []
    _emit(node, code, consts)
    depth = stack_depth(code) if code else 0
    if depth > MAX_STACK:
        raise _ConditionError(
            f"the condition needs {depth} stack slots, at most {MAX_STACK} are allowed "
            "(split it, or group terms left to right)"
        )
    return code


def _condition_failure(exc: _ConditionError, text: str, parts, fail: Fail) -> ScenarioError:
    where = f", column {exc.pos + 1}" if exc.pos is not None else ""
    return fail(parts, f'condition "{shorten(text, 120)}"{where}: {exc.message}', exc.suggestion)


def compile_condition(text: str, path=None, fail: Fail | None = None):
    """Compile one condition to postfix bytecode.

    Parameters
    ----------
    text : str
        E.g. ``"aim < 2 and not threatened"``.
    path : str or sequence, optional
        Key path used in error messages, e.g. ``"sides.red[0].tactics[2].when"``.
    fail : callable, optional
        ``fail(parts, message, suggestion) -> ScenarioError`` (the loader passes its context's
        ``fail`` so errors name the file and line).

    Returns
    -------
    code : numpy.ndarray of int64, shape (n, 2)
        ``(op, arg)`` pairs in postfix order.
    consts : numpy.ndarray of float64, shape (m,)
        The constant pool ``OP_CONST`` indexes.

    Raises
    ------
    ScenarioError
        On a syntax error (naming the 1-based column), an unknown name (with a did-you-mean)
        or a condition needing more than :data:`MAX_STACK` stack slots.
    """
    fail = fail or _default_fail
    parts = _parts(path if path is not None else "when")
    consts: list[float] = []
    try:
        code = _compile_text(text, consts)
    except _ConditionError as exc:
        raise _condition_failure(exc, text, parts, fail) from None
    return _code_array(code), np.asarray(consts, dtype=np.float64)


def _code_array(code) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(code, dtype=np.int64).reshape(-1, 2))


def evaluate(code, consts, values: Mapping[int, float]) -> float:
    """Evaluate bytecode (the pure-Python reference of the kernel's evaluator).

    Parameters
    ----------
    code : array_like of int, shape (n, 2)
        ``(op, arg)`` pairs; an empty code is true (1.0).
    consts : array_like of float
        The constant pool.
    values : mapping of int to float
        Variable code -> value; a variable the code reads must be present.

    Returns
    -------
    float
        The value; a condition holds when it is not 0. Comparisons, ``and``, ``or`` and
        ``not`` give 1.0 or 0.0 (both sides of ``and``/``or`` are always evaluated).

    Raises
    ------
    KeyError
        If the code reads a variable missing from ``values``.
    """
    code = np.asarray(code, dtype=np.int64).reshape(-1, 2)
    if len(code) == 0:
        return 1.0
    stack: list[float] = []
    for op, arg in code:
        if op == OP_CONST:
            stack.append(float(consts[arg]))
        elif op == OP_VAR:
            if int(arg) not in values:
                raise KeyError(f"no value for variable {_variable_name(int(arg))}")
            stack.append(float(values[int(arg)]))
        elif op == OP_NEG:
            stack[-1] = -stack[-1]
        elif op == OP_NOT:
            stack[-1] = 1.0 if stack[-1] == 0.0 else 0.0
        else:
            b = stack.pop()
            a = stack.pop()
            stack.append(_binary(int(op), a, b))
    return stack[-1]


def _binary(op: int, a: float, b: float) -> float:
    if op == OP_ADD:
        return a + b
    if op == OP_SUB:
        return a - b
    if op == OP_MUL:
        return a * b
    if op == OP_AND:
        return float(a != 0.0 and b != 0.0)
    if op == OP_OR:
        return float(a != 0.0 or b != 0.0)
    if op == OP_LT:
        return float(a < b)
    if op == OP_LE:
        return float(a <= b)
    if op == OP_GT:
        return float(a > b)
    if op == OP_GE:
        return float(a >= b)
    if op == OP_EQ:
        return float(a == b)
    if op == OP_NE:
        return float(a != b)
    raise ValueError(f"unknown op {op}")


def _variable_name(code: int) -> str:
    return VARIABLE_NAMES[code] if 0 <= code < len(VARIABLE_NAMES) else f"#{code}"


_OP_TEXT = {
    OP_ADD: "+", OP_SUB: "-", OP_MUL: "*", OP_LT: "<", OP_LE: "<=", OP_GT: ">", OP_GE: ">=",
    OP_EQ: "==", OP_NE: "!=", OP_AND: "and", OP_OR: "or",
}  # fmt: skip


def disassemble(code, consts) -> str:
    """Bytecode back to a fully parenthesised condition (for narration and debugging).

    Parameters
    ----------
    code : array_like of int, shape (n, 2)
    consts : array_like of float

    Returns
    -------
    str
        E.g. ``"((aim < 2) and (not threatened))"``; ``"true"`` for an empty code.
    """
    code = np.asarray(code, dtype=np.int64).reshape(-1, 2)
    if len(code) == 0:
        return "true"
    stack: list[str] = []
    for op, arg in code:
        if op == OP_CONST:
            stack.append(f"{float(consts[arg]):g}")
        elif op == OP_VAR:
            stack.append(_variable_name(int(arg)))
        elif op == OP_NEG:
            stack[-1] = f"-{stack[-1]}"
        elif op == OP_NOT:
            stack[-1] = f"(not {stack[-1]})"
        else:
            b = stack.pop()
            a = stack.pop()
            stack.append(f"({a} {_OP_TEXT[int(op)]} {b})")
    return stack[-1]


# --- rules ----------------------------------------------------------------------------------


def _rule(raw: Any, parts: list, fail: Fail) -> dict:
    """Validate one rule and return its canonical form (defaults filled in)."""
    if not isinstance(raw, dict):
        raise fail(
            parts, f"expected a rule such as {{when: ..., do: attack}}, got {_describe(raw)}"
        )
    for key in raw:
        if key not in RULE_KEYS:
            raise fail(
                [*parts, key], f"unknown rule key '{key}'", did_you_mean(str(key), RULE_KEYS)
            )
    if raw.get("do") is None:
        raise fail(parts, "missing key 'do' (the action, e.g. do: attack)")
    action = raw["do"]
    if not isinstance(action, str) or action not in ACTIONS:
        names = ", ".join(ACTIONS)
        hint = did_you_mean(action, ACTIONS) if isinstance(action, str) else None
        raise fail([*parts, "do"], f"unknown action {_describe(action)} (actions: {names})", hint)
    params = ACTION_PARAMS[action]
    out: dict[str, Any] = {"when": None, "do": action, **params}
    when = raw.get("when")
    if isinstance(when, bool):
        when = "true" if when else "false"
    if when is not None:
        if not isinstance(when, str):
            raise fail([*parts, "when"], f"expected a condition (a string), got {_describe(when)}")
        compile_condition(when, [*parts, "when"], fail)
        out["when"] = when
    if raw.get("weapon") is not None:
        if action not in WEAPON_ACTIONS:
            raise fail([*parts, "weapon"], f"'weapon' does not apply to action '{action}' (only "
                                           f"to {', '.join(WEAPON_ACTIONS)})")  # fmt: skip
        if not isinstance(raw["weapon"], str) or not raw["weapon"].strip():
            raise fail([*parts, "weapon"], f"expected a weapon's name, got "
                                           f"{_describe(raw['weapon'])}")  # fmt: skip
        out["weapon"] = raw["weapon"]
    if action == "jump" or raw.get("drop") is not None:  # jump names its drop
        if action != "jump":
            raise fail([*parts, "drop"], f"'drop' does not apply to action '{action}' (only to "
                                         "jump)")  # fmt: skip
        if not isinstance(raw.get("drop"), str) or not raw["drop"].strip():
            raise fail([*parts, "drop"] if "drop" in raw else parts,
                       "jump needs drop: the name of one of the scenario's drops, got "
                       f"{_describe(raw.get('drop'))}")  # fmt: skip
        out["drop"] = raw["drop"]
    _motion_params(raw, action, parts, fail, out)
    for key in ("toward", "fire", "until"):
        if key not in raw or raw[key] is None:
            continue
        if key not in params:
            users = {
                "toward": "movement actions " + ", ".join(MOVEMENT_ACTIONS) + ", steer and "
                "manoeuvre",
                "fire": "attack",
                "until": "wait",
            }[key]
            raise fail(
                [*parts, key], f"'{key}' does not apply to action '{action}' (only to {users})"
            )
        value = raw[key]
        if key == "until":
            if not isinstance(value, str) or value not in WAIT_UNTIL:
                raise fail(
                    [*parts, key],
                    f"unknown condition {_describe(value)} (expected in_range, enemy_moves or "
                    "enemy_attacks)",
                    did_you_mean(value, WAIT_UNTIL) if isinstance(value, str) else None,
                )
        elif key == "toward":
            if not isinstance(value, str) or value not in MOVE_DIRECTION:
                raise fail(
                    [*parts, key],
                    f"unknown direction {_describe(value)} (expected target, nearest or away)",
                    did_you_mean(value, MOVE_DIRECTION) if isinstance(value, str) else None,
                )
        elif value != "all":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise fail(
                    [*parts, key],
                    f"expected a number of shots (1 or more) or 'all', got {_describe(value)}",
                    "all" if isinstance(value, str) and did_you_mean(value, ["all"]) else None,
                )
        out[key] = value
    return out


def _motion_params(raw: dict, action: str, parts: list, fail: Fail, out: dict) -> None:
    """A vehicle's ``name:`` (manoeuvre, required), ``kind:`` (ram) and ``heading:`` (steer,
    manoeuvre), checked into ``out`` (features/motion/room.py)."""
    from .tables import manoeuvres

    for key, users in (("name", ("manoeuvre",)), ("kind", ("ram",)),
                       ("heading", ("steer", "manoeuvre"))):  # fmt: skip
        if raw.get(key) is not None and action not in users:
            raise fail([*parts, key], f"'{key}' does not apply to action '{action}' (only to "
                                      f"{' and '.join(users)})")  # fmt: skip
    if action == "manoeuvre":
        names = manoeuvres()
        name = raw.get("name")
        if not isinstance(name, str) or name not in names:
            raise fail([*parts, "name"] if "name" in raw else parts,
                       f"manoeuvre needs name: one of {', '.join(names)} (manoeuvres.yaml), got "
                       f"{_describe(name)}",
                       did_you_mean(name, names) if isinstance(name, str) else None)  # fmt: skip
        out["name"] = name
    if action == "ram" and raw.get("kind") is not None:
        kind = raw["kind"]
        if not isinstance(kind, str) or kind not in RAM_KINDS:
            raise fail([*parts, "kind"], f"unknown ram kind {_describe(kind)} (expected "
                                         f"{', '.join(RAM_KINDS)})",
                       did_you_mean(kind, RAM_KINDS) if isinstance(kind, str) else None)
        out["kind"] = kind
    heading = raw.get("heading")
    if heading is not None:
        if isinstance(heading, bool) or not isinstance(heading, int | float) or not (
                -360 <= heading <= 360):  # fmt: skip
            raise fail([*parts, "heading"], "expected a heading in degrees (-360 to 360, 0 = +x, "
                                            f"counter-clockwise), got {_describe(heading)}")
        if raw.get("toward") is not None:
            raise fail([*parts, "heading"], "give toward or heading, not both")
        out["heading"] = heading
        out["toward"] = None


def validate_tactics(value: Any, path=None, fail: Fail | None = None) -> tuple[dict, ...]:
    """Validate a ``tactics:`` value and return its rules in canonical form.

    Parameters
    ----------
    value : str or list of dict or None
        A preset name (see :func:`presets`, plus ``default``), or an ordered list of rules;
        None gives :data:`DEFAULT_TACTICS`.
    path : str or sequence, optional
        Key path of the value for messages (default ``"tactics"``).
    fail : callable, optional
        ``fail(parts, message, suggestion) -> ScenarioError``.

    Returns
    -------
    tuple of dict
        Each rule as ``{"when": str or None, "do": action, ...params}`` with the action's
        parameters filled in (``toward`` for movement, ``fire`` for attack).

    Raises
    ------
    ScenarioError
        On an unknown preset, rule key, action, parameter or name in a condition, a bad
        parameter value or a condition syntax error; the path names the rule
        (``sides.red[0].tactics[2].do``).
    """
    fail = fail or _default_fail
    parts = _parts(path)
    if value is None:
        return copy.deepcopy(DEFAULT_TACTICS)
    if isinstance(value, str):
        known = presets()
        if value not in known:
            names = ", ".join(known)
            raise fail(
                parts,
                f"unknown tactics preset '{value}' (presets: {names})",
                did_you_mean(value, known),
            )
        return copy.deepcopy(known[value])
    if not isinstance(value, list | tuple):
        raise fail(parts, f"expected a preset name or a list of rules, got {_describe(value)}")
    if not value:
        raise fail(parts, "an empty list of rules never acts; write [{do: none}] if that is meant")
    return tuple(_rule(raw, [*parts, i], fail) for i, raw in enumerate(value))


# --- programs -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TacticsProgram:
    """The compiled tactics of one combatant.

    Attributes
    ----------
    rules : numpy.ndarray of int64, shape (R, 5)
        One row per rule: ``(code_start, code_len, action, param, fire)``. ``code_start``
        indexes ``code`` of this program; ``code_len`` 0 means always true. ``param`` is the
        :data:`MOVE_DIRECTION` code of a movement action, else 0. ``fire`` is the shots of an
        attack (0 for ``all``), 1 for every other action.
    code : numpy.ndarray of int64, shape (K, 2)
        Every rule's condition bytecode, one after the other.
    consts : numpy.ndarray of float64, shape (M,)
        The constant pool of the conditions.
    source : tuple of dict
        The canonical rules it was compiled from.
    """

    rules: np.ndarray
    code: np.ndarray
    consts: np.ndarray
    source: tuple[dict, ...]

    @property
    def n_rules(self) -> int:
        return len(self.rules)

    def condition(self, index: int) -> np.ndarray:
        """The bytecode of rule ``index`` (empty for an unconditional rule)."""
        start, length = self.rules[index, 0], self.rules[index, 1]
        return self.code[start : start + length]

    def first_match(self, values: Mapping[int, float]) -> int:
        """Index of the first rule whose condition holds, or -1 (reference semantics).

        Parameters
        ----------
        values : mapping of int to float
            Variable code -> value, see :func:`evaluate`.

        Returns
        -------
        int
        """
        for index in range(self.n_rules):
            if evaluate(self.condition(index), self.consts, values) != 0.0:
                return index
        return -1


def compile_tactics(rules: Any, path=None, fail: Fail | None = None, weapons: Sequence[str] = (),
                    drops: Sequence[str] = ()) -> TacticsProgram:  # fmt: skip
    """Validate and compile one combatant's tactics.

    Parameters
    ----------
    rules : str or list of dict or None
        As for :func:`validate_tactics` (canonical rules are accepted unchanged).
    weapons : sequence of str, optional
        The names of the weapons the combatant fires, in order: a rule's ``weapon:`` is
        compiled to 1 + its index there (its ``param``); the loader checked the names.
    drops : sequence of str, optional
        The names of the scenario's drops: a ``jump``'s ``drop:`` is compiled to its index
        there (its ``param``; the loader checked the names).
    path : str or sequence, optional
        Key path for messages (default ``"tactics"``).
    fail : callable, optional
        ``fail(parts, message, suggestion) -> ScenarioError``.

    Returns
    -------
    TacticsProgram

    Raises
    ------
    ScenarioError
        As :func:`validate_tactics`.
    """
    fail = fail or _default_fail
    parts = _parts(path)
    source = validate_tactics(list(rules) if isinstance(rules, tuple) else rules, parts, fail)
    weapons = list(weapons)
    check_weapon_names(source, weapons, parts, fail)
    rows: list[tuple[int, int, int, int, int]] = []
    code: list[tuple[int, int]] = []
    consts: list[float] = []
    for index, rule in enumerate(source):
        start = len(code)
        if rule["when"] is not None:
            try:
                code.extend(_compile_text(rule["when"], consts))
            except _ConditionError as exc:  # pragma: no cover - validated above
                raise _condition_failure(exc, rule["when"], [*parts, index, "when"], fail) from None
        action = rule["do"]
        if action in MOTION_ACTIONS:
            param = _motion_param(rule)
        elif "toward" in rule:
            param = MOVE_DIRECTION[rule["toward"]]
        elif "until" in rule:
            param = WAIT_UNTIL[rule["until"]]
        elif "weapon" in rule:  # 1 + its index among the combatant's weapons (0: in hand)
            param = 1 + weapons.index(rule["weapon"])
        elif "drop" in rule:  # the drop's index (-1: none, refused by the loader)
            param = list(drops).index(rule["drop"]) if rule["drop"] in drops else -1
        else:
            param = 0
        fire = rule.get("fire", 1)
        fire = 0 if fire == "all" else int(fire)
        rows.append((start, len(code) - start, ACTIONS[action], param, fire))
    return TacticsProgram(
        rules=np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, 5)),
        code=_code_array(code),
        consts=np.asarray(consts, dtype=np.float64),
        source=source,
    )


def _motion_param(rule: dict) -> int:
    """The ``param`` of a vehicle's action (features/motion/room.py): a ram's kind; a steer's or
    manoeuvre's
    direction (``MOVE_DIRECTION``, ``D_STRAIGHT`` or ``D_HEADING`` + degrees), a manoeuvre's
    plus ``D_SPAN`` x its index in ``manoeuvres.yaml``."""
    from .tables import manoeuvres

    if rule["do"] == "ram":
        return RAM_KINDS[rule.get("kind") or "auto"]
    if rule.get("heading") is not None:
        direction = D_HEADING + round(rule["heading"]) % 360
    elif rule.get("toward") is not None:
        direction = MOVE_DIRECTION[rule["toward"]]
    else:
        direction = D_STRAIGHT
    if rule["do"] == "manoeuvre":
        return D_SPAN * list(manoeuvres()).index(rule["name"]) + direction
    return direction


def program_of(combatant, drops: Sequence[str] = ()) -> TacticsProgram:
    """The compiled tactics of a validated :class:`~fuzion_sim.systems.fuzion.model.Combatant`.

    Parameters
    ----------
    combatant : Combatant
        Its ``tactics`` holds the canonical rules the loader validated.

    Returns
    -------
    TacticsProgram
    """
    names = [w.name for w in getattr(combatant, "arsenal", ())] or [combatant.weapon.name]
    return compile_tactics(combatant.tactics, ["tactics"], weapons=names, drops=drops)


def check_weapon_names(rules: Sequence[dict], names: Sequence[str], parts, fail: Fail) -> None:
    """Every ``weapon:`` of the canonical ``rules`` names one of ``names`` (the weapons the
    combatant fires), else ``fail`` with a did-you-mean."""
    for index, rule in enumerate(rules):
        name = rule.get("weapon")
        if name is not None and name not in names:
            raise fail([*parts, index, "weapon"],
                       f"'{name}' is not a weapon this combatant fires ({', '.join(names)})",
                       did_you_mean(name, names))  # fmt: skip


class PackedTactics(NamedTuple):
    """Every combatant's tactics in flat arrays, the kernel's arguments in this order.

    Attributes
    ----------
    rule_start : numpy.ndarray of int64, shape (C,)
        First row of combatant ``c`` in ``rules``.
    rule_count : numpy.ndarray of int64, shape (C,)
        Number of rules of combatant ``c``.
    rules : numpy.ndarray of int64, shape (R, 5)
        ``(code_start, code_len, action, param, fire)`` with ``code_start`` an index into the
        packed ``code``; ``code_len`` 0 means always true; ``param`` the move direction (else
        0); ``fire`` the shots of an attack, 0 for all (1 for other actions).
    code : numpy.ndarray of int64, shape (K, 2)
        Every condition's ``(op, arg)`` bytecode; ``OP_CONST`` args index the packed
        ``consts``.
    consts : numpy.ndarray of float64, shape (M,)
        Every program's constants, one pool after the other.
    """

    rule_start: np.ndarray
    rule_count: np.ndarray
    rules: np.ndarray
    code: np.ndarray
    consts: np.ndarray


def pack(programs: Sequence[TacticsProgram]) -> PackedTactics:
    """Concatenate the programs of all combatants (in combatant order) into flat arrays.

    Parameters
    ----------
    programs : sequence of TacticsProgram
        One per combatant.

    Returns
    -------
    PackedTactics
        ``(rule_start, rule_count, rules, code, consts)``, all C-contiguous; code and constant
        indices are shifted to the packed arrays.
    """
    rule_start = np.zeros(len(programs), dtype=np.int64)
    rule_count = np.zeros(len(programs), dtype=np.int64)
    rules, code, consts = [], [], []
    n_rules = n_code = n_consts = 0
    for c, program in enumerate(programs):
        rule_start[c] = n_rules
        rule_count[c] = program.n_rules
        shifted_rules = program.rules.copy()
        shifted_rules[:, 0] += n_code
        shifted_code = program.code.copy()
        shifted_code[shifted_code[:, 0] == OP_CONST, 1] += n_consts
        rules.append(shifted_rules)
        code.append(shifted_code)
        consts.append(program.consts)
        n_rules += program.n_rules
        n_code += len(program.code)
        n_consts += len(program.consts)
    return PackedTactics(
        rule_start=rule_start,
        rule_count=rule_count,
        rules=np.ascontiguousarray(np.concatenate([np.zeros((0, 5), np.int64), *rules])),
        code=np.ascontiguousarray(np.concatenate([np.zeros((0, 2), np.int64), *code])),
        consts=np.ascontiguousarray(np.concatenate([np.zeros(0, np.float64), *consts])),
    )


# --- presets --------------------------------------------------------------------------------

_DATA_PACKAGE = "fuzion_sim.systems.fuzion.data"
_PRESET_FILE = "tactics.yaml"
_PRESET_KEYS = ("description", "rules")


@functools.cache
def _presets() -> tuple[tuple[str, tuple[dict, ...], str], ...]:
    from fuzion_sim.validation.checks import Context

    source = f"{_DATA_PACKAGE.replace('.', '/')}/{_PRESET_FILE}"
    text = resources.files(_DATA_PACKAGE).joinpath(_PRESET_FILE).read_text(encoding="utf-8")
    data, lines = parse_yaml_text(text, source)
    ctx = Context(source=source, lines=lines)
    if not isinstance(data, dict):
        raise ctx.fail([], "the tactics presets must be a mapping of name to preset")
    out = []
    for name, entry in data.items():
        if not isinstance(name, str) or name == "default":
            raise ctx.fail([name], f"bad preset name {_describe(name)}")
        if not isinstance(entry, dict):
            raise ctx.fail([name], f"expected a mapping with 'rules', got {_describe(entry)}")
        for key in entry:
            if key not in _PRESET_KEYS:
                raise ctx.fail(
                    [name, key], f"unknown key '{key}'", did_you_mean(str(key), _PRESET_KEYS)
                )
        if not isinstance(entry.get("rules"), list):
            raise ctx.fail([name], "missing key 'rules' (a list of rules)")
        rules = validate_tactics(entry["rules"], [name, "rules"], ctx.fail)
        out.append((name, rules, str(entry.get("description", ""))))
    return tuple(out)


def presets() -> dict[str, tuple[dict, ...]]:
    """Every tactics preset, ``default`` first, then the presets of ``data/tactics.yaml``.

    Returns
    -------
    dict of str to tuple of dict
        Preset name -> its canonical rules (fresh copies).

    Raises
    ------
    ScenarioError
        If the presets file is invalid (naming its line).
    """
    out = {"default": copy.deepcopy(DEFAULT_TACTICS)}
    out.update({name: copy.deepcopy(rules) for name, rules, _ in _presets()})
    return out


def preset(name: str) -> tuple[dict, ...]:
    """The canonical rules of one preset (see :func:`presets`).

    Parameters
    ----------
    name : str

    Returns
    -------
    tuple of dict

    Raises
    ------
    ScenarioError
        For an unknown name, with a did-you-mean.
    """
    return validate_tactics(name, ["tactics"])


def preset_descriptions() -> dict[str, str]:
    """Preset name -> its one-line description (for ``--help`` style listings)."""
    out = {"default": "attack; close to range when out of range"}
    out.update({name: text for name, _, text in _presets()})
    return out
