"""``mizerka play``: the full-screen game at a terminal, the line game with ``--plain`` or through a pipe.

This module needs only click and the core; Textual (the ``tui`` extra) is imported when the full-screen game
starts, so ``mizerka play --plain`` works without it.  The line game is :mod:`mizerka.terminal`'s.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING

import click

from mizerka.cli import NumberRange, variant_option
from mizerka.rules import Rules
from mizerka.tui.model import TableModel

if TYPE_CHECKING:
    from mizerka.tui.app import MizerkaApp
    from mizerka.tui.resume import Resumed

__all__ = ["build_app", "play_command"]


# -- mizerka play -----------------------------------------------------------------------------------------------


@click.command("play")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="seed for the deals and the bots (default: random)")
@variant_option
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="your seat, 0 to n-1 (seat 0 need not deal first: the first dealer is drawn by lot from the "
                   "seed, unless --variant sets first_dealer=S)")
@click.option("--name", default="You", show_default=True, help="your name on the score sheet")
@click.option("--opponents", default="rules", show_default=True, metavar="LEVEL[,LEVEL]",
              help="computer players' levels, one per other seat, or one for all (random, rules, …)")
@click.option("--unicode/--ascii", default=None,
              help="suit symbols or letters: the line game, and the full-screen game's deal review")
@click.option("--plain", is_flag=True, help="the line game, for screen readers and pipes (also when not a terminal)")
@click.option("--bot-delay", type=NumberRange(min=0, max=10), default=0.6, show_default=True,
              help="seconds between the computer players' moves in the full-screen game")
@click.option("--connect", metavar="URL", default=None,
              help="join a table on a mizerka server with its invite link (http://host:port/?table=ID)")
@click.option("--watch", is_flag=True,
              help="with --connect: watch the table as a spectator (no seat: the table and the chat as everyone sees "
                   "them, never a hand; the table must admit spectators).  You may sit down later (i full screen, "
                   "sit in the line game) at an open seat, or in for a computer player during an unrated match, "
                   "as --name (or your profile, with --player-key)")
@click.option("--new-seat", is_flag=True,
              help="with --connect: take a free seat even if you hold one at that table (remembered seats are "
                   "taken back by default)")
@click.option("--player-key", metavar="KEY", default=None, envvar="MIZERKA_PLAYER_KEY", show_envvar=True,
              help="with --connect: sit as your profile (a claimed name; needed at rated tables), with the secret key "
                   "the server gave when you claimed it (browser lobby or POST /api/players).  Better set "
                   "MIZERKA_PLAYER_KEY than type it here, where it lands in your shell history")
@click.option("--find-players", "find", is_flag=True,
              help="with --connect SERVER (its address, no table): quick pairing, as the lobby's Find players: a seat "
                   "at the table waiting for players under --variant with the most of them, else (unrated) a "
                   "computer player's seat in an open match under way, or a new open table the next player joins")
@click.option("--rated", is_flag=True, help="with --find-players: rated tables only (needs --player-key)")
@click.option("--record", "record_name", metavar="FILE", default=None,
              help="write the game record of the finished deals to FILE after each deal, for mizerka replay and "
                   "mizerka analyse (JSON if FILE ends in .json, else text; an existing file is replaced only if "
                   "it is a mizerka record)")
@click.option("--resume", metavar="FILE", default=None,
              help="go on with the match whose record is in FILE (written by --record; the record goes on there "
                   "unless --record names another file): the same players, variant and computer players, the deals "
                   "to come shuffled from --seed.  Another played match's record needs --seat")
@click.pass_context
def play_command(ctx: click.Context, seed: int | None, rules: Rules, seat: int, name: str, opponents: str,
                 unicode: bool | None, plain: bool, bot_delay: float, connect: str | None, watch: bool,
                 new_seat: bool, player_key: str | None, find: bool, rated: bool, record_name: str | None,
                 resume: str | None) -> None:
    """Play a whole match against computer players: full screen at a terminal, or line by line.

    Full screen: ← → and Enter play your cards, ? gives a hint, u takes back your last card (and the computer
    players' moves after it; never past your exchange or contract), l shows the last trick, p the score sheet,
    r reviews a finished deal card by card, F1 all keys, x quits.  Use --plain (or pipe the output) for the
    line game, where undo does the same.

    With --record FILE the match's record is written after each deal; --resume FILE goes on with it after you
    left it.  With --connect URL, play at a server's table (--watch: watch it as a spectator); once its match is
    over, n (full screen) or rematch (line game) asks for a rematch with the same players.  With --connect SERVER
    --find-players, play with whoever the server pairs you with (mizerka tables SERVER lists its open tables).
    """
    from mizerka import terminal

    def given(option: str) -> bool:
        return ctx.get_parameter_source(option) is not click.core.ParameterSource.DEFAULT

    resumed = None
    if resume is not None:
        if connect is not None:
            raise click.UsageError("--resume cannot be used with --connect: a server's table goes on at the server")
        for option, flag, why in (("rules", "--variant", "says the variant"), ("name", "--name", "names the players")):
            if given(option):
                raise click.UsageError(f"{flag} cannot be used with --resume: the record {why}")
        from mizerka.tui.resume import resume_match

        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        resumed = resume_match(resume, seed=seed, seat=seat if given("seat") else None,
                               opponents=opponents if given("opponents") else None)
        rules = resumed.match.rules

    if find and connect is None:
        raise click.UsageError("--find-players goes with --connect SERVER (the server's address: it pairs you there)")
    if rated and not find:
        raise click.UsageError("--rated goes with --find-players (it pairs you at rated tables only)")
    if find:
        for used, flag in ((watch, "--watch"), (new_seat, "--new-seat")):
            if used:
                raise click.UsageError(f"{flag} cannot be used with --find-players: the pairing finds your seat")

    if new_seat and connect is None:
        raise click.UsageError("--new-seat goes with --connect (it chooses a seat at a server's table)")
    if watch and connect is None:
        raise click.UsageError("--watch goes with --connect (it watches a server's table: --connect URL --watch)")
    if watch and new_seat:
        raise click.UsageError("--new-seat cannot be used with --watch: a spectator takes no seat (to sit down "
                               "later, press i full screen or type sit in the line game)")
    if connect is None and ctx.get_parameter_source("player_key") is click.core.ParameterSource.COMMANDLINE:
        # MIZERKA_PLAYER_KEY alone is no mistake: it may stay set for the games at a server
        raise click.UsageError("--player-key goes with --connect (it takes a seat at a server's table as your profile)")
    if connect is not None:
        from mizerka.tui.remote import play_remote

        if record_name is not None:
            raise click.UsageError(terminal.RECORD_AT_SERVER)

        table_options = (("seed", "--seed"), ("seat", "--seat"), ("opponents", "--opponents"),
                         ("bot_delay", "--bot-delay")) + (() if find else (("rules", "--variant"),))
        for option, flag in table_options:
            if given(option):
                raise click.UsageError(f"{flag} cannot be used with --connect: the server's table decides it")
        play_remote(connect, name=name if given("name") else None, plain=plain, unicode=unicode, fresh_seat=new_seat,
                    player_key=player_key, watch=watch, find=find, variant=rules.spec(),
                    rated=rated)
        return
    if plain or not sys.stdout.isatty() or not sys.stdin.isatty():
        terminal.play_line_game(seed, rules, seat, name, opponents, unicode, record_name, resumed)
        return
    try:
        import textual  # noqa: F401
    except ImportError:
        click.echo("The full-screen game needs the tui extra (pip install 'mizerka[tui]'); "
                   "playing the line game.", err=True)
        terminal.play_line_game(seed, rules, seat, name, opponents, unicode, record_name, resumed)
        return
    app = build_app(seed=seed, rules=rules, seat=seat, name=name, opponents=opponents, bot_delay=bot_delay,
                    unicode=unicode is not False, record=record_name, resumed=resumed)
    if resumed is not None:
        click.echo(f"Resuming {click.format_filename(resumed.path)} at {resumed.where()}…")
    app.run()
    match = app.model.match
    click.echo(f"Match left in deal {match.deal_no} of {match.n_deals}; totals "
               + ", ".join(f"{n} {t:+d}" for n, t in zip(match.players, match.totals, strict=True)))
    if app.record is not None:
        click.echo(app.record.where())


def build_app(*, seed: int | None, rules: Rules, seat: int, name: str, opponents: str,
              bot_delay: float = 0.6, unicode: bool = True, record: str | None = None,
              resumed: Resumed | None = None) -> MizerkaApp:
    """The app for the options of ``mizerka play``; *record* is ``--record FILE``; *resumed* is the match of
    ``--resume FILE`` (:func:`mizerka.tui.resume.resume_match`), whose seat and levels replace *seat*, *name* and
    *opponents*, and whose file gets the record unless *record* names another.

    Raises:
        click.BadParameter: for a seat, name, bot level or record file that cannot be used.
    """
    from mizerka import terminal

    match, seat, levels, seed, record_file = terminal.local_table(seed, rules, seat, name, opponents, record, resumed)
    try:
        model = TableModel(match, seat, levels, seed=seed)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--opponents'") from None
    from mizerka.tui.app import MizerkaApp

    return MizerkaApp(model, bot_delay=bot_delay, unicode=unicode, record=record_file, resumed=resumed)


@click.command("tables")
@click.argument("url", metavar="URL")
@click.option("--limit", type=click.IntRange(min=1, max=500), default=100, show_default=True,
              help="list at most this many tables (the waiting ones come first)")
@click.option("--json", "as_json", is_flag=True, help="one JSON object: the tables and how many the server lists")
def tables_command(url: str, limit: int, as_json: bool) -> None:
    """List the open tables of the server at URL (its address, or any link to it), each with its invite link.

    The tables are the public ones (listed by whoever made them: the browser lobby's "List it under open tables",
    or POST /api/tables with "visibility": "public"), those waiting for players first.  Take a free seat with
    mizerka play --connect LINK (during a match at an unrated table, the seat of a computer player: you take it
    over), or watch with --watch.  A private table is reached only by its invite link.
    """
    import dataclasses

    from mizerka.cli import InputError, echo_json
    from mizerka.tui.remote import RemoteError, open_tables, parse_server

    try:
        server = parse_server(url)
    except RemoteError as error:
        raise InputError(str(error)) from None
    try:
        tables, total = open_tables(server, limit=limit)
    except RemoteError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        echo_json({"server": server, "total": total, "tables": [dataclasses.asdict(tb) for tb in tables]})
        return
    if not tables:
        click.echo(f"No open tables at {server} right now (make one in the browser lobby: \"List it under open "
                   "tables\").")
        return
    for tb in tables:
        seats = ("no free seat" if tb.free_seats == 0 else "1 free seat" if tb.free_seats == 1
                 else f"{tb.free_seats} free seats")
        if tb.takeover_seats:  # a match under way, so no seat is free (open seats are a waiting table's)
            seats += (f": {'a' if tb.takeover_seats == 1 else tb.takeover_seats} computer player"
                      f"{'s' if tb.takeover_seats != 1 else ''} to take over")
        marks = [tb.status, seats] + (["rated"] if tb.rated else []) + ([] if tb.spectators else ["no spectators"])
        click.echo(f"{tb.name or tb.id}  ({tb.variant}; {', '.join(marks)})")
        click.echo(f"  players: {', '.join(tb.players) if tb.players else 'nobody yet'}")
        click.echo(f"  {tb.link}")
    if total > len(tables):
        click.echo(f"Showing {len(tables)} of {total} (--limit shows more).")
