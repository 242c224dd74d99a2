"""The summary of a run, accumulated row by row so a run of any length keeps only a few numbers
per deal. An *arm* is one planner on one variant (a game file); per arm: why its games ended,
game lengths by how they ended, scores, times, how many cards lost games had home, the depots
that held the cards left over, and the notable deals; per pair of arms on the same deals (two
planners on a variant, or a planner on two variants that open the deals the same way) the deals
one won and the other did not; per card how often it never moved, never reached a foundation,
or was left over when a game was lost."""

from __future__ import annotations

import math
from array import array
from collections import Counter
from typing import Any, Callable, Sequence

import attrs

from cardz_core.sim.play import ENDS, LOST_TEXT, RESULT_OF_END, UNFINISHED_TEXT, WON_TEXT
from cardz_core.sim.seeds import deal_seed
from cardz_core.sim.stats import (mcnemar_p, mean_interval, median, quartiles, two_proportion_p,
                                  wilson_interval)

_CODE = {end: i + 1 for i, end in enumerate(ENDS)}  # per deal: 0 not played
_WON = _CODE[WON_TEXT]
SIGNIFICANT = 0.05
RATE_DIGITS = 4
NOTABLE_DEALS = 5  # deals listed per side of a pair, won by one arm only
Explain = Callable[[str, str, int], "str | None"]  # (variant a, variant b, deal) -> why unlike


@attrs.frozen
class Deck:
    """What the tally needs of a variant: its name in rows, card labels in deck order, depot
    names, and whether it has a foundation at all."""

    name: str
    card_labels: tuple[str, ...]
    depot_names: tuple[str, ...] = ()
    has_foundations: bool = True


class _ArmTally:
    def __init__(self, games: int, n_cards: int) -> None:
        self.ends = bytearray(games)  # per deal: 0 not played, else _CODE[end]
        self.counts = dict.fromkeys(ENDS, 0)
        self.moves_at = array("I", bytes(4 * games))  # per deal (a move cap fits 32 bits)
        self.scores = array("q")
        self.seconds = 0.0
        self.never_moved = [0] * n_cards
        self.never_foundation = [0] * n_cards
        self.left = [0] * n_cards
        self.home_when_lost: Counter[int] = Counter()
        self.left_in: dict[str, list[int]] = {}  # depot -> [cards left there, lost games]
        self.shortest_win: tuple[int, int, int] | None = None  # (moves, deal, seed)
        self.longest_loss: tuple[int, int, int] | None = None

    @property
    def games(self) -> int:
        return sum(self.counts.values())

    def moves(self, end: str | None = None) -> list[int]:
        """The lengths of the games played (that ended ``end``), in deal order."""
        want = None if end is None else _CODE[end]
        return [m for m, e in zip(self.moves_at, self.ends) if e and (want is None or e == want)]

    def result_count(self, result: str) -> int:
        return sum(n for end, n in self.counts.items() if RESULT_OF_END[end] == result)


