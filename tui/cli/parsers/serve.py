"""`ringbook serve`: the app for web browsers."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tui.cli.parsers.options import content_of, content_option, data_dir_of, data_option, port

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands

DESCRIPTION = (
    "Serve ringbook to web browsers with textual-serve; each browser tab runs its own ringbook on the same book "
    "and progress. A session runs ringbook as you, and build exercises run Python code with your permissions, so "
    "the address it prints, with its token, is a key: do not share it. Requests without the token, from another "
    "web page or to another host name are refused. Stop with Ctrl+C.")


def add_serve(commands: Commands) -> None:
    serve = commands.add_parser("serve", help="serve the app to web browsers at an address with a secret token",
                                description=DESCRIPTION)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=port, default=8000, help="port to listen on (default: 8000)")
    content_option(serve)
    data_option(serve)
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.cli.serve import run_serve

    return run_serve(args.host, args.port, content_of(args), data_dir_of(args))
