"""Every `kozyr` command line in the README and the worked examples names commands and options that
exist, with values their parsers accept, and `--set` keys its game knows: the documentation
cannot drift from the command line unnoticed. (The worked examples are also run, and their
output checked, by test_worked_examples.py; this only parses, so it covers the long README runs.)"""
import re
import shlex
from pathlib import Path

import pytest

from analyzer import cli
from analyzer.games import get_game

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ("README.md", "docs/worked-examples.md")


def documented_commands(name: str) -> list[tuple[int, list[str]]]:
    """The kozyr command lines of the document's bash blocks: continuation lines joined, comments
    dropped, `a && b` split into its commands; (line number, argv without `kozyr`)."""
    text = (ROOT / name).read_text()
    commands = []
    for block in re.finditer(r"```bash\n(.*?)```", text, re.S):
        first_line = text.count("\n", 0, block.start(1)) + 1
        joined, start = "", None
        for offset, line in enumerate(block.group(1).splitlines()):
            start = first_line + offset if start is None else start
            if line.rstrip().endswith("\\"):
                joined += line.rstrip()[:-1] + " "
                continue
            joined += line
            for part in _split_and(shlex.split(joined, comments=True)):
                if part and part[0] == "kozyr":
                    commands.append((start, part[1:]))
            joined, start = "", None
    return commands


def _split_and(words: list[str]) -> list[list[str]]:
    parts = [[]]
    for word in words:
        if word in ("&&", "||", ";"):
            parts.append([])
        else:
            parts[-1].append(word)
    return parts


COMMANDS = [(name, line, argv) for name in DOCUMENTS for line, argv in documented_commands(name)]


def test_the_documents_have_commands_to_check():
    assert sum(name == "README.md" for name, _, _ in COMMANDS) >= 60
    assert sum(name != "README.md" for name, _, _ in COMMANDS) >= 12


@pytest.mark.parametrize("name, line, argv", COMMANDS, ids=[f"{n}:{line}" for n, line, _ in COMMANDS])
def test_a_documented_command_parses(name, line, argv):
    parser = cli.build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        pytest.fail(f"{name}:{line}: kozyr {' '.join(argv)} is refused by the parser (exit {exit_.code})")
    overrides = dict(getattr(args, "overrides", None) or [])
    if overrides and argv[0] not in ("report", "run", "runs"):
        game = get_game({"rb": "russian_bank"}.get(argv[0], argv[1] if argv[0] == "compare" else argv[0]))
        game.resolve_rules(args.rules if getattr(args, "rules", None) in game.presets else next(iter(game.presets)),
                           overrides)


def test_a_bad_command_would_be_caught():
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["piquet", "odds", "--dealz", "10"])
