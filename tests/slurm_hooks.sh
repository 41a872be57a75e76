#!/bin/sh
# SPDX-License-Identifier: MIT
#
# slurm_hooks.sh - contrib/slurm's PrologSlurmctld/EpilogSlurmctld hook and
# the SM host's forced-command gate, run in the very environment slurmctld
# gives them (env -i: the SLURM_* variables and no PATH), against ibsmd on
# the sim backend (a rail-optimised tree whose nodes are node0..node31).
#
# - the prolog expands SLURM_JOB_NODELIST with the real `scontrol show
#   hostnames` (Debian's slurm-client; it exits 0 on a list it cannot parse,
#   so its lines are checked), picks the pattern from the job's
#   comment, and the job runs in ibsmd, hosts in the nodelist's order; the
#   epilog ends it;
# - through ssh (a stand-in ssh that runs the gate as sshd's forced command
#   would, SSH_ORIGINAL_COMMAND set): one SM answers, the other hangs; the
#   hook still exits 0 within its timeout, and says so;
# - ibsmd down, scontrol failing, no job id: exit 0, a message, no delay;
# - the gate refuses every request but "job start NAME PATTERN" and "job end
#   NAME": shell characters, other commands, a pattern it does not know.
# Skips (77) without scontrol.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# The hooks are shell; the plain suite runs them.  Under the sanitizer build
# (contrib/setup/sanitize.sh sets ASAN_OPTIONS) the daemon's job start
# outlasts the hooks' per-SM timeout and the test measures that, not the hooks.
[ -z "${ASAN_OPTIONS:-}" ] || skip "the hooks are tested in the plain build (sanitizer build here)"
need_cmd scontrol "Debian's slurm-client expands SLURM_JOB_NODELIST"
need_cmd timeout "coreutils"
make_workdir slurm_hooks
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
log=$work/ibsmd.log
hook=$top_srcdir/contrib/slurm/ibsmd-slurm-hook
gate=$top_srcdir/contrib/slurm/ibsmd-job-gate
die() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
db() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 --rails 4 \
	-o "$work/rails.topo" || die "topogen"
sim_daemon_start "$work/rails.topo" "$log"
rc=$?
sm=$sim_daemon
[ "$rc" -eq 0 ] || die "no 'subnet up'"

# scontrol reads a slurm.conf even to expand a list: the controller's
cat >"$work/slurm.conf" <<EOC
ClusterName=c1
SlurmctldHost=localhost
NodeName=node[0-31] CPUs=1 State=UNKNOWN
PartitionName=gpu Nodes=node[0-31] Default=YES State=UP
EOC
cat >"$work/hook.conf" <<EOC
export SLURM_CONF=$work/slurm.conf
IBSMD_SOCKET=$work/sm.sock
IBSMD_SMQUERY=$top_builddir/smquery
IBSMD_TIMEOUT=3
EOC
# what slurmctld (Debian 12's, 22.05) sets for PrologSlurmctld, as
# tests/slurm_real.sh saw it; EpilogSlurmctld adds the exit codes
run_hook() { # CONTEXT [VAR=VALUE...]
	ctx=$1
	shift
	env -i PWD=/var/spool/slurmctld SLURM_CLUSTER_NAME=c1 SLURM_JOBID=4242 \
		SLURM_JOB_ACCOUNT='(null)' SLURM_JOB_COMMENT='ibsmd-pattern=alltoall' \
		SLURM_JOB_CPUS_PER_NODE='1(x5)' SLURM_JOB_GID=1000 SLURM_JOB_GROUP=alice \
		SLURM_JOB_ID=4242 SLURM_JOB_NAME=train SLURM_JOB_NODELIST='node[12,5-7],node2' \
		SLURM_JOB_NUM_NODES=5 SLURM_JOB_PARTITION=gpu SLURM_JOB_RESTART_COUNT=0 \
		SLURM_JOB_STDIN=/dev/null SLURM_JOB_UID=1000 SLURM_JOB_USER=alice \
		SLURM_JOB_WORK_DIR=/home/alice SLURM_SCRIPT_CONTEXT="$ctx" \
		IBSMD_SLURM_CONF="$work/hook.conf" "$@" /bin/sh "$hook" >"$work/hook.out" 2>&1
}

