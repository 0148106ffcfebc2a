"""Drives the console's navigation in headless Chromium (see console_browser.py).

    console_navigation.py BASE_URL

Over the 692 French cities of ConsoleBrowserTests, ten a page: a jump straight to page 25
(through the pages before it, a batch at a time), Previous to a page whose marker no Next found,
a jump past the end (to the last page); then the tab and the record panel, each view an entry of
the browser's history that Back and Forward restore (the address keeping the page, the tab and
the record open), and an address opened anew restoring all three. It prints what the page shows
as JSON lines, {"step": NAME, ...}; ConsoleNavigationTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.keys import Keys

from console_browser import Console, Panel, press_key, report, settled, start_browser

# What the page shows of its view: the address, the tab, the pager's text, the rows' record
# names, and the record open in the panel (loaded), if any.
VIEW_SCRIPT = """
const detail = document.getElementById('detail');
return {
  hash: decodeURIComponent(location.hash),
  tab: document.querySelector('.tabs .selected').dataset.tab,
  pageInfo: document.getElementById('page-info').textContent,
  rows: [...document.querySelectorAll('#results-table tbody tr')].map((row) => row.dataset.recordName),
  record: detail.classList.contains('hidden') || detail.dataset.loaded !== 'true' ? null : detail.dataset.recordName,
};
"""


def view(console):
    return console.driver.execute_script(VIEW_SCRIPT)


def shown(console, expected):
    """Waits until the page shows the view `expected` (after Back or Forward), answering what it
    shows then: `expected` itself, or what differs after the wait's time."""
    try:
        console.wait.until(lambda d: settled(console) and view(console) == expected)
    except TimeoutException:
        pass
    return view(console)


def jump(console, number):
    """Types a page number beside the pager and presses Enter: the page it reaches."""
    box = console.find("#page-number")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    box.send_keys(str(number))
    console.rerun(lambda: box.send_keys(Keys.ENTER))
    return view(console)


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        console.open(base + "/#type=City&pageSize=10")
        console.wait.until(lambda d: console.find("#page-jump").is_displayed())
        first = view(console)
        report("first", view=first, pageCount=console.find("#page-count").text,
               number=console.find("#page-number").get_attribute("value"), label=console.find('label[for="page-number"]').text)

        # Straight to page 25, then Previous (page 24: its marker walked to), then past the end.
        requests = "return performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/records/query')).length"
        before = driver.execute_script(requests)
        page25 = jump(console, 25)
        report("jumped", view=page25, queries=driver.execute_script(requests) - before,
               number=console.find("#page-number").get_attribute("value"))
        console.rerun(lambda: console.find("#previous").click())
        page24 = view(console)
        report("previous", view=page24)
        last = jump(console, 999)
        report("pastTheEnd", view=last, number=console.find("#page-number").get_attribute("value"),
               nextEnabled=console.find("#next").is_enabled())

        # The tab and the record open are in the address too, each view an entry of the history.
        console.tab("plan")
        plan = view(console)
        console.tab("results")
        results = view(console)
        panel = Panel(console)
        panel.open(last["rows"][0])
        opened = view(console)
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: panel.state() is None)
        closed = view(console)
        report("forward", plan=plan, results=results, opened=opened, closed=closed)

        # Back through each view, to the first page; Forward to page 25.
        back = []
        for expected in [opened, results, plan, last, page24, page25, first]:
            driver.back()
            back.append(shown(console, expected))
        driver.forward()
        report("history", back=back, forward=shown(console, page25),
               expected=[opened, results, plan, last, page24, page25, first])

        # An address opened anew: its page, its tab and its record.
        address = "#type=City&pageSize=10&page=3&tab=map&record=" + page25["rows"][0]
        driver.get("about:blank")
        driver.get(base + "/" + address)
        console.wait.until(lambda d: console.generation() >= 1 and settled(console)
                           and console.find("#detail").get_attribute("data-loaded") == "true")
        report("address", view=view(console), mapShown=console.find("#map-panel").is_displayed())
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
