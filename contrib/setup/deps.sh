#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what ibsmd needs to build, test and run on Debian 12 (as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libibumad-dev libibmad-dev libyaml-dev libsqlite3-dev check sqlite3 \
	ibsim-utils infiniband-diags opensm ibutils iproute2 util-linux time \
	>/dev/null
