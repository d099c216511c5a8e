"""The scene: falls and knockback into obstacles (M-40, M-59 to M-62, M-72, VA-35 to VA-38,
VA-41; ``room.py``), terrain (VA-51; ``terrain.py``), their arrays (``build.py``), throws
(``throws.py``) and exact answers (``exact.py``)."""
