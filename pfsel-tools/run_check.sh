#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs pfsel-tools' unit tests (cmocka programs) and prints, as its last
# line, "N passed, M failed", counting test cases.  A program that dies
# before its summary counts as one failure.  Called by pfsel-tools/Makefile:
#     run_check.sh UNIT_BIN...
# Environment: BUILD (the build folder), ROOT (the repository).
set -u

log_dir="$BUILD/tests/pfsel-tools/logs"
mkdir -p "$log_dir"
# count, run_unit, finish
# shellcheck source=scripts/check-lib.sh
. "$ROOT/scripts/check-lib.sh"

for bin in "$@"; do
	run_unit "$bin"
done
finish
