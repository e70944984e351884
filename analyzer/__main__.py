"""``python -m analyzer`` and the installed ``kozyr`` script: the command line of analyzer.cli,
reached through a launcher that imports nothing heavy itself, so that a Ctrl-C while numpy, pandas
and the kernels load (a second or two) ends like one during a run, not with a traceback."""
import os
import sys


def entry() -> None:
    try:
        from .cli import entry as command_line
    except KeyboardInterrupt:
        # analyzer.cli may be half loaded: its interrupted_at_start, written out here
        print("kozyr: interrupted", file=sys.stderr)
        sys.stderr.flush()
        os._exit(130)
    command_line()


if __name__ == "__main__":
    entry()
