"""Writing per-deal rows: JSON Lines (``.jsonl``) or CSV (``.csv``), chosen by the file's suffix.

The file starts with one line saying how the rows were made (``made``, as in the summary): in JSON
Lines an object ``{"made": {...}}``, in CSV a line ``# made: {...}`` before the column names.
Each row is written and flushed as soon as it is handed over, so an interrupted run keeps every
row it finished. Cards are named (``AS``, ``10H``; ``AS/2`` for a second copy). In CSV the card
lists are names separated by spaces, ``left`` (depot -> cards) is a JSON object, and a missing
score is empty.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, TextIO

from cardz_core.sim.job import ROW_FIELDS

FORMATS = {".jsonl": "jsonl", ".csv": "csv"}
_LISTS = ("never_moved", "never_foundation")
_INTS = ("deal", "seed", "moves", "home")
CSV_MADE = "# made: "


def row_format(path: str | Path) -> str | None:
    """``jsonl`` or ``csv`` by the path's suffix, None for any other suffix."""
    return FORMATS.get(Path(path).suffix.lower())


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class RowWriter:
    def __init__(self, path: str | Path, made: dict[str, Any] | None = None) -> None:
        fmt = row_format(path)
        if fmt is None:
            raise ValueError(f"{path}: rows are written as .jsonl or .csv")
        self.format = fmt
        self._file: TextIO = open(path, "w", encoding="utf-8", newline="")
        self._csv = None
        if fmt == "csv":
            if made is not None:
                self._file.write(CSV_MADE + _compact(made) + "\n")
            self._csv = csv.writer(self._file, lineterminator="\n")
            self._csv.writerow(ROW_FIELDS)
        elif made is not None:
            self._file.write(_compact({"made": made}) + "\n")
        self._file.flush()

    def write(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            if self._csv is not None:
                self._csv.writerow(_csv_cell(row[k], k) for k in ROW_FIELDS)
            else:
                self._file.write(_compact({k: row[k] for k in ROW_FIELDS}))
                self._file.write("\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _csv_cell(value: Any, key: str) -> Any:
    if key in _LISTS:
        return " ".join(value)
    if key == "left":
        return _compact(value)
    return "" if value is None else value


def read_made(path: str | Path) -> dict[str, Any] | None:
    """How the rows of a file ``RowWriter`` wrote were made (None when it does not say)."""
    with open(path, encoding="utf-8", newline="") as f:
        first = f.readline()
    if row_format(path) == "csv":
        return json.loads(first[len(CSV_MADE):]) if first.startswith(CSV_MADE) else None
    head = json.loads(first) if first.strip() else {}
    return head.get("made") if "deal" not in head else None


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Read rows back from a file ``RowWriter`` wrote (numbers and card lists restored)."""
    with open(path, encoding="utf-8", newline="") as f:
        if row_format(path) == "jsonl":
            records = (json.loads(line) for line in f if line.strip())
            return [r for r in records if "made" not in r]
        lines = (line for line in f if not line.startswith(CSV_MADE))
        rows = []
        for rec in csv.DictReader(lines):
            row: dict[str, Any] = dict(rec)
            for key in _INTS:
                row[key] = int(row[key])
            row["score"] = int(row["score"]) if row["score"] != "" else None
            row["seconds"] = float(row["seconds"])
            for key in _LISTS:
                row[key] = row[key].split()
            row["left"] = json.loads(row["left"])
            rows.append(row)
        return rows
