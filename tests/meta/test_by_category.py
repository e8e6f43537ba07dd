"""``checkpoints meta --by-category``: each metric against the MQM penalty attributed to each category.

The suite is built from segments 10, 47 and 244 of WMT 2021 TED en→de (``tests/data/attribution``), the
judgments are the release's rows for them (``tests/data/meta/mqm_ted_ende.small.tsv``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parent.parent / "data"
MQM = DATA / "meta" / "mqm_ted_ende.small.tsv"


@pytest.fixture(scope="module")
def ted_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.store import store_new_suite

    attribution = DATA / "attribution"
    db = tmp_path_factory.mktemp("by-category") / "ted.db"
    request = BuildRequest(
        source_lang="en", target_lang="de", source_conllu=attribution / "ted-ende.source.conllu",
        reference_conllu=[attribution / "ted-ende.reference.conllu"], alignments=[attribution / "ted-ende.align"],
        name="ted3",
    )
    store_new_suite(db, build_suite(request).suite)
    return db


def test_each_category_is_correlated_with_its_own_penalty(run_cli, ted_db: Path) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.service.store import load_stored_suite

    code, out, err = run_cli("meta", "--mqm", MQM, "--reference-system", "ref", "-m", "BLEU,chrF",
                             "--by-category", ted_db, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["overall"]["n"] == 13  # the usual system-level result against every error
    suite = load_stored_suite(ted_db)
    counts = {name: sum(cp.category == name for cp in suite.checkpoints) for name in data["by_category"]}
    assert set(data["by_category"]) <= {category.name for category in suite.categories}
    for name, result in data["by_category"].items():
        assert result["checkpoints"] == counts[name] > 0
        human = result["points"]["human"]
        assert set(human) == set(data["overall"]["points"]["human"])  # the same 13 systems
        assert all(value <= 0.0 for value in human.values())  # a negated penalty: 0 where no error overlaps
        systems = sorted(human)
        y = np.array([human[s] for s in systems])
        pearsons = {}
        for metric, scores in result["points"]["metrics"].items():
            x = np.array([scores[s] for s in systems])
            r = result["results"][metric]["pearson"]["r"]
            if np.ptp(y) == 0:
                assert r is None
            else:
                assert r == pytest.approx(float(np.corrcoef(x, y)[0, 1]), abs=1e-9)
                pearsons[metric] = r
        assert result["best"] == (max(pearsons, key=pearsons.get) if pearsons else None)
    code, out, err = run_cli("meta", "--mqm", MQM, "--reference-system", "ref", "-m", "BLEU",
                             "--by-category", ted_db)
    assert code == 0, err
    assert "which metric tracks which errors" in out and "best" in out


def test_by_category_needs_mqm_errors(run_cli, ted_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    reference = tmp_path / "ref.txt"
    reference.write_text("a\n", encoding="utf-8")
    code, out, err = run_cli("meta", "--assessments", tmp_path / "h.csv", "--reference", reference,
                             "--system", f"a={reference}", "-m", "BLEU", "--by-category", ted_db)
    assert code != 0 and out == ""
    assert "--by-category attributes MQM error spans to check-points: give --mqm FILE" in err
