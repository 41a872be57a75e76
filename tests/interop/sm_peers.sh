# SPDX-License-Identifier: MIT
#
# sm_peers.sh - helpers for the tests that run several SMs under one ibsim
# (ha.sh, ha-opensm.sh, ha-opensm-key.sh), after tests/lib.sh.  Before the
# namespace:
#
#   need_sm_peers [opensm]  skip (77) unless ibsim, sminfo and iblinkinfo (and
#                           OpenSM) are there
#
# Inside the namespace shell, after ibsim-ns.sh:
#
#   peers_fabric            the bundled fat tree the tests run on
#   fail MESSAGE            instead of lib.sh's (which counts and goes on):
#                           say why, show the logs, SIGKILL the SMs whose PIDs
#                           are in $a $b $ours $osm, stop ibsim, exit 1
#   ms                      the time in milliseconds
#   start_ibsmd NAME HOST [YAML_LINE...]
#                           an ibsmd daemon at HOST, its configuration the
#                           lines given (none: every default), its log in
#                           $work/NAME.log (level $LOGLEVEL, default info) and
#                           its store in $work/NAME.db; $! is ibsmd itself
#   start_opensm NAME HOST [OPTION_LINE...]
#                           OpenSM at HOST, its option file the lines given
#                           ("name value"; none: every default) and
#                           force_log_flush, so that its log can be waited
#                           on; its log in $work/NAME.log, $OSM_FLAGS added to
#                           its command line; $! is opensm itself
#   lid_of HOST             HOST's LID, decimal
#   smi [LID]               "STATE PRIORITY" of the SM at LID (default: the SM
#                           LID of H17's port), as sminfo from H17 reads them
#   wait_smi WANT SECONDS [LID]
#                           until smi [LID] prints WANT; false after SECONDS
#   one_master LID...       the SMs at these LIDs, as sminfo reads them: exactly
#                           one is MASTER (3), and H17's SM LID names it; prints
#                           the master's LID, or why not and returns 1
#   lids                    "LID port-state" of every CA port, as iblinkinfo
#                           reads them from the devices (from H17)
#   show_logs               the tail of every $work/*.log (notices and worse)

need_sm_peers() {
	need_ibsim
	need_cmd sminfo infiniband-diags
	need_cmd iblinkinfo infiniband-diags
	[ "${1:-}" != opensm ] || need_cmd opensm opensm
}

peers_fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

fail() {
	echo "FAIL: $*"
	show_logs
	# shellcheck disable=SC2086 # PIDs, or nothing
	kill -9 ${a:-} ${b:-} ${ours:-} ${osm:-} 2>/dev/null
	ibsim_stop
	exit 1
}

ms() { echo $(($(date +%s%N) / 1000000)); }

start_ibsmd() {
	_name=$1 _host=$2
	shift 2
	: >"$work/$_name.yaml"
	for _l in "$@"; do printf '%s\n' "$_l" >>"$work/$_name.yaml"; done
	(cd "$IBSIM_DIR" && SIM_HOST=$_host LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" \
		--config "$work/$_name.yaml" --backend umad --db "$work/$_name.db" \
		--control-socket "" --foreground --log-level "${LOGLEVEL:-info}" \
		>"$work/$_name.log" 2>&1) &
}

start_opensm() {
	_name=$1 _host=$2
	shift 2
	echo "force_log_flush TRUE" >"$work/$_name.conf"
	for _l in "$@"; do printf '%s\n' "$_l" >>"$work/$_name.conf"; done
	# shellcheck disable=SC2086 # OSM_FLAGS are words
	(cd "$IBSIM_DIR" && SIM_HOST=$_host LD_PRELOAD=$IBSIM_PRELOAD OSM_TMP_DIR=$work \
		OSM_CACHE_DIR=$work exec opensm ${OSM_FLAGS:-} -F "$work/$_name.conf" \
		-f "$work/$_name.log" >"$work/$_name.out" 2>&1) &
}

lid_of() {
	echo $((0x$(SIM_HOST=$1 ibsim_client ibaddr 2>/dev/null |
		sed -n 's/.*LID start 0x\([0-9a-f]*\).*/\1/p')))
}

smi() {
	SIM_HOST=H17 ibsim_client sminfo "$@" 2>&1 |
		sed -n 's/.*priority \([0-9]*\) state \([0-9]\).*/\2 \1/p'
}

wait_smi() {
	_n=$(($2 * 20))
	while [ "$(smi ${3:-})" != "$1" ]; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || return 1
		sleep 0.05
	done
}

one_master() {
	_m= _all=
	for _lid in "$@"; do
		_s=$(smi "$_lid")
		_all="$_all LID $_lid: ${_s:-no answer};"
		case $_s in
		"3 "*) [ -z "$_m" ] || { echo "two masters:$_all"; return 1; }; _m=$_lid ;;
		esac
	done
	[ -n "$_m" ] || { echo "no master:$_all"; return 1; }
	_at=$(SIM_HOST=H17 ibsim_client sminfo 2>&1 | sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p')
	[ "$_at" = "$_m" ] || { echo "H17's SM LID is ${_at:-?}, the master is LID $_m:$_all"; return 1; }
	echo "$_m"
}

lids() {
	SIM_HOST=H17 ibsim_client iblinkinfo 2>/dev/null |
		awk '/^CA:/ { ca = 1; next } /^Switch:/ { ca = 0 }
		     ca && /==/ { print $1, $2, (/Active\// ? "Active" : "not-active") }' | sort
}

show_logs() {
	for _f in "$work"/*.log; do
		echo "--- $_f:"
		grep -v " info: \| debug: " "$_f" | tail -n 12
	done
}
