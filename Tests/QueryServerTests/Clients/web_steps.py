"""What the end-user clients (cloudkit_web_client.py, sharing_client.py) share: one JSON line per
step, and a browser's single step."""

import json

import requests


def report(step, response=None, **extra):
    """Prints one JSON line: {"step": ..., "status": ..., "body": ..., and `extra`}."""
    entry = {"step": step}
    if response is not None:
        entry["status"] = response.status_code
        try:
            entry["body"] = response.json()
        except ValueError:
            entry["body"] = None
    entry.update(extra)
    print(json.dumps(entry), flush=True)


def follow(url, **params):
    """One step of a browser: GET without following the redirect."""
    return requests.get(url, params=params or None, allow_redirects=False, timeout=60)
