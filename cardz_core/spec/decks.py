"""Packs (``decks``) and their expansion into the game's cards.

Deck order, which fixes every card's id: pack by pack as listed, copy by copy, then suit by suit
in the pack's ``suits`` order, rank by rank in its ``ranks`` order, then that copy's jokers.
A copy without its own ``back`` shows back 1 on even copies (0, 2, ...) and 2 on odd ones.
"""

from __future__ import annotations

from typing import Any

from cardz_core.cards import JOKER, RANK_WORDS, SUIT_WORDS, Card
from cardz_core.kinds import DepotType
from cardz_core.limits import MAX_CARDS
from cardz_core.problems import join
from cardz_core.spec.model import DeckCard, Pack
from cardz_core.spec.reader import MISSING, Ctx, Obj, as_items, as_list, as_rank, as_suit, describe, no_repeats
from cardz_core.spec.refs import depot_ref
from cardz_core.spec.tables import PACK


def has_stock(ctx: Ctx) -> bool:
    """Whether some depot's type deals (``DepotType.deals_from``: packs without ``to`` go
    there); True as well when a depot's type is unknown (its own problem is reported, and it
    may have been meant as the stock)."""
    for type_name in ctx.names.values():
        if not type_name:
            return True
        dtype = ctx.registry.lookup("depot_types", type_name)
        if isinstance(dtype, DepotType) and dtype.deals_from:
            return True
    return False


def _read_pack(ctx: Ctx, data: Any, ptr: str) -> Pack | None:
    if not isinstance(data, dict):
        ctx.error(ptr, f"expected a pack object (like {{}} for a standard deck), found {describe(data)}")
        return None
    obj = Obj(ctx, data, ptr, PACK, "a pack")
    kw: dict[str, Any] = {}
    for key, read, what in (("suits", as_suit, "suit"), ("ranks", as_rank, "rank")):
        if obj.has(key):
            got = as_items(ctx, obj.raw(key), obj.at(key), read, f"a list of {what}s")
            if got is not None:
                if isinstance(obj.raw(key), list):
                    words = SUIT_WORDS if key == "suits" else RANK_WORDS
                    no_repeats(ctx, [words[v] for v in got], obj.at(key), what)
                kw[key] = got
    for key in ("count", "jokers", "back"):
        got = obj.get(key)
        if got is not None:
            kw[key] = got
    if obj.has("to"):
        to = depot_ref(ctx, obj.raw("to"), obj.at("to"))
        if to is not None:
            kw["to"] = to
    elif ctx.names_complete and not has_stock(ctx):
        ctx.error(join(ptr, "to"), "no Stock depot to hold this pack: add one, or say where it "
                                   "goes with 'to'")
    return Pack(ptr=ptr, **kw)


def read_decks(ctx: Ctx, value: Any, ptr: str) -> tuple[Pack, ...]:
    """The packs; omitted ``decks`` is one standard 52-card pack."""
    if value is MISSING:
        if ctx.names_complete and not has_stock(ctx):
            ctx.error(ptr, "no Stock depot to hold the cards: add one, or list 'decks' with 'to'")
        return (Pack(ptr=ptr),)
    items = as_list(ctx, value, ptr, "a list of packs")
    if items is None:
        return ()
    before = len(ctx.problems)
    packs = (_read_pack(ctx, item, join(ptr, i)) for i, item in enumerate(items))
    out = tuple(p for p in packs if p is not None)
    total = sum(pack_size(p) for p in out)
    if total > MAX_CARDS:
        ctx.error(ptr, f"the packs hold {total} cards; a game holds at most {MAX_CARDS}")
    if total == 0 and len(ctx.problems) == before:  # no cards, not for a pack's own mistake
        ctx.error(ptr, "the packs hold no cards: a game needs at least one")
    return out


def pack_size(pack: Pack) -> int:
    return (len(pack.suits) * len(pack.ranks) + pack.jokers) * pack.count


def expand(packs: tuple[Pack, ...]) -> tuple[DeckCard, ...]:
    cards: list[DeckCard] = []
    for p, pack in enumerate(packs):
        for copy in range(pack.count):
            back = pack.back if pack.back is not None else 1 + copy % 2
            for suit in pack.suits:
                for rank in pack.ranks:
                    cards.append(DeckCard(Card(rank, suit), p, copy, back))
            cards.extend(DeckCard(JOKER, p, copy, back) for _ in range(pack.jokers))
    return tuple(cards)
