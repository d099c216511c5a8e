"""Write the generated reference pages at build time (mkdocs-gen-files).

Every page written here is read from the code, so it cannot drift from it:

- ``reference/scenario-keys/<system>.md``: every scenario key of every rule system, from the
  JSON Schema the loader's own declarations build
  (:func:`fuzion_sim.scenario.schema.scenario_schema`);
- ``reference/switches/<system>.md``: every rule switch with its default, its values and the
  ruling it reads, from the ``Switch`` declarations (``fuzion_sim/systems/<system>/model.py``),
  with the comments written beside each declaration;
- ``reference/output-columns.md``: the per-combatant columns every system reports and those
  its kernels add (the ``Counter`` and ``Categories`` declarations of each ``run.py``);
- ``reference/api.md``: one mkdocstrings block per name of ``fuzion_sim.__all__``;
- the tables of the explanation pages (range bands, the colour table, FUDGE damage), where a
  page holds ``<!-- generated: NAME -->``.

A ruling id (``F10``, ``VA-40``, ``CA12``, ``UA1``) links to the page under
``explanation/rulings/`` that defines its anchor (the id lower-cased), once one does.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import mkdocs_gen_files
import yaml

import fuzion_sim
from fuzion_sim import api
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import BUILTIN, get_system

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PKG = ROOT / "fuzion_sim"
RULING = re.compile(r"\b((?:VA|M|E)-\d+|(?:CA|UA|F|U|K)\d+)\b")


def short_title(system) -> str:
    """``Fuzion`` of ``Fuzion (seed 000): HERO 3d6 or Interlock 1d10``."""
    return system.title.split(" (", 1)[0].split(":", 1)[0]


@functools.cache
def ruling_anchors() -> dict[str, str]:
    """Ruling id (lower case) -> the rulings page that defines its anchor (``{#f10}``,
    ``id="f10"`` or a heading whose slug is the id), from ``docs/explanation/rulings/``."""
    found: dict[str, str] = {}
    for page in sorted((DOCS / "explanation" / "rulings").glob("*.md")):
        text = page.read_text()
        anchors = set(re.findall(r"\{#([\w-]+)[^}]*\}", text))
        anchors |= set(re.findall(r"""(?:id|name)=["']([\w-]+)["']""", text))
        for heading in re.findall(r"^#+\s+(.+?)\s*$", text, re.M):
            anchors.add(re.sub(r"[^\w\s-]", "", heading).strip().lower().replace(" ", "-"))
        for anchor in anchors:
            found.setdefault(anchor, page.name)
    return found


def ruling_links(text: str, system: str, depth: int) -> str:
    """``text`` with each ruling id linked to the rulings page that defines its anchor (the id
    lower-cased); an id no page defines yet stays plain text. Each is kept on one line."""
    up = "../" * depth
    anchors = ruling_anchors()

    def link(match):
        ruling = match.group(1)
        page = anchors.get(ruling.lower())
        if page is not None:
            ruling = f"[{ruling}]({up}explanation/rulings/{page}#{ruling.lower()})"
        return f'<span class="ruling">{ruling}</span>'  # never broken at its hyphen

    return RULING.sub(link, text)


HISTORY = re.compile(r"\s*\(issues? \d+[^)]*\)|\bissues? \d+[^:;,)]*[:;,]?\s*")


def cell(text: str) -> str:
    """Text for a table cell: pipes escaped, on one line, without the project's history
    (an ``(issue NN)`` left in a description)."""
    return HISTORY.sub("", str(text)).replace("|", "\\|").replace("\n", " ")


# --- scenario keys -------------------------------------------------------------------------
def number(value) -> str:
    """A bound as a reader writes it: ``100,000``, ``0.5``, ``2^63 - 1``."""
    if value == 2**63 - 1:
        return "2^63 - 1"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


def type_of(node: dict) -> str:
    """A short reading of a schema node's type: ``a | b``, ``integer 0 to 100``, ..."""
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        words = [f"`{w}`" for w in node["enum"]]
        return " | ".join(words if len(words) <= 10 else [*words[:8], "..."])
    if "oneOf" in node:
        return " or ".join(type_of(n) for n in node["oneOf"])
    kind = node.get("type", "")
    if kind == "array":
        return f"list of {type_of(node.get('items', {})) or 'values'}"
    if kind == "object":
        return "mapping"
    bounds = []
    if "minimum" in node:
        bounds.append(f">= {number(node['minimum'])}")
    if "exclusiveMinimum" in node:
        bounds.append(f"> {number(node['exclusiveMinimum'])}")
    if "maximum" in node:
        bounds.append(f"<= {number(node['maximum'])}")
    return f"{kind} {', '.join(bounds)}".strip() if kind else ""


def walk(node: dict, path: str, rows: dict) -> None:
    """Collect ``path -> (type, description, default)`` for every key under ``node``."""
    for alt in node.get("oneOf", []):
        walk(alt, path, rows)
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        walk(node["items"], f"{path}[]", rows)
    props = node.get("properties", {})
    for key, sub in props.items():
        sub_path = f"{path}.{key}" if path else key
        row = rows.setdefault(sub_path, [type_of(sub), [], sub.get("default")])
        desc = sub.get("description", "")
        if desc and desc not in row[1]:
            row[1].append(desc)
        walk(sub, sub_path, rows)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        walk(extra, f"{path}.<name>" if path else "<name>", rows)


def scenario_keys_page(name: str) -> str:
    system = get_system(name)
    schema = scenario_schema(system)
    rows: dict = {}
    walk(schema, "", rows)
    out = [
        f"# Scenario keys: {short_title(system)}",
        "",
        f"Every key a `system: {name}` scenario may hold ({system.title}), generated from the",
        "JSON Schema the loader's declarations build (`fuzion-sim schema --system "
        f"{name}`). `<name>` stands for a side's name, `[]` for each item of a list. The loader",
        "stays the judge: it also takes stats and skills in any case, which the schema spells",
        "canonically. The rule switches under `rules:` are described in full in",
        f"[Rule switches: {name}](../switches/{name}.md).",
        "",
        "| Key | Type | Meaning |",
        "| --- | --- | --- |",
    ]
    for path, (kind, descs, _default) in rows.items():
        text = ruling_links(cell("; ".join(descs)), name, 2)
        out.append(f"| `{path}` | {cell(kind)} | {text} |")
    return "\n".join(out) + "\n"


# --- switches ------------------------------------------------------------------------------
def switch_comments(name: str) -> dict[str, str]:
    """The comment lines written just above each key of the system's ``SWITCHES`` dict."""
    path = PKG / "systems" / name / "model.py"
    source = path.read_text()
    lines = source.splitlines()
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if not (isinstance(target, ast.Name) and target.id == "SWITCHES"):
            continue
        if not isinstance(node.value, ast.Dict):
            continue
        previous_end = node.value.lineno
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            comments = []
            i = key.lineno - 2
            while i >= previous_end and lines[i].strip().startswith("#"):
                comments.insert(0, lines[i].strip().lstrip("#").strip())
                i -= 1
            # a section's heading comment ("--- falls and knockback ...", with the lines that go
            # on from it) and paths into the rulings folder are for the code's reader, not the
            # reference's
            heading = next((k for k, c in enumerate(comments) if c.startswith("---")), None)
            if heading is not None:
                ends = [k for k, c in enumerate(comments) if k >= heading and c.endswith("---")]
                comments = comments[:heading] + (comments[ends[0] + 1:] if ends else [])
            comments = [c for c in comments if "../" not in c]
            if isinstance(key, ast.Constant) and comments:
                found[key.value] = " ".join(comments)
            previous_end = value.end_lineno
    return found


def values_of(spec) -> str:
    if isinstance(spec.kind, tuple):
        return " \\| ".join(f"`{w}`" for w in spec.kind)
    kind = {bool: "`true` \\| `false`", int: "integer", float: "number"}.get(spec.kind, "")
    bounds = []
    if spec.positive:
        bounds.append("> 0")
    elif spec.low is not None:
        bounds.append(f">= {number(spec.low)}")
    if spec.high is not None:
        bounds.append(f"<= {number(spec.high)}")
    text = f"{kind} {', '.join(bounds)}".strip()
    if spec.nullable:
        text += f"; `null`: {spec.unset or 'unset'}"
    return text


def default_of(spec) -> str:
    value = spec.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if value is None:
        return "`null`"
    return f"`{value}`"


def switches_page(name: str) -> str:
    system = get_system(name)
    notes = switch_comments(name)
    out = [
        f"# Rule switches: {short_title(system)}",
        "",
        f"Every switch of a `system: {name}` scenario's `rules:` block ({system.title}), in",
        "display order, generated from the switch declarations. Each default is the reading",
        "the project's rulings give; the ruling column links to why. A switch with a flag is",
        "also an option of `run`, `compare`, `sweep`, `balance` and `report`.",
        "",
        "| Switch | Default | Values | Ruling | What it decides |",
        "| --- | --- | --- | --- | --- |",
    ]
    for key, spec in system.switches.items():
        what = spec.label
        if key in notes:
            note = notes[key]
            what = note if note.startswith(spec.label) else f"{what}: {note}"
        if spec.flag:
            what += f" (option `--{spec.flag.replace('_', '-')}`)"
        out.append(
            f"| `{key}` | {default_of(spec)} | {values_of(spec)} | "
            f"{ruling_links(spec.ruling, name, 2)} | {ruling_links(cell(what), name, 2)} |"
        )
    return "\n".join(out) + "\n"


# --- output columns ------------------------------------------------------------------------
def declared(name: str) -> tuple[list, list]:
    """The ``Counter`` and ``Categories`` declared in the system's ``run.py`` (literal
    arguments only): ``[(label, description, percent)]``, ``[(json_key, description)]``."""
    tree = ast.parse((PKG / "systems" / name / "run.py").read_text())
    counters, categories = [], []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
        if node.func.id == "Counter" and len(args) >= 2:
            counters.append((args[1], args[2] if len(args) > 2 else "", kw.get("percent")))
        elif node.func.id == "Categories" and len(args) >= 3:
            categories.append((args[2], args[3] if len(args) > 3 else ""))
    return counters, categories


SHARED_COLUMNS = [
    ("combatant", "its name"),
    ("side", "its side"),
    ("p_out", "P(out of the fight at its end): down, unconscious, dying or dead"),
    ("p_dead", "P(dead at the fight's end)"),
    ("damage_dealt_mean", "damage it dealt per fight, after armour"),
    ("damage_taken_mean", "damage it took per fight from attacks, after armour"),
    ("attacks_mean", "attacks it made per fight"),
    ("hit_rate", "hits per attack (empty without attacks)"),
    ("knockback_mean", "knockback units it took per fight (Fuzion)"),
]


def output_columns_page() -> str:
    out = [
        "# Output columns",
        "",
        "What `run` prints per combatant, `run --json` holds under `combatants`,",
        "`Result.combatant_table()` returns and a report's combatant CSV keeps. The first",
        "columns are every system's; the rest are added by a system's kernels when the fight",
        "uses the rules that count them (a counter `X` is reported as `X_mean`: its mean per",
        "fight, or a probability where it is 0 or 1 in a trial). Generated from the",
        "`Counter` and `Categories` declarations of each system. The whole JSON object is",
        "described in [Read the JSON output](../how-to/read-json-output.md).",
        "",
        "## Every system",
        "",
        "| Column | Meaning |",
        "| --- | --- |",
        *(f"| `{c}` | {cell(d)} |" for c, d in SHARED_COLUMNS),
    ]
    for name in BUILTIN:
        counters, categories = declared(name)
        out += ["", f"## {name}", ""]
        if counters:
            out += ["| Column | Meaning |", "| --- | --- |"]
            for label, desc, percent in counters:
                kind = " (0 or 1 in a fight: its mean is a probability)" if percent else ""
                out.append(f"| `{label}_mean` | {ruling_links(cell(desc), name, 1)}{kind} |")
        if categories:
            out += ["", "Counts by category, `{combatant: {category: count}}` in the JSON:", "",
                    "| JSON key | Meaning |", "| --- | --- |"]
            for key, desc in categories:
                out.append(f"| `{key}` | {ruling_links(cell(desc), name, 1)} |")
    out += [
        "",
        "## Sweeps and comparisons",
        "",
        "A sweep's `results.csv` / `results.parquet` has one row per grid point: the grid's",
        "keys (one column each), then these (generated from `sweep_row` in",
        "`fuzion_sim/analysis/sweep.py`; `<side>` stands for each side's name):",
        "",
        *(f"- `{c}`" for c in sweep_columns()),
        "",
        "`compare --json` holds each variant's `run --json` object and the paired differences.",
    ]
    return "\n".join(out) + "\n"


def sweep_columns() -> list[str]:
    """The columns ``sweep_row`` writes, in order (an f-string's fields as ``<side>``)."""
    tree = ast.parse((PKG / "analysis" / "sweep.py").read_text())
    func = next(n for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and n.name == "sweep_row")
    columns = []
    for node in ast.walk(func):
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript)):
            continue
        key = node.targets[0].slice
        if isinstance(key, ast.Constant):
            columns.append((node.lineno, key.value))
        elif isinstance(key, ast.JoinedStr):
            columns.append((node.lineno, "".join(
                v.value if isinstance(v, ast.Constant) else "<side>" for v in key.values)))
    return [name for _line, name in sorted(columns)]


