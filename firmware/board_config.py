"""Which board profile this build uses: a module name in hardware/boards/ (copied to the board's
/lib/boards/).

`make deploy-mp BOARD=feather_rp2040` / `make deploy-cp BOARD=...` write this file with the chosen
name.
"""

BOARD = "pico"
