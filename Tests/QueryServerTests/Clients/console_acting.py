"""Drives the console's "act as" in headless Chromium (see console_browser.py).

    console_acting.py BASE_URL API_TOKEN ADMIN_TOKEN ADA BOB

Opens the development environment's private database with the API token (no user signed in),
then: without the administrator token there is no "Act as"; with it, the server's users are
offered; acting as Ada shows Ada's notes under a banner saying so, the shared database is
Ada's too, acting as Bob shows Bob's, and Stop acting goes back (the private database then
needs a signed-in user again). It prints what the page shows as JSON lines, {"step": NAME, ...};
ConsoleActingTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_browser import Console, report, settled, start_browser


def state(console):
    """What the page shows of whom it acts as."""
    driver = console.driver
    banner = console.find("#acting-banner")
    owner = console.find("#database-owner")
    return {
        "pickerShown": console.find("#act-as-label").is_displayed(),
        "banner": banner.text if banner.is_displayed() else None,
        "owner": owner.text if owner.is_displayed() else None,
        "actingAs": driver.execute_script("return document.body.dataset.actingAs || ''"),
        "rows": [row.get_attribute("data-record-name") for row in console.find_all("#results-table tbody tr")],
    }


def rows_are(console, names):
    return lambda d: settled(console) and [row.get_attribute("data-record-name") for row in console.find_all("#results-table tbody tr")] == names


def main():
    base, api_token, admin_token, ada, bob = sys.argv[1:6]
    driver = start_browser()
    try:
        console = Console(driver)
        driver.get(base + "/#environment=development&database=private&type=Note")
        console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        console.find("#api-token").send_keys(api_token + Keys.TAB)
        console.wait.until(lambda d: console.find("#identity").text == "Not signed in" and settled(console))
        report("withoutAdministrator", **state(console))

        console.find("#admin-token").send_keys(admin_token + Keys.TAB)
        console.wait.until(lambda d: console.find("#act-as-label").is_displayed())
        options = [[option.get_attribute("value"), option.text] for option in Select(console.find("#act-as")).options]
        report("picker", options=options)

        Select(console.find("#act-as")).select_by_value(ada)
        console.wait.until(rows_are(console, ["a1"]))
        console.wait.until(lambda d: console.find("#acting-banner").is_displayed())
        console.screenshot("acting")
        report("ada", **state(console))

        Select(console.find("#database")).select_by_visible_text("shared")
        console.wait.until(lambda d: console.find("#database-owner").text.startswith("Shared with") and settled(console))
        report("adaShared", owner=console.find("#database-owner").text,
               error=console.find("#request-error").text if console.find("#request-error").is_displayed() else None)
        Select(console.find("#database")).select_by_visible_text("private")

        Select(console.find("#act-as")).select_by_value(bob)
        console.wait.until(rows_are(console, ["b1"]))
        report("bob", **state(console))

        console.find("#acting-stop").click()
        console.wait.until(lambda d: not console.find("#acting-banner").is_displayed() and rows_are(console, [])(d))
        stopped = state(console)
        stopped["focused"] = driver.execute_script("return document.activeElement.id")
        report("stopped", **stopped)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
