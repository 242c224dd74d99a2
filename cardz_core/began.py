"""When this process began importing cardz (the package imports this module first): a source
file changed after it may differ from the code the process runs, so the program cache
(``cardz_core.spec.cache``) is not used then."""

from __future__ import annotations

import time

IMPORTED_NS = time.time_ns()
