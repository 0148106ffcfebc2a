"""Drives the console's Subscriptions tab in headless Chromium (see console_browser.py).

    console_subscriptions.py BASE_URL
    console_subscriptions.py BASE_URL --refused API_TOKEN WEB_AUTH_TOKEN

Creates two query subscriptions in the production public database through the API, as any client
would, then opens the tab with its key (6) and reads the table; asks to delete one, checks the
modal dialog (its text, the focus on Cancel and kept inside by Tab and Shift+Tab, the page behind
inert), cancels it with Escape, asks again and deletes it; then reads the table again and asks the
API which subscriptions are left. It prints what the page shows as JSON lines, {"step": NAME, ...};
ConsoleSubscriptionsTests.swift checks them. With --refused, on a server with credentials, the
console holds the API token only and the server refuses the deletion (refused_flow).
"""

import json
import sys
import urllib.request

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.keys import Keys

from console_browser import Console, focus_stays_inside, press_key, report, start_browser, unlock
from console_orientation import contrast, report_contrast_and_problems

SUBSCRIPTIONS = [
    {"subscriptionID": "big-cities", "subscriptionType": "query",
     "query": {"recordType": "City", "filterBy": [{"fieldName": "population", "comparator": "GREATER_THAN", "fieldValue": {"value": 1000000}}]},
     "firesOn": ["create", "update", "delete"]},
    {"subscriptionID": "lyon", "subscriptionType": "query",
     "query": {"recordType": "City", "predicate": "name == \"Lyon\""},
     "firesOn": ["update"], "firesOnce": True},
]


def api(base, operation, body=None, query=""):
    """A second client: one request to the production public database, its JSON answer."""
    url = f"{base}/database/1/iCloud.com.example.cities/production/public/{operation}{query}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def view_count(console, name):
    return int(console.driver.execute_script(f"return document.getElementById('subscriptions-view').dataset.{name} || '0'"))


def idle(console):
    return console.driver.execute_script("return document.getElementById('subscriptions-view').dataset.busy === undefined")


def table(console):
    """The table's head and each row's cells (the action column's button by its accessible name)."""
    head = [cell.get_attribute("textContent") for cell in console.find_all("#subscriptions-table thead th")]
    rows = []
    for row in console.find_all("#subscriptions-table tbody tr"):
        cells = [cell.text for cell in row.find_elements("css selector", "td")]
        button = row.find_element("css selector", "button.subscription-delete")
        rows.append({"id": row.get_attribute("data-subscription"), "cells": cells[:-1], "action": [cells[-1], button.get_attribute("aria-label")]})
    return {"head": head, "rows": rows, "count": console.find("#subscriptions-count").text}


def inert(console):
    return console.driver.execute_script("return [...document.querySelectorAll('body > header, body > main')].map((node) => node.inert)")


def focused(console):
    return console.driver.execute_script("return document.activeElement.id || document.activeElement.getAttribute('aria-label')")


def dialog(console):
    """What the dialog shows, where the focus is, and whether the page behind is inert."""
    return {
        "role": console.find("#subscription-dialog").get_attribute("role"),
        "modal": console.find("#subscription-dialog").get_attribute("aria-modal"),
        "title": console.find("#subscription-dialog-title").text,
        "summary": console.find("#subscription-dialog-summary").text,
        "buttons": [button.text for button in console.find_all("#subscription-dialog button")],
        "focused": focused(console),
        "inert": inert(console),
    }



def ask(console, subscription_id):
    console.find(f'#subscriptions-table tr[data-subscription="{subscription_id}"] button.subscription-delete').click()
    console.wait.until(lambda d: console.find("#subscription-dialog").is_displayed())


