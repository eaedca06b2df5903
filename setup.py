"""Build hook for the optional compiled solver kernel; all metadata lives in pyproject.toml.

``optional=True``: on a machine without a C compiler the install still succeeds and
:mod:`mizerka.solver` falls back to its pure-Python reference (with one warning).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "mizerka.solver._kernel",
            ["src/mizerka/solver/_kernel.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
