"""The scenario's ``obstacles:``, ``drops:`` and ``terrain:`` (knockback into
obstacles and walls, falls, ground that slows; ../shared/rulings/vehicles/ M-11, M-40, M-60,
M-72, VA-41, VA-51), built from YAML with the shared
checks (file, line, key path, did-you-mean), and the checks across the scenario: a ``jump``
names a drop, a vehicle in such a fight has a weight.

An obstacle is a rectangle ``at: [x, y]`` (its corner with the least x and y) of ``size: [w,
h]`` metres, with ``sdp:`` or ``kills:`` (its structure; neither: it never breaks) and a
``weight:`` (the falling table's row of the obstacle, kept for the ramming rules; a knockback
into it goes by the weight of the one knocked, VA-41). A drop is a circle ``at: [x, y]``,
``radius`` metres, ``height`` metres deep: a ledge, a window, a hole. A terrain zone is
``kind: easy | rough | very_rough`` over a rectangle (``at``, ``size``) or a circle (``at``,
``radius``); the later one listed lies on top where two overlap (``features/scene/terrain.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from fuzion_sim.errors import did_you_mean
from fuzion_sim.validation.checks import (
    MISSING,
    Context,
    check_choice,
    check_int,
    check_mapping,
    check_number,
    check_str,
    describe,
    optional,
)

from ...codes import IMPACT_OPTIONS, IO_ANY, IO_BLOCK, IO_KB_MODE
from ..vehicles.build import parse_weight

__all__ = [
    "DROP_KEYS", "OBSTACLE_KEYS", "SCENE_KEYS", "TERRAIN_KEYS", "Drop", "Obstacle", "Terrain",
    "build_scene", "check_scene", "impact_weight", "terrain_array", "terrain_at", "terrain_dvs",
]  # fmt: skip

#: The scenario-level keys Fuzion adds to the envelope.
SCENE_KEYS = ("obstacles", "drops", "terrain")
OBSTACLE_KEYS = ("name", "at", "size", "sdp", "kills", "weight")
DROP_KEYS = ("name", "at", "radius", "height")
TERRAIN_KEYS = ("name", "kind", "at", "size", "radius")
#: Most obstacles and drops a scenario may hold, each.
MAX_SCENE = 64
_COORD = (-1e6, 1e6)
#: A person's weight when the scenario gives none (VA-36: "Adult Male", 72 kg).
PERSON_KG = 72.0


@dataclass(frozen=True)
class Obstacle:
    """A wall, a car, a block: the rectangle ``x .. x + w``, ``y .. y + h`` (metres); ``sdp``
    or ``kills`` its structure (both 0: it never breaks); ``weight_kg`` its weight (None)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    sdp: int = 0
    kills: int = 0
    weight_kg: float | None = None


@dataclass(frozen=True)
class Drop:
    """A ledge, window or hole: the circle of ``radius`` m about ``(x, y)``, ``height`` m deep."""

    name: str
    x: float
    y: float
    radius: float
    height: float


@dataclass(frozen=True)
class Terrain:
    """A stretch of ground of ``kind`` (``scene.terrain.TERRAIN_CLASSES``): the rectangle ``x .. x +
    w``, ``y .. y + h`` (``radius`` 0), or the circle of ``radius`` m about ``(x, y)``."""

    name: str
    kind: str
    x: float
    y: float
    w: float = 0.0
    h: float = 0.0
    radius: float = 0.0


def _pair(ctx: Context, parts, value, positive: bool) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise ctx.fail(parts, f"expected [x, y] (two numbers), got {describe(value)}")
    lo, hi = (None, 1e6) if positive else _COORD
    return (check_number(ctx, [*parts, 0], value[0], lo, hi, positive=positive),
            check_number(ctx, [*parts, 1], value[1], lo, hi, positive=positive))  # fmt: skip


def _named_list(ctx: Context, key: str, raw) -> list:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ctx.fail([key], f"expected a list of {key}, got {describe(raw)}")
    if len(raw) > MAX_SCENE:
        raise ctx.fail([key], f"more than {MAX_SCENE} {key} (allowed: 0 to {MAX_SCENE})")
    return raw


