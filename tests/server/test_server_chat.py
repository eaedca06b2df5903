"""Table chat over the websocket, against a real server on 127.0.0.1 (docs/protocol.md, *Chat*).

Two humans and a bot sit at a private table, with a spectator watching: what one human says reaches the other and
the spectator; presets travel as codes; every bad message gets its own error code and the connection goes on; the
per-seat limit; a table without chat; the history on reconnecting.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from server_helpers import WS, ThreadServer

from mizerka.server.chat import CHAT_BURST, CHAT_HISTORY, CHAT_WINDOW, ChatRoom, clean_chat_text
from mizerka.server.protocol import CHAT_PRESETS, SERVER_ADAPTER, ProtocolError, decode_client_message
from mizerka.server.tables import TableError


def make_table(server: ThreadServer, **options: Any) -> tuple[str, list[str]]:
    """A private table of two humans (Ala, Bolek) and a bot; its id and the two seat tokens."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    created = httpx.post(server.url + "/api/tables", json={"seats": seats, "visibility": "private", **options})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": name}).json()["token"]
              for name in ("Ala", "Bolek")]
    return table, tokens


def reply_to(ws: WS, message: dict[str, Any]) -> dict[str, Any]:
    """Send *message* with an id and return the reply that carries it (a chat or an error); events, chat from
    others and the rest meanwhile are skipped."""
    ident = f"c{len(ws.log)}"
    ws.send({**message, "id": ident})
    reply = ws.until(lambda m: m.get("id") == ident and m["type"] in ("chat", "error"))
    SERVER_ADAPTER.validate_python(reply)
    return reply


def next_chat(ws: WS) -> dict[str, Any]:
    message = ws.until(lambda m: m["type"] == "chat")
    SERVER_ADAPTER.validate_python(message)
    return message


@pytest.fixture
def table(server: ThreadServer) -> tuple[str, list[str]]:
    return make_table(server)


def seated(server: ThreadServer, table_id: str, token: str | None) -> WS:
    ws = WS(server.ws_url)
    welcome = ws.hello(table_id, token)
    assert welcome["type"] == "welcome", welcome
    return ws


def test_a_message_reaches_the_other_player_and_a_spectator(server: ThreadServer,
                                                            table: tuple[str, list[str]]) -> None:
    table_id, (ala_token, bolek_token) = table
    ala, bolek, watcher = (seated(server, table_id, t) for t in (ala_token, bolek_token, None))
    try:
        assert ala.view is not None and ala.view["options"]["chat"] is True
        mine = reply_to(ala, {"type": "chat", "text": "  Powodzenia, Bolek! 🙂  "})
        assert mine == {"type": "chat", "id": mine["id"], "seq": 1, "seat": 0, "name": "Ala",
                        "text": "Powodzenia, Bolek! 🙂"}
        for other in (bolek, watcher):
            heard = next_chat(other)
            assert heard == {"type": "chat", "seq": 1, "seat": 0, "name": "Ala", "text": "Powodzenia, Bolek! 🙂"}
        # a preset travels as its code: each client says it in its own language
        thanks = reply_to(bolek, {"type": "chat", "preset": "thanks"})
        assert thanks["preset"] == "thanks" and "text" not in thanks and thanks["seq"] == 2
        assert next_chat(ala)["preset"] == "thanks" and next_chat(watcher)["seat"] == 1
        for code in CHAT_PRESETS[:3]:
            assert reply_to(ala, {"type": "chat", "preset": code})["preset"] == code
    finally:
        for ws in (ala, bolek, watcher):
            ws.close()


