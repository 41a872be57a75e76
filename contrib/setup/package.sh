#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The release packages, as CI checks them (as root, on a throwaway Debian 12
# machine; .ci/run calls it as its own step):
#   - every file git tracks is in the `make dist` tarball;
#   - `make deb` builds the .debs from that tarball, lintian finds no error;
#   - dpkg -i installs them (ibsmd conflicts with opensm: where opensm is
#     installed, as the interop tests want, dpkg must refuse, then installs
#     with --force-conflicts); from the installed files only: systemd-analyze
#     verify on the unit, ibsmd --check-config, the bundled simulated fabric
#     brought up with the installed configuration's store, `smquery status`
#     with no options, the tmpfiles.d entry's run directory, logrotate's
#     reading of its entry; then they are purged, the store with them;
#   - `make rpm` builds the RPMs from the same tarball (skipped with a message
#     without rpmbuild), with the file list of the .debs.
# The test suite ran before (.ci/run): the package builds skip it (nocheck).
# Builds in the configured source tree if there is one, else out of tree in
# build-pkg/.  Each part's time is printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$(pwd)
step() { local t=$SECONDS; "$@"; echo "package: $1 took $((SECONDS - t)) s"; }
die() { echo "package: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root: the packages are installed on this machine"

[ -x configure ] || { mkdir -p m4 && autoreconf -fi; }
if [ -f Makefile ]; then
	build=$top
else
	mkdir -p build-pkg
	(cd build-pkg && ../configure -q)
	build=$top/build-pkg
fi
version=$(sed -n 's/^VERSION = //p' "$build/Makefile")
out=$build/package-check	# what the checks compare, and the build logs
rm -rf "$out" && mkdir "$out"
DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)"
export DEB_BUILD_OPTIONS

tarball_has_every_file() {
	make -C "$build" -s dist >/dev/null
	git rev-parse --git-dir >/dev/null 2>&1 || return 0	# a tarball, not a clone
	tar -tzf "$build/ibsmd-$version.tar.gz" | sed "s|^ibsmd-$version/||; s|^debian/|contrib/debian/|" |
		sort >"$out/dist.list"
	git ls-files | grep -v -x -e .gitignore | sort >"$out/git.list"
	local missing
	missing=$(comm -13 "$out/dist.list" "$out/git.list")
	[ -z "$missing" ] || die "make dist leaves out (list them in their .mk fragment): $missing"
}

build_debs() {
	make -C "$build" deb >"$out/deb.log" 2>&1 || { tail -n 40 "$out/deb.log"; die "make deb"; }
	lintian --fail-on error "$build"/deb/ibsmd_*.changes ||
		die "lintian reports errors"
}

debs() { ls "$build"/deb/{ibsmd,smquery,ibsmd-dev}_"$version"-*.deb; }

install_debs() {
	local ibsmd_deb
	ibsmd_deb=$(ls "$build"/deb/ibsmd_"$version"-*.deb)
	if dpkg-query -W -f='${Status}' opensm 2>/dev/null | grep -q 'ok installed'; then
		dpkg -i "$ibsmd_deb" >"$out/conflict.out" 2>&1 &&
			die "dpkg installed ibsmd beside opensm"
		grep -q 'conflicts with opensm' "$out/conflict.out" ||
			die "dpkg refused ibsmd, not for opensm: $(cat "$out/conflict.out")"
		echo "package: dpkg refuses ibsmd beside opensm; installed with --force-conflicts" \
			"(the interop tests want opensm)"
		# shellcheck disable=SC2046
		dpkg -i --force-conflicts $(debs) >"$out/install.out" 2>&1 ||
			die "dpkg -i: $(cat "$out/install.out")"
	else
		# shellcheck disable=SC2046
		dpkg -i $(debs) >"$out/install.out" 2>&1 || die "dpkg -i: $(cat "$out/install.out")"
	fi
}

