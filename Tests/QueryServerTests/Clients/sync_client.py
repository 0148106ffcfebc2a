"""A CloudKit sync client written from Apple's CloudKit Web Services Reference, apart from the
server: it mirrors two custom zones of the private database with `changes/database`,
`records/changes` and `changes/zone`, while "other clients" (this script's writer) make rounds
of random creates, updates and deletes with `records/modify`. Every request goes to the next
server of those given, so a sync token taken from one server is continued on another.

    python sync_client.py mirror KEY_ID KEY.pem SEED ROUNDS URL [URL ...]

After every round the mirror must equal what the writer wrote, and what `records/query`
answers; it prints one JSON line per round and a last line {"result": "ok", ...}, or exits 1
with the first difference.
"""
import json
import random
import sys
from urllib.parse import urlparse

import ecdsa
import requests

from cloudkit_s2s_client import signed_headers

ZONES = ["Alpha", "Beta"]


class Client:
    """Signed requests to the private database, each to the next server in turn."""

    def __init__(self, urls, key_id, key):
        self.urls, self.key_id, self.key, self.turn = urls, key_id, key, 0

    def post(self, operation, payload):
        base = self.urls[self.turn % len(self.urls)]
        self.turn += 1
        url = base + "/database/1/iCloud.com.example.sync/development/private/" + operation
        body = json.dumps(payload).encode()
        # A read the server closed the connection on before answering (a loaded machine's
        # header deadline) is sent again, as clients do; a write is not, since it may have been applied.
        attempts = 1 if operation.endswith("modify") else 3
        for attempt in range(attempts):
            try:
                answer = requests.post(url, data=body, headers=signed_headers(self.key, self.key_id, urlparse(url).path, body), timeout=60)
                break
            except requests.exceptions.ConnectionError:
                if attempt == attempts - 1:
                    raise
        result = answer.json()
        if answer.status_code != 200:
            fail(f"{operation} answered {answer.status_code}: {result}")
        return result


def fail(message):
    print(json.dumps({"result": "failed", "reason": message}), flush=True)
    sys.exit(1)


def values(fields):
    return {name: field["value"] for name, field in fields.items()}


class Mirror:
    """What a sync client keeps: each zone's records and token, and the database token."""

    def __init__(self):
        self.zones = {zone: {} for zone in ZONES}
        self.tokens = {}
        self.database_token = None
        self.pages = 0

    def apply(self, zone, records):
        for record in records:
            if record.get("deleted"):
                self.zones[zone].pop(record["recordName"], None)
            else:
                self.zones[zone][record["recordName"]] = values(record["fields"])

    def changed_zones(self, client, rng):
        """The zones changed since the database token, paging through `moreComing`."""
        changed = set()
        while True:
            payload = {"resultsLimit": rng.randint(1, 3)}
            if self.database_token:
                payload["syncToken"] = self.database_token
            answer = client.post("changes/database", payload)
            for zone in answer["zones"]:
                name = zone["zoneID"]["zoneName"]
                if zone.get("deleted"):
                    fail(f"zone {name} reported deleted")
                if name in ZONES:
                    changed.add(name)
            self.database_token = answer["syncToken"]
            if not answer["moreComing"]:
                return changed

    def fetch_zone(self, client, zone, rng):
        """records/changes for one zone, a few records at a time."""
        while True:
            payload = {"zoneID": {"zoneName": zone}, "resultsLimit": rng.randint(1, 5)}
            if zone in self.tokens:
                payload["syncToken"] = self.tokens[zone]
            answer = client.post("records/changes", payload)
            self.pages += 1
            if answer["zoneID"]["zoneName"] != zone:
                fail(f"records/changes of {zone} answered zone {answer['zoneID']}")
            self.apply(zone, answer["records"])
            self.tokens[zone] = answer["syncToken"]
            if not answer["moreComing"]:
                return

    def fetch_zones_together(self, client, zones, rng):
        """changes/zone for several zones at once, each with its own token, until none has more."""
        pending = set(zones)
        while pending:
            request = []
            for zone in sorted(pending):
                entry = {"zoneID": {"zoneName": zone}, "resultsLimit": rng.randint(1, 5)}
                if zone in self.tokens:
                    entry["syncToken"] = self.tokens[zone]
                request.append(entry)
            answer = client.post("changes/zone", {"zones": request})
            self.pages += 1
            for result in answer["zones"]:
                zone = result["zoneID"]["zoneName"]
                if "serverErrorCode" in result:
                    fail(f"changes/zone for {zone}: {result}")
                self.apply(zone, result["records"])
                self.tokens[zone] = result["syncToken"]
                if not result["moreComing"]:
                    pending.discard(zone)


