#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configure and build ibsmd in the source tree with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x configure ] || { mkdir -p m4 && autoreconf -fi; }
[ -f Makefile ] || ./configure --enable-werror --prefix=/usr/local --sysconfdir=/etc --localstatedir=/var --runstatedir=/run
make -j"$(nproc)"
