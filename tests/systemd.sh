#!/bin/sh
# SPDX-License-Identifier: MIT
#
# systemd.sh - `systemd-analyze verify` finds nothing to say about the unit,
# and `systemd-analyze security` rates its exposure at most 2.0 (of 10).
#
# The unit is generated from contrib/systemd/ibsmd.service.in the way `make`
# does, with ExecStart pointing at the ibsmd just built (verify wants the
# binary to exist) and the man pages it names found in the source tree.
# Skipped (77) without systemd-analyze.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
command -v systemd-analyze >/dev/null 2>&1 || { echo "SKIP: no systemd-analyze"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/systemd.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

sbindir=$(cd "$top_builddir" && pwd)
[ -x "$sbindir/ibsmd" ] || fail "no ibsmd built in $sbindir"
sed -e "s|@sbindir@|$sbindir|g" -e "s|@localstatedir@|/var|g" -e "s|@runstatedir@|/run|g" \
	"$top_srcdir/contrib/systemd/ibsmd.service.in" >"$work/ibsmd.service"
grep -q '@[a-z]*@' "$work/ibsmd.service" && fail "unsubstituted: $(grep '@[a-z]*@' "$work/ibsmd.service")"
for page in ibsmd.8 ibsmd.yaml.5 smquery.1; do
	section=${page##*.}
	mkdir -p "$work/man/man$section"
	cp "$top_srcdir/sm/$page" "$work/man/man$section/"
done

MANPATH=$work/man SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$work/ibsmd.service" \
	>"$work/verify.out" 2>&1
rc=$?
# other units on this machine may draw warnings of their own: keep ours
grep -i 'ibsmd' "$work/verify.out" >"$work/ours.out"
[ "$rc" -eq 0 ] && [ ! -s "$work/ours.out" ] ||
	fail "systemd-analyze verify (exit $rc): $(cat "$work/verify.out")"

# what the unit promises
for want in 'Type=notify' 'WatchdogSec=' 'ExecReload=/bin/kill -HUP $MAINPID' \
	'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' 'NoNewPrivileges=yes' \
	'CapabilityBoundingSet=' 'DevicePolicy=closed' 'DeviceAllow=char-infiniband_mad rw' \
	'StateDirectory=ibsmd' 'RuntimeDirectory=ibsmd'; do
	grep -qF "$want" "$work/ibsmd.service" || fail "the unit lacks $want"
done
grep -q '^PrivateNetwork' "$work/ibsmd.service" && fail "umad needs the host's network namespace"
# 1.6 when written: root, the infiniband_mad devices and the host's network stay
if systemd-analyze security --help 2>/dev/null | grep -q -- '--threshold'; then
	systemd-analyze security --offline=yes --threshold=20 "$work/ibsmd.service" \
		>"$work/security.out" 2>&1 ||
		fail "exposure above 2.0: $(tail -n 1 "$work/security.out")"
fi
echo "ok: systemd-analyze verify is clean"
