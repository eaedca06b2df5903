"""``mizerka arena``: the duplicate arena on the command line, with a progress bar, a ranking table and a plot.

Needs the ``cli`` extra (click, rich: without rich the command says to install it, :func:`mizerka.cli.missing_extra`);
``--plot`` needs matplotlib; ``--backend ray`` needs the ``ray`` extra.

A 95% interval needs two duplicate matches at least: with one, the table shows ``–`` and ``--json`` gives ``null``
for it (:func:`mizerka.arena.ci95` gives 0 there, which would read as a certain result).
"""

from __future__ import annotations

import dataclasses
import json
import os
import warnings
from pathlib import Path

import click

from mizerka.arena import BACKENDS, NO_INTERVAL, TABLES, ArenaError, ArenaResult, run_arena
from mizerka.bots import BOT_LEVELS, Budget, BudgetError, UnknownBotError, level_name
from mizerka.cli import VARIANT_HELP, missing_extra, read_variant, warn_if_no_solver_kernel

__all__ = ["NO_INTERVAL", "arena_command"]


def _plot(result: ArenaResult, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise click.ClickException("--plot needs matplotlib: pip install matplotlib") from None
    figure, axes = plt.subplots(figsize=(7, 4))
    xs = list(range(1, result.matches + 1))
    for i, curve in enumerate(result.running()):
        # markers: a line through one point draws nothing, and one match would give an empty chart
        axes.plot(xs, curve, marker="o", markersize=3, label=f"{i}: {result.bots[i]}")
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of matches: no tick at 1.5
    axes.set_xlabel("duplicate matches")
    axes.set_ylabel("running mean points per deal")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, format=path.rsplit(".", 1)[-1].lower())  # by its suffix: '.png' is not saved as '.png.png'
    plt.close(figure)


def _canonical(name: str) -> str:
    """A level's name as :func:`~mizerka.bots.level_name` writes it, or *name* unchanged where it names no level
    (the arena names an unknown bot, --budget an unknown level)."""
    try:
        return level_name(name)
    except UnknownBotError:
        return name


_HELP = f"""Play duplicate matches between BOTS: one level per seat, of {", ".join(BOT_LEVELS)} (weakest first).

Each duplicate match deals the same decks at one table per seating of the bots: every order of the bots over
the seats (--tables all, the default), or only the rotations of the order given (--tables rotations).  A bot's
result is its mean over those tables, so the luck of the cards cancels (see docs/arena.md).
"""
"""The command's help: the levels come from :data:`~mizerka.bots.BOT_LEVELS` (weakest first)."""


@click.command("arena", help=_HELP)
@click.argument("bots", nargs=-1, required=True)
@click.option("--matches", "-n", type=int, default=10, show_default=True, help="Duplicate matches to play.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Arena seed (decks, dealers, bot seeds).")
@click.option("--variant", default="standard", show_default=True, metavar="SPEC",
              help=VARIANT_HELP[:1].upper() + VARIANT_HELP[1:] + ".")
@click.option("--workers", type=int, default=None, help="Worker processes (default: all CPUs).")
@click.option("--backend", type=click.Choice(BACKENDS), default="process", show_default=True,
              help="Where the matches run: worker processes, one after another in this process, or Ray tasks "
                   "(the ray extra).")
@click.option("--tables", type=click.Choice(TABLES), default="all", show_default=True,
              help="Seatings per duplicate match: every permutation, or the rotations of the given order only.")
@click.option("--budget", "budgets", multiple=True, metavar="BOT:SPEC",
              help="Override a level's budget, e.g. 'pimc:worlds=8' or 'ismcts:simulations=300,time=0.5'.")
