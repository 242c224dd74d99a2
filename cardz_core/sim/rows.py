"""Writing per-deal rows: JSON Lines (``.jsonl``) or CSV (``.csv``), chosen by the file's suffix.

Each row is written and flushed as soon as it is handed over, so an interrupted run keeps every row
it finished. In CSV the card lists are card ids separated by spaces and a missing score is empty.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, TextIO

from cardz_core.sim.job import ROW_FIELDS

FORMATS = {".jsonl": "jsonl", ".csv": "csv"}
_LISTS = ("never_moved", "never_foundation", "left")


def row_format(path: str | Path) -> str | None:
    """``jsonl`` or ``csv`` by the path's suffix, None for any other suffix."""
    return FORMATS.get(Path(path).suffix.lower())


class RowWriter:
    def __init__(self, path: str | Path) -> None:
        fmt = row_format(path)
        if fmt is None:
            raise ValueError(f"{path}: rows are written as .jsonl or .csv")
        self.format = fmt
        self._file: TextIO = open(path, "w", encoding="utf-8", newline="")
        self._csv = None
        if fmt == "csv":
            self._csv = csv.writer(self._file, lineterminator="\n")
            self._csv.writerow(ROW_FIELDS)

    def write(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            if self._csv is not None:
                self._csv.writerow(_csv_cell(row[k], k) for k in ROW_FIELDS)
            else:
                self._file.write(json.dumps({k: row[k] for k in ROW_FIELDS}, separators=(",", ":")))
                self._file.write("\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _csv_cell(value: Any, key: str) -> Any:
    if key in _LISTS:
        return " ".join(str(v) for v in value)
    return "" if value is None else value


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Read rows back from a file ``RowWriter`` wrote (numbers and card lists restored)."""
    with open(path, encoding="utf-8", newline="") as f:
        if row_format(path) == "jsonl":
            return [json.loads(line) for line in f if line.strip()]
        rows = []
        for rec in csv.DictReader(f):
            row: dict[str, Any] = dict(rec)
            for key in ("deal", "seed", "moves"):
                row[key] = int(row[key])
            row["score"] = int(row["score"]) if row["score"] != "" else None
            row["seconds"] = float(row["seconds"])
            for key in _LISTS:
                row[key] = [int(v) for v in row[key].split()]
            rows.append(row)
        return rows
