"""Session 13's audit of the RL adapters: bad input, OpenSpiel's state and game API, render modes, hidden cards.

Each test names the behaviour a researcher relies on; the hidden-card tests deal the cards a seat cannot see
differently and check that nothing the seat is shown changes until one of those cards comes into its view.
"""

from __future__ import annotations

import math
import pickle
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
from mizerka.envs.encoding import ActionOutOfRangeError, IllegalEnvActionError  # noqa: E402
from mizerka.envs.gymnasium import MizerkaSoloEnv  # noqa: E402
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402
from mizerka.match import Match  # noqa: E402
from mizerka.rules import RulesError  # noqa: E402

# -- helpers -------------------------------------------------------------------------------------------


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


# -- bad input: seeds, options, rewards ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2.0, "3", True, [3], 10**30 + 0.5])
def test_gymnasium_refuses_a_bad_seed_with_a_value_error_and_changes_nothing(seed: object) -> None:
    env = MizerkaSoloEnv(opponents="random")
    obs, info = env.reset(seed=4)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.seat == info["seat"]
    assert np.array_equal(env._obs()["observation"], obs["observation"])


def test_gymnasium_accepts_numpy_integer_seeds_like_ints() -> None:
    env = MizerkaSoloEnv(opponents="random")
    from_numpy, info_numpy = env.reset(seed=np.int64(7))
    from_int, info_int = env.reset(seed=7)
    assert info_numpy == info_int
    assert np.array_equal(from_numpy["observation"], from_int["observation"])


def test_a_reset_without_a_seed_continues_the_seeded_stream() -> None:
    """``reset()`` after ``reset(seed=s)`` is a new episode, and the same one in every run."""
    runs = []
    for _ in range(2):
        pz = mizerka_v0.env()
        pz.reset(seed=5)
        first = pz.observe(pz.agent_selection)["observation"].copy()
        pz.reset()
        solo = MizerkaSoloEnv(opponents="random")
        solo_first, _ = solo.reset(seed=5)
        solo_next, _ = solo.reset()
        runs.append((first, pz.observe(pz.agent_selection)["observation"].copy(), solo_first, solo_next))
    (a_first, a_next, a_solo, a_solo_next), (_, b_next, _, b_solo_next) = runs
    assert not np.array_equal(a_first, a_next) or not np.array_equal(a_solo["observation"], a_solo_next["observation"])
    assert np.array_equal(a_next, b_next)
    assert np.array_equal(a_solo_next["observation"], b_solo_next["observation"])


@pytest.mark.parametrize("options", [5, "seat=1", [("seat", 1)]])
def test_reset_options_that_are_not_a_dict_are_refused(options: object) -> None:
    pz = mizerka_v0.env()
    pz.reset(seed=1)
    agent = pz.agent_selection
    with pytest.raises(ValueError, match="options"):
        pz.reset(seed=2, options=options)  # type: ignore[arg-type]
    assert pz.agent_selection == agent
    solo = MizerkaSoloEnv(opponents="random")
    solo.reset(seed=1)
    with pytest.raises(ValueError, match="options"):
        solo.reset(seed=2, options=options)  # type: ignore[arg-type]
    # a dict is accepted (PettingZoo's api_test passes one with an arbitrary key) and None too
    pz.reset(seed=2, options={"options": 1})
    solo.reset(seed=2, options={})


@pytest.mark.parametrize("reward", [None, "-1", True, math.nan, math.inf, [1.0]])
def test_a_bad_illegal_reward_is_refused(reward: object) -> None:
    with pytest.raises(ValueError, match="illegal_reward"):
        MizerkaSoloEnv(opponents="random", illegal_reward=reward)  # type: ignore[arg-type]
    if reward is not None:  # PettingZoo's default: no TerminateIllegalWrapper, illegal ids raise
        with pytest.raises(ValueError, match="illegal_reward"):
            mizerka_v0.env(illegal_reward=reward)  # type: ignore[arg-type]


