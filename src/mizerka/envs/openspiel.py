"""Mizerka as an OpenSpiel game (the ``openspiel`` extra): ``pyspiel.load_game("mizerka")``.

Importing this module registers the game with :func:`pyspiel.register_game`.  One game is one deal:

* 52 chance nodes shuffle the deck, one card per node (the deck order is fixed before dealing, so dealing all
  of it first is the same game as pausing after six cards each for the contract choice);
* then the players act with the ids of :mod:`mizerka.envs.encoding` (``num_distinct_actions`` 111): forehand
  chooses, each player exchanges by discard marks and ``done``, and 39 cards are played;
* the returns are the deal's scores (tricks − quota, or quota − tricks in Mizerka), zero-sum.

Parameters: ``variant`` (a three-seat, zero-sum variant spec, default ``"standard"``) and ``dealer`` (0–2; the
default, -1, takes the variant's ``first_dealer`` option, else seat 0; a dealer given must agree with that
option).  A variant spec separates its options with commas and gives their values with ``=``, which
OpenSpiel's ``"name(key=value,...)"`` syntax would read as its own, so the game also reads ``;`` for ``,`` and
``:`` for ``=``, and keeps its ``variant`` parameter in that form:
``pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card"})`` and
``pyspiel.load_game("mizerka(variant=standard;show_trump_card)")`` are the same game, whose ``str(game)`` is
``mizerka(dealer=0,variant=standard;show_trump_card)``, the string that pickling, ``serialize_game_and_state``
and ``load_game(str(game))`` read back.

The observer follows OpenSpiel's conventions: with private information for one player, the tensor is the
observation tensor of :mod:`mizerka.envs.encoding`; with ``perfect_recall`` it gains a ``plays`` section, the
cards in order of play, and a ``first_cards`` section, the six cards the player held when forehand chose the
contract, which together with the rest recall everything the player has seen; with public information only, the
player's own cards are left out.  The string form holds the same information as the tensor: two states give
the same string exactly when they give the same tensor.  Everything comes from ``Deal.observation``.

:meth:`MizerkaState.resample_from_infostate` (OpenSpiel's ``ResampleFromInfostate``, for information-set search)
deals the cards hidden from one player again with :meth:`Deal.from_observation
<mizerka.deal.Deal.from_observation>`.  Python algorithms (``open_spiel.python.algorithms.ismcts``) use it; the C++
bots cannot, as pyspiel does not forward that method (nor ``UndoAction``, which the game does not offer) from C++ to
a Python state (docs/envs.md).

>>> import pyspiel
>>> import mizerka.envs.openspiel
>>> game = pyspiel.load_game("mizerka")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions(), game.num_players()
(True, 111, 3)
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from mizerka.cards import CARDS, CardSet, mask_indices
from mizerka.deal import CHOICES, PLAYS, Deal, Exchange, Observation, Phase, Play
from mizerka.envs.encoding import (
    CHOOSE_BASE,
    DISCARD_BASE,
    DONE,
    INFORMATION_STATE_SIZE,
    N_ACTIONS,
    OBSERVATION_SIZE,
    ActionOutOfRangeError,
    IllegalEnvActionError,
    ObservationEncoder,
    action_id,
    action_name,
    check_action_id,
    illegal_reason,
    legal_action_ids,
    views,
)
from mizerka.envs.table import resolve_rules, whole_number
from mizerka.rules import ExchangeMode, Rules, RulesError

__all__ = ["GAME_NAME", "MizerkaGame", "MizerkaObserver", "MizerkaState", "NotAChanceNodeError"]

GAME_NAME: Final = "mizerka"

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Mizerka (Polish three-player trick-taking game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "standard", "dealer": -1},
)


class NotAChanceNodeError(ValueError):
    """A chance-node question (:meth:`MizerkaState.chance_outcomes`) asked of a state where a player or nobody is
    to move."""


def _rules(variant: object) -> Rules:
    """The rules of a ``variant`` parameter, in a spec's own form or OpenSpiel's (``;`` for ``,``, ``:`` for
    ``=``).

    Raises:
        RulesError: for a parameter that is not text, or a variant the environments do not take.
    """
    if not isinstance(variant, str):
        raise RulesError(f"the variant parameter must be a variant spec (text), not {variant!r}")
    return resolve_rules(variant.replace(";", ",").replace(":", "="))


def _parameter_form(rules: Rules) -> str:
    """The ``variant`` parameter OpenSpiel's string syntax reads back to *rules*: the spec, ``;`` for ``,`` and
    ``:`` for ``=``."""
    return rules.spec().replace(",", ";").replace("=", ":")


def _game_info(rules: Rules) -> pyspiel.GameInfo:
    scores = [
        rules.score(role, contract, tricks)
        for role in range(3)
        for contract in rules.contracts
        for tricks in (0, rules.n_tricks)
    ]
    exchange_steps = 13 + 3 if rules.exchange_mode is ExchangeMode.STANDARD else 0
    return pyspiel.GameInfo(
        num_distinct_actions=N_ACTIONS,
        max_chance_outcomes=52,
        num_players=3,
        min_utility=float(min(scores)),
        max_utility=float(max(scores)),
        utility_sum=0.0,
        max_game_length=1 + exchange_steps + 3 * rules.n_tricks,
    )


class MizerkaGame(pyspiel.Game):  # type: ignore[misc]
    """The game: one deal of the chosen variant, the deck shuffled by chance."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Raises :class:`RulesError` (a ``ValueError``) for an unknown parameter (``load_game`` refuses those
        first, with OpenSpiel's own error), a variant the environments do not take, a dealer that is no seat
        0–2, or a variant whose ``first_dealer`` is not the dealer."""
        params = dict(params or {})
        unknown = sorted(set(params) - set(_GAME_TYPE.parameter_specification))
        if unknown:
            raise RulesError(f"unknown parameter {unknown[0]!r} (the parameters are: dealer, variant)")
        merged = {**_GAME_TYPE.parameter_specification, **params}
        rules = _rules(merged["variant"])
        dealer = whole_number(merged["dealer"])
        if dealer == -1:  # the default: the variant's first dealer, else seat 0
            dealer = rules.first_dealer if rules.first_dealer is not None else 0
        if dealer is None or not 0 <= dealer < 3:
            raise RulesError(f"dealer must be a seat 0-2 (or -1: the variant's first dealer), not {merged['dealer']!r}")
        if rules.first_dealer is not None and rules.first_dealer != dealer:
            raise RulesError(
                f"the variant's first_dealer={rules.first_dealer} is not the dealer parameter ({dealer}): "
                f"pass dealer={rules.first_dealer}, or leave first_dealer out of the variant"
            )
        super().__init__(_GAME_TYPE, _game_info(rules), {"dealer": dealer, "variant": _parameter_form(rules)})
        self.rules = rules
        self.dealer = dealer

    def new_initial_state(self) -> MizerkaState:
        return MizerkaState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> MizerkaObserver:
        return MizerkaObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _DealBox:
    """Holds the state's deal.  OpenSpiel clones a Python state by deep-copying its attributes; this box copies
    the deal with :meth:`Deal.copy` (fast, and sharing the immutable card sets)."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal | None) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, object]) -> _DealBox:
        return _DealBox(None if self.deal is None else self.deal.copy())


