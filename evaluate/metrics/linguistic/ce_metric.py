"""The CE measures as metrics of the registry: ``checkpoints metrics -m CE-Op,CE-logp,LeM --source src.en``.

A CE metric reads the source, never the references. What it needs besides
the texts comes from ``MetricOptions.extra`` (:mod:`.keys`): the source
language, language models by language and kind, a vocabulary, dictionaries,
α, LeM's parameters. A resource the metric cannot run without is a usage
error when the metric is built, naming the option to give, so a metric set
(``--metric-set ce``) leaves out what the user gave no resource for.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from checkpoints.errors import ModelNotAvailable, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, Metric, MetricOptions, check_corpus
from checkpoints.evaluate.metrics.linguistic.annotations import Annotator
from checkpoints.evaluate.metrics.linguistic.ce import (
    LM_MEASURES,
    NEEDS_NER,
    PAIR_MEASURES,
    BilingualDictionary,
    LengthModel,
    LmMeasure,
    length_factor,
)
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence
from checkpoints.evaluate.metrics.linguistic.keys import (
    DICTIONARY,
    LEM_CORPUS,
    LEM_PARAMS,
    LENGTH_FACTOR,
    MODEL_PREFIXES,
    SOURCE_LANGUAGE,
    model_key,
    source_missing,
    vocabulary_key,
)
from checkpoints.evaluate.metrics.linguistic.lm import LanguageModel, Vocabulary
from checkpoints.evaluate.metrics.linguistic.overlap import Pair, pair_scores

DICTIONARY_MEASURES = {
    "CE-BiDictA": "1 / mean number of dictionary translations of the source's words and phrases",
    "CE-BiDictO": "share of the source's dictionary translations found in the candidate",
}
LEM = "LeM"
LEM_DESCRIPTION = "length model: Gaussian of the candidate/source character ratio (Pouliquen et al. 2003)"

CE_NAMES = (*PAIR_MEASURES, *LM_MEASURES, *DICTIONARY_MEASURES, LEM)
"""Every CE identifier, in the order ``metrics --list`` shows them."""

POOLED = frozenset({"CE-Op", "CE-Oc", "CE-Oe", "CE-Nc", "CE-Ne"})


def describe(name: str) -> str:
    if name in PAIR_MEASURES:
        return f"confidence (no reference): {PAIR_MEASURES[name][1]}"
    if name in LM_MEASURES:
        return f"confidence (no reference): {LM_MEASURES[name][1]}"
    if name in DICTIONARY_MEASURES:
        return f"confidence (no reference): {DICTIONARY_MEASURES[name]}"
    return f"confidence (no reference): {LEM_DESCRIPTION}"


class ConfidenceMetric(Metric):
    """One CE identifier (or ``LeM``): a translation scored against its source."""

    def __init__(self, name: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        if name not in CE_NAMES:
            raise UsageError(f"unknown metric {name!r} (see `checkpoints metrics --list`)")
        self.name = name
        self.description = describe(name)
        self.aggregation = Aggregation.CORPUS if name in POOLED else Aggregation.MEAN
        extra = self.options.extra
        missing = source_missing(name, extra)
        if missing is not None:
            raise UsageError(missing)
        self.lm: LmMeasure | None = LM_MEASURES[name][0] if name in LM_MEASURES else None
        if self.lm is not None:
            self._check_model(self.lm)
        if name in DICTIONARY_MEASURES and not extra.get(DICTIONARY):
            raise UsageError(f"{name} needs --dictionary FILE (Apertium .dix, FreeDict, CC-CEDICT or TSV)")
        if name == LEM and not (extra.get(LEM_PARAMS) or extra.get(LEM_CORPUS)):
            raise UsageError(f"{name} needs --lem-params MU,SIGMA or --lem-corpus SOURCE_FILE,TARGET_FILE")

    @property
    def n_stats(self) -> int:
        return 2

    def score(self, stats: np.ndarray) -> np.ndarray:
        return pair_scores(stats)

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return self.corpus_stats([hypothesis], [[reference] for reference in references],
                                 None if source is None else [source])[0]

    # -- languages and resources ---------------------------------------------------------

    @property
    def source_language(self) -> str:
        language = self.options.extra.get(SOURCE_LANGUAGE)
        if not language:
            raise UsageError(f"{self.name} reads the source: give its language with --src-lang LANG")
        return language

    def _language(self, side: str) -> str:
        return self.source_language if side == "source" else self.options.target_language(self.name)

    def _check_model(self, measure: LmMeasure) -> None:
        """The model the measure needs must be given: for its side's language where that is known
        already (so a metric set leaves the measure out), else for some language."""
        extra = self.options.extra
        kind = measure.model_kind
        language = extra.get(SOURCE_LANGUAGE) if measure.side == "source" else self.options.language
        languages = [language] if language else sorted({key.partition(":")[2] for key in extra if ":" in key})
        for candidate in languages:
            if model_key(kind, candidate) in extra:
                return
            if measure.value == "oov" and vocabulary_key(candidate) in extra:
                return
        prefix = MODEL_PREFIXES[kind]
        what = {"lm": "language model", "pos-lm": "part-of-speech language model", "chunk-lm": "chunk language model"}[kind]
        side = "source" if measure.side == "source" else "target"
        also = f" or --vocab {language or 'LANG'}=FILE" if measure.value == "oov" else ""
        raise UsageError(f"{self.name} needs a {side}-language {what}: --lm {prefix}{language or 'LANG'}=FILE{also}")

    def _model(self, measure: LmMeasure) -> LanguageModel | Vocabulary:
        language = self._language(measure.side)
        extra = self.options.extra
        path = extra.get(model_key(measure.model_kind, language))
        if path is not None:
            return self.cache.get(("lm", path), lambda: LanguageModel(path))
        vocabulary = extra.get(vocabulary_key(language))
        if measure.value == "oov" and vocabulary is not None:
            return self.cache.get(("vocab", vocabulary), lambda: Vocabulary(vocabulary))
        prefix = MODEL_PREFIXES[measure.model_kind]
        raise UsageError(f"{self.name} needs a model of {language}: --lm {prefix}{language}=FILE")

    def _alpha(self) -> float:
        given = self.options.extra.get(LENGTH_FACTOR)
        if given is not None:
            return float(given)
        return length_factor(self.source_language, self.options.target_language(self.name))

    def _dictionary(self) -> BilingualDictionary:
        paths = tuple(self.options.extra[DICTIONARY].split(os.pathsep))
        source, target = self.source_language, self.options.target_language(self.name)

        def read() -> BilingualDictionary:
            from checkpoints.extract.dictionary import read_dictionaries

            lexicon = read_dictionaries(paths, source, target)
            return BilingualDictionary({key: frozenset(values) for key, values in lexicon.entries.items()},
                                       lexicon.describe())

        return self.cache.get(("ce-dictionary", paths, source, target), read)

    def _length_model(self) -> LengthModel:
        extra = self.options.extra
        if extra.get(LEM_PARAMS):
            mean, deviation = (float(value) for value in extra[LEM_PARAMS].split(","))
            return LengthModel(mean, deviation)
        source_file, target_file = extra[LEM_CORPUS].split(os.pathsep)

        def fit() -> LengthModel:
            from checkpoints.errors import InputError
            from checkpoints.io.lines import read_lines

            sources, targets = read_lines(source_file), read_lines(target_file)
            if len(sources) != len(targets):
                raise InputError(target_file, None, f"{len(targets)} lines, but {source_file} has {len(sources)}")
            try:
                return LengthModel.from_corpus(sources, targets)
            except ValueError as error:
                raise InputError(source_file, None, str(error)) from None

        return self.cache.get(("lem", source_file, target_file), fit)

    def _annotator(self, side: str) -> Annotator:
        from checkpoints.evaluate.metrics.linguistic.metric import shared_annotator

        return shared_annotator(self, ner=self.name in NEEDS_NER, constituency=False, language=self._language(side))

    def _parses(self, side: str, texts: Sequence[str]) -> list[ParsedSentence]:
        annotator = self._annotator(side)
        try:
            parsed = annotator.annotate(texts)
        except ModelNotAvailable as error:
            raise ModelNotAvailable(f"{self.name}: {error} (or give the parses as CoNLL-U with --parsed)") from None
        if self.name in NEEDS_NER and any(s.words and not s.has_ner for s in parsed):
            raise ModelNotAvailable(
                f"{self.name}: needs named entities; the parses of {annotator.language} have none "
                "(give CoNLL-U with ner= in MISC via --parsed, or stanza models with an NER model)")
        return parsed

    # -- scoring ---------------------------------------------------------------------------

    def corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str] | None = None
    ) -> np.ndarray:
        check_corpus(hypotheses, references)
        if sources is None:
            raise UsageError(f"{self.name} compares each translation with its source: give --source FILE")
        if len(sources) != len(hypotheses):
            raise UsageError(f"{self.name}: {len(sources)} source segments for {len(hypotheses)} translations")
        return np.array(self._rows(hypotheses, sources), dtype=np.float64).reshape(len(hypotheses), 2)

    def _rows(self, hypotheses: Sequence[str], sources: Sequence[str]) -> list[Pair]:
        if self.name == LEM:
            model = self._length_model()
            return [model.score(source, hypothesis) for source, hypothesis in zip(sources, hypotheses, strict=True)]
        if self.lm is not None:
            measure = self.lm
            texts = sources if measure.side == "source" else hypotheses
            model = self._model(measure)
            lowercase = self.options.lowercase
            return [(measure.of(model.score(measure.items(parse, lowercase))), 1.0)
                    for parse in self._parses(measure.side, texts)]
        source_parses = self._parses("source", sources)
        if self.name == "CE-BiDictA":
            dictionary = self._dictionary()
            return [dictionary.ambiguity(parse) for parse in source_parses]
        candidate_parses = self._parses("candidate", hypotheses)
        if self.name == "CE-BiDictO":
            dictionary = self._dictionary()
            return [dictionary.overlap(s, c) for s, c in zip(source_parses, candidate_parses, strict=True)]
        measure, _ = PAIR_MEASURES[self.name]
        alpha = self._alpha()
        return [measure(s, c, alpha) for s, c in zip(source_parses, candidate_parses, strict=True)]

    def signature_extras(self) -> dict[str, str]:
        fields: dict[str, str] = {"tok": "none" if self.name == LEM else "stanza", "ref": "none"}
        extra = self.options.extra
        if self.name in ("CE-length", "CE-long", "CE-short"):
            fields["alpha"] = f"{self._alpha():.8g}"
        if self.lm is not None:
            language = self._language(self.lm.side)
            path = extra.get(model_key(self.lm.model_kind, language)) or extra.get(vocabulary_key(language), "none")
            fields["lm"] = Path(path).name
        if self.name in DICTIONARY_MEASURES:
            fields["dict"] = self._dictionary().description
        if self.name == LEM:
            model = self._length_model()
            fields["lem"] = f"{model.mean:.6g},{model.deviation:.6g}"
        else:
            for side in self._sides():
                prefix = "src-" if side == "source" else ""
                fields.update({f"{prefix}{key}": value for key, value in self._annotator(side).signature_fields().items()})
        return fields

    def _sides(self) -> tuple[str, ...]:
        """Which texts the metric parses."""
        if self.lm is not None:
            return (self.lm.side,)
        return ("source",) if self.name == "CE-BiDictA" else ("source", "candidate")

