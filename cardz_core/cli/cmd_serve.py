"""`cardz serve [FILE_OR_DIR ...] [--port N] [--host H] [--open]`: play in a browser."""

from __future__ import annotations

import argparse
import sys

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import check_range, whole_number
from cardz_core.limits import MAX_PORT
from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text

DEFAULT_PORT = 8765


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help=COMMANDS["serve"],
                       description="Serve a web app for playing the bundled games and the game "
                                   "files given (a .cardz file, or a folder's .cardz files), and "
                                   "for opening the simulation reports given (.html). Reads no "
                                   "other file and writes none. The JSON API: docs/serve.md.")
    p.add_argument("paths", nargs="*", metavar="FILE_OR_DIR",
                   help="game files, simulation reports, or folders holding them")
    p.add_argument("--port", type=whole_number, default=DEFAULT_PORT, metavar="N",
                   help=f"the port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", metavar="H",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the app in the web browser")
    p.add_argument("--json", action="store_true",
                   help="print where the server listens as JSON ({\"url\"}) before serving")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import webbrowser

    from cardz_core.serve.server import make_server

    check_range(args.port, "--port", 0, MAX_PORT)
    try:
        server = make_server(args.paths, args.host, args.port)
    except OSError as exc:
        raise CardzError(f"cannot listen on {args.host} port {args.port}: {exc.strerror}") \
            from None
    try:
        if args.json:  # on one line, so a script can read it before the server stops
            print(json_text({"url": server.url}, indent=None))
        else:
            print(f"cardz serve: playing at {server.url} (Ctrl-C stops)")
        sys.stdout.flush()
        if args.open:
            webbrowser.open(server.url)
        server.serve_forever()
    finally:
        server.server_close()
    return 0
