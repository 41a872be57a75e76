#!/bin/sh
# SPDX-License-Identifier: MIT
#
# metrics_http.sh - the daemon's HTTP /metrics endpoint (metrics.listen), on
# the sim backend, against well-behaved and hostile clients:
#  - GET /metrics answers the metrics file byte for byte (200, Prometheus'
#    content type, its length); HEAD the same head and no body; a query
#    string is ignored;
#  - POST is 405, another path 404, a request line that is none 400, a head
#    past 4 KiB 431; nothing of the file in any of them;
#  - 8 clients that send half a request (slowloris) do not lock out a
#    scrape: the newcomer displaces the oldest, and each is closed at its
#    5 s deadline;
#  - clients that ask and never read their answer hold no slot past what
#    they take, and the control socket answers at once meanwhile;
#  - a flood of 200 connections leaves the daemon serving;
#  - a port another process holds is a warning, and the SM runs on.
# Clients are python3 (skipped, 77, without it).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd python3 "the test's HTTP clients"
make_workdir metrics_http
sm=
at_exit '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }

# a free port on loopback (bound by nobody when the daemon starts, most likely)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
db: $work/sm.db
socket: $work/sm.sock
metrics_file: $work/ibsmd.prom
metrics:
  listen: "$port"
sweep:
  interval: 1
perfmgr:
  interval: 1
EOC
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" -f >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "metrics endpoint: http://127.0.0.1:$port/metrics" 1 20 ||
	fail "no endpoint announced"
wait_for_log "$log" "subnet up" 1 20 || fail "the subnet did not come up"
i=0
while [ ! -s "$work/ibsmd.prom" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.5	# a counter pass: the file holds port counters

cat >"$work/client.py" <<'EOP'
import socket, sys, time

port = int(sys.argv[1])
prom = sys.argv[2]
sock_path = sys.argv[3]

def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)

def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s

def ask(request):
    s = connect()
    s.sendall(request)
    data = b""
    while True:
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), body

def header(head, name):
    for line in head.split("\r\n")[1:]:
        k, _, v = line.partition(":")
        if k.lower() == name.lower():
            return v.strip()
    return None

# GET: the file byte for byte (it is rewritten now and then: read it around)
for attempt in range(5):
    before = open(prom, "rb").read()
    head, body = ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
    after = open(prom, "rb").read()
    if body in (before, after):
        break
else:
    fail("GET /metrics is not the metrics file (%d bytes, the file %d)" % (len(body), len(after)))
if not head.startswith("HTTP/1.1 200 "):
    fail("GET: " + head)
if header(head, "Content-Type") != "text/plain; version=0.0.4; charset=utf-8":
    fail("content type: %r" % header(head, "Content-Type"))
if int(header(head, "Content-Length")) != len(body):
    fail("length %s, body %d" % (header(head, "Content-Length"), len(body)))
if b"\ninfiniband_switch_port_transmit_data_bytes_total{" not in body:
    fail("no port counters in the answer")
head, body = ask(b"HEAD /metrics?x=1 HTTP/1.0\r\n\r\n")
if not head.startswith("HTTP/1.1 200 ") or body or int(header(head, "Content-Length")) < 1000:
    fail("HEAD: %s / %d bytes of body" % (head, len(body)))

# refusals
for req, status in [(b"POST /metrics HTTP/1.1\r\n\r\n", "405"),
                    (b"GET / HTTP/1.1\r\n\r\n", "404"),
                    (b"GET /metrics/../../etc/passwd HTTP/1.1\r\n\r\n", "404"),
                    (b"GET /metricsx HTTP/1.1\r\n\r\n", "404"),
                    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", "400"),
                    (b"GET /metrics SMTP/2\r\n\r\n", "400"),
                    (b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 5000 + b"\r\n\r\n", "431")]:
    head, body = ask(req)
    if not head.startswith("HTTP/1.1 " + status + " "):
        fail("%r...: %s, not %s" % (req[:20], head.split("\r\n")[0], status))
    if b"ibsmd_" in body:
        fail("%r...: the metrics in a refusal" % req[:20])

