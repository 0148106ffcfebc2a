"""Drives the query console (`GET /` of `query serve`) in headless Chromium through Selenium.

    console_browser.py BASE_URL [--token TOKEN | --edit | --export FOLDER
                                 | --signin API_TOKEN FIRST_USER_TOKEN SECOND_USER_TOKEN | --popup API_TOKEN
                                 | --roles API_TOKEN ADMINISTRATOR_TOKEN
                                 | --sharing API_TOKEN OWNER_TOKEN PARTICIPANT_TOKEN]

Types predicates, picks sorts, pages with the cursor, opens the plan, the schema and the map, and
prints what the page shows as JSON lines, {"step": NAME, ...}; ConsoleBrowserTests.swift checks
them against the store. With QUERY_CONSOLE_SCREENSHOTS=DIRECTORY, it also saves 1280x800
screenshots of the main views there (console-*.png). With --token, the server has credentials:
the script checks that the page asks for the API token and then sends it (and that a write is
refused). With --edit, it opens, edits, creates, copies and deletes records in the record panel,
with a second client (plain HTTP) making conflicts. With --export, it exports the City records as
JSON lines and CSV into FOLDER. With --signin, the server has an API token and two users: the
script pastes the first user's web auth token, saves a record in their private database, signs
out, and pastes the second user's. With --popup, the server has an identity provider
(oidc_provider.py): the script signs in through the popup. With --roles, the server has an API
token, the administrator token and the roles Moderator and Editor (bob holds Editor): the script
opens the Roles view, is refused without the administrator token, gives it, gives Moderator to
ada@example.org and takes Editor from bob, each after its confirmation, and fails to give a role
to an unknown user. With --sharing, the owner has shared a record of their zone Trips with the
participant: the script opens the record in the owner's private database (its share and
participants shown), then signs the participant in and opens their shared database (the zone by
its owner, the shared records only, the share shown on its root).

Debian's chromium and chromium-driver: /usr/bin/chromium and /usr/bin/chromedriver (or
QUERY_TEST_CHROMIUM and QUERY_TEST_CHROMEDRIVER). Nothing is downloaded.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

TIMEOUT = 20
# The console's tabs, in their order (their digit keys: 1 to 7).
TABS = ["results", "plan", "map", "schema", "roles", "subscriptions", "telemetry"]
SCREENSHOTS = os.environ.get("QUERY_CONSOLE_SCREENSHOTS", "")


def report(step, **values):
    print(json.dumps({"step": step, **values}, ensure_ascii=False), flush=True)


MODIFIERS = (Keys.SHIFT, Keys.CONTROL, Keys.ALT, Keys.META)


def press_key(driver, *keys, until=None):
    """Presses `keys` as a person does: on whatever holds the focus now, not on an element looked
    up first. A key that switched tabs hides the row that had the focus, and the browser moves the
    focus to the body when it next draws: an element asked for in between (the active element) is
    by then hidden or gone, and WebDriver refuses keys sent to it. The page's shortcuts listen on
    the document, so the key reaches them from any focus. Modifiers given first (as in
    `press_key(driver, Keys.SHIFT, Keys.TAB)`) are held for the keys after them. With `until`, a condition
    of the driver, waits for what the key does."""
    text = "".join(keys)
    held = []
    while text and text[0] in MODIFIERS:
        held.append(text[0])
        text = text[1:]
    actions = ActionChains(driver)
    for key in held:
        actions.key_down(key)
    actions.send_keys(text)
    for key in reversed(held):
        actions.key_up(key)
    actions.perform()
    if until is not None:
        WebDriverWait(driver, TIMEOUT, ignored_exceptions=(StaleElementReferenceException,)).until(until)


def focus_stays_inside(console, dialog_id, count):
    """Whether the focus stays inside the dialog `dialog_id` through `count` Tabs, then as many
    Shift+Tabs: one answer a key."""
    inside = []
    for keys in [Keys.TAB] * count + [Keys.SHIFT + Keys.TAB] * count:
        press_key(console.driver, keys)
        inside.append(console.driver.execute_script("return document.getElementById(arguments[0]).contains(document.activeElement)", dialog_id))
    return inside


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("QUERY_TEST_CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--hide-scrollbars", "--force-device-scale-factor=1",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=os.environ.get("QUERY_TEST_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return driver


class Console:
    def __init__(self, driver):
        self.driver = driver
        # A condition that read an element the console redrew meanwhile (a results table drawn
        # again) is asked again, as one that found no element yet is.
        self.wait = WebDriverWait(driver, TIMEOUT, ignored_exceptions=(StaleElementReferenceException,))

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def open(self, address):
        """Opens the console at `address` (the server's URL, with the view in its fragment) and
        waits until its first page of results is drawn."""
        self.driver.get(address)
        self.wait.until(lambda d: self.generation() >= 1 and settled(self))

    def generation(self):
        return int(self.find("#results").get_attribute("data-generation") or "0")

    def settled_after(self, generation, action):
        """Runs `action`, then waits until a newer page of results is drawn and nothing is loading."""
        action()
        self.wait.until(lambda d: self.generation() > generation and
                        d.execute_script("return document.body.dataset.busy === undefined"))

    def rerun(self, action):
        self.settled_after(self.generation(), action)

    def type_predicate(self, text):
        editor = self.find("#predicate")
        editor.send_keys(Keys.CONTROL, "a")
        editor.send_keys(Keys.BACKSPACE)
        editor.send_keys(text)
        self.wait.until(lambda d: self.find("#check").get_attribute("data-checked") == text)

    def choose(self, selector, value):
        """Picks an option of a select by value, waiting for the query it reruns (if it changed)."""
        select = Select(self.find(selector))
        if select.first_selected_option.get_attribute("value") != value:
            self.rerun(lambda: select.select_by_value(value))

    def tokens(self):
        return [[span.get_attribute("class"), span.text] for span in self.find_all("#highlight span")]

    def check(self):
        box = self.find("#check")
        caret = self.find_all("#check-caret")
        marks = self.find_all("#highlight .tok-error-mark")
        # textContent keeps the caret line's leading spaces, which .text trims.
        return {
            "state": box.get_attribute("class"),
            "text": box.text,
            "caret": self.driver.execute_script("return arguments[0].textContent", caret[0]) if caret else None,
            "marked": [mark.text for mark in marks],
        }

    def rows(self):
        rows = []
        for row in self.find_all("#results-table tbody tr"):
            cells = {cell.get_attribute("data-field"): cell.get_attribute("textContent")
                     for cell in row.find_elements(By.CSS_SELECTOR, "td[data-field]")}
            number = row.find_element(By.CSS_SELECTOR, "td.row-number").text
            rows.append({"number": number, "recordName": row.get_attribute("data-record-name"),
                         "name": cells.get("name"), "population": cells.get("population")})
        return rows

    def headers(self):
        # The first text node of each header cell: the field's name without its type.
        return driver_text_nodes(self.driver, "#results-table thead th")

    def tab_shown(self, name):
        """Whether the tab `name` is the selected one and its panel shows."""
        return (self.driver.execute_script("return document.querySelector('.tabs .selected').dataset.tab") == name
                and not self.find(f'[data-panel="{name}"]').get_attribute("class").count("hidden"))

    def tab(self, name):
        self.find(f'.tabs button[data-tab="{name}"]').click()
        self.wait.until(lambda d: self.tab_shown(name))

    def key_to_tab(self, key, name):
        """Presses a tab's digit (the page's shortcut) and waits until that tab shows."""
        press_key(self.driver, key, until=lambda d: self.tab_shown(name))

    def screenshot(self, name):
        if SCREENSHOTS:
            os.makedirs(SCREENSHOTS, exist_ok=True)
            time.sleep(0.2)
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"console-{name}.png"))


# What lies past the viewport's sides: each element whose box crosses the left or right edge and
# that no scrolling (or clipping) ancestor inside the viewport holds; elements hidden or of no size
# are skipped. Also: whether the page scrolls sideways, the results panel's height, text cut in
# the hint, the tabs and the header.
LAYOUT_SCRIPT = """
const width = document.documentElement.clientWidth;
const inside = (rect) => rect.left >= -0.5 && rect.right <= width + 0.5;
function describe(node) {
  let text = node.tagName.toLowerCase();
  if (node.id) text += '#' + node.id;
  else if (node.classList.length) text += '.' + [...node.classList].join('.');
  return text;
}
function held(node) {
  for (let parent = node.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX !== 'visible' && inside(parent.getBoundingClientRect())) return true;
  }
  return false;
}
const past = [];
for (const node of document.body.querySelectorAll('*')) {
  const rect = node.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0 || getComputedStyle(node).visibility === 'hidden') continue;
  if (node.closest('svg') && node.tagName.toLowerCase() !== 'svg') continue;
  if (!inside(rect) && !held(node)) past.push(describe(node));
}
const cut = [...document.querySelectorAll('.hint, .tabs button, header label, .type-menu, #summary, #page-info')]
  .filter((node) => node.getClientRects().length > 0 && node.scrollWidth > node.clientWidth + 1).map(describe);
