"""The solver's Python layer refuses bad input of every kind with an error rooted in ``ValueError`` that names the
problem, and changes nothing.

* :class:`~mizerka.solver.Position`: every field is checked for its type (a bool is no leader, hand, card or trump;
  text is no mask; a set of hands has no order), NumPy integers are taken as the ints they hold, a misère position
  has no trumps, and ``play`` takes a card index only.
* ``solve``, ``solve_all``, ``solve_maxn``, ``solve_maxn_all`` and ``cli_solve``: the seat is a whole number, the
  implementation ``'kernel'``, ``'reference'`` or None, the position a ``Position``.  ``set_table_size`` takes a
  whole number of megabytes in range; a table the system cannot map is a ``TableSizeError``, and the old table stays.
* The text form refuses a part given twice, digits that are not ASCII and a word after ``must-trump``;
  ``Position.from_text`` takes text only, ``Position.from_deal`` a rules-engine ``Deal``.
* The C kernel called directly (tools, benchmarks) refuses a trump or a trick it cannot search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mizerka.solver as solver_module
from mizerka.cards import Card
from mizerka.solver import (
    DEFAULT_TT_MB,
    MAX_TT_MB,
    InvalidPositionError,
    NotOnLeadError,
    Position,
    TableSizeError,
    cli_solve,
    set_table_size,
    solve,
    solve_all,
)
from mizerka.solver.maxn import solve_maxn, solve_maxn_all

TEXT = "NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4"
HANDS = Position.from_text(TEXT).hands


# -- positions: every field is checked for its type ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"leader": True}, "leader must be a whole number"),  # was taken as player 1 ("lead True" in its text)
        ({"leader": 1.0}, "leader must be a whole number"),  # TypeError deep in the checks
        ({"leader": "0"}, "leader must be a whole number"),  # TypeError
        ({"leader": None}, "leader must be a whole number"),  # TypeError
        ({"hands": ("12", "3", "4")}, "a hand .* must be a whole number"),  # int("12"): text read as a mask
        ({"hands": (4.5, 8.0, 16.0)}, "a hand .* must be a whole number"),  # int(4.5) == 4: silently truncated
        ({"hands": (True, 2, 4)}, "a hand .* must be a whole number"),  # True was the two of clubs
        ({"hands": 7}, "hands must be a sequence"),  # TypeError
        ({"hands": {1, 2, 4}}, "hands must be a sequence"),  # a set has no order of play
        ({"trick": ("AS",)}, "a card of the trick .* must be a whole number"),  # int("AS"): a bare ValueError
        ({"trick": (51.0,)}, "a card of the trick .* must be a whole number"),
        ({"trump": True}, "trump .* must be a whole number"),  # was diamonds
        ({"trump": 1.0}, "trump .* must be a whole number"),  # accepted, then a TypeError in str()
        ({"misere": "no"}, "misere must be True or False"),  # 'no' is truthy: was a Mizerka position
        ({"must_trump": 1}, "must_trump must be True or False"),
        ({"sides": "abc"}, "sides must be a sequence"),  # its text 'sides a b c' did not read back
        ({"sides": 3}, "sides must be a sequence"),  # TypeError
        ({"sides": (0, 1.5, 0)}, "a side id must be a whole number"),
        ({"seats": (True, 2, 3)}, "a seat must be a whole number"),
        ({"seats": (1.0, 2, 3)}, "a seat must be a whole number"),
        ({"seats": (-1, 2, 3)}, "table seats, numbered from 0"),
        ({"seats": 5}, "seats must be a sequence"),  # TypeError
    ],
)
def test_position_fields_of_the_wrong_type_are_refused(fields: dict[str, Any], words: str) -> None:
    arguments: dict[str, Any] = {"hands": HANDS, "leader": 0, **fields}
    with pytest.raises(InvalidPositionError, match=words) as info:
        Position(**arguments)
    assert isinstance(info.value, ValueError)


def test_numpy_integers_are_taken_as_the_ints_they_hold() -> None:
    plain = Position(HANDS, 1, (), 3, False, None, False, (2, 0, 1))
    numpy = Position(tuple(np.uint64(h) for h in HANDS), np.int64(1), (), np.int8(3), False, None, False,
                     tuple(np.int32(s) for s in (2, 0, 1)))
    assert numpy == plain and hash(numpy) == hash(plain) and str(numpy) == str(plain)
    assert all(type(h) is int for h in numpy.hands) and type(numpy.leader) is int and type(numpy.trump) is int
    for seat in (0, 1, 2):
        assert solve(numpy, np.int64(seat)) == solve(plain, seat)


def test_a_misere_position_with_trumps_is_refused() -> None:
    """Mizerka (and Preferans' misere) has no trumps.  Such a position was accepted and its text said "MZ", which
    reads back as a different position (without the trumps)."""
    with pytest.raises(InvalidPositionError, match="without trumps, but trump 2"):
        Position(HANDS, 0, trump=2, misere=True)
    assert Position(HANDS, 0, trump=None, misere=True).misere  # the Mizerka contract itself


@pytest.mark.parametrize(
    ("card", "words"),
    [
        (52, "52 is not a card"),  # IndexError
        (-1, "-1 is not a card"),  # 'negative shift count'
        (51.0, "must be a whole number"),  # TypeError
        ("AS", "must be a whole number"),  # TypeError
        (True, "must be a whole number"),  # was the three of clubs
    ],
)
def test_play_refuses_what_is_not_a_card_index(card: object, words: str) -> None:
    position = Position.from_text(TEXT)
    with pytest.raises(InvalidPositionError, match=words):
        position.play(card)  # type: ignore[arg-type]
    assert position.play(Card.from_str("AS")).trick == (Card.from_str("AS"),)


# -- solve, solve_all, max^n: the seat, the implementation, the position; the table size -----------------------------


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_a_seat_that_is_not_a_seat_number_is_refused(seat: object) -> None:
    """True and 1.0 were solved as seat 1 (cli_solve printed "tricks for seat True")."""
    position = Position.from_text(TEXT)
    for call in (solve, solve_all):
        with pytest.raises(NotOnLeadError, match="seat must be a whole number"):
            call(position, seat)  # type: ignore[operator]
    if seat is not None:  # cli_solve's default: the player to move
        with pytest.raises(NotOnLeadError, match="seat must be a whole number"):
            cli_solve(TEXT, seat)  # type: ignore[arg-type]


def test_an_unknown_implementation_is_refused() -> None:
    """Any other impl than "reference" silently ran the kernel."""
    position = Position.from_text(TEXT)
    calls = [lambda: solve(position, 0, impl="fast"), lambda: solve_all(position, 0, impl="Kernel"),
             lambda: cli_solve(TEXT, impl="ref"), lambda: solve_maxn(position, impl="c"),
             lambda: solve_maxn_all(position, impl="")]
    for call in calls:
        with pytest.raises(ValueError, match="impl must be 'kernel', 'reference' or None"):
            call()  # type: ignore[no-untyped-call]


def test_the_solver_refuses_what_is_not_a_position() -> None:
    """A text or None reached an AttributeError."""
    for call in (lambda: solve(TEXT, 0), lambda: solve_all(None, 0), lambda: solve_maxn(TEXT),  # type: ignore[arg-type]
                 lambda: solve_maxn_all(HANDS)):  # type: ignore[arg-type]
        with pytest.raises(InvalidPositionError, match="takes a Position, not"):
            call()


@pytest.mark.parametrize(
    ("megabytes", "words"),
    [
        (True, "whole number of megabytes"),  # was 1 MB
        (1.5, "whole number of megabytes"),  # TypeError from the kernel
        ("64", "whole number of megabytes"),  # TypeError
        (0, "from 1 to"),
        (MAX_TT_MB + 1, "from 1 to"),
        (10**30, "from 1 to"),  # OverflowError from the kernel
    ],
)
def test_a_bad_table_size_is_refused(megabytes: object, words: str) -> None:
    with pytest.raises(TableSizeError, match=words) as info:
        set_table_size(megabytes)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


def test_a_table_the_system_cannot_map_is_an_error_and_the_old_table_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's MemoryError (a bare error, not a ValueError) is reported as a table size the machine cannot
    take; the kernel keeps its table, so solving goes on with the same values."""
    position = Position.from_text(TEXT)
    before = solve_all(position, 0)

    class Refusing:
        def set_table_size(self, size: int) -> None:
            raise MemoryError

    if solver_module.backend() == "kernel":
        monkeypatch.setattr(solver_module, "_kernel", Refusing())
        with pytest.raises(TableSizeError, match="could not map a table of 4096 MB"):
            set_table_size(4096)
        monkeypatch.undo()
    set_table_size(np.int64(DEFAULT_TT_MB))  # a NumPy integer is a whole number
    assert solve_all(position, 0) == before


# -- the text form ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"NT; MZ; lead 0; {TEXT[12:]}", "two contract parts, 'NT' and 'MZ'"),  # the last one won
        (f"NT; lead 0; lead 1; {TEXT[12:]}", "two lead parts"),
        (f"{TEXT}; S:A / S:K / S:Q", "two hands parts"),
        (f"{TEXT}; trick AS; trick KS", "two trick parts"),
        (f"{TEXT}; sides 0 1 0; sides 1 0 1", "two sides parts"),
        (f"{TEXT}; to-move 0; to_move 1", "two to-move parts"),
        (f"NT; lead \u0661; {TEXT[12:]}", "expected a number"),  # an Arabic-Indic one was read as 1
        (f"NT; lead 0_0; {TEXT[12:]}", "expected a number"),
        (f"{TEXT}; must-trump no", "'must-trump' takes nothing after it"),  # 'no' was ignored: must-trump on
    ],
)
def test_ambiguous_text_is_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        Position.from_text(text)


