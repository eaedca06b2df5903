"""The terminal client of a server finds a connection that died without a word, and makes it again.

A network that dies silently (a laptop woken from sleep, a router restarted) leaves a websocket that looks open:
nothing arrives, nothing fails.  The client waited on it for ever (websockets before 15 had no keepalive in the
threading client the terminal uses) while the server gave the seat to a stand-in.  The client now pings
(``RemoteTable.keepalive``: every 20 s, 20 s to answer), and an unanswered ping closes the connection, which
:meth:`RemoteTable.poll` makes again as after any drop.  Here the link runs through a TCP relay that can go silent
(it keeps both sockets open and passes nothing either way), against a real server on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the --connect tests need a server: the 'server' extra (pip install -e '.[dev]')")
pytest.importorskip("websockets", reason="--connect needs the 'tui' extra (pip install -e '.[dev]')")

from mizerka.tui.remote import KEEPALIVE, RemoteTable, parse_invite

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_helpers import ThreadServer

from test_tui_chat import server as server  # the fixture (a server with grace 0), re-exported for pytest
from test_tui_connect import BOTS, make_table
from test_tui_remote_sheet import VARIANT, play_until


class Relay:
    """A TCP relay on 127.0.0.1 to *port*; :meth:`go_silent` makes the connections open so far pass nothing more,
    either way, without closing them (a dead network); connections made afterwards pass everything."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.silent: list[threading.Event] = []
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            silent = threading.Event()
            self.silent.append(silent)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                pump = threading.Thread(target=self._pump, args=(source, sink, silent), daemon=True)
                self.threads.append(pump)
                pump.start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, silent: threading.Event) -> None:
        try:
            while data := source.recv(65536):
                if not silent.is_set():
                    sink.sendall(data)
        except OSError:
            pass

    def go_silent(self) -> None:
        for silent in self.silent:
            silent.set()

    def close(self) -> None:
        """Stop the relay and wait for its threads: a socket's ``close`` alone wakes no thread blocked in its
        ``accept`` or ``recv`` (they outlived the test), its ``shutdown`` does."""
        for sock in (self.listener, *self.sockets):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        for thread in self.threads:
            thread.join(timeout=5)


def test_the_default_keepalive_is_the_documented_one(server: ThreadServer) -> None:
    table = RemoteTable(parse_invite(make_table(server, BOTS, variant=VARIANT)))
    assert KEEPALIVE == (20.0, 20.0) and table.keepalive == KEEPALIVE
    table.join("Ola")
    table.connect()
    try:  # the connection runs with it (websockets' own attributes)
        assert (table._ws.ping_interval, table._ws.ping_timeout) == KEEPALIVE  # type: ignore[union-attr]
    finally:
        table.close()


def test_a_connection_gone_silent_is_found_and_made_again(server: ThreadServer) -> None:
    relay = Relay(server.port)
    try:
        invite = make_table(server, BOTS, variant=VARIANT).replace(f":{server.port}/", f":{relay.port}/")
        table = RemoteTable(parse_invite(invite), timeout=10)
        table.keepalive = (0.5, 2.0)  # short, with room for a loaded machine's answer
        table.join("Ola")
        table.connect()
        play_until(table, lambda t: t.my_turn())  # the table waits for us now: nothing more happens meanwhile
        seq, view, before = table.seq, table.view, table.reconnects
        relay.go_silent()
        deadline = time.monotonic() + 15  # the keepalive's 2.5 s, then the reconnect
        while table.reconnects == before and time.monotonic() < deadline:
            table.poll(0.1)
        assert table.reconnects == before + 1
        assert table.my_turn() and table.seq == seq and table.view["legal"] == view["legal"]  # the same turn
        assert table.act("keep" if view["phase"] == "exchange" else view["legal"][0])["type"] == "ack"
        table.close()
    finally:
        relay.close()
