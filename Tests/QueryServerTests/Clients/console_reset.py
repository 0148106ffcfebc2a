"""Drives the console's "Reset development" in headless Chromium (see console_browser.py).

    console_reset.py BASE_URL

In the Schema tab of the development environment, which holds records, a zone, a record type
and a field that production lacks: Reset development shows exactly what would go (records per
type, zones, the record types and fields production lacks) in a modal dialog, the focus kept
inside; Escape cancels it (nothing deleted), then Reset development applies it: the schema view
is production's again and the query finds nothing. It prints what the page shows as JSON lines,
{"step": NAME, ...}; ConsoleResetTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.keys import Keys

from console_administration import apply, open_dialog, open_development_schema
from console_browser import Console, browser_problems, focus_stays_inside, press_key, report, settled, start_browser


def schema_types(console):
    return [card.get_attribute("data-type") for card in console.find_all("#schema-view [data-type]")]


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        open_development_schema(console, base)
        report("start", types=schema_types(console))

        planned = open_dialog(console, lambda: console.find("#schema-reset").click())
        planned["danger"] = "danger-primary" in console.find("#admin-dialog-apply").get_attribute("class")
        planned["tabs"] = focus_stays_inside(console, "admin-dialog", 4)
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: not console.find("#admin-dialog").is_displayed())
        report("cancelled", planned=planned, focused=driver.execute_script("return document.activeElement.id"), types=schema_types(console))

        open_dialog(console, lambda: console.find("#schema-reset").click())
        console.screenshot("reset")
        applied = apply(console)
        console.wait.until(lambda d: "Note" not in schema_types(console))
        report("reset", applied=applied, types=schema_types(console))

        console.tab("results")
        console.rerun(lambda: console.find("#run").click())
        console.wait.until(lambda d: settled(console))
        report("results", rows=[row.get_attribute("data-record-name") for row in console.find_all("#results-table tbody tr")])

        report("resetProblems", problems=browser_problems(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
