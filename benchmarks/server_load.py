"""Load benchmark of the game server: N concurrent tables on loopback, bots at the rules level, M websocket clients.

The server runs as its own process (``mizerka serve``, SQLite in a temporary directory, the bots in its worker
pool); this script is the load: it creates the tables (one human seat and two rules bots each), connects one
client per table that plays its seat as fast as it can (first legal card, keeps in the exchange), and connects
any further clients as spectators.  For each step (a number of tables) it measures for ``--duration`` seconds:

* actions per second (every action at every table, counted from the broadcasts);
* latency from a client's action to the broadcast of its event back to it (p50, p99): the path through
  validation, the database commit and the fan-out;
* memory per table (the server's resident memory, before the tables and after, divided by their number).

The steps grow until the last; "degrades_at" is the first step whose p99 passes the target.
Target (issue 5): 300 concurrent tables with p99 ≤ 50 ms on the project's 2-core machine, measured with the
server's defaults (double-dummy analysis on, ``--dd-limit 10``; under load the server skips it, reason
``busy``: "dd_values"/"dd_none" count what the clients got).  The last step runs a second time against a
server without the analysis (``--dd-limit 0``): "dd_off" in the summary.  The load generator is one process
(asyncio, uvloop when installed; spectators read without parsing), and it shares the machine's cores with
the server: its latencies are wall-clock, as a client sees them, so they include the generator's own delays.
"loadgen_lag_p50_ms"/"loadgen_lag_p99_ms" say how large those are (how late a 10 ms timer fires in the
generator's loop while it measures); the workload and the measurement are unchanged by this report.
The last line is one JSON object with the figures.

    python benchmarks/server_load.py                     # steps 100,200,300 tables, 60 s each
    python benchmarks/server_load.py --steps 50 --duration 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

TARGET_TABLES = 300
TARGET_P99_MS = 50.0
RAMP_S = 20.0
"""Seconds over which the clients connect (a deal lasts about 30 s at a bot delay of 1 s)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.error_codes: dict[str, int] = {}
        self.dd_values = 0
        self.dd_skipped: dict[str, int] = {}
        self.measuring = False
        self.lags: list[float] = []


async def watch_lag(stats: Stats, stop: asyncio.Event, period: float = 0.01) -> None:
    """The load generator's own event-loop lag: how late a timer every *period* seconds fires.  A late loop
    reads its messages late, and that delay is in every latency it measures; this tells how much."""
    while not stop.is_set():
        due = time.perf_counter() + period
        await asyncio.sleep(period)
        if stats.measuring:
            stats.lags.append(time.perf_counter() - due)


async def player(url: str, table: str, token: str | None, stats: Stats, stop: asyncio.Event, delay: float) -> None:
    """One client: plays its seat as fast as it can (*token*), or watches (a spectator reads and drops).

    It connects after *delay* seconds: the tables start staggered, so that their deals end at different times
    as on a real server (a table pauses while nobody is connected)."""
    await asyncio.sleep(delay)
    async with connect(url, max_size=2**22, compression=None) as ws:
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "table": table}
        if token:
            hello["token"] = token
        await ws.send(json.dumps(hello))
        pending: float | None = None
        view: dict[str, Any] | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            if token is None and not (isinstance(raw, str) and raw.startswith('{"type":"ping"')):
                continue  # a spectator only has to read what it is sent: the load generator stays cheap
            message = json.loads(raw)
            kind = message["type"]
            fresh = False  # act only on a view that came with this message (events of a batch share the last one)
            if kind == "ping":
                await ws.send('{"type":"pong"}')
                continue
            if kind in ("welcome", "snapshot"):
                view, fresh = message["view"], True
            elif kind == "event":
                event = message["event"]
                if event["kind"] == "action":
                    if stats.measuring and token is not None:
                        stats.actions += 1
                    if pending is not None and token is not None and event["actor"] == view["seat"]:  # type: ignore[index]
                        if stats.measuring:
                            stats.latencies.append(time.perf_counter() - pending)
                        pending = None
                if message.get("view") is not None:
                    view, fresh = message["view"], True
            elif kind == "error":
                stats.errors += 1
                stats.error_codes[message["code"]] = stats.error_codes.get(message["code"], 0) + 1
                pending = None
                if token is not None and view is not None:  # start again from a fresh view
                    await ws.send(json.dumps({"type": "sync", "last_seq": view["seq"]}))
            elif kind == "dd" and stats.measuring:
                if message["dd"] is not None:
                    stats.dd_values += 1
                else:
                    stats.dd_skipped[message["reason"]] = stats.dd_skipped.get(message["reason"], 0) + 1
            if token is not None and fresh and view is not None and view["your_turn"] and pending is None:
                action = view["legal"][0] if view["legal"] else "keep"
                pending = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))
            if view is not None and view["status"] == "finished":
                return


