"""Build hook for the optional compiled solver kernel; all metadata lives in pyproject.toml."""

from setuptools import setup

setup()
