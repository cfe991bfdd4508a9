"""The MicroPython unix port as a "board" that the real mpremote can talk to over a serial line.

mpremote needs a serial device path; the unix port's REPL needs a terminal. Two pseudo-terminals and a
relay thread join them: micropython runs on the first pty (its working folder is the board's flash),
mpremote opens the second pty's device path. Both ends are raw (no echo, no line editing), like a USB CDC
serial port. A soft reset (Ctrl-D at the REPL) ends the unix port, so mpremote must attach with `resume`.

    with UnixBoard(folder) as port:
        subprocess.run([mpremote, "connect", port, "resume", "fs", "ls"])
"""
import os
import pty
import select
import subprocess
import threading
import tty


class UnixBoard:
    def __init__(self, folder, micropython, env=None):
        self.folder = str(folder)
        self.exe = micropython
        self.env = env
        self.proc = None
        self._stop = False

    def __enter__(self):
        self._m_board, s_board = pty.openpty()
        self._m_host, self._s_host = pty.openpty()
        tty.setraw(s_board)
        tty.setraw(self._s_host)
        self.proc = subprocess.Popen([self.exe], stdin=s_board, stdout=s_board, stderr=s_board, cwd=self.folder,
                                     env=self.env, close_fds=True)
        os.close(s_board)
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()
        return os.ttyname(self._s_host)

    def _relay(self):
        ends = (self._m_board, self._m_host)
        while not self._stop:
            ready, _, _ = select.select(ends, (), (), 0.2)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:  # the unix port exited (EIO on its pty)
                    return
                os.write(self._m_host if fd == self._m_board else self._m_board, data)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def __exit__(self, *exc):
        self._stop = True
        if self.alive():
            self.proc.kill()
        self.proc.wait(timeout=10)
        self._thread.join(timeout=5)
        for fd in (self._m_board, self._m_host, self._s_host):
            os.close(fd)
        return False
