#!/usr/bin/env python3
"""The browser test of `realmctl studio` (issue 30): headless Chromium, driven by Selenium,
opens the page on copies of the fixtures and on a 100,000-object file and uses it as a person
would. After each edit, Realm Core (../shared/tools/realm-oracle) verifies the file and reads
the objects the edit meant. Screenshots of the main views go to OUT (docs/images/ holds the
chosen ones).

Usage: studio-browser-test.py --realmctl BIN [--out DIR] [--objects N]
Exit status: 0 passed, 1 failed, 77 skipped (Chromium, chromedriver or Selenium missing: the
reason is printed). RealmCLITests' StudioBrowserTests runs it in `make test`.
"""
import argparse, json, os, re, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(os.path.dirname(ROOT), "shared", "tools", "realm-oracle", "bin", "oracle")
SKIP = 77


def find(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def availability():
    """(chromium, chromedriver) or the reason the test cannot run."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None, "Python's selenium is not installed (pip install selenium)"
    browser = find("chromium", "chromium-browser", "google-chrome")
    driver = find("chromedriver")
    if not browser or not driver:
        return None, "Chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
    return (browser, driver), None


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Oracle:
    """Realm Core 14 as a command, on a copy of the file (it creates FILE.lock beside it)."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.present = os.path.exists(ORACLE)

    def _copy(self, path):
        copy = os.path.join(self.tmp, "oracle-" + os.path.basename(path))
        shutil.copyfile(path, copy)
        return copy

    def run(self, *args):
        args = list(args)
        copy = self._copy(args[1])
        args[1] = copy
        try:
            return subprocess.run([ORACLE] + args, capture_output=True, text=True)
        finally:
            os.remove(copy)
            if os.path.exists(copy + ".lock"):
                os.remove(copy + ".lock")
            shutil.rmtree(copy + ".management", ignore_errors=True)

    def verify(self, path):
        if not self.present:
            return
        r = self.run("verify", path)
        check(r.returncode == 0, f"Realm's verify of {os.path.basename(path)} failed: {r.stdout}{r.stderr}")

    def query(self, path, cls, where):
        r = self.run("query", path, "--class", cls, "--where", where)
        check(r.returncode == 0, f"Realm rejected {where!r}: {r.stdout}{r.stderr}")
        return [int(x) for x in r.stdout.split()]

    def dump(self, path):
        r = self.run("dump", path)
        check(r.returncode == 0, f"Realm's dump failed: {r.stderr}")
        return [json.loads(l) for l in r.stdout.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--realmctl", required=True)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "studio-screenshots"))
    ap.add_argument("--objects", type=int, default=100_000)
    args = ap.parse_args()
    tools, reason = availability()
    if not tools:
        print(f"SKIP: {reason}")
        return SKIP
    browser, chromedriver = tools
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="realmctl-studio-browser-")
    started = time.monotonic()
    server = None
    driver = None
    oracle = Oracle(tmp)
    if not oracle.present:
        print("note: ../shared/tools/realm-oracle is absent: Realm's checks of the edits are skipped")
    try:
        files = {}
        for name, fixture in [("alltypes.realm", "alltypes"), ("contacts.realm", "embedded"), ("people.realm", "person-rename-age")]:
            files[name] = os.path.join(tmp, name)
            shutil.copyfile(os.path.join(ROOT, "Tests", "Fixtures", fixture, "before.realm"), files[name])
        # The 100,000-object file: Row {id (primary key), name, score, created, flag, parent: Row?}.
        schema, data, big = (os.path.join(tmp, n) for n in ("rows.schema.json", "rows.jsonl", "rows.realm"))
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_rows.py"), schema, data, str(args.objects), "--link"], check=True)
        subprocess.run([args.realmctl, "create", big, "--schema", schema, "--data", data, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        os.remove(data)
        files["rows.realm"] = big
        order = ["alltypes.realm", "contacts.realm", "people.realm", "rows.realm"]
        print(f"files ready in {time.monotonic() - started:.1f} s")

        server = subprocess.Popen([args.realmctl, "studio", *[files[n] for n in order], "--port", "0", "--no-open"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = [server.stdout.readline() for _ in range(2)]
        m = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", "".join(lines))
        check(m, f"realmctl studio printed no address: {lines}")
        url = m.group(1)
        base = url.split("/?")[0]

        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,900",
                  "--force-device-scale-factor=1", "--lang=en-US"]:
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(chromedriver), options=options)
        from selenium.common.exceptions import StaleElementReferenceException
        wait = WebDriverWait(driver, 30, ignored_exceptions=[StaleElementReferenceException])
        step_start = [time.monotonic()]

        def step(name):
            print(f"  ok  {name} ({time.monotonic() - step_start[0]:.1f} s)")
            step_start[0] = time.monotonic()

        def shot(name):
            # A toast of an earlier step would cover the view.
            driver.execute_script("document.getElementById('toast').hidden = true")
            driver.save_screenshot(os.path.join(args.out, f"{name}.png"))

        def css(sel, root=None):
            return (root or driver).find_elements(By.CSS_SELECTOR, sel)

        def until(fn, what):
            try:
                return wait.until(lambda d: fn())
            except Exception:
                raise Failure(f"timed out waiting for {what}")

        from selenium.common.exceptions import ElementClickInterceptedException, ElementNotInteractableException

        def act(fn, what):
            """Runs an action on elements that the page may redraw meanwhile: again, a few times."""
            for attempt in range(10):
                try:
                    return fn()
                except (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException):
                    time.sleep(0.3)
            raise Failure(f"could not {what}")

        def go(hash_):
            driver.execute_script("location.hash = arguments[0]", hash_)

        def row_keys():
            # Read in one go in the page: rows are redrawn as pages arrive.
            return driver.execute_script(
                "return [...document.querySelectorAll('.grid .row')].filter(r => !r.hidden && r.dataset.key).map(r => r.dataset.key)")

        def summary():
            return driver.find_element(By.ID, "summary").text

        def errors():
            # Errors of the page's script; an answer the test asked to be refused is not one.
            bad = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
            check(not bad, f"errors in the page's console: {bad}")

        # The token is traded for a cookie; the address loses it.
        driver.get(url)
        until(lambda: "token=" not in driver.current_url, "the token to leave the address")
        until(lambda: css("#sidebar .class-link"), "the class list")
        names = [a.get_attribute("data-class") for a in css("#sidebar .class-link")]
        if oracle.present:
            realm = json.loads(oracle.run("schema", files["alltypes.realm"]).stdout)
            check(names == [c["name"] for c in realm["classes"]], f"classes {names} are not Realm's")
        check(names == ["AllTypes", "EmbeddedThing", "Target"], f"classes: {names}")
        check("600" in driver.find_element(By.ID, "sidebar").text, "the counts are shown")
        shot("overview")
        errors()
        step("lists the classes")

        # Pages to the end of the 100,000-object class.
        go("#/f/3/c/Row")
        until(lambda: "100,000 objects" in summary(), "the count of Row")
        until(lambda: row_keys()[:1] == ["0"], "the first page")
        shot("table")
        driver.find_element(By.ID, "last-page").click()
        last = str(args.objects - 1)
        if oracle.present:
            last = str(oracle.query(big, "Row", f"id == {args.objects - 1}")[0])
        until(lambda: last in row_keys(), "the last object after End")
        keys = row_keys()
        check(keys == [str(k) for k in range(int(keys[0]), int(keys[0]) + len(keys))], f"the last page is in key order: {keys}")
        # Scrolling back up a little shows the objects just before.
        body = driver.find_element(By.CSS_SELECTOR, ".grid-body")
        body.send_keys(Keys.PAGE_UP)
        until(lambda: row_keys() and int(row_keys()[0]) < int(keys[0]), "the page before the last")
        errors()
        step("pages to the end of a class of 100,000 objects")

        # Filters with RQL: Realm's matches, in Realm's order; a bad query shows its error.
        query = "score > 24000.5 AND flag == true"
        rql = driver.find_element(By.ID, "rql")
        rql.clear()
        rql.send_keys(query + Keys.ENTER)
        expected = oracle.query(big, "Row", query) if oracle.present else None
        until(lambda: "match" in summary() and "counting" not in summary(), "the count of matches")
        if expected is not None:
            check(f"{len(expected):,} of 100,000 objects match" in summary(), f"count {summary()!r} is not Realm's {len(expected)}")
            until(lambda: row_keys()[:5] == [str(k) for k in expected[:5]], "Realm's first matches")
        shot("query")
        rql = driver.find_element(By.ID, "rql")
        rql.clear()
        rql.send_keys("score >> 3" + Keys.ENTER)
        until(lambda: css("#query-error"), "the error of a bad query")
        text = driver.find_element(By.ID, "query-error").text
        check("column 8" in text, f"the error names its column: {text!r}")
        check(driver.find_element(By.ID, "rql").get_attribute("aria-invalid") == "true", "the box is marked invalid")
        shot("query-error")
        step("filters with RQL, and shows the error of a bad query")

        # Follows a link and a backlink.
        go("#/f/3/c/Row?where=id%20%3E%3D%20100")
        until(lambda: row_keys()[:1] == ["100"], "Row 100 first")
        link = until(lambda: [b for b in css(".grid .row .link") if b.is_displayed() and b.get_attribute("data-key") == "50"], "the parent link of Row 100")[0]
        act(link.click, "click the parent link")
        until(lambda: "Row 50" in driver.find_element(By.ID, "inspector").text, "the linked object in the inspector")
        backs = until(lambda: css("#inspector .backlink"), "the linking objects")
        back_keys = sorted(int(b.get_attribute("data-key")) for b in backs)
        if oracle.present:
            check(back_keys == sorted(oracle.query(big, "Row", "parent.id == 50")), f"backlinks {back_keys} are not Realm's")
        check(back_keys == [100, 101], f"backlinks of Row 50: {back_keys}")
        [b for b in backs if b.get_attribute("data-key") == "101"][0].click()
        until(lambda: "Row 101" in driver.find_element(By.ID, "inspector-title").text, "the backlink's object")
        shot("inspector")
        errors()
        step("follows a link and a backlink")

        # Expands a list and an embedded object in place.
        go("#/f/1/c/Contact")
        until(lambda: row_keys()[:1] == ["0"], "the contacts")
        contacts = oracle.dump(files["contacts.realm"]) if oracle.present else None
        embedded = until(lambda: [b for b in css(".grid .expand[data-kind=embedded]") if b.is_displayed()], "an embedded object")[0]
        row_key = int(embedded.find_element(By.XPATH, "ancestor::div[contains(concat(' ', @class, ' '), ' row ')]").get_attribute("data-key"))
        act(embedded.click, "expand the embedded object")
        until(lambda: "street" in driver.find_element(By.ID, "popover").text, "the embedded object's properties")
        if contacts:
            street = [c for c in contacts if c["$class"] == "Contact" and c["$key"] == row_key][0]["address"]["street"]
            check(street in driver.find_element(By.ID, "popover").text, f"the street {street!r} is Realm's")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        lists = [b for b in css(".grid .expand[data-kind=list]") if b.is_displayed() and not b.text.endswith("(0)")]
        check(lists, "a list with items")
        act(lists[0].click, "expand the list")
        until(lambda: "[0]" in driver.find_element(By.ID, "popover").text, "the list's items")
        nested = [b for b in css("#popover .expand") if b.is_displayed()]
        if nested:
            nested[0].click()
            until(lambda: "kind" in driver.find_element(By.ID, "popover").text or "number" in driver.find_element(By.ID, "popover").text,
                  "an item expanded in place")
        shot("expanded")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        errors()
        step("expands a list and an embedded object")

        # Edits a cell; a wrong type gets insert's error next to the field, with nothing written.
        people = files["people.realm"]
        go("#/f/2/c/Person")
        until(lambda: "5" in row_keys(), "Person 5")

        def cell(key, prop):
            for r in css(".grid .row"):
                if r.get_attribute("data-key") == key:
                    return r.find_element(By.CSS_SELECTOR, f'.cell[data-property="{prop}"]')
            raise Failure(f"no row {key}")

        from selenium.webdriver.common.action_chains import ActionChains
        act(lambda: ActionChains(driver).double_click(cell("5", "age")).perform(), "double-click the age of Person 5")
        field = until(lambda: css("#f-age"), "the edit dialog")[0]
        field.clear()
        field.send_keys("old")
        before = open(people, "rb").read()
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: "expected an integer" in driver.find_element(By.CSS_SELECTOR, '.field[data-field="age"] .field-error').text,
              "the error next to the field")
        check(open(people, "rb").read() == before, "a refused edit changed the file")
        shot("edit-error")
        field = driver.find_element(By.ID, "f-age")
        field.clear()
        field.send_keys("77")
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: not driver.find_element(By.ID, "dialog").get_attribute("open"), "the dialog to close")
        until(lambda: cell("5", "age").text == "77", "the new value in the table")
        oracle.verify(people)
        if oracle.present:
            line = [o for o in oracle.dump(people) if o["$key"] == 5][0]
            check(line["age"] == 77, f"Realm reads age {line['age']}")
        errors()
        step("edits a cell (and refuses a wrong type with insert's error)")

        # Adds an object from the form, then deletes it.
        driver.find_element(By.ID, "add-object").click()
        until(lambda: css("#f-firstName"), "the add form")
        driver.find_element(By.ID, "f-firstName").send_keys("Grace")
        driver.find_element(By.ID, "f-lastName").send_keys("Hopper")
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: "required" in driver.find_element(By.CSS_SELECTOR, '.field[data-field="age"] .field-error').text,
              "the missing required value")
        driver.find_element(By.ID, "f-age").send_keys("85")
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: not driver.find_element(By.ID, "dialog").get_attribute("open"), "the add dialog to close")
        oracle.verify(people)
        added = oracle.query(people, "Person", "firstName == 'Grace' AND age == 85") if oracle.present else None
        if added is not None:
            check(len(added) == 1, f"Realm reads {len(added)} new objects")
        until(lambda: "1,001 objects" in summary(), "the new count")
        new_key = str(added[0]) if added else None
        until(lambda: (new_key or row_keys()[-1]) in row_keys(), "the new object at the end")
        new_key = new_key or row_keys()[-1]
        def select_new():
            for r in css(".grid .row"):
                if r.get_attribute("data-key") == new_key:
                    r.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
                    return
            raise StaleElementReferenceException("the new row is not drawn yet")
        act(select_new, "select the new object")
        until(lambda: driver.find_element(By.ID, "delete-selected").is_enabled(), "the delete button")
        driver.find_element(By.ID, "delete-selected").click()
        until(lambda: driver.find_element(By.ID, "dialog").get_attribute("open"), "the confirmation")
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: "1,000 objects" in summary(), "the count after the delete")
        oracle.verify(people)
        if oracle.present:
            check(oracle.query(people, "Person", "firstName == 'Grace' AND age == 85") == [], "Realm still reads the deleted object")
        errors()
        step("adds and deletes an object")

        # Imports a CSV.
        csv_path = os.path.join(tmp, "new-people.csv")
        with open(csv_path, "w") as f:
            f.write("firstName,lastName,age\nAlan,Turing,41\n\"Hedy, Eva\",Lamarr,85\n")
        driver.find_element(By.ID, "import").click()
        until(lambda: css("#import-file"), "the import dialog")
        driver.find_element(By.ID, "import-file").send_keys(csv_path)
        driver.find_element(By.ID, "dialog-submit").click()
        until(lambda: "1,002 objects" in summary(), "the imported objects")
        oracle.verify(people)
        if oracle.present:
            check(len(oracle.query(people, "Person", "firstName == 'Hedy, Eva' AND lastName == 'Lamarr' AND age == 85")) == 1,
                  "Realm reads the imported row")
        errors()
        step("imports a CSV")

        # Schema: the diagram and the model code.
        go("#/f/0/schema")
        until(lambda: css("#diagram svg a"), "the diagram")
        check(len(css("#diagram svg a")) == 3, "a box per class")
        check(len(css("#diagram svg path.edge")) >= 8, "the links as arrows")
        [b for b in css(".tabs button") if b.text == "Kotlin"][0].click()
        until(lambda: "class AllTypes" in driver.find_element(By.ID, "model-code").text, "the Kotlin model")
        driver.execute_script("window.scrollTo(0,0)")
        shot("schema")
        errors()
        step("shows the schema diagram and the model code")

        # The page reloads itself when the file changes on disk (another program writes it).
        go("#/f/2/c/Person")
        until(lambda: "1,002 objects" in summary(), "Person again")
        subprocess.run([args.realmctl, "update", people, "--class", "Person", "--set", "age = 5", "--where", "firstName == 'Alan'", "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
        until(lambda: "changed on disk" in driver.find_element(By.ID, "toast").text, "the reload after a change on disk")
        step("reloads when the file changes on disk")

        print(f"studio browser test passed in {time.monotonic() - started:.1f} s; screenshots in {args.out}")
        return 0
    except Exception as e:
        import traceback
        print(f"FAILED: {e}" if isinstance(e, Failure) else f"FAILED:\n{traceback.format_exc()}")
        if driver:
            try:
                driver.save_screenshot(os.path.join(args.out, "failure.png"))
                print("  page state:", driver.execute_script(
                    "return {hash: location.hash, file: state.fileId, generation: state.generation, grid: state.grid && "
                    "{cls: state.grid.cls.name, pages: [...state.grid.pages.keys()], loading: [...state.grid.loading.keys()], "
                    "error: String(state.grid.error), total: state.grid.total}}"))
                for entry in driver.get_log("browser"):
                    print("  console:", entry)
            except Exception:
                pass
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.send_signal(signal.SIGINT)
            try:
                code = server.wait(timeout=10)
                if code != 0:
                    print(f"realmctl studio exited {code}: {server.stderr.read()}")
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
