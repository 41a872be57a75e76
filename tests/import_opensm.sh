#!/bin/sh
# SPDX-License-Identifier: MIT
#
# import_opensm.sh - `ibsmd --import-opensm FILE` end to end.
#
#  - OpenSM's own `opensm -c` output, as it is: converted, and the result
#    passes `ibsmd --check-config` (skipped without opensm);
#  - an opensm.conf set away from OpenSM's defaults: every key with a
#    counterpart carried (routing_engine with engines ibsmd lacks, minhop
#    last; root, compute-node and LFT files as routing options, kept only
#    when the chain reads them and they exist; the performance manager;
#    log_flags; partitions; OpenSM's guid2lid cache; the SM's port), each
#    under the OpenSM line it came from; keys without a counterpart and keys
#    OpenSM lacks listed at the end and told on standard error; a key given
#    twice, the later counting; and --check-config accepts the result,
#    reading the partitions.conf and guid2lid files it names;
#  - worst input: a huge line, a NUL byte, a control character, a value
#    ibsmd refuses, a YAML file, an empty file, a directory, /dev/zero, a
#    path that is not there: exit status 1 with the reason, nothing on
#    standard output, a secret never echoed (a bad sm_key, OpenSM's SA_Key,
#    which has no counterpart; CC_Key only as the value of its key); bytes
#    past ASCII in a value left out are escaped, so the output still reads;
#  - congestion control: the cc_* keys carried, the CA's per-SL lines as
#    SL:VALUE lists, worst values refused.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir import_opensm
ibsmd() { "$top_builddir/ibsmd" "$@"; }

# import FILE OUT: converted into OUT.yaml (standard error in OUT.err), exit 0
import() {
	ibsmd --import-opensm "$1" >"$2.yaml" 2>"$2.err" ||
		{ fail "--import-opensm $1: $(cat "$2.err")"; return 1; }
	ibsmd --check-config -c "$2.yaml" >"$2.check" 2>&1 ||
		fail "--check-config refuses the import of $1: $(cat "$2.check")"
}

if command -v opensm >/dev/null 2>&1; then
	opensm -c "$work/opensm.conf" >/dev/null 2>&1 || fail "opensm -c"
	if import "$work/opensm.conf" "$work/defaults"; then
		grep -qx "sm_key: 0x0000000000000001" "$work/defaults.yaml" ||
			fail "OpenSM's sm_key not carried: $(grep sm_key "$work/defaults.yaml")"
		grep -qx "routing: \[minhop\]" "$work/defaults.yaml" || fail "routing_engine (null): not minhop"
		grep -q "^  window: 64$" "$work/defaults.yaml" || fail "max_wire_smps 4 made the window 4"
		echo "ok: opensm -c's output: $(tail -2 "$work/defaults.err" | head -1 | sed 's/^ibsmd: [^ ]*: //')"
	fi
else
	echo "note: opensm is not installed: its own opensm -c output not converted"
fi

# a site's opensm.conf, set away from the defaults
mkdir -p "$work/cache"
printf '0x0200000100000001 0x0001 0x0001\n\n' >"$work/cache/guid2lid"
printf 'Default=0x7fff, ipoib : ALL=full ;\nblue=0x1 : 0x0200000100000011=full ;\n' \
	>"$work/partitions.conf"
