"""What each field of the game-file format means, in a line, for ``cardz schema``: editors that
read JSON Schema show these as hover text and completion notes.

Keyed by the schema's definition (``game``, ``depot``, ``acceptRule`` ...) and property name;
the steps' and conditions' fields by their ``kind``. A test checks that every property of every
table (``cardz_core.spec.tables``) and every field of every built-in kind has a line here, so a
new field cannot arrive without one. Plugin kinds describe themselves through their docstring.
"""

from __future__ import annotations

PROPERTIES: dict[str, dict[str, str]] = {
    "game": {
        "name": "The game's name, as shown and as `cardz` finds it (required).",
        "description": "The rules for players, in Markdown; the engine does not read it.",
        "family": "A grouping key: games of one family share it exactly (\"Klondike\").",
        "aliases": "Other names the game is known by; `cardz` finds the game by them too.",
        "decks": "The cards: a list of packs, shuffled together. Left out: one 52-card deck.",
        "depots": "The places that hold cards: stock, waste, foundations, columns ... "
                   "(required).",
        "rules": "Named accept or eject rules that depots share, used as \"$name\".",
        "dealRules": "The opening deal: steps run in order. Left out: every card starts in "
                     "the stock.",
        "redealRules": "Steps a redeal runs when the player taps the stock they deal from.",
        "redealWhen": "A condition that must hold for a redeal to run.",
        "maxRedeals": "How many redeals are allowed after the opening deal; left out: no "
                      "limit, 0: none.",
        "winCondition": "The board that wins: checked after every move.",
        "lossCondition": "The board that loses: checked after every move.",
        "values": "What each rank is worth to expressions and scores, where not its pips "
                  "({\"J\": 10}).",
        "scoring": "How a deal is scored: an expression and which way is better.",
        "planner": "Whether cardz's own planners may play the game (true/false), and how "
                   "they value a board ({\"value\": EXPR}).",
        "aids": "Symbols printed on the cards to help play this game (pairSum ...).",
        "depotOnly": "A card dropped off every depot goes back. Needed by noLegalMoves; on "
                     "for most ruled games. Set at the top level, not on a condition.",
        "compoundMoves": "Free: any valid run moves as one. Staged: runs are limited by the "
                         "free cells and empty columns, as in FreeCell.",
        "tools": "Whether the app's free-handling tools are offered: Unset, Free or None.",
        "anchor": "Where a small board sits in a large window.",
        "fanOffsetFaceUp": "Fan step in pixels between face-up cards (depots may override).",
        "fanOffsetFaceDown": "Fan step in pixels between face-down cards (depots may "
                             "override).",
    },
    "wrapper": {
        "schemaVersion": "The export wrapper's version: 1.",
        "setup": "The game object itself.",
    },
    "pack": {
        "suits": "The suits in the pack; left out: all four.",
        "ranks": "The ranks in the pack; left out: Ace to King.",
        "count": "How many identical copies of this pack (default 1).",
        "jokers": "Jokers added to each copy (default 0).",
        "to": "The depot this pack is shuffled into; left out: the first stock.",
        "back": "The card back (1 or 2) every copy shows; left out: copies alternate.",
    },
    "depot": {
        "name": "The depot's name, which other fields refer to (required). With repeat, the "
                "copies are NAME-1, NAME-2 ...",
        "type": "What the depot is: Stock, Waste, Foundation, Tableau, Cell, Reserve or "
                "Layout (required).",
        "col": "Grid column of the depot's place (fractions allowed).",
        "row": "Grid row of the depot's place (fractions allowed).",
        "x": "Place in pixels from the left; wins over col.",
        "y": "Place in pixels from the top; wins over row.",
        "angle": "Rotation in radians.",
        "repeat": "Make this many copies, named NAME-1 ... NAME-N, one grid column apart.",
        "perRow": "With repeat: this many copies to a row, then the next row.",
        "offTable": "Keep the depot off the visible table (a stock that only deals).",
        "fanDirection": "How the pile is spread: None (squared), Down, Up, Left, Right or "
                        "Radial.",
        "fanWindow": "Spread only the top N cards.",
        "fanAnchor": "Which card of the fan stays on the depot's place: Base, Center or Top.",
        "fanOffsetFaceUp": "This depot's fan step in pixels between face-up cards.",
        "fanOffsetFaceDown": "This depot's fan step in pixels between face-down cards.",
        "looseOrder": "Cards may be reordered along the fan, and a pick takes one card "
                      "(hands, fanned reserves).",
        "landFace": "Cards dropped here land this side up; left out: they keep their face.",
        "landUnder": "Cards dropped here go beneath the pile.",
        "autoFlipTop": "Turn the new top card face-up when a card leaves.",
        "uncoveredBy": "Depots lying over this one: its top card is free once they are empty.",
        "uncoveredByAny": "With uncoveredBy: one of them being empty is enough.",
        "autoFlipUncovered": "Turn the top card face-up once uncoveredBy frees it.",
        "acceptRule": "What may land here: \"any\", \"none\", \"emptyOnly\", \"$rule\" or an "
                      "object of checks.",
        "ejectRule": "What may be picked up here: \"any\", \"faceUp\", \"topOnly\", "
                     "\"locked\", \"$rule\" or {gate, unit}.",
        "draw": "Makes the depot a stock the player taps: where drawn cards go, how many, "
                "recycling.",
        "autoSend": "Depots this one's top cards go to by themselves whenever they can.",
        "autoRefill": "Depots this one takes a card from by itself whenever it is empty.",
        "triggers": "Steps run by themselves whenever cards land and their condition holds.",
        "actions": "What tapping this depot does: the first action whose condition holds.",
    },
    "acceptRule": {
        "rejectsAll": "Never a target of a move.",
        "emptyOnly": "Takes cards only while empty.",
        "single": "Takes one card at a time, never a pile.",
        "minCount": "Takes only piles of at least this many cards (13 for a Spider "
                    "foundation).",
        "acceptFrom": "Takes cards only from these depots.",
        "seed": "The rank an empty depot must start with (\"Ace\", \"King\"), or \"none\".",
        "seedNone": "Takes nothing while empty.",
        "seedFromDeal": "The deal's face-up card on such a depot sets the starting rank of "
                        "them all.",
        "rankIs": "Takes only this rank, empty or not.",
        "build": "How the arriving card's rank relates to the top card's: direction, step, "
                 "wrap.",
        "suit": "How the arriving card's suit relates to the top card's: Any, Same, "
                "AlternateColor or SameColor.",
        "follow": "The arriving card matches the top card's rank or its suit.",
        "wildRank": "A card of this rank lands on any top card.",
        "wildJoker": "Jokers land on any top card.",
        "wildDeclares": "What may follow a wild card on top: none, suit (the player calls "
                        "one), free or transparent.",
        "allowFaceDown": "Takes face-down cards too, without looking at what they are.",
        "when": "A rule expression that must also hold for the cards to land (card, pile, "
                "depot, source, top).",
        "reason": "What a player is told when `when` refuses a move.",
    },
    "build": {
        "direction": "Up, Down or Either (required).",
        "step": "Rank difference from the card below, 0 to 12 (default 1; 0: equal ranks).",
        "wrap": "Build round the corner, King to Ace and back.",
    },
    "ejectRule": {
        "gate": "Which card may be picked up: Any, FaceUp, TopOnly or Locked.",
        "unit": "Which cards leave with it: Single, Any, Run (with its build and suit) or "
                "Pile.",
    },
    "unit": {
        "kind": "Single, Any, Run or Pile.",
        "build": "For a Run: how the ranks of the cards that leave together follow.",
        "suit": "For a Run: how their suits follow.",
    },
    "draw": {
        "to": "The depot drawn cards land on, face-up (required).",
        "count": "Cards per tap (default 1).",
        "recycle": "Tapping the empty stock turns the `to` pile back into it.",
        "maxRecycles": "How many recycles are allowed; left out: no limit, 0: none.",
        "when": "A rule expression that must hold for a tap to do anything.",
    },
    "trigger": {
        "when": "The rule expression that starts the steps (required).",
        "do": "The steps to run (required).",
    },
    "action": {
        "name": "The action's name, shown to the player.",
        "when": "A rule expression that must hold for the action to be offered.",
        "do": "The steps to run (required).",
    },
    "scoring": {
        "value": "The score, a rule expression giving a number (required).",
        "better": "High or Low: which way a score is better.",
        "keep": "Won keeps the score of a won deal only; Over keeps a lost deal's too.",
    },
    "planner": {
        "value": "A rule expression giving a number: how good a board is, for the planners.",
    },
    "pattern": {
        "ofType": "Every depot of this type.",
        "names": "The depots named (a repeated depot's name: all its copies).",
    },
}

