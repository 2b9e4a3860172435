"""What several command groups share: the --content, --data-dir and --seed options, the values they take,
and the parser class that lets a command's positional words start with a dash."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeAlias

    # What add_subparsers returns: argparse gives it no public name, typeshed this one.
    Commands: TypeAlias = argparse._SubParsersAction["CommandParser"]


class CommandParser(argparse.ArgumentParser):
    """argparse's parser, which can take a positional word that starts with a dash (`ringbook check 0.7 -M`,
    where -M is the answer) when made with `dashed_positionals=True`: every word that is none of its own
    options is moved after a `--` (which the user may also give), so argparse reads it as a positional.
    Which words are options comes from the arguments added to this parser, so it never falls behind them."""

    def __init__(self, *args: Any, dashed_positionals: bool = False, **kwargs: Any) -> None:
        self.dashed_positionals = dashed_positionals
        self.takes_value: dict[str, bool] = {}   # each option string: whether it takes a value
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.takes_value.update(dict.fromkeys(action.option_strings, action.nargs != 0))
        return action

    def parse_known_args(self, args: Sequence[str] | None = None,   # type: ignore[override]  # typeshed's overloads
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if self.dashed_positionals:
            args = self.positionals_after_dashes(list(sys.argv[1:] if args is None else args))
        return super().parse_known_args(args, namespace)

    def positionals_after_dashes(self, words: list[str]) -> list[str]:
        options: list[str] = []
        positionals: list[str] = []
        remaining = iter(words)
        for word in remaining:
            if word == "--":
                positionals.extend(remaining)
                break
            name = self.option_named(word)
            if name is None:
                positionals.append(word)
                continue
            options.append(word)
            if self.takes_value[name] and "=" not in word and (value := next(remaining, None)) is not None:
                options.append(value)
        return options + (["--", *positionals] if positionals else [])

    def option_named(self, word: str) -> str | None:
        """The option `word` names (`--js` is --json, `--seed=3` is --seed, as argparse reads them), or None."""
        name = word.split("=", 1)[0] if word.startswith("--") else word
        if name in self.takes_value:
            return name
        if name.startswith("--") and self.allow_abbrev:
            matches = [option for option in self.takes_value if option.startswith(name)]
            return matches[0] if len(matches) == 1 else None
        return None


def content_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--content", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="a book folder in the ringbook content format (default: the built-in book)")


def data_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="where progress is kept (default: $RINGBOOK_DATA_DIR, else your per-user data folder)")


def class_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--class", dest="class_dir", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="share your progress with your class as you answer: your export is kept up to date in "
                             "the instructor's inbox DIR (default: $RINGBOOK_CLASS; unset it to stop)")


def class_of(args: argparse.Namespace) -> Path | None:
    """--class, where it was given (RINGBOOK_CLASS is read where it is used: tui.cli.common.class_inbox)."""
    return getattr(args, "class_dir", None)


def seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", metavar="S", type=seed, default=None,
                        help="the variant: other numbers for a numeric exercise (0, the default, is the book's own)")


def content_of(args: argparse.Namespace) -> Path | None:
    """--content, wherever on the line it was given (it is suppressed where absent)."""
    return getattr(args, "content", None)


def data_dir_of(args: argparse.Namespace) -> Path | None:
    return getattr(args, "data_dir", None)


def seed(text: str) -> int:
    from grader.book.variants import seed_problem

    try:
        number: int | None = int(text)
    except ValueError:
        number = None
    problem = seed_problem(number)
    if problem or number is None:
        raise argparse.ArgumentTypeError(f"{text!r}: {problem}")
    return number


def port(text: str) -> int:
    """A TCP port to listen on; 0 (any free port) is refused, as the address printed must be the real one."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number from 1 to 65535")
    return int(text)
