#!/bin/sh
# SPDX-License-Identifier: MIT
#
# slurm_real.sh - a real Slurm on this machine (Debian's slurmctld, slurmd,
# munge): a controller and one compute node (node3), whose
# PrologSlurmctld/EpilogSlurmctld is contrib/slurm's hook, beside ibsmd on
# the sim backend (a rail-optimised tree whose nodes are node0..node31).
# A batch job submitted with `--comment ibsmd-pattern=halving-doubling`
# must run in ibsmd while it runs (job slurm-ibsmdtest-ID, 4 HCAs of node3),
# and be gone from ibsmd once it ended.  Everything runs in the work
# directory, on ports of its own; munged with --force (the test is root).
# Skips (77) without those programs, or when not root (slurmd is).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# The hooks are shell; the plain suite runs them.  Under the sanitizer build
# (contrib/setup/sanitize.sh sets ASAN_OPTIONS) the daemon's job start
# outlasts the hooks' per-SM timeout and the test measures that, not the hooks.
[ -z "${ASAN_OPTIONS:-}" ] || skip "the hooks are tested in the plain build (sanitizer build here)"
for c in slurmctld slurmd munged sbatch squeue scontrol; do
	need_cmd "$c" "Debian's slurmctld, slurmd, slurm-client and munge"
done
[ "$(id -u)" = 0 ] || skip "slurmd runs as root"
make_workdir slurm_real
chmod 755 "$work"	# munged checks the socket's directories
pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'
log=$work/ibsmd.log
die() { echo "FAIL: $*"; for f in "$log" "$work"/log/*; do echo "== $f"; tail -n 15 "$f"; done; exit 1; }
ctl() { "$top_builddir/smquery" --socket "$work/sm.sock" "$@"; }

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 --rails 4 \
	-o "$work/rails.topo" || die "topogen"
sim_daemon_start "$work/rails.topo" "$log"
rc=$?
pids="$pids $sim_daemon"
[ "$rc" -eq 0 ] || die "no 'subnet up'"

mkdir -p "$work/state" "$work/spool" "$work/log"
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$work/munge.key"
munged -f --socket="$work/munge.sock" --key-file="$work/munge.key" \
	--log-file="$work/log/munged.log" --pid-file="$work/munged.pid" \
	--seed-file="$work/munged.seed" || die "munged did not start"
pids="$pids $(cat "$work/munged.pid")"
port=$((20000 + $$ % 20000))
# slurmctld gives the hooks no PATH and no settings: this wrapper names the
# hook's configuration, as /etc/ibsmd/slurm-hook.conf would
cat >"$work/hook.conf" <<EOC
export SLURM_CONF=$work/slurm.conf
IBSMD_SOCKET=$work/sm.sock
IBSMD_SMQUERY=$top_builddir/smquery
EOC
printf '#!/bin/sh\nIBSMD_SLURM_CONF=%s exec /bin/sh %s\n' "$work/hook.conf" \
	"$top_srcdir/contrib/slurm/ibsmd-slurm-hook" >"$work/hook"
chmod 755 "$work/hook"
cat >"$work/slurm.conf" <<EOC
ClusterName=ibsmdtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
ReturnToService=2
PrologSlurmctld=$work/hook
EpilogSlurmctld=$work/hook
NodeName=node3 NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=1 State=UNKNOWN
PartitionName=p Nodes=node3 Default=YES State=UP
EOC
SLURM_CONF=$work/slurm.conf
export SLURM_CONF
(cd "$work" && exec slurmctld -D -i >"$work/log/slurmctld.out" 2>&1) &
pids="$pids $!"
(cd "$work" && exec slurmd -D -N node3 >"$work/log/slurmd.out" 2>&1) &
pids="$pids $!"
for _ in $(seq 100); do
	scontrol show node node3 2>/dev/null | grep -q "State=IDLE" && break
	sleep 0.2
done
scontrol show node node3 2>/dev/null | grep -q "State=IDLE" || die "node3 never became idle"

id=$(cd "$work" && sbatch --parsable --comment=ibsmd-pattern=halving-doubling -J train \
	--wrap "sleep 4") || die "sbatch failed"
seen=
for _ in $(seq 100); do
	out=$(ctl job list)
	case "$out" in
	*"slurm-ibsmdtest-$id (halving-doubling, 1 hosts, routed)"*) seen=1; break ;;
	esac
	sleep 0.1
done
[ -n "$seen" ] || die "the running job $id was not in ibsmd: $(ctl job list)"
grep -q "job slurm-ibsmdtest-$id started: 1 hosts, 4 endpoints" "$log" ||
	fail "the SM's log has no start of 4 endpoints"
for _ in $(seq 150); do
	[ "$(ctl job list)" = "ok: 0 jobs" ] && break
	sleep 0.1
done
[ "$(ctl job list)" = "ok: 0 jobs" ] || die "the ended job is still in ibsmd: $(ctl job list)"
grep -q "job slurm-ibsmdtest-$id ended" "$log" || fail "the SM's log has no end"
echo "ok: a Slurm batch job came and went through PrologSlurmctld/EpilogSlurmctld"
finish