AIDS: dict[str, str] = {
    "pairSum": "The total a pair must make (13 in Pyramid): the cards show what completes them.",
}

DEFINITIONS: dict[str, str] = {
    "pattern": "A set of depots: a type name (\"Foundation\"), a list of names, "
               "{\"ofType\": TYPE} or {\"names\": [...]}.",
    "rank": "A rank: Ace ... King, A, 2 ... 10, J, Q, K, or 1 to 13.",
    "suit": "A suit: Clubs, Diamonds, Hearts, Spades, or C, D, H, S.",
    "expr": "A rule expression (docs/expressions.md).",
    "step": "A deal step, named by its `kind`.",
    "condition": "A win, loss or redeal condition, named by its `kind`.",
    "values": "Rank (or joker) to the number it is worth.",
    "aids": "Card aid name to its setting.",
    "rules": "Rule name to an accept or eject rule, used as \"$name\".",
    "depotType": "A depot type.",
    "seed": "The rank an empty depot starts with, or none.",
}

KINDS: dict[str, str] = {
    "dealGroup": "Deal face-down then face-up cards to each `to` depot.",
    "move": "Move cards from one depot to another, keeping their faces.",
    "flipTop": "Turn a depot's top card face-up.",
    "place": "Take a named card out of the stock and put it face-up on a depot.",
    "gather": "Pick up every card of the `from` depots onto `to`, face-down.",
    "shuffle": "Shuffle a depot's cards.",
    "compact": "Close up the gaps between a repeated depot's copies.",
    "allCardsIn": "Every card lies on the matching depots.",
    "allCardsFaceUp": "Every card is face-up.",
    "depotsEmpty": "Every matching depot is empty.",
    "depotsNonEmpty": "Every matching depot holds a card.",
    "allOf": "All the listed conditions hold.",
    "anyOf": "At least one of the listed conditions holds.",
    "expr": "A rule expression holds.",
    "noLegalMoves": "No move and no tap is left. Needs `depotOnly: true` at the game's top "
                    "level.",
}

