"""Drives the query console's links between records in headless Chromium (see console_browser.py).

    console_relationships.py BASE_URL

The server holds departments, employees (a to-one `department`, a boolean `active`) and
projects (a reference list `members`), with the relationships declared: Department.employees is
the inverse to-many of Employee.department. The script follows references from the results and
the record panel, goes Back through the panel's history, reads a department's employees and an
employee's projects, checks `employees.@count > 1` as you type and runs it, reads the schema
view's relationships, and edits a boolean. It prints what the page shows as JSON lines,
{"step": NAME, ...}; ConsoleBrowserTests.swift checks them against the store.
"""

import sys

# console_browser is imported from beside this script: no __pycache__ left in the source tree.
sys.dont_write_bytecode = True

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_browser import Console, browser_problems, Panel, press_key, report, start_browser


def link_texts(elements):
    return [[element.get_attribute("textContent"), element.get_attribute("data-record-type"), element.get_attribute("data-record-name")]
            for element in elements]


def table(console):
    """Each row: its record name and, per field, the cell's text and its links."""
    rows = []
    for row in console.find_all("#results-table tbody tr"):
        cells = {}
        for cell in row.find_elements(By.CSS_SELECTOR, "td[data-field]"):
            cells[cell.get_attribute("data-field")] = {"text": cell.get_attribute("textContent"),
                                                       "links": link_texts(cell.find_elements(By.CSS_SELECTOR, "button.reference"))}
        rows.append({"recordName": row.get_attribute("data-record-name"), "cells": cells})
    return rows


