#!/usr/bin/env python3
"""The server's memory while it moves assets: `query serve` over a fresh store, one 50 MiB asset
uploaded and referenced by a record, then

- 60 concurrent slow downloads of it (each client reads 64 KiB and then stalls), and
- 20 concurrent uploads of 50 MiB each (each to its own upload URL, at full speed),

each figure the server process's peak resident set (VmHWM from /proc/PID/status, reset before
each phase through /proc/PID/clear_refs) and its increase over the idle server.

    python3 Scripts/asset-memory.py .build/debug/query                 # SQLite, a temporary store
    python3 Scripts/asset-memory.py .build/debug/query --db postgres://user@127.0.0.1:55441/query

Needs Linux (/proc) and permission to write the server's clear_refs (its owner or root).
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

SIZE = 50 << 20


def memory_kilobytes(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def reset_peak(pid):
    with open(f"/proc/{pid}/clear_refs", "w") as clear:
        clear.write("5")


def request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    data = body if isinstance(body, (bytes, bytearray)) or body is None else json.dumps(body).encode()
    connection.request(method, path, body=data)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, payload


def upload_url(port, database_path):
    status, payload = request(port, "POST", database_path + "assets/upload",
                              {"tokens": [{"recordType": "Note", "fieldName": "attachment", "recordName": "n1"}]})
    if status != 200:
        raise RuntimeError(f"assets/upload answered {status}: {payload[:300]!r}")
    return urllib.parse.urlsplit(json.loads(payload)["tokens"][0]["url"]).path


def upload(port, database_path, content):
    status, payload = request(port, "POST", upload_url(port, database_path), content)
    if status != 200:
        raise RuntimeError(f"the upload answered {status}: {payload[:300]!r}")
    return json.loads(payload)["singleFile"]


def slow_download(port, path, started, release):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 10)
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        received = 0
        while received < 64 << 10:
            chunk = connection.recv(16 << 10)
            if not chunk:
                break
            received += len(chunk)
        started.release()
        release.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("query", help="the query executable")
    parser.add_argument("--db", help="the store (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=18_931)
    parser.add_argument("--hold", type=float, default=5, help="seconds the slow readers stall")
    parser.add_argument("--readers", type=int, default=60, help="concurrent slow downloads")
    parser.add_argument("--uploads", type=int, default=20, help="concurrent uploads")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="asset-memory-")
    store = arguments.db or os.path.join(folder, "assets.sqlite")
    server = subprocess.Popen([arguments.query, "serve", "--db", store, "--port", str(arguments.port), "--rate-limit", "0",
                               "--body-timeout", "600"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if request(arguments.port, "GET", "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        database = "/database/1/iCloud.memory/development/public/"
        content = os.urandom(SIZE)
        receipt = upload(arguments.port, database, content)
        status, payload = request(arguments.port, "POST", database + "records/modify", {"operations": [{
            "operationType": "forceReplace",
            "record": {"recordName": "n1", "recordType": "Note", "fields": {"attachment": {"value": receipt, "type": "ASSETID"}}}}]})
        record = json.loads(payload)["records"][0]
        download = urllib.parse.urlsplit(record["fields"]["attachment"]["value"]["downloadURL"]).path
        status, payload = request(arguments.port, "GET", download)
        assert status == 200 and payload == content, f"the download answered {status} with {len(payload)} bytes"
        del payload

        idle = memory_kilobytes(server.pid, "VmRSS")
        reset_peak(server.pid)
        started, release = threading.Semaphore(0), threading.Event()
        readers = [threading.Thread(target=slow_download, args=(arguments.port, download, started, release)) for _ in range(arguments.readers)]
        for reader in readers:
            reader.start()
        for _ in readers:
            started.acquire()
        time.sleep(arguments.hold)
        downloads = memory_kilobytes(server.pid, "VmHWM")
        release.set()
        for reader in readers:
            reader.join()

        time.sleep(1)
        idle_before_uploads = memory_kilobytes(server.pid, "VmRSS")
        reset_peak(server.pid)
        urls = [upload_url(arguments.port, database) for _ in range(arguments.uploads)]
        bodies = [os.urandom(SIZE) for _ in range(arguments.uploads)]
        failures = []

        def send(url, body):
            status, payload = request(arguments.port, "POST", url, body)
            if status != 200:
                failures.append((status, payload[:200]))
        senders = [threading.Thread(target=send, args=(url, body)) for url, body in zip(urls, bodies)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        uploads = memory_kilobytes(server.pid, "VmHWM")
        if failures:
            print(f"failed uploads: {failures}", file=sys.stderr)

        print(f"idle server: {idle / 1024:.0f} MB resident")
        print(f"{arguments.readers} slow downloads of a 50 MiB asset: peak {downloads / 1024:.0f} MB, +{(downloads - idle) / 1024:.0f} MB")
        print(f"{arguments.uploads} concurrent 50 MiB uploads: peak {uploads / 1024:.0f} MB, +{(uploads - idle_before_uploads) / 1024:.0f} MB"
              f" ({arguments.uploads - len(failures)} of {arguments.uploads} answered 200)")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
