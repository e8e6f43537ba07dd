"""Asiya's linguistic metric identifiers: ``FAMILY-Measure(type)`` and ``FAMILY-Measure-n``."""

from __future__ import annotations

from dataclasses import dataclass

from checkpoints.errors import UsageError


@dataclass(frozen=True, slots=True)
class Identifier:
    """``SP-Op(NN)`` → family SP, measure Op, type NN; ``DP-HWCM_w-2`` → family DP, measure HWCM_w-2."""

    family: str
    measure: str
    kind: str | None = None
    """The text between the first ``(`` after the measure and the last ``)`` (so ``SP-Op(()`` has type ``(``)."""
    robust: str | None = None
    """SR's parse-failure variant: ``b`` (backoff) or ``i`` (interpolation), from a ``_b``/``_i`` suffix."""

    @classmethod
    def parse(cls, name: str) -> Identifier:
        if name.startswith("SR-") and name[-2:] in ("_b", "_i"):
            base = cls.parse(name[:-2])
            return cls(base.family, base.measure, base.kind, name[-1])
        family, dash, rest = name.partition("-")
        if not dash or not rest:
            raise UsageError(f"{name}: not a linguistic metric name (FAMILY-Measure or FAMILY-Measure(type))")
        if "(" in rest:
            opening = rest.index("(")
            closing = rest.rindex(")") if ")" in rest[opening + 1:] else -1
            if closing <= opening or closing != len(rest) - 1:
                raise UsageError(f"{name}: a type goes in parentheses at the end, e.g. {family}-Op(NN)")
            return cls(family, rest[:opening], rest[opening + 1:closing])
        return cls(family, rest)

    def __str__(self) -> str:
        typed = f"({self.kind})" if self.kind is not None else ""
        return f"{self.family}-{self.measure}{typed}" + (f"_{self.robust}" if self.robust else "")
