"""The scorekeeper for a real card table: ``mizerka score``.

The cards are real; only the score is kept here.  Per deal the keeper enters the contract forehand chose and the
tricks each player took; :class:`ScoreKeeper` checks every entry against the rules before it accepts it, and
the score sheet comes out in the seeds' form (:class:`~mizerka.scoresheet.ScoreSheet`): players × contracts with
an X for each contract used, and one row per deal with "take" or "avoid", the scores and the running totals.

The state *is* a score-only :class:`~mizerka.record.MatchRecord` (contracts and tricks, no cards), so saving is
writing the record and resuming is reading it back; the record module validates it once more.

>>> keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], first_dealer="Cezary")
>>> keeper.dealer_name, keeper.chooser_name
('Cezary', 'Ala')
>>> keeper.enter_contract("hearts")
<Contract.HEARTS: 2>
>>> keeper.enter_tricks("5 4 4").scores
(-2, -1, 3)
>>> keeper.enter_contract("MZ"), keeper.enter_tricks("5 4 3")
Traceback (most recent call last):
...
mizerka.scorekeeper.EntryError: the tricks add up to 12, not 13
>>> keeper.enter_tricks("Ala 7, Cezary 3").tricks
(7, 3, 3)
>>> print(keeper.sheet().grid())
player  ♣  ♦  ♥  ♠  NT  MZ  total
Ala           X              -2
Bolek                   X    -3
Cezary                       +5

Every bad entry raises :class:`EntryError` (a ``ValueError``) with a message that names the problem, and
changes nothing.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import click

from mizerka.match import DealResult, Outcome
from mizerka.record import DealRecord, MatchRecord, RecordError, read
from mizerka.rules import STANDARD, Contract, Role, Rules, RulesError
from mizerka.scoresheet import ScoreSheet

__all__ = ["COMMAND_WORDS", "EntryError", "ScoreKeeper", "score_command"]

COMMAND_WORDS = frozenset({"undo", "sheet", "help", "?", "quit", "exit"})
"""Words that are commands at every prompt (so they cannot be names)."""


class EntryError(ValueError):
    """An entry the scorekeeper cannot accept; the message says why."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class ScoreKeeper:
    """A match at a real table, entered deal by deal.  The state is a score-only :class:`MatchRecord`.

    Build one with :meth:`new` (names and the first dealer) or :meth:`from_record` (resume).
    """

    def __init__(self, record: MatchRecord) -> None:
        if record.deals and not record.score_only:
            raise EntryError("this record holds the cards of the deals; the scorekeeper keeps score-only records")
        if record.deals and record.deals[-1].contract is None:
            # a deal begun in the record without its contract says nothing the keeper does not know (its number
            # and dealer follow from the deals before): it is entered afresh, contract first
            record = dataclasses.replace(record, deals=record.deals[:-1])
        self.record = record

    # -- building --------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], first_dealer: str | int, rules: Rules = STANDARD) -> ScoreKeeper:
        """A fresh match.  *first_dealer* is a name (or a seat number from 0).

        Raises:
            EntryError: for a wrong number of names, an empty, repeated or reserved name, an unknown first dealer.
        """
        names: list[str] = []
        for name in players:
            names.append(check_name(name, names))
        if len(names) != rules.n_seats:
            raise EntryError(f"this variant seats {rules.n_seats} players, not {len(names)}")
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int | str):
            raise EntryError(f"the first dealer is a name or a seat number, not {first_dealer!r}")
        seat = first_dealer if isinstance(first_dealer, int) else find_player(first_dealer, names)
        if not 0 <= seat < len(names):
            raise EntryError(f"there is no seat {seat}")
        if rules.first_dealer is not None and rules.first_dealer != seat:
            raise EntryError(f"this variant has {names[rules.first_dealer]} deal first")
        try:
            return cls(MatchRecord(rules, tuple(names), seat, (), {"Event": "Scorekeeper"}))
        except RecordError as error:
            raise EntryError(str(error)) from None

    @classmethod
    def from_record(cls, record: MatchRecord) -> ScoreKeeper:
        return cls(record)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScoreKeeper:
        """Resume from a saved file.

        Raises:
            EntryError: if the file is not a valid score-only record (the message names the problem).
            OSError: if it cannot be read.
        """
        try:
            return cls(read(Path(path)))
        except RecordError as error:
            raise EntryError(f"{path} is not a valid score record: {error}") from None

    # -- where the match stands ------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.record.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        return self.record.deals

    @property
    def pending(self) -> Contract | None:
        """The contract of the deal being entered, once entered and before its tricks."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1].contract
        return None

    @property
    def deal_no(self) -> int:
        """The number (from 1) of the deal being entered (``n_deals + 1`` once the match is over)."""
        done = sum(1 for d in self.deals if d.is_over)
        return done + 1

    def is_over(self) -> bool:
        return self.record.is_over()

    def dealer_of(self, deal_no: int) -> int:
        return (self.record.first_dealer + deal_no - 1) % self.rules.n_seats

    def active_of(self, deal_no: int) -> tuple[int, ...]:
        """The seats in play in a deal, in role order (forehand, middlehand, dealer's role)."""
        dealer, n = self.dealer_of(deal_no), self.rules.n_seats
        return tuple((dealer + 1 + role) % n for role in Role)

    @property
    def dealer_name(self) -> str:
        return self.players[self.dealer_of(self.deal_no)]

    @property
    def chooser(self) -> int:
        return self.active_of(self.deal_no)[Role.FOREHAND]

    @property
    def chooser_name(self) -> str:
        return self.players[self.chooser]

    def used_by(self, seat: int | None) -> list[Contract]:
        """Contracts used by *seat* in the entered deals (by anybody, with ``global_unique``)."""
        used = []
        for deal in self.deals:
            if deal.contract is None:
                continue
            if seat is None or self.rules.global_unique_contracts or self.active_of(deal.number)[0] == seat:
                used.append(deal.contract)
        return used

    def allowed_contracts(self) -> list[Contract]:
        """The contracts the current chooser may still choose."""
        used = self.used_by(self.chooser)
        return [c for c in self.rules.contracts if used.count(c) < self.rules.uses_per_contract]

    def results(self) -> list[DealResult]:
        return self.record.results()

    def sheet(self) -> ScoreSheet:
        return ScoreSheet(self.players, self.results(), self.rules)

    def totals(self) -> tuple[int, ...]:
        return self.record.totals

    def outcome(self) -> Outcome:
        """The totals and the winners (everyone on the highest total shares the win)."""
        totals = self.totals()
        best = max(totals)
        return Outcome(totals, tuple(s for s, t in enumerate(totals) if t == best))

    # -- entries ---------------------------------------------------------------------------------------

    def parse_contract(self, text: str) -> Contract:
        """The contract *text* names, if the current chooser may choose it.

        Raises:
            EntryError: for no contract, one not in the variant, or one the chooser has used up.
        """
        if self.is_over():
            raise EntryError("the match is over: all deals are entered")
        if self.pending is not None:
            raise EntryError(f"deal {self.deal_no}'s contract is already entered; enter its tricks (or undo)")
        try:
            contract = Contract.from_str(text)
        except RulesError:
            options = " ".join(str(c) for c in self.rules.contracts)
            raise EntryError(f"{text.strip()!r} is not a contract: use one of {options} (or a suit symbol)") from None
        allowed = self.allowed_contracts()
        left = " ".join(c.symbol for c in allowed)
        if contract not in self.rules.contracts:
            raise EntryError(f"{contract.label} is not played in this variant; choose from {left}")
        if contract not in allowed:
            who = "somebody" if self.rules.global_unique_contracts else self.chooser_name
            raise EntryError(f"{who} has no {contract.symbol} left to choose (already used); choose from {left}")
        return contract

    def enter_contract(self, text: str | Contract) -> Contract:
        """Record the contract of the current deal (its tricks follow)."""
        contract = self.parse_contract(str(text))
        deal = DealRecord(number=self.deal_no, dealer=self.dealer_of(self.deal_no), contract=contract)
        self._replace((*self.deals, deal))
        return contract

    def tricks_order(self) -> list[int]:
        """The seats whose tricks are entered for the current deal, in seat order (a sitting-out dealer is left out)."""
        active = set(self.active_of(self.deal_no))
        return [s for s in range(self.rules.n_seats) if s in active]

    def parse_tricks(self, text: str) -> tuple[int, ...]:
        """Tricks per seat from ``"7 5 1"`` (in the order of :meth:`tricks_order`) or ``"Ala 7, Bolek 5"``.

        In the named form one player may be left out: he took the tricks that are left.

        Raises:
            EntryError: for a missing contract, a bad number, an unknown or repeated name, a player who sits
                out, a wrong count, or tricks that do not add up to the deal's number of tricks.
        """
        if self.is_over():
            raise EntryError("the match is over: all deals are entered")
        if self.pending is None:
            raise EntryError(f"enter deal {self.deal_no}'s contract first")
        order = self.tricks_order()
        n_tricks = self.rules.n_tricks
        names = ", ".join(self.players[s] for s in order)
        tokens = text.replace(",", " ").replace(";", " ").split()
        if not tokens:
            raise EntryError(f"give the tricks of {names}")
        by_seat: dict[int, int] = {}
        if all(_is_int(t) for t in tokens):
            if len(tokens) != len(order):
                raise EntryError(f"give {len(order)} numbers, one each for {names} (got {len(tokens)})")
            for seat, token in zip(order, tokens, strict=True):
                by_seat[seat] = self._trick_count(seat, token)
        else:
            for token in _split(text):
                if not _is_int(token) and not any(p.lower().startswith(token.lower()) for p in self.players):
                    raise EntryError(f"{token!r} is neither a number of tricks nor a player's name ({names})")
            pairs = _named_pairs(text)
            if pairs is None:
                raise EntryError(f"write the tricks as numbers for {names} in that order, or as 'name number' pairs")
            for name, token in pairs:
                seat = find_player(name, self.players)
                if seat not in order:
                    raise EntryError(f"{self.players[seat]} deals and sits out this deal")
                if seat in by_seat:
                    raise EntryError(f"{self.players[seat]} is named twice")
                by_seat[seat] = self._trick_count(seat, token)
            missing = [s for s in order if s not in by_seat]
            if len(missing) == 1:
                rest = n_tricks - sum(by_seat.values())
                if rest < 0:
                    raise EntryError(f"the tricks already add up to {sum(by_seat.values())}, more than {n_tricks}")
                by_seat[missing[0]] = rest
            elif missing:
                raise EntryError("give the tricks of " + ", ".join(self.players[s] for s in missing) + " too")
        total = sum(by_seat.values())
        if total != n_tricks:
            raise EntryError(f"the tricks add up to {total}, not {n_tricks}")
        return tuple(by_seat.get(s, 0) for s in range(self.rules.n_seats))

    def _trick_count(self, seat: int, token: str) -> int:
        if not _is_int(token):
            raise EntryError(f"{token!r} is not a number of tricks (for {self.players[seat]})")
        value = int(token)
        if not 0 <= value <= self.rules.n_tricks:
            raise EntryError(f"{self.players[seat]} cannot take {value} tricks (0 to {self.rules.n_tricks})")
        return value

    def enter_tricks(self, text: str | Sequence[int]) -> DealResult:
        """Record the tricks of the current deal; return its result (scores included).

        *text* is typed text (see :meth:`parse_tricks`) or a sequence of one count per seat, in seat order (0 for
        a dealer who sits out).
        """
        if not isinstance(text, str):
            order = self.tricks_order()
            if len(text) != self.rules.n_seats:
                raise EntryError(f"give {self.rules.n_seats} trick counts, one per seat (got {len(text)})")
            idle = [s for s in range(self.rules.n_seats) if s not in order and text[s]]
            if idle:
                raise EntryError(f"{self.players[idle[0]]} deals and sits out this deal: 0 tricks, not {text[idle[0]]}")
            text = " ".join(str(text[s]) for s in order)
        tricks = self.parse_tricks(text)
        last = dataclasses.replace(self.deals[-1], tricks_won=tricks)
        self._replace((*self.deals[:-1], last))
        return self.results()[-1]

    def undo(self) -> str:
        """Take back the last entry (a deal's tricks, else its contract); return what was undone.

        Raises:
            EntryError: if nothing is entered yet.
        """
        if not self.deals:
            raise EntryError("there is nothing to undo")
        last = self.deals[-1]
        if last.is_over:
            self._replace((*self.deals[:-1], dataclasses.replace(last, tricks_won=None, scores=None)))
            return f"deal {last.number}'s tricks"
        self._replace(self.deals[:-1])
        assert last.contract is not None
        return f"deal {last.number}'s contract ({last.contract.symbol})"

    def _replace(self, deals: tuple[DealRecord, ...]) -> None:
        try:
            self.record = dataclasses.replace(self.record, deals=deals)
        except RecordError as error:  # pragma: no cover - the checks above come first
            raise EntryError(str(error)) from None

    # -- output ----------------------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to *path* atomically (a crash never leaves half a file)."""
        write_atomic(Path(path), self.record.to_text())

    def to_csv(self) -> str:
        """One row per finished deal: dealer, chooser, contract, goal, then tricks, scores, totals per player."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        names = list(self.players)
        writer.writerow(
            ["deal", "dealer", "chooser", "contract", "goal",
             *(f"tricks {n}" for n in names), *(f"score {n}" for n in names), *(f"total {n}" for n in names)]
        )
        sheet = self.sheet()
        for result, running in zip(sheet.results, sheet.running_totals(), strict=True):
            writer.writerow(
                [result.deal_no, names[result.dealer], names[result.chooser], str(result.contract),
                 result.contract.goal, *result.tricks, *result.scores, *running]
            )
        return out.getvalue()

    def standing(self) -> str:
        """The standing by total, highest first; equal totals share a place, and the top ones share the win."""
        outcome = self.outcome()
        order = sorted(range(len(self.players)), key=lambda s: -outcome.totals[s])
        lines = []
        for seat in order:
            place = 1 + sum(1 for t in outcome.totals if t > outcome.totals[seat])
            lines.append(f"{place}. {self.players[seat]} {_signed(outcome.totals[seat])}")
        winners = [self.players[s] for s in outcome.winners]
        if len(winners) == 1:
            lines.append(f"{winners[0]} wins.")
        else:
            joined = ", ".join(winners[:-1]) + " and " + winners[-1]
            lines.append(f"{joined} share the win with {_signed(outcome.totals[outcome.winners[0]])} each.")
        return "\n".join(lines)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _is_int(token: str) -> bool:
    return re.fullmatch(r"[+-]?\d{1,6}", token) is not None


def _split(text: str) -> list[str]:
    for separator in ",;=:":
        text = text.replace(separator, " ")
    return text.split()


def _named_pairs(text: str) -> list[tuple[str, str]] | None:
    """``"Ala 7, Bolek=5"`` → ``[("Ala", "7"), ("Bolek", "5")]``; ``None`` if the text is not such pairs."""
    tokens = _split(text)
    pairs: list[tuple[str, str]] = []
    name: list[str] = []
    for token in tokens:
        if _is_int(token) and name:
            pairs.append((" ".join(name), token))
            name = []
        elif _is_int(token):
            return None
        else:
            name.append(token)
    if name:
        if pairs or len(name) != 2:
            return None
        pairs.append((name[0], name[1]))  # "Ala x": a name with a bad number, reported by the caller
    return pairs


def check_name(name: str, taken: Sequence[str]) -> str:
    """A player's name, stripped, if it is usable: not empty, printable, not a command word, not taken.

    Raises:
        EntryError: naming the problem.
    """
    if not isinstance(name, str):
        raise EntryError(f"a name is text, not {name!r}")
    name = " ".join(name.split())
    if not name:
        raise EntryError("a name needs at least one visible character")
    if not name.isprintable():
        raise EntryError("a name cannot hold control characters")
    if len(name) > 40:
        raise EntryError("a name can be at most 40 characters long")
    if name.lower() in COMMAND_WORDS:
        raise EntryError(f"{name!r} is a command word; choose another name")
    if _is_int(name):
        raise EntryError("a name cannot be a number (numbers are tricks)")
    if name.lower() in (t.lower() for t in taken):
        raise EntryError(f"{name!r} is already a player; names must differ")
    return name


def find_player(text: str, players: Sequence[str]) -> int:
    """The seat of the player named *text* (case-insensitive; a unique start of the name will do).

    Raises:
        EntryError: for a name that is nobody's, or that fits several players.
    """
    if not isinstance(text, str):
        raise EntryError(f"a player is named by text, not {text!r}")
    key = " ".join(text.split()).lower()
    exact = [s for s, name in enumerate(players) if name.lower() == key]
    if exact:
        return exact[0]
    starts = [s for s, name in enumerate(players) if key and name.lower().startswith(key)]
    if len(starts) == 1:
        return starts[0]
    known = ", ".join(players)
    if starts:
        raise EntryError(f"{text.strip()!r} fits several players: " + ", ".join(players[s] for s in starts))
    raise EntryError(f"{text.strip()!r} is not a player (the players: {known})")


def write_atomic(path: Path, text: str) -> None:
    """Write *text* to *path* through a temporary file in the same folder, then rename it into place."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# -- the command ---------------------------------------------------------------------------------------------

HELP = """\
At any prompt:  undo   take back the last entry      sheet  show the score sheet
                help   this help (also ?)             quit   stop (the match is saved; resume with --resume)
Contracts: C D H S (or ♣ ♦ ♥ ♠, or the suit's name), NT (no-trump), MZ (Mizerka: avoid tricks).
Tricks: the numbers in the order asked ("7 5 1"), or by name ("Ala 7, Bolek 5"; one name may be left out)."""


class _Quit(Exception):
    pass


class _Undo(Exception):
    pass


class _Session:
    """The prompts of ``mizerka score``: every answer is checked, and a bad one is asked again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keeper: ScoreKeeper | None = None

    def ask(self, text: str) -> str:
        """Prompt until there is an answer; handle the commands that mean the same everywhere."""
        while True:
            answer = " ".join(str(click.prompt(text, default="", show_default=False, prompt_suffix=": ")).split())
            word = answer.lower()
            if not answer:
                click.echo("Please answer (type ? for help).")
            elif word in ("help", "?"):
                click.echo(HELP)
            elif word in ("quit", "exit"):
                raise _Quit
            elif word == "undo":
                raise _Undo
            elif word == "sheet":
                if self.keeper is None:
                    click.echo("There is no sheet yet: the names come first.")
                else:
                    click.echo(str(self.keeper.sheet()))
            else:
                return answer

    def setup(self, rules: Rules) -> ScoreKeeper:
        click.echo(f"New match, {rules.spec()}: {rules.n_deals} deals for {rules.n_seats} players.")
        return self.setup_rest(rules, [])

    def setup_rest(self, rules: Rules, names: list[str]) -> ScoreKeeper:
        while len(names) < rules.n_seats:
            try:
                question = f"Name of player {len(names) + 1} (in order round the table)"
                names.append(check_name(self.ask(question), names))
            except EntryError as error:
                click.echo(f"Not accepted: {error}.")
            except _Undo:
                if names:
                    click.echo(f"Undone: the name {names.pop()!r}.")
                else:
                    click.echo("Nothing to undo yet.")
        return self.setup_from(rules, names)

    def setup_from(self, rules: Rules, names: list[str]) -> ScoreKeeper:
        while True:
            first: str | int
            if rules.first_dealer is not None:
                first = rules.first_dealer
            else:
                try:
                    first = self.ask(f"Who deals first ({', '.join(names)})")
                except _Undo:
                    click.echo(f"Undone: the name {names.pop()!r}.")
                    return self.setup_rest(rules, names)
            try:
                return ScoreKeeper.new(names, first, rules)
            except EntryError as error:
                click.echo(f"Not accepted: {error}.")

    def run(self, keeper: ScoreKeeper) -> None:
        self.keeper = keeper
        while not keeper.is_over():
            no = keeper.deal_no
            try:
                if keeper.pending is None:
                    left = " ".join(c.symbol for c in keeper.allowed_contracts())
                    prompt = (f"Deal {no} of {keeper.rules.n_deals}, {keeper.dealer_name} deals. "
                              f"Contract chosen by {keeper.chooser_name} [{left}]")
                    answer = self.ask(prompt)
                    try:
                        keeper.enter_contract(answer)
                    except EntryError as error:
                        click.echo(f"Not accepted: {error}.")
                        continue
                    keeper.save(self.path)
                else:
                    names = " ".join(keeper.players[s] for s in keeper.tricks_order())
                    contract = keeper.pending
                    prompt = f"Deal {no}, {contract.symbol} ({contract.goal}): tricks of {names}"
                    answer = self.ask(prompt)
                    try:
                        result = keeper.enter_tricks(answer)
                    except EntryError as error:
                        click.echo(f"Not accepted: {error}.")
                        continue
                    keeper.save(self.path)
                    self.show_result(keeper, result)
            except _Undo:
                try:
                    what = keeper.undo()
                except EntryError as error:
                    click.echo(f"Not accepted: {error}.")
                    continue
                keeper.save(self.path)
                click.echo(f"Undone: {what}.")

    @staticmethod
    def show_result(keeper: ScoreKeeper, result: DealResult) -> None:
        names = keeper.players
        active = keeper.active_of(result.deal_no)
        parts = []
        for role, seat in enumerate(active):
            quota = keeper.rules.quota(role, result.contract)
            parts.append(f"{names[seat]} {result.tricks[seat]} of {quota} → {_signed(result.scores[seat])}")
        click.echo(f"Deal {result.deal_no} ({result.contract.label}, {result.contract.goal}): " + "; ".join(parts))
        click.echo("")
        click.echo(str(keeper.sheet()))
        click.echo("")


def _export(keeper: ScoreKeeper, csv_path: Path | None, record_path: Path | None) -> None:
    try:
        if csv_path is not None:
            write_atomic(csv_path, keeper.to_csv())
            click.echo(f"Score sheet written to {csv_path} (CSV).")
        if record_path is not None:
            text = keeper.record.to_json() if record_path.suffix.lower() == ".json" else keeper.record.to_text()
            write_atomic(record_path, text)
            click.echo(f"Game record written to {record_path}.")
    except OSError as error:
        raise click.ClickException(f"cannot write the export: {error}") from None


@click.command("score")
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="where to save the match as you go  [default: mizerka-score.mzn]")
@click.option("--resume", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="continue the match saved in this file (and keep saving there)")
@click.option("--variant", "variant", default="standard", show_default=True, metavar="SPEC",
              help="variant name and options, e.g. 'standard,first_dealer=0' (a new match only)")
@click.option("--export-csv", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="at the end, write the score sheet as CSV here")
@click.option("--export-record", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="at the end, write a game record (contracts and tricks only; JSON if the name ends .json)")
def score_command(path: Path | None, resume: Path | None, variant: str, export_csv: Path | None,
                  export_record: Path | None) -> None:
    """Keep the score of a match played with real cards.

    Enter the names and the first dealer, then per deal the contract and the tricks each player took.
    Every entry is checked; the sheet is shown after each deal and saved as you go.  Type ? at any
    prompt for help, undo to take back the last entry, quit to stop (resume later with --resume FILE).
    """
    import warnings

    from mizerka.rules import parse_variant

    if resume is not None and path is not None:
        raise click.UsageError("give --resume FILE to continue a match, or --file FILE to start one, not both")
    saved_to = resume if resume is not None else path if path is not None else Path("mizerka-score.mzn")
    for option, export in (("--export-csv", export_csv), ("--export-record", export_record)):
        if export is not None and export.resolve() == saved_to.resolve():
            raise click.UsageError(f"{option} {export} is the file the match is saved in: the export would "
                                   f"overwrite it; choose another file")
    if resume is not None:
        if variant != "standard":
            raise click.UsageError("the variant of a resumed match is the one in its file; leave out --variant")
        try:
            keeper = ScoreKeeper.load(resume)
        except OSError as error:
            raise click.UsageError(f"cannot read {resume}: {error.strerror or error}") from None
        except EntryError as error:
            raise click.UsageError(str(error)) from None
        path = resume
        click.echo(f"Resuming {resume}: {', '.join(keeper.players)}; "
                   f"{keeper.deal_no - 1} of {keeper.rules.n_deals} deals entered.")
        if keeper.results():
            click.echo(str(keeper.sheet()))
    else:
        path = path if path is not None else Path("mizerka-score.mzn")
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                rules = parse_variant(variant)
        except RulesError as error:
            raise click.BadParameter(str(error), param_hint="'--variant'") from None
        for warning in caught:  # e.g. quotas that are not zero-sum: said as the other commands say it
            click.echo(f"warning: {warning.message}", err=True)
        if path.exists():
            raise click.UsageError(f"{path} exists: continue it with --resume {path}, or choose another --file")
        keeper = None
    session = _Session(path)
    try:
        if keeper is None:
            keeper = session.setup(rules)
            try:
                keeper.save(path)
            except OSError as error:
                raise click.ClickException(f"cannot save to {path}: {error.strerror or error}") from None
            click.echo(f"Saving to {path} after every entry.  Type ? for help.")
        session.run(keeper)
    except _Quit:
        if keeper is None:
            click.echo("Stopped before the match began; nothing was saved.")
            return
        click.echo(f"Stopped in deal {keeper.deal_no}.  Resume with: mizerka score --resume {path}")
        _export(keeper, export_csv, export_record)
        return
    except click.Abort:
        if keeper is None:
            click.echo("\nInput ended before the match began; nothing was saved.", err=True)
        else:
            _export(keeper, export_csv, export_record)
            click.echo(f"\nInput ended in deal {keeper.deal_no}; saved.  Resume with: mizerka score --resume {path}",
                       err=True)
        raise click.exceptions.Exit(1) from None
    except OSError as error:
        raise click.ClickException(f"cannot save to {path}: {error.strerror or error}") from None
    click.echo("The match is over.  Final standing:")
    click.echo(keeper.standing())
    _export(keeper, export_csv, export_record)
