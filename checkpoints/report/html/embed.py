"""Putting data into HTML without letting it become markup.

Every string in the report comes from a corpus, a system file or a name that
someone else chose, so nothing is trusted: text in the page body goes through
:func:`text`, and the data the script reads is JSON in a
``<script type="application/json">`` element, where a ``</script>`` inside a
string would end the element early; :func:`script_json` escapes the
characters that could do that (``<``, ``>``, ``&``) and the two line
separators that older JavaScript parsers treat as line ends.
"""

from __future__ import annotations

import html
import json
from typing import Any

_UNSAFE_IN_SCRIPT = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_TRANSLATION = str.maketrans(_UNSAFE_IN_SCRIPT)


def script_json(data: Any) -> str:
    """Compact JSON that is safe inside a ``<script>`` element and parses back to ``data``.

    The replaced characters only ever occur inside JSON strings, where a
    ``\\uXXXX`` escape means the same character, so ``JSON.parse`` gives the
    original text back.
    """
    encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return encoded.translate(_TRANSLATION)


def text(value: object) -> str:
    """``value`` as HTML text or attribute content (quotes escaped too)."""
    return html.escape(str(value), quote=True)
