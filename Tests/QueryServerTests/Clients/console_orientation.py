"""Drives the query console's orientation in headless Chromium (see console_browser.py).

    console_orientation.py BASE_URL

Over the twelve cities of RecordsQueryTests: the order a query states when it has no sort,
columns that stay in place when sorted, the container shown read-only, a failed run on page 2
(its rows keep their numbers, marked stale), the record panel as a modal dialog that keeps the
focus inside, and the contrast of every text on the page, light and dark (WCAG AA). It prints
what the page shows as JSON lines, {"step": NAME, ...}; ConsoleOrientationTests.swift checks them.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_browser import Console, browser_problems, Panel, current_sorts, press_key, report, start_browser

# Every visible text on the page (a leaf element with text, or a text input's value) with its
# colour and the colour of what lies behind it (the first opaque background among its
# ancestors), the contrast between them, and whether it is large text (WCAG: 24 px, or 18.66 px
# bold). Disabled controls and the map's SVG are left out, as WCAG leaves out inactive controls
# and graphics.
CONTRAST_SCRIPT = """
function rgba(text) {
  const parts = text.match(/[\\d.]+/g).map(Number);
  return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
}
function over(top, bottom) {
  const a = top.a;
  return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1 };
}
function background(node) {
  const layers = [];
  for (let element = node; element; element = element.parentElement) {
    const color = rgba(getComputedStyle(element).backgroundColor);
    if (color.a > 0) layers.push(color);
    if (color.a >= 1) break;
  }
  let result = { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
}
function luminance(color) {
  const channel = (value) => { const c = value / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}
function opacity(node) {
  let value = 1;
  for (let element = node; element; element = element.parentElement) value *= Number(getComputedStyle(element).opacity);
  return value;
}
const found = [];
for (const node of document.querySelectorAll('body *')) {
  if (node.closest('svg') || node.closest('[disabled]') || node.closest('.hidden')) continue;
  const own = [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim() !== '');
  const field = (node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.value.trim() !== '' && node.type !== 'password';
  if (!own && !field) continue;
  if (node.tagName === 'TEXTAREA' && node.id === 'predicate') continue;  // transparent: the highlight under it is measured
  const rect = node.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0 || getComputedStyle(node).visibility === 'hidden') continue;
  const style = getComputedStyle(node);
  const back = background(node);
  const ink = over(rgba(style.color), back);
  const faded = opacity(node);
  const shown = over({ ...ink, a: faded }, back);
  const [light, dark] = [luminance(shown), luminance(back)].sort((a, b) => b - a);
  const ratio = (light + 0.05) / (dark + 0.05);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
  const text = field ? node.value : [...node.childNodes].filter((child) => child.nodeType === 3).map((child) => child.textContent).join('').trim();
  let name = node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (node.classList.length ? '.' + [...node.classList].join('.') : '');
  found.push({ element: name, text: text.slice(0, 30), ratio: Math.round(ratio * 100) / 100, needed: large ? 3 : 4.5 });
}
return found;
"""


def contrast(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    measured = driver.execute_script(CONTRAST_SCRIPT)
    failing = sorted({f'{entry["element"]} "{entry["text"]}" {entry["ratio"]}:1' for entry in measured if entry["ratio"] < entry["needed"]})
    return {"measured": len(measured), "failing": failing}


def report_contrast_and_problems(driver, problems_step):
    """Reports the step "contrast" (the text that fails WCAG AA in light and in dark mode, and
    whether any was measured in both), with the color scheme given back to the system's; then
    the step `problems_step`: the warnings and errors the browser's console logged."""
    light = contrast(driver, "light")
    dark = contrast(driver, "dark")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    report("contrast", light=light["failing"], dark=dark["failing"], measured=light["measured"] > 0 and dark["measured"] > 0)
    report(problems_step, problems=browser_problems(driver))


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        panel = Panel(console)
        console.open(base + "/#type=City&pageSize=10")

        # The sidebar counts each type's records; a query shows its total.
        console.wait.until(lambda d: console.find("#record-types").get_attribute("data-counted") == "true")
        counts = {"sidebar": [[button.get_attribute("data-type"), button.find_element(By.CSS_SELECTOR, ".count").text]
                              for button in console.find_all("#record-types button")],
                  "summary": console.find("#summary").text, "pageInfo": console.find("#page-info").text}
        console.type_predicate("population > 1000000")
        console.rerun(lambda: console.find("#predicate").send_keys(Keys.ENTER))
        report("counts", **counts, filtered={"summary": console.find("#summary").text, "pageInfo": console.find("#page-info").text})
        console.type_predicate("")
        console.rerun(lambda: console.find("#run").click())

        # Without a sort, the order the query has is stated.
        order = {"note": console.find("#order-note").text, "shown": console.find("#order-note").is_displayed()}

        # Sorting by a column's header leaves every column where it was.
        before = console.headers()
        console.rerun(lambda: console.find('#results-table th[data-sort-field="population"]').click())
        sorted_once = {"headers": console.headers(), "sorts": current_sorts(console), "note": console.find("#order-note").is_displayed()}
        console.rerun(lambda: console.find('#results-table th[data-sort-field="population"]').click())
        sorted_twice = {"headers": console.headers(), "sorts": current_sorts(console)}
        console.rerun(lambda: console.find('#results-table th[data-sort-field="name"]').click())
        report("columns", order=order, before=before, once=sorted_once, twice=sorted_twice,
               byName={"headers": console.headers(), "sorts": current_sorts(console)})

        # The container is the server's: shown, not editable.
        box = console.find("#container")
        report("container", value=box.get_attribute("value"), readOnly=driver.execute_script("return arguments[0].readOnly", box),
               label=driver.execute_script("return arguments[0].closest('label').textContent.trim()", box))

        # A failed run on page 2: its rows keep their numbers, marked stale; the pager goes nowhere.
        console.rerun(lambda: console.find("#next").click())
        numbers = [row["number"] for row in console.rows()]
        console.type_predicate("populaton > 5")
        console.rerun(lambda: console.find("#predicate").send_keys(Keys.ENTER))
        report("failedPage", before=numbers, after=[row["number"] for row in console.rows()], pageInfo=console.find("#page-info").text,
               stale=console.find("#stale-note").text, nextEnabled=console.find("#next").is_enabled(),
               previousEnabled=console.find("#previous").is_enabled())
        console.type_predicate("")
        console.rerun(lambda: console.find("#run").click())

        # The record panel is a modal dialog: the page behind it is inert, Tab and Shift+Tab stay inside.
        name = console.rows()[0]["recordName"]
        console.find(f'#results-table tbody tr[data-record-name="{name}"] td.record-name').click()
        panel.wait_loaded()
        dialog = console.find("#detail")
        inside = "return document.getElementById('detail').contains(document.activeElement)"
        forward = []
        for _ in range(14):
            press_key(driver, Keys.TAB)
            forward.append(driver.execute_script(inside))
        backward = []
        for _ in range(14):
            press_key(driver, Keys.SHIFT, Keys.TAB)
            backward.append(driver.execute_script(inside))
        opened = {"role": dialog.get_attribute("role"), "modal": dialog.get_attribute("aria-modal"),
                  "labelledBy": dialog.get_attribute("aria-labelledby"),
                  "inert": driver.execute_script("return ['header', 'main'].map((tag) => document.querySelector(tag).inert)"),
                  "forward": forward, "backward": backward}
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: panel.state() is None)
        report("dialog", opened=opened,
               closedInert=driver.execute_script("return ['header', 'main'].map((tag) => document.querySelector(tag).inert)"),
               focused=driver.execute_script("return document.activeElement.dataset.recordName || null"), recordName=name)

        # Contrast: every text, light and dark, with the results, the check's error and a record open.
        console.type_predicate("population >")
        light = contrast(driver, "light")
        dark = contrast(driver, "dark")
        console.find(f'#results-table tbody tr[data-record-name="{name}"] td.record-name').click()
        panel.wait_loaded()
        light_panel = contrast(driver, "light")
        dark_panel = contrast(driver, "dark")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        report("contrast", light=light, dark=dark, lightPanel=light_panel, darkPanel=dark_panel)
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: panel.state() is None)

        # An empty development environment says what production holds.
        Select(console.find("#environment")).select_by_visible_text("development")
        # Both the sidebar and the results say so (they are drawn one after the other).
        console.wait.until(lambda d: "Production has" in console.find("#record-types").text
                           and "Production has" in console.find("#results").text)
        report("development", sidebar=console.find("#record-types").text, results=console.find("#results").text,
               rows=len(console.find_all("#results-table tbody tr")), pageInfo=console.find("#page-info").text)
        report("orientationProblems", problems=browser_problems(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
