"""What the browser tests share: e-mail from the catcher, players in their own browser
contexts, page checks (layout at phone size, axe-core, labels) and findings.

Findings are what a check saw wrong on a page. They are collected rather than
raised at once, so one game still plays to its end (and leaves its screenshots)
when a page has a defect; each test fails at its end with the list, and every
finding of the run is written to ``<artifacts>/findings.md``.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

E2E_DIR = Path(__file__).resolve().parent
AXE_JS = E2E_DIR / "vendor" / "axe-core" / "axe.min.js"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

PASSWORD = "correct-Horse-battery-9"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# axe-core rules that fail a test; every other violation is written down as a note.
AXE_FATAL_RULES = {
    "label",
    "select-name",
    "button-name",
    "input-button-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "color-contrast",
}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

_names = itertools.count(1)


def unique_name(prefix: str) -> str:
    return f"{prefix}{int(time.time()) % 100000:05d}{next(_names):02d}"


# Findings ------------------------------------------------------------------------------------------


@dataclass
class Finding:
    test: str
    kind: str
    where: str
    detail: str
    fatal: bool


@dataclass
class Findings:
    path: Path
    items: list[Finding] = field(default_factory=list)
    test: str = ""
    _seen: set = field(default_factory=set)
    #: console errors the running test provokes on purpose (regular expressions); emptied between tests
    expected_console: list[re.Pattern] = field(default_factory=list)

    def expect_console(self, pattern: str) -> None:
        """The running test provokes this console error on purpose (a move answered 409): not a defect."""
        self.expected_console.append(re.compile(pattern))

    @contextlib.contextmanager
    def expecting_console(self, pattern: str):
        """Within the block only, the running test provokes this console error on purpose (a form answered 400)."""
        compiled = re.compile(pattern)
        self.expected_console.append(compiled)
        try:
            yield
        finally:
            self.expected_console.remove(compiled)

    def console_expected(self, text: str) -> bool:
        return any(p.search(text) for p in self.expected_console)

    def add(self, kind: str, where: str, detail: str, *, fatal: bool = True) -> None:
        key = (self.test, kind, re.sub(r"#\d+|/\d+/", "#n", where), detail)
        if key in self._seen:
            return
        self._seen.add(key)
        self.items.append(Finding(self.test, kind, where, detail, fatal))
        self.write()

    def fatal_for(self, test: str) -> list[Finding]:
        return [f for f in self.items if f.test == test and f.fatal]

    def write(self) -> None:
        lines = ["# e2e findings", ""]
        if not self.items:
            lines.append("Nothing found.")
        for test, group in itertools.groupby(self.items, key=lambda f: f.test):
            lines += [f"## {test}", ""]
            for f in group:
                mark = "FAIL" if f.fatal else "note"
                lines.append(f"- **{mark}** [{f.kind}] `{f.where}`: {f.detail}")
            lines.append("")
        self.path.write_text("\n".join(lines), encoding="utf-8")


# E-mail --------------------------------------------------------------------------------------------


@dataclass
class Mail:
    path: Path
    to: str
    subject: str
    text: str
    html: str

    def links(self) -> list[str]:
        return re.findall(r"https?://[^\s<>\"')\]]+", self.text)

    def link(self, contains: str) -> str:
        for url in self.links():
            if contains in url:
                return url
        raise AssertionError(f"no link with {contains!r} in {self.subject!r}: {self.links()}")


class Mailbox:
    """The catcher's folder: one .eml file per message, written atomically."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._cache: dict[Path, Mail] = {}

    def all(self) -> list[Mail]:
        mails = []
        for path in sorted(self.folder.glob("*.eml")):
            if path not in self._cache:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                text = message.get_body(preferencelist=("plain",))
                html = message.get_body(preferencelist=("html",))
                self._cache[path] = Mail(
                    path=path,
                    to=str(message["To"]),
                    subject=str(message["Subject"]),
                    text=text.get_content() if text else "",
                    html=html.get_content() if html else "",
                )
            mails.append(self._cache[path])
        return mails

    def to(self, address: str, subject: str = "") -> list[Mail]:
        return [m for m in self.all() if address in m.to and subject in m.subject]

    def wait_for(self, address: str, subject: str = "", *, count: int = 1, timeout: float = 45) -> list[Mail]:
        deadline = time.monotonic() + timeout
        while True:
            found = self.to(address, subject)
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                seen = [m.subject for m in self.to(address)]
                raise AssertionError(f"{count} mail(s) to {address} with {subject!r} did not arrive; got {seen}")
            time.sleep(0.25)


