#!/bin/sh
# The narrated pfsel demonstration that `make demo` runs inside the test VM.
# It shows what pfsel does so far; each step says what to look for.

say() {
	printf '\n\033[1m== %s\033[0m\n' "$*"
}

run() {
	printf '$ %s\n' "$*"
	"$@"
}

say "pfsel is a Linux Security Module. It runs stacked beside Landlock, with SELinux as the major LSM:"
run cat /sys/kernel/security/lsm
echo

say "Its control files live in securityfs, readable by all and writable by none:"
run ls -l /sys/kernel/security/pfsel
run cat /sys/kernel/security/pfsel/status

say "Every way to reach the network meets a pfsel hook. The hooks count the calls they check:"
run cat /sys/kernel/security/pfsel/hooks
cp /sys/kernel/security/pfsel/hooks /tmp/hooks.before

say "Now a TCP server listens on 127.0.0.1:8080 and a client sends it one line..."
nc -l -p 8080 >/tmp/received &
server=$!
sleep 1
echo "hello through pfsel" | nc -w 2 127.0.0.1 8080
wait $server
printf 'the server received: %s\n' "$(cat /tmp/received)"

say "...and each of socket(), bind(), listen(), connect(), the inbound SYN and accept() met its hook:"
cp /sys/kernel/security/pfsel/hooks /tmp/hooks.after
awk 'NR == FNR { before[$1] = $2; next }
     { printf "  %-18s %6d -> %-6d (+%d)\n", $1, before[$1], $2, $2 - before[$1] }' \
	/tmp/hooks.before /tmp/hooks.after

if command -v pfwc >/dev/null 2>&1 && [ -f desktop.pfw ]; then
	say "Users write their rules in ~/.pfw. Here is a desktop user's:"
	run cat desktop.pfw

	say "pfwc compiles them into the binary policy the kernel will load:"
	run pfwc -o /tmp/desktop.pfsel desktop.pfw &&
		run ls -l /tmp/desktop.pfsel

	say "and answers questions about it, naming the rule that decided:"
	run pfwc --query /tmp/desktop.pfsel /usr/bin/firefox connect tcp 93.184.216.34 443
	run pfwc --query /tmp/desktop.pfsel /usr/bin/curl connect tcp 198.51.100.7 80
	run pfwc --query /tmp/desktop.pfsel /usr/bin/nc connect tcp 203.0.113.5 25
fi

say "So far every hook allows. Next, the kernel loads these policies per user and enforces them."