def test_bad_messages_get_their_own_code_and_the_socket_goes_on(server: ThreadServer,
                                                               table: tuple[str, list[str]]) -> None:
    table_id, (ala_token, _) = table
    ala, watcher = seated(server, table_id, ala_token), seated(server, table_id, None)
    try:
        refused = {
            "no_seat": (watcher, {"type": "chat", "text": "hello"}),
            "chat_empty": (ala, {"type": "chat", "text": "   \t  "}),
            "chat_too_long": (ala, {"type": "chat", "text": "x" * 201}),
            "chat_bad_char": (ala, {"type": "chat", "text": "one\nline"}),
            "unknown_preset": (ala, {"type": "chat", "preset": "insult"}),
        }
        for code, (ws, message) in refused.items():
            reply = reply_to(ws, message)
            assert reply["type"] == "error" and reply["code"] == code, (code, reply)
        bidi = reply_to(ala, {"type": "chat", "text": "\u202eakrezim"})
        assert bidi["code"] == "chat_bad_char" and "U+202E" in bidi["message"]
        # a message that does not decode is answered with its id all the same, when it has one a reply can carry
        for bad in ({"type": "chat"}, {"type": "chat", "text": "hi", "preset": "hello"},
                    {"type": "chat", "text": 5}, {"type": "chat", "text": "hi", "colour": "red"}):
            reply = reply_to(ala, bad)
            assert reply["type"] == "error" and reply["code"] == "bad_message", bad
        ala.send({"type": "chat", "text": 5, "id": [1]})  # an id no reply can carry: the error has none
        assert ala.until(lambda m: m["type"] == "error")["id"] is None
        long_code = reply_to(ala, {"type": "chat", "preset": "x" * 41})  # any unknown code, however long
        assert long_code["code"] == "unknown_preset" and "…" in long_code["message"]
        for invisible in ("\u200b", "\u3164\u2800", "hi\U000e0073\U000e0065", "a\ufff9b"):
            assert reply_to(ala, {"type": "chat", "text": invisible})["code"] in ("chat_empty", "chat_bad_char")
        flag = reply_to(ala, {"type": "chat", "text": "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e"
                                                    "\U000e0067\U000e007f \U0001f468\u200d\U0001f469"})
        assert flag["type"] == "chat"  # a tag-sequence flag and a joined emoji are visible text
        ala.send('{"type": "chat", "text": "\\ud800"}')  # a lone surrogate is no text
        assert ala.until(lambda m: m["type"] == "error")["code"] == "bad_message"
        # exactly 200 characters is fine, and nothing refused was numbered, kept or counted against the limit
        fine = reply_to(ala, {"type": "chat", "text": "é" * 200})
        assert fine["type"] == "chat" and fine["seq"] == 2
        assert next_chat(watcher)["seq"] == 1 and next_chat(watcher)["seq"] == 2
        for ws in (ala, watcher):
            ws.send({"type": "ping", "id": 9})
            assert ws.until(lambda m: m["type"] == "pong") == {"type": "pong", "id": 9}
    finally:
        ala.close()
        watcher.close()


def test_the_rate_limit_per_seat(server: ThreadServer, table: tuple[str, list[str]]) -> None:
    table_id, (ala_token, bolek_token) = table
    ala, bolek = seated(server, table_id, ala_token), seated(server, table_id, bolek_token)
    try:
        for i in range(CHAT_BURST):
            assert reply_to(ala, {"type": "chat", "text": f"message {i}"})["type"] == "chat"
        sixth = reply_to(ala, {"type": "chat", "text": "one too many"})
        assert sixth["code"] == "rate_limited" and 0 < sixth["retry_after"] <= CHAT_WINDOW
        assert "wait" in sixth["message"]
        # the limit is the seat's: another seat may talk, and the connection stays
        assert reply_to(bolek, {"type": "chat", "preset": "sorry"})["type"] == "chat"
        ala.send({"type": "ping", "id": 1})
        assert ala.until(lambda m: m["type"] == "pong")["id"] == 1
        # a second connection of the same seat shares its limit
        again = seated(server, table_id, ala_token)
        try:
            assert reply_to(again, {"type": "chat", "preset": "hello"})["code"] == "rate_limited"
        finally:
            again.close()
    finally:
        ala.close()
        bolek.close()


def test_a_table_without_chat(server: ThreadServer) -> None:
    table_id, (ala_token, _) = make_table(server, chat=False)
    assert httpx.get(f"{server.url}/api/tables/{table_id}").json()["options"]["chat"] is False
    ala = WS(server.ws_url)
    try:
        welcome = ala.hello(table_id, ala_token)
        assert welcome["view"]["options"]["chat"] is False and welcome["chat"] == []
        assert reply_to(ala, {"type": "chat", "text": "hello?"})["code"] == "chat_off"
        assert reply_to(ala, {"type": "chat", "preset": "hello"})["code"] == "chat_off"
        assert ala.request({"type": "ping", "id": 2})["type"] == "pong"
    finally:
        ala.close()
    # the option is strict, as every other; quick play (you and bots) has no chat: nobody to talk to
    assert httpx.post(server.url + "/api/tables", json={"chat": "no"}).status_code == 422
    quick = httpx.post(server.url + "/api/quickplay", json={"name": "Ola"}).json()
    assert quick["table"]["options"]["chat"] is False


