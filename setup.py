"""Builds csrc/*.pyx into analyzer._core.<name>; everything else lives in pyproject.toml.

KOZYR_DEBUG=1 turns on bounds, wraparound and initialisation checks; KOZYR_ANNOTATE=1 writes
Cython's annotated HTML next to each .pyx; KOZYR_MODULES=core,piquet builds only those modules
(handy with `python setup.py build_ext --inplace` while another module is being edited).
"""
import os
import platform
import sysconfig
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("KOZYR_DEBUG") == "1"
ANNOTATE = os.environ.get("KOZYR_ANNOTATE") == "1"

compile_args = ["-O3"]
if platform.machine() in ("x86_64", "AMD64"):
    compile_args.append("-mpopcnt")  # every x86-64 CPU since 2008; the other paths stay portable
if "gcc" in (os.environ.get("CC") or sysconfig.get_config_var("CC") or ""):
    # The hand evaluators are inline helpers called from many kernels of one module; gcc's default
    # budget stopped inlining them into the hot loops (declarations 10.5 -> 7.5 M deals/s).
    compile_args += ["--param", "max-inline-insns-single=1000", "--param", "inline-unit-growth=400"]

# A kernel is csrc/<game>.pyx, or csrc/<game>/<game>.pyx with its .pxd parts beside it.
extensions = [
    Extension(
        f"analyzer._core.{pyx.stem}",
        [str(pyx)],
        include_dirs=[numpy.get_include(), "csrc", str(pyx.parent)],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=compile_args,
    )
    for pyx in sorted(Path("csrc").glob("*.pyx")) + sorted(Path("csrc").glob("*/*.pyx"))
    if not os.environ.get("KOZYR_MODULES") or pyx.stem in os.environ["KOZYR_MODULES"].split(",")
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["csrc"] + [str(d) for d in Path("csrc").iterdir() if d.is_dir()],
        annotate=ANNOTATE,
        compiler_directives={
            "language_level": 3,
            "boundscheck": DEBUG,
            "wraparound": DEBUG,
            "initializedcheck": DEBUG,
            "cdivision": True,
        },
    )
)
