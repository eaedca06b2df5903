"""The terminal game: whole matches driven by scripted answers, bad input, hidden information, clean exits."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from mizerka.cards import CARDS, Card, CardSet
from mizerka.cli import cli
from mizerka.deal import KEEP, Action, Exchange, Observation, Phase
from mizerka.match import Match
from mizerka.rules import STANDARD, parse_variant
from mizerka.terminal import BOT_NAMES, QuitGame, TerminalGame, make_opponents
from tui_helpers import first_legal_answer


def scripted_game(seed: int, seat: int = 0, levels: tuple[str, str] = ("rules", "rules"), rules: object = STANDARD
                  ) -> tuple[TerminalGame, list[str], list[str]]:
    """The game `mizerka play --seed seed --seat seat` would run, answered by :func:`first_legal_answer`."""
    assert rules is STANDARD or hasattr(rules, "n_seats")
    n = STANDARD.n_seats
    others = [s for s in range(n) if s != seat]
    players = [""] * n
    players[seat] = "You"
    for other, name in zip(others, BOT_NAMES, strict=False):
        players[other] = name
    match = Match(STANDARD, players=players, seed=seed)
    answers: list[str] = []
    output: list[str] = []

    def read(prompt: str) -> str:
        output.append(prompt)
        if len(answers) > 1000:
            raise RuntimeError("the game keeps asking: " + "\n".join(output[-5:]))
        answer = first_legal_answer(match, seat)
        answers.append(answer)
        return answer

    game = TerminalGame(match, seat, make_opponents(list(levels), others, seed), read=read, write=output.append)
    return game, answers, output


def test_a_whole_match_through_the_command_line() -> None:
    game, answers, _ = scripted_game(seed=11, seat=1)
    outcome = game.run()
    assert game.match.is_over() and sum(outcome.totals) == 0
    # The same seed and the same answers through `mizerka play` give the same match, to the last total.
    args = ["play", "--seed", "11", "--seat", "1", "--ascii"]
    result = CliRunner().invoke(cli, args, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The match is over." in out
    assert out.count("=== Deal ") == 18  # --ascii: ASCII only
    assert out.count("player  C  D  H  S  NT  MZ  total") >= 18  # the score sheet after every deal, in letters
    names = game.match.players
    totals = ", ".join(
        (("You" if s == 1 else names[s]) + (f" {t:+d}" if t else " 0")) for s, t in enumerate(outcome.totals)
    )
    assert f"The match is over. Totals: {totals}" in out
    assert "Traceback" not in out


def test_the_human_sees_only_their_own_cards() -> None:
    game, _, output = scripted_game(seed=4, seat=0, levels=("random", "random"))
    match = game.match
    # After each deal, no line may show a card the human never held, drew or saw played.
    seen: set[int] = set()
    game.write = output.append
    game.run()
    for deal in match.deals:
        obs = deal.observation(0)
        seen |= set(obs.dealt) | set(obs.drawn) | set(obs.discards) | set(obs.played)
    text = "\n".join(output)
    shown = {int(c) for c in CARDS if re.search(rf"(?<![\w♠♥♦♣]){re.escape(c.unicode())}(?![\w♠♥♦♣])", text)}
    assert shown <= seen
    # Other players' exchanges appear only as counts.
    assert re.search(r"(Ala|Bolek) (exchanges \d+ cards?|keeps)\.", text)


def test_forced_sixth_contract_is_announced_not_asked() -> None:
    rules = parse_variant("standard,contracts=NT+MZ,first_dealer=2")  # seat 0 chooses deals 1 and 4
    match = Match(rules, players=["You", "Ala", "Bolek"], seed=2)
    prompts: list[str] = []
    output: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return first_legal_answer(match, 0)

    game = TerminalGame(match, 0, make_opponents(["random", "random"], [1, 2], 2), read=read, write=output.append)
    game.run()
    assert sum("Choose a contract" in p for p in prompts) == 1
    assert any("Your only unused contract is" in line and "it is chosen for you" in line for line in output)


def run_with_answers(answers: list[str], seed: int = 3) -> tuple[list[str], list[str], Match]:
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=seed, first_dealer=2)  # seat 0 is forehand
    script = iter(answers)
    output: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(match, 0, make_opponents(["rules", "rules"], [1, 2], seed), read=read, write=output.append)
    with pytest.raises(EOFError):
        game.run()
    return output, prompts, match


def test_bad_answers_are_refused_with_the_reason_and_change_nothing() -> None:
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=3, first_dealer=2)
    match.play("H")  # on a copy of the game, to learn the full hand
    not_mine = next(c for c in CARDS if c not in match.observation(0).hand)
    output, prompts, match = run_with_answers(["XY", "ZZ", "choose H", f"{not_mine} {not_mine}", str(not_mine)])
    text = "\n".join(output)
    assert "Not accepted: invalid action 'XY'" in text
    assert "Not accepted: invalid action 'ZZ'" in text
    assert f"cannot discard {not_mine}: not in seat 0's hand" in text or "listed twice" in text
    assert match.deal.history[0].contract.symbol == "♥"
    assert match.deal.exchange_counts[0] is None  # no exchange happened
    assert prompts[0].startswith("You are forehand. Choose a contract")
    assert prompts[-1].startswith("Cards to discard")


def test_revoke_is_refused_with_the_rule() -> None:
    """Playing another suit while holding the suit led is refused, naming the rule; the same prompt comes back."""
    for seed in range(20):
        match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=seed, first_dealer=1)  # seat 0 is middlehand
        output: list[str] = []
        tried: list[str] = []

        def read(prompt: str, match: Match = match, tried: list[str] = tried) -> str:
            obs = match.observation(0)
            if obs.phase is Phase.PLAY and obs.trick and not tried:
                led = obs.trick[0].suit
                off_suit = [c for c in obs.hand if c.suit != led]
                if obs.hand.of_suit(led) and off_suit:
                    tried.append(str(off_suit[0]))
                    return tried[0]
            if tried:
                raise QuitGame
            return first_legal_answer(match, 0)

        game = TerminalGame(match, 0, make_opponents(["rules", "rules"], [1, 2], seed), read=read, write=output.append)
        with pytest.raises(QuitGame):
            game.run()
        if tried:
            card = Card.from_str(tried[0])
            assert any(f"Not accepted: {card.unicode()} cannot be played: follow suit" in line for line in output)
            assert match.deal.trick and len(match.deal.trick) == 1  # the bad card was not played
            return
    pytest.fail("no seed gave a chance to revoke")


def test_discarding_more_than_the_talon_holds_is_refused() -> None:
    """The dealer exchanges last: after forehand takes ten cards from the talon only three are left."""
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=8, first_dealer=0)  # seat 0 deals
    random_players = make_opponents(["random", "random"], [1, 2], 8)

    def greedy_forehand(obs: Observation) -> Action:
        if obs.phase is Phase.EXCHANGE:
            return Exchange(CardSet(sorted(obs.hand)[:10]))
        return random_players[1](obs)

    def keeper(obs: Observation) -> Action:
        return KEEP if obs.phase is Phase.EXCHANGE else random_players[2](obs)

    five = sorted(match.deal.hand(0))[:0]  # filled in once the human's hand is complete
    answers: list[str] = []
    output: list[str] = []

    def read(prompt: str) -> str:
        obs = match.observation(0)
        if obs.phase is Phase.EXCHANGE and not answers:
            answers.append(" ".join(str(c) for c in sorted(obs.hand)[:5]))
            return answers[0]
        if obs.phase is Phase.EXCHANGE:
            answers.append("-")
            return "-"
        raise QuitGame

    game = TerminalGame(match, 0, {1: greedy_forehand, 2: keeper}, read=read, write=output.append)
    with pytest.raises(QuitGame):
        game.run()
    assert not five
    assert "Ala exchanges 10 cards." in output
    assert any("Not accepted: illegal action exchange" in line and "only 3 left in the talon" in line
               for line in output)
    assert any(p == "-" for p in answers[1:])
    assert match.deal.exchange_counts == [0, 10, 0]
    assert "You keep your hand." in output


def test_help_hand_sheet_last_and_quit() -> None:
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=3, first_dealer=2)
    answers = iter(["?", "hand", "sheet", "last", "", "quit"])
    output: list[str] = []
    game = TerminalGame(match, 0, make_opponents(["rules", "rules"], [1, 2], 3),
                        read=lambda prompt: next(answers), write=output.append)
    with pytest.raises(QuitGame):
        game.run()
    text = "\n".join(output)
    assert "Commands at any prompt" in text
    assert "Your hand:" in text
    assert "player  ♣  ♦  ♥  ♠  NT  MZ  total" in text
    assert "No trick has been played in this deal yet." in text
    assert "Please answer" in text
    assert not match.deal.history  # nothing was played


def test_a_seat_without_a_player_is_an_error() -> None:
    match = Match(STANDARD, seed=1)
    with pytest.raises(ValueError, match="no computer player for seat"):
        TerminalGame(match, 0, {1: lambda obs: obs.legal_actions[0]}, read=input, write=print)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "nonsense"], "unknown variant: 'nonsense'"),
        (["--variant", "standard,bogus=1"], "unknown option 'bogus=1'"),
        (["--seed", "abc"], "'abc' is not a valid integer"),
        (["--seed", "-4"], "-4 is not in the range x>=0"),
        (["--seat", "3"], "seat 3 is not at a 3-player table"),
        (["--seat", "x"], "'x' is not a valid integer"),
        (["--opponents", "rules,genius"], "unknown bot 'genius'"),
        (["--opponents", "rules,rules,rules"], "give 2 levels separated by commas"),
        (["--name", "  "], "give a name with at least one visible character"),
    ],
)
def test_bad_options_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["play", *args], input="")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def cli_run(args: list[str], answers: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args], input=answers)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("answers", "code", "message"),
    [
        ("", 1, "Input ended: the match stops in deal 1 of 18."),
        ("quit\n", 0, "You left the match in deal 1 of 18."),
    ],
)
def test_end_of_input_and_quit_exit_cleanly(answers: str, code: int, message: str) -> None:
    exit_code, output = cli_run(["--seed", "3", "--variant", "standard,first_dealer=2"], answers)
    assert exit_code == code
    assert message in output
    assert "Traceback" not in output


def test_a_bad_card_at_the_command_line_is_refused_then_the_game_goes_on() -> None:
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=3, first_dealer=2)
    match.play("NT")
    not_mine = next(c for c in CARDS if c not in match.observation(0).hand)
    code, output = cli_run(["--seed", "3", "--variant", "standard,first_dealer=2", "--ascii"],
                           f"NT\n-\n11X\n{not_mine}\n")
    assert code == 1  # input ends after the bad answers
    assert "Not accepted: invalid action '11X'" in output
    assert f"Not accepted: {not_mine} is not in your hand" in output  # the player's words, not the engine's


def test_ascii_output_has_no_suit_symbols_in_the_score_sheet() -> None:
    """``--ascii`` (suit letters, for screen readers and plain terminals) printed the score sheet, after every
    deal, with the suit symbols of the contracts."""
    game, _, output = scripted_game(seed=5, levels=("random", "random"))
    game.unicode = False
    game.run()
    sheets = [text for text in output if text.startswith("player  ")]
    assert len(sheets) == 18 and "player  C  D  H  S  NT  MZ  total" in sheets[0]
    assert not [text for text in output if any(symbol in text for symbol in "♣♦♥♠")]
