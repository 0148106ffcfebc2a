"""Checks the console's accessibility in headless Chromium with axe-core (see console_browser.py).

    console_accessibility.py BASE_URL

axe-core is the script that the PyPI package axe-selenium-python ships (axe.min.js, installed
in the virtual environment that .ci/run makes); nothing is downloaded. The script runs axe over
the results at 360, 768 and 1440 px, then over each tab at 1280 px and over the record panel,
then over the panel and the results in dark mode, and prints the violations axe finds, each with its impact and the elements it names, as JSON
lines, {"step": NAME, ...}; ConsoleAccessibilityTests.swift checks them. With
QUERY_CONSOLE_SCREENSHOTS=DIRECTORY, it also saves the results at each of the three widths
there (console-360.png, console-768.png, console-1440.png: the README's pictures, in docs/).
"""

import os
import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

import axe_selenium_python
from selenium.webdriver.common.keys import Keys

from console_browser import TABS, Console, Panel, layout_at, press_key, report, settled, start_browser

AXE = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")


def violations(driver):
    """axe's violations on the page as it is, each as its rule, impact and the elements it names
    (CSS selectors); the page's hidden parts are not looked at, as axe does not."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        with open(AXE, encoding="utf-8") as script:
            driver.execute_script(script.read())
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, { resultTypes: ['violations'] }).then((results) => done(results.violations.map((rule) => ({"
        " rule: rule.id, impact: rule.impact, nodes: rule.nodes.map((node) => node.target.join(' ')) }))),"
        " (error) => done([{ rule: 'axe failed', impact: 'critical', nodes: [String(error)] }]));")
    return sorted(found, key=lambda rule: rule["rule"])


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    driver.set_script_timeout(60)
    try:
        console = Console(driver)
        panel = Panel(console)
        console.open(base + "/#type=City&predicate=population+%3E+50000&sort=population:desc,name:asc")
        console.wait.until(lambda d: console.find("#record-types").get_attribute("data-counted") == "true")
        report("axeVersion", version=driver.execute_script(open(AXE, encoding="utf-8").read() + "; return axe.version"))

        # The results at a phone's, a tablet's and a desktop's width.
        for width, height in ((360, 780), (768, 1000), (1440, 900)):
            layout_at(console, width, height)
            # The browser keeps the table's scrolling through a resize: the pictures start at its corner.
            driver.execute_script("const panel = document.getElementById('results-panel'); panel.scrollTop = 0; panel.scrollLeft = 0;"
                                  " window.scrollTo(0, 0);")
            console.screenshot(str(width))
            report(f"results{width}", violations=violations(driver))
        layout_at(console, 1280)

        # Each tab, once what it loads is drawn.
        for name in TABS:
            console.tab(name)
            console.wait.until(lambda d: settled(console) and not d.execute_script("return document.querySelector('[data-busy]') !== null"))
            report(f"tab-{name}", violations=violations(driver))
        console.tab("results")

        # The record panel, a modal dialog, opened from the keyboard.
        driver.execute_script("document.querySelector('#results-table tbody tr').focus()")
        press_key(driver, Keys.ENTER)
        panel.wait_loaded()
        report("panel", violations=violations(driver))

        # In dark mode: the panel, then the results.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        report("darkPanel", violations=violations(driver))
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: panel.state() is None)
        report("darkResults", violations=violations(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