const hint = document.querySelector('.hint').getBoundingClientRect();
const card = document.querySelector('.card').getBoundingClientRect();
const panel = document.getElementById('results-panel').getBoundingClientRect();
return {
  width: window.innerWidth, past: [...new Set(past)], cut,
  pageScrollsSideways: document.documentElement.scrollWidth > width,
  hintInCard: hint.left >= card.left && hint.right <= card.right && hint.bottom <= card.bottom,
  resultsHeight: Math.round(panel.height), rows: document.querySelectorAll('#results-table tbody tr').length,
  sidebar: getComputedStyle(document.querySelector('nav')).display !== 'none',
  typeMenu: getComputedStyle(document.querySelector('.type-menu')).display !== 'none',
  tabs: [...document.querySelectorAll('.tabs button')].map((b) => b.textContent),
};
"""


def layout_at(console, width, height=800, shot=None):
    """Resizes the page to `width` and reports what overflows (see LAYOUT_SCRIPT); saves a
    screenshot named `shot` (with QUERY_CONSOLE_SCREENSHOTS)."""
    console.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 640})
    console.wait.until(lambda d: d.execute_script("return window.innerWidth") == width)
    time.sleep(0.2)
    result = console.driver.execute_script(LAYOUT_SCRIPT)
    if shot:
        console.screenshot(shot)
    return result


def current_sorts(console):
    return [[Select(sort.find_element(By.CSS_SELECTOR, "select")).first_selected_option.get_attribute("value"),
             sort.find_element(By.CSS_SELECTOR, ".sort-direction").text] for sort in console.find_all("#sorts .sort")]


def driver_text_nodes(driver, selector):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.firstChild ? e.firstChild.textContent : '')", selector)


def token_flow(driver, base, token):
    """A server with credentials: the page asks for the API token, then sends it with each request."""
    console = Console(driver)
    driver.get(base + "/")
    console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    error = console.find("#request-error")
    report("locked", tokenVisible=console.find("#api-token").is_displayed(),
           error=error.text if error.is_displayed() else None,
           types=[button.get_attribute("data-type") for button in console.find_all("#record-types button")])
    console.find("#api-token").send_keys(token + Keys.TAB)
    console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    report("unlocked", errorShown=console.find("#request-error").is_displayed(),
           types=[button.get_attribute("data-type") for button in console.find_all("#record-types button")],
           rows=len(console.rows()), resources=sorted(set(resources)))

    # Writes need a server-to-server key: the page shows the API's refusal.
    panel = Panel(console)
    panel.open(console.rows()[0]["recordName"])
    panel.click("#detail-edit")
    panel.wait_state("edit")
    panel.fill({"name": "Changed with a token"})
    panel.click("#detail-save")
    console.wait.until(lambda d: panel.error() is not None)
    report("writeRefused", state=panel.state(), error=panel.error(), recordName=panel.shown()["recordName"])


CONTAINER = "iCloud.com.example.cities"


def session_state(console):
    """What the page shows of its session: who is signed in, whose private database, the
    buttons, and the web auth token it keeps in sessionStorage."""
    owner = console.find("#database-owner")
    return {
        "identity": console.find("#identity").text if console.find("#session").is_displayed() else None,
        "owner": owner.text if owner.is_displayed() else None,
        "signInShown": console.find("#sign-in").is_displayed(),
        "pasteShown": console.find("#web-auth-token").is_displayed(),
        "signOutShown": console.find("#sign-out").is_displayed(),
        "user": console.driver.execute_script("return document.body.dataset.user"),
        "token": console.driver.execute_script("return sessionStorage.getItem(arguments[0])", "query-console-web-auth:" + CONTAINER),
        "rows": [row.get_attribute("data-record-name") for row in console.find_all("#results-table tbody tr")],
    }


def choose_database(console, name):
    """Picks the database (its options have no value attribute), waiting for the query it reruns."""
    console.rerun(lambda: Select(console.find("#database")).select_by_visible_text(name))


def settled(console):
    return console.driver.execute_script("return document.body.dataset.busy === undefined")


def unlock(console, base, api_token):
    """Opens the console and gives it the API token: the public database's first page shows."""
    console.driver.get(base + "/")
    console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    console.find("#api-token").send_keys(api_token + Keys.TAB)
    console.wait.until(lambda d: console.generation() >= 1 and settled(console))
    console.wait.until(lambda d: console.find("#identity").text == "Not signed in")