printf '0x0200000200000080\n' >"$work/roots"
cat >"$work/site.conf" <<EOF
# a site's opensm.conf
guid 0x0200000100000001
sm_key 0x00000000000000ab
sm_priority 7
lmc 2
m_key 0x1234
head_of_queue_lifetime 0x13
force_link_width 5
partition_config_file $work/partitions.conf
routing_engine ftree,lash,updn
root_guid_file $work/roots
cn_guid_file $work/nosuch
lfts_file $work/lfts.dump
sweep_interval 20
sweep_interval 30
reassign_lids FALSE
perfmgr TRUE
perfmgr_sweep_time_s 45
max_wire_smps 16
log_flags 0x0f
log_file $work/opensm-site.log
qos TRUE
bogus_key 1 2 3
EOF
if OSM_CACHE_DIR=$work/cache import "$work/site.conf" "$work/site"; then
	y=$work/site.yaml
	for want in "port: \[0x0200000100000001\]" "sm_key: 0x00000000000000ab" "sm_priority: 7" \
		    "lmc: 2" "routing: \[ftree, updn, minhop\]" \
		    "routing_options: \[root_guid_file=$work/roots\]" \
		    "partitions: $work/partitions.conf" "guid2lid: $work/cache/guid2lid" \
		    "  interval: 30" "  interval: 45" "  window: 16" "  level: debug" \
		    "  file: $work/opensm-site.log" "  hoq_life: 19" "  key: 0x0000000000001234"; do
		grep -qx -- "$want" "$y" || fail "site.conf: no line '$want'"
	done
	first=$(grep -n "^sweep_interval 20" "$work/site.conf" | cut -d: -f1)
	grep -qx "  # $work/site.conf:$((first + 1)): sweep_interval 30" "$y" ||
		fail "sweep_interval: not under its (later) line"
	grep -q "sweep_interval given again (first at line $first): the later counts" "$work/site.err" ||
		fail "a key given twice: not told"
	for gone in "force_link_width 5" "routing_engine lash" "cn_guid_file $work/nosuch" \
		    "lfts_file $work/lfts.dump" "qos TRUE"; do
		grep -q "^#   $work/site.conf:[0-9]*: $gone: " "$y" || fail "'$gone' not listed as without a counterpart"
		grep -q "warning: $gone" "$work/site.err" || fail "'$gone' not told on standard error"
	done
	grep -q "^#   $work/site.conf:$(grep -n '^bogus' "$work/site.conf" | cut -d: -f1): bogus_key 1 2 3$" "$y" ||
		fail "an unknown key not listed"
	grep -q "'bogus_key' is no key of OpenSM 3.3" "$work/site.err" || fail "an unknown key not told"
	echo "ok: a site's opensm.conf: $(grep 'ibsmd keys set' "$work/site.err" | sed 's/^ibsmd: [^ ]*: //')"
fi

# worst input: exit 1, the reason, nothing on standard output
refused() {	# WHAT NEEDLE FILE
	ibsmd --import-opensm "$3" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 1 ] || fail "$1: exit $rc, not 1"
	[ -s "$work/out" ] && fail "$1: something written on standard output"
	grep -qF -- "$2" "$work/err" || fail "$1: '$(cat "$work/err")' lacks '$2'"
}
{ printf 'sm_priority 1\nlog_prefix '; head -c 5000 /dev/zero | tr '\0' x; echo; } >"$work/huge.conf"
refused "a huge line" "huge.conf:2: a line longer than 4096 bytes" "$work/huge.conf"
printf 'sm_priority 1\nlmc 0\0\n' >"$work/nul.conf"
refused "a NUL byte" "nul.conf:2: a control character or NUL byte" "$work/nul.conf"
printf 'sm_priority 1\nlog_prefix \033[2J\n' >"$work/ctl.conf"
refused "a control character" "ctl.conf:2: a control character" "$work/ctl.conf"
printf 'sm_priority 1\nlmc 9\nsm_key 0x1234567890abcdef0\n' >"$work/bad.conf"
refused "a value ibsmd refuses" "bad.conf:2: lmc, as lmc: expected a whole number from 0 to 7" \
	"$work/bad.conf"
grep -q "bad.conf:3: sm_key, as sm_key: " "$work/err" || fail "only the first bad value told: $(cat "$work/err")"
grep -q "1234567890" "$work/err" && fail "a bad sm_key echoed: $(cat "$work/err")"
# SA_Key (no counterpart) is never echoed; CC_Key only as the value of its key
printf 'sm_priority 1\nsa_key 0x5ec2e7005ec2e700\ncc_key 0x5ec2e7005ec2e701\n' >"$work/keys.conf"
import "$work/keys.conf" "$work/keys" &&
	grep -q "5ec2e7005ec2e700" "$work/keys.yaml" "$work/keys.err" && fail "SA_Key echoed"
