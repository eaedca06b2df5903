"""What an audit of the terminal client found on the server's side (session 21), against a real server on 127.0.0.1.

* The ``seat`` event of a seat that ``fill`` gives to a computer player carries the bot's name, the one the
  ``start`` event lists (``Bot 2``; made distinct from a human's name as the table makes it), where it carried
  ``null`` and the line game wrote "seat 1 sits at seat 1.".
"""

from __future__ import annotations

from server_helpers import ThreadServer
from test_server_fill import events_until, human_table, join, sit


def test_a_filled_seat_event_names_the_bot_as_the_start_event_does(server: ThreadServer) -> None:
    table = human_table(server)
    # a human who calls himself "Bot 2": the bot at seat 1 is then "Bot 2 (2)", as the table's names make it
    ala = sit(server, table, join(server, table, name="Bot 2"))
    watcher = sit(server, table, None)
    reply = ala.request({"type": "fill", "level": "random", "id": "f"})
    assert reply["type"] == "ack", reply
    for ws in (ala, watcher):
        seen = ([m["event"] for m in ws.log if m["type"] == "event"] if ws is ala
                else events_until(ws, "deal"))
        seats = [e for e in seen if e["kind"] == "seat"]
        start = next(e for e in seen if e["kind"] == "start")
        assert [(e["seat"], e["name"], e["seat_kind"], e["bot"]) for e in seats] == [
            (1, "Bot 2 (2)", "bot", "random"), (2, "Bot 3", "bot", "random")], seats
        assert start["players"] == ["Bot 2", "Bot 2 (2)", "Bot 3"]
        ws.close()