class Tally:
    """Accumulates rows (in any order) into everything the summary and the report show.
    ``seed``: the run's master seed (deal seeds are derived from it); ``first``: the number of
    the run's first deal."""

    def __init__(self, planners: Sequence[str], games: int, decks: Sequence[Deck],
                 seed: int = 0, first: int = 0) -> None:
        self.planners = tuple(planners)
        self.decks = tuple(decks)
        self.games = games
        self.seed = seed
        self.first = first
        self.arms = tuple((d.name, p) for d in self.decks for p in self.planners)
        self.by_arm = {arm: _ArmTally(games, len(d.card_labels))
                       for d in self.decks for arm in self.arms if arm[0] == d.name}
        self._card_ids = {d.name: {c: i for i, c in enumerate(d.card_labels)} for d in self.decks}
        self.openings = {d.name: array("Q", bytes(8 * games)) for d in self.decks}
        self._per_deal = bytearray(games)  # games finished of each deal
        self.deals_done = 0

    def label(self, arm: tuple[str, str]) -> str:
        """The arm's name in the summary: the planner, ``variant/planner`` with several."""
        return arm[1] if len(self.decks) == 1 else f"{arm[0]}/{arm[1]}"

    def add(self, row: dict[str, Any]) -> None:
        arm = (row["variant"], row["planner"])
        t = self.by_arm[arm]
        deal = row["deal"]
        i = deal - self.first
        end = row["end"]
        t.ends[i] = _CODE[end]
        t.counts[end] += 1
        moves = row["moves"]
        t.moves_at[i] = moves
        if row["score"] is not None:
            t.scores.append(row["score"])
        t.seconds += row["seconds"]
        ids = self._card_ids[arm[0]]
        for card in row["never_moved"]:
            t.never_moved[ids[card]] += 1
        for card in row["never_foundation"]:
            t.never_foundation[ids[card]] += 1
        notable = (moves, deal, row["seed"])
        if end == WON_TEXT:
            if t.shortest_win is None or notable[:2] < t.shortest_win[:2]:
                t.shortest_win = notable
        elif RESULT_OF_END[end] == LOST_TEXT:
            t.home_when_lost[row["home"]] += 1
            for depot, cards in row["left"].items():
                for card in cards:
                    t.left[ids[card]] += 1
                held = t.left_in.setdefault(depot, [0, 0])
                held[0] += len(cards)
                held[1] += 1
            if t.longest_loss is None or (moves, -deal) > (t.longest_loss[0], -t.longest_loss[1]):
                t.longest_loss = notable
        self.openings[arm[0]][i] = int(row["opening"], 16) or 1  # 0 stands for "not seen"
        self._per_deal[i] += 1
        if self._per_deal[i] == len(self.arms):
            self.deals_done += 1

    # -- the summary ------------------------------------------------------------------------

    def summary(self, explain: Explain | None = None, **about: Any) -> dict[str, Any]:
        """The summary as plain JSON-ready data; ``about`` (game, seed, ...) is copied in.
        ``explain(a, b, deal)`` says why variants ``a`` and ``b`` open ``deal`` differently."""
        out: dict[str, Any] = dict(about)
        out["games"] = self.games
        out["deals_done"] = self.deals_done
        out["complete"] = self.deals_done == self.games
        out["planners"] = {self.label(arm): self._arm(arm) for arm in self.arms}
        out["paired"], out["unpaired"] = [], []
        for a, b in self._pairs():
            pair = self._pair(a, b, explain)
            out["paired" if pair["paired"] else "unpaired"].append(pair)
        out["cards"] = {d.name: self._cards(d) for d in self.decks}
        return out

    def _pairs(self) -> list[tuple[tuple[str, str], tuple[str, str]]]:
        """Two planners on a variant; a planner on two variants."""
        pairs = []
        for i, a in enumerate(self.arms):
            for b in self.arms[i + 1:]:
                if a[0] == b[0] or a[1] == b[1]:
                    pairs.append((a, b))
        return pairs

    def _arm(self, arm: tuple[str, str]) -> dict[str, Any]:
        t = self.by_arm[arm]
        n = t.games
        won = t.counts[WON_TEXT]
        lost = t.result_count(LOST_TEXT)
        interval = wilson_interval(won, n)
        moves = t.moves()
        scores = list(t.scores)
        return {
            "variant": arm[0],
            "planner": arm[1],
            "games": n,
            "won": won,
            "lost": lost,
            "unfinished": t.counts[UNFINISHED_TEXT],
            "ends": dict(t.counts),
            "win_rate": won / n if n else None,
            "win_interval": list(interval) if interval else None,
            "moves": {"mean": sum(moves) / n if n else None, "median": median(moves),
                      "max": max(moves) if moves else None},
            "moves_by_end": {end: _lengths(t.moves(end)) for end in ENDS if t.counts[end]},
            "home_when_lost": [{"cards": k, "games": t.home_when_lost[k]}
                               for k in sorted(t.home_when_lost)],
            "left_in": [{"depot": depot, "cards": round(total / lost, 2),
                         "games": round(games / lost, RATE_DIGITS)}
                        for depot, (total, games) in sorted(
                            t.left_in.items(), key=lambda kv: (-kv[1][0], kv[0]))],
            "score": None if not scores else {
                "games": len(scores), "mean": sum(scores) / len(scores), "median": median(scores),
                "min": min(scores), "max": max(scores)},
            "seconds": {"mean": t.seconds / n if n else None, "total": t.seconds},
            "shortest_win": _notable(t.shortest_win),
            "longest_loss": _notable(t.longest_loss),
        }

    def _pair(self, a: tuple[str, str], b: tuple[str, str], explain: Explain | None
              ) -> dict[str, Any]:
        ra, rb = self.by_arm[a].ends, self.by_arm[b].ends
        oa, ob = self.openings[a[0]], self.openings[b[0]]
        same_variant = a[0] == b[0]
        both = neither = unlike = 0
        a_only: list[int] = []
        b_only: list[int] = []
        first_unlike = -1
        for i, (x, y) in enumerate(zip(ra, rb)):
            if not x or not y:
                continue
            if not same_variant and oa[i] != ob[i]:
                if first_unlike < 0:
                    first_unlike = i
                unlike += 1
                continue
            wa, wb = x == _WON, y == _WON
            if wa and wb:
                both += 1
            elif wa:
                a_only.append(i)
            elif wb:
                b_only.append(i)
            else:
                neither += 1
        la, lb = self.label(a), self.label(b)
        base: dict[str, Any] = {"a": la, "b": lb, "by": "planner" if same_variant else "variant"}
        deals = both + len(a_only) + len(b_only) + neither
        reason = None
        if unlike:
            why = explain(a[0], b[0], first_unlike + self.first) if explain else None
            reason = (f"{unlike} of {unlike + deals} deals open differently (deal "
                      f"{first_unlike + self.first}" + (f": {why})" if why else ")"))
        if not deals and unlike:
            return {**base, "paired": False, "reason": reason,
                    **self._unpaired(a, b, la, lb)}
        p = mcnemar_p(len(a_only), len(b_only))
        return {**base, "paired": True, "deals": deals, "both": both, "a_only": len(a_only),
                "b_only": len(b_only), "neither": neither, "p_value": p,
                "note": _pair_note(la, lb, len(a_only), len(b_only), p),
                "unlike_openings": unlike, "reason": reason,
                "a_only_deals": self._deals(a_only), "b_only_deals": self._deals(b_only)}

    def _unpaired(self, a: tuple[str, str], b: tuple[str, str], la: str, lb: str
                  ) -> dict[str, Any]:
        """Two arms that played no deal alike: their win rates compared as independent samples,
        with Newcombe's interval for the difference (from the two Wilson intervals)."""
        ta, tb = self.by_arm[a], self.by_arm[b]
        na, nb, wa, wb = ta.games, tb.games, ta.counts[WON_TEXT], tb.counts[WON_TEXT]
        out: dict[str, Any] = {"a_games": na, "a_won": wa, "b_games": nb, "b_won": wb,
                               "difference": None, "difference_interval": None,
                               "p_value": None}
        ia, ib = wilson_interval(wa, na), wilson_interval(wb, nb)
        if ia is None or ib is None:
            out["note"] = f"{la} or {lb} played no game"
            return out
        pa, pb = wa / na, wb / nb
        d = pa - pb
        low = d - math.sqrt((pa - ia[0]) ** 2 + (ib[1] - pb) ** 2)
        high = d + math.sqrt((ia[1] - pa) ** 2 + (pb - ib[0]) ** 2)
        p = two_proportion_p(wa, na, wb, nb)
        out.update(difference=d, difference_interval=[low, high], p_value=p)
        verdict = ("the rates are the same" if p is None else
                   "the difference is unlikely to be chance" if p < SIGNIFICANT else
                   "the difference could be chance")
        out["note"] = (f"not the same deals: {la} won {pa:.1%}, {lb} {pb:.1%}; difference "
                       f"{100 * d:+.1f} points (95% interval {100 * low:+.1f} .. "
                       f"{100 * high:+.1f})" + ("" if p is None else f"; p = {p:.3g}") +
                       f": {verdict}")
        return out

    def _deals(self, indices: list[int]) -> list[dict[str, int]]:
        return [{"deal": i + self.first, "seed": deal_seed(self.seed, i + self.first)}
                for i in indices[:NOTABLE_DEALS]]

    def _cards(self, deck: Deck) -> list[dict[str, Any]]:
        cards = []
        planners = [arm for arm in self.arms if arm[0] == deck.name]
        for i, label in enumerate(deck.card_labels):
            entry: dict[str, Any] = {"card": label}
            for metric in ("never_moved", "never_foundation", "left"):
                entry[metric] = {arm[1]: self.card_rate(arm, metric, i) for arm in planners}
            cards.append(entry)
        return cards

    def card_rate(self, arm: tuple[str, str], metric: str, card: int) -> float | None:
        """How often ``card`` had ``metric``: over the arm's games, or its lost games for
        ``left``; None when there is nothing to count over (or no foundation, for
        ``never_foundation``)."""
        t = self.by_arm[arm]
        deck = next(d for d in self.decks if d.name == arm[0])
        if metric == "never_foundation" and not deck.has_foundations:
            return None
        over = t.result_count(LOST_TEXT) if metric == "left" else t.games
        return round(getattr(t, metric)[card] / over, RATE_DIGITS) if over else None


def _lengths(moves: Sequence[int]) -> dict[str, Any]:
    interval = mean_interval(moves)
    return {"games": len(moves), "mean": sum(moves) / len(moves),
            "mean_interval": list(interval) if interval else None, "median": median(moves),
            "quartiles": list(quartiles(moves)), "min": min(moves), "max": max(moves)}


def _notable(found: tuple[int, int, int] | None) -> dict[str, int] | None:
    return None if found is None else {"moves": found[0], "deal": found[1], "seed": found[2]}


def _pair_note(a: str, b: str, a_only: int, b_only: int, p: float | None) -> str:
    if p is None:
        return f"{a} and {b} won and lost the same deals"
    verdict = "is unlikely to be chance" if p < SIGNIFICANT else "could be chance"
    deals = "deal" if a_only == 1 else "deals"
    return (f"{a_only} {deals} won by {a} only, {b_only} by {b} only; McNemar p = {p:.3g}: "
            f"the difference {verdict}")

