"""``python -m fuzion_sim``: the ``fuzion-sim`` command, through the same entry point as the
console script (:func:`fuzion_sim.entry.main`)."""

from fuzion_sim.entry import main

if __name__ == "__main__":
    main()