# What an operator does after installing, with nothing from the source tree.
check_installed() {
	local unit said rc=0
	cd "$out"
	unit=$(dpkg -L ibsmd | grep '/ibsmd\.service$')
	# other units on the machine may draw warnings of their own: ours must not
	said=$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$unit" 2>&1) || rc=$?
	if [ "$rc" != 0 ] || grep -qi ibsmd <<<"$said"; then
		die "systemd-analyze verify $unit (exit $rc): $said"
	fi
	echo "package: systemd-analyze verify $unit: nothing to say"
	said=$(/usr/sbin/ibsmd --check-config 2>&1) || die "ibsmd --check-config: $said"
	[ "$said" = "/etc/ibsmd/ibsmd.yaml: configuration OK" ] || die "ibsmd --check-config said: $said"
	echo "package: $said"
	/usr/sbin/ibsmd --backend sim:/usr/share/ibsmd/fabrics/fattree-2l-r8.topo --once \
		>bringup.log 2>&1 || { cat bringup.log; die "the bundled fabric did not come up"; }
	[ -f /var/lib/ibsmd/ibsmd.db ] || die "the store is not where the installed ibsmd.yaml says"
	/usr/bin/smquery status >status.out 2>&1 || die "smquery status: $(cat status.out)"
	if ! grep -qx 'cas  *32' status.out || ! grep -qx 'sm_state  *MASTER' status.out; then
		die "smquery status: $(cat status.out)"
	fi
	echo "package: the bundled fabric is up; smquery status finds its store: $(grep -c . status.out) lines"
	[ -d /run/ibsmd ] || die "the tmpfiles.d entry made no /run/ibsmd"
	if command -v logrotate >/dev/null; then
		logrotate --debug /etc/logrotate.d/ibsmd >logrotate.out 2>&1 ||
			die "logrotate: $(cat logrotate.out)"
	else
		echo "package: logrotate is not installed: its entry is not read"
	fi
	cd "$top"
}

purge_debs() {
	dpkg -P ibsmd-dev smquery ibsmd >/dev/null
	[ ! -e /var/lib/ibsmd ] || die "purging ibsmd left /var/lib/ibsmd"
}

# the files of each binary package, as both formats name them
deb_files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { print substr($6, 2) }' | normalize; }
rpm_files() { rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$1" | awk '$1 !~ /^d/ { print $2 }' | normalize; }
normalize() {
	sed -E -e '\#^/usr/share/doc/|^/usr/lib/\.build-id/#d' -e 's#\.gz$##' \
		-e 's#^/usr/lib/[a-z0-9_]+-linux-gnu/|^/usr/lib64/#/usr/LIBDIR/#' \
		-e 's#^/lib/systemd/#/usr/lib/systemd/#' | sort
}

build_rpms() {
	if ! command -v rpmbuild >/dev/null; then
		echo "package: SKIP: rpmbuild is not installed (Debian package rpm): no RPMs"
		return 0
	fi
	make -C "$build" rpm RPMBUILD_FLAGS=--nocheck >"$out/rpm.log" 2>&1 ||
		{ tail -n 40 "$out/rpm.log"; die "make rpm"; }
	local pair deb rpm
	for pair in ibsmd:ibsmd smquery:smquery ibsmd-dev:ibsmd-devel; do
		deb=$(ls "$build"/deb/"${pair%%:*}"_"$version"-*.deb)
		rpm=$(ls "$build"/rpm/RPMS/*/"${pair#*:}"-"$version"-*.rpm)
		diff <(deb_files "$deb") <(rpm_files "$rpm") >"$out/files.diff" ||
			die "${pair%%:*}: the .deb (<) and the RPM (>) hold other files: $(cat "$out/files.diff")"
	done
}

step tarball_has_every_file
step build_debs
step install_debs
trap purge_debs EXIT
step check_installed
trap - EXIT
step purge_debs
step build_rpms
echo "package: the .debs and RPMs of ibsmd $version are in $build/deb/ and $build/rpm/RPMS/"