KIND_FIELDS: dict[str, dict[str, str]] = {
    "dealGroup": {"to": "The depots dealt to, in order (a repeated depot's name: all copies).",
                  "faceDown": "Face-down cards to each depot.",
                  "faceUp": "Face-up cards to each depot, after the face-down ones.",
                  "roundRobin": "One card per depot per pass, instead of filling each in turn.",
                  "from": "The depot dealt from; left out: the first stock.",
                  "when": "A rule expression: deal only to the depots (`depot`) it holds for."},
    "move": {"from": "The depot the cards come from.", "to": "The depot they go to.",
             "count": "How many top cards move together: a number or an expression.",
             "under": "Put them beneath the target's cards."},
    "flipTop": {"depot": "The depot whose top card turns face-up."},
    "place": {"rank": "The card's rank.", "suit": "The card's suit.",
              "joker": "Place a joker instead.", "to": "The depot it goes to."},
    "gather": {"from": "The depots picked up.", "to": "The depot they go onto.",
               "when": "A rule expression: take only from the depots (`depot`) it holds for."},
    "shuffle": {"depot": "The depot whose cards are shuffled."},
    "compact": {"group": "The copies' shared name (`cell` for cell-1 ...).",
                "from": "Where each copy left empty takes one card from, face-up."},
    "allCardsIn": {"depots": "The depots that must hold every card."},
    "depotsEmpty": {"depots": "The depots that must be empty."},
    "depotsNonEmpty": {"depots": "The depots that must each hold a card."},
    "allOf": {"of": "The conditions."},
    "anyOf": {"of": "The conditions."},
    "expr": {"when": "The rule expression."},
}
