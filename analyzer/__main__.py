"""``python -m analyzer`` runs the kozyr command line."""
from .cli import entry

entry()