def signed_in(console, action):
    """Runs `action` (a sign-in), then waits for the user's name and the page's new results."""
    generation = console.generation()
    action()
    console.wait.until(lambda d: console.find("#identity").text.startswith("Signed in as ")
                       and console.generation() > generation and settled(console))


def paste_token(console, token):
    signed_in(console, lambda: console.find("#web-auth-token").send_keys(token + Keys.TAB))


def policy_problems(driver):
    return [entry.get("message") for entry in driver.get_log("browser") if "Content Security Policy" in entry.get("message", "")]


def browser_problems(driver):
    """The errors and warnings the browser logged since the last read of its log."""
    return [entry.get("message") for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]


def signin_flow(driver, base, api_token, first_token, second_token):
    """A pasted token signs the console in: the user's name, their private database, a record
    saved there; signed out, the private database asks for a sign-in; the second user's console
    does not see the first user's record."""
    console = Console(driver)
    panel = Panel(console)
    unlock(console, base, api_token)
    report("signedOut", **session_state(console))

    paste_token(console, first_token)
    report("firstSignedIn", **session_state(console))
    choose_database(console, "private")
    report("firstPrivate", **session_state(console))
    console.screenshot("signed-in")
    report("signedInLayout360", **layout_at(console, 360))
    layout_at(console, 1280)

    console.find("#new-record").click()
    panel.wait_state("new")
    console.find("#new-record-name").send_keys("ada-secret")
    panel.fill({"name": "Ada's secret city", "population": "1815"})
    panel.click("#detail-save")
    panel.wait_state("view")
    console.wait.until(lambda d: console.find_all('#results-table tbody tr[data-record-name="ada-secret"]') and settled(console))
    saved = panel.error()
    panel.click("#detail-close")
    report("firstSaved", error=saved, **session_state(console))

    console.find("#sign-out").click()
    console.wait.until(lambda d: console.find("#request-error").is_displayed() and settled(console))
    error = console.find("#request-error")
    report("signedOutPrivate", error=error.text, prompt=len(error.find_elements(By.CSS_SELECTOR, ".sign-in-prompt")),
           **session_state(console))

    paste_token(console, second_token)
    report("secondPrivate", errorShown=console.find("#request-error").is_displayed(), **session_state(console))
    report("signinProblems", problems=policy_problems(driver))


def popup_flow(driver, base, api_token):
    """Sign in opens the server's sign-in page in a popup; the provider signs Ada in and the
    page it answers hands the console her token."""
    console = Console(driver)
    unlock(console, base, api_token)
    report("beforePopup", **session_state(console))
    signed_in(console, lambda: console.find("#sign-in").click())
    console.wait.until(lambda d: len(d.window_handles) == 1)
    report("popup", windows=len(driver.window_handles), **session_state(console))
    choose_database(console, "private")
    report("popupPrivate", **session_state(console))
    report("popupProblems", problems=policy_problems(driver))


def share_state(console):
    """The record panel's share: its headings, the share's summary and its participants."""
    summary = console.find_all("#detail-share-summary")
    return {
        "headings": [heading.get_attribute("textContent") for heading in console.find_all("#detail-body h3")],
        "summary": summary[0].text if summary else None,
        "participants": [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td")] + [row.get_attribute("data-user")]
                         for row in console.find_all("#detail-participants tbody tr")],
    }


def zone_options(console):
    """The zone picker: each group's label and its options' values and texts (a group `null` for options outside one)."""
    picker = console.find("#zone")
    groups = picker.find_elements(By.CSS_SELECTOR, "optgroup")
    if not groups:
        return [{"group": None, "zones": [[option.get_attribute("value"), option.text] for option in picker.find_elements(By.CSS_SELECTOR, "option")]}]
    return [{"group": group.get_attribute("label"),
             "zones": [[option.get_attribute("value"), option.text] for option in group.find_elements(By.CSS_SELECTOR, "option")]}
            for group in groups]


