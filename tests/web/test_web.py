"""fivedice in a web browser (build/web/, make web): the real lib/fivedice on MicroPython WebAssembly in a headless
Chromium draws, frame for frame, what host_sim draws for the same keys, shakes and dice.

The browser tests skip, saying why, where the page is not built or there is no Chromium (tests/web/web_browser.py);
`make test` builds the page and installs Chromium first where it can (tools/web_prereqs.py).
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "web"))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))

import fivedice_web  # noqa: E402
import web_browser  # noqa: E402
from fivedice import app as A  # noqa: E402
from fivedice.rng import ScriptedFaces  # noqa: E402
from host_sim import sim  # noqa: E402
from host_sim.device import SimDevice  # noqa: E402

SCREENSHOT = os.path.join(ROOT, "build", "web-screenshot.png")

# Faces for every die rolled in the script, the CPU's rolls included (both sides draw them in the same order).
FACES = [3, 5, 3, 6, 2, 1, 4, 4, 6, 2, 5, 5, 1, 3, 6, 6, 2, 4, 1, 5, 3, 3, 2, 6, 4, 1, 5, 2, 6, 3,
         4, 4, 1, 2, 5, 6, 3, 1, 2, 4, 6, 5, 5, 3, 1, 2, 2, 6, 4, 3, 1, 6, 5, 4, 2, 3, 6, 1, 4, 5] * 2

# (name, inputs): inputs are terminal keys (host_sim.sim.KEYMAP, "s" shakes) or "motion" (the phone shaken:
# devicemotion events in the page, the tilt switch shaken in host_sim). The frame is compared after each step.
SCRIPT = (
    ("menu", ()),
    ("seat 2 perfect CPU", ("down", "down", "down", "down", "\r", "\r")),
    ("new game", ("up", "up", "up", "up", "\r")),
    ("rolled", (" ",)),
    ("hint from the table", ("up",)),
    ("held", ("1", "2", "5")),
    ("phone shaken", ("motion",)),
    ("picker", ("\r",)),
    ("scored, the perfect CPU has played", ("down", "\r")),
    ("s key shake", ("s",)),
    ("card", ("j",)),
    ("menu again", ("b", "\x7f")),
)
PW_KEYS = {"\r": "Enter", "\x7f": "Backspace", "up": "ArrowUp", "down": "ArrowDown", " ": "Space"}


def test_the_page_takes_the_terminal_simulators_keys():
    assert fivedice_web.KEYMAP == sim.KEYMAP
    assert set(fivedice_web.SHAKE_KEYS) == {"s", "S"}
    assert fivedice_web.SHAKE_MS == 700  # host_sim's s key: dev.board.tilt.shake(700)


def test_save_text_round_trips_and_garbage_reaches_the_app_as_bytes():
    kept = {}
    st = fivedice_web.LocalStore(kept.get, kept.__setitem__, kept.pop)  # dict.__setitem__ returns None: stored
    assert st.read() is None
    st.write(b"\xa8\x00\x02\x00\x01\x01\x01\xff")
    assert kept[fivedice_web.KEY] == "a8000200010101ff"
    assert st.read() == b"\xa8\x00\x02\x00\x01\x01\x01\xff"
    kept[fivedice_web.KEY] = "not hex!"
    assert st.read() == b"not hex!"
    st.set_aside()
    assert kept[fivedice_web.KEY_BAD] == "not hex!" and fivedice_web.KEY not in kept
    kept[fivedice_web.KEY] = "00"
    st.set_aside()  # the first unreadable save kept stays, the second goes beside it
    assert kept[fivedice_web.KEY_BAD] == "not hex!" and kept[fivedice_web.KEY_BAD + ".1"] == "00"
    full = fivedice_web.LocalStore(kept.get, lambda k, v: "QuotaExceededError", kept.pop)
    with pytest.raises(OSError):
        full.write(b"\xa8")
    assert "QuotaExceededError" in full.error


def test_hex_decodes_every_byte_both_cases_and_refuses_what_is_not_hex():
    every = bytes(range(256))
    assert fivedice_web._unhex(fivedice_web._hex(every)) == every
    assert fivedice_web._unhex(fivedice_web._hex(every).upper()) == every
    for bad in ("0", "0g", "g0", "+1", " 1", "\x00\x00", "ff\u00e9", "0x"):
        with pytest.raises(ValueError):
            fivedice_web._unhex(bad)


def _mover(kept):
    def move(src, dst):  # the page's move: the value copied as it is
        kept[dst] = kept.pop(src)

    return move


@pytest.mark.parametrize("key,bad,aside,write", [
    (fivedice_web.KEY, fivedice_web.KEY_BAD, "set_aside", "write"),
    (fivedice_web.KEY_REC, fivedice_web.KEY_REC_BAD, "set_aside_records", "write_records"),
])
@pytest.mark.parametrize("with_move", [False, True])
def test_every_bad_value_is_kept_byte_for_byte_in_a_ring_of_the_newest(key, bad, aside, write, with_move):
    """Six bad values in a row (ten NUL characters, 10 MB of hex, a hand edit...): the RING newest are kept, each
    exactly as it was; a good value written between them is never set aside."""
    kept = {}
    st = fivedice_web.LocalStore(kept.get, kept.__setitem__, kept.pop, _mover(kept) if with_move else None)
    bads = ["\x00" * 10, "ff" * 5000000, "not hex!", "a8" * 3, "", "\u00e9\x00z"]
    for i, v in enumerate(bads):
        kept[key] = v
        getattr(st, aside)()
        assert key not in kept
        getattr(st, write)(b"\xa8good %d" % i)
    ring = st.ring(bad)
    assert len(ring) == fivedice_web.RING == 4
    got = sorted(kept[k] for k in ring)
    assert got == sorted(bads[-4:])  # the four newest, byte for byte; the two oldest replaced
    assert kept[ring[0]] == bads[4] and kept[ring[1]] == bads[5] and kept[ring[2]] == bads[2]
    assert kept[key] == fivedice_web._hex(b"\xa8good 5")


def test_a_huge_value_is_refused_at_once_with_a_plain_line_and_kept():
    """10 MB in the save slot: the app refuses it without decoding it ("not a fivedice save"), the page says why,
    and the value is set aside as it was; the page's load hands over only a length (an int) for such a value."""
    from host_sim.hw import SimBoard

    huge = "ff" * 5000000
    for page in (False, True):
        kept = {fivedice_web.KEY: huge}
        load = (lambda k: len(kept[k]) if k in kept and len(kept[k]) > fivedice_web.MAX_TEXT else kept.get(k)) \
            if page else kept.get
        st = fivedice_web.LocalStore(load, kept.__setitem__, kept.pop, _mover(kept))
        assert st.read() == b"10000000 characters"
        assert "10000000 characters" in st.note and "8192" in st.note
        app = A.App(SimBoard().display, store=st)
        assert app.session.save_bad and "not a fivedice save" in app.session.save_error
        assert kept[fivedice_web.KEY_BAD] is huge and fivedice_web.KEY not in kept
    ok = "a8" * (fivedice_web.MAX_TEXT // 2)  # at the limit: decoded (and refused by the app for its CRC)
    assert fivedice_web.LocalStore({fivedice_web.KEY: ok}.get, None, None).read() == b"\xa8" * (fivedice_web.MAX_TEXT // 2)


def test_a_bad_save_that_cannot_be_set_aside_is_never_written_over():
    kept = {fivedice_web.KEY: "\x00" * 10}
    st = fivedice_web.LocalStore(kept.get, kept.__setitem__, kept.pop, lambda s, d: "QuotaExceededError")
    st.set_aside()
    with pytest.raises(OSError):
        st.write(b"\xa8new")
    assert kept == {fivedice_web.KEY: "\x00" * 10} and "could not be kept" in st.error


def test_the_page_hands_over_no_value_longer_than_the_python_side_decodes():
    js = open(os.path.join(ROOT, "web", "main.js")).read()
    assert "const MAX_TEXT = %d;" % fivedice_web.MAX_TEXT in js
    assert "web.Handheld(tone, rand, load, store, remove, \"/tables\", null, TEST, move, BOARD)" in js


def test_the_records_live_beside_the_save_and_are_set_aside_the_same_way():
    from fivedice import records as R

    kept = {}
    st = fivedice_web.LocalStore(kept.get, kept.__setitem__, kept.pop)
    recs = R.Records()
    recs.insert(0, 250, b"WEB", recs.add_game(0, 250))
    assert R.load(st, R.Records()) is None  # none yet
    assert R.save(st, recs) is None
    back = R.Records()
    assert R.load(st, back) is None and back.initials(0, 0) == b"WEB" and back.score(0, 0) == 250
    kept[fivedice_web.KEY_REC] = "46520100"  # "FR", version 1, no rule sets, no CRC: refused
    assert "records" in R.load(st, R.Records())
    assert fivedice_web.KEY_REC not in kept and kept[fivedice_web.KEY_REC_BAD] == "46520100"


def test_the_stores_bad_value_handling_on_the_micropython_unix_port():
    """The same LocalStore on the real MicroPython: a NUL value and 10 MB kept in the ring, the huge one refused
    without decoding (the linear decoder: 8,192 characters, the most it is given)."""
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(ROOT, "lib"), os.path.join(ROOT, "web"), ".frozen"]))
    script = """
import fivedice_web as W
kept = {}
def move(s, d):
    kept[d] = kept.pop(s)
st = W.LocalStore(kept.get, kept.__setitem__, kept.pop, move)
kept[W.KEY] = "\\x00" * 10
assert st.read() == b"\\x00" * 10
st.set_aside()
kept[W.KEY] = "ff" * 5000000
assert st.read() == b"10000000 characters"
st.set_aside()
assert kept[W.KEY_BAD] == "\\x00" * 10 and len(kept[W.KEY_BAD + ".1"]) == 10000000 and W.KEY not in kept
assert W._unhex("a8" * 4096) == b"\\xa8" * 4096 and W._unhex(W._hex(bytes(range(256)))) == bytes(range(256))
print("ok")
"""
    r = subprocess.run([mp, "-X", "heapsize=64M", "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr + r.stdout


def test_the_pages_python_side_on_the_micropython_unix_port_draws_host_sims_frames():
    """web/fivedice_web.py as the page drives it (10 ms passes, keys, devicemotion samples, the s key), on the
    real MicroPython (the unix port: the same interpreter and framebuf as the WebAssembly port), needs no browser."""
    tables = os.path.join(ROOT, "tables")
    if not os.path.exists(os.path.join(tables, "yacht.fdt")):
        pytest.skip("no tables/yacht.fdt: make test builds it (make tables)")
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(ROOT, "lib"), os.path.join(ROOT, "web"), ".frozen"]))
    req = {"faces": FACES, "tables": tables, "script": [[n, list(i)] for n, i in SCRIPT]}
    r = subprocess.run([mp, "-X", "heapsize=4M", os.path.join(ROOT, "tests", "web", "web_glue_script.py")],
                       input=json.dumps(req), capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr + r.stdout
    lines = r.stdout.splitlines()
    got = [(n, bytes.fromhex(h)) for n, h in (l.rsplit(" ", 1) for l in lines[:-2])]
    want = host_frames(SCRIPT, FACES, tables=tables)
    assert [n for n, _ in got] == [n for n, _ in want]
    for (name, page), (_, host) in zip(got, want):
        assert page == host, "step %r: the page's Python side differs from host_sim\n%s" % (name, diff(page, host))
    assert lines[-2].startswith("save a8")  # the game in progress, saved as hex for localStorage
    assert int(lines[-1].split()[1]) > 3  # the app's cues reached the page's tone()


# -- in the browser ------------------------------------------------------------------------------------------
WHY = web_browser.why_not()
browser_only = pytest.mark.skipif(WHY is not None, reason=str(WHY))


@pytest.fixture(scope="module")
def browser():
    b = web_browser.Browser()
    try:
        yield b
    finally:
        b.close()


class MemStore:
    """host_sim's side of a save: the bytes the page's localStorage holds."""

    def __init__(self, data=None):
        self.data = data
        self.aside = None

    def read(self):
        return self.data

    def write(self, data):
        self.data = bytes(data)

    def set_aside(self):
        self.aside, self.data = self.data, None


def host_frames(script, faces, store=None, tables=os.path.join(web_browser.WEB, "tables")):
    """host_sim's frame after each step of the script (the simulated device, settled)."""
    dev = SimDevice(dice=ScriptedFaces(faces), store=store, tables=tables)
    out = []
    try:
        for name, inputs in script:
            for k in inputs:
                if k in ("motion", "s"):
                    dev.board.tilt.shake(700)
                    dev.run(1200)
                else:
                    dev.tap(A.BUTTON_NAMES.index(sim.KEYMAP[k]))
                dev.settle()
            out.append((name, dev.board.display.raw()))
    finally:
        dev.close()
    return out


def page_frames(b, script, faces=None, shot_at=None):
    if faces is not None:
        assert b.page.evaluate("(f) => window.fivedice.test.dice(f)", faces) == len(faces)
    out = []
    for name, inputs in script:
        for k in inputs:
            if k == "motion":
                b.shake()
            else:
                b.key(PW_KEYS.get(k, k))
            b.wait_idle()
        out.append((name, b.canvas_frame()))
        if name == shot_at:
            b.page.locator("body").screenshot(path=SCREENSHOT)
    return out


def diff(a, b):
    rows = []
    for y in range(64):
        ra = "".join("#" if a[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128))
        rb = "".join("#" if b[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128))
        if ra != rb:
            rows.append("%2d page %s\n   host %s" % (y, ra, rb))
    return "\n".join(rows[:8])


@browser_only
def test_a_scripted_game_in_chromium_draws_host_sims_frames_pixel_for_pixel(browser):
    b = browser
    b.page.goto("about:blank")
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    b.open("?test=1")
    assert b.page.evaluate("window.fivedice.error") == ""
    want = host_frames(SCRIPT, FACES)
    got = page_frames(b, SCRIPT, FACES, shot_at="hint from the table")
    assert [n for n, _ in got] == [n for n, _ in want]
    assert len(set(f for _, f in want)) == len(want), "every step of the script shows a new frame"
    for (name, page), (_, host) in zip(got, want):
        assert page == host, "step %r: the page's canvas differs from host_sim's frame\n%s" % (name, diff(page, host))
    assert b.errors == []
    # the buzzer reached WebAudio: the cues the app played, as tones
    assert b.page.evaluate("window.fivedice.tones.filter((t) => t[0] > 0).length") > 3
    assert os.path.getsize(SCREENSHOT) > 10000


@browser_only
def test_a_reload_resumes_the_game_from_localstorage(browser):
    b = browser
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    b.open("?test=1")
    start = (("new game", ("\r",)), ("rolled", (" ",)), ("held", ("2", "4")))
    page_frames(b, start, FACES)
    b.open("?test=1")  # a reload within the second a hold waits to be saved: pagehide writes it
    saved = b.page.evaluate("() => localStorage.getItem('fivedice.save')")
    assert saved
    got = page_frames(b, (("menu with resume", ()), ("resumed", ("\r",))))
    want = host_frames((("menu with resume", ()), ("resumed", ("\r",))), [1], MemStore(bytes.fromhex(saved)))
    for (name, page), (_, host) in zip(got, want):
        assert page == host, "step %r: the page's canvas differs from host_sim's frame\n%s" % (name, diff(page, host))
    held = host_frames(start, FACES)[-1][1]
    assert got[-1][1] == held  # the same dice, the same holds as before the reload


@browser_only
def test_a_corrupt_save_is_set_aside_with_the_devices_message(browser):
    b = browser
    b.open("?test=1")
    bad = "a8000200010101deadbeef"
    b.page.evaluate("(bad) => { localStorage.clear(); localStorage.setItem('fivedice.save', bad); }", bad)
    b.open("?test=1")
    got = b.canvas_frame()
    store = MemStore(bytes.fromhex(bad))
    want = host_frames((("menu", ()),), [1], store)[0][1]
    assert got == want  # the toast "Save unreadable: kept" on the menu, as on the device
    note = b.page.inner_text("#note")
    assert "Save unreadable: kept" in note and "CRC-32" in note, note
    assert b.page.evaluate("() => [localStorage.getItem('fivedice.save'), localStorage.getItem('fivedice.save.bad')]") \
        == [None, bad]


@browser_only
def test_bad_saves_of_nul_characters_and_megabytes_are_kept_byte_for_byte_in_the_browser(browser):
    """Ten NUL characters, then 400,000 characters of hex, then 1.5 million: each reload sets the save aside
    into the ring exactly as it was (the copy is made in the page: a string back from MicroPython ends at a NUL),
    and the page starts with the device's message each time (how fast: make bench-web)."""
    b = browser
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    bads = ["\x00" * 10, "ff" * 200000, "x" * 1500000]
    for v in bads:
        b.page.evaluate("(v) => localStorage.setItem('fivedice.save', v)", v)
        b.open("?test=1")
        assert "Save unreadable: kept" in b.page.inner_text("#note")
    ring = fivedice_web.LocalStore(None, None, None).ring("fivedice.save.bad")
    got = [b.page.evaluate("(k) => localStorage.getItem(k)", k) for k in ring + ["fivedice.save"]]
    assert got == bads + [None, None]


@browser_only
def test_a_page_whose_webassembly_does_not_load_says_so(browser):
    b = browser
    b.page.route("**/micropython.wasm", lambda route: route.fulfill(status=404, body="gone"))
    try:
        b.open("?test=1")
    finally:
        b.page.unroute("**/micropython.wasm")
    assert b.page.is_visible("#fatal") and not b.page.is_visible("#device")
    assert "could not start" in b.page.inner_text("#fatal")


@browser_only
def test_a_page_whose_table_does_not_load_says_so_and_plays_without_hints(browser):
    b = browser
    b.page.route("**/tables/yahtzee.fdt", lambda route: route.fulfill(status=404, body="gone"))
    try:
        b.open("?test=1")
    finally:
        b.page.unroute("**/tables/yahtzee.fdt")
    assert b.page.evaluate("window.fivedice.error") == ""
    note = b.page.inner_text("#note")
    assert "did not load for yahtzee (HTTP 404" in note, note
    assert b.page.evaluate("window.fivedice.test.tablesMask()") & 1 == 0


def test_make_web_copies_the_pinned_port_and_serves_no_cdn():
    if not os.path.exists(os.path.join(web_browser.WEB, "index.html")):
        pytest.skip(str(WHY))
    for f in os.listdir(web_browser.WEB):
        if f.endswith((".html", ".js", ".mjs", ".css")):
            with open(os.path.join(web_browser.WEB, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for cdn in ("cdn.jsdelivr", "unpkg.com", "pyscript.net", "googleapis"):
                assert cdn not in text, "%s loads %s at run time" % (f, cdn)
    with open(os.path.join(ROOT, "web", "package-lock.json")) as fh:
        lock = fh.read()
    assert '"node_modules/@micropython/micropython-webassembly-pyscript"' in lock and '"integrity"' in lock


@browser_only
def test_the_page_outside_test_mode_runs_with_real_dice_and_no_test_hooks(browser):
    b = browser
    b.open("")
    assert b.page.evaluate("window.fivedice.error") == ""
    assert b.page.evaluate("window.fivedice.ready && window.fivedice.test === undefined")
    menu = b.canvas_frame()
    b.key("Enter")
    b.page.wait_for_timeout(400)
    turn = b.canvas_frame()
    b.key("Space")
    b.page.wait_for_timeout(1000)  # the dice tumble 350 ms, then land
    rolled = b.canvas_frame()
    assert len({menu, turn, rolled}) == 3 and b.errors == []


class FullStore(MemStore):
    def write(self, data):
        raise OSError(28, "no space")


@browser_only
def test_a_browser_that_refuses_the_save_shows_could_not_save_and_plays_on(browser):
    """localStorage.setItem throwing (quota, storage off) reaches the app as the store's OSError."""
    b = browser
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    main = b.page
    b.page = b.ctx.new_page()  # this page's localStorage.setItem throws
    try:
        b.page.on("pageerror", lambda e: b.errors.append(str(e)))
        b.page.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('full', "
                               "'QuotaExceededError'); };")
        b.open("?test=1")
        script = (("new game", ("\r",)), ("rolled", (" ",)))
        got = page_frames(b, script, FACES)
        want = host_frames(script, FACES, FullStore())
        for (name, page), (_, host) in zip(got, want):
            assert page == host, "step %r differs\n%s" % (name, diff(page, host))
        assert b.page.evaluate("window.fivedice.error") == "" and b.errors == []
    finally:
        b.page.close()
        b.page = main


def test_the_page_bundle_carries_every_library_file_subpackages_included():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import build_web
        import package_json
    finally:
        sys.path.pop(0)
    files = build_web.bundle_files()
    assert sorted(k[len("/lib/"):] for k in files if k.startswith("/lib/fivedice/")) == package_json.lib_files()
    assert "/lib/fivedice/screens/turn.py" in files and "/lib/fivedice_web.py" in files


def test_the_web_build_carries_the_licence(tmp_path, monkeypatch):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import build_web
    finally:
        sys.path.pop(0)
    port = tmp_path / "port"  # stand-ins for the npm package's files: only the page's own are checked here
    port.mkdir()
    for f in build_web.PORT_FILES:
        (port / f).write_bytes(b"")
    monkeypatch.setattr(build_web, "PKG", str(port))
    build_web.build(str(tmp_path / "web"), str(tmp_path / "no-tables"))
    with open(os.path.join(ROOT, "LICENSE")) as f:
        assert (tmp_path / "web" / "LICENSE").read_text() == f.read()


@browser_only
def test_the_page_opened_from_disk_says_to_serve_it(browser):
    page = browser.page
    page.goto("file://" + os.path.join(web_browser.WEB, "index.html"))
    page.wait_for_selector("#fatal:not([hidden])", timeout=10000)
    text = page.inner_text("#fatal")
    assert "must be served" in text and "make web-serve" in text
    assert page.evaluate("() => document.getElementById('device').hidden")


@browser_only
def test_the_pages_dice_leds_show_the_terminals_colours_unheld_dice_readable(browser):
    """The page's LEDs use the terminal simulator's mapping (host_sim/terminal.py display_color): an unheld die,
    driven at 15/255, shows about 167/255, not the near-black it would be as sRGB."""
    from host_sim.terminal import display_color

    b = browser
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    b.open("?test=1")
    script = (("new game", ("\r",)), ("rolled", (" ",)), ("held", ("2",)))
    page_frames(b, script, FACES)
    got = b.page.evaluate("""() => [0, 1, 2, 3, 4].map((i) =>
        getComputedStyle(document.getElementById("led" + i)).backgroundColor)""")
    dev = SimDevice(dice=ScriptedFaces(FACES), tables=os.path.join(web_browser.WEB, "tables"))
    try:
        for _, inputs in script:
            for k in inputs:
                dev.tap(A.BUTTON_NAMES.index(sim.KEYMAP[k]))
                dev.settle()
        sent = dev.board.pixels.colors()
    finally:
        dev.close()
    want = ["rgb(%d, %d, %d)" % display_color(c) for c in sent]
    assert got == want
    unheld = [max(display_color(c)) for i, c in enumerate(sent) if i != 1]
    assert max(sent[0]) <= 20 and min(unheld) >= 150  # dim on the strip, readable on a phone


@browser_only
def test_escape_on_the_page_is_back_as_in_the_terminal(browser):
    b = browser
    b.open("?test=1")
    b.page.evaluate("() => localStorage.clear()")
    b.open("?test=1")
    page_frames(b, (("new game", ("\r",)),), FACES)
    assert b.page.evaluate("window.fivedice.test.mode()") == A.M_TURN
    b.key("Escape")
    b.wait_idle()
    assert b.page.evaluate("window.fivedice.test.mode()") == A.M_MENU


def test_make_test_says_before_it_installs_chromium_and_browser_0_skips_it(monkeypatch, capsys):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import web_prereqs
    finally:
        sys.path.pop(0)
    said_before = []

    def fake_run(cmd, **kw):
        said_before.append((cmd[:2], capsys.readouterr().out))
        return 0, [""]

    monkeypatch.setattr(web_prereqs, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(web_prereqs.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(web_prereqs.os, "geteuid", lambda: 0)
    monkeypatch.setattr(web_prereqs, "_run", fake_run)
    monkeypatch.setattr(web_prereqs, "_note", lambda what, why: None)
    web_prereqs.browser()
    first = said_before[0]
    assert "apt-get" in first[1] and "chromium" in first[1] and "BROWSER=0" in first[1]  # said before apt ran
    r = subprocess.run(["make", "-n", "test", "BROWSER=0"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "web_prereqs" not in r.stdout and "FIVEDICE_BROWSER=0" in r.stdout
    monkeypatch.setenv("FIVEDICE_BROWSER", "0")
    assert web_browser.why_not() == "skipped: make test BROWSER=0"
