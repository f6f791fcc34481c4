"""report.html as Chromium renders it, asked through the DevTools protocol
(a WebSocket client from Python's standard library: no PyPI), against the
bundle's manifest.json beside it.

    report_in_chromium.py CHROMIUM BUNDLE_DIR

Prints one line per fact: the graph's boxes and whether each label fits
its box as rendered; the layers table's rows, visible ones, and any
element that scrolls inside the page (a pane); sorting by a click on a
heading (text and numbers, both directions); the placement filter and the
text search. Exit 1 when Chromium cannot be driven.
"""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request


class WebSocket:
    """A client WebSocket (RFC 6455): text frames out (masked), whole
    messages in (fragments joined, pings answered)."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n"
                           % (u.path, u.hostname, u.port, key)).encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("the WebSocket handshake was cut")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise OSError("no WebSocket upgrade: %r" % head[:200])

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise OSError("the WebSocket closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def _frame(self, opcode, data):
        header = bytearray([0x80 | opcode])
        n = len(data)
        if n < 126:
            header.append(0x80 | n)
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def send(self, text):
        self._frame(0x1, text.encode())

    def receive(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping
                self._frame(0xA, data)
                continue
            if opcode == 0x8:
                raise OSError("the browser closed the WebSocket")
            message += data
            if b0 & 0x80:
                return message.decode()


class Page:
    """One page of a headless Chromium: navigate, evaluate JavaScript."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="report-chromium-")
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-port=0", "--user-data-dir=" + self.profile,
             "--window-size=1400,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 60
        while port is None and time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                break
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
        if port is None:
            self.close()
            sys.exit("chromium did not open its DevTools port")
        pages = json.load(urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port))
        url = next(p["webSocketDebuggerUrl"] for p in pages if p.get("type") == "page")
        self.ws = WebSocket(url)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply["result"]

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expression[:80], r["exceptionDetails"]))
        return r["result"].get("value")

    def open(self, url):
        self.call("Page.navigate", url=url)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.eval("document.readyState + ' ' + location.href") == "complete " + url:
                return
            time.sleep(0.1)
        raise RuntimeError("%s did not load" % url)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# The rows of a table as the page shows them: [visible, cells...].
ROWS = """Array.from(document.querySelectorAll('#%s tbody tr')).map(r =>
  [r.offsetHeight > 0 && !r.hidden].concat(Array.from(r.cells).map(c => c.textContent)))"""


def column(page, table, heading):
    return page.eval("Array.from(document.querySelectorAll('#%s thead th')).findIndex("
                     "h => h.textContent === %s)" % (table, json.dumps(heading)))


def click(page, table, index):
    page.eval("document.querySelectorAll('#%s thead th')[%d].click()" % (table, index))


def main():
    chromium, bundle = sys.argv[1], os.path.abspath(sys.argv[2])
    manifest = json.load(open(os.path.join(bundle, "manifest.json")))
    layers = manifest["layers"]
    page = Page(chromium)
    try:
        page.open("file://" + os.path.join(bundle, "report.html"))
        # The graph: a box per layer, its op and name on it, inside it as drawn.
        boxes = page.eval("""Array.from(document.querySelectorAll('svg.graph g.node')).map(g => {
            const r = g.querySelector('rect'), t = Array.from(g.querySelectorAll('text'));
            return [t.map(x => x.textContent),
                    t.every(x => x.getComputedTextLength() <= r.width.baseVal.value - 4)];
        })""")
        print("graph: %d boxes for %d layers, %d with op and name, %d labels wider than their box"
              % (len(boxes), len(layers), sum(1 for t, _ in boxes if len(t) == 2 and all(t)),
                 sum(1 for _, fits in boxes if not fits)))
        names = {l["name"] for l in layers}
        ops = {(l["op"] + (" " + l["mode"] if l.get("mode") else "")) for l in layers}
        labelled = sum(1 for (op, name), _ in boxes
                       if (op in ops or op.endswith("\u2026")) and (name in names or name.endswith("\u2026")))
        print("graph labels naming a layer's op and name: %d" % labelled)
        for (op, name), _ in boxes[:3]:
            print("box: %s | %s" % (op, name))
        # The whole network in the table, nothing in a scrolling pane.
        rows = page.eval(ROWS % "layers")
        print("layers table: %d rows, %d visible, manifest %d" % (
            len(rows), sum(1 for r in rows if r[0]), len(layers)))
        panes = page.eval("""Array.from(document.querySelectorAll('body *')).filter(e => {
            const s = getComputedStyle(e);
            return /(auto|scroll)/.test(s.overflowY + s.overflowX) &&
                   (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1);
        }).length""")
        print("elements that scroll inside the page: %d" % panes)
        boxed = page.eval("""(() => { const out = [];
            for (let e = document.getElementById('layers').parentElement; e !== document.body;
                 e = e.parentElement) {
              const s = getComputedStyle(e);
              if (/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX) || s.maxHeight !== 'none')
                out.push(e.tagName);
            }
            return out.length; })()""")
        print("layers table inside a pane: %s" % bool(boxed))
        # Sorting: op ascending, then descending; a numeric column.
        op = column(page, "layers", "op")
        for direction in ("ascending", "descending"):
            click(page, "layers", op)
            got = [r[1 + op] for r in page.eval(ROWS % "layers")]
            want = sorted((l["op"] for l in layers), reverse=direction == "descending")
            print("layers by op %s: %s (aria-sort %s)" % (
                direction, got == want,
                page.eval("document.querySelectorAll('#layers thead th')[%d]"
                          ".getAttribute('aria-sort')" % op)))
        if manifest["weights"]:
            b = column(page, "weights", "bytes")
            click(page, "weights", b)
            got = [int(r[1 + b]) for r in page.eval(ROWS % "weights")]
            print("weights by bytes ascending: %s" % (got == sorted(w["bytes"] for w in manifest["weights"])))
        # The placement filter and the search.
        for placement in ("host", "accelerator", ""):
            page.eval("(() => { const s = document.getElementById('placement-filter'); s.value = %s; "
                      "s.dispatchEvent(new Event('change')); })()" % json.dumps(placement))
            rows = page.eval(ROWS % "layers")
            shown = [r for r in rows if r[0]]
            place = column(page, "layers", "placement")
            want = sum(1 for l in layers if not placement or l["placement"] == placement)
            print("filter '%s': %d rows shown, %d in the manifest, all of it: %s; %s" % (
                placement or "all", len(shown), want,
                all(not placement or r[1 + place] == placement for r in shown),
                page.eval("document.getElementById('layers-shown').textContent")))
        first = layers[-1]["name"]
        page.eval("(() => { const q = document.getElementById('layer-search'); q.value = %s; "
                  "q.dispatchEvent(new Event('input')); })()" % json.dumps(first))
        shown = [r for r in page.eval(ROWS % "layers") if r[0]]
        print("search '%s': %d rows shown, each holding it: %s" % (
            first, len(shown), all(any(first in c for c in r[1:]) for r in shown)))
    finally:
        page.close()


if __name__ == "__main__":
    main()
