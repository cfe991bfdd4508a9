"""What the browser tests need, set up where this machine allows (make test runs this first; it never fails the run
for a missing tool, it says why and the browser tests skip with that reason):

1. the page: `npm ci` in web/ (the MicroPython WebAssembly port pinned by web/package-lock.json), then build/web/
   (tools/build_web.py); needs npm and the npm registry;
2. the browser: Debian's Chromium at /usr/bin/chromium, installed with apt-get when missing (needs root and apt).

Why a step could not be done is written to build/web-prereqs-page.txt / -browser.txt (removed once it works);
tests/web/web_browser.py quotes it in the skip reason. A build that fails for any other reason (a bug) fails the run.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB_SRC = os.path.join(ROOT, "web")
STAMP = os.path.join(WEB_SRC, "node_modules", ".package-lock.json")
LOCK = os.path.join(WEB_SRC, "package-lock.json")
CHROMIUM = "/usr/bin/chromium"
sys.path.insert(0, os.path.join(ROOT, "tools"))


def _note(what, why):
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    path = os.path.join(ROOT, "build", "web-prereqs-" + what + ".txt")
    if why is None:
        if os.path.exists(path):
            os.remove(path)
        return
    with open(path, "w") as f:
        f.write(why + "\n")
    print("web_prereqs: " + why + " (the browser tests will skip)", flush=True)


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r.returncode, (r.stderr or r.stdout).strip().splitlines()[-1:] or [""]


def page():
    if not os.path.exists(STAMP) or os.path.getmtime(STAMP) < os.path.getmtime(LOCK):
        npm = shutil.which("npm")
        if npm is None:
            return _no_page("no npm on this machine: the page's MicroPython WebAssembly comes from npm")
        code, last = _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB_SRC)
        if code != 0:
            return _no_page("npm ci in web/ failed (%s)" % last[0])
    import build_web

    build_web.build(os.path.join(ROOT, "build", "web"), os.path.join(ROOT, "tables"))
    _note("page", None)


def _no_page(why):
    shutil.rmtree(os.path.join(ROOT, "build", "web"), ignore_errors=True)  # no stale page is tested
    _note("page", why)


def browser():
    if os.path.exists(CHROMIUM):
        return _note("browser", None)
    apt = shutil.which("apt-get")
    if apt is None:
        return _note("browser", "no apt-get here to install Debian's chromium")
    if os.geteuid() != 0:
        return _note("browser", "installing chromium with apt-get needs root")
    print("web_prereqs: the browser tests need Chromium: installing Debian's chromium system package with apt-get "
          "now (once, a minute or two; `make test BROWSER=0` skips the browser tests and installs nothing)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    code, last = _run([apt, "-qq", "update"], env=env)
    if code == 0:
        code, last = _run([apt, "install", "-y", "-qq", "--no-install-recommends", "chromium"], env=env)
    if code != 0 or not os.path.exists(CHROMIUM):
        return _note("browser", "apt-get could not install chromium (%s)" % last[0])
    _note("browser", None)


if __name__ == "__main__":
    page()
    browser()
