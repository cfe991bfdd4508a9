// fivedice in the browser: the page's side only (input, the loop timer, canvas, LEDs, WebAudio, localStorage).
// Every game decision is made by lib/fivedice on MicroPython WebAssembly, through web/fivedice_web.py.
import { loadMicroPython } from "./micropython.mjs";

const params = new URLSearchParams(location.search);
const TEST = params.get("test") === "1"; // test hooks (tests/web/test_web.py): scripted dice, idle, frame read-back
const BOARD = params.get("board") === "macropad" ? "macropad" : null; // the MacroPad switch: its keys and knob
const STEP_MS = 10; // one pass of the board's main loop this often
const INK = [200, 236, 255]; // OLED pixel on
const PAPER = [0, 0, 0];

const t0 = performance.now();
const stats = { startMs: 0, firstFrameMs: 0, frames: 0, frameMsTotal: 0, frameMs: [], steps: 0, stepMsTotal: 0, blitMsTotal: 0 };
const page = { ready: false, error: "", stats, tones: [] };
window.fivedice = page;

const $ = (id) => document.getElementById(id);

function fail(message) {
  // A plain message in the page instead of a dead device.
  page.error = message;
  const f = $("fatal");
  f.textContent = message;
  f.hidden = false;
  $("device").hidden = true;
}

function note(text) {
  $("note").textContent = text;
}

// -- the buzzer: one square-wave oscillator, like a piezo on PWM; started by the first touch or key ---------
let audio = null;
let osc = null;
let gain = null;
function audioStart() {
  if (audio !== null) {
    if (audio.state === "suspended") audio.resume(); // iOS suspends it again after an interruption
    return;
  }
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try {
    audio = new AC();
    osc = audio.createOscillator();
    gain = audio.createGain();
    osc.type = "square";
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
  } catch (e) {
    audio = null;
  }
}
function tone(freq, ms) {
  if (TEST) page.tones.push([freq, ms]);
  if (audio === null) return;
  try {
    // called from MicroPython: nothing may throw back into it
    const t = audio.currentTime;
    if (freq > 0) {
      osc.frequency.setValueAtTime(freq, t);
      gain.gain.setValueAtTime(0.05, t);
    } else {
      gain.gain.setValueAtTime(0, t);
    }
  } catch (e) {}
}

// -- the save: localStorage (the record as hex, see fivedice_web.LocalStore) ------------------------------
const MAX_TEXT = 8192; // fivedice_web.MAX_TEXT: a longer value is not handed over, only its length
function load(key) {
  try {
    const v = window.localStorage.getItem(key);
    return v !== null && v.length > MAX_TEXT ? v.length : v;
  } catch (e) {
    return null; // storage turned off: no save, a fresh start
  }
}
function move(src, dst) {
  // A bad value set aside, copied here byte for byte (a string coming back from MicroPython ends at a NUL).
  // null when moved, else why not; on a failure the value stays where it was.
  try {
    const v = window.localStorage.getItem(src);
    if (v === null) return null;
    window.localStorage.removeItem(src); // first: the quota it frees makes room for the copy
    try {
      window.localStorage.setItem(dst, v);
    } catch (e) {
      window.localStorage.setItem(src, v);
      return String((e && e.name) || e);
    }
    return null;
  } catch (e) {
    return String((e && e.name) || e);
  }
}
function store(key, text) {
  // null when stored, else why not (full, or storage off): the app then shows "Could not save". A JS exception
  // must not cross into MicroPython (it would unwind through the interpreter), so it becomes a return value.
  try {
    window.localStorage.setItem(key, text);
    return null;
  } catch (e) {
    return String((e && e.name) || e);
  }
}
function remove(key) {
  try {
    window.localStorage.removeItem(key);
  } catch (e) {}
}
function rand(n) {
  return crypto.getRandomValues(new Uint8Array(n)); // n is the dice's 32-byte pool: never over the 65,536 limit
}

