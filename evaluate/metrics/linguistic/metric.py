"""The linguistic families as metrics of the registry: ``checkpoints metrics -m SP-Op(*),DP-HWCM_r-4,SR-Or(*)``.

Statistics are ``[num, weight]`` per segment (:mod:`.overlap`), so system and
document scores are ``Σ num / Σ weight`` and resampling works as for every
other metric. Parses come from the run's :class:`.annotations.Annotator`
(shared through the run's cache by every linguistic metric that needs the
same layers), configured by ``MetricOptions.extra``: ``parsed`` (CoNLL-U
files, joined with the path separator), ``stanza-dir``, ``annotation-cache``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from checkpoints.errors import ModelNotAvailable, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, Metric, MetricOptions, check_corpus
from checkpoints.evaluate.metrics.linguistic.annotations import Annotator, ParseCache
from checkpoints.evaluate.metrics.linguistic.cp import cp_measure
from checkpoints.evaluate.metrics.linguistic.dp import dp_measure
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence
from checkpoints.evaluate.metrics.linguistic.esa import (
    ConceptSpace,
    CrossLingualSpace,
    read_concept_corpus,
)
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.keys import (
    ANNOTATION_STORE,
    SOURCE_GIVEN,
    SOURCE_LANGUAGE,
    esa_corpus_key,
    source_missing,
)
from checkpoints.evaluate.metrics.linguistic.ne import ne_measure
from checkpoints.evaluate.metrics.linguistic.overlap import Pair, best_of, pair_scores
from checkpoints.evaluate.metrics.linguistic.sp import sp_measure
from checkpoints.evaluate.metrics.linguistic.sr import ROLES_VERSION, sr_measure
from checkpoints.evaluate.metrics.linguistic.sr_robust import robust_rows, robust_score
from checkpoints.evaluate.metrics.registry import get_metric

Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


@dataclass(frozen=True, slots=True)
class Family:
    build: Callable[[Identifier, str | None], Measure] | None
    """The segment measure of an identifier and target language; None where the measure needs the
    run's options (NE's type names, ESA's concept corpus) and :class:`LinguisticMetric` builds it."""
    ner: bool = False
    constituency: bool = False
    what: str = ""


FAMILIES = {
    "SP": Family(sp_measure, what="shallow parsing (lemmas by part of speech and by chunk)"),
    "DP": Family(lambda identifier, _language: dp_measure(identifier), what="dependency parsing"),
    "CP": Family(cp_measure, constituency=True, what="constituency parsing"),
    "NE": Family(None, ner=True, what="named entities"),
    "SR": Family(sr_measure, what="semantic roles from UD-derived proto-roles"),
    "ESA": Family(None, what="explicit semantic analysis"),
}


ROBUST = {("Or", "*"), ("Mr", "*"), ("Orv", "*"), ("Mrv", "*"), ("Or", None), ("Orv", None)}
"""The SR measures with ``_b``/``_i`` variants."""


