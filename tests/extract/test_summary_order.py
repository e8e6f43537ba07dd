"""The build summary lists skip reasons in one fixed order, whichever a corpus met first."""

from __future__ import annotations

from checkpoints.extract.checkpoints import (
    SKIP_LOW_DM,
    SKIP_NO_ALIGNMENT,
    SKIP_NOISE,
    SKIP_ORDER,
    ExtractionSummary,
)


def test_reasons_come_in_the_documented_order_whatever_came_first() -> None:
    first, second = ExtractionSummary(), ExtractionSummary()
    for reason, category in ((SKIP_LOW_DM, "Noun"), (SKIP_NO_ALIGNMENT, "Verb"), (SKIP_NOISE, "Noun")):
        first.skip(reason, category)
    for reason, category in ((SKIP_NOISE, "Noun"), (SKIP_LOW_DM, "Noun"), (SKIP_NO_ALIGNMENT, "Verb")):
        second.skip(reason, category)
    order = ["Noun", "Verb"]
    expected = [SKIP_NOISE, SKIP_NO_ALIGNMENT, SKIP_LOW_DM]
    assert list(first.to_json(order)["skipped"]) == list(second.to_json(order)["skipped"]) == expected
    assert [reason for reason in SKIP_ORDER if reason in expected] == expected
    first.skip("a reason of a later release", "Noun")
    assert list(first.to_json(order)["skipped"])[-1] == "a reason of a later release"
