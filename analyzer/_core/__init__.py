"""Compiled kernels, built from csrc/*.pyx by setup.py."""
