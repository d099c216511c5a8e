"""The package version, its one source: pyproject.toml reads it, ``fuzion-sim --version``
prints it."""

__version__ = "0.1.0"
