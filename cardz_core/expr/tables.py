"""What expressions read about one game, worked out once per game: per-card-code lookups and
depot tables. Function implementations that declare ``needs=GAME`` or ``STATE`` receive it."""

from __future__ import annotations

from typing import Any

from cardz_core.cards import SUIT_COLOR, code, parse_rank


class Tables:
    """What a function implementation may read (``needs=GAME`` or ``STATE``):

    - ``rank``, ``suit``, ``colour``, ``value``, ``joker``: dicts keyed by card code. Only
      face-up codes are keys, so a face-down card, an unknown (negative) code and no card (None)
      all read as missing: ``rank.get(c)`` is None, ``value.get(c, 0)`` is 0.
    - ``depot_names``, ``depot_index`` (name -> index), ``groups`` (repeated depot's name ->
      indices of its copies), ``types`` (depot type -> indices), ``group_of`` and ``copy_index``
      per depot (None / 0 for a depot that is not a copy), ``covered_by`` per depot (indices of
      its ``uncoveredBy``), ``grid`` per depot ((col, row), or None when placed in pixels).
    - ``spec``: the whole ``GameSpec``.
    """

    def __init__(self, spec: Any, registry: Any) -> None:
        self.spec = spec
        depots = spec.depots
        self.depot_names: tuple[str, ...] = tuple(d.name for d in depots)
        self.depot_index: dict[str, int] = {d.name: i for i, d in enumerate(depots)}
        self.groups: dict[str, tuple[int, ...]] = {
            g: tuple(self.depot_index[n] for n in names) for g, names in spec.groups.items()}
        types = list(registry.depot_types) if registry is not None else []
        types += [d.type for d in depots if d.type not in types]
        self.types: dict[str, tuple[int, ...]] = {
            t: tuple(i for i, d in enumerate(depots) if d.type == t) for t in types}
        self.group_of: tuple[str | None, ...] = tuple(d.group for d in depots)
        self.copy_index: tuple[int, ...] = tuple(d.index for d in depots)
        self.covered_by: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.depot_index[n] for n in d.uncovered_by if n in self.depot_index)
            for d in depots)
        # grid position, or None for a depot placed in pixels (or not placed at all)
        self.grid: tuple[tuple[float, float] | None, ...] = tuple(
            None if d.x is not None or d.y is not None or d.col is None or d.row is None
            else (d.col, d.row) for d in depots)

        values = _value_table(spec.values)
        self.rank: dict[int, int] = {}
        self.suit: dict[int, int] = {}
        self.colour: dict[int, int] = {}
        self.value: dict[int, int] = {}
        self.joker: dict[int, bool] = {}
        for card_id, deck_card in enumerate(spec.cards):
            card = deck_card.card
            c = code(card_id, True)
            if card.joker:
                self.joker[c] = True
                self.value[c] = values.get(0, 0)
            else:
                self.rank[c] = card.rank
                self.suit[c] = card.suit
                self.colour[c] = SUIT_COLOR[card.suit]
                self.value[c] = values.get(card.rank, card.rank)


def _value_table(values: dict[str, int]) -> dict[int, int]:
    """``values`` as written (``"A"``, ``"10"``, ``"K"``, ``"joker"``) keyed by rank, 0 = joker."""
    out: dict[int, int] = {}
    for key, v in values.items():
        if str(key).strip().lower() == "joker":
            out[0] = v
        else:
            rank = parse_rank(key)
            if rank is not None:
                out[rank] = v
    return out
