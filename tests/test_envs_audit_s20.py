"""Session 20's audit of the RL environments: bad pending marks and ``out=`` arrays in the encoder, OpenSpiel's
message for an action after the end of the deal, and the training example's argument checks.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from mizerka.deal import Deal, Observation  # noqa: E402
from mizerka.envs.encoding import (  # noqa: E402
    OBSERVATION_SIZE,
    IllegalEnvActionError,
    ObservationEncoder,
    PendingMarksError,
    legal_action_ids,
    views,
)

ROOT = Path(__file__).resolve().parent.parent


def exchanging_observation() -> Observation:
    """Forehand's observation at the start of its exchange (it may mark cards for discard)."""
    deal = Deal.random(1, dealer=0)
    deal.play("NT")
    return deal.observation(deal.to_move)


def bad_marks(observation: Observation) -> dict[str, int]:
    """Marks that are no mask of held cards: negative, a bit above 51, a card the seat does not hold."""
    not_held = next(card for card in range(52) if not observation.hand.mask >> card & 1)
    return {"negative": -1, "above 51": 1 << 60, "not held": 1 << not_held}


@pytest.mark.parametrize("kind", ["negative", "above 51", "not held"])
def test_encode_refuses_marks_that_are_not_held_cards(kind: str) -> None:
    """-1 used to loop for ever, bit 60 landed in the 'played' section, a card not held was encoded silently."""
    observation = exchanging_observation()
    pending = bad_marks(observation)[kind]
    encoder = ObservationEncoder()
    with pytest.raises(PendingMarksError, match="they must mark cards in the hand"):
        encoder.encode(observation, pending=pending)
    tensor = np.zeros(OBSERVATION_SIZE, np.float32)
    assert observation.seat is not None
    with pytest.raises(PendingMarksError):
        encoder.fill(tensor, observation, observation.seat, pending)
    assert not tensor.any()  # refused before anything is written


@pytest.mark.parametrize("kind", ["negative", "above 51", "not held"])
def test_legal_action_ids_refuses_marks_that_are_not_held_cards(kind: str) -> None:
    observation = exchanging_observation()
    with pytest.raises(PendingMarksError, match="they must mark cards in the hand"):
        legal_action_ids(observation, bad_marks(observation)[kind])


def test_marks_of_held_cards_are_still_encoded() -> None:
    observation = exchanging_observation()
    lowest = observation.hand.mask & -observation.hand.mask
    tensor = ObservationEncoder().encode(observation, pending=lowest)
    assert views(tensor)["pending"][lowest.bit_length() - 1] == 1.0
    assert int(views(tensor)["pending"].sum()) == 1
    assert legal_action_ids(observation, lowest)[-1] == 110  # done stays legal


@pytest.mark.parametrize(
    ("out", "message"),
    [
        (np.zeros(OBSERVATION_SIZE - 1, np.float32), "shape"),
        (np.zeros((1, OBSERVATION_SIZE), np.float32), "shape"),
        (np.zeros(OBSERVATION_SIZE, np.int8), "float array"),
        (np.zeros(OBSERVATION_SIZE, np.bool_), "float array"),
    ],
)
def test_encode_refuses_a_wrong_out_array(out: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ObservationEncoder().encode(exchanging_observation(), out=out)  # type: ignore[arg-type]


def test_encode_into_a_float64_out_array() -> None:
    observation = exchanging_observation()
    out = np.full(OBSERVATION_SIZE, 7.0, np.float64)
    result = ObservationEncoder().encode(observation, out=out)  # type: ignore[arg-type]
    assert result is out
    np.testing.assert_allclose(out, ObservationEncoder().encode(observation), rtol=1e-6)  # float32 vs float64


def test_openspiel_action_after_the_end_says_the_deal_is_over() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    import mizerka.envs.openspiel  # noqa: F401

    state = pyspiel.load_game("mizerka").new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    for action in (0, 110):
        with pytest.raises(IllegalEnvActionError, match="the deal is over") as caught:
            state.apply_action(action)
        assert "not to move" not in str(caught.value)
    assert state.returns() == returns


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--eval-deals", "0"], "--eval-deals"),
        (["--eval-deals", "1"], "--eval-deals"),
        (["--eval-deals", "-5"], "--eval-deals"),
        (["--learning-rate", "nan"], "--learning-rate"),
        (["--learning-rate", "0"], "--learning-rate"),
        (["--minutes", "-1"], "--minutes"),
        (["--minutes", "nan"], "--minutes"),
        (["--minutes", "inf"], "--minutes"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_training_example_refuses_bad_arguments(args: list[str], names: str) -> None:
    """Each used to end in a traceback (StatisticsError, numpy's ValueError) or to train nothing and report."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_reinforce.py"), "--minutes", "0.001", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"argument {names}" in result.stderr
    assert result.stdout == ""
