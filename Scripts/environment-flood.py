#!/usr/bin/env python3
"""Measures how many production saves `query serve` answers while development is flooded with
schema changes: the figure "production saves answered during a development schema flood".

    Scripts/environment-flood.py QUERY --db LOCATION [--fields 1000] [--new-type-each-write]
                                       [--saves 6] [--timeout 10] [--flooders 2]

QUERY is a `query` executable; LOCATION a fresh store (a SQLite path, or a postgres:// URL with a
schema of its own). The server is started with a schema that gives production the record type
City (name, population). Then `--flooders` clients send development writes one after another,
each adding `--fields` new fields (to City, or with --new-type-each-write to a new record type
each time), while one client makes `--saves` production saves of City records one after
another, each given `--timeout` seconds. The script prints how many production saves were
answered (HTTP 200, the record saved) and how the flood's writes were answered.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

SCHEMA = """DEFINE SCHEMA
    RECORD TYPE City (
        name        STRING QUERYABLE SORTABLE,
        population  INT64 QUERYABLE SORTABLE
    );
"""


def post(port, environment, body, timeout):
    """POSTs a records/modify body; (HTTP status, parsed answer) or (None, reason) on a timeout."""
    url = f"http://127.0.0.1:{port}/database/1/iCloud.flood/{environment}/public/records/modify"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
    except Exception as error:  # a timeout, a reset connection
        return None, str(error)


def create(record_type, name, fields):
    return {"operations": [{"operationType": "create", "record": {
        "recordName": name, "recordType": record_type,
        "fields": {key: {"value": value} for key, value in fields.items()}}}]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query")
    parser.add_argument("--db", required=True)
    parser.add_argument("--fields", type=int, default=1000)
    parser.add_argument("--new-type-each-write", action="store_true")
    parser.add_argument("--saves", type=int, default=6)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--flooders", type=int, default=2)
    arguments = parser.parse_args()

    with tempfile.NamedTemporaryFile("w", suffix=".ckdb", delete=False) as schema:
        schema.write(SCHEMA)
    server = subprocess.Popen(
        [arguments.query, "serve", "--db", arguments.db, "--port", "0", "--schema", schema.name, "--rate-limit", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    port = None
    for line in server.stderr:
        found = re.search(r"listening on http://[^:]+:(\d+)", line)
        if found:
            port = int(found.group(1))
            break
    if port is None:
        print("the server did not start", file=sys.stderr)
        return 1
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()

    stop = threading.Event()
    flood_answers = []
    lock = threading.Lock()
    counter = [0]

    def flood(index):
        while not stop.is_set():
            with lock:
                counter[0] += 1
                write = counter[0]
            record_type = f"Flood{write}" if arguments.new_type_each_write else "City"
            fields = {f"f{write}x{field}": field for field in range(arguments.fields)}
            started = time.monotonic()
            status, answer = post(port, "development", create(record_type, f"flood-{write}", fields), timeout=600)
            refused = status != 200 or any("serverErrorCode" in record for record in (answer or {}).get("records", []))
            with lock:
                flood_answers.append((status, refused, time.monotonic() - started,
                                      answer if refused else None))

    flooders = [threading.Thread(target=flood, args=(index,), daemon=True) for index in range(arguments.flooders)]
    for thread in flooders:
        thread.start()
    time.sleep(1)  # the first flood writes are under way

    answered = 0
    durations = []
    for save in range(arguments.saves):
        started = time.monotonic()
        status, answer = post(port, "production", create("City", f"city-{save}", {"name": f"City {save}", "population": 1000 + save}),
                              timeout=arguments.timeout)
        elapsed = time.monotonic() - started
        durations.append(elapsed)
        if status == 200 and not any("serverErrorCode" in record for record in answer.get("records", [])):
            answered += 1
    stop.set()
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
    os.unlink(schema.name)

    shape = f"{arguments.fields} new fields a write" + (", each to a new record type" if arguments.new_type_each_write else " to City")
    print(f"production saves answered during a development schema flood: {answered}/{arguments.saves} "
          f"({arguments.flooders} flooders, {shape}; a save waits at most {arguments.timeout:g} s)")
    print("production save times (s): " + ", ".join(f"{duration:.2f}" for duration in durations))
    with lock:
        finished = list(flood_answers)
    accepted = sum(1 for _, refused, _, _ in finished if not refused)
    print(f"flood writes answered meanwhile: {len(finished)} ({accepted} accepted, {len(finished) - accepted} refused)")
    refusal = next((answer for _, refused, _, answer in finished if refused), None)
    if refusal is not None:
        print("a refusal: " + json.dumps(refusal)[:300])
    return 0


if __name__ == "__main__":
    sys.exit(main())
