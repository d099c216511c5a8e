"""Every ruling id the code and the scenarios cite is explained in the project's docs.

The rules this project implements leave many points open; each reading it takes is a ruling with
an id (``F10``, ``VA-40``, ``CA12``, ``UA1`` ...). Code comments, docstrings and scenario comments
cite those ids, so a reader who has only the repository must be able to look each one up. The
pages under ``docs/explanation/rulings/`` give every id a heading with an explicit anchor
(``### F10: range bands {#f10}``); these tests collect the ids cited and check each resolves.

Id families (where each is defined):

- global, one meaning everywhere: ``F<n>`` (and ``F1b``), ``K<n>``, ``U<n>`` (the project's
  base rulings for Fuzion, the colour system and FUDGE); ``VA-<n>``, ``M-<n>``, ``E-<n>``,
  ``T-<n>`` (Fuzion vehicles: rulings, mechanics, worked examples, table checks); ``CA<n>``
  (colour rulings); ``UA<n>`` (and ``UA18b``, FUDGE rulings); ``D-FZ-<n>`` (discussion entries
  of the seed catalogue);
- local to one rule system, so resolved on that system's page: ``M<n>`` (mechanics), ``X<n>``
  and ``T<n>`` (colour examples and table checks), ``E<n>`` and ``C<n>`` (FUDGE examples and
  FUDGE-core facts).

A range such as ``VA-46 to VA-48``, ``F20-F21``, ``UA20-22`` or ``CA1..CA104`` cites every id in
it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULINGS_DIR = ROOT / "docs" / "explanation" / "rulings"

# The page of each rule system (the folder name under fuzion_sim/systems/, and a scenario's
# ``system:``); local ids resolve there.
SYSTEM_PAGE = {"fuzion": "vehicles.md", "colour": "colour.md", "fudge": "fudge.md"}

_ID = (r"(?:D-FZ-\d+|VA-\d+|M-\d+|E-\d+|T-\d+|CA\d+|UA\d+b?|F\d+b?|K\d+|U\d+"
       r"|M\d+|E\d+|X\d+|T\d+|C\d+)")
_ID_RE = re.compile(rf"(?<![\w-]){_ID}(?!\w)")
_RANGE_RE = re.compile(rf"(?<![\w-])({_ID})\s*(?:-|–|\.\.|\bto\b)\s*({_ID}|\d+)(?![\w-])")
_PARTS = re.compile(r"^(D-FZ-|[A-Z]+-?)(\d+)(b?)$")
_LOCAL_PREFIXES = {"M", "E", "X", "T", "C"}

# Tokens that look like ids but are not citations (a linter's rule code, for one). Keep this
# list short and say why each is here.
FALSE_POSITIVES = {
    "E731",  # ruff's rule code for "do not assign a lambda", in suppression comments
    "C1",  # the C1 control characters (0x80-0x9f) the terminal's escaping names
}


def _normalise(rid: str) -> str:
    """Spell an id as its anchor does: the hyphenated families use two digits (``VA-7`` is
    ``VA-07``), the others none."""
    prefix, num, suffix = _PARTS.match(rid).groups()
    if prefix.endswith("-") and prefix != "D-FZ-":
        return f"{prefix}{int(num):02d}{suffix}"
    return f"{prefix}{int(num)}{suffix}"


_NOQA_RE = re.compile(r"#\s*noqa:[A-Z0-9, ]*")


def ids_in(text: str) -> set[str]:
    """The ids a text cites, ranges expanded, false positives and linter codes dropped (a
    ``# noqa: F401`` names a rule of the linter, not of the game)."""
    text = _NOQA_RE.sub("", text)
    found = {_normalise(m) for m in _ID_RE.findall(text) if m not in FALSE_POSITIVES}
    for first, last in _RANGE_RE.findall(text):
        p1, n1, _ = _PARTS.match(first).groups()
        m2 = _PARTS.match(last)
        p2, n2 = (m2.group(1), m2.group(2)) if m2 else (p1, last)
        if p1 != p2 or int(n2) <= int(n1) or int(n2) - int(n1) > 200:
            continue
        found.update(_normalise(f"{p1}{i}") for i in range(int(n1), int(n2) + 1))
    return found


def _scope(prefix_id: str, system: str | None) -> str | None:
    """The page a local id must resolve on (None: any page)."""
    prefix = _PARTS.match(prefix_id).group(1)
    if prefix in _LOCAL_PREFIXES and system is not None:
        return SYSTEM_PAGE[system]
    return None


def cited_in_code() -> dict[tuple[str, str | None], set[str]]:
    """{(id, page or None): files citing it} over fuzion_sim/**/*.py."""
    cited: dict[tuple[str, str | None], set[str]] = {}
    for path in sorted((ROOT / "fuzion_sim").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        parts = path.relative_to(ROOT / "fuzion_sim").parts
        system = parts[1] if parts[0] == "systems" and parts[1] in SYSTEM_PAGE else None
        for rid in ids_in(path.read_text(encoding="utf-8")):
            cited.setdefault((rid, _scope(rid, system)), set()).add(rel)
    return cited


def cited_in_scenarios() -> dict[tuple[str, str | None], set[str]]:
    """{(id, page or None): files citing it} over the comments of scenarios/**/*.yaml."""
    cited: dict[tuple[str, str | None], set[str]] = {}
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        m = re.search(r"^system:\s*(\w+)", text, re.M)
        system = m.group(1) if m and m.group(1) in SYSTEM_PAGE else "fuzion"
        comments = "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
        for rid in ids_in(comments):
            cited.setdefault((rid, _scope(rid, system)), set()).add(rel)
    return cited


def anchors() -> dict[str, set[str]]:
    """{page name: the explicit heading anchors it defines}."""
    out: dict[str, set[str]] = {}
    for page in sorted(RULINGS_DIR.glob("*.md")):
        heads = [ln for ln in page.read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
        out[page.name] = {a for ln in heads for a in re.findall(r"\{#([\w-]+)", ln)}
    return out


def _unresolved(cited: dict[tuple[str, str | None], set[str]]) -> list[str]:
    pages = anchors()
    everywhere = set().union(*pages.values()) if pages else set()
    missing = []
    for (rid, page), files in sorted(cited.items()):
        have = pages.get(page, set()) if page else everywhere
        if rid.lower() not in have:
            where = f"docs/explanation/rulings/{page}" if page else "any rulings page"
            cited_in = ", ".join(sorted(files)[:3])
            missing.append(f"{rid} (cited in {cited_in}; no #{rid.lower()} in {where})")
    return missing


def test_id_regex_reads_ranges_and_skips_false_positives():
    assert ids_in("F20-F21, VA-46 to VA-48; UA20-22 (CA1..CA3) noqa: E731") == {
        "F20", "F21", "VA-46", "VA-47", "VA-48", "UA20", "UA21", "UA22", "CA1", "CA2", "CA3"}
    assert ids_in("UA18b, F1b, VA-7, int64, float32, 0x9E37") == {"UA18b", "F1b", "VA-07"}
    assert ids_in("import ipywidgets  # noqa: F401, E402") == set()


def test_the_rulings_pages_exist():
    pages = anchors()
    for name in ("index.md", "fuzion.md", "vehicles.md", "colour.md", "fudge.md"):
        assert name in pages, f"docs/explanation/rulings/{name} is missing"


def test_every_id_cited_in_the_code_has_a_docs_anchor():
    cited = cited_in_code()
    assert len({rid for rid, _ in cited}) > 250  # the collector still sees the citations
    missing = _unresolved(cited)
    assert not missing, f"{len(missing)} ruling ids cited in fuzion_sim/ have no docs anchor:\n" + \
        "\n".join(missing)


def test_every_id_cited_in_scenario_comments_has_a_docs_anchor():
    cited = cited_in_scenarios()
    assert cited
    missing = _unresolved(cited)
    assert not missing, f"{len(missing)} ruling ids cited in scenarios/ have no docs anchor:\n" + \
        "\n".join(missing)


def test_anchors_are_unique_within_a_page():
    for page in sorted(RULINGS_DIR.glob("*.md")):
        heads = [ln for ln in page.read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
        found = [a for ln in heads for a in re.findall(r"\{#([\w-]+)", ln)]
        dupes = sorted({a for a in found if found.count(a) > 1})
        assert not dupes, f"{page.name}: anchors defined twice: {dupes}"


def test_no_docs_point_outside_the_repository():
    """The rulings live outside the repository (../shared/); a clone does not have them, so
    README.md and docs/ must point at the docs pages instead."""
    bad = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "../shared/" in line:
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not bad, "links to ../shared/ (not in a clone):\n" + "\n".join(bad)


def test_the_index_lists_every_page():
    index = (RULINGS_DIR / "index.md").read_text(encoding="utf-8")
    for page in sorted(RULINGS_DIR.glob("*.md")):
        if page.name != "index.md":
            assert f"]({page.name})" in index, f"index.md does not link {page.name}"


def _section(text: str, anchor: str) -> str:
    """The text under the heading with ``{#anchor}``, up to the next heading."""
    m = re.search(rf"^#+ .*\{{#{re.escape(anchor)}\}}.*$", text, re.M)
    if not m:
        return ""
    rest = text[m.end():]
    nxt = re.search(r"^#+ ", rest, re.M)
    return rest[: nxt.start()] if nxt else rest


def test_every_switch_is_named_under_its_ruling():
    """Each ``rules:`` switch is explained where its ruling is, so a reader of a switch's
    ruling id finds its name, values and default there."""
    import importlib

    pages = {p.name: p.read_text(encoding="utf-8") for p in RULINGS_DIR.glob("*.md")}
    missing = []
    for system in SYSTEM_PAGE:
        switches = importlib.import_module(f"fuzion_sim.systems.{system}.model").SWITCHES
        for name, sw in switches.items():
            if not any(f"`{name}`" in _section(text, sw.ruling.lower()) for text in pages.values()):
                missing.append(f"{system}: `{name}` ({sw.ruling})")
    assert not missing, "switches not named under their ruling's heading:\n" + "\n".join(missing)
