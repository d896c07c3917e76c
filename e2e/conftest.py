"""Session fixtures of the browser tests: the running site, Chromium, the mailbox, findings.

Run with ``make e2e`` (or ``.venv/bin/python -m pytest -p no:django e2e``, ``-n 2`` for two processes).
``E2E_ARTIFACTS`` picks the folder for screenshots, e-mails, logs and findings
(default ``e2e-artifacts/``); it is emptied at the start of a run.

On several processes (pytest-xdist, ``make e2e``'s ``E2E_WORKERS``) each worker starts a whole stack of its own
(``e2e/stack.py``) and writes into its own subfolder (``e2e-artifacts/gw0/``, ``gw1/``, ...: logs, mail,
screenshots, findings.md); the controller empties the folder once before the workers start and at the end joins
the workers' findings into ``e2e-artifacts/findings.md``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from e2e.stack import BASE_DIR, running_stack
from e2e.support import CHROMIUM_ARGS, Checker, Findings, Mailbox, Player, WatchedBrowser, new_context, watch_console

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
# pytest-xdist's name of this process (gw0, gw1, ...); empty in a run on one process.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def artifacts_root() -> Path:
    return Path(os.environ.get("E2E_ARTIFACTS") or BASE_DIR / "e2e-artifacts").resolve()


def _controller(config) -> bool:
    """This process hands the tests out to xdist workers and runs none itself."""
    return not hasattr(config, "workerinput") and config.getoption("dist", default="no") != "no"


def pytest_sessionstart(session):
    # Runs before xdist's own (trylast) starts the workers: a worker's folder is never emptied under it.
    if _controller(session.config):
        root = artifacts_root()
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = artifacts_root() / WORKER if WORKER else artifacts_root()
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(scope="session")
def stack(artifacts):
    with running_stack(artifacts, worker=WORKER) as running:
        yield running


@pytest.fixture(scope="session")
def browser(all_findings):
    """Chromium; every context a test opens reports console errors and CSP violations as findings."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield WatchedBrowser(chromium, all_findings)
        chromium.close()


@pytest.fixture(scope="session")
def mailbox(stack) -> Mailbox:
    return Mailbox(stack.mail_dir)


@pytest.fixture(scope="session")
def all_findings(artifacts) -> Findings:
    findings = Findings(artifacts / "findings.md")
    findings.write()
    return findings


@pytest.fixture
def findings(all_findings, request) -> Findings:
    all_findings.test = request.node.name
    all_findings.expected_console = []
    yield all_findings
    all_findings.test = ""
    all_findings.expected_console = []


@pytest.fixture
def checker(findings, artifacts, request) -> Checker:
    return Checker(findings, artifacts, request.node.name.replace("[", "-").replace("]", ""))


@pytest.fixture
def contexts(browser, stack, findings, artifacts, request):
    """A factory of fresh browser contexts (one per person); on failure each open page is photographed."""
    opened = []

    def make(viewport: str = "desktop", label: str = ""):
        context = new_context(browser, viewport, stack.base_url)
        page = context.new_page()
        watch_console(page, findings, label or viewport)
        opened.append((label or viewport, context, page))
        return context, page

    yield make
    failed = getattr(request.node, "rep_call", None)
    for label, context, page in opened:
        if failed is not None and failed.failed:
            folder = artifacts / "failures" / request.node.name
            folder.mkdir(parents=True, exist_ok=True)
            try:
                page.screenshot(path=str(folder / f"{label}.png"), full_page=True)
                (folder / f"{label}.html").write_text(page.content(), encoding="utf-8")
            except Exception:  # noqa: BLE001, S110 - a photo of a broken page is a bonus
                pass
        context.close()


@pytest.fixture
def player_factory(contexts, stack, mailbox, checker):
    """Sign up (through the pages, e-mail verification included) and log in a new player."""
    from e2e.support import log_in, log_out, logged_in, sign_up, unique_name

    def make(prefix: str, viewport: str = "desktop") -> Player:
        username = unique_name(prefix)
        address = f"{username}@e2e.example"
        context, page = contexts(viewport, username)
        sign_up(page, mailbox, stack.base_url, username=username, address=address, check=None)
        if logged_in(page):
            log_out(page)
        log_in(page, login=username)
        return Player(username=username, email=address, context=context, page=page, viewport=viewport)

    return make


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(autouse=True)
def _fail_on_findings(request, findings, stack):
    yield
    stack.check_alive()
    fatal = findings.fatal_for(request.node.name)
    if fatal:
        lines = "\n".join(f"  [{f.kind}] {f.where}: {f.detail}" for f in fatal)
        pytest.fail(f"{len(fatal)} page defect(s) found (see findings.md):\n{lines}", pytrace=False)


def join_findings(root: Path) -> Path | None:
    """The workers' ``gw*/findings.md`` in one ``findings.md`` at the top (each worker's under its name)."""
    parts = sorted(root.glob("gw*/findings.md"), key=lambda p: int(p.parent.name.removeprefix("gw") or 0))
    if not parts:
        return None
    lines = ["# e2e findings", "", f"Joined from {len(parts)} processes' files: "
             + ", ".join(f"`{p.relative_to(root)}`" for p in parts) + ".", ""]
    for part in parts:
        body = part.read_text(encoding="utf-8").splitlines()[1:]  # without its "# e2e findings"
        lines += [f"## {part.parent.name}", *(("#" + line) if line.startswith("## ") else line for line in body), ""]
    joined = root / "findings.md"
    joined.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return joined


def pytest_sessionfinish(session, exitstatus):
    if WORKER:
        return  # the controller speaks for the run
    root = artifacts_root()
    if _controller(session.config) and root.exists():
        joined = join_findings(root)
        where = f"{joined} (each process's: {root}/gw*/findings.md)" if joined else "none written"
        print(f"\n[e2e] findings of the {session.config.getoption('numprocesses')} processes: {where}", flush=True)
    print(f"\n[e2e] artifacts (screenshots, e-mails, logs, findings.md): {root}", flush=True)
