"""A small LSP client over a skc-lsp process's stdin and stdout, for the
random-edit test: framing, requests, and waiting for the diagnostics of a
document's version."""

import json
import queue
import subprocess
import threading
import time


class ServerGone(Exception):
    pass


class Client:
    def __init__(self, command, stderr):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=stderr)
        self.messages = queue.Queue()
        self.next_id = 1
        self.published = {}  # uri -> (version, diagnostics)
        self.publish_count = 0
        self.replies = {}
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.process.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    with self.lock:
                        self.lock.notify_all()
                    return
                header += byte
            length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            message = json.loads(out.read(length))
            with self.lock:
                if message.get("method") == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self.published[params["uri"]] = (params.get("version"),
                                                     params["diagnostics"])
                    self.publish_count += 1
                elif "id" in message and "method" not in message:
                    self.replies[message["id"]] = message
                self.lock.notify_all()

    def send(self, message):
        body = json.dumps(message).encode()
        try:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body)
                                     + body)
            self.process.stdin.flush()
        except BrokenPipeError:
            raise ServerGone("skc-lsp stopped reading")

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id, "method": method,
                   "params": params})
        return id

    def wait(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate():
                if self.process.poll() is not None:
                    raise ServerGone("skc-lsp exited (%d) waiting for %s"
                                     % (self.process.returncode, what))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no %s in %d s" % (what, timeout))
                self.lock.wait(left)

    def wait_for_reply(self, id, timeout=60):
        self.wait(lambda: id in self.replies, timeout, "reply to %d" % id)
        return self.replies.pop(id)

    def wait_for_version(self, uri, version, timeout=60):
        self.wait(lambda: self.published.get(uri, (None,))[0] == version,
                  timeout, "diagnostics of %s version %d" % (uri, version))
        return self.published[uri][1]
