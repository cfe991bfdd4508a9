"""fivedice on a PC (CPython only): simulated hardware, the playable simulator and command-line tools."""
