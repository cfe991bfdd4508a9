"""The page in build/web/ in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright for Python).

Nothing downloads a browser: Playwright launches the system Chromium by path, with a fresh profile folder and the
network features that would call out turned off. why_not() says in one line why the browser tests cannot run here
(no build, no Chromium, no Playwright); tests skip with that line, the benchmark prints it.
Used by tests/web/test_web.py and tests/bench/bench_web.py.
"""
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB = os.path.join(ROOT, "build", "web")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
sys.path.insert(0, os.path.join(ROOT, "tools"))
from web_serve import serve  # noqa: E402


def why_not():
    """None if the browser tests can run, else why not (one plain line)."""
    if os.environ.get("FIVEDICE_BROWSER") == "0":
        return "skipped: make test BROWSER=0"
    if not os.path.exists(os.path.join(WEB, "index.html")):
        return "build/web is not built (make web; it needs npm): " + _reason("page")
    if not os.path.exists(CHROMIUM):
        return "no %s (apt package chromium): %s" % (CHROMIUM, _reason("browser"))
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as e:
        return "Playwright for Python is not installed (%s): make venv installs requirements.txt" % e
    return None


def _reason(what):
    """What tools/web_prereqs.py wrote when it could not set this up (make test runs it first)."""
    try:
        with open(os.path.join(ROOT, "build", "web-prereqs-" + what + ".txt")) as f:
            return f.read().strip()
    except OSError:
        return "make test sets it up where it can (root and apt for Chromium, npm for the page)"


class Browser:
    """One Chromium with one page; open(query) loads the served build/web/ with that query string."""

    def __init__(self, web=WEB):
        from playwright.sync_api import sync_playwright

        self.srv, _ = serve(web)
        self.base = "http://127.0.0.1:%d/" % self.srv.server_address[1]
        self.profile = tempfile.mkdtemp(prefix="fivedice-chromium-")
        self._pw = sync_playwright().start()
        self.ctx = self._pw.chromium.launch_persistent_context(
            self.profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": 600, "height": 760})
        self.page = self.ctx.pages[0] if self.ctx.pages else self.ctx.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, query="?test=1", timeout_ms=60000):
        """Load the page and wait until it is running (or has shown its plain failure message)."""
        t = time.monotonic()
        self.page.goto(self.base + query)
        self.page.wait_for_function("window.fivedice && (window.fivedice.ready || window.fivedice.error)",
                                    timeout=timeout_ms)
        return time.monotonic() - t

    def close(self):
        try:
            self.ctx.close()
            self._pw.stop()
        finally:
            self.srv.shutdown()
            self.srv.server_close()
            shutil.rmtree(self.profile, ignore_errors=True)

    # -- the page in test mode --------------------------------------------------------------------------------
    def stats(self):
        return self.page.evaluate("() => Object.assign({}, window.fivedice.stats)")

    def wait_idle(self, timeout_ms=30000):
        """Until the app has nothing left to do on its own (dice landed, CPU done, cue played) and the
        last frame is drawn."""
        self.page.wait_for_function("window.fivedice.test.idle()", timeout=timeout_ms, polling=20)

    def canvas_frame(self):
        """The canvas's 128x64 pixels back in the SSD1306 page layout (1,024 bytes): lit = ink."""
        data = self.page.evaluate("""() => {
            const c = document.getElementById("oled");
            const d = c.getContext("2d").getImageData(0, 0, 128, 64).data;
            const out = new Array(1024).fill(0);
            for (let y = 0; y < 64; y++) for (let x = 0; x < 128; x++)
                if (d[(y * 128 + x) * 4] > 100) out[(y >> 3) * 128 + x] |= 1 << (y & 7);
            return out;
        }""")
        return bytes(data)

    def key(self, name):
        self.page.keyboard.press(name)

    def shake(self, ms=700, step_ms=20):
        """A phone shaken for ms: synthetic devicemotion events (gravity included, m/s^2), then at rest."""
        self.page.evaluate("""async ([ms, step]) => {
            const send = (x, y, z) => window.dispatchEvent(new DeviceMotionEvent("devicemotion",
                {accelerationIncludingGravity: {x: x, y: y, z: z}, interval: step}));
            const sleep = (t) => new Promise((r) => setTimeout(r, t));
            for (let t = 0, i = 0; t < ms; t += step, i++) { send(i & 1 ? 24 : -24, 6, 9.8); await sleep(step); }
            for (let t = 0; t < 100; t += step) { send(0, 0, 9.81); await sleep(step); }
        }""", [ms, step_ms])
