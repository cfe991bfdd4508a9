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
