"""What a deploy puts on a board: the modules of its own runtime, not the other's (firmware/deploy.py's stage)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402


@pytest.mark.parametrize("runtime,other", [("mp", "_cp"), ("cp", "_mp")])
def test_a_deploy_carries_its_runtimes_glue_and_not_the_others(tmp_path, runtime, other):
    st = deploy.stage(runtime, "pico", str(tmp_path / runtime), False)
    dests = {dest for _, dest in st.files}
    own = "_" + runtime
    assert "lib/fdfw/setup" + own + ".py" in dests and "lib/fdfw/board" + own + ".py" in dests
    assert [d for d in dests if d.endswith(other + ".py")] == []
    on_disk = [n for _, _, names in os.walk(str(tmp_path / runtime)) for n in names]
    assert [n for n in on_disk if n.endswith(other + ".py")] == [] and "loop.py" in on_disk


def test_a_micropython_deploy_carries_no_circuitpython_module(tmp_path):
    """What only CircuitPython imports (keypad's reader, the SPI and I2C setup, the nvm store) ends in _cp, so a
    MicroPython board's flash holds none of it; a CircuitPython board still gets each."""
    cp_only = {"lib/fdfw/keys_cp.py", "lib/fdfw/i2cmem_cp.py", "lib/fdfw/setup_spi_cp.py",
               "lib/fdfw/store/nvm_cp.py", "lib/fdfw/store/nvm_scan_cp.py"}
    for runtime in ("mp", "cp"):
        dests = {dest for _, dest in deploy.stage(runtime, "pico", str(tmp_path / runtime), False).files}
        assert (dests & cp_only) == (set() if runtime == "mp" else cp_only), runtime


# the .mpy header's third byte: the native code's CPU in bits 2-7 (py/persistentcode.h, MP_NATIVE_ARCH_*)
ARMV6M, ARMV7EMSP = 4, 7


@pytest.mark.parametrize("board,arch", [("pico", ARMV6M), ("feather_rp2040", ARMV6M), ("pico2", ARMV7EMSP)])
def test_the_native_text_is_built_for_the_boards_cpu(tmp_path, board, arch):
    """fdfw.glyphs_mp (viper) goes to a MicroPython board as a .mpy for its profile's MPY_ARCH; the rest is
    bytecode, which any CPU runs."""
    top = tmp_path / board
    deploy.stage("mp", board, str(top), True)
    with open(str(top / "lib" / "fdfw" / "glyphs_mp.mpy"), "rb") as f:
        head = f.read(3)
    with open(str(top / "lib" / "fdfw" / "board_mp.mpy"), "rb") as f:
        plain = f.read(3)
    assert head[:2] == b"M\x06" and head[2] >> 2 == arch and plain[2] >> 2 == 0


def test_a_board_with_no_cpu_named_goes_without_native_code(tmp_path):
    """No MPY_ARCH: no .mpy can carry the native text, so it stays off (board_mp blits a glyph a char); a .py
    install takes it as source, which the board compiles for itself."""
    st = deploy.Stage(str(tmp_path / "none"), True, arch=None)
    st.add_tree(os.path.join(ROOT, "firmware", "fdfw"), "lib/fdfw", "_cp")
    dests = {dest for _, dest in st.files}
    assert "lib/fdfw/board_mp.mpy" in dests and not [d for d in dests if "glyphs_mp" in d]
    st = deploy.Stage(str(tmp_path / "py"), False, arch=None)
    st.add_tree(os.path.join(ROOT, "firmware", "fdfw"), "lib/fdfw", "_cp")
    assert "lib/fdfw/glyphs_mp.py" in {dest for _, dest in st.files}
    assert "lib/fdfw/glyphs_mp.py" not in {d for _, d in deploy.stage("cp", "pico", str(tmp_path / "cp"), False).files}