def loopback(url: str, base_url: str) -> str:
    """A mailed link as this test server serves it.

    allauth builds absolute links with ACCOUNT_DEFAULT_HTTP_PROTOCOL, which the
    settings pin to https when DEBUG is off (right behind a TLS proxy); the e2e
    site is plain HTTP on loopback, so an https link to our own host is read as http.
    """
    host = base_url.split("://", 1)[1]
    if url.startswith(f"https://{host}"):
        return "http://" + url.split("://", 1)[1]
    return url


# Players -------------------------------------------------------------------------------------------


@dataclass
class Player:
    username: str
    email: str
    context: BrowserContext
    page: Page
    viewport: str

    @property
    def is_phone(self) -> bool:
        return self.viewport == "phone"


def new_context(browser: Browser, viewport: str, base_url: str) -> BrowserContext:
    options = {"viewport": VIEWPORTS[viewport], "base_url": base_url, "locale": "en-GB", "timezone_id": "UTC"}
    if viewport == "phone":
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    return context


# Reported from inside each page (an init script runs before the page's own, outside its CSP): the event
# names the refused directive and the line that did it, which the console message alone does not.
CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
                " at " + (e.sourceFile || "?") + ":" + e.lineNumber + " " + (e.sample || ""));
});
"""


def watch_console(page: Page, findings: Findings, label: str) -> None:
    """Errors in the browser console (a CSP refusal, a failed request, a script error) fail the test, except
    those the running test said it expects (``Findings.expect_console``: a 409 it provokes on purpose)."""
    already = hasattr(page, "_e2e_label")
    page._e2e_label = label  # a later call only names the page better (the player rather than the context)
    if already:
        return

    def on_console(message):
        if message.type == "error":
            text = message.text[:300]
            findings.add("console", f"{page._e2e_label} {page.url}", text, fatal=not findings.console_expected(text))

    page.on("console", on_console)
    page.on("pageerror", lambda exc: findings.add("script error", f"{page._e2e_label} {page.url}", str(exc)[:300]))


def watch_context(context: BrowserContext, findings: Findings, label: str) -> BrowserContext:
    """Every page of ``context``, opened now or later, reports CSP violations and is watched (watch_console)."""
    context.add_init_script(CSP_REPORTER)
    for page in context.pages:
        watch_console(page, findings, label)
    context.on("page", lambda page: watch_console(page, findings, label))
    return context


class WatchedBrowser:
    """The session's Chromium, whose every new context is watched: no test can open a page that escapes the
    console and CSP checks, whether it goes through the ``contexts`` fixture or calls ``browser.new_context``."""

    def __init__(self, browser: Browser, findings: Findings) -> None:
        self._browser = browser
        self._findings = findings
        self._contexts = itertools.count(1)

    def new_context(self, **options) -> BrowserContext:
        context = self._browser.new_context(**options)
        return watch_context(context, self._findings, f"context{next(self._contexts)}")

    def __getattr__(self, name):
        return getattr(self._browser, name)


def sign_up(
    page: Page, mailbox: Mailbox, base_url: str, *, username: str, address: str, check: Callable[[str], None] | None
) -> None:
    """Sign up through the form, open the verification link from the e-mail, confirm."""
    check = check or (lambda name: None)
    page.goto("/")
    open_menu(page)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/"))
    check("signup")
    page.get_by_label("Email").fill(address)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=False).first.fill(PASSWORD)
    page.get_by_label(re.compile(r"Password \(again\)")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Sign up", re.I)).click()
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/"))
    check("verification-sent")
    mail = mailbox.wait_for(address, "Confirm")[-1]
    link = loopback(mail.link("/accounts/confirm-email/"), base_url)
    page.goto(link)
    check("confirm-email")
    page.get_by_role("button", name=re.compile("Confirm", re.I)).click()
    expect(page).not_to_have_url(re.compile(r"/accounts/confirm-email/"))


def log_in(page: Page, *, login: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Username or email|Login|E-mail or username", re.I)).fill(login)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name=re.compile("Sign in|Log in", re.I)).click()
    expect(page.locator(LOGOUT_BUTTON)).to_have_count(1)


LOGOUT_BUTTON = 'header form[action$="/accounts/logout/"] button'
MENU_TOGGLE = "header .nav-more__toggle"


def open_menu(page: Page) -> None:
    """On a phone the header folds the account links and the language behind Menu (issue 19): open it.
    Nothing to do on a wider screen, or when it is open."""
    toggle = page.locator(MENU_TOGGLE)
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
        expect(page.locator("#nav-more")).to_be_visible()


def logged_in(page: Page) -> bool:
    return page.locator(LOGOUT_BUTTON).count() > 0


def log_out(page: Page) -> None:
    open_menu(page)
    page.locator(LOGOUT_BUTTON).click()
    if "/accounts/logout/" in page.url:  # allauth asks to confirm a GET-less logout
        page.locator("main form button").last.click()
    expect(page.locator(LOGOUT_BUTTON)).to_have_count(0)


# Page checks ---------------------------------------------------------------------------------------

LAYOUT_JS = (E2E_DIR / "js" / "layout.js").read_text(encoding="utf-8")

LABELS_JS = (E2E_DIR / "js" / "labels.js").read_text(encoding="utf-8")


class Checker:
    """Runs the page checks for one test: layout at phone size, labels, axe-core; screenshots."""

    def __init__(self, findings: Findings, artifacts: Path, folder: str) -> None:
        self.findings = findings
        self.shots = artifacts / "screens" / folder
        self.shots.mkdir(parents=True, exist_ok=True)
        self._axe_done: set[str] = set()
        self._shot_number = itertools.count(1)

    def layout(self, page: Page, where: str) -> None:
        result = page.evaluate(LAYOUT_JS)
        if result["scrollWidth"] > result["innerWidth"]:
            self.findings.add(
                "horizontal scroll", where,
                f"document is {result['scrollWidth']}px wide in a {result['innerWidth']}px viewport; "
                f"sticking out: {'; '.join(result['offenders']) or '?'}",
            )
        elif result["offenders"]:
            self.findings.add("cut off", where, "; ".join(result["offenders"]))
        if result["sideways"]:
            self.findings.add("scrolls sideways", where, "; ".join(result["sideways"]), fatal=False)
        if result["clipped"]:
            self.findings.add("text clipped", where, "; ".join(result["clipped"]), fatal=False)
        if result["unreachable"]:
            self.findings.add("control out of reach", where, "; ".join(result["unreachable"]))

    def labels(self, page: Page, where: str) -> None:
        for html in page.evaluate(LABELS_JS):
            self.findings.add("unlabelled control", where, html)

    def axe(self, page: Page, where: str, *, key: str | None = None) -> None:
        """axe-core over the page (once per ``key``); the rules in AXE_FATAL_RULES fail the test."""
        key = key or where
        if key in self._axe_done:
            return
        self._axe_done.add(key)
        for violation in axe_violations(page):
            nodes = "; ".join(
                f"{n['target']} ({(n['summary'] or '').splitlines()[-1].strip()[:160]})" for n in violation["nodes"]
            )
            self.findings.add(
                f"axe {violation['id']}", where, f"{violation['help']}: {nodes}",
                fatal=violation["id"] in AXE_FATAL_RULES,
            )

    def page(self, page: Page, where: str, *, axe: bool = False, axe_key: str | None = None,
             phone: bool | None = None) -> None:
        is_phone = phone if phone is not None else page.viewport_size == PHONE
        self.labels(page, where)
        if is_phone:
            self.layout(page, where)
        if axe:
            self.axe(page, where, key=axe_key)

    def shot(self, page: Page, moment: str, who: str) -> Path:
        size = "phone" if page.viewport_size == PHONE else "desktop"
        path = self.shots / f"{next(self._shot_number):02d}-{moment}-{who}-{size}.png"
        # A picture for people, not a check: a page screens tall (the fairness check page at the end is some
        # 30,000 px on a phone) may take longer than an action's 15 s on a busy machine.
        page.screenshot(path=str(path), full_page=True, timeout=60_000)
        return path


def axe_violations(page: Page, include: list[str] | None = None) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA violations on the page, or only inside the elements ``include`` selects
    (selectors matching nothing are left out)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated over the DevTools protocol: the page's CSP (script-src 'self' + nonce) stays on.
        page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;undefined")
    return page.evaluate(
        "async ([tags, include]) => {"
        " const context = include ? {include: include.filter(s => document.querySelector(s)).map(s => [s])}"
        " : document;"
        " const r = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});"
        " return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 6).map(n => ({target: n.target.join(' '), summary: n.failureSummary}))})); }",
        [AXE_TAGS, include],
    )


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)
