#!/bin/sh
# The narrated pfsel demonstration that `make demo` runs inside the test VM.
# It shows what pfsel does; each step says what to look for.

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

say "Its control files live in securityfs (docs/kernel-interface.md):"
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

runas=/usr/lib/pfsel/tests/runas

if command -v pfwc >/dev/null 2>&1 && [ -f desktop.pfw ]; then
	say "Users write their rules in ~/.pfw. Here is a desktop user's:"
	run cat desktop.pfw

	say "pfwc compiles them into the binary policy the kernel loads, here for pfuser1 (uid 1001):"
	run pfwc --uid 1001 -o /tmp/desktop.pfsel desktop.pfw &&
		run ls -l /tmp/desktop.pfsel

	say "Loading it puts it in force for uid 1001, and nobody else:"
	run pfsel load /tmp/desktop.pfsel
	run pfsel list

	say "The kernel says what it would decide, and which rule decides:"
	run pfsel check --uid 1001 --exe /usr/bin/firefox connect tcp 93.184.216.34 443
	run pfsel check --uid 1001 --exe /usr/bin/nc connect tcp 198.51.100.7 80

	say "pfuser1's nc to 127.0.0.1:8080 matches no rule: the default asks, no agent is there, so the unanswered verdict (deny) applies at once. Root has no policy and gets through:"
	nc -l -p 8080 >/tmp/received &
	server=$!
	sleep 1
	echo "from pfuser1" | run $runas 1001 nc -w 2 127.0.0.1 8080
	echo "from root" | run nc -w 2 127.0.0.1 8080
	wait $server
	printf 'the server received: %s\n' "$(cat /tmp/received)"

	say "The denial is in the audit log, with the rule (here the default) that decided:"
	run pfsel log --uid 1001 -n 3

	say "audit2pfw turns it into a rule that would allow it:"
	run pfsel audit2pfw --uid 1001

	say "Only root starts an agent: pfuser1's own programs must not answer for pfuser1. Started by root for pfuser1, it registers and then runs as pfuser1 (here answering 'allow' for the session by itself); the same call is asked and allowed:"
	pfsel-agent --user 1001 --auto allow --scope session \
		--log /tmp/agent.log &
	agent=$!
	sleep 1
	nc -l -p 8080 >/tmp/received &
	server=$!
	sleep 1
	echo "from pfuser1, asked and allowed" | run $runas 1001 nc -w 2 127.0.0.1 8080
	wait $server
	printf 'the server received: %s\n' "$(cat /tmp/received)"
	run cat /tmp/agent.log
	kill $agent 2>/dev/null

	if [ -x /usr/sbin/dnsmasq ]; then
		say "Rules can name hosts instead of addresses. The kernel learns which addresses a name has from the DNS answers a resolver receives, if the system policy trusts that resolver:"
		cat >/tmp/system.pfw <<-'EOF'
		policy system;
		default allow;
		resolver /usr/sbin/dnsmasq;
		EOF
		run cat /tmp/system.pfw
		run pfwc -o /tmp/system.pfsel /tmp/system.pfw &&
			run pfsel load /tmp/system.pfsel

		say "Here dnsmasq is the resolver (127.0.0.1:53); it forwards every question to a test zone's server (127.0.0.2), where shop.example is 127.0.0.1. pfuser1 allows the shop by name:"
		dnsmasq --keep-in-foreground --user=root --conf-file=/dev/null \
			--pid-file= --bind-interfaces --no-resolv --no-hosts \
			--listen-address=127.0.0.2 \
			--host-record=shop.example,127.0.0.1,600 2>/dev/null &
		zone=$!
		dnsmasq --keep-in-foreground --user=root --conf-file=/dev/null \
			--pid-file= --bind-interfaces --no-resolv --no-hosts \
			--listen-address=127.0.0.1 --server=127.0.0.2 \
			--cache-size=0 2>/dev/null &
		resolver=$!
		cat >/tmp/shop.pfw <<-'EOF'
		default deny;
		allow * create;
		allow * bind udp;
		allow * connect udp to loopback port dns;
		allow * connect tcp to host shop.example port 8080;
		EOF
		run cat /tmp/shop.pfw
		run pfwc --uid 1001 -o /tmp/shop.pfsel /tmp/shop.pfw &&
			run pfsel load /tmp/shop.pfsel
		sleep 1

		say "Before anyone looked the name up, 127.0.0.1 has no name, and no rule allows pfuser1 there:"
		echo "before the lookup" | run $runas 1001 nc -w 2 127.0.0.1 8080

		say "pfuser1 looks shop.example up through the resolver; the kernel learned the name from the answer dnsmasq received, before it was passed on:"
		run $runas 1001 nslookup -type=a shop.example 127.0.0.1
		run cat /sys/kernel/security/pfsel/hosts

		say "Now the same connection matches the host rule:"
		nc -l -p 8080 >/tmp/received &
		server=$!
		sleep 1
		echo "from pfuser1, to shop.example" | run $runas 1001 nc -w 2 127.0.0.1 8080
		# (Should the connection fail, the server would wait for ever.)
		sleep 1
		kill $server 2>/dev/null
		wait $server 2>/dev/null
		printf 'the server received: %s\n' "$(cat /tmp/received)"
		kill $zone $resolver 2>/dev/null
		pfsel unload system >/dev/null 2>&1
	fi

	say "Counters: the access vector cache, the questions, the time spent in each hook:"
	run pfsel stats
fi

say "That is pfsel: per-user, per-application rules, enforced by the kernel, asked about when a rule says so, and audited."
