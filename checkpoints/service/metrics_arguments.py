"""``checkpoints metrics``'s options as given, checked into a :class:`~checkpoints.service.metrics.MetricsRequest`.

As for ``meta`` (:mod:`checkpoints.service.meta_arguments`), the checks live
with the request, not in the command: each error names its option and comes
before any file is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from checkpoints.engine import EngineSpec
from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_CORRECTION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
)
from checkpoints.evaluate.metric_runner import SignificanceRequest
from checkpoints.evaluate.metrics.base import Granularity, parse_granularity
from checkpoints.evaluate.metrics.combination import split_metric_list
from checkpoints.evaluate.metrics.registry import entry
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.evaluate.significance import Correction
from checkpoints.io.testsets import InputFormat
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.metrics import MetricsRequest
from checkpoints.service.option_values import (
    check_at_least,
    check_probability,
    parse_named_files,
    store_and_suite,
)
from checkpoints.tokenizers import TOKENIZERS

GRANULARITIES = ("sys", "doc", "seg", "all")
SIGNIFICANCE_METHODS = ("bootstrap", "ar")
CORRECTIONS = ("holm", "bh", "none")


@dataclass(slots=True)
class MetricsArguments:
    """The options of ``checkpoints metrics`` as typed."""

    references: list[Path] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    source: Path | None = None
    metrics: list[str] = field(default_factory=list)
    metric_set: str | None = None
    granularity: str = "sys"
    input_format: str = "raw"
    tokenize: str | None = None
    case: str = "cs"
    target_lang: str | None = None
    include_refs: bool = False
    baseline: str | None = None
    significance: str | None = None
    all_pairs: bool = False
    samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA
    correction: str = DEFAULT_CORRECTION
    paraphrase_table: Path | None = None
    function_words: Path | None = None
    linguistic: LinguisticOptions = field(default_factory=LinguisticOptions)
    brevity_penalty: str = "closest"
    nist_info: str = "mteval"
    db: str | None = None
    suite: str | None = None
    suite_name: str | None = None
    engine: EngineSpec = field(default_factory=EngineSpec)
    statistics_cache: Path | None = None

    def granularities(self) -> tuple[Granularity, ...]:
        """The levels to print (``all``: system, document and segment)."""
        return parse_granularity(check_choice("--granularity", self.granularity, GRANULARITIES))

    def request(self) -> MetricsRequest:
        """The request, every option checked; raises :class:`UsageError` naming the option."""
        self.granularities()
        chosen_input = InputFormat(check_choice("--input", self.input_format, [member.value for member in InputFormat]))
        check_choice("--case", self.case, ("cs", "ci"))
        if self.tokenize is not None:
            check_choice("--tokenize", self.tokenize, TOKENIZERS)
        check_choice("--brevity-penalty", self.brevity_penalty, ("closest", "shortest"))
        check_choice("--nist-info", self.nist_info, ("mteval", "intended"))
        linguistic_extra = self.linguistic.extra()
        explicit = [name for value in self.metrics for name in split_metric_list(value)]
        store, suite_name = store_and_suite(self.db, self.suite, self.suite_name)
        if suite_name is not None and store is None:
            raise UsageError("--suite NAME chooses a suite of --db DB: give --db")
        if not explicit and not self.metric_set and store is None:
            raise UsageError("no metric requested: give -m NAMES or --metric-set SET (see --list)")
        files: dict[str, object] = {"paraphrase-table": self.paraphrase_table, "function-words": self.function_words,
                                    **linguistic_extra}
        for name in explicit:
            for key in entry(name).requires:
                if files.get(key) is None:
                    language = key.partition(":")[2]
                    raise UsageError(f"{name} needs --esa-corpus {language}=PATH" if language else f"{name} needs --{key} FILE")
        significance = self.significance_request()
        if not self.references:
            raise UsageError("at least one --reference FILE is required")
        if not self.systems:
            raise UsageError("at least one --system NAME=FILE is required")
        return MetricsRequest(
            references=list(self.references), systems=system_specs(self.systems, raw=chosen_input is InputFormat.RAW),
            metrics=explicit, metric_set=self.metric_set, input_format=chosen_input, source=self.source,
            tokenize=self.tokenize, case=self.case, target_lang=self.target_lang, include_refs=self.include_refs,
            significance=significance, paraphrase_table=self.paraphrase_table, function_words=self.function_words,
            brevity_penalty=self.brevity_penalty, nist_info=self.nist_info, suite=store, suite_name=suite_name,
            linguistic=replace(self.linguistic, store=store), engine=self.engine,
            statistics_cache=self.statistics_cache,
        )

    def significance_request(self) -> SignificanceRequest | None:
        """The significance test asked for (None without --baseline or --all-pairs), options checked."""
        if self.baseline is None and not self.all_pairs:
            if self.significance is not None:
                raise UsageError("--significance needs --baseline NAME or --all-pairs")
            return None
        method = Method(check_choice("--significance", self.significance or "bootstrap", SIGNIFICANCE_METHODS))
        correction = Correction(check_choice("--correction", self.correction, CORRECTIONS))
        check_at_least("--samples", self.samples, 1)
        check_probability("--alpha", self.alpha)
        return SignificanceRequest(baseline=self.baseline, all_pairs=self.all_pairs,
                                   spec=ResampleSpec(method=method, samples=self.samples, seed=self.seed),
                                   correction=correction, alpha=self.alpha)


def system_specs(values: Sequence[str], raw: bool) -> list[tuple[str | None, Path]]:
    """``NAME=FILE`` pairs (:func:`parse_named_files`), in order; for XML or SGML input also ``FILE``
    alone, which takes every system in the file under its own id."""
    named = iter(parse_named_files([value for value in values if "=" in value], "--system"))
    specs: list[tuple[str | None, Path]] = []
    for value in values:
        if "=" in value:
            specs.append(next(named))
        elif raw:
            raise UsageError(f"--system {value}: raw input needs NAME=FILE")
        else:
            specs.append((None, Path(value)))
    return specs
