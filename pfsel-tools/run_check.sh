#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs pfsel-tools' unit tests (cmocka programs) and prints, as its last
# line, "N passed, M failed", counting test cases.  A program that dies
# before its summary counts as one failure.  Called by pfsel-tools/Makefile:
#     run_check.sh UNIT_BIN...
# Environment: BUILD (the build folder), ROOT (the repository).
set -u

passed=0
failed=0
log_dir="$BUILD/tests/pfsel-tools/logs"
mkdir -p "$log_dir"

for bin in "$@"; do
	name=$(basename "$bin")
	log="$log_dir/$name.log"
	"$bin" >"$log" 2>&1
	status=$?
	ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	ok=${ok:-0}
	bad=${bad:-0}
	if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
		bad=1
	fi
	echo "unit $name: $ok passed, $bad failed"
	if [ "$bad" -ne 0 ]; then
		sed 's/^/    /' "$log" | tail -n 40
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