def refused_flow(base, api_token, web_auth_token):
    """A server with credentials: a signed-in user's subscription, listed by a console that holds
    the API token only, whose deletion the server refuses (a write needs a signed-in user); the
    dialog shows the refusal and the subscription stays."""
    credential = f"?ckAPIToken={api_token}&ckWebAuthToken={web_auth_token}"
    created = api(base, "subscriptions/modify", {"operations": [{"operationType": "create", "subscription": {
        "subscriptionID": "every-city", "subscriptionType": "query", "query": {"recordType": "City"}, "firesOn": ["create"]}}]}, credential)
    report("refusedCreated", ids=[entry.get("subscriptionID") for entry in created["subscriptions"]],
           errors=[entry.get("serverErrorCode") for entry in created["subscriptions"] if entry.get("serverErrorCode")])
    driver = start_browser()
    try:
        console = Console(driver)
        unlock(console, base, api_token)
        driver.execute_script("document.activeElement.blur()")
        driver.find_element("css selector", "body").send_keys("6")
        console.wait.until(lambda d: view_count(console, "loads") >= 1 and idle(console))
        listed = table(console)
        ask(console, "every-city")
        console.find("#subscription-dialog-delete").click()
        console.wait.until(lambda d: view_count(console, "changes") >= 1 and d.execute_script(
            "return document.getElementById('subscription-dialog').dataset.busy === undefined"))
        error = console.find("#subscription-dialog-error")
        report("refused", rows=listed["rows"], errorShown=error.is_displayed(), code=error.find_element("css selector", "b").text,
               dialogShown=console.find("#subscription-dialog").is_displayed(), focused=focused(console))
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: not console.find("#subscription-dialog").is_displayed())
        report("refusedAfter", rows=[row["id"] for row in table(console)["rows"]], inert=inert(console),
               api=[entry["subscriptionID"] for entry in api(base, "subscriptions/list", query=f"?ckAPIToken={api_token}")["subscriptions"]])
    finally:
        driver.quit()


def main():
    if len(sys.argv) == 5 and sys.argv[2] == "--refused":
        refused_flow(sys.argv[1].rstrip("/"), sys.argv[3], sys.argv[4])
        return
    base = sys.argv[1].rstrip("/")
    created = api(base, "subscriptions/modify", {"operations": [{"operationType": "create", "subscription": s} for s in SUBSCRIPTIONS]})
    report("created", ids=[entry.get("subscriptionID") for entry in created["subscriptions"]],
           errors=[entry.get("serverErrorCode") for entry in created["subscriptions"] if entry.get("serverErrorCode")])
    driver = start_browser()
    try:
        console = Console(driver)
        driver.get(base + "/#type=City")
        console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))

        # The tab from its key: the subscriptions listed.
        driver.execute_script("document.activeElement.blur()")
        driver.find_element("css selector", "body").send_keys("6")
        console.wait.until(lambda d: view_count(console, "loads") >= 1 and idle(console))
        report("listed", **table(console), scope=console.find("#subscriptions-scope").text,
               selected=driver.execute_script("return document.querySelector('.tabs [aria-selected=true]').dataset.tab"),
               panel={"role": console.find("#subscriptions-panel").get_attribute("role"),
                      "labelledBy": console.find("#subscriptions-panel").get_attribute("aria-labelledby")})

        # Asked, then cancelled with Escape: nothing changes, the focus goes back to the button.
        ask(console, "lyon")
        asked = dialog(console)
        asked["tabs"] = focus_stays_inside(console, "subscription-dialog", 4)
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: not console.find("#subscription-dialog").is_displayed())
        report("cancelled", asked=asked, focused=focused(console), inert=inert(console), rows=[row["id"] for row in table(console)["rows"]])

        # Asked again and deleted: the table lists the other one only. Every text shown, the
        # dialog's and the table's behind it, read in light and dark mode first.
        ask(console, "lyon")
        light = contrast(driver, "light")
        dark = contrast(driver, "dark")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        report("dialogContrast", light=light["failing"], dark=dark["failing"], measured=light["measured"] > 0 and dark["measured"] > 0)
        # The screenshot of docs/: the table behind the dialog, without the focus ring.
        driver.execute_script("document.activeElement.blur()")
        console.screenshot("subscriptions")
        console.find("#subscription-dialog-cancel").send_keys(Keys.SHIFT + Keys.TAB)
        deleting = focused(console)
        press_key(driver, Keys.ENTER)
        console.wait.until(lambda d: view_count(console, "changes") >= 1 and idle(console))
        report("deleted", pressed=deleting, **table(console), status=console.find("#subscriptions-status").text,
               dialogShown=console.find("#subscription-dialog").is_displayed(), focused=focused(console), inert=inert(console),
               error=console.find("#subscription-dialog-error").is_displayed())

        # A second client sees it gone.
        report("api", ids=[entry["subscriptionID"] for entry in api(base, "subscriptions/list")["subscriptions"]])

        # Contrast: every text of the tab, light and dark.
        report_contrast_and_problems(driver, "subscriptionsProblems")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