def test_the_history_on_joining_and_reconnecting(server: ThreadServer, table: tuple[str, list[str]]) -> None:
    table_id, (ala_token, bolek_token) = table
    ala = seated(server, table_id, ala_token)
    try:
        said = [reply_to(ala, {"type": "chat", "text": "first"}), reply_to(ala, {"type": "chat", "preset": "bye"})]
    finally:
        ala.close()
    history = [{k: v for k, v in m.items() if k != "id"} for m in said]
    for token in (bolek_token, ala_token, None):  # a newcomer, the same seat back, a spectator
        ws = WS(server.ws_url)
        try:
            welcome = ws.hello(table_id, token, last_seq=0)
            SERVER_ADAPTER.validate_python(welcome)
            assert welcome["chat"] == history
        finally:
            ws.close()


def test_the_decoder_reads_chat() -> None:
    assert decode_client_message('{"type": "chat", "id": 3, "text": "hi"}').text == "hi"  # type: ignore[union-attr]
    for raw in ({"type": "chat"}, {"type": "chat", "text": "a", "preset": "hello"}, {"type": "chat", "text": None},
                {"type": "chat", "id": "x", "text": 3}):
        with pytest.raises(ProtocolError) as caught:
            decode_client_message(json.dumps(raw))
        assert caught.value.code == "bad_message", raw
        assert caught.value.request_id == raw.get("id"), raw  # the id, for the error reply
    long_code = decode_client_message(json.dumps({"type": "chat", "preset": "x" * 41}))
    assert long_code.preset == "x" * 41  # type: ignore[union-attr]  # the hub answers unknown_preset


def test_the_room_keeps_the_last_messages_and_forgets_old_sending_times() -> None:
    room = ChatRoom()
    for i in range(CHAT_HISTORY + 5):
        room.post(i % 2, "Ala" if i % 2 == 0 else "Bolek", text=f"line {i}", now=i * CHAT_WINDOW)
    kept = room.history()
    assert len(kept) == CHAT_HISTORY and kept[0]["seq"] == 6 and kept[-1]["text"] == f"line {CHAT_HISTORY + 4}"
    assert room.wait(0, now=10_000.0) == 0.0


def test_a_player_cannot_pass_for_another_in_the_chat(server: ThreadServer) -> None:
    """Names are the players' own, but the chat says who spoke by the table's distinct names: a second "ALA" at a
    table with Ala speaks as "ALA (2)"."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    created = httpx.post(server.url + "/api/tables", json={"seats": seats, "visibility": "private"}).json()
    tokens = [httpx.post(f"{server.url}/api/tables/{created['id']}/join", json={"name": name}).json()["token"]
              for name in ("Ala", "ALA")]
    ala, other = seated(server, created["id"], tokens[0]), seated(server, created["id"], tokens[1])
    try:
        said = reply_to(other, {"type": "chat", "text": "it's me, Ala"})
        assert said["name"] == "ALA (2)" and next_chat(ala)["name"] == "ALA (2)"
    finally:
        ala.close()
        other.close()


@pytest.mark.parametrize("text", ["\u034f", "\ufe0f\ufe0e", " \u180b ", "\U000e0100", "\u17b4\u200d"])
def test_a_message_of_default_ignorable_characters_shows_nothing(text: str) -> None:
    """A combining grapheme joiner, variation selectors, Khmer's inherent vowels: characters a renderer shows as
    nothing, so a message of them alone is empty (it passed as text before)."""
    with pytest.raises(TableError) as refused:
        clean_chat_text(text)
    assert refused.value.code == "chat_empty"


def test_an_emoji_keeps_its_variation_selector() -> None:
    assert clean_chat_text("\u2764\ufe0f gg") == "\u2764\ufe0f gg"
