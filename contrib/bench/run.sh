#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run.sh - `make bench`: cold bring-up of a 3-level fat tree under ibsim,
# ibsmd beside OpenSM, on the same fabric file in the same run.
#
# Data: one fabric from ibsmd-topogen (BENCH_SIZE=large: radix 32, 8,192
# hosts; small: radix 16, 1,024 hosts), and one result file of shell
# assignments per run under bench-out/ (BENCH_OUT).
# Flow: for each SM run (ibsmd --once on a fresh database, then
# `opensm -o -R ENGINE -n WIRE` for each of BENCH_OSM_ENGINES and each
# max_wire_smps of BENCH_OSM_WIRE), a fresh network namespace with a fresh
# ibsim on the file:
#  - ibsim's CPU time (utime+stime from /proc/PID/stat) before and after: the
#    floor, since ibsim serves every SMP;
#  - the SM under /usr/bin/time: wall time and peak RSS;
#  - PortXmitPkts of the SM's own port read with perfquery afterwards: every
#    MAD that left the SM's port (ibsim counts them; SMPs the SM sends to its
#    own node never leave it, and perfquery's own query adds one), the same
#    meter for both SMs;
#  - for ibsmd also its own count per phase and the phase times, from the
#    sweeps table (`smquery --json sweeps`) and its log.
# Then a table with the ratios ibsmd / OpenSM, and ibsmd's SMPs against the
# minimum of issue 4, computed from the fabric file (see fabric_minimum).
# The table goes to stdout and to bench-out/results.txt.
#
# Needs root (unshare -n), ibsim-utils, infiniband-diags (perfquery), GNU
# time (/usr/bin/time, Debian package "time") and, for the comparison,
# opensm.  Environment: top_srcdir, top_builddir (set by `make bench`),
# BENCH_SIZE, BENCH_OUT, BENCH_OSM_ENGINES (default "ftree minhop"),
# BENCH_OSM_WIRE (OpenSM's max_wire_smps settings, default "4 64": its
# default, and ibsmd's window), BENCH_TIMEOUT (seconds per SM run, default 900).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsmd=$top_builddir/ibsmd
smquery=$top_builddir/smquery
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
gnutime=/usr/bin/time

# ---------------------------------------------------------------------------
# The fabric and its SMP minimum.

# Counts of an ibsim (or ibnetdiscover) net file, as shell assignments:
# nodes, switches, cas, links, ca_ports (cabled CA ports), sw_ports (switch
# ports counting port 0), top_lid (one LID per switch and cabled CA port).
fabric_counts()
{
	awk '
	/^(Switch|Hca|Ca)[ \t]+[0-9]+[ \t]/ {
		type = $1; nodes++
		if (type == "Switch") { switches++; sw_ports += $2 + 1 } else cas++
		next
	}
	/^\[[0-9]+\]/ && /"/ {
		ends++
		if (type != "Switch") ca_ports++
	}
	END {
		printf "nodes=%d switches=%d cas=%d links=%d ca_ports=%d sw_ports=%d top_lid=%d\n",
			nodes, switches, cas, ends / 2, ca_ports, sw_ports, switches + ca_ports
	}' "$1"
}

# The fewest SMPs that bring the fabric up (issue 4: "LFT blocks up to
# LinearFDBTop, one probe per link, and only the PortInfo Sets that are
# needed"), counted as:
#  discovery: one NodeInfo per link plus the SM's own node, one
#    NodeDescription per node, one SwitchInfo per switch, one PortInfo per
#    switch port (port 0 included: nothing else tells which are cabled) and
#    per cabled CA port;
#  LFT: ceil((top LID + 1) / 64) blocks per switch, plus one SwitchInfo Set
#    (LinearFDBTop) per switch;
#  PortInfo Sets: the LID of each switch's port 0, then per link end one Set
#    that configures it (LID, SM LID, MTU, VLs) and arms it, and one that
#    makes it ACTIVE.
# Sets min_disc, min_lft, min_pi, min_total.
fabric_minimum()
{
	min_disc=$((links + 1 + nodes + switches + sw_ports + ca_ports))
	min_lft=$((switches * ((top_lid + 1 + 63) / 64) + switches))
	min_pi=$((switches + 4 * links))
	min_total=$((min_disc + min_lft + min_pi))
}

# ---------------------------------------------------------------------------
# One SM run, inside its own network namespace.  Writes $out/$kind.vars.

ibsim_cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$IBSIM_PID/stat"; }

# The last sweep's value of KEY inside the "smps" or "ms" object ($2).
sweep_field()
{
	grep -o "\"$2\":{[^}]*}" "$1" | tail -n 1 | grep -o "\"$3\":[0-9]*" | cut -d: -f2
}

