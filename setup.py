"""Build hook for the optional compiled solver kernel; all metadata lives in pyproject.toml.

``optional=True``: on a machine without a C compiler the install still succeeds and
:mod:`mizerka.solver` falls back to its pure-Python reference (with one warning).
"""

import platform

from setuptools import Extension, setup

# the search counts cards with popcount on every node; without -mpopcnt GCC calls a library routine
# (~12% of the run time).  Every x86-64 CPU since 2008 has the instruction.
FLAGS = ["-O3", "-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else ["-O3"]

# the argument parsing both compiled searches share
GLUE = "src/mizerka/solver/_glue.h"

setup(
    ext_modules=[
        Extension(
            "mizerka.solver._kernel",
            ["src/mizerka/solver/_kernel.c"],
            depends=[GLUE],
            optional=True,
            extra_compile_args=FLAGS,
        ),
        Extension("mizerka.solver._maxn", ["src/mizerka/solver/_maxn.c"], depends=[GLUE], optional=True,
                  extra_compile_args=FLAGS),
    ]
)
