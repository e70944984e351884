"""``python -m analyzer`` runs the kozyr command line."""
import sys

from .cli import main

sys.exit(main())
