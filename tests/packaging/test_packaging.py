"""Packaging guard rails for the package-dir layout (see pyproject.toml).

The five top-level folders are installed as ``checkpoints.taxonomy|extract|
evaluate|db|training``; a sub-package missing from ``[tool.setuptools].packages`` still
imports in an editable install but is silently left out of the wheel.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAPPED = {"checkpoints": "checkpoints", "taxonomy": "checkpoints.taxonomy", "extract": "checkpoints.extract",
          "evaluate": "checkpoints.evaluate", "db": "checkpoints.db", "training": "checkpoints.training"}


def configured() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_folder_is_listed() -> None:
    listed = set(configured()["tool"]["setuptools"]["packages"])
    found = set()
    for folder, dotted in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([dotted, *relative.parts]) if relative.parts else dotted)
    missing = sorted(found - listed)
    assert not missing, f"add these to [tool.setuptools].packages: {missing}"
    stale = sorted(listed - found)
    assert not stale, f"listed but not on disk: {stale}"


def test_mapping_matches_the_folders() -> None:
    mapping = configured()["tool"]["setuptools"]["package-dir"]
    assert mapping == {f"checkpoints.{name}": name for name in ("taxonomy", "extract", "evaluate", "db", "training")}


def test_no_tests_package_and_bare_imports_are_banned() -> None:
    assert not (ROOT / "tests" / "__init__.py").exists()
    banned = configured()["tool"]["ruff"]["lint"]["flake8-tidy-imports"]["banned-api"]
    assert set(banned) == {"extract", "evaluate", "db", "taxonomy", "training"}


def test_installed_modules_come_from_the_mapped_folders() -> None:
    import checkpoints.db.tables
    import checkpoints.evaluate.resample
    import checkpoints.extract.dm
    import checkpoints.taxonomy
    import checkpoints.training.train_models

    assert Path(checkpoints.training.train_models.__file__).parent.name == "training"
    assert Path(checkpoints.db.tables.__file__).parent.name == "db"
    assert Path(checkpoints.evaluate.resample.__file__).parent.name == "evaluate"
    assert Path(checkpoints.extract.dm.__file__).parent.name == "extract"
    assert Path(checkpoints.taxonomy.__file__).parent.name == "taxonomy"