def sharing_flow(driver, base, api_token, owner_token, participant_token):
    """The owner's record shows its share and participants; the participant's shared database
    lists the owner's zone under the owner's name, and answers the shared records only."""
    console = Console(driver)
    panel = Panel(console)
    unlock(console, base, api_token)
    paste_token(console, owner_token)
    choose_database(console, "private")
    console.choose("#zone", "Trips")
    report("ownerZone", zones=zone_options(console), **session_state(console))
    panel.open("paris")
    report("ownerRoot", **share_state(console))
    console.screenshot("share")
    panel.click("#detail-close")
    panel.open("louvre")
    report("ownerChild", **share_state(console))
    panel.click("#detail-close")

    console.find("#sign-out").click()
    console.wait.until(lambda d: console.find("#request-error").is_displayed() and settled(console))
    paste_token(console, participant_token)
    choose_database(console, "shared")
    report("participantShared", zones=zone_options(console), **session_state(console))
    console.screenshot("shared")
    panel.open("paris")
    report("participantRoot", error=panel.error(), **share_state(console))
    panel.click("#detail-close")
    report("sharingProblems", problems=policy_problems(driver))


def api(base, operation, body, token=None):
    """A second client: one request to the server's API, its JSON answer (an error's too)."""
    url = f"{base}/database/1/iCloud.com.example.cities/production/public/{operation}"
    if token:
        url += "?ckAPIToken=" + urllib.parse.quote(token)
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


def lookup(base, name, token=None):
    return api(base, "records/lookup", {"records": [{"recordName": name}]}, token)["records"][0]


class Panel:
    """The record panel: what it shows, and waiting for it."""

    def __init__(self, console):
        self.console = console

    def state(self):
        panel = self.console.find("#detail")
        return None if "hidden" in (panel.get_attribute("class") or "") else panel.get_attribute("data-state")

    def wait_state(self, state):
        self.console.wait.until(lambda d: self.state() == state and
                                d.execute_script("return document.getElementById('detail').dataset.saving === undefined"))

    def open(self, name):
        self.console.find(f'#results-table tbody tr[data-record-name="{name}"]').click()
        self.wait_loaded()

    def wait_loaded(self):
        self.console.wait.until(lambda d: self.console.find("#detail").get_attribute("data-loaded") == "true")

    def shown(self):
        fields = {}
        for row in self.console.find_all("#detail-fields tr"):
            fields[row.get_attribute("data-field")] = {
                "type": row.get_attribute("data-type"), "value": json.loads(row.get_attribute("data-value")),
                "items": [item.get_attribute("textContent") for item in row.find_elements(By.CSS_SELECTOR, "li")]}
        system = {row.get_attribute("data-system"): row.get_attribute("data-value") for row in self.console.find_all("#detail-system tr")}
        return {"state": self.state(), "title": self.console.find("#detail-title").text,
                "recordName": self.console.find("#detail").get_attribute("data-record-name"), "fields": fields, "system": system}

    def error(self):
        box = self.console.find("#detail-error")
        return box.text if box.is_displayed() else None

    def fill(self, values):
        for name, text in values.items():
            box = self.console.find(f'#detail-form [data-field="{name}"]')
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(Keys.BACKSPACE)
            if text:
                box.send_keys(text)

    def click(self, selector):
        self.console.find(selector).click()


