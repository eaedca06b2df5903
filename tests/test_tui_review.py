"""The review of a finished deal in the local games: the full-screen review screen (opened after a deal and from
the score sheet, verdicts equal to the solver's analysis of the match's record, keys, ASCII, a small screen), the
line game's ``review [N]`` (ASCII only and within 80 columns with ``--ascii``, deal numbers of any length, the dealer
who sat a four-player deal out named as such and not judged), and the deal in progress never reviewable; at a
server's table, a sentence instead."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from mizerka.analysis import MatchAnalysis, analyse_deal, format_analysis
from mizerka.deal import KEEP, Phase
from mizerka.match import Match
from mizerka.record import MatchRecord
from mizerka.rules import Contract, parse_variant
from mizerka.terminal import TerminalGame, make_opponents
from mizerka.tui.model import TableModel
from mizerka.tui.review import (
    REMOTE_REVIEW,
    build_review,
    check_reviewable,
    finished_deals,
    finished_record,
    review_text,
    verdict_text,
)
from test_play_record_files import play
from tui_helpers import scripted

VARIANT = "standard,contracts=NT+MZ,first_dealer=2"  # six deals; seat 0 is forehand in deal 1


def play_until(match: Match, deal_no: int, *, seat: int = 0, mizerka_first: bool = False, seed: int = 1) -> None:
    """Play *match* with random legal actions (the human keeps) until deal *deal_no* has begun."""
    rnd = random.Random(seed)
    while match.deal_no < deal_no and not match.is_over():
        legal = list(match.legal_actions)
        if match.deal.phase is Phase.CHOOSE and mizerka_first:
            choice = next((a for a in legal if getattr(a, "contract", None) is Contract.MIZERKA), legal[0])
        elif match.deal.phase is Phase.EXCHANGE and match.to_move == seat:
            choice = KEEP
        else:
            choice = rnd.choice(legal)
        match.play(choice)


def new_match(seed: int = 3) -> Match:
    return Match(parse_variant(VARIANT), players=["You", "Ala", "Bolek"], seed=seed)


# -- what can be reviewed -------------------------------------------------------------------------------------------


def test_only_finished_deals_are_reviewable_and_the_record_holds_no_deal_in_progress() -> None:
    match = new_match()
    assert finished_deals(match) == [] and "No deal is finished yet" in (check_reviewable(match, 1) or "")
    play_until(match, 2)
    match.play(next(iter(match.legal_actions)))  # deal 2 has begun: its contract is chosen
    assert finished_deals(match) == [1]
    assert check_reviewable(match, 1) is None
    assert "still being played" in (check_reviewable(match, 2) or "")
    assert "not been played yet" in (check_reviewable(match, 3) or "")
    assert "There is no deal 7" in (check_reviewable(match, 7) or "")
    assert "There is no deal 0" in (check_reviewable(match, 0) or "")
    record = finished_record(match)
    assert len(record.deals) == 1  # deal 2, in progress, is not in it: none of its hidden cards
    assert record.deals[0] == MatchRecord.from_match(match).deals[0]


# -- the line game --------------------------------------------------------------------------------------------------


def line_game(match: Match, answers: list[str]) -> tuple[TerminalGame, list[str]]:
    out: list[str] = []
    queue = list(answers)

    def read(prompt: str) -> str:
        out.append(prompt)
        if queue:
            return queue.pop(0)
        raise EOFError

    others = [1, 2]
    game = TerminalGame(match, 0, make_opponents(["random", "random"], others, 1, match.rules), read=read,
                        write=out.append, unicode=False)
    return game, out


def test_the_line_review_command_prints_the_analysis_and_refuses_bad_numbers() -> None:
    match = new_match()
    play_until(match, 2)
    game, out = line_game(match, ["review", "review 2", "review 9", "review x", "review 1"])
    real_review, unchanged = game.review, []

    def review(argument: str = "") -> str:
        before = [list(d.history) for d in match.deals]
        text = real_review(argument)
        unchanged.append([list(d.history) for d in match.deals] == before)
        return text

    game.review = review  # type: ignore[method-assign]
    with pytest.raises(EOFError):
        game.run()
    assert unchanged == [True] * 5  # a review changes nothing
    text = "\n".join(out)
    expected = format_analysis(
        MatchAnalysis(tuple(match.players), match.rules.spec(), (analyse_deal(MatchRecord.from_match(match), 1),)),
        unicode=False)
    flowing = " ".join(text.split())  # the review's long lines go on under themselves (80 columns)
    for line in expected.splitlines():
        if line.startswith("  trick") or line.startswith("Deal 1:"):
            # every verdict of `mizerka analyse`, in ASCII (no suit symbols, x for ✗)
            assert " ".join(line.replace("✗", "x").split()) in flowing
    assert text.count("Deal 1: ") == 2  # "review" (the last finished deal) and "review 1"
    assert "Hands at the start of play:" in text and "♠" not in text
    assert "Deal 2 is still being played: only a finished deal can be reviewed (deal 1)." in text
    assert "There is no deal 9: the match has deals 1-6" in text
    assert "Not a deal number: 'x'" in text


def test_the_line_review_before_any_deal_is_over() -> None:
    game, out = line_game(new_match(), ["review", "review 1"])
    with pytest.raises(EOFError):
        game.run()
    text = "\n".join(out)
    assert text.count("No deal is finished yet: a review is of a finished deal.") == 2
    assert "Analysing" not in text


def test_review_text_reuses_format_analysis() -> None:
    match = new_match()
    play_until(match, 2, mizerka_first=True)
    review = build_review(finished_record(match), 1)
    assert review.analysis.contract is Contract.MIZERKA
    text = review_text(review, unicode=True)
    plain = format_analysis(review.match_analysis(), unicode=True)
    assert set(plain.splitlines()) <= set(text.splitlines())
    # Mizerka: an error takes tricks
    errors = [i for i, p in enumerate(review.analysis.plays) if p.is_error]
    assert errors and all("trick" in verdict_text(review, i, str) and "taken" in verdict_text(review, i, str)
                          for i in errors)


def test_the_remote_line_game_says_where_reviews_are() -> None:
    from mizerka.tui.remote import RemoteLineGame

    assert REMOTE_REVIEW == "review is available in local games; the web app reviews online tables"
    assert RemoteLineGame.review(object.__new__(RemoteLineGame), "1").startswith("Review is available in local")
    assert RemoteLineGame.offers_review is False


# -- the full-screen review ---------------------------------------------------------------------------------------

textual = pytest.importorskip("textual", reason="the tui extra (textual) is not installed")


def make_app(match: Match, *, unicode: bool = True) -> object:
    from mizerka.tui.app import MizerkaApp

    return MizerkaApp(TableModel(match, 0, ["random", "random"], seed=1), bot_delay=0, unicode=unicode)


async def wait_for_review(app: object, pilot: object, deal_no: int) -> object:
    from mizerka.tui.review_screen import ReviewScreen

    for _ in range(400):
        await pilot.pause(0.01)  # type: ignore[attr-defined]
        screen = app.screen  # type: ignore[attr-defined]
        if isinstance(screen, ReviewScreen) and screen.review is not None and screen.review.deal_no == deal_no \
                and screen.query(".trick"):
            return screen
    raise AssertionError("the review did not come")


def test_the_review_screen_after_a_deal() -> None:
    from mizerka.tui.review_screen import ReviewScreen
    from tui_helpers import logged, screen_text

    async def run() -> None:
        match = new_match()
        play_until(match, 2, mizerka_first=True)
        app = make_app(match)
        async with app.run_test(size=(110, 40)) as pilot:  # type: ignore[attr-defined]
            await pilot.pause()
            assert "Press r to review deal 1" in logged(app)
            await pilot.press("r")
            screen = await wait_for_review(app, pilot, 1)
            assert isinstance(screen, ReviewScreen)
            expected = analyse_deal(MatchRecord.from_match(match), 1)
            assert screen.review.analysis == expected  # the solver's verdicts on the match's record
            text = screen.text()
            assert "Review of deal 1 of 6" in text and "Contract: MZ Mizerka, avoid tricks" in text
            assert "Hands at the start of play" in text
            for i, p in enumerate(expected.plays):  # each card with its verdict, in its trick
                block = str(screen.query_one(f"#trick-{p.trick_no}").render())
                assert block.startswith(f"Trick {p.trick_no}: ")
                line = next(line for line in block.splitlines()
                            if line.split()[:2] == [screen.who(p.seat), p.card.unicode()])
                assert verdict_text(screen.review, i, lambda c: c.unicode()) in line
                assert ("✗" in line) == p.is_error
            for s in screen.review.summary():
                cards = "card with a choice, " if s.judged == 1 else "cards with a choice,"
                assert f"{s.judged:>2} {cards} {s.errors:>2} error" in text
            assert "extra tricks taken" in text
            # navigation: down moves the cursor, End goes to the last trick, Home back to the first
            await pilot.press("down", "down")
            await pilot.pause()
            assert screen.selected == 2 and "selected" in screen.query_one("#trick-3").classes
            await pilot.press("end")
            await pilot.pause()
            assert screen.selected == len(screen.review.tricks) - 1
            assert "Per player" in screen_text(app)
            await pilot.press("home")
            await pilot.pause()
            assert screen.selected == 0
            await pilot.press("e")
            await pilot.pause()
            n, with_errors = len(screen.review.tricks), {p.trick_no - 1 for p in expected.errors()}
            assert screen.selected == next(i % n for i in range(1, n + 1) if i % n in with_errors)
            # the game's keys do nothing here: no card played, no undo
            history = list(match.deal.history)
            await pilot.press("enter", "u", "a", "s", "2", "c")
            await pilot.pause()
            assert app.screen is screen and list(match.deal.history) == history
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)
            # cached: opens at once the second time
            assert app.reviews.cache[1] is screen.review  # type: ignore[attr-defined]
            await pilot.press("x")

    asyncio.run(run())


def test_the_review_from_the_score_sheet_in_ascii_on_a_small_screen() -> None:
    from mizerka.tui.app import SheetDialog
    from mizerka.tui.review_screen import ReviewScreen
    from tui_helpers import screen_text

    async def run() -> None:
        match = new_match(seed=5)
        play_until(match, 3)
        while match.deal.phase is not Phase.PLAY or match.to_move != 0:  # deal 3: your card to play
            match.play(KEEP if match.deal.phase is Phase.EXCHANGE and match.to_move == 0
                       else next(iter(match.legal_actions)))
        app = make_app(match, unicode=False)
        async with app.run_test(size=(60, 16)) as pilot:  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, SheetDialog)
            text = screen_text(app)
            assert "r reviews deal 2" in text.replace("\n", " ") or "r reviews" in text
            await pilot.press("3", "r")  # deal 3 is in progress: refused, the sheet stays
            await pilot.pause()
            assert isinstance(app.screen, SheetDialog)
            await pilot.press("1", "r")
            screen = await wait_for_review(app, pilot, 1)
            assert screen.review.analysis == analyse_deal(MatchRecord.from_match(match), 1)  # type: ignore[attr-defined]
            shown = screen_text(app)
            assert "Review of deal 1" in shown
            assert not any(s in shown for s in "♠♥♦♣"), shown  # --ascii: no suit symbols
            lines = shown.splitlines()
            assert len(lines) <= 16 and all(len(line) <= 60 for line in lines)  # it scrolls, it does not overflow
            await pilot.press("right_square_bracket")  # the next finished deal
            screen = await wait_for_review(app, pilot, 2)
            await pilot.press("end")
            await pilot.pause()
            assert "Per player" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)
            assert app.model.match.deal_no == 3  # type: ignore[attr-defined]

    asyncio.run(run())


def test_the_analysis_runs_in_a_worker_while_the_screen_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from mizerka.tui import review_screen
    from mizerka.tui.review_screen import ReviewScreen

    release = threading.Event()
    calls: list[int] = []
    real = review_screen.build_review

    def slow(*args: object, **kwargs: object) -> object:
        calls.append(1)
        assert threading.current_thread() is not threading.main_thread()  # never on the screen's thread
        release.wait(10)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_screen, "build_review", slow)

    async def run() -> None:
        match = new_match()
        play_until(match, 2)
        app = make_app(match)
        async with app.run_test(size=(100, 30)) as pilot:  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            screen = app.screen  # type: ignore[attr-defined]
            assert isinstance(screen, ReviewScreen) and screen.review is None
            assert "analysing…" in screen.text()
            await pilot.press("escape")  # the screen answers while the solver works
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)  # type: ignore[attr-defined]
            await pilot.press("r")  # again: the same worker, not a second one
            release.set()
            screen = await wait_for_review(app, pilot, 1)
            await pilot.press("escape", "r")
            await pilot.pause()
            assert app.screen.review is not None  # type: ignore[attr-defined]  # cached: at once
            assert len(calls) == 1

    asyncio.run(run())


def test_the_deal_in_progress_is_never_reviewed_on_screen() -> None:
    from mizerka.tui.review_screen import ReviewScreen

    async def run() -> None:
        app = make_app(new_match())
        async with app.run_test(size=(100, 30)) as pilot:  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.press("n", "enter")  # no-trump, keep
            await pilot.pause()
            assert app.check_action("review", ()) is False  # type: ignore[attr-defined]  # not in the footer
            await pilot.press("r")
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)
            app.open_review(1)  # type: ignore[attr-defined]  # deal 1 is in progress
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)

    asyncio.run(run())


def test_the_server_game_screen_says_where_reviews_are() -> None:
    from mizerka.tui.remote_app import RemoteApp

    notes: list[str] = []
    app = object.__new__(RemoteApp)
    app.notify = lambda text, **_: notes.append(text)  # type: ignore[method-assign]
    app.action_review()
    assert notes == ["Review is available in local games; the web app reviews online tables."]


# -- the line game's review: --ascii in 80 columns, long numbers, four at the table ----------------------------------


def test_the_line_review_in_ascii_fits_80_columns(tmp_path: Path) -> None:
    code, output = play(tmp_path / "game.mzn", ["review"])
    assert code == 0, output
    review = output[output.index("Analysing deal 1"):output.index("Summary")]
    assert "cost" in review  # an error with its best cards, the longest lines
    assert review.isascii(), sorted({c for c in review if not c.isascii()})  # before: ✗ and …
    assert max(len(line) for line in review.splitlines()) <= 79  # before: up to 100


def test_review_with_long_numbers(tmp_path: Path) -> None:
    code, output = play(tmp_path / "game.mzn", ["review 9999999", "review " + "9" * 5000, "review 0000001"])
    assert code == 0, output
    assert "There is no deal 9999999: the match has deals 1-6." in output  # before: "Not a deal number"
    assert "There is no deal 999999999999...: the match has deals 1-6." in output
    assert "Analysing deal 1..." in output  # leading zeros: deal 1


def test_the_review_of_a_four_player_deal_says_the_dealer_sat_out() -> None:
    """``review``'s summary gave the dealer, who sat the deal out, "0 cards with a choice, 0 errors"."""
    match = Match(parse_variant("four-players,contracts=NT,first_dealer=3"),
                  players=["You", "Ala", "Bolek", "Cezary"], seed=5)
    while match.deal_no == 1:
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    game, _ = scripted(match, 0, [])
    text = game.review("1")
    summary = text.split("\nSummary\n", 1)[1].splitlines()
    assert summary[3].split() == ["Cezary", "sat", "out", "(the", "dealer)"]
    assert all("with a choice" in line for line in summary[:3])
    assert "Cezary" not in " ".join(line for line in text.splitlines() if line.startswith("  trick"))
