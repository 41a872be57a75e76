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
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd systemd-analyze "the unit is checked with it"
make_workdir systemd
unit=$work/ibsmd.service

[ -x "$top_builddir/ibsmd" ] || { fail "no ibsmd built in $top_builddir"; finish; }
sed -e "s|@sbindir@|$top_builddir|g" -e "s|@ibsmdstatedir@|/var/lib/ibsmd|g" \
	-e "s|@ibsmdrundir@|/run/ibsmd|g" \
	"$top_srcdir/contrib/systemd/ibsmd.service.in" >"$unit"
grep -q '@[a-z]*@' "$unit" && fail "unsubstituted: $(grep '@[a-z]*@' "$unit")"
for page in sm/ibsmd.8 sm/ibsmd.yaml.5 sm/smquery/smquery.1; do
	sect=${page##*.}
	mkdir -p "$work/man/man$sect"
	cp "$top_srcdir/$page" "$work/man/man$sect/"
done

MANPATH=$work/man SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$unit" >"$work/verify.out" 2>&1
rc=$?
# other units on this machine may draw warnings of their own: keep ours
grep -i 'ibsmd' "$work/verify.out" >"$work/ours.out"
if [ "$rc" -ne 0 ] || [ -s "$work/ours.out" ]; then
	fail "systemd-analyze verify (exit $rc): $(cat "$work/verify.out")"
fi

# what the unit promises
# shellcheck disable=SC2016 # $MAINPID is for systemd, not this shell
for want in 'Type=notify' 'WatchdogSec=' 'ExecReload=/bin/kill -HUP $MAINPID' \
	'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' 'NoNewPrivileges=yes' \
	'CapabilityBoundingSet=' 'DevicePolicy=closed' 'DeviceAllow=char-infiniband_mad rw' \
	'StateDirectory=ibsmd' 'RuntimeDirectory=ibsmd'; do
	grep -qF "$want" "$unit" || fail "the unit lacks $want"
done
grep -q '^PrivateNetwork' "$unit" && fail "umad needs the host's network namespace"
# 1.6 when written: root, the infiniband_mad devices and the host's network stay
if systemd-analyze security --help 2>/dev/null | grep -q -- '--threshold'; then
	systemd-analyze security --offline=yes --threshold=20 "$unit" >"$work/security.out" 2>&1 ||
		fail "exposure above 2.0: $(tail -n 1 "$work/security.out")"
fi
finish
