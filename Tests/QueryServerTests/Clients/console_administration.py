"""Drives the console's administration of the development schema in headless Chromium (see
console_browser.py).

    console_administration.py BASE_URL

In the Schema tab of the development environment: adds a field, adds an index type to a field,
removes an index (cancelled once with Escape, then applied), previews and performs a deployment
to production, then previews one that production refuses (a field whose type development
widened). Each change's dialog is checked before it is applied: the plan it shows, the Apply
button, where the focus is, and that the page behind is inert and Tab stays inside. It prints
what the page shows as JSON lines, {"step": NAME, ...}; ConsoleAdministrationTests.swift checks
them.
"""

import json
import sys
import urllib.request

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_browser import Console, browser_problems, focus_stays_inside, press_key, report, start_browser


def changes(console):
    """How many changes the page has applied."""
    return int(console.driver.execute_script("return document.body.dataset.schemaChanges || '0'"))


def dialog(console):
    """What the change's dialog shows, where the focus is, and whether the page behind is inert."""
    driver = console.driver
    return {
        "title": console.find("#admin-dialog-title").text,
        "summary": console.find("#admin-dialog-summary").text,
        "changes": [item.text for item in console.find_all("#admin-dialog-changes li")],
        "refused": [item.text for item in console.find_all("#admin-dialog-refused-list li")],
        "refusedShown": console.find("#admin-dialog-refused").is_displayed(),
        "apply": console.find("#admin-dialog-apply").text,
        "applyEnabled": console.find("#admin-dialog-apply").is_enabled(),
        "focused": driver.execute_script("return document.activeElement.id"),
        "modal": console.find("#admin-dialog").get_attribute("aria-modal"),
        "inert": driver.execute_script("return [...document.querySelectorAll('body > header, body > main')].map((node) => node.inert)"),
    }



def open_dialog(console, action):
    """Runs the action that asks for a plan, and waits for its dialog."""
    action()
    console.wait.until(lambda d: console.find("#admin-dialog").is_displayed())
    return dialog(console)


def apply(console):
    """Applies the change the dialog shows, and waits until the schema is drawn again."""
    before = changes(console)
    console.find("#admin-dialog-apply").click()
    console.wait.until(lambda d: changes(console) > before and console.find_all("#schema-admin"))
    return {"status": console.find("#schema-admin-status").text, "dialogShown": console.find("#admin-dialog").is_displayed(),
            "focused": console.driver.execute_script("return document.activeElement.id"),
            "inert": console.driver.execute_script("return [...document.querySelectorAll('body > header, body > main')].map((node) => node.inert)")}


def fields(console):
    """The City card of the schema view: each field's name, type and index types."""
    rows = []
    for row in console.find_all('#schema-view [data-type="City"] tr[data-field]'):
        cells = row.find_elements("css selector", "td")
        rows.append([cells[0].text, cells[1].text, [flag.text for flag in row.find_elements("css selector", ".flag")]])
    return rows


def add(console, field, kind, indexes):
    """Fills the form that adds a field or index types, and asks for its plan."""
    Select(console.find("#schema-field-type")).select_by_value("City")
    name = console.find("#schema-field-name")
    name.clear()
    name.send_keys(field)
    Select(console.find("#schema-field-kind")).select_by_value(kind)
    for index in ["queryable", "sortable", "searchable"]:
        box = console.find("#schema-field-" + index)
        if box.is_selected() != (index in indexes):
            box.click()
    return open_dialog(console, lambda: console.find("#schema-field-add").click())


def save_in_development(base, record):
    """A second client: saves a record in the development environment."""
    url = f"{base}/database/1/iCloud.com.example.cities/development/public/records/modify"
    body = {"operations": [{"operationType": "create", "record": record}]}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def open_development_schema(console, base):
    """Opens the console on the development environment's City, in the Schema tab with its
    administration card."""
    console.driver.get(base + "/#environment=development&type=City")
    console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    console.tab("schema")
    console.wait.until(lambda d: console.find_all("#schema-admin"))


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        open_development_schema(console, base)
        report("start", fields=fields(console), removeButtons=len(console.find_all("#schema-view button.index-remove")))

        # A field: its plan first, then applied.
        planned = add(console, "mayor", "STRING", ["queryable"])
        planned["tabs"] = focus_stays_inside(console, "admin-dialog", 6)
        applied = apply(console)
        report("field", planned=planned, applied=applied, fields=fields(console))

        # An index type on a field City has (its type left to the field's own).
        planned = add(console, "name", "", ["sortable"])
        applied = apply(console)
        report("index", planned=planned, applied=applied, fields=fields(console))

        # Removing an index: Escape cancels (nothing changes, the focus goes back), then applied.
        remove = '#schema-view [data-type="City"] tr[data-field="population"] button.index-remove[data-index="sortable"]'
        label = console.find(remove).get_attribute("aria-label")
        open_dialog(console, lambda: console.find(remove).click())
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: not console.find("#admin-dialog").is_displayed())
        cancelled = {"focused": driver.execute_script("return document.activeElement.getAttribute('aria-label')"), "fields": fields(console),
                     "inert": driver.execute_script("return [...document.querySelectorAll('body > header, body > main')].map((node) => node.inert)")}
        planned = open_dialog(console, lambda: console.find(remove).click())
        applied = apply(console)
        report("removeIndex", label=label, cancelled=cancelled, planned=planned, applied=applied, fields=fields(console))

        # Deploying: what production gains, then deployed.
        planned = open_dialog(console, lambda: console.find("#schema-deploy").click())
        console.screenshot("administration")
        applied = apply(console)
        report("deploy", planned=planned, applied=applied)
        again = open_dialog(console, lambda: console.find("#schema-deploy").click())
        console.find("#admin-dialog-cancel").click()
        console.wait.until(lambda d: not console.find("#admin-dialog").is_displayed())
        report("deployAgain", planned=again, focused=driver.execute_script("return document.activeElement.id"))

        # Development widens population to DOUBLE: production refuses the deployment, and Apply stays off.
        saved = save_in_development(base, {"recordName": "lyon", "recordType": "City", "fields": {"population": {"value": 1.5}}})
        refused = open_dialog(console, lambda: console.find("#schema-deploy").click())
        console.find("#admin-dialog-cancel").click()
        console.wait.until(lambda d: not console.find("#admin-dialog").is_displayed())
        report("deployRefused", saved=saved["records"][0].get("serverErrorCode"), planned=refused)

        # In production the schema view says where changes are made, and offers none.
        Select(console.find("#environment")).select_by_visible_text("production")
        console.wait.until(lambda d: console.find_all("#schema-admin-hint"))
        report("production", hint=console.find("#schema-admin-hint").text, forms=len(console.find_all("#schema-admin")),
               removeButtons=len(console.find_all("#schema-view button.index-remove")), fields=fields(console))

        report("administrationProblems", problems=browser_problems(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
