"""Users who share records through `query serve`, written from Apple's CloudKit Web Services
reference (records/modify with a `cloudkit.share` record, records/resolve, records/accept, the
shared database) apart from the server's code.

Four users sign in through the server's sign-in page and a local OpenID Connect provider
(oidc_provider.py), as a browser would. Ada shares a trip (a record hierarchy) read-only with
Bob and read-write with Carol, both invited by email; they resolve and accept the share, query,
page and sync their shared databases; Bob's write is refused and Carol's lands in Ada's zone;
Ada removes Carol, whose next read is refused and whose sync reports the zone gone; Ada shares a
whole zone with Bob; and a public link takes Dave, who was never invited.

    python sharing_client.py ISSUER API_TOKEN CONTAINER APP_ORIGIN SERVER [SERVER ...]

With several servers (of one store), requests go to each in turn. Each step prints one JSON
line: {"step": ..., "status": ..., "body": ...}.
"""

import itertools
import json
import sys
import urllib.parse

import requests

from web_steps import follow, report

ISSUER, API_TOKEN, CONTAINER, APP_ORIGIN = sys.argv[1:5]
SERVERS = sys.argv[5:]
TURNS = itertools.cycle(range(len(SERVERS)))


class Session:
    """A signed-in user: each request carries the API token and the current web auth token
    (each answer's X-Apple-CloudKit-Web-Auth-Token replaces it), on the next server in turn."""

    def __init__(self, name):
        # The redirect style: the server's sign-in page, the provider, back to the app.
        server = SERVERS[0]
        started = follow(server + "/auth/signin", container=CONTAINER, returnTo=APP_ORIGIN + "/app")
        at_provider = follow(started.headers["Location"] + "&" + urllib.parse.urlencode({"login_hint": name, "alg": "ES256"}))
        back = follow(at_provider.headers["Location"])
        returned = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(back.headers.get("Location", "")).query))
        self.token = returned["ckWebAuthToken"]
        self.user = self.call("GET", "users/caller", database="public").json()["userRecordName"]

    def call(self, method, operation, body=None, database="public"):
        server = SERVERS[next(TURNS)]
        query = urllib.parse.urlencode({"ckAPIToken": API_TOKEN, "ckWebAuthToken": self.token})
        url = server + "/database/1/" + CONTAINER + "/development/" + database + "/" + operation + "?" + query
        response = requests.request(method, url, data=json.dumps(body) if body is not None else None,
                                    headers={"Content-Type": "text/plain"}, timeout=60)
        following = response.headers.get("X-Apple-CloudKit-Web-Auth-Token")
        if following:
            self.token = following
        return response


def record(name, record_type, title, parent=None):
    entry = {"recordName": name, "recordType": record_type, "fields": {"title": {"value": title}}}
    if parent:
        entry["parent"] = {"recordName": parent}
    return entry


def creates(zone, records):
    return {"zoneID": {"zoneName": zone}, "operations": [{"operationType": "create", "record": r} for r in records]}


def share_operation(name, root, participants, public="NONE", operation="create", tag=None):
    entry = {"recordName": name, "recordType": "cloudkit.share", "publicPermission": public,
             "participants": [{"userIdentity": {"lookupInfo": {"emailAddress": email}}, "permission": permission}
                              for email, permission in participants]}
    if root:
        entry["forRecord"] = {"recordName": root}
    if tag:
        entry["recordChangeTag"] = tag
    return {"operationType": operation, "record": entry}


def query(record_type, zone, owner, limit=None, marker=None):
    body = {"zoneID": {"zoneName": zone, "ownerRecordName": owner},
            "query": {"recordType": record_type, "sortBy": [{"systemFieldName": "recordName"}]}}
    if limit:
        body["resultsLimit"] = limit
    if marker:
        body["continuationMarker"] = marker
    return body


