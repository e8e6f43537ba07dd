"""Bytecode for the package, as ``pip install`` leaves it, before whole commands are timed.

A user's ``pip install mt-checkpoints`` compiles every module once at install
time, and sacreBLEU, timed beside us, is installed that way. An editable
checkout run with ``PYTHONDONTWRITEBYTECODE`` set (as on some CI machines)
would instead compile ~70 modules from source on every command, ~0.1 s that no
installed user pays; compiling them first keeps the comparison fair.
"""

from __future__ import annotations

import compileall
import importlib.util

PACKAGES = ("checkpoints", "checkpoints.evaluate", "checkpoints.extract", "checkpoints.db",
            "checkpoints.taxonomy", "checkpoints.training")


def compile_package_bytecode() -> bool:
    """Write the package's bytecode next to its sources; True when every module compiled."""
    compiled = True
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compiled &= bool(compileall.compile_dir(folder, quiet=1))
    return compiled