def edit_flow(driver, base):
    """The record panel: every field as records/lookup answers; edits, a new record, a copy, a
    deletion and conflicts with a second client, all through records/modify."""
    console = Console(driver)
    panel = Panel(console)
    driver.get(base + "/")
    console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))

    panel.open("paris")
    report("detail", shown=panel.shown(), lookup=lookup(base, "paris"))
    console.screenshot("detail")
    report("detailLayout360", **layout_at(console, 360))
    layout_at(console, 1280)

    # Escape closes the panel and gives the focus back to the row; Enter on a row opens it.
    press_key(driver, Keys.ESCAPE)
    console.wait.until(lambda d: panel.state() is None)
    focused = driver.execute_script("return document.activeElement.dataset.recordName || null")
    press_key(driver, Keys.ARROW_DOWN)
    below = driver.execute_script("return document.activeElement.dataset.recordName || null")
    press_key(driver, Keys.ARROW_UP)
    press_key(driver, Keys.ENTER)
    panel.wait_loaded()
    report("keyboard", focused=focused, below=below, opened=panel.shown()["recordName"])

    # An edit given up writes nothing.
    panel.click("#detail-edit")
    panel.wait_state("edit")
    panel.fill({"population": "1"})
    panel.click("#detail-cancel")
    panel.wait_state("view")
    report("unsaved", population=lookup(base, "paris")["fields"]["population"]["value"])

    # A value the field's type cannot hold is refused before anything is sent.
    panel.click("#detail-edit")
    panel.fill({"population": "abc"})
    panel.click("#detail-save")
    console.wait.until(lambda d: panel.error() is not None)
    report("invalid", state=panel.state(), error=panel.error())
    panel.click("#detail-cancel")
    panel.wait_state("view")

    # Saved: the panel shows what records/modify answered.
    panel.click("#detail-edit")
    panel.fill({"population": "2200000", "tags": "capital\nriver\nseine"})
    panel.click("#detail-save")
    panel.wait_state("view")
    report("edited", shown=panel.shown(), lookup=lookup(base, "paris"), error=panel.error())

    # A second client changes the record while it is edited: the server's version beside the
    # edit; overwriting keeps the other client's change of another field.
    panel.click("#detail-edit")
    panel.fill({"name": "Paris (console)"})
    other = lookup(base, "paris")
    api(base, "records/modify", {"operations": [{"operationType": "forceUpdate", "record": {
        "recordName": "paris", "fields": {"population": {"value": 2300000, "type": "INT64"}}}}]})
    panel.click("#detail-save")
    panel.wait_state("conflict")
    rows = [[cell.get_attribute("textContent") for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in console.find_all("#conflict-table tbody tr")]
    report("conflict", message=console.find("#conflict-message").text, rows=rows, before=other)
    console.screenshot("conflict")
    panel.click("#conflict-overwrite")
    panel.wait_state("view")
    report("overwritten", shown=panel.shown(), lookup=lookup(base, "paris"))

    # Another conflict, resolved by taking the server's version.
    panel.click("#detail-edit")
    panel.fill({"name": "Lutèce"})
    api(base, "records/modify", {"operations": [{"operationType": "forceUpdate", "record": {
        "recordName": "paris", "fields": {"name": {"value": "Paris", "type": "STRING"}}}}]})
    panel.click("#detail-save")
    panel.wait_state("conflict")
    panel.click("#conflict-reload")
    panel.wait_state("view")
    report("reloaded", shown=panel.shown(), lookup=lookup(base, "paris"))

    # A new record, typed by the schema.
    panel.click("#detail-close")
    console.find("#new-record").click()
    panel.wait_state("new")
    form = [box.get_attribute("data-field") + ":" + box.get_attribute("data-type") for box in console.find_all("#detail-form [data-field]")]
    console.find("#new-record-name").send_keys("toulouse")
    panel.fill({"name": "Toulouse", "population": "504078", "countrycode": "FR", "location": "43.6047, 1.4442",
                "tags": "river\nrose", "description": "Toulouse is a city in FR"})
    panel.click("#detail-save")
    panel.wait_state("view")
    report("created", form=form, shown=panel.shown(), lookup=lookup(base, "toulouse"), error=panel.error())

    # A copy under another name.
    panel.click("#detail-duplicate")
    panel.wait_state("duplicate")
    console.find("#new-record-name").send_keys("toulouse-2")
    panel.fill({"name": "Toulouse bis"})
    panel.click("#detail-save")
    panel.wait_state("view")
    report("duplicated", shown=panel.shown(), lookup=lookup(base, "toulouse-2"))

    # Delete asks first; Cancel keeps the record.
    panel.click("#detail-delete")
    panel.wait_state("delete")
    confirm = console.find("#detail-body .confirm").text
    panel.click("#detail-cancel")
    panel.wait_state("view")
    kept = lookup(base, "toulouse-2").get("recordName")
    # Another client changes the record before the deletion is confirmed: the server's version
    # beside it, nothing deleted; "Delete anyway" deletes it.
    panel.click("#detail-delete")
    panel.wait_state("delete")
    api(base, "records/modify", {"operations": [{"operationType": "forceUpdate", "record": {
        "recordName": "toulouse-2", "fields": {"population": {"value": 504079, "type": "INT64"}}}}]})
    panel.click("#confirm-delete")
    panel.wait_state("conflict")
    rows = [[cell.get_attribute("textContent") for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in console.find_all("#conflict-table tbody tr")]
    report("deleteConflict", message=console.find("#conflict-message").text, rows=rows, error=panel.error(),
           stillThere=lookup(base, "toulouse-2").get("recordName"), button=console.find("#conflict-overwrite").text)
    panel.click("#conflict-overwrite")
    console.wait.until(lambda d: panel.state() is None)
    console.wait.until(lambda d: not console.find_all('#results-table tbody tr[data-record-name="toulouse-2"]'))
    report("deleted", confirm=confirm, kept=kept, lookup=lookup(base, "toulouse-2"),
           rows=[row.get_attribute("data-record-name") for row in console.find_all("#results-table tbody tr")])
    report("editProblems", problems=browser_problems(driver))

    # An unexpected script error shows in the open panel rather than only in the browser's log.
    panel.open("toulouse")
    driver.execute_script("setTimeout(() => { throw new Error('injected failure'); }, 0)")
    console.wait.until(lambda d: panel.error() is not None)
    report("scriptError", error=panel.error())
    panel.click("#detail-close")

    # Without credentials, the private database is the server's one user's.
    choose_database(console, "private")
    report("localPrivate", **session_state(console))


def export_flow(driver, base, folder):
    """Export: every record of the query through the cursor (pages of ten), as JSON lines and CSV,
    downloaded into `folder`."""
    console = Console(driver)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    driver.get(base + "/#type=City&pageSize=10")
    console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))
    for output in ("jsonl", "csv"):
        Select(console.find("#export-format")).select_by_value(output)
        console.find("#export").click()
        path = os.path.join(folder, f"City.{output}")
        console.wait.until(lambda d: d.execute_script("return document.body.dataset.exported !== undefined") and os.path.exists(path))
        time.sleep(0.3)
        with open(path, encoding="utf-8") as file:
            text = file.read()
        report("export", output=output, text=text, status=console.find("#export-status").text,
               pageRows=len(console.rows()))
    report("exportProblems", problems=browser_problems(driver))


class Roles:
    """The Roles view: what it shows, and waiting for it."""

    def __init__(self, console):
        self.console = console

    def loads(self):
        return int(self.console.find("#roles-view").get_attribute("data-loads") or "0")

    def changes(self):
        return int(self.console.find("#roles-view").get_attribute("data-changes") or "0")

    def idle(self):
        return self.console.driver.execute_script("return document.getElementById('roles-view').dataset.busy === undefined")

    def after_load(self, action):
        loads = self.loads()
        action()
        self.console.wait.until(lambda d: self.loads() > loads and self.idle())

    def after_change(self, action):
        changes = self.changes()
        action()
        self.console.wait.until(lambda d: self.changes() > changes and self.idle())

    def error(self):
        box = self.console.find("#roles-error")
        return box.text if box.is_displayed() else None

    def shown(self):
        """Each role card: its name, and its rows as [record name, email]."""
        roles = []
        for card in self.console.find_all("#roles-list .role-card"):
            rows = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td")[:2]]
                    for row in card.find_elements(By.CSS_SELECTOR, "tbody tr")]
            roles.append({"name": card.get_attribute("data-role"), "users": rows})
        return roles

    def confirmation(self):
        box = self.console.find("#role-confirm")
        if not box.is_displayed():
            return None
        focused = self.console.driver.execute_script("return document.activeElement.id")
        return {"text": self.console.find("#role-confirm-text").text, "button": self.console.find("#role-confirm-yes").text,
                "focused": focused}

    def state(self):
        return {"error": self.error(), "roles": self.shown(), "confirmation": self.confirmation(),
                "options": [option.get_attribute("value") for option in self.console.find_all("#role-assign-role option")]}


