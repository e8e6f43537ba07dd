"""Asiya's linguistic metric families over stanza annotations: SP, DP, CP, NE, SR, ESA and CE.

Each family turns a pair of annotated sentences (candidate, reference) into
``(num, weight)`` (:mod:`.overlap`); :mod:`.metric` makes every identifier a
metric of the registry, :mod:`.annotations` parses each text once. The
formulas follow Asiya's Perl source (``docs/linguistic-metrics.md``).

``METRICS`` lists the identifiers ``checkpoints metrics --list`` shows; any
typed variant (``SP-Op(NN)``, ``DP-Or(nsubj:pass)``, ``NE-Oe(PER)``) is found
by :func:`resolve_metric`.
"""

from __future__ import annotations

from checkpoints.errors import ResourceNotAvailable, UsageError
from checkpoints.evaluate.metrics.linguistic.ce_metric import CE_NAMES, ConfidenceMetric
from checkpoints.evaluate.metrics.linguistic.ce_metric import describe as describe_ce
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.keys import esa_corpus_key
from checkpoints.evaluate.metrics.linguistic.metric import FAMILIES, LinguisticMetric
from checkpoints.evaluate.metrics.linguistic.sp_nist import SpNist
from checkpoints.evaluate.metrics.registry import MetricEntry

LISTED = (
    "SP-Op(*)", "SP-Oc(*)", *(f"SP-Op({kind})" for kind in "JNPRVWF"),
    *(f"DP-HWCM_{label}-{n}" for label in "wcr" for n in range(1, 5)),
    *(f"DP-HWCMi_{label}-{n}" for label in "wcr" for n in range(2, 5)),
    "DP-Oc(*)", "DP-Or(*)", "DP-Ol(*)",
    *(f"CP-STM-{n}" for n in range(1, 10)), *(f"CP-STMi-{n}" for n in range(2, 10)), "CP-Op(*)", "CP-Oc(*)",
    "NE-Oe(*)", "NE-Oe(**)", "NE-Me(*)",
    "SR-Or(*)", "SR-Mr(*)", "SR-Orv(*)", "SR-Mrv(*)", "SR-Or", "SR-Orv", "SR-Ov", "SR-Nv", "SR-Ol",
    "SR-Pr(*)", "SR-Rr(*)", "SR-Fr(*)", "SR-MPr(*)", "SR-MRr(*)", "SR-MFr(*)",
    *(f"SR-{measure}_{variant}" for measure in ("Or(*)", "Mr(*)", "Orv(*)", "Mrv(*)", "Or", "Orv") for variant in "bi"),
    "SP-lNIST", "SP-pNIST", "SP-iobNIST", "SP-cNIST", "ESA-xl",
)


FAMILY_SETS = {"SP": "syntactic", "DP": "syntactic", "CP": "syntactic", "NE": "semantic", "SR": "semantic",
               "ESA": "semantic"}
"""Asiya's grouping of the families into metric sets (``--metric-set syntactic``)."""


def _entry(name: str) -> MetricEntry:
    identifier = Identifier.parse(name)
    family = identifier.family
    kind = SpNist if family == "SP" and "NIST" in identifier.measure else LinguisticMetric
    example = kind(name)  # checks the identifier now, not when the run starts

    def build(options):  # type: ignore[no-untyped-def]
        return kind(name, options)

    requires = (esa_corpus_key(example.corpus_language),) if family == "ESA" and hasattr(example, "corpus_language") else ()
    return MetricEntry(example.description, build, sets=("linguistic", FAMILY_SETS[family], "all"), language=True,
                       requires=requires)


def _ce_entry(name: str) -> MetricEntry:
    """A CE metric's entry: what it needs (models, a dictionary) is checked when it is built with
    the run's options, so a metric set leaves out the measures the user gave no resource for."""

    def build(options):  # type: ignore[no-untyped-def]
        return ConfidenceMetric(name, options)

    return MetricEntry(describe_ce(name), build, sets=("ce", "all"), language=True)


def resolve_metric(name: str) -> MetricEntry | None:
    """The entry of a typed identifier of a linguistic family; None for a name of another family.

    Asiya's DR family and its MALT-parser DP variants have no counterpart here,
    and say so instead of being unknown names.
    """
    family = name.partition("-")[0]
    if family in ("DR", "DRdoc"):
        raise ResourceNotAvailable(
            f"{name}: discourse-representation metrics need a DRS parser (C&C tools + Boxer in Asiya); none is "
            "available, and no faithful subset can be computed from stanza output: use SR-* or NE-* for semantic "
            "similarity")
    if family == "DPm":
        raise UsageError(f"{name}: Asiya's MALT-parser variants are computed from stanza's dependency parse: use "
                         f"DP-{name.partition('-')[2]}")
    if family not in FAMILIES:
        return None
    return _entry(name)

METRICS = {**{name: _entry(name) for name in LISTED}, **{name: _ce_entry(name) for name in CE_NAMES}}