async def run_step(base: str, ws_url: str, n_tables: int, n_clients: int, duration: float, pid: int,
                   tables: list[tuple[str, str]]) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "rules"}, {"kind": "bot", "level": "rules"}]
        while len(tables) < n_tables:
            created = (await http.post("/api/tables", json={"seats": seats})).json()
            joined = (await http.post(f"/api/tables/{created['id']}/join", json={"name": "Load"})).json()
            tables.append((created["id"], joined["token"]))
    stats = Stats()
    stop = asyncio.Event()
    ramp = min(RAMP_S, duration / 3)
    tasks = [asyncio.create_task(player(ws_url, t, token, stats, stop, ramp * i / n_tables))
             for i, (t, token) in enumerate(tables[:n_tables])]
    tasks += [asyncio.create_task(player(ws_url, tables[i % n_tables][0], None, stats, stop, ramp))
              for i in range(max(0, n_clients - n_tables))]
    tasks.append(asyncio.create_task(watch_lag(stats, stop)))
    await asyncio.sleep(ramp + 2.0)  # warm up: every connection made, bots thinking
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(duration)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    rss = rss_kib(pid)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)
    lags = sorted(stats.lags)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {"tables": n_tables, "clients": max(n_clients, n_tables), "actions_per_s": round(stats.actions / elapsed, 1),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99),
            "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
            "samples": len(lat), "errors": stats.errors, "error_codes": stats.error_codes,
            "rss_mib": round(rss / 1024, 1),
            "loadgen_lag_p50_ms": round(1000 * lags[len(lags) // 2], 2) if lags else None,
            "loadgen_lag_p99_ms": round(1000 * lags[int(0.99 * len(lags))], 2) if lags else None,
            "dd_values": stats.dd_values, "dd_none": stats.dd_skipped}


def run_server(args: argparse.Namespace, steps: list[int], dd_limit: float) -> list[dict[str, Any]]:
    """Start a server with the double-dummy limit *dd_limit*, run *steps* against it, stop it."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{tmp}/load.sqlite3"
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "mizerka", "serve", "--port", str(port), "--database", database, "--log-level",
             "warning", "--bot-delay", str(args.bot_delay), "--bot-pool", args.bot_pool, "--grace", "3600",
             "--dd-limit", str(dd_limit)],
            stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/meta", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            idle_rss = rss_kib(process.pid)
            tables: list[tuple[str, str]] = []
            for n in steps:
                clients = args.clients or n
                with asyncio.Runner(loop_factory=_loop_factory()) as runner:
                    result = runner.run(run_step(base, f"ws://127.0.0.1:{port}/ws", n, clients, args.duration,
                                                 process.pid, tables))
                result["memory_per_table_kib"] = round((result["rss_mib"] * 1024 - idle_rss) / len(tables), 1)
                result["dd_limit_s"] = dd_limit
                results.append(result)
                print(json.dumps(result), flush=True)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    return results


def _loop_factory() -> Any:
    """uvloop when it is installed (the server uses it too): the load generator should cost little."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="100,200,300", help="table counts to run, in order")
    parser.add_argument("--clients", type=int, default=0, help="websocket clients (default: one per table)")
    parser.add_argument("--duration", type=float, default=60.0,
                        help="seconds measured per step (at least a deal's length, ~30 s, to see deals end)")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the server's least seconds per bot decision")
    parser.add_argument("--bot-pool", default="process", choices=["thread", "process"])
    parser.add_argument("--dd-limit", type=float, default=10.0,
                        help="the server's double-dummy time limit per finished deal (0: no analysis); the target "
                             "is measured at this setting (the server's default)")
    parser.add_argument("--no-dd-compare", action="store_true",
                        help="skip the second run of the last step with the analysis off (--dd-limit 0)")
    parser.add_argument("--database", default=None, help="database URL (default: SQLite in a temporary directory)")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    results = run_server(args, steps, args.dd_limit)
    compare = None
    if args.dd_limit > 0 and not args.no_dd_compare:
        compare = run_server(args, steps[-1:], 0.0)[0]
    degrades = next((r["tables"] for r in results if not r["p99_ms"] <= TARGET_P99_MS), None)
    last = results[-1]
    summary = {
        "benchmark": "server_load", "cpus": os.cpu_count(), "load_avg_1m": round(os.getloadavg()[0], 2),
        "bot_delay_s": args.bot_delay, "bot_pool": args.bot_pool, "dd_limit_s": args.dd_limit,
        "steps": results, "tables": last["tables"], "actions_per_s": last["actions_per_s"], "p50_ms": last["p50_ms"],
        "p99_ms": last["p99_ms"], "memory_per_table_kib": last["memory_per_table_kib"], "degrades_at": degrades,
        "dd_values": last["dd_values"], "dd_none": last["dd_none"],
        "dd_off": None if compare is None else {k: compare[k] for k in ("tables", "actions_per_s", "p50_ms", "p99_ms")},
        "target": {"tables": TARGET_TABLES, "p99_ms": TARGET_P99_MS, "measured_at_dd_limit_s": args.dd_limit},
        "meets_target": last["tables"] >= TARGET_TABLES and last["p99_ms"] <= TARGET_P99_MS,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
