"""The environment (M-67 to M-71, VA-46 to VA-48): hazard zones, breath and poison
(``room.py``), their arrays (``build.py``) and exact answers (``exact.py``)."""
