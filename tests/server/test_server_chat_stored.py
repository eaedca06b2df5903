"""Table chat kept in the database (docs/server.md, *Tables*: chat; migration 0004): the welcome's history is the
same after a restart and after a finished table is unloaded and read back, its numbers go on, only the last 50 are
given; a message the database would not take is refused (``internal``) and relayed to nobody, and a message whose
write reported a failure (it may have committed) never gives its number out again, so the next messages are stored
and relayed; the caps and the privacy rules stay as they were.  Against SQLite, or PostgreSQL with
MIZERKA_TEST_DATABASE_URL set."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import sqlalchemy as sa
from server_helpers import WS, ThreadServer, migrate, play_until, unload

from mizerka.server.chat import CHAT_BURST, CHAT_HISTORY
from mizerka.server.protocol import SERVER_ADAPTER

SHORT = "standard,contracts=NT+MZ"  # six deals


def make_table(server: ThreadServer, humans: int = 2, **options: Any) -> tuple[str, list[str]]:
    """A table of *humans* humans (Ala, Bolek…) and bots, with chat: its id and the seat tokens."""
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "level": "random"}] * (3 - humans)
    created = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": SHORT, **options})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": name}).json()["token"]
              for name in ("Ala", "Bolek")[:humans]]
    return table, tokens


def say(ws: WS, **body: Any) -> dict[str, Any]:
    """Send a chat message; its reply (the sender's copy, or an error), without the request's id."""
    ident = f"c{len(ws.log)}"
    ws.send({"type": "chat", "id": ident, **body})
    reply = ws.until(lambda m: m.get("id") == ident and m["type"] in ("chat", "error"))
    SERVER_ADAPTER.validate_python(reply)
    return {k: v for k, v in reply.items() if k != "id"}


def welcome(server: ThreadServer, table: str, token: str | None) -> dict[str, Any]:
    ws = WS(server.ws_url)
    try:
        reply = ws.hello(table, token)
    finally:
        ws.close()
    if reply["type"] == "welcome":
        SERVER_ADAPTER.validate_python(reply)
    return reply


def test_the_chat_history_survives_a_restart_and_its_numbers_go_on(make_server: Any) -> None:
    first: ThreadServer = make_server()
    table, (ala_token, bolek_token) = make_table(first, visibility="private")
    ala, bolek = WS(first.ws_url), WS(first.ws_url)
    ala.hello(table, ala_token)
    bolek.hello(table, bolek_token)
    said = [say(ala, text="Powodzenia, Bolek! 🙂"), say(bolek, preset="thanks"),
            say(ala, text="🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f  Ala (za stołem)")]
    assert [m["seq"] for m in said] == [1, 2, 3]
    ala.close()
    bolek.close()
    before = welcome(first, table, None)["chat"]
    assert before == said
    first.stop()

    second: ThreadServer = make_server()
    assert table in second.hub.tables  # resumed: the match is on
    for token in (ala_token, bolek_token, None):  # each seat and a spectator
        assert welcome(second, table, token)["chat"] == said
    ala = WS(second.ws_url)
    ala.hello(table, ala_token)
    fourth = say(ala, preset="good_luck")
    assert fourth == {"type": "chat", "seq": 4, "seat": 0, "name": "Ala", "preset": "good_luck"}
    # the caps as before: the per-seat limit (the sending times before the restart are not kept), the length
    refused = [say(ala, preset="hello") for _ in range(CHAT_BURST)]
    assert [r["type"] for r in refused[:-1]] == ["chat"] * (CHAT_BURST - 1)
    assert (refused[-1]["type"], refused[-1]["code"]) == ("error", "rate_limited")
    ala.close()
    assert [m["seq"] for m in welcome(second, table, bolek_token)["chat"]] == list(range(1, CHAT_BURST + 4))


def test_only_the_last_fifty_are_given_after_a_restart(make_server: Any) -> None:
    first: ThreadServer = make_server()
    table, (ala_token, _) = make_table(first)
    first.hub.tables[table].chat.burst = 10_000  # (the test's own pace: the per-seat limit is tested elsewhere)
    ala = WS(first.ws_url)
    ala.hello(table, ala_token)
    for n in range(CHAT_HISTORY + 5):
        assert say(ala, text=f"line {n + 1}")["seq"] == n + 1
    ala.close()
    first.stop()
    second: ThreadServer = make_server()
    history = welcome(second, table, ala_token)["chat"]
    assert len(history) == CHAT_HISTORY
    assert [m["seq"] for m in history] == list(range(6, CHAT_HISTORY + 6))
    assert history[0]["text"] == "line 6" and history[-1]["text"] == f"line {CHAT_HISTORY + 5}"


def test_a_finished_table_read_back_keeps_its_chat_and_its_privacy(make_server: Any) -> None:
    server: ThreadServer = make_server()
    table, (token,) = make_table(server, humans=1, visibility="private", spectators=False)
    ala = WS(server.ws_url)
    ala.hello(table, token)
    said = [say(ala, text="gg"), say(ala, preset="well_played")]
    play_until(ala, lambda v: v["phase"] == "over")
    after = say(ala, text="after the end")  # the chat goes on at a finished table
    ala.close()
    unload(server, table)
    assert table not in server.hub.tables
    back = welcome(server, table, token)
    assert back["type"] == "welcome" and back["chat"] == [*said, after]
    refused = welcome(server, table, None)  # a table without spectators: its chat is its players' alone
    assert (refused["type"], refused["code"]) == ("error", "spectators_off") and "chat" not in refused
    # the next message numbered after the stored ones
    ala = WS(server.ws_url)
    ala.hello(table, token)
    assert say(ala, preset="bye")["seq"] == 4
    ala.close()


def test_the_messages_are_rows_of_the_chat_table(make_server: Any, database_url: str) -> None:
    server: ThreadServer = make_server()
    table, (ala_token, _) = make_table(server)
    ala = WS(server.ws_url)
    ala.hello(table, ala_token)
    say(ala, text="cześć")
    say(ala, preset="one_moment")
    ala.close()
    engine = sa.create_engine(_sa_url(database_url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(sa.text(
                "SELECT table_id, seq, seat, name, text, preset FROM chat ORDER BY seq")).all()
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [(table, 1, 0, "Ala", "cześć", None), (table, 2, 0, "Ala", None, "one_moment")]


def test_a_message_the_database_refuses_is_relayed_to_nobody(make_server: Any, database_url: str) -> None:
    server: ThreadServer = make_server()
    table, (ala_token, bolek_token) = make_table(server)
    ala, bolek = WS(server.ws_url), WS(server.ws_url)
    ala.hello(table, ala_token)
    bolek.hello(table, bolek_token)
    assert say(ala, text="stored")["seq"] == 1
    assert bolek.until(lambda m: m["type"] == "chat")["text"] == "stored"
    engine = sa.create_engine(_sa_url(database_url))
    try:
        with engine.begin() as connection:  # the database loses the chat table: every write of a message fails
            connection.execute(sa.text("ALTER TABLE chat RENAME TO chat_away"))
        refused = say(ala, text="lost")
        assert (refused["type"], refused["code"]) == ("error", "internal"), refused
        with contextlib.suppress(TimeoutError):  # nobody hears it
            heard = bolek.until(lambda m: m["type"] == "chat", timeout=1.0)
            raise AssertionError(f"a message that was not stored was relayed: {heard}")
        assert [m["text"] for m in welcome(server, table, None)["chat"]] == ["stored"]
        with engine.begin() as connection:
            connection.execute(sa.text("ALTER TABLE chat_away RENAME TO chat"))
    finally:
        engine.dispose()
    # its number is never given again (a write that did commit must not stick the numbering): a gap is harmless
    assert say(ala, text="again") == {"type": "chat", "seq": 3, "seat": 0, "name": "Ala", "text": "again"}
    assert bolek.until(lambda m: m["type"] == "chat")["seq"] == 3
    ala.close()
    bolek.close()


def test_a_chat_number_whose_write_reported_a_failure_is_never_given_again(make_server: Any) -> None:
    """The write of a message committed, but its answer said it failed (the connection lost on the way back): the
    row is stored under its number, and every later message must still be stored (a number given again would hit
    the stored row's key for ever)."""
    server: ThreadServer = make_server()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = httpx.post(server.url + "/api/tables", json={"seats": seats, "variant": SHORT}).json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": n}).json()["token"]
              for n in ("Ala", "Bolek")]
    ala, bolek = WS(server.ws_url), WS(server.ws_url)
    ala.hello(table, tokens[0])
    bolek.hello(table, tokens[1])
    store = server.hub.store
    assert store is not None
    real_write, real_chat_op = store.write, store.chat_op
    chat_ops: list[Any] = []  # only a chat message's write fails: the table's own events (a bot, a seat) go on

    def chat_op(*args: Any, **kwargs: Any) -> Any:
        op = real_chat_op(*args, **kwargs)
        chat_ops.append(op)
        return op

    async def write_then_fail(op: Any) -> None:  # the real write, then the failure a lost answer reports
        await real_write(op)
        if any(op is chat for chat in chat_ops):
            chat_ops.clear()  # once
            raise ConnectionError("the connection was lost after the commit")

    store.write = write_then_fail  # type: ignore[method-assign]
    store.chat_op = chat_op  # type: ignore[method-assign]
    try:
        ala.send({"type": "chat", "id": "c1", "text": "committed, reported lost"})
        reply = ala.until(lambda m: m.get("id") == "c1")
        assert (reply["type"], reply["code"]) == ("error", "internal"), reply
    finally:
        store.write, store.chat_op = real_write, real_chat_op  # type: ignore[method-assign]
    numbers = []
    for i in range(3):
        ala.send({"type": "chat", "id": f"n{i}", "text": f"next {i}"})
        sent = ala.until(lambda m, i=i: m.get("id") == f"n{i}")
        assert sent["type"] == "chat", sent
        numbers.append(sent["seq"])
        assert bolek.until(lambda m: m["type"] == "chat")["text"] == f"next {i}"
    assert numbers == [2, 3, 4]  # number 1 is the stored row's: a gap for the clients, never a clash
    ala.close()
    bolek.close()
    stored = store.chat_history([table], 50)[table]  # what a restart would give back: the row, then the rest
    assert [(m["seq"], m["text"]) for m in stored] == [(1, "committed, reported lost"), (2, "next 0"),
                                                       (3, "next 1"), (4, "next 2")]


def _sa_url(database_url: str) -> str:
    from mizerka.server.db import normalize_url

    return normalize_url(database_url)


def test_revision_0004_adds_the_chat_table_and_takes_it_away(database_url: str) -> None:
    from mizerka.server.db import Store, make_engine, tables_t

    migrate(database_url, "0003")
    engine = make_engine(database_url)
    try:
        assert "chat" not in sa.inspect(engine).get_table_names()
        with engine.begin() as connection:  # a table of before the revision: it has no chat, and gets none
            connection.execute(tables_t.insert().values(
                id="t1", created_at=1.0, updated_at=1.0, status="finished", visibility="public",
                variant="standard", settings="{}", seats="[]", initial_seats="[]", first_dealer=0, decks="[]",
                salts="[]", parent=None, seq=0, summary=None))
    finally:
        engine.dispose()
    store = Store(database_url)  # upgrades to the newest revision
    try:
        assert store.chat_history(["t1"], CHAT_HISTORY) == {}
        with store.engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO chat (table_id, seq, seat, name, text, preset, created_at) "
                                       "VALUES ('t1', 1, 0, 'Ala', NULL, 'hello', 2.0)"))
        assert store.chat_history(["t1", "t2"], CHAT_HISTORY) == {
            "t1": [{"type": "chat", "seq": 1, "seat": 0, "name": "Ala", "preset": "hello"}]}
    finally:
        store.close()
    migrate(database_url, "0003", down=True)
    engine = make_engine(database_url)
    try:
        assert "chat" not in sa.inspect(engine).get_table_names()
        assert "tables" in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
