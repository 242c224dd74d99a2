"""The summary of a run, accumulated row by row so a run of any length keeps only a few numbers
per deal: per planner the results, game lengths, scores and times; per pair of planners the deals
one won and the other did not; per card how often it never moved, never reached a foundation, or
was left over when a game was lost."""

from __future__ import annotations

from array import array
from typing import Any, Sequence

from cardz_core.sim.play import LOST_TEXT, RESULTS, UNFINISHED_TEXT, WON_TEXT
from cardz_core.sim.stats import mcnemar_p, median, wilson_interval

_CODE = {WON_TEXT: 1, LOST_TEXT: 2, UNFINISHED_TEXT: 3}
SIGNIFICANT = 0.05
RATE_DIGITS = 4


class _PlannerTally:
    def __init__(self, games: int, n_cards: int) -> None:
        self.results = bytearray(games)  # per deal: 0 not played, else _CODE[result]
        self.counts = dict.fromkeys(RESULTS, 0)
        self.moves = array("l")
        self.scores = array("q")
        self.seconds = 0.0
        self.never_moved = [0] * n_cards
        self.never_foundation = [0] * n_cards
        self.left = [0] * n_cards

    @property
    def games(self) -> int:
        return len(self.moves)


class Tally:
    """Accumulates rows (in any order) into everything the summary and the report show."""

    def __init__(self, planners: Sequence[str], games: int, card_labels: Sequence[str],
                 has_foundations: bool = True) -> None:
        self.planners = tuple(planners)
        self.games = games
        self.card_labels = tuple(card_labels)
        self.has_foundations = has_foundations
        self.by_planner = {p: _PlannerTally(games, len(card_labels)) for p in self.planners}
        self._per_deal = bytearray(games)  # planners that finished each deal
        self.deals_done = 0

    def add(self, row: dict[str, Any]) -> None:
        t = self.by_planner[row["planner"]]
        deal = row["deal"]
        t.results[deal] = _CODE[row["result"]]
        t.counts[row["result"]] += 1
        t.moves.append(row["moves"])
        if row["score"] is not None:
            t.scores.append(row["score"])
        t.seconds += row["seconds"]
        for card in row["never_moved"]:
            t.never_moved[card] += 1
        for card in row["never_foundation"]:
            t.never_foundation[card] += 1
        for card in row["left"]:
            t.left[card] += 1
        self._per_deal[deal] += 1
        if self._per_deal[deal] == len(self.planners):
            self.deals_done += 1

    def summary(self, **about: Any) -> dict[str, Any]:
        """The summary as plain JSON-ready data; ``about`` (game, seed, ...) is copied in."""
        out: dict[str, Any] = dict(about)
        out["games"] = self.games
        out["deals_done"] = self.deals_done
        out["complete"] = self.deals_done == self.games
        out["planners"] = {p: self._planner(p) for p in self.planners}
        out["paired"] = [self._pair(a, b) for i, a in enumerate(self.planners)
                         for b in self.planners[i + 1:]]
        out["cards"] = self._cards()
        return out

    def _planner(self, name: str) -> dict[str, Any]:
        t = self.by_planner[name]
        n = t.games
        won = t.counts[WON_TEXT]
        interval = wilson_interval(won, n)
        moves = list(t.moves)
        scores = list(t.scores)
        return {
            "games": n,
            "won": won,
            "lost": t.counts[LOST_TEXT],
            "unfinished": t.counts[UNFINISHED_TEXT],
            "win_rate": won / n if n else None,
            "win_interval": list(interval) if interval else None,
            "moves": {"mean": sum(moves) / n if n else None, "median": median(moves),
                      "max": max(moves) if moves else None},
            "score": None if not scores else {
                "games": len(scores), "mean": sum(scores) / len(scores), "median": median(scores),
                "min": min(scores), "max": max(scores)},
            "seconds": {"mean": t.seconds / n if n else None, "total": t.seconds},
        }

    def _pair(self, a: str, b: str) -> dict[str, Any]:
        ra, rb = self.by_planner[a].results, self.by_planner[b].results
        both = a_only = b_only = neither = 0
        for x, y in zip(ra, rb):
            if not x or not y:
                continue
            wa, wb = x == 1, y == 1
            if wa and wb:
                both += 1
            elif wa:
                a_only += 1
            elif wb:
                b_only += 1
            else:
                neither += 1
        p = mcnemar_p(a_only, b_only)
        return {"a": a, "b": b, "deals": both + a_only + b_only + neither, "both": both,
                "a_only": a_only, "b_only": b_only, "neither": neither, "p_value": p,
                "note": _pair_note(a, b, a_only, b_only, p)}

    def _cards(self) -> list[dict[str, Any]]:
        cards = []
        for i, label in enumerate(self.card_labels):
            entry: dict[str, Any] = {"id": i, "card": label}
            for metric in ("never_moved", "never_foundation", "left"):
                entry[metric] = {p: self.card_rate(p, metric, i) for p in self.planners}
            cards.append(entry)
        return cards

    def card_rate(self, planner: str, metric: str, card: int) -> float | None:
        """How often ``card`` had ``metric``: over the planner's games, or its lost games for
        ``left``; None when there is nothing to count over (or no foundation, for
        ``never_foundation``)."""
        t = self.by_planner[planner]
        if metric == "never_foundation" and not self.has_foundations:
            return None
        over = t.counts[LOST_TEXT] if metric == "left" else t.games
        return round(getattr(t, metric)[card] / over, RATE_DIGITS) if over else None


def _pair_note(a: str, b: str, a_only: int, b_only: int, p: float | None) -> str:
    if p is None:
        return f"{a} and {b} won and lost the same deals"
    verdict = "is unlikely to be chance" if p < SIGNIFICANT else "could be chance"
    return (f"{a_only} deals won by {a} only, {b_only} by {b} only; McNemar p = {p:.3g}: "
            f"the difference {verdict}")
