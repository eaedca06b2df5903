"""The line game's ``undo``: the human takes back his last card of the deal (with the computer players' actions
after it) and chooses again, card by card, but never past his exchange, the contract or into a finished deal.

The games are driven as ``mizerka play`` would run them (a seed, ``random`` computer players, scripted answers);
a match with undos is then checked against a plain replay of the actions that stand, through the command too,
and ``--record`` holds only the cards finally played."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.deal import Action, Observation, Phase, Play
from mizerka.match import Match
from mizerka.record import read
from mizerka.rules import parse_variant
from mizerka.terminal import BOT_NAMES, HELP_TEXT, LOCAL_HELP_TEXT, TerminalGame, make_opponents
from mizerka.undo import UndoError, take_back
from tui_helpers import first_legal_answer

VARIANT = "standard,contracts=NT+MZ,first_dealer=2"  # six deals; seat 0 is forehand in deal 1 and leads trick 1
RULES = parse_variant(VARIANT)
SEED = 7
OPTIONS = ["play", "--seed", str(SEED), "--variant", VARIANT, "--opponents", "random", "--ascii"]

Answer = Callable[[Match, Observation], str]
"""A scripted human: the answer to the prompt, from the match and the human's observation of it."""


class Stop(Exception):
    """The script has seen enough."""


def scripted(answer: Answer) -> tuple[Match, list[str], list[str]]:
    """The game ``mizerka play OPTIONS`` runs with the human at seat 0 answering by *answer*; returns the match,
    the answers given and everything written.  *answer* may raise :class:`Stop` to end the game there."""
    match = Match(RULES, players=["You", *BOT_NAMES[:2]], seed=SEED)
    answers: list[str] = []
    output: list[str] = []

    def read_answer(prompt: str) -> str:
        output.append(prompt)
        if len(answers) > 2000:
            raise AssertionError("the game keeps asking: " + "\n".join(output[-6:]))
        answers.append(answer(match, match.observation(0)))
        output.append("> " + answers[-1])
        return answers[-1]

    game = TerminalGame(match, 0, make_opponents(["random", "random"], [1, 2], SEED, RULES), read=read_answer,
                        write=output.append, unicode=False)
    with contextlib.suppress(Stop):
        game.run()
    return match, answers, output


def my_cards(match: Match) -> list[Action]:
    """The human's cards played so far in the deal in progress, in order."""
    deal = match.deal
    return [a for s, a in zip(deal.actors, deal.history, strict=True) if s == 0 and isinstance(a, Play)]


def test_undo_gives_back_the_card_and_the_trick_and_another_card_may_be_played() -> None:
    seen: dict[str, object] = {}

    def answer(match: Match, obs: Observation) -> str:
        if obs.phase is not Phase.PLAY:
            return first_legal_answer(match, 0)
        played = my_cards(match)
        if "before" not in seen:  # the first card of the deal: remember the position, play the first legal card
            seen["before"] = (obs.hand, obs.trick, len(obs.tricks), len(match.deal.history))
            seen["first"] = obs.legal_actions[0]
            return str(obs.legal_actions[0])
        if "undone" not in seen:  # one card later (the bots have answered): take it back
            seen["undone"] = True
            return "undo"
        if "again" not in seen:  # asked again, as before the card
            seen["again"] = (obs.hand, obs.trick, len(obs.tricks), len(match.deal.history))
            assert played == []
            seen["other"] = obs.legal_actions[-1]
            return str(obs.legal_actions[-1])
        raise Stop

    match, _, output = scripted(answer)
    assert seen["again"] == seen["before"]  # the hand, the trick and the history as they were
    first, other = seen["first"], seen["other"]
    assert first != other
    assert my_cards(match)[0] == other and first not in my_cards(match)
    text = "\n".join(output)
    assert f"Taken back: you {first}" in text and "Choose your card again." in text


def test_two_undos_in_a_row_go_back_two_cards_then_stop_at_the_exchange() -> None:
    positions: list[tuple[object, ...]] = []
    script = iter(["card", "card", "undo", "undo", "look", "undo", "look"])

    def answer(match: Match, obs: Observation) -> str:
        if obs.phase is not Phase.PLAY:
            return first_legal_answer(match, 0)
        step = next(script, "stop")
        position = (obs.hand, obs.trick, len(obs.tricks), tuple(match.deal.history))
        if step == "card":
            positions.append(position)
            return str(obs.legal_actions[0])
        if step == "look":
            positions.append(position)
            return "hand"
        if step == "stop":
            raise Stop
        return step

    _, _, output = scripted(answer)
    first, _, back, still = positions
    assert back == first and still == first  # two cards back, and the refused third undo changed nothing
    text = "\n".join(output)
    assert text.count("Taken back: you ") == 2
    assert "Cannot undo: you have played no card since your exchange, and the exchange cannot be taken back: you " \
           "have seen the cards you drew from the talon." in text