def _name(ctx: Context, parts, value: dict, seen: dict) -> str:
    name = check_str(ctx, [*parts, "name"], value["name"])
    if name in seen:
        raise ctx.fail([*parts, "name"], f"duplicate name '{name}' (also at {seen[name]})")
    seen[name] = f"{parts[0]}[{parts[1]}]"
    return name


def _obstacle(ctx: Context, parts, value, seen: dict) -> Obstacle:
    check_mapping(ctx, parts, value, OBSTACLE_KEYS, required=("name", "at", "size"))
    name = _name(ctx, parts, value, seen)
    x, y = _pair(ctx, [*parts, "at"], value["at"], positive=False)
    w, h = _pair(ctx, [*parts, "size"], value["size"], positive=True)
    sdp = optional(value, "sdp")
    kills = optional(value, "kills")
    if sdp is not MISSING and kills is not MISSING:
        raise ctx.fail([*parts, "kills"], "give sdp (Structural Damage Points) or kills, not both")
    sdp = 0 if sdp is MISSING else check_int(ctx, [*parts, "sdp"], sdp, 1, "sdp", 1_000_000)
    kills = 0 if kills is MISSING else check_int(ctx, [*parts, "kills"], kills, 1, "kills", 10_000)
    weight = optional(value, "weight")
    weight = None if weight is MISSING else parse_weight(ctx, [*parts, "weight"], weight)
    return Obstacle(name, x, y, w, h, sdp, kills, weight)


def _drop(ctx: Context, parts, value, seen: dict) -> Drop:
    check_mapping(ctx, parts, value, DROP_KEYS, required=("name", "at", "height"))
    name = _name(ctx, parts, value, seen)
    x, y = _pair(ctx, [*parts, "at"], value["at"], positive=False)
    radius = optional(value, "radius")
    radius = 1.0 if radius is MISSING else check_number(ctx, [*parts, "radius"], radius, None,
                                                        1e4, positive=True)  # fmt: skip
    height = check_number(ctx, [*parts, "height"], value["height"], None, 1e5, positive=True)
    return Drop(name, x, y, radius, height)


def _terrain(ctx: Context, parts, value, seen: dict) -> Terrain:
    from .terrain import TERRAIN_CLASSES

    check_mapping(ctx, parts, value, TERRAIN_KEYS, required=("name", "kind", "at"))
    name = _name(ctx, parts, value, seen)
    kind = check_choice(ctx, [*parts, "kind"], value["kind"], TERRAIN_CLASSES, "terrain")
    x, y = _pair(ctx, [*parts, "at"], value["at"], positive=False)
    shapes = [k for k in ("size", "radius") if k in value]
    if len(shapes) != 1:
        raise ctx.fail(parts, f"terrain '{name}' needs exactly one of size: [w, h] (a "
                              f"rectangle from at) or radius: r (a circle about at), got "
                              f"{len(shapes)}")  # fmt: skip
    if shapes[0] == "size":
        w, h = _pair(ctx, [*parts, "size"], value["size"], positive=True)
        return Terrain(name, kind, x, y, w, h)
    radius = check_number(ctx, [*parts, "radius"], value["radius"], None, 1e6, positive=True)
    return Terrain(name, kind, x, y, radius=radius)


def build_scene(ctx: Context, data: dict) -> dict:
    """The scenario's ``obstacles``, ``drops`` and ``terrain`` (tuples, empty when absent)."""
    seen: dict[str, str] = {}
    obstacles = tuple(
        _obstacle(ctx, ["obstacles", i], v, seen)
        for i, v in enumerate(_named_list(ctx, "obstacles", data.get("obstacles")))
    )
    drops = tuple(_drop(ctx, ["drops", i], v, seen)
                  for i, v in enumerate(_named_list(ctx, "drops", data.get("drops"))))  # fmt: skip
    terrain = tuple(_terrain(ctx, ["terrain", i], v, seen)
                    for i, v in enumerate(_named_list(ctx, "terrain", data.get("terrain"))))
    return {"obstacles": obstacles, "drops": drops, "terrain": terrain}


