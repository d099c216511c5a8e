"""Vehicles in motion (M-46 to M-52, M-62 to M-66, VA-19, VA-27 to VA-31, VA-39, VA-40):
driving, manoeuvres, loss of control and rams (``room.py``), their arrays (``build.py``), exact
answers (``exact.py``) and narration (``narrate.py``)."""
