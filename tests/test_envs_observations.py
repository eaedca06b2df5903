"""What the RL adapters show an agent: render modes, hidden cards, spaces and masks.

PettingZoo's render test passes, and the human mode prints the table (on reset and on each step).  The hidden-card
tests deal the cards a seat cannot see differently and check that nothing the seat is shown (PettingZoo's
observation, mask, reward, info and picture; OpenSpiel's information-state and observation strings and tensors, legal
actions and public observers) changes until one of those cards comes into its view; Gymnasium's picture names only
cards the agent may know.  Over whole random games every observation lies in its space, the mover's mask is exactly
the engine's legal set, and the returns are zero-sum and equal the scores.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

import mizerka.envs.table as table_module  # noqa: E402
from mizerka.cards import Card  # noqa: E402
from mizerka.deal import Deal  # noqa: E402
from mizerka.envs.encoding import IllegalEnvActionError  # noqa: E402
from mizerka.envs.gymnasium import MizerkaSoloEnv  # noqa: E402
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402
from mizerka.match import Match  # noqa: E402


def _known_cards(deal: Deal, seat: int, pending: int) -> int:
    """Every card whose place *seat* may know now or has known: its cards (first six, hand, discards, draws and
    pending marks), every card played and the turned-up talon card."""
    known = deal.hands[seat] | deal.first_cards[seat] | deal.dead[seat] | deal.drawn[seat] | deal.played | pending
    for card in deal.trick:
        known |= 1 << card
    if deal.shown_card is not None:
        known |= 1 << deal.shown_card
    return known


def _swap(action: int, x: int, y: int) -> int:
    """*action* with cards *x* and *y* exchanged (card plays and discard marks name a card)."""
    if action >= 104:
        return action
    base, card = divmod(action, 52)
    return 52 * base + (y if card == x else x if card == y else card)


_CARD_NAME = re.compile(r"\b[2-9TJQKA][CDHS]\b")
_GROUPED = re.compile(r"\b([CDHS]):([2-9TJQKA]+|-)")


def _openspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    import mizerka.envs.openspiel  # noqa: F401  (registers the game)

    return pyspiel


# -- render modes ----------------------------------------------------------------------------------------------------


def test_pettingzoo_passes_the_render_test() -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: mizerka_v0.env(render_mode=render_mode))


def test_human_render_mode_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    solo = MizerkaSoloEnv(opponents="random", render_mode="human", seat=0)
    obs, _ = solo.reset(seed=2)
    assert "to move: seat 0" in capsys.readouterr().out  # rendered on reset, as Gymnasium's human mode does
    solo.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "Mizerka" in capsys.readouterr().out  # and on each step
    assert solo.render() is None
    pz = mizerka_v0.env(render_mode="human")
    pz.reset(seed=2)
    assert pz.render() is None
    assert "choose phase" in capsys.readouterr().out


# -- hidden cards ----------------------------------------------------------------------------------------------------


def _hidden_pair(deal: Deal, seat: int, rng: random.Random) -> tuple[int, int]:
    hidden = [card for card in range(52) if not deal.hands[seat] >> card & 1]
    x, y = rng.sample(hidden, 2)
    return x, y


@pytest.mark.parametrize("variant", ["standard", "standard,show_trump_card", "no-exchange"])
def test_pettingzoo_shows_a_seat_nothing_of_the_cards_it_cannot_see(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables whose decks differ only in two cards the seat has not seen, played with the same actions (the
    two cards renamed in the others' plays and discards): the seat's observation, mask, reward, info and
    rendered picture stay equal until one of the two cards comes into its view."""
    rng = random.Random(variant)
    compared = 0
    for trial in range(12):
        seat = trial % 3
        first = mizerka_v0.raw_env(variant=variant, render_mode="ansi", render_seat=seat)
        first.reset(seed=trial)
        x, y = _hidden_pair(first.table.deal, seat, rng)
        deck = list(first.table.match.decks[0])
        i, j = deck.index(x), deck.index(y)
        deck[i], deck[j] = deck[j], deck[i]

        def with_deck(rules: Any, seed: int | None = None, first_dealer: int | None = None) -> Match:
            return Match(rules, seed=seed, first_dealer=first_dealer, decks=[deck])  # noqa: B023

        second = mizerka_v0.raw_env(variant=variant, render_mode="ansi", render_seat=seat)
        with monkeypatch.context() as patch:
            patch.setattr(table_module, "Match", with_deck)
            second.reset(seed=trial)
        assert list(second.table.match.decks[0]) == deck
        agent = f"player_{seat}"
        while not first.table.is_over():
            seen = _known_cards(first.table.deal, seat, first.table.pending_for(seat))
            seen |= _known_cards(second.table.deal, seat, second.table.pending_for(seat))
            if seen >> x & 1 or seen >> y & 1:
                break
            a, b = first.observe(agent), second.observe(agent)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
            assert first.render() == second.render()
            assert (first.rewards[agent], first.infos[agent]) == (second.rewards[agent], second.infos[agent])
            assert first.agent_selection == second.agent_selection
            compared += 1
            action = rng.choice(np.flatnonzero(first.observe(first.agent_selection)["action_mask"]).tolist())
            first.step(action)
            try:
                second.step(_swap(action, x, y))
            except IllegalEnvActionError:
                break  # another seat's renamed discard marks were out of order: a different line of play
    assert compared > 30


