# SPDX-License-Identifier: MIT
# canon.awk - one canonical line per node and per port of an ibsim net file or
# of ibnetdiscover output, so the two can be compared with sort and cmp:
#     node NAME TYPE GUID          (GUID in lower-case hex, no leading zeros)
#     port NAME PORT PEERNAME PEERPORT
# NAME is the node description where the record has one (ibnetdiscover:
# `Switch 8 "S-0200..."  # "L0" ...`), else the quoted node id.

function hexnorm(s) {
	sub(/^0x/, "", s); sub(/\(.*$/, "", s); s = tolower(s); sub(/^0+/, "", s)
	return s
}

/^(switch|ca)guid=/ { g = $0; sub(/^[a-z]*=/, "", g); guid = hexnorm(g); next }
/^(Switch|Ca|Hca)[ \t]/ {
	id = $0; sub(/^[^"]*"/, "", id); sub(/".*$/, "", id)
	name = id
	if ($0 ~ /#[ \t]*"/) { name = $0; sub(/^[^#]*#[ \t]*"/, "", name); sub(/".*$/, "", name) }
	name_of[id] = name
	print "node", name, ($1 == "Switch" ? "switch" : "ca"), guid
	cur = name; next
}
/^\[/ {
	p = $0; sub(/^\[/, "", p); sub(/\].*$/, "", p)
	peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*$/, "", peer)
	q = $0; sub(/^[^"]*"[^"]*"\[/, "", q); sub(/\].*$/, "", q)
	np++; pn[np] = cur; pp[np] = p; ppeer[np] = peer; pq[np] = q
	next
}
END {
	for (i = 1; i <= np; i++)
		print "port", pn[i], pp[i], (ppeer[i] in name_of ? name_of[ppeer[i]] : "?" ppeer[i]), pq[i]
}
