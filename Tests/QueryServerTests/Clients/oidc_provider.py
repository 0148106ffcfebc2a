"""A small OpenID Connect provider on loopback, for the server's sign-in tests.

It implements what OpenID Connect Core 1.0 and RFC 7636 ask of a provider for the
authorization-code flow with PKCE, and nothing else:

- GET  /.well-known/openid-configuration   the discovery document
- GET  /jwks                                its public keys (an ES256 key and an RS256 key)
- GET  /authorize                           signs the user in at once (the user is named by the
                                            `login_hint` parameter, "ada" unless given) and sends
                                            the browser back with a code
- POST /token                               trades the code for an ID token, checking the client
                                            secret, the redirect URI and the PKCE verifier (S256)
- POST /test/mint                           an ID token with the claims, algorithm and key the
                                            test asks for, to check every refusal of the server

Run on its own, it prints one JSON line with its issuer and serves until its standard input
closes (the test that started it ended, however it ended):

    python oidc_provider.py CLIENT_ID CLIENT_SECRET
"""

import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

USERS = {
    "ada": {"sub": "user-ada", "email": "ada@example.org", "given_name": "Ada", "family_name": "Lovelace"},
    "bob": {"sub": "user-bob", "email": "bob@example.org", "given_name": "Bob", "family_name": "Babbage"},
    "carol": {"sub": "user-carol", "email": "carol@example.org", "given_name": "Carol", "family_name": "Shaw"},
    "dave": {"sub": "user-dave", "email": "dave@example.org", "given_name": "Dave", "family_name": "Cutler"},
}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def integer_bytes(value: int, length: int = 0) -> bytes:
    length = length or (value.bit_length() + 7) // 8
    return value.to_bytes(length, "big")


class Keys:
    """The provider's signing keys, and one key it never publishes (an attacker's)."""

    def __init__(self):
        self.ec = ec.generate_private_key(ec.SECP256R1())
        self.rsa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.unpublished = ec.generate_private_key(ec.SECP256R1())

    def jwks(self):
        ec_numbers = self.ec.public_key().public_numbers()
        rsa_numbers = self.rsa.public_key().public_numbers()
        return {"keys": [
            {"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": "es-1",
             "x": b64url(integer_bytes(ec_numbers.x, 32)), "y": b64url(integer_bytes(ec_numbers.y, 32))},
            {"kty": "RSA", "alg": "RS256", "use": "sig", "kid": "rs-1",
             "n": b64url(integer_bytes(rsa_numbers.n)), "e": b64url(integer_bytes(rsa_numbers.e))},
        ]}

    def sign(self, claims: dict, alg: str = "ES256", kid: str = None) -> str:
        header = {"alg": alg, "typ": "JWT"}
        if alg == "ES256":
            header["kid"] = kid or "es-1"
        elif alg == "RS256":
            header["kid"] = kid or "rs-1"
        else:
            header["kid"] = kid or "hs-1"
        signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
        if alg == "ES256":
            key = self.unpublished if header["kid"] == "unknown" else self.ec
            r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
            signature = integer_bytes(r, 32) + integer_bytes(s, 32)
        elif alg == "RS256":
            signature = self.rsa.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
        else:  # HS256 with a secret anyone could guess: the server must refuse the algorithm.
            mac = hmac.HMAC(b"secret", hashes.SHA256())
            mac.update(signing_input)
            signature = mac.finalize()
        return signing_input.decode() + "." + b64url(signature)


class Provider:
    def __init__(self, client_id: str, client_secret: str):
        self.client_id = client_id
        self.client_secret = client_secret
        self.keys = Keys()
        self.codes = {}
        self.lock = threading.Lock()
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                provider.get(self)

            def do_POST(self):
                provider.post(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = "http://127.0.0.1:%d" % self.server.server_address[1]

    def serve_in_background(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def claims(self, user: str, nonce: str = None, **overrides) -> dict:
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": self.client_id, "iat": now, "exp": now + 300, **USERS[user]}
        if nonce is not None:
            claims["nonce"] = nonce
        claims.update(overrides)
        return claims

    # MARK: HTTP

    def answer(self, handler, status, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else b""
        handler.send_response(status)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        if body is not None:
            handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def get(self, handler):
        url = urllib.parse.urlsplit(handler.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/.well-known/openid-configuration":
            self.answer(handler, 200, {
                "issuer": self.issuer, "authorization_endpoint": self.issuer + "/authorize",
                "token_endpoint": self.issuer + "/token", "jwks_uri": self.issuer + "/jwks",
                "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["ES256", "RS256"],
                "code_challenge_methods_supported": ["S256"],
            })
        elif url.path == "/jwks":
            self.answer(handler, 200, self.keys.jwks())
        elif url.path == "/authorize":
            problems = []
            if query.get("response_type") != "code":
                problems.append("response_type")
            if query.get("client_id") != self.client_id:
                problems.append("client_id")
            if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
                problems.append("code_challenge")
            if "openid" not in query.get("scope", "").split():
                problems.append("scope")
            if not query.get("nonce") or not query.get("state"):
                problems.append("nonce/state")
            if problems:
                self.answer(handler, 400, {"error": "invalid_request", "error_description": ",".join(problems)})
                return
            code = secrets.token_urlsafe(24)
            with self.lock:
                self.codes[code] = {
                    "user": query.get("login_hint", "ada"), "nonce": query["nonce"],
                    "challenge": query["code_challenge"], "redirect_uri": query["redirect_uri"],
                    "alg": query.get("alg", "ES256"),
                }
            target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
            self.answer(handler, 302, headers={"Location": target})
        else:
            self.answer(handler, 404, {"error": "not_found"})

    def post(self, handler):
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length).decode()
        url = urllib.parse.urlsplit(handler.path)
        if url.path == "/token":
            form = dict(urllib.parse.parse_qsl(raw))
            with self.lock:
                grant = self.codes.pop(form.get("code", ""), None)
            if grant is None:
                self.answer(handler, 400, {"error": "invalid_grant"})
                return
            challenge = b64url(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
            if (form.get("client_id") != self.client_id or form.get("client_secret") != self.client_secret
                    or form.get("redirect_uri") != grant["redirect_uri"] or challenge != grant["challenge"]
                    or form.get("grant_type") != "authorization_code"):
                self.answer(handler, 400, {"error": "invalid_grant"})
                return
            id_token = self.keys.sign(self.claims(grant["user"], grant["nonce"]), alg=grant["alg"])
            self.answer(handler, 200, {"access_token": secrets.token_urlsafe(16), "token_type": "Bearer",
                                       "expires_in": 300, "id_token": id_token})
        elif url.path == "/test/mint":
            request = json.loads(raw or "{}")
            claims = self.claims(request.get("user", "ada"), request.get("nonce"), **request.get("claims", {}))
            for name in request.get("remove", []):
                claims.pop(name, None)
            self.answer(handler, 200, {"idToken": self.keys.sign(claims, alg=request.get("alg", "ES256"), kid=request.get("kid"))})
        else:
            self.answer(handler, 404, {"error": "not_found"})


if __name__ == "__main__":
    provider = Provider(sys.argv[1], sys.argv[2])
    provider.serve_in_background()
    print(json.dumps({"issuer": provider.issuer}), flush=True)
    sys.stdin.read()
