"""The `cardz` command (``main.py``), one module ``cmd_<name>.py`` per command.

``COMMANDS``: each command's name and the line of help ``cardz --help`` lists it with; its
module's parser says the same, and ``cardz --help`` is built from this alone, without importing
a command (start time, docs/benchmarks.md).
"""

COMMANDS = {
    "apply": "apply a move to a board and print the new board",
    "check": "validate game files",
    "deal": "print the opening board of a deal",
    "eval": "evaluate a rule expression on a board",
    "games": "list the bundled games",
    "hint": "print the move a planner would make",
    "moves": "list the legal moves of a board",
    "new": "write a starter game file that checks clean",
    "outcomes": "list what a move may lead to, with probabilities",
    "play": "play a deal in the terminal, or watch a planner play it",
    "render": "draw a board as SVG",
    "schema": "print the JSON Schema of the game-file format",
    "serve": "play in a browser: a local web app and its JSON API",
    "simulate": "play many deals with planners and summarise the results",
    "solve": "decide a deal with every card known: won, lost or unknown",
    "view": "print the player's view of a board",
}