// -- drawing ---------------------------------------------------------------------------------------------
const canvas = $("oled");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(128, 64);
function blit(buf) {
  // buf: 1,024 bytes in the SSD1306 page layout (byte x + 128 * (y >> 3), bit y & 7)
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    const row = (y >> 3) * 128;
    const bit = 1 << (y & 7);
    for (let x = 0; x < 128; x++) {
      const c = buf[row + x] & bit ? INK : PAPER;
      const o = (y * 128 + x) * 4;
      px[o] = c[0];
      px[o + 1] = c[1];
      px[o + 2] = c[2];
      px[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}
// Crisp: the 128x64 frame is shown at a whole number of device pixels per OLED pixel (nearest-neighbour scaling)
function fit() {
  const dpr = window.devicePixelRatio || 1;
  const room = canvas.parentElement.clientWidth - 20; // the screen's padding
  const scale = Math.max(1, Math.floor((room * dpr) / 128));
  canvas.style.width = (scale * 128) / dpr + "px";
  canvas.style.height = (scale * 64) / dpr + "px";
}
fit();
window.addEventListener("resize", fit);
let leds = [0, 1, 2, 3, 4].map((i) => $("led" + i));
// A NeoPixel colour as a screen shows it, the terminal simulator's mapping (host_sim/terminal.py display_color):
// the device drives its LEDs at most 96/255 (unheld dice 15), which a lit LED shows brightly but a screen nearly
// black; the brightest channel m becomes 255 * (m / 255) ** 0.15 and the others keep their ratio to it.
const LED_GAMMA = 0.15;
function displayColor(r, g, b) {
  const m = Math.max(r, g, b);
  if (m <= 0) return [0, 0, 0];
  const top = 255 * Math.pow(m / 255, LED_GAMMA);
  return [r, g, b].map((v) => Math.min(255, Math.floor((v * top) / m + 0.5)));
}
function showLeds(rgb) {
  for (let i = 0; i < leds.length; i++) {
    const [r, g, b] = displayColor(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
    leds[i].style.background = `rgb(${r},${g},${b})`;
    leds[i].style.boxShadow = r + g + b ? `0 0 12px rgb(${r},${g},${b})` : "inset 0 0 3px #000";
    if (BOARD) leds[i].style.color = 0.3 * r + 0.59 * g + 0.11 * b > 110 ? "#000" : "#fff"; // a key's label
  }
}

// The MacroPad: its knob (turn: hh.knob, push: OK) and its twelve keys, lit as its pixels, in place of the handheld's
function buildKeypad(hh, mp) {
  $("handheld-keys").hidden = true;
  const pad = $("keypad");
  pad.hidden = false;
  const knob = document.createElement("div");
  knob.className = "knob";
  for (const [text, label, act] of [["\u25c0 turn", "turn the knob left", () => hh.knob(-1)],
    ["push: OK", "push the knob (OK)", () => hh.button(8)], ["turn \u25b6", "turn the knob right", () => hh.knob(1)]]) {
    const b = document.createElement("button");
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      audioStart();
      act();
    });
    knob.appendChild(b);
  }
  pad.appendChild(knob);
  const grid = document.createElement("div");
  grid.className = "keys";
  const labels = mp.PyProxy.toJs(hh.key_labels);
  const jobs = mp.PyProxy.toJs(hh.key_buttons);
  const keys = [];
  for (let k = 0; k < labels.length; k++) {
    const b = document.createElement("button");
    b.textContent = labels[k].replace(" ", "\n");
    b.setAttribute("aria-label", "KEY" + (k + 1) + (labels[k] ? ": " + labels[k] : " (unused)"));
    b.dataset.key = String(k + 1);
    if (jobs[k] >= 0) {
      b.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        audioStart();
        hh.button(jobs[k]);
      });
    }
    grid.appendChild(b);
    keys.push(b);
  }
  pad.appendChild(grid);
  leds = keys;
}

// -- start-up ---------------------------------------------------------------------------------------------
async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error("HTTP " + r.status + " for " + url);
  return new Uint8Array(await r.arrayBuffer());
}

