"""Dogfights (M-53 to M-58, VA-16, VA-32 to VA-34): the Advantage chart, tailing and breaking
off (``room.py``), their arrays (``build.py``) and exact answers (``exact.py``)."""
