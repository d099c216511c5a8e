"""Missiles (F18, M-42 to M-45, VA-20 to VA-26): a launch, the engagement its target evades,
countermeasures and the damage of each missile that hits (``room.py``)."""