def main():
    ada, bob, carol, dave = Session("ada"), Session("bob"), Session("carol"), Session("dave")
    report("users", users={"ada": ada.user, "bob": bob.user, "carol": carol.user, "dave": dave.user})

    # Ada's trip: the root, two stops under it, and a diary outside the hierarchy.
    ada.call("POST", "zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Trips"}}}]}, "private")
    report("ada-records", ada.call("POST", "records/modify", creates("Trips", [
        record("paris", "Trip", "Paris"), record("louvre", "Stop", "Louvre", "paris"),
        record("notre-dame", "Stop", "Notre-Dame", "paris"), record("diary", "Trip", "Diary")]), "private"))
    shared = ada.call("POST", "records/modify", {"zoneID": {"zoneName": "Trips"}, "operations": [
        share_operation("paris-share", "paris", [("bob@example.org", "READ_ONLY"), ("carol@example.org", "READ_WRITE")])]}, "private")
    report("ada-share", shared)
    guid = shared.json()["records"][0]["shortGUID"]

    # Bob and Carol resolve, then accept.
    report("bob-resolve", bob.call("POST", "records/resolve", {"shortGUIDs": [{"value": guid, "shouldFetchRootRecord": True}]}))
    report("bob-accept", bob.call("POST", "records/accept", {"shortGUIDs": [{"value": guid}]}))
    report("carol-accept", carol.call("POST", "records/accept", {"shortGUIDs": [{"value": guid}]}))

    # Their shared databases: the zone, its records a page at a time, and its changes.
    report("bob-zones", bob.call("GET", "zones/list", database="shared"))
    first = bob.call("POST", "records/query", query("Stop", "Trips", ada.user, limit=1), "shared")
    report("bob-page-1", first)
    report("bob-page-2", bob.call("POST", "records/query", query("Stop", "Trips", ada.user, limit=1,
                                                                 marker=first.json().get("continuationMarker")), "shared"))
    report("bob-trips", bob.call("POST", "records/query", query("Trip", "Trips", ada.user), "shared"))
    carol_database = carol.call("POST", "changes/database", {}, "shared")
    report("carol-database", carol_database)
    bob_zone = bob.call("POST", "changes/zone", {"zones": [{"zoneID": {"zoneName": "Trips", "ownerRecordName": ada.user}}]}, "shared")
    report("bob-zone-changes", bob_zone)

    # Bob may only read; Carol writes under the trip, and her stop is in Ada's zone.
    report("bob-write", bob.call("POST", "records/modify", {"zoneID": {"zoneName": "Trips", "ownerRecordName": ada.user}, "operations": [
        {"operationType": "forceUpdate", "record": {"recordName": "louvre", "fields": {"title": {"value": "Bob's"}}}}]}, "shared"))
    report("carol-write", carol.call("POST", "records/modify", creates("Trips", [record("orsay", "Stop", "Orsay", "paris")]), "shared"))
    report("ada-stops", ada.call("POST", "records/query", {"zoneID": {"zoneName": "Trips"},
                                                          "query": {"recordType": "Stop", "sortBy": [{"systemFieldName": "recordName"}]}}, "private"))
    token = bob_zone.json()["zones"][0]["syncToken"]
    report("bob-zone-since", bob.call("POST", "records/changes", {"zoneID": {"zoneName": "Trips", "ownerRecordName": ada.user},
                                                                   "syncToken": token}, "shared"))

    # Ada removes Carol.
    current = ada.call("POST", "records/lookup", {"zoneID": {"zoneName": "Trips"}, "records": [{"recordName": "paris-share"}]}, "private")
    tag = current.json()["records"][0]["recordChangeTag"]
    removed = ada.call("POST", "records/modify", {"zoneID": {"zoneName": "Trips"}, "operations": [
        share_operation("paris-share", "paris", [("bob@example.org", "READ_ONLY")], operation="update", tag=tag)]}, "private")
    report("ada-removes-carol", removed)
    report("carol-after", carol.call("POST", "records/query", query("Stop", "Trips", ada.user), "shared"))
    report("carol-database-after", carol.call("POST", "changes/database", {"syncToken": carol_database.json()["syncToken"]}, "shared"))
    report("bob-after", bob.call("POST", "records/query", query("Stop", "Trips", ada.user), "shared"))

    # A zone-wide share.
    ada.call("POST", "zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}}}]}, "private")
    ada.call("POST", "records/modify", creates("Notes", [record("n1", "Note", "One"), record("n2", "Note", "Two")]), "private")
    zone_share = ada.call("POST", "records/modify", {"zoneID": {"zoneName": "Notes"}, "operations": [
        share_operation("cloudkit.zoneshare", None, [("bob@example.org", "READ_WRITE")])]}, "private")
    report("ada-zone-share", zone_share)
    bob.call("POST", "records/accept", {"shortGUIDs": [zone_share.json()["records"][0]["shortGUID"]]})
    report("bob-zone-write", bob.call("POST", "records/modify", creates("Notes", [record("n3", "Note", "Three")]), "shared"))
    report("bob-notes", bob.call("POST", "records/query", query("Note", "Notes", ada.user), "shared"))
    report("bob-zones-after", bob.call("GET", "zones/list", database="shared"))

    # A public link: Dave was never invited.
    report("dave-refused", dave.call("POST", "records/accept", {"shortGUIDs": [{"value": guid}]}))
    tag = removed.json()["records"][0]["recordChangeTag"]
    report("ada-opens", ada.call("POST", "records/modify", {"zoneID": {"zoneName": "Trips"}, "operations": [
        share_operation("paris-share", "paris", [("bob@example.org", "READ_ONLY")], public="READ_ONLY", operation="update", tag=tag)]}, "private"))
    report("dave-accept", dave.call("POST", "records/accept", {"shortGUIDs": [{"value": guid}]}))
    report("dave-trips", dave.call("POST", "records/query", query("Trip", "Trips", ada.user), "shared"))
    report("dave-write", dave.call("POST", "records/modify", creates("Trips", [record("versailles", "Stop", "Versailles", "paris")]), "shared"))
    report("done")


if __name__ == "__main__":
    main()
