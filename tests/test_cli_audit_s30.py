"""Audit of session 30: what the record reader, the line game, the score keeper and the server links did with bad
input.

Each test names what used to go wrong.  Library input raises a ``ValueError`` that names the problem; the command
line says it and exits non-zero, without a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import mizerka.record
from mizerka.cli import cli
from mizerka.record import DealRecord, MatchRecord, RecordError, RecordSyntaxError, from_dict, read_json, read_text
from mizerka.scorekeeper import EntryError, ScoreKeeper
from mizerka.tui.remote import RemoteError, _call_server, parse_invite, parse_server

RECORDS = Path(__file__).parent / "data" / "records"
JSON_RECORD: dict[str, Any] = json.loads((RECORDS / "standard-seed7.json").read_text(encoding="utf-8"))
TEXT_RECORD = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8")


def mutated(change: dict[str, Any] | None = None, **deal_one: Any) -> dict[str, Any]:
    """The golden JSON record with the match fields of *change* and deal 1's fields of *deal_one* replaced."""
    data = copy.deepcopy(JSON_RECORD)
    data.update(change or {})
    data["deals"][0].update(deal_one)
    return data


def replay(tmp_path: Path, data: dict[str, Any] | str, name: str = "record.json") -> tuple[int, str]:
    """``mizerka replay`` of *data* (JSON data, or the text of a record): its exit code and output."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


# -- JSON records: no line 0 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "where", "card"), [
    ({"deck": JSON_RECORD["deals"][0]["deck"].replace("TD", "XX", 1)}, "deal 1: ", "XX"),
    ({"exchanges": ["QQ", *JSON_RECORD["deals"][0]["exchanges"][1:]]}, "deal 1: ", "QQ"),
    ({"tricks": [{"leader": 2, "cards": "TC 6C ZZ"}, *JSON_RECORD["deals"][0]["tricks"][1:]]}, "deal 1, trick 1: ",
     "ZZ"),
])
def test_a_bad_card_in_a_json_record_is_placed_by_deal_not_at_line_0(
        tmp_path: Path, change: dict[str, Any], where: str, card: str) -> None:
    """JSON has no lines, but the reader passed line 0 for a card in a deck, an exchange or a trick, and the message
    began ``line 0, deal 1: invalid card 'XX'``."""
    with pytest.raises(RecordSyntaxError) as info:
        from_dict(mutated(**change))
    assert info.value.line_no is None
    assert str(info.value).startswith(f"{where}invalid card {card!r}"), str(info.value)
    code, output = replay(tmp_path, mutated(**change))
    assert code != 0 and f"{where}invalid card {card!r}" in output and "line 0" not in output, output


# -- players' names: nothing invisible, no two alike -----------------------------------------------------------


@pytest.mark.parametrize(("name", "named"), [
    ("Cezary\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("Ce\u2060zary", "U+2060 (WORD JOINER)"),
    ("Ce\u00adzary", "U+00AD (SOFT HYPHEN)"),
    ("\u3164", "U+3164 (HANGUL FILLER)"),
    ("\u00a0", "no visible character"),
    ("\u0301", "U+0301 (COMBINING ACUTE ACCENT)"),
    ("Cezary\ufe0f", "U+FE0F (VARIATION SELECTOR-16)"),
])
def test_a_name_that_does_not_show_what_it_is_is_refused_in_both_forms(
        tmp_path: Path, name: str, named: str) -> None:
    """``mizerka replay`` took a player named "Ala" and a zero-width space, a lone
    combining mark, a word joiner, a soft hyphen or a no-break space alone (``mizerka score --resume`` refused some
    of them): names that pass for another, or show as nothing.  Each is refused, naming the character."""
    with pytest.raises(RecordError, match="player 2's name") as info:
        from_dict(mutated({"players": ["Ala", "Bolek", name]}))
    assert named in str(info.value)
    text = TEXT_RECORD.replace('[Player2 "Cezary"]', f'[Player2 "{name}"]')
    with pytest.raises(RecordSyntaxError, match="player 2's name") as text_info:
        read_text(text)
    assert named in str(text_info.value) and text_info.value.line_no == 9
    code, output = replay(tmp_path, mutated({"players": ["Ala", "Bolek", name]}))
    assert code != 0 and named in output, output


@pytest.mark.parametrize("name", ["ALA", "ala", "\uff21la", "\uff21\uff4c\uff41", "Ala ", " Ala", "Ala\u00a0"])
def test_names_that_fold_to_one_name_are_refused(name: str) -> None:
    """Two players whose names differ only in case or in the Unicode form of their letters ("Ala" and the
    full-width "Ａla") were two players to the reader, though a score sheet cannot tell them apart and the score
    keeper and the server count them as one name."""
    with pytest.raises(RecordError, match="player names must differ: player 0's name 'Ala' and player 2's name"):
        from_dict(mutated({"players": ["Ala", "Bolek", name]}))


@pytest.mark.parametrize("name", ["Zoe\u0308", "Łukasz", "Ola \u2764\ufe0f", "王 😀", "Jan  Kowalski", "C\u0301"])
def test_names_that_show_what_they_are_are_still_recorded(name: str) -> None:
    """The new rule refuses invisible characters, not scripts, accents, emoji (with the selector a phone adds after
    a symbol) or spaces inside a name."""
    assert mizerka.record.check_name(name) == name  # the rule mizerka play --name is checked by too
    record = from_dict(mutated({"players": ["Ala", "Bolek", name]}))
    assert read_text(record.to_text()) == record == read_json(record.to_json())


# -- JSON numbers are whole --------------------------------------------------------------------------------------


@pytest.mark.parametrize("result", [[10.0, 1, -11], [10, 1.0, -11.0]])
def test_a_result_of_floats_is_refused(tmp_path: Path, result: list[float]) -> None:
    """``"result": [10.0, 1, -11]`` was taken, since 10.0 == 10: a total is a whole number, as a bool already was
    refused."""
    with pytest.raises(RecordSyntaxError, match=r"the result's totals must be whole numbers, not \[10"):
        from_dict(mutated({"result": result}))
    code, output = replay(tmp_path, mutated({"result": result}))
    assert code != 0 and "whole numbers" in output, output


@pytest.mark.parametrize("field", ["number", "dealer"])
def test_a_deal_record_with_a_float_number_or_dealer_is_refused(field: str) -> None:
    """A :class:`DealRecord` built in Python with ``number=1.0`` or ``dealer=1.0`` passed (1.0 == 1) and was
    written back as ``[Deal "1.0"]``, a record no reader takes."""
    record = from_dict(JSON_RECORD)
    deal = record.deals[0]
    bad = DealRecord(**{**{f: getattr(deal, f) for f in ("number", "dealer", "deck", "contract", "exchanges",
                                                           "tricks")}, field: float(getattr(deal, field))})
    with pytest.raises(RecordError, match=f"deal 1: the {'deal number' if field == 'number' else 'dealer'} must be "
                                          "a whole number, not 1.0"):
        MatchRecord(record.rules, record.players, record.first_dealer, (bad,))


# -- a deal has n_tricks tricks ------------------------------------------------------------------------------


def test_a_fourteenth_trick_is_called_one_too_many(tmp_path: Path) -> None:
    """A 14th trick line in a deal's [Play] was played into the next deal ("cannot play a card in the choose
    phase"), or after the last deal ("the match is over")."""
    first = TEXT_RECORD.replace("13 @2: 9H 7D 9S\n", "13 @2: 9H 7D 9S\n14 @2: 9H 7D 9S\n", 1)
    last_line = TEXT_RECORD.rpartition("\n13 @")[2]
    last_line = "13 @" + last_line.split("\n", 1)[0]
    last = TEXT_RECORD.replace(last_line, last_line + "\n14 " + last_line[3:])
    for text, deal in ((first, 1), (last, 18)):
        with pytest.raises(RecordError) as info:
            read_text(text)
        assert str(info.value) == f"deal {deal}, trick 14: a deal has 13 tricks, so trick 14 is one too many"
        code, output = replay(tmp_path, text, "record.mzn")
        assert code != 0 and "trick 14 is one too many" in output, output
    data = mutated()
    data["deals"][0]["tricks"].append({"leader": 2, "cards": "9H 7D 9S"})
    with pytest.raises(RecordError, match="deal 1, trick 14: a deal has 13 tricks, so trick 14 is one too many"):
        from_dict(data)


