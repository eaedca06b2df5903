"""The ``mizerka`` command: play, replay, deal, rules, and the commands other modules add.

The command is a :mod:`click` group whose subcommands are loaded **lazily**: :data:`COMMANDS` maps each
subcommand's name to ``"module.path:attribute"``, the :class:`click.Command` that implements it, and the module
is imported only when that subcommand runs (or its help is shown).  ``mizerka --help`` therefore stays fast, and
a command whose optional extra is missing (the server, the terminal UI) fails with a message naming the extra
instead of breaking the whole command.

To add a command, define a :class:`click.Command` in your own module and add one line to :data:`COMMANDS`.

Errors follow one rule: a message on stderr and a non-zero exit code, never a traceback.  Bad options and
arguments exit with 2 (click's usage errors, and :class:`InputError` for unreadable input files).

The commands defined here are small and need only the core: ``rules``, ``deal`` and ``replay``.  ``play``
lives in :mod:`mizerka.terminal`.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import random
import shutil
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mizerka.cards import CARDS, CardSet, Suit
from mizerka.deal import Deal, deal_piles
from mizerka.rules import OPTIONS_HELP, STANDARD, VARIANTS, ExchangeMode, Role, Rules, RulesError, parse_variant
from mizerka.scoresheet import ScoreSheet

if TYPE_CHECKING:
    from mizerka.record import DealRecord, MatchRecord

__all__ = [
    "COMMANDS",
    "RECORD_FILE",
    "RULES_SUMMARY",
    "STDIN",
    "SUMMARIES",
    "VARIANT_HELP",
    "InputError",
    "LazyGroup",
    "ascii_text",
    "cli",
    "format_cards",
    "main",
    "missing_extra",
    "read_record_file",
    "record_file_name",
    "stdout_takes_unicode",
    "suit_order",
    "unicode_option",
    "variant_option",
]

COMMANDS: dict[str, str] = {
    "play": "mizerka.tui.command:play_command",
    "replay": "mizerka.cli:replay_command",
    "rules": "mizerka.cli:rules_command",
    "deal": "mizerka.cli:deal_command",
    "serve": "mizerka.server.command:serve_command",
    "score": "mizerka.scorekeeper:score_command",
    "analyse": "mizerka.analysis:analyse_command",
    "arena": "mizerka.bots.cli:arena_command",
    "solve": "mizerka.solver.cli:solve_command",
    "tables": "mizerka.tui.command:tables_command",
}
"""Subcommand name → ``"module:attribute"`` of its :class:`click.Command`, imported on first use."""

SUMMARIES: dict[str, str] = {
    "analyse": "Find the cards that cost tricks in a game record.",
    "arena": "Play duplicate matches between computer players.",
    "deal": "Deal the cards and print the hands and the talon.",
    "play": "Play a match against computer players, or at a server.",
    "replay": "Check a game record and print its deals and scores.",
    "rules": "Print the rules, the variants and their options.",
    "score": "Keep the score of a match played with real cards.",
    "serve": "Run the game server and its browser client.",
    "solve": "Print the double-dummy value of each card of a position.",
    "tables": "List the open tables of a game server.",
}
"""Subcommand name → its line in ``mizerka --help``'s list of commands: short enough to be shown whole at 80
columns (click would cut a command's first sentence to fit, mid-sentence).  A command's own ``short_help`` wins."""

_EXTRAS: dict[str, tuple[str, ...]] = {
    "click": ("cli", "server"), "rich": ("cli", "tui"),
    "fastapi": ("server",), "uvicorn": ("server",), "h11": ("server",), "sqlalchemy": ("server",),
    "alembic": ("server",), "pydantic": ("server",), "psycopg": ("server",), "platformdirs": ("server", "tui"),
    "orjson": ("server",), "openskill": ("server",),
    "textual": ("tui",), "websockets": ("tui", "server"),
    "numpy": ("rl", "openspiel"), "gymnasium": ("rl",), "pettingzoo": ("rl",),
    "pyspiel": ("openspiel", "bench"),
    "ray": ("ray",),
}
"""Top-level module name → the extras of ``pyproject.toml`` that install it (``pyspiel`` is the ``open_spiel``
distribution's module, ``psycopg`` the ``psycopg[binary]`` one's), for the message of a command whose extra is
missing.  Every package of every extra but ``dev`` is here: a test reads ``pyproject.toml`` and checks it."""

_COMMAND_EXTRAS = {"serve": "server", "play": "tui", "arena": "cli", "score": "cli", "analyse": "cli",
                   "solve": "cli", "replay": "cli", "rules": "cli", "deal": "cli", "tables": "tui"}
"""The extra each command belongs to: of the extras that hold a missing module, the command's own is named."""


class InputError(click.ClickException):
    """Input that cannot be used (an unreadable or invalid file, a bad value): message, exit code 2."""

    exit_code = 2


class LazyGroup(click.Group):
    """A :class:`click.Group` that imports each subcommand from a ``"module:attribute"`` path on demand.

    >>> group = LazyGroup(name="demo", lazy_commands={"rules": "mizerka.cli:rules_command"})
    >>> group.list_commands(click.Context(group))
    ['rules']
    >>> group.get_command(click.Context(group), "rules").name
    'rules'
    """

    def __init__(self, *args: Any, lazy_commands: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands if lazy_commands is not None else {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands:
            return self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands in ``--help``; one whose module cannot be imported is listed as unavailable."""
        rows = []
        for name in self.list_commands(ctx):
            try:
                command = self.get_command(ctx, name)
            except click.ClickException as error:
                rows.append((name, f"(unavailable: {error.message})"))
                continue
            if command is not None and not command.hidden:
                summary = command.short_help or SUMMARIES.get(name)
                rows.append((name, summary or command.get_short_help_str(limit=formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def _load(self, cmd_name: str) -> click.Command:
        target = self.lazy_commands[cmd_name]
        module_name, _, attribute = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise missing_extra(cmd_name, error) from None
        command = getattr(module, attribute, None)
        if not isinstance(command, click.Command):
            raise click.ClickException(f"the '{cmd_name}' command is broken: {target} is not a click command")
        return command


def missing_extra(command: str, error: ImportError) -> click.ClickException:
    """The error for *command* when a module it needs cannot be imported: a message naming the extra to install
    (exit code 1, no traceback).  :class:`LazyGroup` gives it for a command module that cannot be imported; a
    command that imports an optional package inside its function (``arena``: rich) raises it the same way.

    >>> missing_extra("serve", ModuleNotFoundError("No module named 'pydantic'", name="pydantic")).message
    "the 'serve' command is not available: No module named 'pydantic'; install it with: pip install 'mizerka[server]'"
    >>> missing_extra("play", ModuleNotFoundError("No module named 'rich'", name="rich")).message
    "the 'play' command is not available: No module named 'rich'; install it with: pip install 'mizerka[tui]'"
    """
    module = (error.name or "").split(".")[0]
    extras = _EXTRAS.get(module, ())
    own = _COMMAND_EXTRAS.get(command)
    extra = own if own in extras else extras[0] if extras else None
    hint = f"; install it with: pip install 'mizerka[{extra}]'" if extra else ""
    return click.ClickException(f"the '{command}' command is not available: {error}{hint}")


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="mizerka", prog_name="mizerka")
def cli() -> None:
    """Mizerka, the Polish trick-taking game for three, on the command line.

    Play a match against computer players or at a game server, keep the score of a match played with real cards,
    replay and analyse game records, solve positions, run a server, and pit computer players against each other.

    Start with `mizerka play` for a match in the terminal against two computer players,
    or `mizerka rules` for the rules; `mizerka COMMAND --help` tells more about each command.
    """


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (the console script ``mizerka`` calls it through :func:`mizerka.__main__.entry`).

    An output that cannot be written (``mizerka deal > /dev/full``, a closed stream) ends the command with a
    message and exit code 1, not a traceback; click itself handles only a closed pipe.  A standard output closed
    before the start (``mizerka deal >&-``: Python then has no ``sys.stdout`` at all, and click would print
    nothing and exit 0) is refused the same way, before the command runs; a closed standard input reads as an
    empty one (``< /dev/null``), which every command that asks questions takes as the end of its answers.
    """
    _open_closed_streams()
    if sys.stdout is None:
        with contextlib.suppress(OSError, ValueError):
            click.echo("Error: cannot write the output: the standard output is closed", err=True)
        sys.exit(1)
    _replace_unencodable()
    try:
        with warnings.catch_warnings():  # (restored on the way out: main may be called in a program's process)
            warnings.showwarning = _show_warning
            cli.main(args=list(argv) if argv is not None else None, prog_name="mizerka")
    except OSError as error:
        try:
            what = str(error) if error.filename is not None else f"cannot write the output: {error.strerror or error}"
            click.echo(f"Error: {what}", err=True)
        except OSError:
            pass
        _discard_stdout()
        sys.exit(1)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Python's warnings as the command line says them: one ``warning: …`` line on standard error, without the file,
    line number and source line of Python's own form (which speak to a programmer, not to a player)."""
    with contextlib.suppress(OSError, ValueError):
        click.echo(f"warning: {message}", err=True)


def warn_if_no_solver_kernel() -> None:
    """Where the solver's C kernel is missing, give the solver's one warning now (a ``warning:`` line under
    :func:`main`).  ``mizerka arena`` calls it before its worker processes start: forked after it, they inherit that
    the warning was given, so it is said once, not once per worker in the middle of the progress bar."""
    from mizerka import solver

    if solver.backend() == "kernel":
        return
    solver.solve(solver.Position.from_text("NT; lead 0; 2C / 3C / 4C"), 0)  # the smallest solve: it warns once


def _open_closed_streams() -> None:
    """Give a closed standard input the null device (it reads as empty), and a closed standard error too (nothing
    said there can then fail); a closed standard output stays ``None`` for :func:`main` to refuse.

    Python sets ``sys.stdin``, ``sys.stdout`` or ``sys.stderr`` to ``None`` where the file descriptor was closed
    when it started (``<&-``, ``2>&-``)."""
    with contextlib.suppress(OSError):
        if sys.stdin is None:
            sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (kept open for the whole process)
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _discard_stdout() -> None:
    """Point the standard output at the null device, so that the interpreter's last flush of what could not be
    written fails silently instead of printing an "Exception ignored" report."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real file behind sys.stdout (a test's capture)
        pass


# -- shared option helpers ---------------------------------------------------------------------------------


class NumberRange(click.FloatRange):
    """click's :class:`~click.FloatRange` for a finite number: ``nan`` passes every range check (each comparison
    with it is false) and ``inf`` every one without a maximum, so click's own type takes both; a server given
    ``--request-timeout nan`` then answered no request at all.

    >>> NumberRange(0, 10).convert("2.5", None, None)
    2.5
    >>> NumberRange(0).convert("nan", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'nan' is not a finite number.
    """

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number



VARIANT_WARNED = "mizerka.variant_warned"
"""``click.Context.meta`` key: ``--variant`` has already printed the variant's warning (custom quotas)."""


def read_variant(spec: str, param_hint: str = "'--variant'") -> tuple[Rules, bool]:
    """The rules ``--variant`` *spec* names, and whether a warning was said: a variant whose scores are not zero-sum
    is said once, as a ``warning:`` line on standard error (never as Python's warning with a source line).

    :func:`~mizerka.rules.parse_variant` warns only when it builds new rules (``seed002-literal,first_dealer=1``,
    changed quotas); a named variant is built once, when its module is imported, and handed out without a word, so
    without a warning caught the variant's own :attr:`~mizerka.rules.Rules.zero_sum_note` is said.  ``--variant``
    options (:func:`variant_option`), ``mizerka score`` and ``mizerka arena`` all read it here.

    Raises:
        click.BadParameter: an empty spec (``--variant "$V"`` with V unset meant some variant, not silently the
            standard one), or one :func:`~mizerka.rules.parse_variant` refuses (exit code 2).
    """
    if not spec.strip():
        raise click.BadParameter("give a variant (e.g. 'standard' or 'no-exchange,show_trump_card'), not an empty "
                                 "value; leave the option out for the standard rules", param_hint=param_hint)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rules = parse_variant(spec)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint=param_hint) from None
    notes = [str(warning.message) for warning in caught]
    if not notes and rules.zero_sum_note is not None:
        notes.append(rules.zero_sum_note)
    for note in notes:
        click.echo(f"warning: {note}", err=True)
    return rules, bool(notes)


def _parse_variant_callback(ctx: click.Context, param: click.Parameter, value: str) -> Rules:
    """Read ``--variant`` with :func:`read_variant`, noting in the context that its warning was said."""
    rules, warned = read_variant(value)
    if warned:
        ctx.meta[VARIANT_WARNED] = True
    return rules


VARIANT_HELP = "variant name and options, e.g. 'standard,show_trump_card' (see `mizerka rules`)"
"""The help of every command's ``--variant SPEC`` option (:func:`variant_option`; ``mizerka arena`` too)."""


def variant_option(function: Any) -> Any:
    """The ``--variant`` option shared by the commands (a :class:`Rules` reaches the command)."""
    return click.option(
        "--variant",
        "rules",
        default="standard",
        show_default=True,
        metavar="SPEC",
        callback=_parse_variant_callback,
        help=VARIANT_HELP,
    )(function)


UNICODE_SAMPLE = "♠♥♦♣✗→═"
"""Characters the commands print in their Unicode form (suits, the error mark, arrows, the score sheet's rule):
an output that can encode them all gets symbols, any other gets letters."""


def _replace_unencodable() -> None:
    """Make the standard streams tolerant of text their encodings cannot take, so that no command ends in a
    ``UnicodeEncodeError`` or ``UnicodeDecodeError`` traceback.

    * On an output that cannot take suit symbols (cp1252, ISO-8859-x: :func:`stdout_takes_unicode`), a character
      it cannot encode is written as ``?``.  The commands write letters for the suits there already; what is left
      is text such as a player's name (``Łucja`` in cp1252 is ``?ucja``).
    * The input: bytes its encoding cannot decode become the replacement character ``\ufffd``.  A UTF-8 file of
      answers read as cp1250 (a pipe on Polish Windows) holds such bytes (``Ł`` is ``C5 81``, and ``81`` is no
      cp1250 character); the answer is then refused in words, as any answer that is no name or action is (or taken,
      where it still is one), never a traceback.  A UTF-8 input's ``surrogateescape`` is replaced too: a lone
      surrogate it made would break the UTF-8 record a name is saved in.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not stdout_takes_unicode(stream):
            with contextlib.suppress(AttributeError, ValueError, OSError):
                stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    if sys.stdin is not None:
        with contextlib.suppress(AttributeError, ValueError, OSError):
            sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]


def echo_json(data: Any, indent: int | None = None) -> None:
    """Print *data* as JSON on the standard output (the commands' ``--json``): non-ASCII text as itself where the
    output can encode it, else as ``\\u`` escapes.  The output's ``?`` for what it cannot encode (see
    :func:`_replace_unencodable`) would corrupt names in output meant for programs: ``Łucja`` in cp1252 came out as
    ``"?ucja"``."""
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(data, indent=indent)
    click.echo(text)


def stdout_takes_unicode(stream: object = None) -> bool:
    """Whether *stream* (default: :data:`sys.stdout`) can encode the symbols the commands print.

    It encodes :data:`UNICODE_SAMPLE` with the stream's encoding rather than looking for "utf" in the name:
    UTF-16, GB18030 and the like take the symbols too, while cp1252 (Windows, an output redirected to a file)
    and ISO-8859-x do not.  A stream without an encoding (a bytes buffer) gets letters.  This is the default of
    every command's ``--unicode/--ascii`` choice, and of ``mizerka play``'s.

    >>> import io
    >>> stdout_takes_unicode(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    True
    >>> stdout_takes_unicode(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"))
    False
    """
    encoding = getattr(sys.stdout if stream is None else stream, "encoding", None)
    if not isinstance(encoding, str) or not encoding:
        return False
    try:
        UNICODE_SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def unicode_option(function: Any) -> Any:
    """The ``--unicode/--ascii`` option shared by the commands: the command gets ``True`` or ``False``, and when
    neither is given, what :func:`stdout_takes_unicode` says of the output."""
    return click.option(
        "--unicode/--ascii",
        default=None,
        callback=lambda _ctx, _param, value: stdout_takes_unicode() if value is None else value,
        help="suit symbols or letters  [default: symbols when the output can encode them]",
    )(function)


_ASCII = str.maketrans({
    **{suit.symbol: suit.letter for suit in Suit},
    "→": "->", "═": "=", "·": "-", "…": "...", "✗": "x", "✓": "*", "−": "-", "–": "-", "—": "-",
    "§": "section ",
})
"""What :func:`ascii_text` writes for each character of the Unicode forms: the one mapping of suit symbols to
letters (``♣ ♦ ♥ ♠`` → ``C D H S``, from :class:`~mizerka.cards.Suit`), then arrows, rules, dashes, and the rule
book's ``§8`` as ``section 8`` (the variants' sources)."""


def terminal_width() -> int | None:
    """The columns of the terminal the commands write to, or ``None`` when standard output is no terminal (a file,
    a pipe, a test's runner: there every column is written, whatever the width).  The score sheet's table narrows
    itself to it (:meth:`mizerka.scoresheet.ScoreSheet.table`)."""
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):  # a replaced or closed stdout
        return None
    return shutil.get_terminal_size().columns


def ascii_text(text: str) -> str:
    """*text* as the commands write it with ``--ascii``: suit symbols as letters, ``→`` as ``->``, a ``·`` between
    items as a comma, ``═`` as ``=``, ``…`` as ``...``.  Names keep their letters (they are what a person typed).
    Every command's ASCII form goes through it (the score sheet of ``replay`` and ``score``, ``rules``, the line
    game), so there is one mapping.  One suit symbol becomes one letter, so a table's columns stay aligned.

    >>> ascii_text("═══ Deal 1 of 18 ═══  dealer: Ala · FH you")
    '=== Deal 1 of 18 ===  dealer: Ala, FH you'
    >>> ascii_text("Trick 1: Ala 10♥, Ola K♥ → Ola wins.")
    'Trick 1: Ala 10H, Ola KH -> Ola wins.'
    >>> ascii_text("[♣ ♦ ♥ ♠ NT MZ]")
    '[C D H S NT MZ]'
    """
    return text.replace(" · ", ", ").translate(_ASCII)


def suit_order(trump: int | None = None) -> list[Suit]:
    """The order hands are shown in: trumps first, then spades, hearts, clubs, diamonds (colours alternate)."""
    order = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    if trump is not None:
        order.remove(Suit(trump))
        order.insert(0, Suit(trump))
    return order


def format_cards(cards: CardSet, *, unicode: bool = True, trump: int | None = None) -> str:
    """A hand by suit, high to low, trumps first, then the other suits black/red alternating.

    >>> print(format_cards(CardSet.from_str("AS 10S 4S KH 9C 2C"), unicode=False))
    S: A T 4   H: K   C: 9 2
    >>> print(format_cards(CardSet.from_str("AS 10S KH 9C"), trump=2))
    ♥ K   ♠ A 10   ♣ 9
    """
    groups = []
    for suit in suit_order(trump):
        ranks = [c.rank for c in cards.of_suit(suit).cards()]
        if ranks:
            text = " ".join(r.label if unicode else r.letter for r in ranks)
            groups.append(f"{suit.symbol} {text}" if unicode else f"{suit.letter}: {text}")
    return "   ".join(groups) if groups else "-"


# -- mizerka rules -----------------------------------------------------------------------------------------

RULES_SUMMARY = """\
Mizerka: three players, 52 cards, 18 deals.

Seats. The dealer deals; forehand (FH) sits at the dealer's left, middlehand (MH) at the dealer's right.
The deal passes to the left after each deal.

Dealing and the contract. Each player gets 13 cards and 13 go to the talon, face down. When each player
holds six cards, forehand looks at them and chooses a contract he has not chosen before:
  ♣ ♦ ♥ ♠   that suit is trumps; take tricks
  NT        no trumps; take tricks
  MZ        Mizerka: no trumps; avoid tricks
Then the deal is completed.

The exchange. Forehand, then middlehand, then the dealer may each exchange once, blind: discard any number
of cards face down (no more than the talon still holds) and draw as many from the top of the talon.

Play. Thirteen tricks; forehand leads. Follow suit if you can, otherwise play any card (you need not
trump). The highest trump wins the trick, else the highest card of the suit led; the winner leads next.

Score. Each seat has a quota of tricks:
                ordinary  Mizerka
  forehand         7         1
  middlehand       5         5
  dealer           1         7
Ordinary contracts score tricks - quota, Mizerka scores quota - tricks; each deal sums to zero.
Everyone chooses each of the six contracts once: after 18 deals the highest total wins (ties share).
"""


@click.command("rules")
@unicode_option
def rules_command(unicode: bool) -> None:
    """Print a summary of the rules and the variants with their sources."""
    lines = [RULES_SUMMARY, "Variants (--variant NAME[,OPTION...]):"]
    for name, rules in VARIANTS.items():
        facts = [f"{rules.n_seats} players", f"{rules.n_deals} deals", f"{rules.n_tricks} tricks"]
        facts.append(f"exchange: {rules.exchange_mode.value}")
        if not rules.zero_sum:
            facts.append("not zero-sum")
        lines.append(f"  {name:<16} {', '.join(facts)}")
        lines.append(f"  {'':<16} source: {rules.source}")
    lines.append("\nOptions:")
    lines.extend(f"  {option:<42} {text}" for option, text in OPTIONS_HELP.items())
    lines.append("\nExample: mizerka play --variant 'standard,show_trump_card,first_dealer=0'")
    text = "\n".join(lines)
    click.echo(text if unicode else ascii_text(text))


# -- mizerka deal ------------------------------------------------------------------------------------------


def _fresh_seed() -> int:
    return random.SystemRandom().randrange(1_000_000)


@click.command("deal")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="seed for the shuffle (default: random)")
@variant_option
@click.option("--dealer", type=click.IntRange(min=0), default=None,
              help="the dealing seat  [default: the variant's first_dealer, else 0]")
@unicode_option
def deal_command(seed: int | None, rules: Rules, dealer: int | None, unicode: bool) -> None:
    """Deal the cards and print the hands, the talon (top card first) and forehand's first six cards."""
    if dealer is None:
        dealer = rules.first_dealer if rules.first_dealer is not None else 0
    if dealer >= rules.n_seats:
        raise click.BadParameter(f"seat {dealer} is not at a {rules.n_seats}-player table", param_hint="'--dealer'")
    if seed is None:
        seed = _fresh_seed()
    deal = Deal.random(seed, rules=rules, dealer=dealer)
    first, rest, talon = deal_piles(deal.deck, rules.deal_pattern, rules.cards_before_choice)

    def show(cards: Sequence[int]) -> str:
        return format_cards(CardSet(cards), unicode=unicode)

    click.echo(f"Deal with seed {seed}, variant {rules.spec()}, dealer seat {dealer}")
    for seat in range(rules.n_seats):
        role = deal.role(seat)
        if role is None:
            click.echo(f"  seat {seat} (sits out)")
            continue
        cards = first[role] + rest[role]
        click.echo(f"  seat {seat} {role.short + ':':<4} {show(cards)}")
    order = " ".join(CARDS[c].unicode() if unicode else str(CARDS[c]) for c in reversed(talon))
    click.echo(f"  talon, top first: {order}")
    click.echo(f"Forehand (seat {deal.active_seats[Role.FOREHAND]}) chooses holding: {show(first[Role.FOREHAND])}")


# -- mizerka replay ----------------------------------------------------------------------------------------


STDIN = "-"
"""The record file name that means standard input (``cat game.mzn | mizerka replay -``): :data:`RECORD_FILE`,
:func:`read_record_file`.  A file named ``-`` is read as ``./-``."""

RECORD_FILE = click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
"""The type of a command's record file argument (``replay FILE``, ``analyse RECORD``): an existing file, not a
folder, or ``-`` for standard input; read it with :func:`read_record_file`."""


def record_file_name(path: str | os.PathLike[str]) -> str:
    """*path* as the commands name it in their messages: ``standard input`` for ``-`` (:data:`STDIN`).

    >>> record_file_name(Path("-")), record_file_name(Path("games/g.mzn"))
    ('standard input', 'games/g.mzn')
    """
    return "standard input" if os.fspath(path) == STDIN else click.format_filename(os.fspath(path))


def read_record_file(path: str | os.PathLike[str]) -> MatchRecord:
    """The record in the file *path*, or on standard input for ``-`` (:data:`STDIN`), read by
    :func:`mizerka.record.read` with the same checks either way: at most :data:`~mizerka.record.MAX_RECORD_BYTES`,
    UTF-8 (a byte-order mark allowed), either form.  Standard input is read as bytes, whatever its encoding.

    Raises:
        RecordError: as :func:`~mizerka.record.read` (for an input that is too large or not UTF-8 too).
        OSError: if the file or the input cannot be read.
    """
    from mizerka.record import MAX_RECORD_BYTES, RecordSyntaxError, read

    if os.fspath(path) != STDIN:
        return read(Path(path))
    if sys.stdin is None:  # closed, outside main() (which gives it the null device): an empty input
        data = b""
    elif hasattr(sys.stdin, "buffer"):
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    else:  # a text stream without bytes underneath (a program's replacement of sys.stdin)
        data = sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "replace")
    if len(data) > MAX_RECORD_BYTES:
        raise RecordSyntaxError(f"the input is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB: not a record")
    return read(data)


def _load_record(path: Path) -> MatchRecord:
    """Read and validate a record (a full record is also replayed card by card); any problem is an
    :class:`InputError` naming the file (or standard input) and the problem."""
    try:
        loaded = read_record_file(path)
        if not loaded.score_only:
            loaded.to_match()
    except (ValueError, OSError) as error:
        raise InputError(f"{record_file_name(path)}: {error}") from None
    return loaded


def _scores_json(record: MatchRecord) -> dict[str, object]:
    outcome = record.outcome() if record.is_over() else None
    return {
        "variant": record.rules.spec(),
        "players": list(record.players),
        "deals": [
            {
                "deal": r.deal_no,
                "dealer": r.dealer,
                "chooser": r.chooser,
                "contract": str(r.contract),
                "goal": r.contract.goal,
                "tricks": list(r.tricks),
                "scores": list(r.scores),
            }
            for r in record.results()
        ],
        "totals": list(record.totals),
        "complete": record.is_over(),
        "winners": list(outcome.winners) if outcome is not None else None,
    }


def _deal_in_progress(deal: DealRecord, rules: Rules = STANDARD) -> str:
    """The replay's line for a deal the record holds unfinished: how far it got, never a score.

    A score-only deal (a real table's scorekeeper) records no exchange and no card: its contract is chosen and its
    tricks are not entered yet.  With cards, the deal is in the exchange until each of the three players has made
    his, where the rules have one (*rules*' exchange mode).

    >>> from mizerka.record import DealRecord
    >>> _deal_in_progress(DealRecord(number=4, dealer=0))
    'deal  4: in progress, before the contract (not scored)'
    >>> from mizerka.rules import Contract
    >>> _deal_in_progress(DealRecord(number=2, dealer=1, contract=Contract.from_str("H")))
    'deal  2: in progress, hearts chosen, its tricks not entered yet (not scored)'
    """
    if deal.contract is None:
        where = "before the contract"
    elif deal.score_only:
        where = f"{deal.contract.label} chosen, its tricks not entered yet"
    elif not deal.tricks:
        in_exchange = rules.exchange_mode is ExchangeMode.STANDARD and len(deal.exchanges) < 3
        where = f"{deal.contract.label} chosen, " + ("in the exchange" if in_exchange else "no card played yet")
    else:
        done = len(deal.tricks) - (len(deal.tricks[-1]) < 3)  # three play to each trick (a fourth seat sits out)
        where = f"{deal.contract.label}, {done} trick{'' if done == 1 else 's'} played"
        if done < len(deal.tricks):
            where += f" and {len(deal.tricks[-1])} card{'' if len(deal.tricks[-1]) == 1 else 's'} of the next"
    return f"deal {deal.number:>2}: in progress, {where} (not scored)"


@click.command("replay")
@click.argument("file", type=RECORD_FILE)
@click.option("--json", "as_json", is_flag=True, help="print the scores as JSON")
@unicode_option
def replay_command(file: Path, as_json: bool, unicode: bool) -> None:
    """Validate a game record and print it: each deal's contract, tricks and scores, then the score sheet.

    FILE is a record in either form (text or JSON), or - to read it from standard input.
    """
    record = _load_record(file)
    if as_json:
        echo_json(_scores_json(record), indent=2)
        return
    names = record.players
    # with no deal yet there is nothing to replay, and no way to tell a score pad's record from a played match's
    kind = ("record with no deal yet" if not record.deals else "score-only record" if record.score_only
            else "record, replayed card by card")
    click.echo(f"{record_file_name(file)}: a valid {kind}; variant {record.rules.spec()}; "
               f"players {', '.join(names)}")
    results = record.results()
    for r in results:
        # with four at the table the dealer sits out: named as such, not as a player who took 0 tricks and scored 0
        out = r.dealer if record.rules.n_seats > 3 else None
        seats = [s for s in range(len(names)) if s != out]
        tricks = ", ".join(f"{names[s]} {r.tricks[s]}" for s in seats)
        scores = ", ".join(f"{names[s]} {r.scores[s]:+d}" if r.scores[s] else f"{names[s]} 0" for s in seats)
        click.echo(
            f"deal {r.deal_no:>2}: {names[r.chooser]} chose {r.contract.label} ({r.contract.goal}); "
            f"tricks {tricks}; scores {scores}" + (f"; {names[out]} dealt and sat out" if out is not None else "")
        )
    if len(record.deals) > len(results):  # the deal in progress when the record was written (not scored)
        click.echo(_deal_in_progress(record.deals[-1], record.rules))
    if not record.is_over():
        click.echo(f"(the match is not over: {len(results)} of {record.rules.n_deals} deals finished)")
    click.echo("")
    sheet = ScoreSheet(names, results, record.rules).text(terminal_width())
    click.echo(sheet if unicode else ascii_text(sheet))
    if record.is_over():
        outcome = record.outcome()
        winners = " and ".join(names[s] for s in outcome.winners)
        click.echo(f"\nWinner: {winners}" + (" (shared)" if outcome.shared else ""))

