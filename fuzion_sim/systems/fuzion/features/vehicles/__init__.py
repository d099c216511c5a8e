"""Vehicles and powered armour (M-22 to M-30, M-35, VA-05 to VA-18, VA-44): where a hit lands by
the attacker's facing, critical locations, the crew (``room.py``), powered armour and the mecha
range scale (``suit.py``), and a vehicle's sheet read from its scenario keys (``build.py``)."""