# -- mizerka play --name -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "words"), [
    ("x" * 1001, "at most 1000 characters"),
    ("Ala\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u0301x", "U+0301 (COMBINING ACUTE ACCENT)"),
])
def test_play_refuses_a_name_no_record_can_hold_before_the_match(tmp_path: Path, name: str, words: str) -> None:
    """``mizerka play --name`` took 1001 characters (or an invisible one), and then every save of ``--record``
    failed ("player 0's name ... must be one line of at most 1000 characters"): the whole match went unrecorded.
    The name is refused up front, by the record's own rule, as a usage error."""
    record = tmp_path / "match.mzn"
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--name", name, "--record", str(record)],
                                input="quit\n")
    assert result.exit_code == 2 and "--name" in result.output and words in result.output, result.output
    assert "Traceback" not in result.output and not record.exists()


def test_play_gives_no_computer_player_a_name_that_folds_to_the_human_s() -> None:
    """The computer players' names were left out only when equal to the human's ignoring case, so ``--name Ａｌａ``
    (full width) sat beside the computer's "Ala": two names a record refuses as one."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--name", "\uff21\uff4c\uff41"],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    table = next(line for line in result.output.splitlines() if line.startswith("Mizerka, "))
    assert "Ala (" not in table and "Bolek (" in table, table


# -- the line game's refusals --------------------------------------------------------------------------------------


def test_a_huge_answer_is_quoted_in_part() -> None:
    """A line of 100 000 characters piped to ``mizerka play --plain`` was echoed in full and then quoted three times
    in "Not accepted: invalid action 'x…': invalid card 'x…' in 'x…'" (a megabyte in made 4 MB out)."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1"], input="x" * 100_000 + "\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert len(result.output) < 5_000, len(result.output)
    assert "Not accepted: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100000 characters)" in result.output


