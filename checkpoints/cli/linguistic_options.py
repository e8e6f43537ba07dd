"""The options of the linguistic and confidence metrics, shared by ``metrics``, ``meta`` and
``qarla`` so that each means the same in all three (:class:`~checkpoints.service.linguistic_options.LinguisticOptions`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.service.linguistic_options import LinguisticOptions

PANEL = "Linguistic and confidence metrics"

Parsed = Annotated[list[Path] | None, typer.Option(
    "--parsed", metavar="FILE", rich_help_panel=PANEL, show_default=False,
    help="CoNLL-U parses of the texts (ner= in MISC, '# constituency =' comments); repeatable. Texts no file "
         "holds are parsed with --stanza-dir.")]
StanzaDir = Annotated[str | None, typer.Option(
    "--stanza-dir", metavar="DIR", rich_help_panel=PANEL, show_default=False,
    help="Stanza models that parse the texts (default: $CHECKPOINTS_STANZA_DIR, else stanza's).")]
AnnotationCache = Annotated[Path | None, typer.Option(
    "--annotation-cache", metavar="DIR", rich_help_panel=PANEL, show_default=False,
    help="Where parses are kept between runs [default: $CHECKPOINTS_CACHE_DIR, else ~/.cache/checkpoints].")]
NeTypes = Annotated[str, typer.Option(
    "--ne-types", metavar="asiya|native", rich_help_panel=PANEL,
    help="NE types as Asiya names them (PER, LOC, ORG, MISC, DATE, NUM, ...) or as the tagger wrote them "
         "(PERSON, GPE, ...).")]
EsaCorpus = Annotated[list[str] | None, typer.Option(
    "--esa-corpus", metavar="LANG=PATH", rich_help_panel=PANEL, show_default=False,
    help="The concept corpus of ESA-LANG: a folder of text files (one concept each) or CoNLL-U with "
         "# newdoc id; repeatable. ESA-xl pairs the source's and the target's corpora by document.")]
SourceLanguage = Annotated[str | None, typer.Option(
    "--src-lang", metavar="LANG", rich_help_panel=PANEL, show_default=False,
    help="Source language, for CE and ESA-xl [default: what NIST/WMT files declare].")]
LanguageModels = Annotated[list[str] | None, typer.Option(
    "--lm", metavar="[pos:|chunk:]LANG=FILE", rich_help_panel=PANEL, show_default=False,
    help="An ARPA or KenLM model of LANG's words, part-of-speech tags (pos:) or chunk types (chunk:), for "
         "CE-logp/ippl/oov and their src, P and C variants; repeatable.")]
Vocabularies = Annotated[list[str] | None, typer.Option(
    "--vocab", metavar="LANG=FILE", rich_help_panel=PANEL, show_default=False,
    help="Words (one a line) CE-oov/CE-srcoov count as known when there is no --lm.")]
Dictionaries = Annotated[list[str] | None, typer.Option(
    "--dictionary", metavar="FILE", rich_help_panel=PANEL, show_default=False,
    help="A bilingual dictionary for CE-BiDictA/O (Apertium .dix, FreeDict, CC-CEDICT, TSV, or a name "
         "build --dictionary knows); repeatable.")]
LengthFactor = Annotated[float | None, typer.Option(
    "--ce-length-factor", metavar="ALPHA", rich_help_panel=PANEL, show_default=False,
    help="Target tokens per source token for CE-length/long/short [default: Asiya's for en-es, ca-es, else 1].")]
LemParams = Annotated[str | None, typer.Option(
    "--lem-params", metavar="MU,SIGMA", rich_help_panel=PANEL, show_default=False,
    help="Mean and standard deviation of the target/source character ratio, for LeM.")]
LemCorpus = Annotated[str | None, typer.Option(
    "--lem-corpus", metavar="SRC_FILE,TGT_FILE", rich_help_panel=PANEL, show_default=False,
    help="A parallel corpus LeM's ratio statistics are estimated from (instead of --lem-params).")]


def linguistic_options(
    parsed: list[Path] | None, stanza_dir: str | None, annotation_cache: Path | None, ne_types: str,
    esa_corpus: list[str] | None, src_lang: str | None, lm: list[str] | None, vocab: list[str] | None,
    dictionary: list[str] | None, ce_length_factor: float | None, lem_params: str | None, lem_corpus: str | None,
) -> LinguisticOptions:
    return LinguisticOptions(
        parsed=list(parsed or []), stanza_dir=stanza_dir, annotation_cache=annotation_cache, ne_types=ne_types,
        esa_corpora=list(esa_corpus or []), source_language=src_lang, language_models=list(lm or []),
        vocabularies=list(vocab or []), dictionaries=list(dictionary or []), length_factor=ce_length_factor,
        lem_params=lem_params, lem_corpus=lem_corpus,
    )
