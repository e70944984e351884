"""Ctrl-C while the command line starts.

numpy, pandas, scipy and the kernels take a second or two to load, and an interrupt among them
does not always arrive as a KeyboardInterrupt: a C extension's initialisation may swallow it
(seen: numpy.random's, after which the command ran to its end with status 0) or turn it into an
ImportError (seen: scipy's). So the command line notes every interrupt as it arrives
(note_interrupts), and one noted before a run starts ends the command with status 130 like one
during a run. This module imports nothing heavy: the launcher loads it first.
"""
import os
import signal
import sys

EXIT_INTERRUPTED = 130

_received = False


def _note_and_raise(signum, frame):
    global _received
    _received = True
    raise KeyboardInterrupt


def _unraisable(unraisable) -> None:
    # A noted Ctrl-C raised where Python cannot pass it on (a weak reference's callback in the
    # import machinery, seen) would print a traceback of its own, before the one-line exit.
    if not (_received and isinstance(unraisable.exc_value, KeyboardInterrupt)):
        sys.__unraisablehook__(unraisable)


def note_interrupts() -> None:
    """Python's Ctrl-C handler, which also notes the interrupt (call from the main thread)."""
    signal.signal(signal.SIGINT, _note_and_raise)
    sys.unraisablehook = _unraisable


def received() -> bool:
    """Whether a Ctrl-C reached the handler of note_interrupts (a run's own handler takes over
    while it runs)."""
    return _received


def exit_interrupted() -> None:
    """Exit with status 130 after a Ctrl-C before any run started. At once: an interrupt that
    reached Python code a module's initialisation ran leaves a flag with which the interpreter
    would turn even sys.exit(130) into a death by SIGINT."""
    print("kozyr: interrupted", file=sys.stderr)
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)