def roles_flow(driver, base, api_token, admin_token):
    """The Roles view: refused without the administrator token; with it, a role given and one
    taken away, each after a confirmation that says what changes; an unknown user's refusal."""
    console = Console(driver)
    roles = Roles(console)
    unlock(console, base, api_token)
    report("adminField", visible=console.find("#admin-token").is_displayed(),
           label=console.find("#admin-token-label").text)

    # Without the administrator token, the API token alone is refused, and the view says so.
    roles.after_load(lambda: console.find('.tabs button[data-tab="roles"]').click())
    report("refused", **roles.state())

    # The administrator token, typed into the header: the roles and their users.
    roles.after_load(lambda: console.find("#admin-token").send_keys(admin_token + Keys.TAB))
    report("listed", kept=driver.execute_script("return sessionStorage.getItem('query-console-admin-token')") == admin_token,
           **roles.state())

    # Give Moderator to ada: nothing changes until confirmed; Cancel changes nothing either.
    Select(console.find("#role-assign-role")).select_by_value("Moderator")
    console.find("#role-assign-user").send_keys("ada@example.org")
    console.find("#role-assign").click()
    console.wait.until(lambda d: roles.confirmation() is not None)
    asked = roles.confirmation()
    console.find("#role-confirm-no").click()
    cancelled = {"confirmation": roles.confirmation(), "focused": driver.execute_script("return document.activeElement.id"),
                 "roles": roles.shown()}
    console.find("#role-assign").click()
    console.wait.until(lambda d: roles.confirmation() is not None)
    roles.after_change(lambda: console.find("#role-confirm-yes").click())
    report("assigned", asked=asked, cancelled=cancelled, note=console.find("#detail-note").text,
           user=console.find("#role-assign-user").get_attribute("value"), **roles.state())

    # Take Editor from bob, from his row, by keyboard.
    remove = console.find('#roles-list .role-card[data-role="Editor"] tbody tr .role-remove')
    label = remove.get_attribute("aria-label")
    remove.send_keys(Keys.ENTER)
    console.wait.until(lambda d: roles.confirmation() is not None)
    asked = roles.confirmation()
    console.screenshot("roles")
    roles.after_change(lambda: press_key(driver, Keys.ENTER))
    report("removed", asked=asked, label=label, note=console.find("#detail-note").text,
           focused=driver.execute_script("const card = document.activeElement.closest('.role-card');"
                                         " return [document.activeElement.tagName, card ? card.dataset.role : null]"),
           **roles.state())

    # A user the server does not know: the server's refusal, shown in the view.
    console.find("#role-assign-user").send_keys("nobody@example.org")
    console.find("#role-assign").click()
    console.wait.until(lambda d: roles.confirmation() is not None)
    roles.after_change(lambda: console.find("#role-confirm-yes").click())
    report("unknownUser", user=console.find("#role-assign-user").get_attribute("value"), **roles.state())
    report("rolesProblems", problems=policy_problems(driver))


