"""docs/worked-examples.md promises the figures it shows for the commands it shows: run every
command of the document and check that every line of output it prints is printed (a block that
shows a few rows of a table, or elides a line's end with "...", is checked for those). Run from a
folder holding the files the document asks to save, with a results store of its own."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "worked-examples.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
SAVED_AS = re.compile(r"[Ss]ave this as `(\w+\.py)`")


def blocks():
    """(language, text, the prose before it) of each fenced block, in order."""
    text = DOC.read_text()
    start = 0
    for m in FENCE.finditer(text):
        yield m.group(1), m.group(2), text[start:m.start()]
        start = m.end()


def examples():
    """The Python files the document asks to save, and its (commands, documented output) pairs."""
    files, pairs, commands = {}, [], None
    for language, body, prose in blocks():
        if language == "python":
            saved = SAVED_AS.findall(prose)      # the prose since the previous block
            if saved:
                files[saved[-1]] = body
        elif language == "bash":
            joined = body.replace("\\\n", " ")
            commands = [shlex.split(line, comments=True) for line in joined.splitlines()]
            commands = [c for c in commands if c]
        elif language == "" and commands:
            pairs.append((commands, body))
            commands = None
    return files, pairs


def normal(line: str) -> str:
    return " ".join(line.split())


def missing_lines(documented: str, printed: str) -> list[str]:
    lines = {normal(line) for line in printed.splitlines()}
    missing = []
    for line in documented.splitlines():
        want = normal(line)
        if not want or want == "...":
            continue
        if "..." in want:
            head = want.split("...")[0].strip()
            if not any(have.startswith(head) for have in lines):
                missing.append(line)
        elif want not in lines:
            missing.append(line)
    return missing


FILES, PAIRS = examples()


def test_the_document_has_its_examples():
    assert set(FILES) == {"myplayer.py", "mydefender.py"}
    assert len(PAIRS) >= 12 and all(c[0] == "kozyr" for commands, _ in PAIRS for c in commands)


@pytest.mark.parametrize("commands, documented", PAIRS, ids=[" && ".join(" ".join(c[1:3]) for c in cmds)
                                                              for cmds, _ in PAIRS])
def test_a_worked_example_prints_what_the_document_shows(commands, documented, tmp_path, runslow):
    if "player=hindsight" in commands[0] and not runslow:
        pytest.skip("the hindsight policy's 300 layouts take about a minute; run with --runslow")
    for name, body in FILES.items():
        (tmp_path / name).write_text(body)
    env = dict(os.environ, KOZYR_STORE=str(tmp_path / "store.sqlite"))
    printed = ""
    for command in commands:
        proc = subprocess.run([sys.executable, "-m", "analyzer", *command[1:]], capture_output=True, text=True,
                              timeout=600, cwd=tmp_path, env=env)
        assert proc.returncode == 0, proc.stderr
        printed += proc.stdout
    assert missing_lines(documented, printed) == [], printed
