# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# What the component checks share, sourced by compiler/run_check.sh and
# pfsel-tools/run_check.sh: the counts, a cmocka program run and counted,
# and the last line every check ends with ("N passed, M failed",
# docs/CONVENTIONS.md).  The caller sets log_dir, where each program's
# output is kept.
#
#   count PASSED FAILED   add to the counts
#   run_unit PROGRAM      run a cmocka program, its output in log_dir
#   finish                the last line; non-zero status on a failure

# shellcheck disable=SC2154 # log_dir is the caller's

passed=0
failed=0

count() { # count PASSED FAILED
	passed=$((passed + $1))
	failed=$((failed + $2))
}

# A cmocka program: its summary lines give the counts.  A program that dies
# before printing them counts as one failure.
run_unit() {
	name=$(basename "$1")
	log="$log_dir/$name.log"
	"$1" >"$log" 2>&1
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
	count "$ok" "$bad"
}

# The last line, and the status: non-zero when anything failed.
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
