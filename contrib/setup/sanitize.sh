#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite once more, built with AddressSanitizer and
# UndefinedBehaviorSanitizer, out of tree in build-asan/.  A sanitizer report
# fails the test it comes from (-fno-sanitize-recover, halt_on_error; leaks
# included).  automake refuses an out-of-tree build of a source tree
# configured in place, so an in-tree build is removed first (make distclean):
# run it after contrib/setup/test.sh, as .ci/run does, or in a fresh checkout.
# Prints "N passed, N failed, N skipped" last; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x configure ] || { mkdir -p m4 && autoreconf -fi; }
[ ! -f Makefile ] || make distclean >/dev/null
rm -rf build-asan
mkdir build-asan
cd build-asan
../configure -q --enable-werror \
	CFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1'
# verify_asan_link_order=0: the ibsim tests preload libumad2sim.so;
# allocator_may_return_null=1: a plugin over its memory bound (RLIMIT_AS) sees
# malloc() fail as without ASan; asan.supp: what is not ours (ibsim's)
supp=$(pwd)/../contrib/setup/asan.supp
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:verify_asan_link_order=0:allocator_may_return_null=1:suppressions=$supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# ASan and UBSan code runs about 3 times slower: the Check suites' hang guards too
export CK_TIMEOUT_MULTIPLIER=3
make -j"$(nproc)"
rc=0
make -j"$(nproc)" check || rc=$?
exec ../contrib/setup/check-summary.sh "$rc" sanitizers
