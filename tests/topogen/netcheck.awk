# SPDX-License-Identifier: MIT
# netcheck.awk - structural check of one ibsim net file written by ibsmd-topogen.
#
# Reads the file, checks that: the first record is H0; every record has its own
# GUID line and GUIDs and names are unique; ports are within 1..NumPorts and
# listed once; every link is listed on both ends with matching ports; the
# hosts are H0..Hn-1 and, with -v hps=D (host ports per edge switch), host n
# sits on port n % D + 1 of the (n / D)-th edge switch in file order; the
# fabric is connected; the counts agree with the header comment.
# Prints "hosts=H switches=S links=L" on success, else the errors; exit 1.

function fail(msg) { print FILENAME ":" FNR ": " msg; bad = 1 }
function find(x,    r, t) {
	for (r = x; parent[r] != r; r = parent[r]) ;
	while (parent[x] != r) { t = parent[x]; parent[x] = r; x = t }
	return r
}

/^# [0-9]+ hosts, / { claimed = $2 " " $4 " " $6 }
/^(switch|ca)guid=/ {
	if ($0 in guids) fail("duplicate GUID " $0)
	guids[$0] = 1; pending_guid = 1; next
}
/^(Switch|Hca) / {
	if (!pending_guid) fail("record without a GUID line")
	pending_guid = 0
	name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name)
	if (name in nports) fail("duplicate node " name)
	nports[name] = $2 + 0; parent[name] = name
	if ($1 == "Switch") { nsw++; swidx[name] = nsw }
	else { nhca++; if (nhca == 1 && name != "H0") fail("first record is " name ", not H0") }
	if (nhca + nsw == 1 && $1 != "Hca") fail("first record is a switch")
	cur = name; next
}
/^\[/ {
	if (cur == "") fail("port line outside a record")
	line = $0
	p = line; sub(/^\[/, "", p); sub(/\].*$/, "", p); p += 0
	peer = line; sub(/^[^"]*"/, "", peer); sub(/".*$/, "", peer)
	q = line; sub(/^.*"\[/, "", q); sub(/\].*$/, "", q); q += 0
	if (p < 1 || p > nports[cur]) fail("port " p " out of range on " cur)
	if ((cur, p) in peer_of) fail("port " p " of " cur " listed twice")
	peer_of[cur, p] = peer; peerport_of[cur, p] = q
	ends++; next
}
/^$/ { cur = ""; next }
/^#/ { next }
{ fail("unexpected line: " $0) }

END {
	for (k in peer_of) {
		split(k, a, SUBSEP); n = a[1]; p = a[2]
		m = peer_of[k]; q = peerport_of[k]
		if (!(m in nports)) { fail("link to unknown node " m); continue }
		if (q < 1 || q > nports[m]) fail(n "[" p "] -> " m "[" q "]: no such port")
		else if (!((m, q) in peer_of) || peer_of[m, q] != n || peerport_of[m, q] != p)
			fail(n "[" p "] -> " m "[" q "] is not listed back")
		x = find(n); y = find(m); if (x != y) parent[x] = y
	}
	root = ""
	for (n in nports) {
		r = find(n)
		if (root == "") root = r
		else if (r != root) { fail("fabric is disconnected at " n); break }
	}
	for (h = 0; h < nhca; h++) {
		n = "H" h
		if (!(n in nports)) { fail("host " n " missing"); continue }
		if (!hps) continue
		sw = peer_of[n, 1]; want = h % hps + 1
		if (peerport_of[n, 1] != want) fail(n " on port " peerport_of[n, 1] " of " sw ", want " want)
		if (h % hps == 0) { order = swidx[sw]; if (order <= last) fail(n ": edge switch " sw " out of order"); last = order }
		else if (sw != peer_of["H" (h - h % hps), 1]) fail(n " not on the switch of H" (h - h % hps))
	}
	if (ends % 2) fail("odd number of port lines")
	if (claimed != nhca " " nsw " " ends / 2)
		fail("header says " claimed ", file has " nhca " " nsw " " ends / 2)
	if (bad) exit 1
	print "hosts=" nhca " switches=" nsw " links=" ends / 2
}