run_inside()
{
	kind=$1 netfile=$2 out=$3
	shift 3
	# shellcheck source=../ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	vars=$out/$kind.vars
	make_workdir "bench-$kind"
	scratch=$work
	t0=$(date +%s.%N)
	IBSIM_TIMEOUT=300 ibsim_start "$netfile" "$@" || return 1
	echo "ibsim_load_s=$(awk "BEGIN { printf \"%.2f\", $(date +%s.%N) - $t0 }")" >"$vars"
	cpu0=$(ibsim_cpu_ticks)
	case $kind in
	ibsmd)
		set -- "$ibsmd" --backend umad --db "$scratch/ibsmd.db" --once
		log=$out/ibsmd.log
		;;
	opensm-*)	# opensm-ENGINE-wWIRE
		engine=${kind#opensm-}
		set -- opensm -o -R "${engine%-w*}" -n "${engine##*-w}" -f "$out/$kind.log"
		log=$out/$kind.stdout
		;;
	esac
	OSM_TMP_DIR=$scratch OSM_CACHE_DIR=$scratch ibsim_client \
		timeout "${BENCH_TIMEOUT:-900}" "$gnutime" -f '%e %M' -o "$out/$kind.time" \
		"$@" >"$log" 2>&1
	rc=$?
	cpu1=$(ibsim_cpu_ticks)
	xmit=$(ibsim_client perfquery 2>/dev/null | sed -n 's/^PortXmitPkts:\.*//p')
	ibsim_stop
	hz=$(getconf CLK_TCK)
	# GNU time prints "Command exited with non-zero status" first on failure.
	read -r wall rss_kb <<EOF
$(tail -n 1 "$out/$kind.time")
EOF
	{
		echo "rc=$rc wall=$wall rss_kb=$rss_kb port_xmit=${xmit:-?}"
		echo "ibsim_cpu=$(awk "BEGIN { printf \"%.2f\", ($cpu1 - $cpu0) / $hz }")"
	} >>"$vars"
	if [ "$kind" = ibsmd ]; then
		"$smquery" --db "$scratch/ibsmd.db" --json sweeps >"$out/ibsmd-sweeps.json" 2>&1
		for phase in discovery lid lft activate; do
			echo "smps_$phase=$(sweep_field "$out/ibsmd-sweeps.json" smps $phase)"
		done >>"$vars"
		for phase in discovery lid routing lft activate store; do
			echo "ms_$phase=$(sweep_field "$out/ibsmd-sweeps.json" ms $phase)"
		done >>"$vars"
		sed -n 's/.*subnet up in \([0-9]*\) ms.* \([0-9]*\) SMPs$/up_ms=\1 smps_total=\2/p' \
			"$log" | tail -n 1 >>"$vars"
		sed -n 's/.*discovery: .* \([0-9]*\) SMPs in \([0-9]*\) ms$/disc_log_smps=\1 disc_log_ms=\2/p' \
			"$log" | tail -n 1 >>"$vars"
	fi
	return 0
}

if [ "${1:-}" = __run ]; then
	shift
	run_inside "$@"
	exit $?
fi

# ---------------------------------------------------------------------------
# Outside: the fabric, the runs, the table.

die() { echo "bench: $*" >&2; exit 1; }

"$ibsim_ns" check >&2 || die "cannot run ibsim here (see above)"
[ -x "$gnutime" ] || die "$gnutime is missing (Debian package \"time\")"
command -v perfquery >/dev/null 2>&1 || die "perfquery is missing (Debian package infiniband-diags)"
for prog in "$ibsmd" "$smquery" "$topogen"; do
	[ -x "$prog" ] || die "$prog is not built (run make first)"
done
engines=${BENCH_OSM_ENGINES-ftree minhop}
wires=${BENCH_OSM_WIRE:-4 64}
if ! command -v opensm >/dev/null 2>&1; then
	echo "bench: opensm is not installed: ibsmd alone" >&2
	engines=
fi
# every OpenSM run: ENGINE-wWIRE
osm_runs=$(for e in $engines; do for w in $wires; do echo "$e-w$w"; done; done)

case ${BENCH_SIZE:-large} in
large) radix=32 ;;
small) radix=16 ;;
*) die "BENCH_SIZE must be large or small" ;;
esac
out=${BENCH_OUT:-bench-out}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
netfile=$out/fattree-3-$radix.net
"$topogen" fattree --levels 3 --radix $radix -o "$netfile" || die "ibsmd-topogen failed"
limits=$(sed -n 's/^# ibsim limits: //p' "$netfile" | head -n 1)
eval "$(fabric_counts "$netfile")"
fabric_minimum

for kind in ibsmd $(for r in $osm_runs; do echo "opensm-$r"; done); do
	echo "bench: $kind on the $cas-host fat tree ..." >&2
	rm -f "$out/$kind.vars"
	# shellcheck disable=SC2086 # the limits are words
	unshare -n /bin/sh "$0" __run "$kind" "$netfile" "$out" $limits </dev/null ||
		echo "bench: $kind: ibsim did not start" >&2
