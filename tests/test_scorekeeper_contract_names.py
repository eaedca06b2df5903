"""The contract's name as a Polish table says it: ``mizerka score`` takes trefl, karo, kier, pik (and plurals), bez
atu (``BA``) and mizerka beside the letters, symbols and English names, and a name it does not know is refused
with a message that says what it takes."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.rules import Contract
from mizerka.scorekeeper import EntryError, ScoreKeeper


def keeper() -> ScoreKeeper:
    return ScoreKeeper.new(["Ala", "Bolek", "Cezary"], first_dealer="Cezary")


@pytest.mark.parametrize(
    ("typed", "contract"),
    [
        ("trefl", Contract.CLUBS), ("Trefle", Contract.CLUBS), ("karo", Contract.DIAMONDS),
        ("kier", Contract.HEARTS), ("KIERY", Contract.HEARTS), ("pik", Contract.SPADES), ("piki", Contract.SPADES),
        ("bez atu", Contract.NO_TRUMP), ("Bez  Atu", Contract.NO_TRUMP), ("bez-atu", Contract.NO_TRUMP),
        ("bezatu", Contract.NO_TRUMP), ("BA", Contract.NO_TRUMP), ("mizerka", Contract.MIZERKA),
        # the English names and the letters as before
        ("hearts", Contract.HEARTS), ("no trump", Contract.NO_TRUMP), ("D", Contract.DIAMONDS), ("♠", Contract.SPADES),
    ],
)
def test_polish_and_english_contract_names(typed: str, contract: Contract) -> None:
    assert keeper().enter_contract(typed) is contract


def test_a_used_contract_by_its_polish_name_is_refused_as_used() -> None:
    k = keeper()
    k.enter_contract("H")
    k.enter_tricks("7 5 1")
    k.enter_contract("S")
    k.enter_tricks("7 5 1")
    k.enter_contract("C")
    k.enter_tricks("7 5 1")
    with pytest.raises(EntryError, match=r"^Ala has no ♥ left to choose \(already used\)"):
        k.enter_contract("kier")


def test_an_unknown_name_says_what_is_taken() -> None:
    with pytest.raises(EntryError) as error:
        keeper().enter_contract("kierki")
    assert str(error.value).startswith("'kierki' is not a contract: use one of C D H S NT MZ, a suit symbol")
    assert "kier" in str(error.value) and "bez atu" in str(error.value)


def test_polish_names_at_the_table(tmp_path: object) -> None:
    lines = ["Ala", "Bolek", "Cezary", "Cezary", "kier", "7 5 1", "bez atu", "5 7 1", "quit"]
    result = CliRunner().invoke(cli, ["score", "--file", f"{tmp_path}/m.mzn"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "Not accepted" not in result.output
    assert "Deal 1 (hearts, take)" in result.output and "Deal 2 (no-trump, take)" in result.output
