"""The fuzz targets of ``tests/fuzzing.py`` under atheris (coverage-guided, libFuzzer's engine):

    python tests/fuzz_atheris.py TARGET [libFuzzer options] [CORPUS_DIR ...]

TARGET is one of game, expression, board, move, log, cli. A finding stops the run with the
input written to ``crash-*`` (keep it in ``tests/data/fuzz/TARGET/`` once fixed). For example
``python tests/fuzz_atheris.py expression -max_total_time=600 tests/data/fuzz/expression``
(give a copy of the folder: libFuzzer adds the inputs it finds to its corpus)."""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parent))  # fuzzing.py and conftest.py, as pytest sees them

with atheris.instrument_imports(include=["cardz_core", "cardz_vocabulary", "fuzzing"]):
    import fuzzing


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in fuzzing.TARGETS:
        sys.exit(f"usage: fuzz_atheris.py TARGET [libFuzzer options] [CORPUS ...]; TARGET is one "
                 f"of {', '.join(fuzzing.TARGETS)}")
    target = fuzzing.TARGETS[sys.argv[1]]
    fuzzing.warm()
    atheris.Setup([sys.argv[0]] + sys.argv[2:], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