function unbase64(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function mkdirs(FS, path) {
  let p = "";
  for (const part of path.split("/").slice(1, -1)) {
    p += "/" + part;
    try {
      FS.mkdir(p);
    } catch (e) {} // already there
  }
}

async function start() {
  let mp, bundle;
  const errors = [];
  try {
    [mp, bundle] = await Promise.all([
      loadMicroPython({
        url: "micropython.wasm",
        heapsize: 8 * 1024 * 1024,
        stdout: (line) => console.log("fivedice: " + line),
        stderr: (line) => errors.push(line),
      }),
      fetch("fivedice.bundle.json").then((r) => {
        if (!r.ok) throw new Error("HTTP " + r.status + " for fivedice.bundle.json");
        return r.json();
      }),
    ]);
  } catch (e) {
    fail("fivedice could not start: its MicroPython WebAssembly or its Python files did not load (" +
      (e && e.message ? e.message : e) + "). Serve build/web over http (make web-serve), not from a file.");
    return;
  }
  const FS = mp.FS;
  for (const [path, b64] of Object.entries(bundle.files)) {
    mkdirs(FS, path);
    FS.writeFile(path, unbase64(b64));
  }
  // The strategy tables: fetched whole, written into the in-memory file system, and read by the app's own
  // seek-based reader (fivedice.strategy_table) through an ordinary file object over those bytes.
  const missing = [];
  await Promise.all(bundle.tables.map(async (id) => {
    try {
      const bytes = await fetchBytes("tables/" + id + ".fdt");
      mkdirs(FS, "/tables/" + id + ".fdt");
      FS.writeFile("/tables/" + id + ".fdt", bytes);
    } catch (e) {
      missing.push(id + " (" + (e && e.message ? e.message : e) + ")");
    }
  }));
  let hh;
  try {
    const web = mp.pyimport("fivedice_web");
    hh = web.Handheld(tone, rand, load, store, remove, "/tables", null, TEST, move, BOARD);
    if (BOARD) buildKeypad(hh, mp);
  } catch (e) {
    fail("fivedice could not start: " + (e && e.message ? e.message : e) + (errors.length ? "\n" + errors.join("\n") : ""));
    return;
  }
  const notes = [];
  if (missing.length) {
    notes.push("The strategy table did not load for " + missing.join(", ") +
      ": no hints there, the CPU plays up to \"good\".");
  } else if (!bundle.tables.length) {
    notes.push("This build has no strategy tables (make tables, then make web): no hints, the CPU plays up to \"good\".");
  }
  let said = null;
  function messages() {
    const m = hh.messages();
    if (m !== said) {
      said = m;
      note(notes.concat(m ? [m] : []).join("\n"));
    }
  }
  messages();
  blit(mp.PyProxy.toJs(hh.frame()));
  showLeds(mp.PyProxy.toJs(hh.leds()));
  stats.firstFrameMs = performance.now() - t0;
  const pixels = hh.pixels;

  function loop() {
    const a = performance.now();
    let drew = 0;
    try {
      drew = hh.step(Math.floor(a));
    } catch (e) {
      clearInterval(timer);
      fail("fivedice stopped: " + (e && e.message ? e.message : e) + (errors.length ? "\n" + errors.join("\n") : ""));
      return;
    }
    if (drew) {
      const c = performance.now();
      blit(mp.PyProxy.toJs(hh.frame()));
      stats.blitMsTotal += performance.now() - c;
    }
    if (pixels.changed) showLeds(mp.PyProxy.toJs(hh.leds()));
    const ms = performance.now() - a;
    stats.steps += 1;
    stats.stepMsTotal += ms;
    if (drew) {
      stats.frames += 1;
      stats.frameMsTotal += ms;
      if (stats.frameMs.length < 10000) stats.frameMs.push(ms);
    }
    if (stats.steps % 50 === 0) messages();
  }
  const timer = setInterval(loop, STEP_MS);

  // -- input ----------------------------------------------------------------------------------------------
  const KEYS = { Enter: "\r", Backspace: "\x7f", Escape: "esc", ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left",
    ArrowRight: "right" };
  window.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = KEYS[e.key] !== undefined ? KEYS[e.key] : e.key;
    if (k.length === 0) return;
    audioStart();
    if (hh.key(k)) e.preventDefault();
  });
  for (const el of document.querySelectorAll("button[data-b]")) {
    const b = Number(el.dataset.b);
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      audioStart();
      hh.button(b);
    });
  }
  $("shake").addEventListener("pointerdown", (e) => {
    e.preventDefault();
    audioStart();
    hh.key("s");
  });
  function onMotion(e) {
    const a = e.accelerationIncludingGravity;
    if (!a || a.x === null || a.x === undefined) return;
    const k = 1000 / 9.80665; // m/s^2 -> milli-g
    hh.motion(Math.round(a.x * k), Math.round(a.y * k), Math.round(a.z * k));
  }
  // Motion events are listened to at once (a phone that needs no permission sends them right away); iOS
  // asks first, and only from a tap: a touch device with DeviceMotionEvent.requestPermission gets a button.
  window.addEventListener("devicemotion", onMotion);
  const DME = window.DeviceMotionEvent;
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (DME && typeof DME.requestPermission === "function" && coarse) {
    const btn = $("motion");
    btn.hidden = false;
    btn.addEventListener("click", async () => {
      audioStart();
      try {
        const state = await DME.requestPermission();
        if (state === "granted") btn.hidden = true;
        else btn.textContent = "Motion not allowed: use the SHAKE button";
      } catch (e) {
        btn.textContent = "Motion not available: use the SHAKE button";
      }
    });
  }
  const flush = () => hh.flush_save();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flush();
  });
  window.addEventListener("pagehide", flush);

  stats.startMs = performance.now() - t0;
  if (TEST) {
    page.test = {
      dice: (faces) => hh.test_dice(faces),
      idle: () => hh.idle(),
      frameHex: () => Array.from(mp.PyProxy.toJs(hh.frame()), (b) => b.toString(16).padStart(2, "0")).join(""),
      mode: () => hh.app.mode,
      tablesMask: () => hh.app.seats.tables_mask,
    };
  }
  page.ready = true;
}

start();