# slowloris: 8 half requests, then a scrape still gets through
slow = []
for i in range(8):
    s = connect()
    s.sendall(b"GET /metrics HTTP/1.1\r\nX-Slow: ")
    slow.append(s)
time.sleep(0.2)
t0 = time.time()
head, body = ask(b"GET /metrics HTTP/1.1\r\n\r\n")
if not head.startswith("HTTP/1.1 200 ") or time.time() - t0 > 2:
    fail("a scrape behind 8 half requests: %s after %.1f s" % (head.split("\r\n")[0], time.time() - t0))
# ... and those left are closed at their deadline (5 s from their start)
for s in slow:
    s.settimeout(8)
    try:
        data = s.recv(100)
    except (socket.timeout, ConnectionResetError):
        data = b"timeout"
    if data == b"timeout":
        fail("a half request still open after its deadline")
    s.close()
if time.time() - t0 > 7:
    fail("the half requests were closed late")

# readers that never read: their answers wait in the socket buffers; the
# control socket and a scrape are served meanwhile
lazy = []
for i in range(4):
    s = connect()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b"GET /metrics HTTP/1.1\r\n\r\n")
    lazy.append(s)
time.sleep(0.3)
t0 = time.time()
c = socket.socket(socket.AF_UNIX)
c.settimeout(5)
c.connect(sock_path)
c.sendall(b"status\n")
status = c.recv(4096)
c.close()
if not status.startswith(b"ok: ") or time.time() - t0 > 1:
    fail("the control socket beside lazy readers: %r after %.2f s" % (status[:60], time.time() - t0))
head, body = ask(b"GET /metrics HTTP/1.1\r\n\r\n")
if not head.startswith("HTTP/1.1 200 "):
    fail("a scrape beside lazy readers: " + head)
for s in lazy:
    s.close()

# a flood: 200 connections at once, each answered or refused, never hung
flood = []
for i in range(200):
    try:
        s = connect()
        s.sendall(b"GET /metrics HTTP/1.1\r\n\r\n")
        flood.append(s)
    except OSError:
        pass
answered = 0
for s in flood:
    s.settimeout(10)
    try:
        first = s.recv(12)
    except (socket.timeout, ConnectionResetError):
        first = b""
    if first.startswith(b"HTTP/1.1 200") or first.startswith(b"HTTP/1.1 503"):
        answered += 1
    s.close()
if answered < 150:
    fail("only %d of %d flooding clients got an answer" % (answered, len(flood)))
head, body = ask(b"GET /metrics HTTP/1.1\r\n\r\n")
if not head.startswith("HTTP/1.1 200 "):
    fail("after the flood: " + head)
print("metrics_http: clients served as they should (%d of %d flooding clients answered)" % (answered, len(flood)))
EOP
python3 "$work/client.py" "$port" "$work/ibsmd.prom" "$work/sm.sock" || fail "the clients"
kill -0 "$sm" 2>/dev/null || fail "ibsmd died"

# a port already taken (another one: the clients' connections linger on the
# first): a warning, the SM runs on without the endpoint
kill -TERM "$sm" && wait "$sm" || fail "ibsmd did not stop cleanly"
sm=
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(15)' >"$work/held" &
holder=$!
at_exit "kill $holder 2>/dev/null"
i=0
while [ ! -s "$work/held" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
old=$port
port=$(cat "$work/held")
sed -i "s/listen: \"$old\"/listen: \"$port\"/" "$work/ibsmd.yaml"
: >"$log"
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" -f >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "subnet up" 1 20 || fail "the subnet did not come up beside a taken port"
grep -q "metrics endpoint 127.0.0.1:$port\|metrics endpoint $port: Address already in use" "$log" ||
	fail "no error about the taken port"
grep -q "running without the metrics endpoint" "$log" || fail "no warning"
kill -TERM "$sm" && wait "$sm" || fail "ibsmd did not stop cleanly"
sm=
echo "metrics_http: all passed"