# --- the public API ------------------------------------------------------------------------
def api_page() -> str:
    out = [
        "# Python API",
        "",
        "The public names of `fuzion_sim` (its `__all__`), from their docstrings. They load on",
        "first use, so `import fuzion_sim as fz` is quick.",
        "",
    ]
    for name in fuzion_sim.__all__:
        if name == "__version__":
            continue
        if name in fuzion_sim._LAZY:
            module, attr = fuzion_sim._LAZY[name]
            if module == ".api":  # the API re-exports it: document it where it is defined
                module = getattr(api, attr).__module__.removeprefix("fuzion_sim")
            target = "fuzion_sim" + module + (f".{attr}" if attr else "")
        else:
            target = f"fuzion_sim.errors.{name}"
        out += [f"## `{name}`", "", f"::: {target}", "    options:",
                "      show_root_heading: false", "      heading_level: 3", ""]
    return "\n".join(out)


# --- tables of the explanation pages -------------------------------------------------------
def fuzion_range_table() -> str:
    from fuzion_sim.systems.fuzion.rules import object_dv, range_modifier

    rm = getattr(range_modifier, "py_func", range_modifier)
    dv = getattr(object_dv, "py_func", object_dv)
    rows = [("Melee", "up to 4 m", 4), ("Close", "over 4 m to 10 m", 10),
            ("Medium", "over 10 m to 50 m", 50), ("Long", "over 50 m to the weapon's range", 300)]
    out = ["| Band | Distance | Attack modifier (F10) | DV to hit an object or point (F4) |",
           "| --- | --- | --- | --- |"]
    for band, span, metres in rows:
        out.append(f"| {band} | {span} | {rm(metres, 300.0):+d} | {int(dv(metres, 300.0))} |")
    out.append(f"| Extreme | past the weapon's range | {rm(301, 300.0):+d}, then "
               f"{rm(351, 300.0) - rm(301, 300.0):+d} per full 50 m past it | "
               f"{int(dv(301, 300.0))}, then +2 per full 100 m past it |")
    out += ["", "Worked from `fuzion_sim/systems/fuzion/rules.py` for a weapon of 300 m "
            "range; a weapon whose listed range is under 50 m is at Extreme range past it."]
    return "\n".join(out)


