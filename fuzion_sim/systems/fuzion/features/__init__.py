"""Fuzion's optional rule families, one folder each, with the same rooms where a family has them:
``room.py`` (the jitted code the general kernel calls behind the family's flag), ``build.py``
(the plan's arrays, at compile time), ``exact.py`` (exact answers) and ``narrate.py`` (how a
logged event reads). A fight without the family compiles none of its room
(``kernel.Features``).

The families sit in layers, each importing only those below it (an import-linter contract):
motion, hazards and missiles (independent of each other) over the scene (falls, obstacles,
terrain, throws), over vehicles (hulls, crews, powered armour), over dogfights.
"""
