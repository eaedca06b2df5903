"""`record.read` given a file name as a ``str``: the refusal says how to read the file.

A ``str`` is always the record's text (python-chess's readers take a file; ours take the text), so
``read("game.mzn")`` cannot succeed.  Before, the message only said "unexpected line 'game.mzn' outside a
section", which does not tell a user what to do.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mizerka import record
from mizerka.rules import Rules


@pytest.mark.parametrize("name", ["game.mzn", "/home/ala/friday.json", "  games/one.mzn  "])
def test_a_file_name_given_as_text_is_refused_with_the_way_to_read_the_file(name: str) -> None:
    with pytest.raises(record.RecordSyntaxError) as caught:
        record.read(name)
    message = str(caught.value)
    assert f"pass pathlib.Path({name.strip()!r})" in message
    assert caught.value.line_no == 1


def test_the_path_the_message_names_reads_the_record(tmp_path: Path) -> None:
    match = record.MatchRecord(rules=Rules(), players=("Ala", "Bartek", "Cezary"), first_dealer=0)
    file = tmp_path / "game.mzn"
    file.write_text(match.to_text(), encoding="utf-8")
    assert record.read(file).players == match.players


def test_text_of_several_lines_gets_no_file_hint() -> None:
    with pytest.raises(record.RecordSyntaxError) as caught:
        record.read("x\ny")
    assert "pathlib" not in str(caught.value)


def test_a_file_or_bytes_of_one_bad_line_gets_no_file_hint(tmp_path: Path) -> None:
    """Only a ``str`` can be a file name meant as one: a file that was read (a path, as ``mizerka analyse``,
    ``replay`` and ``solve`` pass it) or bytes holding one line that is no record get the plain refusal."""
    file = tmp_path / "hello.txt"
    file.write_text("hello\n", encoding="utf-8")
    for source in (file, b"hello"):
        with pytest.raises(record.RecordSyntaxError) as caught:
            record.read(source)
        assert "pathlib" not in str(caught.value) and "hello" in str(caught.value)