def test_a_long_bad_answer_that_reaches_the_engine_is_quoted_once_in_part() -> None:
    """An answer of 60 characters is given to the engine, whose message quotes it; the line game cuts each quote to
    40 characters and "…"."""
    answer = "x" * 60
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1"], input=f"{answer}\nquit\n")
    refusal = next(line for line in result.output.splitlines() if line.startswith("Not accepted"))
    assert answer not in refusal and "'" + "x" * 40 + "'…" in refusal, refusal


# -- mizerka score: a huge trick count --------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ["99999999999999999999999999 0 0", "Ala 99999999999999999999999999 Bolek 0",
                                   "1" * 5000 + " 0 0"])
def test_a_huge_trick_count_is_too_many_tricks_not_a_word(entry: str) -> None:
    """More than 6 digits was no number to the trick reader: ``99999999999999999999999999 0 0`` was "neither a
    number of tricks nor a player's name", where -1 gets "Ala cannot take -1 tricks (0 to 13)"."""
    keeper = ScoreKeeper.new(["Ala", "Bolek", "Cezary"], 2)
    keeper.enter_contract("H")
    with pytest.raises(EntryError) as info:
        keeper.parse_tricks(entry)
    message = str(info.value)
    assert "cannot take " in message and "… tricks (0 to 13)" in message and len(message) < 100, message


# -- server addresses with a malformed host name --------------------------------------------------------------


@pytest.mark.parametrize("host", ["x..y", "a" * 64 + ".org", ".x"])
def test_a_malformed_host_name_is_a_bad_address(host: str) -> None:
    """``mizerka tables http://x..y`` (or a label over 63 characters) was "did not answer like a mizerka server (no
    JSON)": urllib's IDNA encoding raised UnicodeError, a ValueError, caught as the JSON decoder's.  It is a bad
    address, named, and a usage error like the others."""
    with pytest.raises(RemoteError, match=f"names the server {host!r}, which is no host name"):
        parse_server(f"http://{host}")
    with pytest.raises(RemoteError, match="which is no host name"):
        parse_invite(f"http://{host}/?table=abc")
    result = CliRunner().invoke(cli, ["tables", f"http://{host}"])
    assert result.exit_code == 2 and "no host name" in result.output and "JSON" not in result.output, result.output
    result = CliRunner().invoke(cli, ["play", "--plain", "--connect", f"http://{host}/?table=abc"], input="")
    assert result.exit_code == 2 and "no host name" in result.output, result.output


def test_a_server_call_to_an_unusable_address_is_not_called_a_bad_answer() -> None:
    """The request itself failing with a ValueError (an address IDNA cannot encode) was reported as an answer that
    is not JSON; only the answer's decoding is that."""
    with pytest.raises(RemoteError) as info:
        _call_server("http://x..y", "/api/tables", None, 1.0)
    assert "cannot reach the server at http://x..y" in str(info.value) and "JSON" not in str(info.value)


def test_a_port_that_does_not_answer_in_http_is_no_mizerka_server() -> None:
    """``mizerka tables http://127.0.0.1:PORT`` where another service answers a line that is no HTTP status ended in
    a traceback (``http.client.BadStatusLine``, which is neither an ``OSError`` nor a ``ValueError``)."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]

    def answer_junk() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                with conn:
                    conn.recv(4096)
                    conn.sendall(b"HELLO THIS IS NOT HTTP\r\n\r\n")

    threading.Thread(target=answer_junk, daemon=True).start()
    try:
        result = CliRunner().invoke(cli, ["tables", f"http://127.0.0.1:{port}"])
    finally:
        listener.close()
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result  # click's exit, no traceback
    assert "did not answer like a mizerka server (not HTTP: BadStatusLine)" in result.output, result.output
