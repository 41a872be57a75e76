# SPDX-License-Identifier: MIT
#
# sm_peers.sh - helpers for the tests that run several SMs under one ibsim
# (ha.sh, ha-opensm.sh).  Sourced inside the namespace shell, after
# ibsim-ns.sh and ibsim_start:
#
#   ms                      the time in milliseconds
#   start_ibsmd NAME HOST PRIORITY KEY
#                           an ibsmd daemon at HOST with that priority and
#                           SM_Key, light sweeps every second, its log in
#                           $work/NAME.log (level $LOGLEVEL, default info) and
#                           its store in $work/NAME.db; $! is ibsmd itself
#   lid_of HOST             HOST's LID, decimal
#   smi [LID]               "STATE PRIORITY" of the SM at LID (default: the SM
#                           LID of H17's port), as sminfo from H17 reads them
#   wait_smi WANT SECONDS [LID]
#                           until smi [LID] prints WANT; false after SECONDS
#   show_logs               the tail of every $work/*.log (notices and worse)

ms() { echo $(($(date +%s%N) / 1000000)); }

start_ibsmd() {
	printf 'sm_priority: %s\nsm_key: %s\nsweep:\n  interval: 1\n' "$3" "$4" >"$work/$1.yaml"
	(cd "$IBSIM_DIR" && SIM_HOST=$2 LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" \
		--config "$work/$1.yaml" --backend umad --db "$work/$1.db" --control-socket "" \
		--foreground --log-level "${LOGLEVEL:-info}" >"$work/$1.log" 2>&1) &
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

show_logs() {
	for _f in "$work"/*.log; do
		echo "--- $_f:"
		grep -v " info: \| debug: " "$_f" | tail -n 12
	done
}
