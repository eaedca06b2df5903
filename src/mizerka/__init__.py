"""Mizerka, the Polish three-player trick-taking game: rules engine, records, solver and bots.

The core (this package's top-level modules) imports only the standard library.
"""

from __future__ import annotations

from mizerka.cards import CARDS, DECK_32, DECK_52, Card, CardParseError, CardSet, Rank, Suit, parse_cards
from mizerka.deal import (
    Action,
    Choose,
    Deal,
    DeckError,
    Exchange,
    IllegalActionError,
    InvalidActionError,
    Observation,
    Phase,
    Play,
    Trick,
    action_from_code,
)
from mizerka.match import DealResult, Match, MatchError, Outcome
from mizerka.rules import STANDARD, VARIANTS, Contract, Role, Rules, RulesError, get_variant, parse_variant
from mizerka.scoresheet import ScoreSheet

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "DECK_32",
    "DECK_52",
    "STANDARD",
    "VARIANTS",
    "Action",
    "Card",
    "CardParseError",
    "CardSet",
    "Choose",
    "Contract",
    "Deal",
    "DealResult",
    "DeckError",
    "Exchange",
    "IllegalActionError",
    "InvalidActionError",
    "Match",
    "MatchError",
    "Observation",
    "Outcome",
    "Phase",
    "Play",
    "Rank",
    "Role",
    "Rules",
    "RulesError",
    "ScoreSheet",
    "Suit",
    "Trick",
    "__version__",
    "action_from_code",
    "get_variant",
    "parse_cards",
    "parse_variant",
]
