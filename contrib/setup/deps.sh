#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what ibsmd needs to build, test and run on Debian 12 (as root): the
# Debian packages listed in contrib/setup/packages.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2046
apt-get install -y -qq --no-install-recommends $(cat "$(dirname "$0")/packages") >/dev/null