class Links:
    """The record panel's links, Back and related records."""

    def __init__(self, console):
        self.console = console
        self.panel = Panel(console)

    def title(self):
        return self.console.find("#detail-title").text

    def wait_record(self, title):
        """Waits until the panel shows the record titled `title`, looked up, its related records listed."""
        self.console.wait.until(lambda d: self.title() == title and self.console.find("#detail").get_attribute("data-loaded") == "true"
                                and all(section.get_attribute("data-loaded") == "true" for section in self.console.find_all("#detail-related"))
                                and not self.console.find_all("#detail-body .reference:not([data-record-type]):not(.missing)"))

    def open(self, name, title):
        """Opens a row's record by a click on its record name (a click elsewhere may land on a link)."""
        self.console.find(f'#results-table tbody tr[data-record-name="{name}"] td.record-name').click()
        self.wait_record(title)

    def back(self):
        button = self.console.find("#detail-back")
        return button.get_attribute("title") if button.is_displayed() else None

    def related(self):
        groups = []
        for group in self.console.find_all("#detail-related .related"):
            heading = group.find_element(By.CSS_SELECTOR, "h4")
            groups.append({"relationship": group.get_attribute("data-relationship"), "heading": heading.get_attribute("textContent"),
                           "links": link_texts(group.find_elements(By.CSS_SELECTOR, "button.reference"))})
        return groups

    def field(self, name):
        row = self.console.find(f'#detail-fields tr[data-field="{name}"]')
        return {"type": row.find_element(By.CSS_SELECTOR, ".field-type").text,
                "text": row.find_element(By.CSS_SELECTOR, ".field-value").get_attribute("textContent"),
                "links": link_texts(row.find_elements(By.CSS_SELECTOR, "button.reference"))}

    def state(self):
        return {"title": self.title(), "back": self.back(), "related": self.related()}


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    try:
        console = Console(driver)
        links = Links(console)
        driver.get(base + "/#type=Employee")
        console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))
        headers = driver.execute_script(
            "return [...document.querySelectorAll('#results-table thead th')].map(th => [th.firstChild ? th.firstChild.textContent : '',"
            " (th.querySelector('.type') || {}).textContent || null])")
        report("employees", headers=headers, rows=table(console))

        # A row's panel: the reference as a link with its type, the boolean as a boolean, and the
        # projects that list the employee.
        links.open("ada", "Employee ada")
        report("ada", department=links.field("department"), active=links.field("active"), **links.state())

        # Following the reference: the department, its employees, and Back to the employee.
        console.find('#detail-fields tr[data-field="department"] button.reference').click()
        links.wait_record("Department dept-marketing")
        report("department", focused=driver.execute_script("return document.activeElement.id"), **links.state())
        console.screenshot("related")

        # An employee of the list, then Back twice.
        console.find('#detail-related .related[data-relationship="employees"] button.reference[data-record-name="bob"]').click()
        links.wait_record("Employee bob")
        bob = links.state()
        console.find("#detail-back").click()
        links.wait_record("Department dept-marketing")
        once = links.state()
        console.find("#detail-back").click()
        links.wait_record("Employee ada")
        report("back", bob=bob, once=once, twice=links.state())

        # Escape closes the panel and gives the focus back to the row it was opened from.
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: links.panel.state() is None)
        focused = driver.execute_script("return document.activeElement.dataset.recordName || null")

        # A link in a row opens its own record, not the row's; by keyboard too.
        console.find('#results-table tbody tr[data-record-name="cy"] td[data-field="department"] button.reference').click()
        links.wait_record("Department dept-sales")
        from_table = links.state()
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: links.panel.state() is None)
        after_close = driver.execute_script("return document.activeElement.dataset.recordName || null")
        link = console.find('#results-table tbody tr[data-record-name="bob"] td[data-field="department"] button.reference')
        link.send_keys(Keys.ENTER)
        links.wait_record("Department dept-marketing")
        by_keyboard = links.title()
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: links.panel.state() is None)
        report("fromTable", focused=focused, fromTable=from_table, afterClose=after_close, byKeyboard=by_keyboard)

        # A department with no employee, and one whose count the check accepts as `query find` does.
        console.rerun(lambda: console.find('#record-types button[data-type="Department"]').click())
        console.type_predicate("employees.@count > 1")
        check = console.check()
        console.rerun(lambda: console.find("#predicate").send_keys(Keys.ENTER))
        counted = [row["recordName"] for row in table(console)]
        shown_error = console.find("#request-error").is_displayed()
        console.type_predicate("employees.salaryy > 1")
        misspelt = console.check()
        console.type_predicate("")
        console.rerun(lambda: console.find("#run").click())
        links.open("dept-research", "Department dept-research")
        empty = links.state()
        links.panel.click("#detail-close")
        report("check", check=check, rows=counted, requestError=shown_error, misspelt=misspelt, empty=empty)

        # The schema view lists each type's relationships.
        console.tab("schema")
        schema = {}
        for card in console.find_all("#schema-view .card"):
            schema[card.get_attribute("data-type")] = {
                "fields": [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td")] for row in card.find_elements(By.CSS_SELECTOR, "table:not(.relationships) tbody tr")],
                "relationships": [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td")]
                                  for row in card.find_elements(By.CSS_SELECTOR, "table.relationships tbody tr")]}
        report("schema", types=schema)
        console.screenshot("schema-relationships")
        console.tab("results")

        # A boolean is edited as true or false, and saved as CloudKit has it (INT64).
        console.rerun(lambda: console.find('#record-types button[data-type="Employee"]').click())
        links.open("bob", "Employee bob")
        links.panel.click("#detail-edit")
        links.panel.wait_state("edit")
        box = console.find('#detail-form [data-field="active"]')
        form = {"tag": box.tag_name, "options": [option.text for option in box.find_elements(By.CSS_SELECTOR, "option")],
                "value": box.get_attribute("value"), "hint": box.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".form-type").text}
        Select(box).select_by_value("true")
        links.panel.click("#detail-save")
        console.wait.until(lambda d: links.panel.state() == "view" or links.panel.error() is not None)
        if links.panel.error() is not None:
            report("boolean", form=form, error=links.panel.error())
            return
        links.wait_record("Employee bob")
        console.wait.until(lambda d: console.find('#results-table tbody tr[data-record-name="bob"] td[data-field="active"]').get_attribute("textContent") == "true")
        report("boolean", form=form, error=links.panel.error(), shown=links.field("active"), data=links.panel.shown()["fields"]["active"],
               cell=console.find('#results-table tbody tr[data-record-name="bob"] td[data-field="active"]').get_attribute("textContent"))
        report("relationshipsProblems", problems=browser_problems(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