def impact_weight(combatant) -> float | None:
    """The weight in kg a fall or collision of ``combatant`` goes by (VA-36): its ``weight:``,
    a vehicle's ``vehicle.weight``, a person's 72 kg; None for a vehicle without one."""
    if combatant.vehicle is not None:
        return combatant.vehicle.weight_kg
    return PERSON_KG if combatant.weight_kg is None else combatant.weight_kg


def check_scene(ctx: Context, rules, sides: dict, scene: dict) -> None:
    """Across the scenario: every ``jump`` names a drop (else a did-you-mean); a fight with
    obstacles or drops gives each vehicle a weight; ``rules.knockback_collision`` and the
    other impact switches are read only with an obstacle or a drop (a warning)."""
    names = [d.name for d in scene.get("drops", ())]
    for side, members in sides.items():
        for index, c in enumerate(members):
            for r, rule in enumerate(c.tactics):
                if rule.get("do") != "jump":
                    continue
                drop = rule.get("drop")
                if c.vehicle is not None or c.carrier is not None:
                    raise ctx.fail(["sides", side, index, "tactics", r, "do"],
                                   f"{c.name}: a vehicle or its crew cannot jump (a vehicle "
                                   "goes over a drop in its way, a drive or a skid, and its "
                                   "crew go with it)")  # fmt: skip
                if drop not in names:
                    where = ", ".join(names) if names else "the scenario has no drops:"
                    raise ctx.fail(
                        ["sides", side, index, "tactics", r, "drop"],
                        f"'{drop}' is not a drop of the scenario ({where})"
                        if names
                        else f"jump: the scenario has no drops (add drops: [{{name: "
                        f"{drop}, at: [x, y], radius: 1, height: 8}}])",
                        did_you_mean(str(drop), names) if names else None,
                    )
    if not (scene.get("obstacles") or scene.get("drops")):
        return
    for side, members in sides.items():  # M-10: nothing stands inside a solid object
        for index, c in enumerate(members):
            x, y = c.xy
            for o in scene.get("obstacles", ()):
                if c.carrier is None and o.x < x < o.x + o.w and o.y < y < o.y + o.h:
                    raise ctx.fail(["sides", side, index, "position"],
                                   f"{c.name} stands inside obstacle '{o.name}' (from "
                                   f"({o.x:g}, {o.y:g}), {o.w:g} x {o.h:g} m): nothing stands "
                                   "in a solid object (M-10); move one of them")  # fmt: skip
            grounded = c.vehicle is not None and c.vehicle.locomotion != "air"
            for d in scene.get("drops", ()) if grounded else ():
                if (x - d.x) ** 2 + (y - d.y) ** 2 < d.radius**2:
                    raise ctx.fail(["sides", side, index, "position"],
                                   f"{c.name} stands over drop '{d.name}' (radius "
                                   f"{d.radius:g} m about ({d.x:g}, {d.y:g})): a vehicle "
                                   "there would go over at its first move; move one of "
                                   "them")  # fmt: skip
    for c in (c for members in sides.values() for c in members):
        if c.carrier is None and impact_weight(c) is None:
            key = "obstacles" if scene.get("obstacles") else "drops"
            raise ctx.fail([key], f"{c.name} is a vehicle without vehicle.weight: a fight with "
                                  "obstacles or drops needs it (falls and collisions go by "
                                  "weight, M-60)")  # fmt: skip


#: The plan's arrays of the falls and obstacles (``compile.Plan``, the kernel's order).
IMPACT_FIELDS = ("im_row", "ob_rect", "ob_sdp", "ob_kills", "drop_geo", "fall_dc", "fall_kills",
                 "im_bands", "im_opts", "terrain")  # fmt: skip
_KB_MODES = {"as_fall": 0, "speed": 1, "none": 2}