def _cards_named(text: str) -> set[int]:
    """The cards a rendered table names: grouped hands (``S:K7 H:- D:T2 C:83``) and single cards (``QH``)."""
    cards = {int(Card.from_str(rank + suit)) for suit, ranks in _GROUPED.findall(text) for rank in ranks.strip("-")}
    return cards | {int(Card.from_str(name)) for name in _CARD_NAME.findall(_GROUPED.sub("", text))}


def test_gymnasium_render_names_only_cards_the_agent_may_know() -> None:
    env = MizerkaSoloEnv(opponents="random", render_mode="ansi")
    named = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            known = _known_cards(env.table.deal, env.seat, env.table.pending_for(env.seat))
            cards = _cards_named(env.render() or "")
            assert all(known >> card & 1 for card in cards), env.render()
            named += len(cards)
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
    assert named > 100  # the pictures did name cards: the agent's hand and the trick


@pytest.mark.parametrize("variant", ["standard", "standard,show_trump_card", "no-exchange"])
def test_openspiel_shows_a_seat_nothing_of_the_cards_it_cannot_see(variant: str) -> None:
    """As for PettingZoo: the seat's information-state and observation strings and tensors, its legal actions and
    the public observers' views are equal in two deals that differ only in two cards the seat has not seen."""
    pyspiel = _openspiel()
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("mizerka", {"variant": variant})
    public = [
        make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE)
        )
        for recall in (False, True)
    ]
    rng = random.Random(variant)
    compared = 0
    for trial in range(10):
        seat = trial % 3
        deck = list(range(52))
        rng.shuffle(deck)
        first = game.new_initial_state()
        for card in deck:
            first.apply_action(card)
        x, y = _hidden_pair(first.deal, seat, rng)
        other = list(deck)
        i, j = other.index(x), other.index(y)
        other[i], other[j] = other[j], other[i]
        second = game.new_initial_state()
        for card in other:
            second.apply_action(card)
        views: list[Callable[[Any], object]] = [
            lambda s: s.information_state_string(seat),  # noqa: B023
            lambda s: s.information_state_tensor(seat),  # noqa: B023
            lambda s: s.observation_string(seat),  # noqa: B023
            lambda s: s.observation_tensor(seat),  # noqa: B023
            lambda s: s.legal_actions(seat),  # noqa: B023
        ]
        while not first.is_terminal():
            pending = [s.pending if s.current_player() == seat else 0 for s in (first, second)]
            seen = _known_cards(first.deal, seat, pending[0]) | _known_cards(second.deal, seat, pending[1])
            if seen >> x & 1 or seen >> y & 1:
                break
            for view in views:
                assert view(first) == view(second)
            for observer in public:
                observer.set_from(first, seat)
                tensor, text = observer.tensor.copy(), observer.string_from(first, seat)
                observer.set_from(second, seat)
                assert np.array_equal(observer.tensor, tensor) and observer.string_from(second, seat) == text
            compared += 1
            action = rng.choice(first.legal_actions())
            first.apply_action(action)
            try:
                second.apply_action(_swap(action, x, y))
            except IllegalEnvActionError:
                break
    assert compared > 30


# -- spaces and masks over whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "mode"),
    [("standard", "deal"), ("no-exchange,show_trump_card", "deal"), ("standard,seed002-blocks", "match")],
)
def test_every_observation_lies_in_its_space_and_every_mask_is_the_legal_set(variant: str, mode: str) -> None:
    """At every step of whole random games, every agent's observation is in the declared space, the mover's mask
    is exactly the engine's legal plays or contracts (the exchange's marks are checked against the referee in
    test_envs_openspiel.py), and the returns are zero-sum and equal the scores."""
    from mizerka.deal import Phase, Play

    env = mizerka_v0.env(variant=variant, mode=mode)
    space = env.observation_space("player_0")
    for episode in range(1 if mode == "match" else 4):
        env.reset(seed=episode)
        rng = random.Random(episode)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            assert all(space.contains(env.observe(other)) for other in env.possible_agents)
            if terminated or truncated:
                env.step(None)
                continue
            deal = env.unwrapped.table.deal
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if deal.phase is not Phase.EXCHANGE:
                engine = [
                    int(a.card) if isinstance(a, Play) else 104 + int(a.contract)  # type: ignore[union-attr]
                    for a in deal.legal_actions
                ]
                assert legal == sorted(engine)
            env.step(rng.choice(legal))
        totals = env.unwrapped.table.match.totals if mode == "match" else env.unwrapped.table.deal.scores()
        assert [returns[a] for a in env.possible_agents] == [float(t) for t in totals]
        assert sum(returns.values()) == 0.0
