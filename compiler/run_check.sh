#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the compiler's tests and prints, as its last line, "N passed, M failed"
# counting individual test cases.  Called by compiler/Makefile:
#
#   run_check.sh UNIT_BIN... -- FUZZ_BIN...      (make check)
#   run_check.sh --fuzz-only -- FUZZ_BIN...      (make fuzz)
#
# Environment: ROOT (repository), BUILD (build folder), PFWC (the pfwc to
# run the golden tests with), FUZZ_SECONDS (per fuzzer).
set -u

log_dir="$BUILD/tests/compiler/logs"
mkdir -p "$log_dir"
# count, run_unit, finish
# shellcheck source=scripts/check-lib.sh
. "$ROOT/scripts/check-lib.sh"

# One golden diagnostic test: compile FILE.pfw, compare stderr and the exit
# status with FILE.expected, and check that a failed compile wrote nothing.
# A first line "# pfwc-args: ..." adds options.
run_golden() {
	dir=$(dirname "$1")
	base=$(basename "$1" .pfw)
	args=$(sed -n '1s/^# pfwc-args://p' "$1")
	actual="$log_dir/golden-$base.actual"
	output="$log_dir/golden-$base.out"
	rm -f "$output"
	# shellcheck disable=SC2086
	(cd "$dir" && "$PFWC" $args -o "$output" "$base.pfw" \
		>/dev/null 2>"$actual.stderr")
	status=$?
	echo "exit $status" >"$actual"
	cat "$actual.stderr" >>"$actual"
	# A failed compile must leave nothing behind, not even a temporary.
	if [ "$status" -ne 0 ] && ls "$output"* >/dev/null 2>&1; then
		echo "golden $base: FAILED (exit $status, but output was written)"
		count 0 1
	elif cmp -s "$actual" "$dir/$base.expected"; then
		count 1 0
	else
		echo "golden $base: FAILED"
		diff -u "$dir/$base.expected" "$actual" | sed 's/^/    /' | head -n 40
		count 0 1
	fi
}

# pfwc --query on a policy compiled by pfwc: each "# query: ARGS => TEXT"
# line of FILE.pfw is one case, TEXT what --query must print for ARGS.
run_query() {
	dir=$(dirname "$1")
	base=$(basename "$1" .pfw)
	blob="$log_dir/query-$base.pfsel"
	if ! (cd "$dir" && "$PFWC" -o "$blob" "$base.pfw" >/dev/null 2>&1); then
		echo "query $base: FAILED (it does not compile)"
		count 0 1
		return
	fi
	sed -n 's/^# query: //p' "$1" | while IFS= read -r line; do
		args=${line%% => *}
		want=${line#* => }
		# Split on blanks, with no glob: "?" is the unnamed application.
		# shellcheck disable=SC2086
		got=$(set -f && cd "$dir" && "$PFWC" --query "$blob" $args 2>&1)
		if [ "$got" = "$want" ]; then
			echo "ok"
		else
			echo "query $base: FAILED: $args: '$got', not '$want'" >&2
			echo "bad"
		fi
	done >"$log_dir/query-$base.results"
	if ! grep -q . "$log_dir/query-$base.results"; then
		echo "query $base: FAILED (no '# query:' line)"
		count 0 1
		return
	fi
	count "$(grep -c '^ok$' "$log_dir/query-$base.results")" \
		"$(grep -c '^bad$' "$log_dir/query-$base.results")"
}

# Where pfwc's output goes: a regular file is replaced whole (renamed
# over), anything else that exists is written in place, never replaced.
# A FIFO stands for /dev/null, which a test may not risk (as root, a
# rename over it would leave the machine a /dev/null that is a file).
output_case() {
	if "$@"; then
		count 1 0
	else
		echo "pfwc output: FAILED: $*"
		count 0 1
	fi
}

run_output_tests() {
	dir=$(mktemp -d "$log_dir/output.XXXXXX")
	src=$ROOT/policy/examples/desktop.pfw
	"$PFWC" -o "$dir/regular" "$src" >/dev/null 2>&1
	output_case test -f "$dir/regular"
	mkfifo "$dir/fifo"
	timeout 30 cat "$dir/fifo" >"$dir/through-fifo" &
	reader=$!
	"$PFWC" -o "$dir/fifo" "$src" >/dev/null 2>"$dir/fifo.stderr"
	output_case test $? -eq 0
	wait "$reader"
	output_case test -p "$dir/fifo"
	output_case cmp -s "$dir/regular" "$dir/through-fifo"
	mkdir "$dir/folder"
	"$PFWC" -o "$dir/folder" "$src" >/dev/null 2>"$dir/stderr-of-folder"
	output_case test $? -ne 0
	output_case grep -q "folder" "$dir/stderr-of-folder"
	output_case test -d "$dir/folder"
	output_case sh -c "! ls '$dir' | grep -q 'folder\\.'"
	rm -rf "$dir"
	echo "pfwc output: a file, a FIFO, a folder"
}

run_fuzzer() {
	name=$(basename "$1")
	work="$BUILD/tests/compiler/corpus/$name"
	seeds="$ROOT/tests/fuzz/corpus/$name"
	mkdir -p "$work"
	set -- "$1" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
		-timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$log_dir/$name-" "$work"
	[ -d "$seeds" ] && set -- "$@" "$seeds"
	dict="$ROOT/tests/fuzz/$name.dict"
	[ -f "$dict" ] && set -- "$@" -dict="$dict"
	if "$@" >"$log_dir/$name.log" 2>&1; then
		runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' \
			"$log_dir/$name.log" | grep -o '[0-9]*$' | tail -n 1)
		echo "fuzz $name: ok (${runs:-?} runs)"
		count 1 0
	else
		echo "fuzz $name: FAILED (see $log_dir/$name.log)"
		tail -n 30 "$log_dir/$name.log" | sed 's/^/    /'
		count 0 1
	fi
}

fuzz_only=false
if [ "${1:-}" = "--fuzz-only" ]; then
	fuzz_only=true
	shift
fi
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	run_unit "$1"
	shift
done
[ $# -gt 0 ] && shift

if ! $fuzz_only; then
	golden_total=0
	for golden in "$ROOT"/tests/unit/golden/*.pfw; do
		[ -e "$golden" ] || continue
		run_golden "$golden"
		golden_total=$((golden_total + 1))
	done
	echo "golden: $golden_total files"
	for query in "$ROOT"/tests/unit/query/*.pfw; do
		[ -e "$query" ] && run_query "$query"
	done
	run_output_tests
fi

for fuzzer in "$@"; do
	run_fuzzer "$fuzzer"
done

if ! $fuzz_only && [ -x "$ROOT/tests/differential/run" ]; then
	"$ROOT/tests/differential/run" >"$log_dir/differential.log" 2>&1
	status=$?
	last=$(tail -n 1 "$log_dir/differential.log")
	ok=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	bad=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$ok" ]; then
		ok=0
		bad=1
	elif [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
		bad=1
	fi
	echo "differential: $ok passed, $bad failed"
	[ "$bad" -ne 0 ] && tail -n 30 "$log_dir/differential.log" | sed 's/^/    /'
	count "$ok" "$bad"
fi

finish