@click.option("--save-records", type=click.Path(file_okay=False), default=None, help="Save every table's record here.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, help="Write the running scores (PNG or SVG).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def arena_command(
    bots: tuple[str, ...], matches: int, seed: int, variant: str, workers: int | None, backend: str, tables: str,
    budgets: tuple[str, ...], save_records: str | None, plot: str | None, as_json: bool,
) -> None:
    try:  # rich is the cli extra's, but click may come without it (the server extra brings click)
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    except ImportError as error:
        raise missing_extra("arena", error) from None
    rules, _ = read_variant(variant, param_hint="--variant")
    bots = tuple(map(_canonical, bots))  # 'PIMC' is the pimc level here too, as for make_bot and the arena
    overrides: dict[str, Budget] = {}
    for item in budgets:
        level, sep, spec = item.partition(":")
        name = _canonical(level)
        if not sep or name not in BOT_LEVELS:
            raise click.BadParameter(f"expected LEVEL:SPEC with a known level, not {item!r}", param_hint="--budget")
        if not spec.strip():  # 'pimc:' changed nothing
            raise click.BadParameter(f"{item!r} gives no budget field (e.g. '{name}:worlds=8')", param_hint="--budget")
        try:
            budget = Budget.parse(spec)
        except BudgetError as error:
            raise click.BadParameter(str(error), param_hint="--budget") from None
        if name not in bots and all(b in BOT_LEVELS for b in bots):  # (an unknown bot is named by the arena)
            # a budget that would change nothing: most likely a typo for a level that plays
            raise click.BadParameter(f"{item!r}: no {name} bot plays in this arena (bots: {', '.join(bots)})",
                                     param_hint="--budget")
        reads = BOT_LEVELS[name].bot_class.budget_fields
        for field in ("time", "worlds", "simulations"):  # a field the level never reads would change nothing too
            if getattr(budget, field) is not None and field not in reads:
                known = f"it reads only {', '.join(sorted(reads))}" if reads else "it reads no budget field"
                raise click.BadParameter(f"{item!r}: the {name} level never reads {field} ({known})",
                                         param_hint="--budget")
        # a level given twice: the fields add up ('pimc:worlds=8' then 'pimc:time=1'), the later one wins a field
        overrides[name] = budget.merged(overrides[name]) if name in overrides else budget
    if save_records is not None and not save_records.strip():  # '' is the current folder to pathlib
        raise click.BadParameter("the records' folder must be named, not empty", param_hint="--save-records")
    # click refuses a regular file; a device, a FIFO or a looping link was "cannot save records in '/dev/null':
    # File exists", the folder's making failing
    if save_records is not None and os.path.lexists(save_records) and not os.path.isdir(save_records):
        raise click.BadParameter(f"{save_records!r} exists and is not a folder: name a folder (a new one is made)",
                                 param_hint="--save-records")
    if plot is not None and not plot.lower().endswith((".png", ".svg")):
        raise click.BadParameter("the plot file must end in .png or .svg", param_hint="--plot")
    if plot is not None and os.path.lexists(plot) and not os.path.isfile(plot):  # a FIFO, a broken link: refused
        # before the run (it failed after the whole run, "not seekable"); click refuses a folder
        raise click.BadParameter(f"{plot!r} exists and is not a regular file", param_hint="--plot")
    if plot is not None:  # checked before the run, which the plot comes after
        folder = Path(plot).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise click.BadParameter(f"cannot write {plot!r}: {str(folder)!r} is not a writable folder",
                                     param_hint="--plot")
    # no more processes than matches: each match is one job, so the rest would idle (the process pool starts every
    # worker at once: '--workers 100000' forked 100000 processes for two matches); the results are the same
    pool_size: int | None = workers  # a bad count is left for the arena to name
    if workers is None and backend == "ray":
        pool_size = None  # Ray's own default: every CPU of the local cluster
    elif workers is None or workers >= 1:
        pool_size = min(workers or os.cpu_count() or 1, matches)
    if any(bot not in ("random", "rules") for bot in bots):  # a search level: it solves
        warn_if_no_solver_kernel()
    console = Console(stderr=True)
    # the bar is for a terminal: elsewhere (a log file, a pipe, a test) rich's transient bar left an empty line on
    # stderr at every run, before a usage error's message too
    try:
        with warnings.catch_warnings(), Progress(TextColumn("arena"), BarColumn(), MofNCompleteColumn(),
                                                 TimeElapsedColumn(), console=console, transient=True,
                                                 disable=not console.is_terminal) as progress:
            warnings.simplefilter("ignore", UserWarning)  # the variant's warning, said above (forked workers too)
            task = progress.add_task("matches", total=matches)
            result = run_arena(
                list(bots), matches, seed=seed, rules=rules, workers=pool_size, backend=backend,
                budgets=[overrides.get(b) for b in bots], record_dir=save_records, tables=tables,
                progress=lambda done, total: progress.update(task, completed=done),
            )
    except (ArenaError, UnknownBotError) as error:
        raise click.UsageError(str(error)) from None
    except KeyboardInterrupt:  # Ctrl-C: exit status 130 (128 + SIGINT), as the other commands that run long
        click.echo("Aborted!: no result is printed (--save-records keeps the record of each table as it ends)",
                   err=True)
        raise click.exceptions.Exit(130) from None
    for incident in result.incidents:  # escaped: '[position: …]' and a bot's own '[...]' are text, not markup
        console.print(f"[yellow]incident:[/] {escape(str(incident))}", soft_wrap=True)  # one line each
    _print_result(result, seed, as_json)
    if plot is not None:  # after the results, so that a plot that cannot be written loses nothing
        try:
            _plot(result, plot)
        except OSError as error:
            raise click.ClickException(f"cannot write the plot {plot!r}: {error.strerror or error}") from None


def _print_result(result: ArenaResult, seed: int, as_json: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    interval = result.has_interval
    if as_json:
        data = result.to_dict()
        if not interval:
            data["stats"] = [dict(dataclasses.asdict(s), per_match_ci=None, per_deal_ci=None) for s in result.stats()]
        click.echo(json.dumps(data))
        return
    matches = f"{result.matches} duplicate match{'' if result.matches == 1 else 'es'}"
    table = Table(title=f"{matches} × {result.tables_per_match} tables, seed {seed}")
    for column in ("#", "bot", "points/deal", "± 95%", "points/match", "± 95% "):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, s in enumerate(result.ranking(), start=1):
        table.add_row(str(rank), f"{s.index}: {s.bot}", f"{s.per_deal:+.3f}",
                      f"{s.per_deal_ci:.3f}" if interval else NO_INTERVAL,
                      f"{s.per_match:+.2f}", f"{s.per_match_ci:.2f}" if interval else NO_INTERVAL)
    Console().print(table)
