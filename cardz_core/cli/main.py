"""The `cardz` command. Each subcommand lives in its own module ``cmd_<name>.py`` exposing
``add_parser(subparsers)``; the parser it adds sets ``func=run(args) -> int``.

Exit codes: 0 success, 1 the input was read but is invalid or the request cannot be met,
2 usage errors (the parser's, and ``UsageError``: a flag's value out of range, flags that do not
go together); docs/cli.md has the table of mistakes and their wording.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from cardz_core.cli import COMMANDS
from cardz_core.interrupts import interrupt_exit_code, signals_interrupt
from cardz_core.safe_text import safe_output


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of command ``only`` alone: a command imports what it
    needs, so that running one imports none of the others."""
    parser, sub = _top()
    for name in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"cardz_core.cli.cmd_{name}").add_parser(sub)
    return parser


def _top() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    from cardz_core import __version__

    parser = argparse.ArgumentParser(prog="cardz", description="Solitaire card games written as data.")
    parser.add_argument("--version", action="version", version=f"cardz {__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND")


def _index() -> argparse.ArgumentParser:
    """The parser when no command is named (``cardz --help``, a mistyped command): every
    command listed with its line of help, none of their modules imported."""
    parser, sub = _top()
    for name, line in COMMANDS.items():
        sub.add_parser(name, help=line)
    return parser


def main(argv: list[str] | None = None) -> int:
    # every text the command writes, from the parser's errors to the board, is terminal-safe;
    # SIGTERM and SIGHUP stop it the way Ctrl-C does
    with safe_output(), signals_interrupt():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0]) if argv and argv[0] in COMMANDS else _index()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # a command's module has imported these already; `cardz --help` never gets here
    from cardz_core.cli.common import UsageError
    from cardz_core.problems import CardzError

    try:
        return int(args.func(args) or 0)
    except UsageError as exc:  # worded and numbered as the parser's own usage errors
        print(f"cardz {args.command}: error: {exc.problems[0].message}", file=sys.stderr)
        return 2
    except CardzError as exc:
        for problem in exc.problems:
            print(f"cardz {args.command}: {problem}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return interrupt_exit_code()
    except BrokenPipeError:  # the reader went away (`cardz games | head`): not an error of ours
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