def write_round(client, truth, types, rng, counter, bulk):
    """Random creates, updates and deletes in both zones, as other clients would make them."""
    for zone in ZONES:
        operations = []
        names = sorted(truth[zone])
        touched = set()
        creates = 30 if bulk else rng.randint(1, 5)
        for _ in range(creates):
            counter[0] += 1
            name = f"r{counter[0]}"
            fields = {"text": f"created {counter[0]}", "count": rng.randint(0, 1000)}
            types[(zone, name)] = rng.choice(["Note", "Task"])
            operations.append({"operationType": "create", "record": {
                "recordName": name, "recordType": types[(zone, name)],
                "fields": {"text": {"value": fields["text"]}, "count": {"value": fields["count"], "type": "INT64"}}}})
            truth[zone][name] = fields
            touched.add(name)
        for name in rng.sample(names, min(len(names), rng.randint(0, 4))):
            if name in touched:
                continue
            touched.add(name)
            if rng.random() < 0.4:
                operations.append({"operationType": "forceDelete", "record": {"recordName": name}})
                del truth[zone][name]
            else:
                fields = dict(truth[zone][name], text=f"edited {rng.randint(0, 10**6)}")
                operations.append({"operationType": "forceUpdate", "record": {
                    "recordName": name, "recordType": types[(zone, name)],
                    "fields": {"text": {"value": fields["text"]}, "count": {"value": fields["count"], "type": "INT64"}}}})
                truth[zone][name] = fields
        answer = client.post("records/modify", {"zoneID": {"zoneName": zone}, "operations": operations, "atomic": True})
        for record in answer["records"]:
            if "serverErrorCode" in record:
                fail(f"records/modify in {zone}: {record}")


def queried(client, zone):
    """A zone's records as records/query answers them, every page."""
    found, marker = {}, None
    while True:
        payload = {"zoneID": {"zoneName": zone}, "resultsLimit": 200}
        if marker:
            payload["continuationMarker"] = marker
        else:
            payload["query"] = {"recordType": "Note"}
        notes = client.post("records/query", payload)
        for record in notes["records"]:
            found[record["recordName"]] = values(record["fields"])
        marker = notes.get("continuationMarker")
        if not marker:
            break
    tasks = client.post("records/query", {"zoneID": {"zoneName": zone}, "query": {"recordType": "Task"}, "resultsLimit": 200})
    for record in tasks["records"]:
        found[record["recordName"]] = values(record["fields"])
    return found


def mirror(key_id, key_path, seed, rounds, urls):
    with open(key_path) as file:
        key = ecdsa.SigningKey.from_pem(file.read())
    client = Client(urls, key_id, key)
    rng = random.Random(seed)
    created = client.post("zones/modify", {"operations": [
        {"operationType": "create", "zone": {"zoneID": {"zoneName": zone}}} for zone in ZONES]})
    for zone in created["zones"]:
        if "syncToken" not in zone:
            fail(f"a created zone carries no syncToken: {zone}")
    truth = {zone: {} for zone in ZONES}
    types = {}
    state = Mirror()
    counter = [0]
    for round_number in range(1, rounds + 1):
        write_round(client, truth, types, rng, counter, bulk=round_number == 3)
        changed = state.changed_zones(client, rng)
        if round_number % 2 == 0:
            state.fetch_zones_together(client, sorted(changed), rng)
        else:
            for zone in sorted(changed):
                state.fetch_zone(client, zone, rng)
        for zone in ZONES:
            if state.zones[zone] != truth[zone]:
                missing = sorted(set(truth[zone]) - set(state.zones[zone]))
                extra = sorted(set(state.zones[zone]) - set(truth[zone]))
                fail(f"round {round_number}, zone {zone}: mirror differs (missing {missing[:5]}, extra {extra[:5]})")
            if queried(client, zone) != truth[zone]:
                fail(f"round {round_number}, zone {zone}: records/query differs from what was written")
        print(json.dumps({"round": round_number, "changed": sorted(changed),
                          "records": {zone: len(truth[zone]) for zone in ZONES}}), flush=True)
    # Nothing written since: the next sync reports nothing.
    if state.changed_zones(client, rng):
        fail("changes/database reported zones with nothing written")
    print(json.dumps({"result": "ok", "rounds": rounds, "pages": state.pages,
                      "records": {zone: len(truth[zone]) for zone in ZONES}}), flush=True)


def main():
    if sys.argv[1] != "mirror":
        fail("usage: sync_client.py mirror KEY_ID KEY.pem SEED ROUNDS URL [URL ...]")
    mirror(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:])


if __name__ == "__main__":
    main()