def test_undo_is_refused_at_the_contract_the_exchange_and_the_first_card_and_in_a_new_deal() -> None:
    """Each refusal names its reason, and the same prompt asks again with nothing changed."""
    histories: list[tuple[int, tuple[Action, ...]]] = []
    asked: set[tuple[int, Phase]] = set()

    def answer(match: Match, obs: Observation) -> str:
        histories.append((match.deal_no, tuple(match.deal.history)))
        key = (match.deal_no, obs.phase)
        if key not in asked:
            asked.add(key)
            return "undo"
        if match.deal_no == 2 and obs.phase is Phase.PLAY:
            raise Stop
        return first_legal_answer(match, 0)

    match, _, output = scripted(answer)
    text = "\n".join(output)
    assert "Cannot undo: there is nothing of yours to take back in this deal: you have played no card in it " \
           "yet.\nYou are forehand. Choose a contract" in text  # deal 1, the contract prompt
    assert "Cannot undo: the contract is chosen and the rest of your hand is dealt: it cannot be taken back.\n" \
           "Cards to discard" in text
    assert "the exchange cannot be taken back: you have seen the cards you drew from the talon.\nYour card" in text
    # deal 2: the human deals; nothing of his yet, and deal 1 is scored
    assert "Cannot undo: there is nothing of yours to take back in this deal: you have played no card in it yet " \
           "(deal 1 is finished and scored: undo never reopens an earlier deal)." in text
    # every refusal left the position as it was: each prompt after one saw the same history
    for (deal_a, history_a), (deal_b, history_b) in itertools.pairwise(histories):
        if deal_a == deal_b and len(history_b) < len(history_a):
            raise AssertionError("a refused undo took something back")
    assert "Taken back" not in text and match.deal_no == 2


def test_nothing_is_taken_back_once_the_match_is_over() -> None:
    match = Match(RULES, players=["You", "Ala", "Bolek"], seed=SEED)
    while not match.is_over():
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    history = match.history()
    try:
        take_back(match, 0)
    except UndoError as error:
        assert "the match is over" in str(error)
    else:
        raise AssertionError("undo after the end of the match")
    assert match.history() == history


def test_the_help_has_undo_in_a_local_game_only() -> None:
    assert "undo" in LOCAL_HELP_TEXT and "never past your exchange" in LOCAL_HELP_TEXT
    assert "undo" not in HELP_TEXT  # a server's table (tui.remote) shows this one: it has no undo


class UndoNowAndThen:
    """A scripted human who plays the first legal card, but in every deal takes back his second card once, and
    his fifth card and the one before it (two undos in a row); after an undo he plays the last legal card."""

    def __init__(self) -> None:
        self.done: set[tuple[int, int]] = set()
        self.second = False  # the next answer is the second undo in a row
        self.after = False  # the next card follows an undo

    def __call__(self, match: Match, obs: Observation) -> str:
        if obs.phase is not Phase.PLAY:
            return first_legal_answer(match, 0)
        depth = len(my_cards(match))
        if self.second:
            self.second, self.after = False, True
            return "undo"
        if depth in (2, 5) and (match.deal_no, depth) not in self.done:
            self.done.add((match.deal_no, depth))
            self.second = depth == 5
            self.after = not self.second
            return "undo"
        card = obs.legal_actions[-1] if self.after else obs.legal_actions[0]
        self.after = False
        return str(card)


def test_a_match_with_undos_scores_as_the_replay_of_its_final_actions() -> None:
    match, answers, output = scripted(UndoNowAndThen())
    assert match.is_over() and answers.count("undo") == 6 * 3
    assert "\n".join(output).count("Taken back: you ") == answers.count("undo")
    replay = Match(RULES, players=list(match.players), seed=SEED)
    for actions in match.history():
        for action in actions:
            replay.play(action)
    assert replay.is_over() and replay.totals == match.totals and replay.results() == match.results()
    assert str(replay.score_sheet()) == str(match.score_sheet())
    # the same answers through `mizerka play` give the same match, to the last total
    result = CliRunner().invoke(cli, OPTIONS, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Taken back: you ") == answers.count("undo")
    totals = ", ".join(f"{'You' if s == 0 else match.players[s]} {t:+d}" if t else
                        f"{'You' if s == 0 else match.players[s]} 0" for s, t in enumerate(match.totals))
    assert f"The match is over. Totals: {totals}" in result.output


def test_the_record_after_undos_holds_the_cards_finally_played(tmp_path: Path) -> None:
    human = UndoNowAndThen()

    def answer(match: Match, obs: Observation) -> str:
        if match.deal_no == 2:
            raise Stop
        return human(match, obs)

    match, answers, _ = scripted(answer)
    assert answers.count("undo") == 3 and match.deal_no == 2
    path = tmp_path / "game.mzn"
    result = CliRunner().invoke(cli, [*OPTIONS, "--record", str(path)], input="\n".join([*answers, "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "Taken back: you " in result.output and "The record of deal 1 is in" in result.output
    record = read(path)
    (deal,) = record.deals
    assert deal.actions() == list(match.deals[0].history)  # the cards finally played, in their order
    assert record.to_match().results() == match.results()


def test_a_card_after_which_the_human_drew_from_the_stock_is_not_taken_back() -> None:
    """In the seed002-literal variant each player draws from the stock after his card: the card drawn has been
    seen, so that card cannot be taken back (a card played once the stock is empty can)."""
    with pytest.warns(UserWarning, match="not zero-sum"):
        match = Match(parse_variant("seed002-literal"), players=["You", "Ala", "Bolek"], seed=4)
    drew = played_without_draw = False
    while not match.is_over() and match.deal_no == 1 and not (drew and played_without_draw):
        deal = match.deal
        mine = deal.to_move == 0 and deal.phase is Phase.PLAY
        stock = len(deal.stock)
        match.play(deal.forced_action() or next(iter(match.legal_actions)))
        if not mine or match.deal_no != 1:
            continue
        if stock and not drew:
            drew = True
            with pytest.raises(UndoError, match="drew a card from the stock"):
                take_back(match, 0)
        elif not stock and not played_without_draw and match.deal.history:
            played_without_draw = True
            assert take_back(match, 0)[0][0] == 0
    assert drew and played_without_draw
