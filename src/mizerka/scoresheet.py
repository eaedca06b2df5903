"""The score sheet, as players keep it at a real table.

Seed S000 asks to "record used contracts beside each name" and to "write 'take' or 'avoid' at the top of the
deal's score column"; seed S002 draws a grid of players × contracts with an X for each contract used and a
column of points.  :class:`ScoreSheet` prints both: the grid of used contracts with the totals, and one row
per deal with its contract, goal, tricks, scores and running totals.  It is built from a :class:`Match` or
from finished deals alone (the scorekeeper for a real table has no cards).

>>> from mizerka.match import DealResult
>>> from mizerka.rules import Contract
>>> sheet = ScoreSheet(["A", "B", "C"], [
...     DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0)),
...     DealResult(2, 0, 1, Contract.MIZERKA, (7, 3, 3), (0, -2, 2), (0, 0, 0)),
... ])
>>> print(sheet.grid())
player  ♣  ♦  ♥  ♠  NT  MZ  total
A             X              -2
B                       X    -3
C                            +5
>>> print(sheet.table())
deal  dealer  chooser  contract  goal   tricks   A   B   C    |  A   B   C
1     C       A        ♥         take   5 4 4    -2  -1  +3   |  -2  -1  +3
2     A       B        MZ        avoid  7 3 3    0   -2  +2   |  -2  -3  +5
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from mizerka.rules import STANDARD, Contract, Rules

if TYPE_CHECKING:
    from mizerka.match import DealResult, Match

__all__ = ["ScoreSheet", "ScoreSheetError", "running_totals", "signed", "totals_text"]


class ScoreSheetError(ValueError):
    """Players or results that do not make a score sheet; the message names the problem."""


def running_totals(results: Iterable[DealResult], n_seats: int) -> list[list[int]]:
    """Each seat's total after each finished deal of *results*, in their order: the column of points a score
    sheet keeps beside each deal.  :meth:`ScoreSheet.running_totals` is this, and so are the ``totals`` of each row
    of the server's score sheets (a table's, and a posted record's): one addition for all of them.

    >>> from mizerka.match import DealResult
    >>> from mizerka.rules import Contract
    >>> running_totals([DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3), (0, 0, 0)),
    ...                 DealResult(2, 0, 1, Contract.MIZERKA, (7, 3, 3), (0, -2, 2), (0, 0, 0))], 3)
    [[-2, -1, 3], [-2, -3, 5]]

    Each row is a list of its own, so a caller may keep or change it without touching the others.

    Raises:
        ValueError: for a result whose scores are not one per seat (*n_seats*).
    """
    running: list[list[int]] = []
    totals = [0] * n_seats
    for result in results:
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        running.append(totals)
    return running


def signed(value: int) -> str:
    """A score as the score sheet writes it: a sign before every score but zero.

    >>> signed(3), signed(-2), signed(0)
    ('+3', '-2', '0')
    """
    return f"{value:+d}" if value else "0"


def totals_text(totals: Sequence[int], name: Callable[[int], str]) -> str:
    """The match's totals on one line, each seat's ``name(seat)`` before its total: the form every terminal front
    end prints.

    >>> totals_text([3, -1, -2], lambda seat: "ABC"[seat])
    'A +3 · B -1 · C -2'
    """
    return " · ".join(f"{name(seat)} {signed(total)}" for seat, total in enumerate(totals))


def _columns(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines)


class ScoreSheet:
    """Players × contracts with used marks, per-deal scores with "take" or "avoid", and running totals."""

    def __init__(
        self, players: Sequence[str], results: Sequence[DealResult], rules: Rules = STANDARD
    ) -> None:
        """Raises:
            ScoreSheetError: for players that are not one name per seat of *rules*, or a result that does not fit
                them (a seat out of range, a contract the rules do not play, tricks or scores not one per seat).
        """
        self.players = tuple(players)
        self.results = tuple(results)
        self.rules = rules
        n = rules.n_seats
        if len(self.players) != n or not all(isinstance(p, str) for p in self.players):
            raise ScoreSheetError(f"{rules.name!r} seats {n} players: give {n} names, not {list(self.players)!r}")
        for index, result in enumerate(self.results):
            where = f"result {index + 1} (deal {getattr(result, 'deal_no', '?')})"
            try:
                dealer, chooser, contract = result.dealer, result.chooser, result.contract
                tricks, scores = tuple(result.tricks), tuple(result.scores)
            except (AttributeError, TypeError):
                raise ScoreSheetError(f"{where} is not a DealResult: {result!r}") from None
            for what, seat in (("dealer", dealer), ("chooser", chooser)):
                if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                    raise ScoreSheetError(f"{where}: the {what} {seat!r} is not a seat 0-{n - 1}")
            if not isinstance(contract, Contract) or contract not in rules.contracts:
                raise ScoreSheetError(f"{where}: {contract!r} is not a contract of {rules.name!r}")
            for what, values in (("tricks", tricks), ("scores", scores)):
                if len(values) != n or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                    raise ScoreSheetError(f"{where}: the {what} must be {n} whole numbers, one per seat, "
                                          f"not {values!r}")

    @classmethod
    def from_match(cls, match: Match) -> ScoreSheet:
        return cls(match.players, match.results(), match.rules)

    def used(self) -> list[list[Contract]]:
        used: list[list[Contract]] = [[] for _ in self.players]
        for result in self.results:
            used[result.chooser].append(result.contract)
        return used

    def totals(self) -> list[int]:
        totals = [0] * len(self.players)
        for result in self.results:
            for seat, score in enumerate(result.scores):
                totals[seat] += score
        return totals

    def running_totals(self) -> list[list[int]]:
        """The totals after each deal (:func:`running_totals` of the sheet's results)."""
        return running_totals(self.results, len(self.players))

    def grid(self) -> str:
        """The grid of used contracts (an X per use) with each player's total."""
        contracts = self.rules.contracts
        header = ["player", *(c.symbol for c in contracts), "total"]
        rows = [header]
        used = self.used()
        for seat, name in enumerate(self.players):
            marks = ["X" * used[seat].count(c) for c in contracts]
            rows.append([name, *marks, signed(self.totals()[seat])])
        return _columns(rows)

    def sits_out(self, result: DealResult) -> int | None:
        """The seat that sits the deal out (four players: the dealer), or ``None``.  The table shows its tricks
        and score as ``-``: it took no tricks because it did not play, not because it played and took none."""
        return result.dealer if self.rules.n_seats > 3 else None

    def table(self, width: int | None = None) -> str:
        """One row per deal: dealer, chooser, contract, take/avoid, tricks, scores | running totals (a seat that
        sits the deal out shows ``-`` for its tricks and score).

        With a *width* (a terminal's columns) that the table would overrun, the dealer and goal columns are left
        out: the chooser sits at the dealer's left and the contract says its goal (MZ avoids, the rest take), so
        nothing is lost, and three names of up to six letters fit in 80 columns.  Where that still overruns (four
        players), each deal's scores go too, and the running totals stay: a deal's score is the change in its
        player's total, so four names of up to six letters fit as well.

        >>> from mizerka.match import DealResult
        >>> sheet = ScoreSheet(["Ala", "Bolek", "Cezary"], [DealResult(1, 2, 0, Contract.HEARTS, (5, 4, 4), (-2, -1, 3),
        ...                                                           (0, 0, 0))])
        >>> print(sheet.table(width=80))
        deal  chooser  contract  tricks  Ala  Bolek  Cezary  |  Ala  Bolek  Cezary
        1     Ala      ♥         5 4 4   -2   -1     +3      |  -2   -1     +3
        """
        full = self._table(0)
        if width is None or max(len(line) for line in full.splitlines()) <= width:
            return full
        narrow = self._table(1)
        if max(len(line) for line in narrow.splitlines()) <= width:
            return narrow
        return self._table(2)

    def _table(self, narrowing: int) -> str:
        """The table with every column (*narrowing* 0), without the dealer and goal (1), and without the deals'
        scores too (2)."""
        names = list(self.players)
        rows = [["deal", "dealer", "chooser", "contract", "goal", "tricks", *names, "|", *names]]
        for result, running in zip(self.results, self.running_totals(), strict=True):
            out = self.sits_out(result)
            rows.append(
                [
                    str(result.deal_no),
                    names[result.dealer],
                    names[result.chooser],
                    result.contract.symbol,
                    result.contract.goal,
                    " ".join("-" if seat == out else str(t) for seat, t in enumerate(result.tricks)),
                    *("-" if seat == out else signed(s) for seat, s in enumerate(result.scores)),
                    "|",
                    *(signed(t) for t in running),
                ]
            )
        dropped: set[int] = set()
        if narrowing >= 1:  # the dealer and goal columns: the chooser and the contract say them
            dropped |= {rows[0].index("dealer"), rows[0].index("goal")}
        if narrowing >= 2:  # each deal's scores: the change in the running totals
            first = rows[0].index("tricks") + 1
            dropped |= set(range(first, first + len(names)))
        rows = [[cell for i, cell in enumerate(row) if i not in dropped] for row in rows]
        return _columns(rows)

    def text(self, width: int | None = None) -> str:
        """The whole sheet: the grid, then the table of deals (narrowed to *width*, see :meth:`table`)."""
        return self.grid() + "\n\n" + self.table(width) if self.results else self.grid()

    def __str__(self) -> str:
        return self.text()
