"""Shared scenario pieces of the vehicles-in-motion tests: a car, jet or walker with
its driver, and a watcher far off who keeps a one-sided fight open."""

from __future__ import annotations


def driven(name, position, tactics, *, cls="ground", speed=30, move=40, sdp=40, pd=4, ref=6,
        skill=4, driver=None, **vehicle) -> dict:  # fmt: skip
    """A vehicle of class ``cls`` (1.15 t) at ``position`` driven by ``{name} driver`` (REF
    ``ref``, Driving or Piloting ``skill``; ``driver``: more of the driver's keys)."""
    skill_name = "Piloting" if cls == "aircraft" else "Driving"
    pilot = {"name": f"{name} driver", "role": "pilot", "stats": {"REF": ref},
             "skills": {skill_name: skill}}  # fmt: skip
    for key, value in (driver or {}).items():
        pilot[key] = {**pilot[key], **value} if isinstance(value, dict) and key in pilot else value
    return {"name": name, "position": list(position), "tactics": tactics,
            "armor": {"name": "Steel", "pd": pd},
            "vehicle": {"class": cls, "sdp": sdp, "move": move, "speed": speed,
                        "weight": "1.15 t", **vehicle, "crew": [pilot]}}  # fmt: skip


WATCHER = {"name": "Watcher", "stats": {"REF": 3}, "position": [50_000, 0],
           "tactics": [{"do": "none"}]}  # fmt: skip