class MizerkaState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the deck dealt so far, then the :class:`~mizerka.deal.Deal` and pending discard marks."""

    def __init__(self, game: MizerkaGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.dealer = game.dealer
        self.deck: list[int] = []
        self._box = _DealBox(None)
        self.pending = 0

    @property
    def deal(self) -> Deal | None:
        """The deal, once the deck is shuffled (``None`` before)."""
        return self._box.deal

    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.phase is Phase.DONE:
            return int(pyspiel.PlayerId.TERMINAL)
        return deal.to_move

    def observation_for(self, player: int | None) -> Observation | None:
        """What *player* may know (``None``: the public view); ``None`` while the deck is being shuffled."""
        return None if self.deal is None else self.deal.observation(player)

    def _legal_actions(self, player: int) -> list[int]:
        obs = self.observation_for(player)
        if obs is None:
            return []
        return legal_action_ids(obs, self.pending)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards left to place in the deck, each with the same probability.

        Raises:
            NotAChanceNodeError: once the deck is shuffled (a player, or nobody, is to move).
        """
        if self.deal is not None:
            raise NotAChanceNodeError(
                f"chance_outcomes: the state is not a chance node ({self.deal.phase.name.lower()} phase)"
            )
        dealt = set(self.deck)
        remaining = [card for card in range(52) if card not in dealt]
        p = 1.0 / len(remaining)
        return [(card, p) for card in remaining]

    def _apply_action(self, action: int) -> None:
        deal = self._box.deal
        if deal is None:
            if not 0 <= action < 52 or action in self.deck:
                raise IllegalEnvActionError(f"chance outcome {action} is not a card left to deal")
            self.deck.append(int(action))
            if len(self.deck) == 52:
                self._box = _DealBox(Deal(self.deck, rules=self.rules, dealer=self.dealer))
            return
        if deal.phase is Phase.DONE:
            raise IllegalEnvActionError(f"illegal action {action}: the deal is over (the state is terminal)")
        if not self._is_legal(deal, action):
            player = deal.to_move
            obs = deal.observation(player)
            reason = illegal_reason(obs, self.pending, check_action_id(action)) or "not legal now"
            raise IllegalEnvActionError(f"illegal action {action} for player {player}: {reason}")
        if action < DISCARD_BASE:
            deal.push(PLAYS[action])
        elif action < CHOOSE_BASE:
            self.pending |= 1 << (action - DISCARD_BASE)
        elif action < DONE:
            deal.push(CHOICES[action - CHOOSE_BASE])
        else:
            deal.push(Exchange(CardSet(self.pending)))
            self.pending = 0

    def _is_legal(self, deal: Deal, action: int) -> bool:
        """A referee's quick check of *action* (OpenSpiel does not check a Python game's actions itself)."""
        phase = deal.phase
        if not 0 <= action < N_ACTIONS:
            return False
        if action < DISCARD_BASE:
            return phase is Phase.PLAY and bool(deal.legal_play_mask() >> action & 1)
        if action < CHOOSE_BASE:
            card = action - DISCARD_BASE
            hand = deal.hands[deal.to_move]
            pending = self.pending
            return (
                phase is Phase.EXCHANGE
                and bool(hand >> card & 1)
                and card >= pending.bit_length()
                and pending.bit_count() < min(len(deal.talon), hand.bit_count())
            )
        if action < DONE:
            return phase is Phase.CHOOSE and (action - CHOOSE_BASE) in deal.allowed_contracts
        return action == DONE and phase is Phase.EXCHANGE

    def _action_to_string(self, player: int, action: int) -> str:
        """``deal <card>`` for a chance outcome, else :func:`~mizerka.envs.encoding.action_name`.

        Raises:
            ActionOutOfRangeError: for a chance outcome that is no card 0–51, or an action that is no id 0–110.
        """
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < 52:
                raise ActionOutOfRangeError(f"chance outcome {action} is out of range: the outcomes are cards 0-51")
            return f"deal {CARDS[action]}"
        return action_name(check_action_id(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.phase is Phase.DONE

    def returns(self) -> list[float]:
        if self.deal is None or self.deal.phase is not Phase.DONE:
            return [0.0, 0.0, 0.0]
        return [float(score) for score in self.deal.scores()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> MizerkaState:
        """A new state that *player_id* cannot tell from this one, the cards hidden from him dealt at random.

        OpenSpiel's ``ResampleFromInfostate``: the new state has the same information state, observation and (on
        his turn) legal actions for *player_id*; his own cards, discards and draws, and every public action, are
        as they are here.  The other hands, the talon and the other players' discards are redrawn by
        :meth:`Deal.from_observation <mizerka.deal.Deal.from_observation>`, consistently with what he knows: no
        card of a suit a player has shown he lacks, the public exchange counts, a turned-up talon card.  Another
        player's discard marks still pending in his exchange are hidden too: as many are marked, drawn from his
        hand in the new world.  While the deck is being shuffled nobody has seen a card: the new state has as
        many cards placed, drawn at random.  A finished deal is resampled like any other state.

        The state is built by replaying its history on a fresh state, so ``history()`` and serialization agree
        with it.  Every random draw comes from *probability_sampler* (a callable returning a float in [0, 1),
        such as ``pyspiel.UniformProbabilitySampler(0.0, 1.0)``), as OpenSpiel's contract asks; the real deal is
        never looked at beyond what *player_id* sees.

        Raises:
            RulesError: for a *player_id* that is no player 0-2, or a sampler returning anything but a float in
                [0, 1).
            TypeError: for a *probability_sampler* that is not callable.
        """
        seat = _player_id(player_id, "resample_from_infostate")
        if not callable(probability_sampler):
            raise TypeError(
                f"resample_from_infostate: the probability sampler must be callable, not {probability_sampler!r}"
            )
        rng = _SamplerRandom(probability_sampler)
        state: MizerkaState = self.get_game().new_initial_state()
        deal = self.deal
        if deal is None:
            cards = list(range(52))
            rng.shuffle(cards)
            for card in cards[: len(self.deck)]:
                state.apply_action(card)
            return state
        world = Deal.from_observation(deal.observation(seat), rng)
        for card in world.deck:
            state.apply_action(card)
        for action in world.history:
            if isinstance(action, Exchange):
                for card in mask_indices(action.discards.mask):
                    state.apply_action(DISCARD_BASE + card)
                state.apply_action(DONE)
            else:
                state.apply_action(action_id(action))
        pending = self.pending
        if pending and deal.to_move != seat:  # marks he cannot see: as many, from the mover's hand in the world
            hand = mask_indices(world.hands[world.to_move])
            pending = sum(1 << card for card in rng.sample(hand, pending.bit_count()))
        for card in mask_indices(pending):  # ascending, as marks must go
            state.apply_action(DISCARD_BASE + card)
        return state

    def __str__(self) -> str:
        if self.deal is None:
            return f"shuffling: {len(self.deck)} of 52 cards placed"
        return str(self.deal) + (f"\n  marked for discard: {CardSet(self.pending)}" if self.pending else "")


def _player_id(player_id: object, where: str) -> int:
    """*player_id* as a player 0-2.

    Raises:
        RulesError: for anything else (a bool is no player).
    """
    number = whole_number(player_id)
    if number is None or not 0 <= number < 3:
        raise RulesError(f"{where}: player_id must be a player 0-2, not {player_id!r}")
    return number


class _SamplerRandom(random.Random):
    """A :class:`random.Random` whose every draw comes from an OpenSpiel probability sampler (a callable returning
    a float in [0, 1)): ``shuffle``, ``sample`` and ``randrange`` all go through :meth:`random` (``random.Random``
    then finds integers below *n* from floats, as it does for any subclass that only overrides ``random``)."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        super().__init__(0)
        self._sampler = sampler

    def random(self) -> float:
        value = self._sampler()
        if not isinstance(value, numbers.Real) or isinstance(value, bool) or not 0.0 <= value < 1.0:
            raise RulesError(f"the probability sampler must return a float in [0, 1), not {value!r}")
        return float(value)


_PRIVATE_VIEWS: Final = frozenset({"hand", "discards", "drawn", "pending", "first_cards"})


class MizerkaObserver:
    """OpenSpiel's Python observer: a flat ``tensor``, its named views in ``dict``, and a string form.

    Raises:
        ValueError: for observer parameters, or private information for all players (that would show every hand).
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the Mizerka observer takes no parameters, not {params!r}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("the Mizerka observer shows one player's private information, not all players'")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFORMATION_STATE_SIZE if self.perfect_recall else OBSERVATION_SIZE
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = views(self.tensor)
        self._encoder = ObservationEncoder()

    def _observation(self, state: MizerkaState, player: int) -> Observation | None:
        return state.observation_for(player if self.private else None)

    def set_from(self, state: MizerkaState, player: int) -> None:
        """Fill :attr:`tensor` with *state* as *player* sees it."""
        self.tensor.fill(0.0)
        obs = self._observation(state, player)
        if obs is None:
            return
        base = self.tensor[:OBSERVATION_SIZE]
        if self.private:
            pending = state.pending if obs.is_my_turn() and obs.phase is Phase.EXCHANGE else 0
            self._encoder.fill(base, obs, player, pending)
        else:
            self._encoder.fill(base, obs, player, 0)
        if self.perfect_recall and self.private:
            first = self.dict["first_cards"]
            for card in obs.first_cards:
                first[card] = 1.0
        if not self.public:
            for name, view in self.dict.items():
                if name not in _PRIVATE_VIEWS:
                    view.fill(0.0)
            return
        if self.perfect_recall:
            plays = self.dict["plays"]
            index = 0
            for _, action in obs.history:
                if not isinstance(action, int) and action.code < 52:
                    plays[index, action.code] = 1.0
                    index += 1

    def string_from(self, state: MizerkaState, player: int) -> str:
        """*state* as *player* sees it, as text."""
        obs = self._observation(state, player)
        if obs is None:
            return f"p{player} shuffling"
        parts = [f"p{player}"]
        if self.private:
            parts.append(f"hand {obs.hand}")
            if obs.discards or obs.drawn:
                parts.append(f"discarded {obs.discards or '-'} drew {obs.drawn or '-'}")
            if obs.is_my_turn() and obs.phase is Phase.EXCHANGE and state.pending:
                parts.append(f"marked {CardSet(state.pending)}")
            if self.perfect_recall:
                parts.append(f"first {obs.first_cards}")
        if self.public:
            parts.append(f"dealer {obs.dealer}")
            if obs.contract is not None:
                parts.append(f"contract {obs.contract}")
            counts = ["-" if c is None else str(c) for c in obs.exchange_counts]
            parts.append(f"exchanged {'/'.join(counts)}")
            if obs.shown_card is not None:
                parts.append(f"shown {obs.shown_card}")
            if self.perfect_recall:
                plays = [str(action) for _, action in obs.history if not isinstance(action, int)]
                parts.append("history " + " ".join(plays))
            else:
                parts.extend(_table_text(obs))
        return " | ".join(parts)


def _table_text(obs: Observation) -> list[str]:
    """The public play of the deal as the observation tensor holds it (without the order of earlier tricks)."""
    played = [0, 0, 0]
    for actor, action in obs.history:  # every card played is public, with its player
        if isinstance(action, Play):
            played[actor] |= 1 << int(action.card)
    voids = obs.voids()
    parts = [f"tricks {'/'.join(str(t) for t in obs.tricks_won)}"]
    if any(played):
        parts.append("played " + "/".join(str(CardSet(mask)) if mask else "-" for mask in played))
    if any(voids.values()):
        parts.append("void " + "/".join("".join(s.letter for s in sorted(voids[seat])) or "-" for seat in range(3)))
    parts.append(f"leader p{obs.trick_leader}")
    if obs.to_move >= 0:
        parts.append(f"to move p{obs.to_move}")
    if obs.trick:
        parts.append("trick " + " ".join(str(c) for c in obs.trick))
    return parts


pyspiel.register_game(_GAME_TYPE, MizerkaGame)
