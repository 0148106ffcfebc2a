"""An end user's web client of `query serve`, written from Apple's CloudKit Web Services reference
("Accessing CloudKit Using an API Token"), apart from the server's code: it signs users in
through the server's sign-in page and a local OpenID Connect provider (oidc_provider.py), as a
browser would, then works with records while the web auth token rotates on every answer.

    python cloudkit_web_client.py SERVER ISSUER API_TOKEN CONTAINER APP_ORIGIN

Each step prints one JSON line: {"step": ..., "status": ..., "body": ..., ...}.
"""

import json
import re
import sys
import urllib.parse

import requests

from web_steps import follow, report

SERVER, ISSUER, API_TOKEN, CONTAINER, APP_ORIGIN = sys.argv[1:6]
DATABASE = SERVER + "/database/1/" + CONTAINER + "/development/"


class Session:
    """A signed-in user: each request carries the API token and the current web auth token, and
    each answer's X-Apple-CloudKit-Web-Auth-Token replaces it."""

    def __init__(self, token):
        self.token = token
        self.requests = 0
        self.rotations = 0

    def call(self, method, operation, body=None, database="public"):
        query = urllib.parse.urlencode({"ckAPIToken": API_TOKEN, "ckWebAuthToken": self.token})
        response = requests.request(method, DATABASE + database + "/" + operation + "?" + query,
                                    data=json.dumps(body) if body is not None else None,
                                    headers={"Content-Type": "text/plain"}, timeout=60)
        self.requests += 1
        following = response.headers.get("X-Apple-CloudKit-Web-Auth-Token")
        if following and following != self.token:
            self.rotations += 1
            self.token = following
        return response


def sign_in_at_provider(signin_response, user, alg):
    """The browser at the provider: the user (chosen by login_hint) signs in, and the provider
    sends the browser back to the server's callback."""
    authorize = signin_response.headers["Location"]
    at_provider = follow(authorize + "&" + urllib.parse.urlencode({"login_hint": user, "alg": alg}))
    return authorize, at_provider.headers["Location"]


def main():
    # Unsigned: the server says where to sign in.
    unsigned = requests.get(DATABASE + "public/users/caller", params={"ckAPIToken": API_TOKEN}, timeout=60)
    report("unsigned", unsigned)
    redirect_url = unsigned.json()["redirectURL"]

    # Ada signs in in a window the app opened: the page posts the token to the app's origin.
    started = follow(redirect_url + "&" + urllib.parse.urlencode({"origin": APP_ORIGIN}))
    authorize, callback = sign_in_at_provider(started, "ada", "ES256")
    authorize_query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorize).query))
    page = follow(callback)
    token = re.search(r'data-token="([^"]+)"', page.text)
    origin = re.search(r'data-origin="([^"]+)"', page.text)
    report("signin-ada", page, startStatus=started.status_code,
           atProvider=authorize.startswith(ISSUER + "/authorize?"),
           challengeMethod=authorize_query.get("code_challenge_method"),
           scope=authorize_query.get("scope"),
           origin=origin.group(1) if origin else None,
           scriptHashed="script-src 'sha256-" in page.headers.get("Content-Security-Policy", ""),
           posts="postMessage" in page.text)
    ada = Session(token.group(1))

    report("caller-ada", ada.call("GET", "users/caller"))
    creates = [{"operationType": "create", "record": {"recordType": "Note", "recordName": "ada-%d" % index,
                                                      "fields": {"title": {"value": "Ada's note %d" % index}}}}
               for index in range(1, 4)]
    report("create-private", ada.call("POST", "records/modify", {"operations": creates}, "private"))
    report("create-public", ada.call("POST", "records/modify", {"operations": [
        {"operationType": "create", "record": {"recordType": "Note", "recordName": "ada-public",
                                               "fields": {"title": {"value": "For everyone"}}}}]}))
    query = {"query": {"recordType": "Note", "sortBy": [{"systemFieldName": "recordName"}]}, "resultsLimit": 2}
    first = ada.call("POST", "records/query", query, "private")
    report("page-1", first)
    rest = ada.call("POST", "records/query", {**query, "continuationMarker": first.json().get("continuationMarker")}, "private")
    report("page-2", rest)
    report("rotations-ada", requests=ada.requests, rotations=ada.rotations)

    # Bob signs in with the URL-redirect style, through the provider's RSA key.
    started = follow(SERVER + "/auth/signin", container=CONTAINER, returnTo=APP_ORIGIN + "/app?tab=notes")
    _, callback = sign_in_at_provider(started, "bob", "RS256")
    back = follow(callback)
    location = back.headers.get("Location", "")
    returned = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    report("signin-bob", back, returnsToApp=location.startswith(APP_ORIGIN + "/app?tab=notes&ckWebAuthToken="))
    bob = Session(returned["ckWebAuthToken"])
    report("caller-bob", bob.call("GET", "users/caller"))
    report("bob-public", bob.call("POST", "records/query", {"query": {"recordType": "Note"}}))
    report("bob-private", bob.call("POST", "records/query", {"query": {"recordType": "Note"}}, "private"))
    report("bob-reaches-ada", bob.call("POST", "records/lookup", {"records": [{"recordName": "ada-1"}]}, "private"))

    # A callback is taken once.
    report("callback-replay", follow(callback))
    # A page of another origin that opens the sign-in gets nothing.
    report("foreign-origin", follow(SERVER + "/auth/signin", container=CONTAINER, origin="https://evil.example"))

    # An app that holds an ID token already trades it; every forged or misdirected one is refused.
    def mint(**request):
        return requests.post(ISSUER + "/test/mint", data=json.dumps(request), timeout=60).json()["idToken"]

    def exchange(step, id_token, nonce=None):
        body = {"idToken": id_token, "container": CONTAINER}
        if nonce is not None:
            body["nonce"] = nonce
        report(step, requests.post(SERVER + "/auth/exchange", params={"ckAPIToken": API_TOKEN}, data=json.dumps(body),
                                   headers={"Content-Type": "application/json"}, timeout=60))

    exchange("exchange-es256", mint(nonce="n-1"), "n-1")
    exchange("exchange-rs256", mint(user="bob", alg="RS256"))
    exchange("exchange-wrong-aud", mint(claims={"aud": "someone-else"}))
    exchange("exchange-wrong-iss", mint(claims={"iss": "https://evil.example"}))
    exchange("exchange-wrong-nonce", mint(nonce="n-2"), "n-3")
    exchange("exchange-unknown-key", mint(kid="unknown"))
    exchange("exchange-expired", mint(claims={"exp": 1_000_000_000}))
    exchange("exchange-hs256", mint(alg="HS256"))
    without_token = requests.post(SERVER + "/auth/exchange", data=json.dumps({"idToken": mint(), "container": CONTAINER}), timeout=60)
    report("exchange-without-api-token", without_token)


if __name__ == "__main__":
    main()