def main():
    base = sys.argv[1].rstrip("/")
    driver = start_browser()
    if len(sys.argv) > 3 and sys.argv[2] == "--export":
        try:
            export_flow(driver, base, sys.argv[3])
        finally:
            driver.quit()
        return
    if len(sys.argv) > 2 and sys.argv[2] == "--edit":
        try:
            edit_flow(driver, base)
        finally:
            driver.quit()
        return
    if len(sys.argv) > 5 and sys.argv[2] == "--signin":
        try:
            signin_flow(driver, base, sys.argv[3], sys.argv[4], sys.argv[5])
        finally:
            driver.quit()
        return
    if len(sys.argv) > 3 and sys.argv[2] == "--popup":
        try:
            popup_flow(driver, base, sys.argv[3])
        finally:
            driver.quit()
        return
    if len(sys.argv) > 5 and sys.argv[2] == "--sharing":
        try:
            sharing_flow(driver, base, sys.argv[3], sys.argv[4], sys.argv[5])
        finally:
            driver.quit()
        return
    if len(sys.argv) > 4 and sys.argv[2] == "--roles":
        try:
            roles_flow(driver, base, sys.argv[3], sys.argv[4])
        finally:
            driver.quit()
        return
    if len(sys.argv) > 3 and sys.argv[2] == "--token":
        try:
            token_flow(driver, base, sys.argv[3])
        finally:
            driver.quit()
        return
    try:
        console = Console(driver)
        driver.get(base + "/")
        console.wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))
        def selected():
            return [button.get_attribute("data-type") for button in console.find_all("#record-types button.selected")]
        report("start",
               viewport=driver.execute_script("return [window.innerWidth, window.innerHeight]"),
               types=[button.get_attribute("data-type") for button in console.find_all("#record-types button")],
               selected=selected(), headers=console.headers(),
               recordNames=[row["recordName"] for row in console.rows()], pageInfo=console.find("#page-info").text)

        # Picking a record type runs its query.
        console.rerun(lambda: console.find('#record-types button[data-type="City"]').click())
        report("pick", selected=selected(), hash=driver.execute_script("return location.hash"),
               recordNames=[row["recordName"] for row in console.rows()])

        # Every width: nothing past the viewport, the results in view; a phone has a menu of types.
        for width in (360, 768, 1400, 1920):
            report(f"layout{width}", **layout_at(console, width, shot="phone" if width == 360 else None))
        layout_at(console, 1280)

        # Highlighting and the canonical form of a valid predicate.
        console.type_predicate('population > 50000 AND timezone == "Europe/Paris"')
        report("highlight", tokens=console.tokens(), check=console.check())

        # An invalid predicate: the parser's message, and a caret under where it stopped.
        console.type_predicate('population > AND name == "x"')
        report("invalid", tokens=console.tokens(), check=console.check())
        console.screenshot("error")

        # Checked against the record type's schema: an unknown field, with its caret and a fix.
        console.type_predicate("populaton > 50000")
        report("unknownField", check=console.check(), fixes=[fix.text for fix in console.find_all("#check .did-you-mean")])
        # Run anyway: the error shows once, and the last results stay on screen, marked stale.
        before = [row["recordName"] for row in console.rows()]
        console.rerun(lambda: console.find("#predicate").send_keys(Keys.ENTER))
        shown = driver.execute_script(
            "return [...document.querySelectorAll('body *')].filter(e => e.children.length === 0 && e.offsetParent !== null"
            " && e.textContent.includes('does not exist')).length")
        report("failedRun", messagesShown=shown, requestError=console.find("#request-error").is_displayed(),
               stale=console.find("#stale-note").text, staleMarked="stale" in console.find("#results").get_attribute("class"),
               summary=console.find("#summary").text, kept=[row["recordName"] for row in console.rows()] == before)
        console.find("#check .did-you-mean").click()
        console.wait.until(lambda d: console.find("#check").get_attribute("data-checked") == "population > 50000")
        console.wait.until(lambda d: console.check()["state"] == "valid")
        report("fixed", predicate=console.find("#predicate").get_attribute("value"), check=console.check(),
               stale=console.find("#stale-note").text)
        console.type_predicate('population == "abc"')
        report("mismatch", check=console.check())
        # A rule refused: the caret under its keyword. Parsing stopped at the end: the caret there.
        console.type_predicate('population > 50000 OR name == "x"')
        report("ruleRefused", check=console.check())
        console.type_predicate("population >")
        report("unfinished", check=console.check())

        # Sorts: population descending, then name; ten rows a page.
        console.type_predicate("population > 50000")
        console.choose("#page-size", "10")
        console.rerun(lambda: console.find("#add-sort").click())
        console.choose("#sorts .sort:nth-child(1) select", "population")
        console.rerun(lambda: console.find("#sorts .sort:nth-child(1) .sort-direction").click())
        console.rerun(lambda: console.find("#add-sort").click())
        console.choose("#sorts .sort:nth-child(2) select", "name")
        console.rerun(lambda: console.find("#predicate").send_keys(Keys.ENTER))
        sorts = [[Select(sort.find_element(By.CSS_SELECTOR, "select")).first_selected_option.get_attribute("value"),
                  sort.find_element(By.CSS_SELECTOR, ".sort-direction").text] for sort in console.find_all("#sorts .sort")]
        report("page1", sorts=sorts, rows=console.rows(), pageInfo=console.find("#page-info").text,
               previousEnabled=console.find("#previous").is_enabled(), nextEnabled=console.find("#next").is_enabled())
        console.screenshot("results")

        # Paging through the continuation marker, and back.
        console.rerun(lambda: console.find("#next").click())
        report("page2", rows=console.rows(), pageInfo=console.find("#page-info").text,
               previousEnabled=console.find("#previous").is_enabled())
        console.rerun(lambda: console.find("#next").click())
        report("page3", rows=console.rows(), pageInfo=console.find("#page-info").text)
        console.rerun(lambda: console.find("#previous").click())
        report("back", rows=console.rows(), pageInfo=console.find("#page-info").text)

        # The plan of the query, with the indexes it uses.
        console.tab("plan")
        # The plan of the last query run (not of an earlier one still on the page).
        console.wait.until(lambda d: console.find("#plan-view").get_attribute("data-run") == d.execute_script("return document.body.dataset.run"))
        report("plan", indexes=[badge.text for badge in console.find_all("#plan-indexes .index-name")],
               residual=console.find("#plan-residual").text,
               plan=console.driver.execute_script("return document.getElementById('plan-text').textContent"))
        console.screenshot("plan")

        # The schema of each type.
        console.tab("schema")
        types = []
        for card in console.find_all("#schema-view .card"):
            fields = []
            for row in card.find_elements(By.CSS_SELECTOR, "tbody tr"):
                cells = row.find_elements(By.CSS_SELECTOR, "td")
                fields.append([cells[0].text, cells[1].text, [flag.text for flag in cells[2].find_elements(By.CSS_SELECTOR, ".flag")]])
            types.append({"recordType": card.get_attribute("data-type"), "fields": fields})
        report("schema", types=types)
        console.screenshot("schema")

        # The map of the page's locations (page 2 of ten rows), then of 200 rows.
        console.tab("map")
        def points():
            svg = console.find("#map-svg")
            width, height = driver.execute_script("return [arguments[0].clientWidth, arguments[0].clientHeight]", svg)
            circles = console.find_all("#map-svg circle.point")
            inside = all(0 <= float(c.get_attribute("cx")) <= width and 0 <= float(c.get_attribute("cy")) <= height for c in circles)
            titles = [driver.execute_script("return arguments[0].textContent", c.find_element(By.CSS_SELECTOR, "title")) for c in circles]
            labels = driver.execute_script(
                "return [...document.querySelectorAll('#map-svg text.point-label')].map(t => { const b = t.getBBox();"
                " return [b.x, b.y, b.width, b.height]; })")
            return {"count": len(circles), "dataPoints": svg.get_attribute("data-points"), "inside": inside,
                    "labels": labels, "size": [width, height],
                    "recordNames": [c.get_attribute("data-record-name") for c in circles], "titles": titles,
                    "graticule": len(console.find_all("#map-svg line.graticule")), "caption": console.find("#map-caption").text}
        report("map", rows=console.rows(), **points())
        console.choose("#page-size", "200")
        report("map200", rows=len(console.rows()), **{k: v for k, v in points().items() if k not in ("titles", "recordNames")})
        console.screenshot("map")

        console.tab("results")
        resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        report("network", resources=sorted(set(resources)), problems=browser_problems(driver))

        # A shared link: the address alone restores the query (type, predicate, sorts, page size).
        shared = ("#container=iCloud.com.example.cities&environment=production&database=public&type=City"
                  "&predicate=population+%3E+50000&sort=population:desc,name:asc&pageSize=10")
        driver.get("about:blank")
        driver.get(base + "/" + shared)
        console.wait.until(lambda d: console.generation() >= 1 and d.execute_script("return document.body.dataset.busy === undefined"))
        sorts = [[Select(sort.find_element(By.CSS_SELECTOR, "select")).first_selected_option.get_attribute("value"),
                  sort.find_element(By.CSS_SELECTOR, ".sort-direction").text] for sort in console.find_all("#sorts .sort")]
        report("shared", rows=console.rows(), sorts=sorts, predicate=console.find("#predicate").get_attribute("value"),
               pageSize=Select(console.find("#page-size")).first_selected_option.get_attribute("value"),
               selected=selected(), hash=driver.execute_script("return location.hash"), sharedHash=shared)

        # Keyboard only: / to the predicate, Ctrl+Enter runs, ↓ to the rows, Enter opens one,
        # Escape closes it, 2 and 1 switch tabs, and ↑ in the emptied box recalls the query.
        press_key(driver, "/", until=lambda d: d.execute_script("return document.activeElement.id") == "predicate")
        focused = [driver.execute_script("return document.activeElement.id")]
        box = console.find("#predicate")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        box.send_keys("population > 100000")
        console.wait.until(lambda d: console.find("#check").get_attribute("data-checked") == "population > 100000")
        console.rerun(lambda: box.send_keys(Keys.CONTROL, Keys.ENTER))
        box.send_keys(Keys.ARROW_DOWN)
        focused.append(driver.execute_script("return document.activeElement.dataset.recordName"))
        press_key(driver, Keys.ARROW_DOWN)
        focused.append(driver.execute_script("return document.activeElement.dataset.recordName"))
        press_key(driver, Keys.ENTER)
        panel = Panel(console)
        panel.wait_loaded()
        opened = panel.shown()["recordName"]
        press_key(driver, Keys.ESCAPE)
        console.wait.until(lambda d: panel.state() is None)
        focused.append(driver.execute_script("return document.activeElement.dataset.recordName"))
        console.key_to_tab("2", "plan")
        tabs = [driver.execute_script("return document.querySelector('.tabs .selected').dataset.tab")]
        console.key_to_tab("1", "results")
        tabs.append(driver.execute_script("return document.querySelector('.tabs .selected').dataset.tab"))
        press_key(driver, "/", until=lambda d: d.execute_script("return document.activeElement.id") == "predicate")
        box = console.find("#predicate")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        box.send_keys(Keys.ARROW_UP)
        report("keyboard", focused=focused, opened=opened, tabs=tabs, rows=[row["recordName"] for row in console.rows()],
               recalled=console.find("#predicate").get_attribute("value"), hash=driver.execute_script("return location.hash"))

        # A click on a sortable header sorts by it (first), a second click turns it around.
        console.rerun(lambda: console.find('#results-table th[data-sort-field="name"]').click())
        by_name = {"rows": [row["recordName"] for row in console.rows()], "sorts": current_sorts(console),
                   "ariaSort": console.find('#results-table th[data-sort-field="name"]').get_attribute("aria-sort")}
        console.rerun(lambda: console.find('#results-table th[data-sort-field="name"]').click())
        by_name_descending = {"rows": [row["recordName"] for row in console.rows()], "sorts": current_sorts(console)}
        unsortable = len(console.find_all('#results-table th[data-sort-field="alternatenames"]'))

        # Sideways, the #, recordName and name columns stay in view; another type starts at the left.
        stuck = driver.execute_script("""
          const panel = document.getElementById('results-panel');
          panel.scrollLeft = 600;
          const box = panel.getBoundingClientRect();
          const cells = [...document.querySelectorAll('#results-table tbody tr:first-child td')].slice(0, 3);
          return { scrolled: panel.scrollLeft, visible: cells.map((cell) => Math.round(cell.getBoundingClientRect().left - box.left)),
                   fields: cells.map((cell) => cell.dataset.field || cell.className.split(' ')[0]) };""")
        console.rerun(lambda: console.find('#record-types button[data-type="Airport"]').click())
        report("table", byName=by_name, byNameDescending=by_name_descending, unsortable=unsortable, stuck=stuck,
               scrollAfterTypeChange=driver.execute_script("return document.getElementById('results-panel').scrollLeft"))

        # A slow answer shows the loading indicator (after 200 ms); it goes when the page is drawn.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 700, "downloadThroughput": -1, "uploadThroughput": -1})
        generation = console.generation()
        console.find("#run").click()
        console.wait.until(lambda d: console.find("#loading").is_displayed())
        console.wait.until(lambda d: console.generation() > generation and d.execute_script("return document.body.dataset.busy === undefined"))
        loading_hidden = not console.find("#loading").is_displayed()
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

        # Dark mode follows the system.
        console.rerun(lambda: console.find('#record-types button[data-type="City"]').click())
        def background():
            return driver.execute_script("return [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('.card')).backgroundColor]")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        dark = background()
        console.screenshot("dark")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        report("looks", loadingShown=True, loadingHidden=loading_hidden, dark=dark, light=background())
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