[ "$(grep -c "5ec2e701" "$work/keys.yaml")" = 1 ] && ! grep -q "5ec2e701" "$work/keys.err" &&
	grep -q "^  cc_key: 0x5ec2e7005ec2e701$" "$work/keys.yaml" &&
	grep -q "cc_key (a key, not shown)$" "$work/keys.yaml" ||
	fail "CC_Key not carried as its key's value alone: $(cat "$work/keys.yaml" "$work/keys.err")"
# congestion control: TRUE/FALSE, the CA's per-SL lines as one SL:VALUE list
# each (a later SL line adding), OpenSM's CCT as it is
cat >"$work/cc.conf" <<'EOF'
congestion_control TRUE
cc_sw_cong_setting_threshold 0x0f
cc_sw_cong_setting_victim_mask 0x00000000000000000000000000000000000000000000000000000001fffffffe
cc_ca_cong_setting_control_map 0x0009
cc_ca_cong_setting_ccti_timer 0 150
cc_ca_cong_setting_ccti_increase 0 1
cc_ca_cong_setting_ccti_timer 3 0x96
cc_cct 0:0,1:0,1:1
EOF
import "$work/cc.conf" "$work/cc"
grep -q "cc.conf:1: congestion_control TRUE$" "$work/cc.yaml" || fail "TRUE not noted as OpenSM wrote it"
for want in "  enable: 1" "  sw_cong_setting_threshold: 15" "  ca_cong_setting_ccti_timer: \"0:150,3:0x96\"" \
	    "  ca_cong_setting_ccti_increase: 0:1" "  cct: \"0:0,1:0,1:1\"" \
	    "  sw_cong_setting_victim_mask: 0x00000000000000000000000000000000000000000000000000000001fffffffe"; do
	grep -qx -- "$want" "$work/cc.yaml" || fail "congestion control: no '$want' in $(cat "$work/cc.yaml")"
done
printf 'congestion_control yes\n' >"$work/ccbad.conf"
refused "CC not a boolean" "ccbad.conf:1: congestion_control yes: expected TRUE or FALSE" \
	"$work/ccbad.conf"
printf 'cc_ca_cong_setting_ccti_timer 16 5\n' >"$work/ccsl.conf"
refused "an SL past 15" "ccsl.conf:1: cc_ca_cong_setting_ccti_timer 16: expected an SL" \
	"$work/ccsl.conf"
printf 'cc_ca_cong_setting_ccti_min 2 70000\n' >"$work/ccmin.conf"
refused "a CA value ibsmd refuses" "ccmin.conf:1: cc_ca_cong_setting_ccti_min, as" \
	"$work/ccmin.conf"
grep -q "sa_key (a key, not shown): ibsmd's SA checks no SA_Key" "$work/keys.yaml" ||
	fail "sa_key not listed: $(cat "$work/keys.yaml")"
refused "ibsmd's own YAML" "not an OpenSM file ibsmd converts (opensm.conf, qos-policy.conf)" \
	"$top_builddir/etc/ibsmd.yaml"
: >"$work/empty.conf"
refused "an empty file" "not an OpenSM file ibsmd converts" "$work/empty.conf"
refused "a directory" "$work" "$work"
refused "/dev/zero" "/dev/zero" /dev/zero
refused "a path that is not there" "$work/nosuch.conf" "$work/nosuch.conf"
printf 'sm_priority 3\nnode_desc_\377 caf\303\251\n' >"$work/bytes.conf"
import "$work/bytes.conf" "$work/bytes" &&
	grep -q 'node_desc_\\xff caf\\xc3\\xa9' "$work/bytes.yaml" || fail "bytes past ASCII not escaped"
echo "ok: worst input refused with the reason, nothing written"
finish
