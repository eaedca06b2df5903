"""The shared argument checks: :func:`mizerka._checks.whole_number` and the solvers' ``check_impl`` /
``check_position`` (one implementation behind :mod:`mizerka.solver` and :mod:`mizerka.solver.maxn`)."""

from __future__ import annotations

import fractions
import subprocess
import sys

import pytest

from mizerka._checks import whole_number
from mizerka.solver import InvalidPositionError, Position, solve, solve_maxn
from mizerka.solver.position import check_impl, check_position


class _Index:
    def __index__(self) -> int:
        return 7


@pytest.mark.parametrize(("value", "expected"), [(0, 0), (-3, -3), (1 << 70, 1 << 70), (_Index(), 7)])
def test_whole_numbers_come_back_as_plain_ints(value: object, expected: int) -> None:
    number = whole_number(value)
    assert number == expected and type(number) is int


@pytest.mark.parametrize("value", [True, False, 1.0, 0.5, "3", b"3", None, [1], fractions.Fraction(2, 1)])
def test_anything_else_is_no_whole_number(value: object) -> None:
    assert whole_number(value) is None


def test_numpy_integers_are_whole_numbers_and_numpy_bools_are_not() -> None:
    np = pytest.importorskip("numpy")
    assert whole_number(np.int64(5)) == 5 and type(whole_number(np.uint8(5))) is int
    assert whole_number(np.float64(5.0)) is None
    assert whole_number(np.bool_(True)) is None  # no __index__ on NumPy 2 bools; a deprecated one before 2.0


def test_the_check_imports_nothing_outside_the_standard_library() -> None:
    code = "import sys, mizerka._checks; print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_check_impl_takes_the_two_backends_or_none() -> None:
    for impl in ("kernel", "reference", None):
        check_impl(impl)
    with pytest.raises(ValueError, match=r"^impl must be 'kernel', 'reference' or None \(the kernel when it loads\), "
                                         r"not 'fast'$"):
        check_impl("fast")


def test_each_solver_keeps_its_own_message_for_what_is_no_position() -> None:
    with pytest.raises(InvalidPositionError, match=r"^the solver takes a Position, not str \(build one with "
                                                   r"Position.from_text or Position.from_deal\)$"):
        solve("NT; lead 0", 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match=r"^max\^n takes a Position, not str$"):
        solve_maxn("NT; lead 0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="impl must be"):
        solve_maxn(Position.from_text("NT; lead 0; S:A H:- D:- C:- / S:K H:- D:- C:- / S:Q H:- D:- C:-"),
                   impl="fast")  # type: ignore[arg-type]
    check_position(Position.from_text("NT; lead 0; S:A H:- D:- C:- / S:K H:- D:- C:- / S:Q H:- D:- C:-"))
