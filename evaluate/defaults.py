"""The defaults of significance testing, defined once for the library and every command.

They live apart from the code that uses them (numpy, scipy) so that the command line can show
them in ``--help`` without importing that code.
"""

from __future__ import annotations

DEFAULT_SEED = 12345
"""Seed of every resampling, permutation and substitution draw: the same seed, the same result."""
DEFAULT_SAMPLES = 1000
"""Bootstrap resamples, approximate-randomization trials, permutations."""
DEFAULT_ALPHA = 0.05
"""Significance level after multiple-comparison correction."""
DEFAULT_CORRECTION = "holm"
"""Multiple-comparison correction: Holm's step-down (holm), Benjamini-Hochberg (bh) or none."""
DEFAULT_MIN_CHECKPOINTS = 30
"""Categories with fewer check-points are reported but never flagged significant."""