done

# $kind.vars -> K_name variables (K: a short prefix per run).
load() { [ -f "$out/$2.vars" ] && eval "$(sed "s/\([a-z_]*\)=/$1_\1=/g" "$out/$2.vars")"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "" && a != "?") printf "%.2f", a / b; else printf "-" }'; }
mb() { awk -v k="$1" 'BEGIN { if (k != "") printf "%.0f", k / 1024; else printf "-" }'; }

report()
{
	echo "ibsmd bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(ibsim -h 2>&1 | grep -o '^ibsim [0-9.]*'), $(opensm --version 2>/dev/null | grep -o 'OpenSM [0-9.]*' | head -n 1)"
	echo "fabric: 3-level fat tree, radix $radix: $cas hosts, $switches switches, $links links, top LID $top_lid"
	echo
	printf '%-18s %4s %9s %9s %9s %10s %10s %8s\n' run rc "wall s" "RSS MB" "SMPs" "port xmit" "ibsim CPU" "load s"
	load i ibsmd
	printf '%-18s %4s %9s %9s %9s %10s %10s %8s\n' ibsmd "${i_rc:--}" "${i_wall:--}" \
		"$(mb "${i_rss_kb:-}")" "${i_smps_total:--}" "${i_port_xmit:--}" "${i_ibsim_cpu:--}" "${i_ibsim_load_s:--}"
	for r in $osm_runs; do
		unset o_rc o_wall o_rss_kb o_port_xmit o_ibsim_cpu o_ibsim_load_s
		load o "opensm-$r"
		printf '%-18s %4s %9s %9s %9s %10s %10s %8s\n' "opensm $r" "${o_rc:--}" "${o_wall:--}" \
			"$(mb "${o_rss_kb:-}")" - "${o_port_xmit:--}" "${o_ibsim_cpu:--}" "${o_ibsim_load_s:--}"
	done
	echo
	echo "ibsmd per phase (sweeps table): SMPs discovery ${i_smps_discovery:--}, lid ${i_smps_lid:--}, lft ${i_smps_lft:--}, activate ${i_smps_activate:--};" \
		"ms discovery ${i_ms_discovery:--}, lid ${i_ms_lid:--}, routing ${i_ms_routing:--}, lft ${i_ms_lft:--}, activate ${i_ms_activate:--}," \
		"store ${i_ms_store:--} (LIDs are set while routing runs: the stages overlap);" \
		"subnet up in ${i_up_ms:--} ms"
	echo "ibsmd discovery (log): ${i_disc_log_smps:--} SMPs in ${i_disc_log_ms:--} ms"
	echo "SMP minimum (issue 4): discovery $min_disc + LFT $min_lft + PortInfo Sets $min_pi = $min_total;" \
		"ibsmd sent ${i_smps_total:--} ($(ratio "${i_smps_total:-}" "$min_total") x the minimum), discovery $(ratio "${i_smps_discovery:-}" "$min_disc") x"
	for r in $osm_runs; do
		unset o_wall o_rss_kb o_port_xmit
		load o "opensm-$r"
		echo "ibsmd / OpenSM $r: time $(ratio "${i_wall:-}" "${o_wall:-}"), SMPs (port xmit) $(ratio "${i_port_xmit:-}" "${o_port_xmit:-}")," \
			"peak RSS $(ratio "${i_rss_kb:-}" "${o_rss_kb:-}"), ibsmd discovery time / OpenSM bring-up $(ratio "${i_disc_log_ms:-}" "$(awk -v w="${o_wall:-0}" 'BEGIN { print w * 1000 }')")" \
			"(goals: time <= 0.6, RSS <= 0.33, discovery < 0.33)"
		echo "OpenSM $r: $(ratio "${o_port_xmit:-}" "$min_total") x the SMP minimum; ibsim CPU / wall $(ratio "${o_ibsim_cpu:-}" "${o_wall:-}")"
	done
	echo "ibsmd: ibsim CPU / wall $(ratio "${i_ibsim_cpu:-}" "${i_wall:-}")"
	echo
	echo "opensm ENGINE-wN: OpenSM with max_wire_smps N (-n N; 4 is its default); ibsmd: window" \
		"64, at most 4 per node (sweep.window, sweep.smps_per_node)."
	echo "wall: the SM process from start to exit (GNU time); RSS: its peak; SMPs: ibsmd's own count;"
	echo "port xmit: PortXmitPkts of the SM's port in ibsim afterwards (misses SMPs to the SM's own node,"
	echo "includes one perfquery MAD); ibsim CPU: ibsim's utime+stime during the SM run; load: ibsim start-up."
}

report | tee "$out/results.txt"
