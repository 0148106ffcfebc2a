"""Drives the console's Telemetry tab in headless Chromium (see console_browser.py).

    console_telemetry.py BASE_URL

The server has answered an hour of known requests before the page opens. The script reaches the
tab from the keyboard (the arrows in the tab list, then the 7 key), reads the table of routes,
the totals and the chart (its bars, its p99 line and its text alternative), picks a route for the
chart with Enter and goes back to all routes, and measures the contrast of every text in light
and dark mode. It prints what the page shows as JSON lines, {"step": NAME, ...};
ConsoleTelemetryTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.keys import Keys

from console_browser import Console, press_key, report, start_browser
from console_orientation import report_contrast_and_problems


def loads(console):
    """How many answers of GET telemetry the tab has drawn."""
    return int(console.find("#telemetry-view").get_attribute("data-loads") or "0")


def rows(console):
    """The table: each route's cells as the page writes them."""
    found = []
    for row in console.find_all("#telemetry-table tbody tr"):
        cells = [cell.get_attribute("textContent") for cell in row.find_elements("css selector", "th, td")]
        found.append(cells)
    return found


def chart(console):
    """What the chart shows: its title, its bars and p99 points, and its text alternative."""
    svg = console.find("#telemetry-chart")
    line = console.find_all("#telemetry-p99-line")
    return {
        "title": console.find("#telemetry-chart-title").text,
        "bars": int(svg.get_attribute("data-bars") or "0"),
        "barGroups": len(console.find_all("#telemetry-chart g.bar")),
        "points": int(svg.get_attribute("data-points") or "0"),
        "line": bool(line) and line[0].get_attribute("d").startswith("M"),
        "description": console.find("#telemetry-chart-desc").get_attribute("textContent"),
        "role": svg.get_attribute("role"),
        "labelledBy": svg.get_attribute("aria-labelledby"),
        "drawnWidth": console.driver.execute_script("return Math.round(document.getElementById('telemetry-chart').getBBox().width) > 0"),
    }


def tabs(console):
    """Each tab's name and whether it is selected, and the focused tab."""
    return {
        "selected": console.driver.execute_script(
            "return [...document.querySelectorAll('.tabs [role=tab]')].filter((tab) => tab.getAttribute('aria-selected') === 'true').map((tab) => tab.dataset.tab)"),
        "focused": console.driver.execute_script("return document.activeElement.dataset.tab || document.activeElement.id || null"),
        "shown": console.find('[data-panel="telemetry"]').is_displayed(),
    }


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        driver.get(base + "/")
        console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))

        # From the keyboard: the selected tab, then the left arrow wraps round to Telemetry.
        driver.execute_script("document.querySelector('.tabs [aria-selected=true]').focus()")
        press_key(driver, Keys.ARROW_LEFT)
        console.wait.until(lambda d: loads(console) >= 1 and d.execute_script("return document.getElementById('telemetry-view').dataset.busy === undefined"))
        report("opened", tabs=tabs(console), tabIndexes=driver.execute_script(
            "return [...document.querySelectorAll('.tabs [role=tab]')].map((tab) => tab.tabIndex)"),
            panel={"role": console.find("#telemetry-panel").get_attribute("role"),
                   "labelledBy": console.find("#telemetry-panel").get_attribute("aria-labelledby")})

        head = [cell.text for cell in console.find_all("#telemetry-table thead th")]
        totals = [[total.get_attribute("data-total"), total.find_element("css selector", ".telemetry-total-label").text]
                  for total in console.find_all("#telemetry-totals .telemetry-total")]
        report("table", head=head, rows=rows(console), totals=totals, chart=chart(console), error=console.find("#telemetry-error").is_displayed())
        # The screenshot of docs/, without the keyboard's focus ring.
        driver.execute_script("document.activeElement.blur()")
        console.screenshot("telemetry")

        # A route for the chart, with Enter on its button: the focus stays there.
        button = console.find('#telemetry-table tr[data-route="/health"] .route-pick')
        driver.execute_script("arguments[0].focus()", button)
        press_key(driver, Keys.ENTER)
        console.wait.until(lambda d: console.find("#telemetry-chart").get_attribute("data-route") == "/health")
        report("picked", chart=chart(console), pressed=console.find('#telemetry-table tr[data-route="/health"] .route-pick').get_attribute("aria-pressed"),
               focused=driver.execute_script("return document.activeElement.textContent"),
               allShown=console.find("#telemetry-all").is_displayed())

        # Back to all routes: the focus goes to the chart's title.
        console.find("#telemetry-all").click()
        console.wait.until(lambda d: console.find("#telemetry-chart").get_attribute("data-route") == "")
        report("allRoutes", chart=chart(console), focused=driver.execute_script("return document.activeElement.id"),
               allShown=console.find("#telemetry-all").is_displayed())

        # The shortcuts: 1 to the results, 7 back here, which asks the server again.
        before = loads(console)
        driver.execute_script("document.activeElement.blur()")
        driver.find_element("css selector", "body").send_keys("1")
        console.wait.until(lambda d: not console.find('[data-panel="telemetry"]').is_displayed())
        driver.find_element("css selector", "body").send_keys("7")
        console.wait.until(lambda d: loads(console) > before)
        report("shortcut", tabs=tabs(console), loads=loads(console) - before)

        # Contrast: every text of the tab, light and dark.
        report_contrast_and_problems(driver, "telemetryProblems")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
