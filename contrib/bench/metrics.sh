#!/bin/sh
# SPDX-License-Identifier: MIT
#
# metrics.sh - the Prometheus metrics at scale (`make bench`): the
# 27,648-host 3-level radix-48 fat tree brought up on the sim backend with a
# counter pass (bench_perf: every linked port counted, so every port has its
# series), then `smquery metrics` in four shapes: the default (treydock's
# names on the switch ports; data, wait, errors, info), every group on every
# port, ibsmd's names on every port (both ends on every series), and the
# default under a budget of 1,000,000 series.  For each: the series, the
# bytes, the CPU time (user + system), wall time and peak RSS of rendering
# (the daemon renders on a thread of its own: the loop never waits for it);
# beside them the series
# treydock/infiniband_exporter gives for the same fabric (switch collector,
# and with its HCA collector), counted from the store the same way
# tests/check_db_metrics.c does.  Printed and appended to
# $BENCH_OUT/metrics.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd sqlite3 "Debian package sqlite3"
out=${BENCH_OUT:-$top_builddir/bench-out}
mkdir -p "$out"
make_workdir bench-metrics
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
smq=$top_builddir/smquery

say() { echo "$*" | tee -a "$out/metrics.txt"; }

say "== metrics benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores"
"$topogen" fattree --levels 3 --radix 48 -o "$work/ft-27k.topo"
"$top_builddir/contrib/bench/bench_perf" "$work/ft-27k.topo" 1 "$work/27k.db" >"$work/perf.txt" 2>&1 ||
	{ cat "$work/perf.txt"; exit 1; }

# treydock's series: per switch 4; per linked switch port 22 counters, rate,
# raw rate, uplink_info; with the HCA collector, per linked CA port 22
# counters and 7 more
sqlite3 "$work/27k.db" "
	SELECT (SELECT count(*) FROM nodes WHERE type = 2) * 4
	       + (SELECT count(*) FROM ports p JOIN nodes n ON n.guid = p.node_guid
		  WHERE n.type = 2 AND p.port_num > 0 AND p.peer_guid IS NOT NULL) * 25,
	       (SELECT count(*) FROM ports p JOIN nodes n ON n.guid = p.node_guid
		WHERE n.type != 2 AND p.peer_guid IS NOT NULL) * 29" | tr '|' ' ' | {
	read -r sw hca
	say "treydock/infiniband_exporter for this fabric: $sw series (switches), $((sw + hca)) with its HCA collector"
}

# SHAPE OPTIONS...: render once, report
measure()
{
	shape=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$smq" --db "$work/27k.db" metrics "$@" \
		>"$work/m.prom"
	read -r secs user sys rss <"$work/time"
	series=$(grep -vc '^#' "$work/m.prom")
	bytes=$(wc -c <"$work/m.prom")
	omitted=$(sed -n 's/^ibsmd_metrics_series_omitted //p' "$work/m.prom")
	say "$(printf '%-30s %8s series %6.1f MB %5.2f s CPU %5.2f s wall %4d MB RSS%s' "$shape" \
		"$series" "$(echo "$bytes" | awk '{ print $1 / 1e6 }')" \
		"$(echo "$user $sys" | awk '{ print $1 + $2 }')" "$secs" "$((rss / 1024))" \
		"$([ "${omitted:-0}" = 0 ] || echo ", $omitted left out")")"
}
say "-- smquery metrics, 27,648 hosts"
measure "default (switch ports)"
measure "every group, every port" --ports switch-switch,switch-ca,ca \
	--counters data,casts,wait,errors,info
measure "ibsmd names, every port" --names ibsmd --ports switch-switch,switch-ca,ca
measure "default, max_series 1000000" --max-series 1000000
