"""What a test does when a tool it compares with is missing: skip on a developer's machine,
fail in CI (where ``CI`` is set), since CI installs every such tool."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def tool_missing(reason: str, *, skipped: str, ci_needs: str) -> NoReturn:
    """``skipped``: what cannot run, for the skip message; ``ci_needs``: what CI must provide."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must {ci_needs}", pytrace=False)
    pytest.skip(f"{reason}, so {skipped}")
