"""Which way a bilingual dictionary file reads, from the language codes in its name.

Apertium (``apertium-eng-spa.eng-spa.dix``) and FreeDict
(``freedict-eng-spa.index``) name their two languages with ISO 639-3 codes,
left side first; builds name theirs with BCP 47 tags (``en``, ``zh-Hant``).
Both are reduced to the ISO 639-1 code where there is one.
"""

from __future__ import annotations

import re
from pathlib import Path

from checkpoints.errors import InputError

ISO_639_3 = {
    "eng": "en", "spa": "es", "glg": "gl", "cat": "ca", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de",
    "por": "pt", "ita": "it", "zho": "zh", "cmn": "zh", "nld": "nl", "dut": "nl", "ron": "ro", "rum": "ro",
    "eus": "eu", "baq": "eu", "oci": "oc", "arg": "an", "ast": "ast", "swe": "sv", "dan": "da", "nob": "nb",
    "nno": "nn", "isl": "is", "rus": "ru", "ukr": "uk", "pol": "pl", "ces": "cs", "cze": "cs", "slk": "sk",
    "slv": "sl", "hrv": "hr", "srp": "sr", "bos": "bs", "bul": "bg", "mkd": "mk", "ell": "el", "gre": "el",
    "tur": "tr", "ara": "ar", "heb": "he", "hin": "hi", "urd": "ur", "fin": "fi", "est": "et", "hun": "hu",
    "lav": "lv", "lit": "lt", "mlt": "mt", "gle": "ga", "cym": "cy", "bre": "br", "epo": "eo", "kaz": "kk",
    "tat": "tt", "jpn": "ja", "kor": "ko", "ind": "id", "msa": "ms", "afr": "af", "sme": "se",
}

_PAIR_AT_END = re.compile(r"(?:^|[^a-z])([a-z]{2,3})-([a-z]{2,3})$")


def language(code: str) -> str:
    """``en-GB`` → ``en``, ``zh_Hant`` → ``zh``, ``eng`` → ``en``."""
    base = re.split(r"[-_]", code.strip().lower(), maxsplit=1)[0]
    return ISO_639_3.get(base, base)


def languages_in_name(stem: str) -> tuple[str, str] | None:
    """The (left, right) languages a file stem ends with (``freedict-eng-spa``), or None."""
    match = _PAIR_AT_END.search(stem.lower())
    if not match:
        return None
    return language(match.group(1)), language(match.group(2))


def oriented_forward(
    path: str | Path, sides: tuple[str, str], source_lang: str, target_lang: str, what: str
) -> bool:
    """True if the dictionary's left side is the build's source language, False if its right is.

    A dictionary for two other languages cannot help DM at all, so it is an
    error rather than a silent floor of 0.1 on every reference.
    """
    source, target = language(source_lang), language(target_lang)
    if sides == (source, target):
        return True
    if sides == (target, source):
        return False
    raise InputError(
        path, None, f"{what} translates {sides[0]}→{sides[1]}, but this build is {source}→{target}"
    )