def test_a_numeric_illegal_reward_is_accepted_as_a_float() -> None:
    env = MizerkaSoloEnv(opponents="random", illegal_reward=np.float32(-2.0), seat=0)
    obs, _ = env.reset(seed=3)
    _, reward, *_ = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert reward == -2.0 and type(reward) is float
    pz = mizerka_v0.env(illegal_reward=-3)
    pz.reset(seed=2)
    offender = pz.agent_selection
    pz.step(110)  # 'done' in the choose phase
    assert pz.rewards[offender] == -3.0 and type(pz.rewards[offender]) is float


def test_pettingzoo_names_an_unknown_agent_with_a_value_error() -> None:
    env = mizerka_v0.env()
    env.reset(seed=1)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ValueError, match="player_7"):
            call("player_7")
    with pytest.raises(KeyError):  # still a KeyError for code that catches that, as PettingZoo's games raise
        env.observe("player_7")


# -- render modes ---------------------------------------------------------------------------------------


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


# -- OpenSpiel ------------------------------------------------------------------------------------------


def _openspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    import mizerka.envs.openspiel  # noqa: F401  (registers the game)

    return pyspiel


def _dealt(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def test_chance_outcomes_outside_a_chance_node_raise_a_specific_error() -> None:
    pyspiel = _openspiel()
    from mizerka.envs.openspiel import NotAChanceNodeError

    game = pyspiel.load_game("mizerka")
    state = _dealt(game, 1)
    with pytest.raises(NotAChanceNodeError, match="not a chance node"):
        state.chance_outcomes()
    assert issubclass(NotAChanceNodeError, ValueError)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(NotAChanceNodeError):
        state.chance_outcomes()
    fresh = game.new_initial_state()
    assert len(fresh.chance_outcomes()) == 52 and math.isclose(sum(p for _, p in fresh.chance_outcomes()), 1.0)


@pytest.mark.parametrize("outcome", [52, 200, -1])
def test_action_to_string_refuses_a_chance_outcome_that_is_no_card(outcome: int) -> None:
    pyspiel = _openspiel()
    state = pyspiel.load_game("mizerka").new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal AS"
    with pytest.raises(ActionOutOfRangeError):
        state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)


@pytest.mark.parametrize(
    "variant",
    ["standard,show_trump_card", "no-exchange,show_trump_card", "standard,contracts=C+MZ,quota_ordinary=6/5/2"],
)
def test_a_game_with_variant_options_reloads_from_its_string_and_pickles(variant: str) -> None:
    """``str(game)`` must load the same game again: pickling games and states, ``serialize_game_and_state``
    and OpenSpiel's own ``random_sim_test(serialize=True)`` all go through it."""
    pyspiel = _openspiel()
    game = pyspiel.load_game("mizerka", {"variant": variant})
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and str(again) == str(game)
    state = _dealt(game, 3)
    state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.history() == state.history()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_string_form_takes_options_with_semicolons_and_colons() -> None:
    pyspiel = _openspiel()
    game = pyspiel.load_game("mizerka(variant=standard;show_trump_card;contracts:C+MZ,dealer=2)")
    assert game.rules.show_trump_card and len(game.rules.contracts) == 2 and game.dealer == 2
    assert game.rules == pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card,contracts=C+MZ"}).rules


def test_the_variants_first_dealer_must_agree_with_the_dealer_parameter() -> None:
    pyspiel = _openspiel()
    assert pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2", "dealer": 2}).dealer == 2
    assert pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2"}).dealer == 2  # the default follows
    assert pyspiel.load_game("mizerka").dealer == 0
    with pytest.raises(RulesError, match="first_dealer=2"):
        pyspiel.load_game("mizerka", {"variant": "standard,first_dealer=2", "dealer": 1})


@pytest.mark.parametrize("dealer", [2.5, True, "1", 3, -2])
def test_the_game_class_refuses_a_dealer_that_is_no_seat(dealer: object) -> None:
    _openspiel()
    from mizerka.envs.openspiel import MizerkaGame

    with pytest.raises(RulesError, match="dealer"):
        MizerkaGame({"dealer": dealer})


# -- hidden cards ------------------------------------------------------------------------------------------


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


# -- spaces and masks over whole games ---------------------------------------------------------------------


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