def colour_table() -> str:
    data = yaml.safe_load((PKG / "systems/colour/data/universal_table.yaml").read_text())
    out = ["| Column (rank) | White | Green | Yellow | Red |", "| --- | --- | --- | --- | --- |"]
    for col in data["columns"]:
        w, g, y = col["white"], col["green"], col["yellow"]
        white = f"06-{w:02d}" if w >= 6 else "-"  # 01-05 is Blue on every column
        green = f"{max(w + 1, 6):02d}-{g:02d}"
        red = f"{y + 1:02d}-100" if y < 100 else "-"
        out.append(f"| {col['name']} | {white} | {green} | {g + 1:02d}-{y:02d} | {red} |")
    out += ["", "A d100 of 01-05 is Blue on every column (K2); Super Crit is a roll of "
            "`rules.super_crit_on` (100) or more in the Red band. From "
            "`fuzion_sim/systems/colour/data/universal_table.yaml`."]
    return "\n".join(out)


def fudge_tables() -> str:
    from fuzion_sim.systems.fudge import tables as t

    out = ["**Damage Capacity modifier** (§8.2212, by the defender's ladder level):", "",
           "| Level | " + " | ".join(f"{k:+d}" for k in sorted(t.DC_MODIFIER)) + " |",
           "| --- |" + " --- |" * len(t.DC_MODIFIER),
           "| Modifier | " + " | ".join(f"{t.DC_MODIFIER[k]:+d}" for k in sorted(t.DC_MODIFIER))
           + " |", "",
           "**Shot modifier** (§8.2213, percent of Basic Damage by the Damage Roll):", "",
           "| Damage Roll | " + " | ".join(f"{k:+d}" for k in sorted(t.SHOT_PERCENT)) + " |",
           "| --- |" + " --- |" * len(t.SHOT_PERCENT),
           "| % of BD | " + " | ".join(f"{t.SHOT_PERCENT[k]:+d}" for k in sorted(t.SHOT_PERCENT))
           + " |", "",
           "**Range** (U5): " + ", ".join(f"{m} m {t.range_modifier(m):+d}" for m in (10, 50, 200))
           + f", beyond {t.range_modifier(201):+d}. **Target speed**: "
           + ", ".join(f"{k} {v:+d}" for k, v in t.SPEED.items()) + ". **Light**: "
           + ", ".join(f"{k} {v:+d}" for k, v in t.LIGHT.items()) + ". **Fog**: "
           + ", ".join(f"{k} {v:+d}" for k, v in t.FOG.items()) + ".", "",
           "**Concussion** (U4): x2 within half the Concussion Range, x1 to it, then halved "
           "for every further Concussion Range. The wound levels, in order: "
           + ", ".join(t.LEVELS[1:]) + ". From `fuzion_sim/systems/fudge/tables.py`."]
    return "\n".join(out)


GENERATED = {"fuzion-range-bands": fuzion_range_table, "colour-table": colour_table,
             "fudge-damage": fudge_tables}


def fill_tables() -> None:
    for page in sorted((DOCS / "explanation").glob("*.md")):
        text = page.read_text()
        if "<!-- generated:" not in text:
            continue
        for key, make in GENERATED.items():
            text = text.replace(f"<!-- generated: {key} -->", make())
        with mkdocs_gen_files.open(f"explanation/{page.name}", "w") as fh:
            fh.write(text)


def main() -> None:
    for name in BUILTIN:
        with mkdocs_gen_files.open(f"reference/scenario-keys/{name}.md", "w") as fh:
            fh.write(scenario_keys_page(name))
        with mkdocs_gen_files.open(f"reference/switches/{name}.md", "w") as fh:
            fh.write(switches_page(name))
    with mkdocs_gen_files.open("reference/output-columns.md", "w") as fh:
        fh.write(output_columns_page())
    with mkdocs_gen_files.open("reference/api.md", "w") as fh:
        fh.write(api_page())
    fill_tables()
    with mkdocs_gen_files.open("changelog.md", "w") as fh:
        fh.write((ROOT / "CHANGELOG.md").read_text())


main()
