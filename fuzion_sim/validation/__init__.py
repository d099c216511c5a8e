"""What a rule system builds its part of a scenario with, below the systems.

- :mod:`.checks`: one :class:`~.checks.Context` per scenario and the value checks every system
  builds its members with (file, line, key path, the problem, a did-you-mean, every problem
  at once);
- :mod:`.yaml_io`: YAML read with the line of every key (the scenario, a system's catalogue);
- :mod:`.keypath`: key paths, ``sides.red[0].weapon``, written and read;
- :mod:`.model`: the validated :class:`~.model.Scenario` and its :class:`~.model.Rules`, what
  the loader returns and a system compiles.

None of these knows a rule system. The loader, which reads the envelope and asks the registry
for each member's system, is :mod:`fuzion_sim.scenario`, above the systems.
"""
