"""Drives the console's record panel over a zone-wide share in headless Chromium (see
console_browser.py).

    console_shares.py BASE_URL API_TOKEN OWNER_TOKEN PARTICIPANT_TOKEN OWNER_RECORD_NAME

The owner (signed in with OWNER_TOKEN) has shared their whole zone Notes: a record of it names no
share, and the panel shows the zone's share, its owner and participants. Then the participant
signs in and opens the same record in their shared database. It prints what the panel shows as
JSON lines, {"step": NAME, ...}; ConsoleSharesTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from console_browser import (Console, Panel, choose_database, paste_token, policy_problems, report, settled, share_state,
                             start_browser, unlock)


def main():
    base, api_token, owner_token, participant_token, owner = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    driver = start_browser()
    try:
        console = Console(driver)
        panel = Panel(console)
        unlock(console, base, api_token)
        paste_token(console, owner_token)
        choose_database(console, "private")
        console.choose("#zone", "Notes")
        panel.open("nice")
        report("owner", error=panel.error(), **share_state(console))
        panel.click("#detail-close")

        console.find("#sign-out").click()
        console.wait.until(lambda d: console.find("#request-error").is_displayed() and settled(console))
        paste_token(console, participant_token)
        choose_database(console, "shared")
        console.choose("#zone", owner + "/Notes")
        panel.open("nice")
        report("participant", error=panel.error(), **share_state(console))
        panel.click("#detail-close")
        report("sharesProblems", problems=policy_problems(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
