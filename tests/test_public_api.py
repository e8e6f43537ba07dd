"""The service layer is the public API: every name ``checkpoints`` exports resolves, lazily."""

from __future__ import annotations

import subprocess
import sys

import checkpoints


def test_every_exported_name_resolves_to_a_service_object() -> None:
    for name in checkpoints.__all__:
        value = getattr(checkpoints, name)
        assert value is not None
        if name != "__version__":
            assert value.__module__.startswith("checkpoints."), name


def test_importing_the_package_loads_no_workflow() -> None:
    code = "import sys, checkpoints; print(sorted(m for m in sys.modules if m.startswith('checkpoints.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
