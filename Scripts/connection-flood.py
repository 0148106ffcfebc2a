#!/usr/bin/env python3
"""The figure "a client's requests answered during one client's connection flood": one client
address (127.0.0.2) keeps N sockets open to `query serve`, opening a new one for each the server
closes, while another client (127.0.0.1) sends 35 queries with an API token, one every 0.35 s.
Prints how many of the 35 were answered 200.

    query demo --db /tmp/flood.sqlite
    query serve --db /tmp/flood.sqlite --port 18088 --api-token t --max-connections 50 \
        --max-connections-per-address 16 &
    python3 Scripts/connection-flood.py 18088 60

Run it once with `--max-connections-per-address` larger than N to see the server without the cap.
"""
# (127.0.0.1) sends 35 queries with an API token, one every 0.35 s. Prints how many were answered 200.
import socket, sys, time, json, threading, select
poller = select.epoll()
port = int(sys.argv[1]); n = int(sys.argv[2])
stop = False
def flood():
    held = []
    while not stop:
        while len(held) < n and not stop:
            s = socket.socket(); s.bind(("127.0.0.2", 0)); s.setblocking(False)
            try: s.connect(("127.0.0.1", port))
            except BlockingIOError: pass
            except Exception: s.close(); continue
            held.append(s); poller.register(s.fileno(), select.EPOLLIN)
        byfd = {s.fileno(): s for s in held}
        for fd, _ in poller.poll(0.2):
            s = byfd.get(fd)
            if s is None: continue
            try:
                if not s.recv(1): raise Exception()
            except BlockingIOError: continue
            except Exception:
                poller.unregister(s.fileno()); s.close(); held.remove(s)
    for s in held: s.close()
t = threading.Thread(target=flood); t.start()
time.sleep(2)
answered = 0
body = json.dumps({"query": {"recordType": "City"}})
for i in range(35):
    c = socket.socket(); c.settimeout(3)
    try:
        c.connect(("127.0.0.1", port))
        c.sendall(f"POST /database/1/iCloud.x/production/public/records/query?ckAPIToken=t HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}".encode())
        if c.recv(100).startswith(b"HTTP/1.1 200"): answered += 1
    except Exception: pass
    finally: c.close()
    time.sleep(0.35)
stop = True; t.join()
print(f"answered {answered} of 35")
