"""A fixed corpus of hostile scenario files, generated from every shipped scenario of every
system (Fuzion's, vehicles', colour's and FUDGE's) with a fixed seed: keys deleted, renamed,
retyped and emptied, keys of another system, huge and non-finite numbers, deep nesting,
recursive aliases and alias bombs, NUL bytes, byte flips and oversized files.

``corpus()`` is deterministic: the same cases, in the same order, on every machine.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import yaml

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SEED = 20
#: Mutations of parsed data per shipped scenario (the kinds in turn, from a different one for
#: each file).
PER_SCENARIO = 6
#: Text mutations (NUL bytes, byte flips, aliases) for every this-many-th shipped scenario.
TEXT_EVERY = 2
#: Shipped scenarios left out: a hundred or more combatants make each case cost a second, and
#: their keys are the smaller files' keys.
LARGE = {"line-battle-100v100", "colour/bench-squad-10v10"}

HUGE = [10**20, 2**63, 2**63 - 1, 2**31, 2**32 + 1, -(10**20), 1e308, -1e308, 10**400]
NON_FINITE = [float("nan"), float("inf"), float("-inf")]
RETYPES = ["text", "", [], [1, 2], {}, {"a": 1}, True, None, 3.5, -1, 0]
#: Keys of one system or another, added where another system would have them.
FOREIGN = {"stats": {"REF": 5}, "abilities": {"Fighting": "Good"}, "armour": 2, "armor": 2,
           "tactic": "dodge", "tactics": "default", "health": 20, "skill": "Fair",
           "obstacles": [], "damage_capacity": "Fair"}  # fmt: skip


def _paths(node, prefix=()):
    """Every key path (tuples of keys and indices) in the data."""
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((*prefix, key))
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.append((*prefix, i))
            out.extend(_paths(value, (*prefix, i)))
    return out


def _parent(data, path):
    node = data
    for part in path[:-1]:
        node = node[part]
    return node


def _numeric_paths(data):
    return [p for p in _paths(data) if isinstance(_parent(data, p)[p[-1]], int | float)
            and not isinstance(_parent(data, p)[p[-1]], bool)]  # fmt: skip


def _typo(rng, key):
    key = str(key)
    if len(key) > 1 and rng.random() < 0.5:
        i = rng.randrange(len(key) - 1)
        return key[:i] + key[i + 1] + key[i] + key[i + 2 :]
    return key + rng.choice("sxe_")


def _mutate(rng, data, kind):
    paths = _paths(data)
    path = rng.choice(paths)
    parent, last = _parent(data, path), path[-1]
    if kind == "delete":
        if isinstance(parent, dict):
            del parent[last]
        else:
            parent.pop(last)
    elif kind == "rename" and isinstance(parent, dict):
        parent[_typo(rng, last)] = parent.pop(last)
    elif kind == "retype":
        parent[last] = copy.deepcopy(rng.choice(RETYPES))
    elif kind == "empty":
        parent[last] = None
    elif kind == "foreign":
        mappings = [p for p in paths if isinstance(_parent(data, p)[p[-1]], dict)]
        target = _parent(data, path)[path[-1]] if not mappings else None
        if mappings:
            where = rng.choice(mappings)
            target = _parent(data, where)[where[-1]]
        key = rng.choice(sorted(FOREIGN))
        if isinstance(target, dict):
            target[key] = copy.deepcopy(FOREIGN[key])
    elif kind in ("huge", "nonfinite"):
        numeric = _numeric_paths(data) or [path]
        path = rng.choice(numeric)
        _parent(data, path)[path[-1]] = rng.choice(HUGE if kind == "huge" else NON_FINITE)
    elif kind == "deep":
        parent[last] = f"__DEEP_{rng.choice([70, 1000, 5000])}__"
    return data, path


def _deepen(text: str) -> str:
    """Replace a ``__DEEP_n__`` placeholder by ``n`` levels of flow lists and mappings."""
    start = text.find("__DEEP_")
    if start < 0:
        return text
    end = text.index("__", start + 7)
    depth = int(text[start + 7 : end])
    nested = "".join("[" if i % 2 else "{k: " for i in range(depth)) + "x"
    nested += "".join("]" if i % 2 else "}" for i in reversed(range(depth)))
    return text[:start] + nested + text[end + 2 :]


def _dump(data) -> str:
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    except (RecursionError, OverflowError, ValueError):
        return yaml.safe_dump({"unserialisable": True})


def _text_cases(rng, name, text, bomb: bool):
    """Mutations of the file's text (an alias bomb, which costs a second or two to refuse,
    when ``bomb``)."""
    cut = rng.randrange(len(text))
    bombs = ["a0: &a0 [" + ",".join(["x"] * 9) + "]"]
    bombs += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    flips = bytearray(text.encode())
    for _ in range(5):
        i = rng.randrange(len(flips))
        flips[i] = rng.randrange(256)
    yield f"{name}:nul", (text[:cut] + "\x00" + text[cut:]).encode()
    yield f"{name}:flip", bytes(flips)
    if bomb:
        bombed = "\n".join(bombs) + "\n" + text.replace("sides:", "junk: *a9\nsides:", 1)
        yield f"{name}:alias-bomb", bombed.encode()
    yield f"{name}:recursive-alias", (text + "\nloop: &r [*r]\n").encode()
    looped = text.replace("rules:", "rules: &m {x: *m}\nold_rules:", 1)
    yield f"{name}:recursive-map", looped.encode()


def _big_cases(text):
    """Files over and just under the size limit (a long name, junk keys, comments)."""
    yield "big:name", ("name: " + "x" * (2 << 20) + "\n" + text).encode()
    yield "big:junk-keys", (text + "".join(f"junk{i}: {i}\n" for i in range(300_000))).encode()
    yield "big:under-limit-comments", (text + ("# " + "c" * 1000 + "\n") * 900).encode()


def corpus():
    """``[(case id, file bytes), ...]``: the whole corpus, in a fixed order.

    A case id is ``scenario:kind:i``, then ``+`` after a second mutation, or, for a key
    emptied alone, ``@`` and its key path (``sides.red.0.armor.pd``)."""
    rng = random.Random(SEED)
    cases = []
    kinds = ["delete", "rename", "retype", "empty", "foreign", "huge", "nonfinite", "deep"]
    paths = [p for p in sorted(SCENARIOS.glob("**/*.yaml"))
             if p.relative_to(SCENARIOS).with_suffix("").as_posix() not in LARGE]  # fmt: skip
    for number, path in enumerate(paths):
        text = path.read_text()
        base = yaml.safe_load(text)
        name = path.relative_to(SCENARIOS).with_suffix("").as_posix()
        for i in range(PER_SCENARIO):
            kind = kinds[(number + i) % len(kinds)]
            data, where = _mutate(rng, copy.deepcopy(base), kind)
            case = f"{name}:{kind}:{i}"
            if rng.random() < 0.3:  # a second mutation now and then
                data, _ = _mutate(rng, data, rng.choice(kinds[:-1]))
                case += "+"
            elif kind == "empty":  # the key emptied, for the test to check it is refused
                case += "@" + ".".join(str(part) for part in where)
            cases.append((case, _deepen(_dump(data)).encode()))
        if number % TEXT_EVERY == 0:
            cases.extend(_text_cases(rng, name, text, bomb=number == 0))
    cases.extend(_big_cases((SCENARIOS / "marshal-vs-outlaw.yaml").read_text()))
    return cases
