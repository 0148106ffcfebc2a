"""A CloudKit Web Services server-to-server client written apart from the server, with
python-ecdsa and requests (PyPI), following Apple's recipe for signed requests:
sign "date:base64(sha256(body)):subpath" with the key's ECDSA P-256, DER, base64.

    python cloudkit_s2s_client.py keygen KEY.pem
    python cloudkit_s2s_client.py run BASE_URL KEY_ID KEY.pem

`run` prints one JSON line per step: {"step": ..., "status": ..., "body": ...}.
"""
import base64
import datetime
import hashlib
import json
import sys
from urllib.parse import urlparse

import ecdsa
import requests


def signed_headers(key, key_id, path, body):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
    message = f"{date}:{digest}:{path}".encode()
    signature = key.sign(message, hashfunc=hashlib.sha256, sigencode=ecdsa.util.sigencode_der)
    return {
        "X-Apple-CloudKit-Request-KeyID": key_id,
        "X-Apple-CloudKit-Request-ISO8601Date": date,
        "X-Apple-CloudKit-Request-SignatureV1": base64.b64encode(signature).decode(),
        "Content-Type": "text/plain",
    }


def call(step, method, url, key, key_id, payload=None, tamper=False):
    body = b"" if payload is None else json.dumps(payload).encode()
    headers = signed_headers(key, key_id, urlparse(url).path, body)
    if tamper:
        body = body.replace(b"Lisbon", b"Lisboa")
    answer = requests.request(method, url, data=body, headers=headers, timeout=30)
    print(json.dumps({"step": step, "status": answer.status_code, "body": answer.json()}), flush=True)
    return answer.json()


def report(step, status, body):
    print(json.dumps({"step": step, "status": status, "body": body}), flush=True)


def asset_round_trip(database, key, key_id):
    """Uploads a file as Apple's reference describes (assets/upload, then a POST of the bytes to
    the URL it answers), saves its receipt in an ASSETID field, and downloads it again."""
    data = bytes(range(256)) * 40 + "é\n".encode()
    tokens = call("assets-upload", "POST", database + "/assets/upload", key, key_id,
                  {"tokens": [{"recordType": "City", "fieldName": "flag", "recordName": "lisbon"}]})
    uploaded = requests.post(tokens["tokens"][0]["url"], data=data, timeout=30)
    receipt = uploaded.json()["singleFile"]
    report("asset-receipt", uploaded.status_code, {
        "checksumMatches": receipt["fileChecksum"] == base64.b64encode(hashlib.sha256(data).digest()).decode(),
        "size": receipt["size"]})
    update = {"operations": [{"operationType": "forceUpdate", "record": {
        "recordName": "lisbon", "fields": {"flag": {"value": receipt, "type": "ASSETID"}}}}]}
    saved = call("asset-record", "POST", database + "/records/modify", key, key_id, update)
    looked = call("asset-lookup", "POST", database + "/records/lookup", key, key_id, {"records": [{"recordName": "lisbon"}]})
    url = looked["records"][0]["fields"]["flag"]["value"]["downloadURL"]
    downloaded = requests.get(url, timeout=30)
    report("asset-download", downloaded.status_code, {"matches": downloaded.content == data, "size": len(downloaded.content)})
    forged = requests.get(url[:-6] + ("AAAAAA" if not url.endswith("AAAAAA") else "BBBBBB"), timeout=30)
    report("asset-forged", forged.status_code, forged.json())
    return saved


def main():
    if sys.argv[1] == "keygen":
        key = ecdsa.SigningKey.generate(curve=ecdsa.NIST256p)
        with open(sys.argv[2], "wb") as file:
            file.write(key.to_pem())  # "EC PRIVATE KEY", as `openssl ecparam -genkey` writes it
        return
    base, key_id, key_path = sys.argv[2], sys.argv[3], sys.argv[4]
    with open(key_path) as file:
        key = ecdsa.SigningKey.from_pem(file.read())
    database = base + "/database/1/iCloud.com.example.cities/development/public"
    call("zones", "GET", database + "/zones/list", key, key_id)
    create = {"operations": [{"operationType": "create", "record": {
        "recordName": "lisbon", "recordType": "City",
        "fields": {"name": {"value": "Lisbon"}, "population": {"value": 545923, "type": "INT64"},
                   "location": {"value": {"latitude": 38.7223, "longitude": -9.1393}, "type": "LOCATION"}}}}]}
    call("create", "POST", database + "/records/modify", key, key_id, create)
    query = {"query": {"recordType": "City", "filterBy": [
        {"comparator": "NEAR", "fieldName": "location", "distance": 50000,
         "fieldValue": {"value": {"latitude": 38.7, "longitude": -9.1}, "type": "LOCATION"}}]}}
    call("query", "POST", database + "/records/query", key, key_id, query)
    call("lookup", "POST", database + "/records/lookup", key, key_id, {"records": [{"recordName": "lisbon"}]})
    call("tampered", "POST", database + "/records/modify", key, key_id, create, tamper=True)
    asset_round_trip(database, key, key_id)
    call("user", "GET", database + "/users/current", key, key_id)


if __name__ == "__main__":
    main()
