# The one place of the version (pyproject.toml reads it); a plain module, so that importing
# analyzer stays instant (the launcher's Ctrl-C handling starts after it).
__version__ = "0.9.4"