run_hook prolog_slurmctld || fail "the prolog exited $?: $(cat "$work/hook.out")"
grep -q "job slurm-c1-4242 start (alltoall) on local: ok: job slurm-c1-4242 started: 5 hosts, 20 endpoints" \
	"$work/hook.out" || fail "the prolog said: $(cat "$work/hook.out")"
out=$(db jobs)
[ "$out" = "slurm-c1-4242 alltoall 5 hosts (node12 ...)" ] || fail "stored: $out"
out=$(db --json jobs)
echo "$out" | grep -q '"pattern":"alltoall"' || fail "stored (json): $out"
run_hook epilog_slurmctld || fail "the epilog exited $?"
grep -q "job slurm-c1-4242 end (alltoall) on local: ok: job slurm-c1-4242 ended" "$work/hook.out" ||
	fail "the epilog said: $(cat "$work/hook.out")"
[ -z "$(db jobs)" ] || fail "the job is still stored after the epilog"

# over ssh: smA answers (its gate runs), smB never does
cat >"$work/fake-ssh" <<EOS
#!/bin/sh
# as sshd with command="ibsmd-job-gate" would: the last word is the request
for a; do last=\$a; done
case "\$*" in
*ibsmd-jobs@smB*) sleep 60 ;;
esac
SSH_ORIGINAL_COMMAND=\$last IBSMD_SOCKET=$work/sm.sock IBSMD_SMQUERY=$top_builddir/smquery \
	exec /bin/sh $gate
EOS
chmod +x "$work/fake-ssh"
cat >>"$work/hook.conf" <<EOC
IBSMD_SM_HOSTS="smA smB"
IBSMD_SSH=$work/fake-ssh
EOC
t0=$(date +%s)
run_hook prolog_slurmctld SLURM_JOB_COMMENT= || fail "the prolog over ssh exited $?"
t1=$(date +%s)
[ $((t1 - t0)) -le 8 ] || fail "the prolog took $((t1 - t0)) s with a silent SM"
grep -q "job slurm-c1-4242 start (ring) on smA: ok: job slurm-c1-4242 started" "$work/hook.out" ||
	fail "smA: $(cat "$work/hook.out")"
grep -q "job slurm-c1-4242 start on smB: no answer within 3s" "$work/hook.out" ||
	fail "smB: $(cat "$work/hook.out")"
[ "$(db jobs)" = "slurm-c1-4242 ring 5 hosts (node12 ...)" ] || fail "stored over ssh: $(db jobs)"
run_hook epilog_slurmctld || fail "the epilog over ssh exited $?"
[ -z "$(db jobs)" ] || fail "the job is still stored after the epilog over ssh"

# never a failed job: ibsmd down, scontrol failing, no job id
kill -TERM "$sm"
wait "$sm"
sm=
sed -i '/IBSMD_SM_HOSTS\|IBSMD_SSH=/d' "$work/hook.conf"
run_hook prolog_slurmctld || fail "the prolog failed the job with ibsmd down"
grep -q "start on local failed" "$work/hook.out" || fail "ibsmd down: $(cat "$work/hook.out")"
for bad in 'node[1-' 'node[5-2]'; do
	run_hook prolog_slurmctld SLURM_JOB_NODELIST="$bad" ||
		fail "the prolog failed the job on nodelist $bad"
	grep -q "scontrol show hostnames failed" "$work/hook.out" ||
		fail "nodelist $bad: $(cat "$work/hook.out")"
done
run_hook prolog_slurmctld SLURM_JOB_ID= || fail "the prolog failed a job without an id"
grep -q "no job id: nothing done" "$work/hook.out" || fail "no id: $(cat "$work/hook.out")"
run_hook "" || fail "the hook failed outside Slurm's contexts"

# the gate: nothing but job start/end reaches the socket
for req in "job start x ring; reboot" "job start x \$(id)" "resweep" "job start x zigzag" \
	"job start -x ring" "job end ../x" "job link restore a 1" "job start x ring extra" \
	"job end" ""; do
	SSH_ORIGINAL_COMMAND=$req IBSMD_SOCKET=$work/none IBSMD_SMQUERY=/bin/false \
		/bin/sh "$gate" </dev/null >"$work/gate.out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q "refused" "$work/gate.out" ||
		fail "the gate on '$req': status $rc, $(cat "$work/gate.out")"
done
finish