def test_text_must_be_a_string() -> None:
    for text in (None, b"NT; lead 0", 5):
        with pytest.raises(InvalidPositionError, match="must be a string"):
            Position.from_text(text)  # type: ignore[arg-type]
        with pytest.raises(InvalidPositionError, match="must be a string"):
            cli_solve(text)  # type: ignore[arg-type]


def test_from_deal_refuses_what_is_not_a_deal() -> None:
    for thing in (None, TEXT, Position.from_text(TEXT)):
        with pytest.raises(InvalidPositionError, match="needs a rules-engine Deal"):
            Position.from_deal(thing)  # type: ignore[arg-type]


# -- the kernel called directly --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "trick", "trump", "what"),
    [
        ((1, 2, 4), (), 7, "bad trump"),
        ((1, 2, 4), (), -2, "bad trump"),
        ((1, 2, 4), (0,), -1, "also in a hand"),  # card 0 is in hand 0 and in the trick
        ((2, 4, 8), (0, 0), -1, "twice in the trick"),
    ],
)
def test_the_kernel_called_directly_refuses_a_trump_or_trick_it_cannot_search(
    hands: tuple[int, ...], trick: tuple[int, ...], trump: int, what: str
) -> None:
    """Position checks these before the kernel sees them; a direct call (tools, benchmarks) must not read past
    the four suits or count a card twice."""
    kernel = pytest.importorskip("mizerka.solver._kernel", reason="the C kernel is not built")
    with pytest.raises(ValueError, match=what):
        kernel.solve(hands, 0, trick, trump, 1, 1, False)
