"""The web page's MacroPad switch (?board=macropad): web/fivedice_web.py's Handheld with the MacroPad's twelve keys
and knob, as web/main.js drives it (the browser side: tests/web/test_web.py's harness; here the Python side on CPython)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "web"))



def test_the_pages_macropad_has_its_keys_colours_and_a_knob_that_spins_the_dice():
    """On the MicroPython unix port (the WebAssembly port's interpreter and framebuf)."""
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(ROOT, p) for p in ("lib", "web", "hardware")]))
    r = subprocess.run([mp, "-X", "heapsize=4M", os.path.join(ROOT, "tests", "web", "macropad_web_script.py")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr + r.stdout
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["labels"][:6] == ["1", "2", "3", "4", "5", "ROLL"] and len(out["labels"]) == 12
    assert out["jobs"] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1]  # HOLD1-5, ROLL, UP, DOWN, OK, BACK by key
    assert out["knob_key"] == 1 and out["cursor"] == 1  # the knob moved the menu's cursor
    assert out["mode"] == 1  # its push chose New game: the dice screen (M_TURN)
    assert out["tumbling"] == [True, False]  # a spin tumbles the dice...
    assert out["landed"] == [False, 1, [3, 5, 3, 6, 2]]  # ...which land once it stops
    px = [tuple(c) for c in out["px"]]
    assert sum(px[0]) > 2 * sum(px[1]) > 0 and px[5] != (0, 0, 0) and px[11] == (0, 0, 0)
    assert out["handheld"] == [5, True, 0]  # the handheld page: five LEDs, no knob


def test_the_page_bundle_carries_the_macropad_profile():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import build_web
    finally:
        sys.path.pop(0)
    files = build_web.bundle_files()
    assert "/lib/boards/macropad.py" in files and "/lib/boards/__init__.py" in files


sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
import web_browser  # noqa: E402
import pytest  # noqa: E402

WHY = web_browser.why_not()


@pytest.mark.skipif(WHY is not None, reason=str(WHY))
def test_the_page_switched_to_the_macropad_shows_its_knob_and_lit_keys_and_plays():
    b = web_browser.Browser()
    try:
        b.open("?board=macropad&test=1")
        b.page.evaluate("() => localStorage.clear()")
        b.open("?board=macropad&test=1")
        assert b.page.evaluate("window.fivedice.error") == ""
        assert b.page.evaluate("document.getElementById('handheld-keys').hidden")
        labels = b.page.evaluate("() => Array.from(document.querySelectorAll('#keypad .keys button'), "
                                 "(e) => e.textContent)")
        assert labels[:6] == ["1", "2", "3", "4", "5", "ROLL"] and labels[6] == "^\nhint" and len(labels) == 12
        b.key("Enter")  # the knob's push, or KEY9: New game
        b.wait_idle()
        assert b.page.evaluate("window.fivedice.test.mode()") == 1  # the dice screen
        b.page.evaluate("(f) => window.fivedice.test.dice(f)", [3, 5, 3, 6, 2] * 4)
        b.key("ArrowRight")  # a turn of the knob on the dice screen: the dice tumble and land
        b.wait_idle()
        b.page.locator("#keypad .keys button").nth(0).dispatch_event("pointerdown")  # KEY1 holds die 1
        b.wait_idle()
        bg = b.page.evaluate("() => Array.from(document.querySelectorAll('#keypad .keys button'), "
                             "(e) => getComputedStyle(e).backgroundColor)")
        assert bg[0] != bg[1] and bg[5] != "rgb(0, 0, 0)" and bg[11] == "rgb(0, 0, 0)", bg
        b.page.locator("body").screenshot(path=os.path.join(ROOT, "build", "web-macropad.png"))
    finally:
        b.close()
