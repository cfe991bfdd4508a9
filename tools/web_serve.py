"""Serve build/web/ on 127.0.0.1 (make web-serve): a plain static server with the WebAssembly and module types.

Usage: python tools/web_serve.py [--port 8012] [--dir build/web]
Also used by tests/web/test_web.py (serve(dir, port=0) in a thread).
"""
import argparse
import functools
import http.server
import os
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".fdt": "application/octet-stream",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def log_message(self, fmt, *args):
        if self.server.verbose:
            super().log_message(fmt, *args)


def serve(directory, port=0, verbose=False):
    """A started server for directory on 127.0.0.1 (port 0: any free port); returns (server, thread)."""
    handler = functools.partial(Handler, directory=directory)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    srv.verbose = verbose
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    return srv, t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8012)
    ap.add_argument("--dir", default=os.path.join(ROOT, "build", "web"))
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.dir, "index.html")):
        raise SystemExit("web_serve: %s has no index.html: run `make web` first" % a.dir)
    srv, t = serve(a.dir, a.port, verbose=True)
    print("fivedice: serving %s at http://127.0.0.1:%d/ (Ctrl-C stops)" % (os.path.relpath(a.dir), srv.server_address[1]),
          flush=True)
    try:
        t.join()
    except KeyboardInterrupt:
        srv.shutdown()


if __name__ == "__main__":
    main()