class LinguisticMetric(Metric):
    """One identifier of SP, DP, CP, NE, SR or ESA."""

    aggregation = Aggregation.CORPUS

    def __init__(self, name: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        identifier = Identifier.parse(name)
        family = FAMILIES.get(identifier.family)
        if family is None:
            raise UsageError(f"unknown metric {name!r} (see `checkpoints metrics --list`)")
        self.name = str(identifier)
        self.family = family
        self.cross_lingual = str(identifier) == "ESA-xl"
        if self.cross_lingual:
            missing = source_missing(name, self.options.extra)
            if missing is not None:
                raise UsageError(missing)
            if SOURCE_GIVEN in self.options.extra:  # a command built it: the languages are known now
                self._corpora()
            self.measure = self._esa
            self.description = ("explicit semantic analysis across languages: cosine of the source's and the "
                                "candidate's concept vectors over two aligned concept corpora (--esa-corpus)")
        elif identifier.family == "ESA":
            if identifier.kind is not None or not identifier.measure.isalpha():
                raise UsageError(f"{name}: ESA takes the concept corpus's language, e.g. ESA-en (and --esa-corpus en=PATH)")
            self.corpus_language = identifier.measure
            self.measure = self._esa
            self.description = (f"explicit semantic analysis: cosine of TF-IDF concept vectors over the "
                                f"{identifier.measure} concept corpus (--esa-corpus)")
        elif identifier.family == "NE":
            self.native = self.options.extra.get("ne-types", "asiya") == "native"
            self.measure = ne_measure(identifier, native=self.native)
            self.description = f"{family.what}: {identifier.measure}" + (f" of {identifier.kind}" if identifier.kind else "")
        else:
            assert family.build is not None
            self.measure = family.build(identifier, self.options.language)
            self.description = f"{family.what}: {identifier.measure}" + (f" of {identifier.kind}" if identifier.kind else "")
        self.robust = identifier.robust
        if self.robust and (identifier.measure, identifier.kind) not in ROBUST:
            raise UsageError(f"{name}: _b and _i go with SR-Or(*), SR-Mr(*), SR-Orv(*), SR-Mrv(*), SR-Or and SR-Orv")

    @property
    def n_stats(self) -> int:
        return 4 if self.robust else 2

    @property
    def work_group(self) -> str:
        """A family's metrics share their structures (chains, propositions, bags); families do not."""
        return f"linguistic:{self.name.partition('-')[0]}"

    def score(self, stats: np.ndarray) -> np.ndarray:
        if self.robust:
            return robust_score(stats)
        return pair_scores(stats)

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return self.corpus_stats([hypothesis], [[reference] for reference in references])[0]

    def corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str] | None = None
    ) -> np.ndarray:
        check_corpus(hypotheses, references)
        if self.cross_lingual:
            return self._cross_lingual_rows(hypotheses, sources)
        annotator = self.annotator()
        try:
            candidates = annotator.annotate(hypotheses)
            reference_sets = [annotator.annotate(reference_set) for reference_set in references]
        except ModelNotAvailable as error:
            raise ModelNotAvailable(f"{self.name}: {error} (or give the parses as CoNLL-U with --parsed)") from None
        self._check_layers(annotator, [*candidates, *(s for reference_set in reference_sets for s in reference_set)])
        rows = np.empty((len(candidates), 2))
        for index, candidate in enumerate(candidates):
            rows[index] = best_of(self.measure(candidate, reference_set[index]) for reference_set in reference_sets)
        if self.robust:
            lexical = get_metric("Ol", self.options, self.cache)
            ol = lexical.segment_scores(lexical.corpus_stats(hypotheses, references))
            return robust_rows([(float(num), float(weight)) for num, weight in rows], list(ol), self.robust)
        return rows

    def _cross_lingual_rows(self, hypotheses: Sequence[str], sources: Sequence[str] | None) -> np.ndarray:
        """ESA-xl: each candidate against its source, through the two languages' aligned concept corpora."""
        if sources is None:
            raise UsageError(f"{self.name} compares each translation with its source: give --source FILE")
        source_language = self.source_language()
        paths = self._corpora()
        space = self.cache.get(("esa-xl", *paths), lambda: CrossLingualSpace.from_corpora(Path(paths[0]), Path(paths[1])))
        try:
            candidates = self.annotator().annotate(hypotheses)
            source_parses = shared_annotator(self, ner=False, constituency=False, language=source_language).annotate(sources)
        except ModelNotAvailable as error:
            raise ModelNotAvailable(f"{self.name}: {error} (or give the parses as CoNLL-U with --parsed)") from None
        return np.array([[space.similarity([w.form for w in s.words], [w.form for w in c.words]), 1.0]
                         for s, c in zip(source_parses, candidates, strict=True)], dtype=np.float64).reshape(-1, 2)

    def _corpora(self) -> tuple[str, str]:
        """The concept corpora of the source and the target language (ESA-xl)."""
        source_language, target_language = self.source_language(), self.options.target_language(self.name)
        source, target = (self.options.extra.get(esa_corpus_key(language)) for language in (source_language, target_language))
        if not source or not target:
            raise UsageError(f"{self.name} needs --esa-corpus {source_language}=PATH and --esa-corpus "
                             f"{target_language}=PATH (concept corpora whose documents are named alike)")
        return source, target

    def source_language(self) -> str:
        language = self.options.extra.get(SOURCE_LANGUAGE)
        if not language:
            raise UsageError(f"{self.name} reads the source: give its language with --src-lang LANG")
        return language

    def _esa(self, candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
        space = self._concept_space()
        return space.similarity([w.form for w in candidate.words], [w.form for w in reference.words]), 1.0

    def _concept_space(self) -> ConceptSpace:
        key = esa_corpus_key(self.corpus_language)
        path = self.options.extra.get(key)
        if not path:
            raise UsageError(f"{self.name} needs --esa-corpus {self.corpus_language}=PATH (a folder of text files, "
                             "one concept each, or CoNLL-U with # newdoc id)")
        return self.cache.get(("esa", path), lambda: ConceptSpace.from_documents(read_concept_corpus(Path(path))))

    def annotator(self) -> Annotator:
        return shared_annotator(self, ner=self.family.ner, constituency=self.family.constituency)

    def _check_layers(self, annotator: Annotator, sentences: Sequence[ParsedSentence]) -> None:
        if self.family.constituency and any(s.words and s.tree is None for s in sentences):
            raise ModelNotAvailable(
                f"{self.name}: needs constituency trees; the parses of {annotator.language} have none "
                "(give CoNLL-U with '# constituency =' comments via --parsed, or stanza models with a constituency parser)")
        if self.family.ner and any(s.words and not s.has_ner for s in sentences):
            raise ModelNotAvailable(
                f"{self.name}: needs named entities; the parses of {annotator.language} have none "
                "(give CoNLL-U with ner= in MISC via --parsed, or stanza models with an NER model)")

    def signature_extras(self) -> dict[str, str]:
        fields = {"tok": "stanza", "case": "lc"}
        if self.family.build is sr_measure:
            fields["roles"] = ROLES_VERSION
        if getattr(self, "native", False):
            fields["ne"] = "native"
        if hasattr(self, "corpus_language"):
            fields["concepts"] = Path(self.options.extra.get(esa_corpus_key(self.corpus_language), "none")).name
        if self.cross_lingual:
            languages = (self.options.extra.get(SOURCE_LANGUAGE, "?"), self.options.language or "?")
            fields["concepts"] = "+".join(Path(self.options.extra.get(esa_corpus_key(language), "none")).name
                                          for language in languages)
            source_fields = shared_annotator(self, ner=False, constituency=False, language=languages[0]).signature_fields()
            fields.update({f"src-{key}": value for key, value in source_fields.items()})
        annotator = self.annotator()
        fields.update(annotator.signature_fields())
        return fields


def shared_annotator(metric: Metric, *, ner: bool, constituency: bool, language: str | None = None) -> Annotator:
    """The run's annotator for ``language`` (the metric's target language when None) and these
    layers: one per run, language and layer set, shared through the run's cache by every
    linguistic metric."""
    extra = metric.options.extra
    language = language or metric.options.target_language(metric.name)
    given = tuple(Path(path) for path in extra.get("parsed", "").split(os.pathsep) if path)
    cache = extra.get("annotation-cache")
    store = extra.get(ANNOTATION_STORE)
    key = ("annotator", language, given, extra.get("stanza-dir"), cache, store, ner, constituency)
    return metric.cache.get(key, lambda: Annotator(
        language, given=given, stanza_dir=extra.get("stanza-dir"), cache_dir=Path(cache) if cache else None,
        cache=stored_annotations(metric, store) if store else None, ner=ner, constituency=constituency))


def stored_annotations(metric: Metric, store: str) -> ParseCache:
    """The annotation cache in the check-point store ``store``, one per run."""
    from checkpoints.db.annotation_cache import StoredAnnotations

    return metric.cache.get(("annotation-store", store), lambda: StoredAnnotations(store))
