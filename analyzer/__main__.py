"""``python -m analyzer`` and the installed ``kozyr`` script: the command line of analyzer.cli,
reached through a launcher that imports nothing heavy itself, so that a Ctrl-C while numpy, pandas
and the kernels load (a second or two) ends like one during a run, not with a traceback."""
from .interrupts import exit_interrupted, note_interrupts, received


def entry() -> None:
    note_interrupts()
    try:
        from .cli import entry as command_line
    except BaseException:
        if received():   # a KeyboardInterrupt, or what an extension's initialisation made of it
            exit_interrupted()
        raise
    command_line()


if __name__ == "__main__":
    entry()