def impact_arrays(scenario, fighters) -> dict:
    """The arrays of the falls and obstacles (``scene.room.Impacts``): each combatant's weight row
    (VA-36), the obstacles' rectangles ``(x0, y0, x1, y1)`` and structure (0: it never breaks;
    ``ob_kills`` 1 when in Kills), the drops ``(x, y, radius, height)``, the table's DC and
    Kills, the column bands (row 0 fall heights under ``falling_columns``, padded with inf;
    row 1 closing speeds in m/s under ``collision_speed_bands``) and ``im_opts``."""
    import numpy as np

    from ...tables import falling_table

    rules = scenario.rules.values
    scene = getattr(scenario, "scene", None) or {}
    obstacles = scene.get("obstacles", ())
    drops = scene.get("drops", ())
    table = falling_table()
    mode = rules.get("weight_row", "nearest_ratio")
    rows = [table.weight_row(impact_weight(c) or PERSON_KG, mode) for c in fighters]
    bands = np.full((2, 11), np.inf)
    heights = table.heights[rules.get("falling_columns", "six")]
    bands[0, : len(heights)] = heights
    bands[1] = table.speeds[rules.get("collision_speed_bands", "fall_equivalent")]
    from ...compile import switch_slots

    opts = switch_slots("im_opts", IMPACT_OPTIONS, scenario.rules)
    opts[IO_ANY] = bool(obstacles or drops or scene.get("terrain"))
    opts[IO_KB_MODE] = _KB_MODES[rules.get("knockback_collision", "as_fall")]
    opts[IO_BLOCK] = bool(obstacles) and bool(rules.get("obstacles_block", True))
    return {
        "im_row": np.asarray(rows, np.int64),
        "ob_rect": np.asarray([(o.x, o.y, o.x + o.w, o.y + o.h) for o in obstacles],
                              np.float64).reshape(-1, 4),
        "ob_sdp": np.asarray([o.sdp or o.kills for o in obstacles], np.int64).reshape(-1),
        "ob_kills": np.asarray([bool(o.kills) for o in obstacles], np.int64).reshape(-1),
        "drop_geo": np.asarray([(d.x, d.y, d.radius, d.height) for d in drops],
                               np.float64).reshape(-1, 4),
        "fall_dc": np.ascontiguousarray(table.dc, np.int64).copy(),
        "fall_kills": np.ascontiguousarray(table.kills, np.int64).copy(),
        "im_bands": bands,
        "im_opts": opts,
        "terrain": terrain_array(scene.get("terrain", ()), rules),
    }  # fmt: skip


def terrain_array(zones, rules):
    """``im.terrain`` (``features/scene/terrain.py``): the header (each class's share of MOVE,
    ``terrain.yaml``; the DV each adds to a manoeuvre, ``manoeuvres.yaml``'s conditions, 0 under
    ``terrain_effect: move_only``), then a record a zone (shape, class, geometry)."""
    import numpy as np

    from ...tables import terrain_move
    from . import terrain as tr

    move = terrain_move()
    dvs = terrain_dvs(rules)
    out = [move[k] for k in tr.TERRAIN_CLASSES] + [float(dvs[k]) for k in tr.TERRAIN_CLASSES]
    for z in zones:
        kind = float(tr.TERRAIN_CLASSES.index(z.kind))
        if z.radius > 0.0:
            out += [tr.TZ_CIRCLE, kind, z.x, z.y, z.radius, 0.0]
        else:
            out += [tr.TZ_RECT, kind, z.x, z.y, z.x + z.w, z.y + z.h]
    return np.asarray(out, np.float64)


def terrain_dvs(rules) -> dict[str, int]:
    """What each terrain adds to a manoeuvre's DV (VA-51: ``manoeuvres.yaml``'s conditions,
    rough +2 and very rough +4; all 0 under ``terrain_effect: move_only``)."""
    from ...tables import manoeuvre_conditions
    from .terrain import TERRAIN_CLASSES

    dvs = manoeuvre_conditions()
    with_dv = rules.get("terrain_effect", "move_and_dv") == "move_and_dv"
    return {k: int(dvs.get(k, 0)) if with_dv else 0 for k in TERRAIN_CLASSES}


def terrain_at(zones, x: float, y: float) -> str:
    """The terrain at ``(x, y)``: the last zone listed that holds it (edges inside), else
    ``easy`` (``scene.terrain.class_at``)."""
    for z in reversed(zones):
        if z.radius > 0.0:
            if (x - z.x) ** 2 + (y - z.y) ** 2 <= z.radius**2:
                return z.kind
        elif z.x <= x <= z.x + z.w and z.y <= y <= z.y + z.h:
            return z.kind
    return "easy"
