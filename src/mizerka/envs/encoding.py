"""The shared action ids and observation tensor of every Mizerka RL environment.

All three adapters (:mod:`mizerka.envs.pettingzoo`, :mod:`mizerka.envs.gymnasium`, :mod:`mizerka.envs.openspiel`)
use the same 111 discrete actions and the same flat ``float32`` observation, so that a policy trained in one can be
used in another.

Actions (``Discrete(111)``), one fixed meaning per id, whatever the phase:

==========  =========================  ==============================================================
ids         name                       meaning
==========  =========================  ==============================================================
0–51        ``play <card>``            play the card with that index (``13 * suit + rank``)
52–103      ``discard <card>``         mark card ``id - 52`` for discard in your exchange
104–109     ``choose <contract>``      forehand chooses contract ``id - 104`` (C D H S NT MZ)
110         ``done``                   end your exchange: discard the marked cards, draw as many
==========  =========================  ==============================================================

The blind exchange is a sequence of discard marks ended by ``done`` (``done`` with no marks keeps the hand).  Marks
go in ascending card order (after marking a card you may only mark higher ones), so every set of discards has
exactly one action sequence, and at most ``min(hand, talon)`` cards may be marked.  Nothing reaches the deal, or
any other player, before ``done``: the talon stays unseen and the others learn only how many cards you exchanged.

The observation is built only from :meth:`mizerka.deal.Deal.observation` / :meth:`mizerka.match.Match.observation`
of the observing seat, plus the seat's own pending discard marks.  Seats are *relative* to the observer: index 0
is the observer, 1 the next seat clockwise, 2 the one after.  :data:`OBSERVATION_LAYOUT` names each slice;
:func:`views` returns the named, reshaped views of a tensor.

>>> from mizerka import Deal
>>> deal = Deal.random(3, dealer=0)
>>> encoder = ObservationEncoder()
>>> tensor = encoder.encode(deal.observation(1))
>>> tensor.shape, tensor.dtype
((647,), dtype('float32'))
>>> parts = views(tensor)
>>> int(parts["hand"].sum()), parts["phase"].tolist(), parts["role"].tolist()
(6, [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0])
>>> [action_name(a) for a in legal_action_ids(deal.observation(1))]
['choose C', 'choose D', 'choose H', 'choose S', 'choose NT', 'choose MZ']
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from mizerka._checks import whole_number
from mizerka.cards import CARDS, CardSet
from mizerka.deal import Action, Choose, Exchange, Observation, Phase, Play
from mizerka.rules import Contract

__all__ = [
    "CHOOSE_BASE",
    "DISCARD_BASE",
    "DONE",
    "INFORMATION_STATE_SIZE",
    "N_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PLAY_BASE",
    "RECALL_LAYOUT",
    "ActionOutOfRangeError",
    "EnvActionError",
    "IllegalEnvActionError",
    "ObservationEncoder",
    "PendingMarksError",
    "action_name",
    "check_action_id",
    "legal_action_ids",
    "views",
]

PLAY_BASE: Final = 0
DISCARD_BASE: Final = 52
CHOOSE_BASE: Final = 104
DONE: Final = 110
N_ACTIONS: Final = 111

ENCODING_VERSION: Final = 0
"""Bumped (with the environments' ``_vN`` suffix) whenever the actions or the observation change."""


class EnvActionError(ValueError):
    """An action an environment cannot apply.  The subclasses say why."""


class ActionOutOfRangeError(EnvActionError):
    """An action that is not an integer id 0–110."""


class IllegalEnvActionError(EnvActionError):
    """An action id the rules forbid in the current position; the message names the reason."""


class PendingMarksError(ValueError):
    """Pending discard marks that are not a mask of cards in the observing seat's hand.

    The marks are a 52-bit mask (bit ``13 * suit + rank`` per card) of cards the seat holds: a negative number,
    a bit above 51 or a card the seat does not hold is refused, since it would be encoded as a card it may not
    see or, for a bit above 51, written into another part of the tensor.
    """


def check_pending(observation: Observation, pending: int) -> None:
    """Raise :class:`PendingMarksError` unless *pending* is a mask of cards in *observation*'s hand.

    Two integer tests on the hot path: a mask of held cards has no bit outside ``hand.mask`` (a negative number
    has infinitely many, in Python's two's-complement view, so it fails the same test).

    >>> from mizerka import Deal
    >>> check_pending(Deal.random(3, dealer=0).observation(1), -1)
    Traceback (most recent call last):
    ...
    mizerka.envs.encoding.PendingMarksError: pending discard marks -1 are negative: they must mark cards in the hand
    """
    if pending and pending & ~observation.hand.mask:
        if isinstance(pending, bool) or not isinstance(pending, int):
            raise PendingMarksError(f"pending discard marks must be an int mask of cards, not {type(pending).__name__}")
        if pending < 0:
            problem = "are negative"
        elif pending >> 52:
            problem = "have bits above 51 (no such card)"
        else:
            outside = CardSet(pending & ~observation.hand.mask)
            problem = f"mark cards not in the hand ({' '.join(str(card) for card in outside)})"
        raise PendingMarksError(f"pending discard marks {pending} {problem}: they must mark cards in the hand")


def check_action_id(action: object) -> int:
    """*action* as a plain int id (numpy integers and 0-d integer arrays accepted).

    >>> check_action_id(np.int64(7))
    7
    >>> check_action_id(111)
    Traceback (most recent call last):
    ...
    mizerka.envs.encoding.ActionOutOfRangeError: action 111 is out of range: ids are 0-110
    """
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ActionOutOfRangeError(f"action {action!r} is not an integer id 0-{N_ACTIONS - 1}")
    value = int(action)
    if not 0 <= value < N_ACTIONS:
        raise ActionOutOfRangeError(f"action {value} is out of range: ids are 0-{N_ACTIONS - 1}")
    return value


def action_name(action_id: int) -> str:
    """A readable name: ``play QH``, ``discard 2C``, ``choose NT``, ``done``."""
    if PLAY_BASE <= action_id < DISCARD_BASE:
        return f"play {CARDS[action_id]}"
    if DISCARD_BASE <= action_id < CHOOSE_BASE:
        return f"discard {CARDS[action_id - DISCARD_BASE]}"
    if CHOOSE_BASE <= action_id < DONE:
        return f"choose {Contract(action_id - CHOOSE_BASE)}"
    if action_id == DONE:
        return "done"
    raise ActionOutOfRangeError(f"action {action_id!r} is out of range: ids are 0-{N_ACTIONS - 1}")


def action_id(action: Action) -> int:
    """The id of a card play or a contract choice (an exchange is several ids: marks, then ``done``)."""
    if isinstance(action, Play):
        return PLAY_BASE + int(action.card)
    if isinstance(action, Choose):
        return CHOOSE_BASE + int(action.contract)
    raise EnvActionError(f"an exchange has no single action id: {action}")


def exchange_limit(observation: Observation) -> int:
    """How many cards the observing seat may discard: at most its hand and the talon's size."""
    return min(len(observation.hand), observation.talon_size)


def legal_action_ids(observation: Observation, pending: int = 0) -> list[int]:
    """The legal ids for the observing seat, ascending (empty when it is not its turn).

    *pending* is the mask of the cards it has marked so far in its exchange.

    Raises:
        PendingMarksError: when *pending* is not a mask of cards in the seat's hand.
    """
    if not observation.is_my_turn():
        return []
    if pending:
        check_pending(observation, pending)
    phase = observation.phase
    if phase is Phase.PLAY:
        return sorted(int(a.card) for a in observation.legal_actions if isinstance(a, Play))
    if phase is Phase.CHOOSE:
        return [CHOOSE_BASE + int(c) for c in observation.allowed_contracts]
    if phase is Phase.EXCHANGE:
        ids: list[int] = []
        if pending.bit_count() < exchange_limit(observation):
            floor = pending.bit_length()  # marks go in ascending order: only cards above the highest mark
            hand = observation.hand.mask & ~pending
            ids = [DISCARD_BASE + c for c in range(floor, 52) if hand >> c & 1]
        ids.append(DONE)
        return ids
    return []


def illegal_reason(observation: Observation, pending: int, action: int) -> str | None:
    """Why id *action* is illegal for the observing seat now, or ``None`` if it is legal."""
    if not observation.is_my_turn():
        return f"seat {observation.seat} is not to move"
    if action in legal_action_ids(observation, pending):
        return None
    phase = observation.phase.name.lower()
    name = action_name(action)
    if CHOOSE_BASE <= action < DONE:
        if observation.phase is not Phase.CHOOSE:
            return f"cannot {name} in the {phase} phase"
        return f"contract {Contract(action - CHOOSE_BASE)} is not available to forehand"
    if action < DISCARD_BASE:
        if observation.phase is not Phase.PLAY:
            return f"cannot {name} in the {phase} phase"
        if not observation.hand.mask >> action & 1:
            return f"{CARDS[action]} is not in your hand"
        return "you must follow suit"
    if observation.phase is not Phase.EXCHANGE:
        return f"cannot {name} in the {phase} phase"
    card = action - DISCARD_BASE
    if not observation.hand.mask >> card & 1:
        return f"{CARDS[card]} is not in your hand"
    if pending >> card & 1:
        return f"{CARDS[card]} is already marked for discard"
    if pending.bit_count() >= exchange_limit(observation):
        return f"you may discard at most {exchange_limit(observation)} cards"
    return "discard marks go in ascending card order"


def pending_exchange(pending: int) -> Exchange:
    """The exchange that ``done`` makes from a mask of marks."""
    return Exchange(CardSet(pending))


# -- the observation tensor ------------------------------------------------------------------------

OBSERVATION_LAYOUT: Final[tuple[tuple[str, tuple[int, ...], str], ...]] = (
    ("hand", (52,), "the cards in your hand now"),
    ("discards", (52,), "the cards you discarded in your exchange"),
    ("drawn", (52,), "the cards you drew from the talon"),
    ("pending", (52,), "the cards you have marked for discard in your unfinished exchange"),
    ("played", (3, 52), "cards played so far by each relative seat (earlier tricks and the current one)"),
    ("trick", (3, 52), "the cards in the current trick, by relative seat"),
    ("voids", (3, 4), "suits each relative seat has shown it lacks by not following suit (C D H S)"),
    ("shown_card", (52,), "the talon card turned up as a reminder, in variants that show it"),
    ("phase", (4,), "one-hot: choose, exchange, play, done"),
    ("role", (3,), "your role one-hot: forehand, middlehand, dealer (all zero if you sit out)"),
    ("to_move", (3,), "relative seat to move, one-hot"),
    ("trick_leader", (3,), "relative seat that led the current trick, one-hot"),
    ("contract", (6,), "the contract, one-hot C D H S NT MZ (zero before the choice)"),
    ("allowed_contracts", (6,), "the contracts forehand may still choose"),
    ("exchanged", (3,), "1 for each relative seat whose exchange is over"),
    ("exchange_counts", (3,), "cards each relative seat exchanged, / 13"),
    ("talon_size", (1,), "cards left in the talon, / 13"),
    ("tricks_won", (3,), "tricks won by each relative seat, / 13"),
    ("quotas", (3,), "each relative seat's quota under the contract, / 13"),
    ("hand_sizes", (3,), "cards held by each relative seat, / 13"),
    ("deal_no", (1,), "the deal's number in the match / the number of deals (1/n_deals for a single deal)"),
    ("totals", (3,), "each relative seat's match total before this deal, / (13 * number of deals)"),
    ("used", (3, 6), "the contracts each relative seat has used in the match"),
)
"""``(name, shape, meaning)`` of each slice of the flat observation, in order.  The sizes are for three seats."""


RECALL_LAYOUT: Final[tuple[tuple[str, tuple[int, ...], str], ...]] = (
    ("plays", (39, 52), "the cards in order of play: row i is the (i + 1)-th card played, in every trick"),
    ("first_cards", (52,), "the six cards you held when forehand chose the contract (zero in a public view)"),
)
"""``(name, shape, meaning)`` of the sections that OpenSpiel's perfect-recall information-state tensor adds after
the observation (:mod:`mizerka.envs.openspiel`), in order: ``plays`` starts at offset :data:`OBSERVATION_SIZE`."""


def _offsets(layout: tuple[tuple[str, tuple[int, ...], str], ...], start: int = 0
             ) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    offsets: dict[str, tuple[int, int, tuple[int, ...]]] = {}
    for name, shape, _ in layout:
        size = int(np.prod(shape))
        offsets[name] = (start, start + size, shape)
        start += size
    return offsets


_OFFSETS: Final = _offsets(OBSERVATION_LAYOUT)
OBSERVATION_SIZE: Final = max(end for _, end, _ in _OFFSETS.values())
_RECALL_OFFSETS: Final = {**_OFFSETS, **_offsets(RECALL_LAYOUT, OBSERVATION_SIZE)}
INFORMATION_STATE_SIZE: Final = max(end for _, end, _ in _RECALL_OFFSETS.values())
"""The length of OpenSpiel's information-state tensor: the observation, then the sections of :data:`RECALL_LAYOUT`."""


def views(tensor: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
    """The named, reshaped views (not copies) of a flat observation tensor, as :data:`OBSERVATION_LAYOUT` lists.

    A batch of tensors (any leading axes, as a vector environment's ``obs["observation"]`` of shape ``(n, 647)``)
    gives views with the same leading axes: ``views(batch)["played"]`` has shape ``(n, 3, 52)``.  An OpenSpiel
    information-state tensor (:data:`INFORMATION_STATE_SIZE` floats) gives the sections of :data:`RECALL_LAYOUT`
    as well, ``plays`` and ``first_cards``:

    >>> sorted(views(np.zeros((2, INFORMATION_STATE_SIZE), np.float32)).keys() - views(np.zeros(647)).keys())
    ['first_cards', 'plays']
    >>> views(np.zeros((2, INFORMATION_STATE_SIZE), np.float32))["plays"].shape
    (2, 39, 52)

    Raises:
        ValueError: for an array whose last axis is neither :data:`OBSERVATION_SIZE` nor
            :data:`INFORMATION_STATE_SIZE` long (a flattened dict observation, which also holds the action mask),
            naming its shape.
    """
    shape = getattr(tensor, "shape", None)
    if not isinstance(tensor, np.ndarray) or not shape or shape[-1] not in (OBSERVATION_SIZE, INFORMATION_STATE_SIZE):
        raise ValueError(
            f"views() takes observation tensors of {OBSERVATION_SIZE} floats or information-state tensors of "
            f"{INFORMATION_STATE_SIZE} (last axis), not an array of shape "
            f"{shape if shape is not None else type(tensor).__name__}"
        )
    lead = shape[:-1]
    offsets = _OFFSETS if shape[-1] == OBSERVATION_SIZE else _RECALL_OFFSETS
    return {name: tensor[..., start:end].reshape(lead + part) for name, (start, end, part) in offsets.items()}


_START: Final = {name: start for name, (start, _, _) in _OFFSETS.items()}


def _add_bits(ones: list[int], offset: int, mask: int) -> None:
    """Append ``offset + card`` for every card in the 52-bit *mask*."""
    while mask:
        low = mask & -mask
        ones.append(offset + low.bit_length() - 1)
        mask ^= low


class ObservationEncoder:
    """Turns an :class:`~mizerka.deal.Observation` into the flat tensor of :data:`OBSERVATION_LAYOUT`.

    Only three-player tables are encoded (the standard game and its three-seat variants); a four-player
    observation raises :class:`ValueError`.  The tensor holds nothing that is not in the observation, except the
    observer's own *pending* discard marks, which are its own unfinished decision.
    """

    def encode(
        self, observation: Observation, pending: int = 0, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation tensor (written into *out* when given, else a new array).

        Raises:
            ValueError: for a spectator's observation (no seat), a table of four, or an *out* that is not a
                float array of shape ``(OBSERVATION_SIZE,)``.
            PendingMarksError: when *pending* is not a mask of cards in the seat's hand.
        """
        obs = observation
        rules = obs.rules
        if obs.seat is None:
            raise ValueError("an observation tensor is built for a seat, not for a spectator")
        if rules.n_seats != 3:
            raise ValueError(f"the observation tensor covers three-seat tables, not {rules.n_seats}")
        if out is None:
            tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        else:
            if not isinstance(out, np.ndarray) or out.shape != (OBSERVATION_SIZE,):
                shape = getattr(out, "shape", type(out).__name__)
                raise ValueError(f"out must be a float array of shape ({OBSERVATION_SIZE},), not {shape}")
            if not np.issubdtype(out.dtype, np.floating):
                raise ValueError(f"out must be a float array (float32 is the tensor's dtype), not {out.dtype}")
            tensor = out
            tensor.fill(0.0)
        self.fill(tensor, obs, obs.seat, pending)
        return tensor

    def encode_public(self, observation: Observation, viewpoint: int) -> npt.NDArray[np.float32]:
        """The tensor of a spectator's observation (public information only), seats relative to *viewpoint*.

        Raises:
            ValueError: for an observation with a seat, or a *viewpoint* that is no seat 0–2 (NumPy integers are
                taken; ``5`` would have been read as seat 2, ``-1`` as seat 2 and ``True`` as seat 1).
        """
        if observation.seat is not None:
            raise ValueError("encode_public takes a spectator's observation (seat None)")
        seat = whole_number(viewpoint)
        if seat is None or not 0 <= seat < 3:
            raise ValueError(f"encode_public: viewpoint must be a seat 0-2, not {viewpoint!r}")
        tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.fill(tensor, observation, seat, 0)
        return tensor

    def fill(self, tensor: npt.NDArray[np.float32], obs: Observation, me: int, pending: int) -> None:
        """Write the observation into a zeroed *tensor*; seats are numbered relative to *me*.

        The one-hot parts are collected as a list of indices and written in one scatter, which keeps the
        encoder cheap next to the engine (a few tens of microseconds).

        Raises:
            PendingMarksError: when *pending* is not a mask of cards in the observing seat's hand (a spectator
                has no hand, so it may have no marks).
        """
        if pending:
            check_pending(obs, pending)
        at = _START
        ones: list[int] = []
        values: dict[int, float] = {}
        if obs.seat is not None:
            _add_bits(ones, at["hand"], obs.hand.mask)
            _add_bits(ones, at["discards"], obs.discards.mask)
            _add_bits(ones, at["drawn"], obs.drawn.mask)
            _add_bits(ones, at["pending"], pending)

        # cards played, the current trick and shown voids, from the public trick record
        order = obs.active_seats
        rel = [(seat - me) % 3 for seat in range(3)]
        played = [0, 0, 0]
        voids = [0, 0, 0]
        for trick in obs.tricks:
            start = order.index(trick.leader)
            cards = trick.cards
            led = cards[0] // 13
            for i in range(3):
                seat = order[(start + i) % 3]
                card = cards[i]
                played[seat] |= 1 << card
                if card // 13 != led:
                    voids[seat] |= 1 << led
        if obs.trick:
            start = order.index(obs.trick_leader)
            led = obs.trick[0] // 13
            trick_at = at["trick"]
            for i, card in enumerate(obs.trick):
                seat = order[(start + i) % 3]
                played[seat] |= 1 << card
                ones.append(trick_at + 52 * rel[seat] + card)
                if card // 13 != led:
                    voids[seat] |= 1 << led
        for seat in range(3):
            _add_bits(ones, at["played"] + 52 * rel[seat], played[seat])
            _add_bits(ones, at["voids"] + 4 * rel[seat], voids[seat])
        if obs.shown_card is not None:
            ones.append(at["shown_card"] + int(obs.shown_card))

        ones.append(at["phase"] + int(obs.phase))
        role = obs.role
        if role is not None and obs.seat is not None:
            ones.append(at["role"] + int(role))
        if obs.to_move >= 0:
            ones.append(at["to_move"] + rel[obs.to_move])
        ones.append(at["trick_leader"] + rel[obs.trick_leader])
        contract = obs.contract
        if contract is not None:
            ones.append(at["contract"] + int(contract))
        for allowed in obs.allowed_contracts:
            ones.append(at["allowed_contracts"] + int(allowed))
        for seat, count in enumerate(obs.exchange_counts):
            if count is not None:
                ones.append(at["exchanged"] + rel[seat])
                values[at["exchange_counts"] + rel[seat]] = count / 13.0
        values[at["talon_size"]] = obs.talon_size / 13.0
        for seat in range(3):
            values[at["tricks_won"] + rel[seat]] = obs.tricks_won[seat] / 13.0
            values[at["hand_sizes"] + rel[seat]] = obs.hand_sizes[seat] / 13.0
        if contract is not None:
            quotas = obs.rules.quota_mizerka if contract is Contract.MIZERKA else obs.rules.quota_ordinary
            for role_index, seat in enumerate(order):
                values[at["quotas"] + rel[seat]] = quotas[role_index] / 13.0
        n_deals = obs.rules.n_deals
        values[at["deal_no"]] = obs.deal_no / n_deals
        if obs.totals:
            scale = 13.0 * n_deals
            for seat, total in enumerate(obs.totals):
                values[at["totals"] + rel[seat]] = total / scale
        if obs.used:
            for seat, contracts in enumerate(obs.used):
                for used in contracts:
                    ones.append(at["used"] + 6 * rel[seat] + int(used))
        tensor[ones] = 1.0
        if values:
            tensor[list(values)] = list(values.values())
