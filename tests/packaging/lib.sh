# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# What the packaging tests share, sourced (bash) by tests/packaging/debian12,
# kernel-deb and install-deps.
#
# Results: one line per test, "PASS: NAME" or "FAIL: NAME", and at the end
# "N passed, M failed".
#
#   ok NAME, fail NAME      count one test
#   check NAME COMMAND...   one test, passed when COMMAND succeeds (its
#                           output shown when it fails)
#   finish                  the time taken (since $t0, for $test_name) and
#                           the result line; exits non-zero on a failure
#   give_up NAME            a step the rest needs failed: count it, finish
#
# A minimal Debian root:
#
#   debian_mirror SUITE
#       prints the mirror apt uses for SUITE: $MIRROR when set, else the
#       URI of the first stanza of /etc/apt/sources.list.d/debian.sources
#       whose Suites has SUITE itself, else the first "deb" line of
#       /etc/apt/sources.list for SUITE; nothing when there is none.
#
#   debian_root_tarball SUITE INCLUDE WORK
#       prints the name of the tarball that debian_root keeps:
#       WORK/SUITE-minbase-KEY.tar.gz, KEY naming the suite, INCLUDE and
#       debootstrap's version.
#
#   debian_root SUITE INCLUDE WORK ROOT
#       makes ROOT a "debootstrap --variant=minbase" root of SUITE with the
#       packages INCLUDE (comma-separated, may be empty), unpacked from
#       its tarball (debian_root_tarball).  Without that tarball it debootstraps from
#       debian_mirror (log: WORK/debootstrap.log) and keeps the tarball
#       in place of any older one.  Messages on stdout; on failure the
#       reason on stdout and status 1.
#
# A disk as Debian installs one on a PC with UEFI, without a loop device
# (the files are made with mkfs -d, mtools and sgdisk):
#
#   efi_system_partition ESP ROOT ID MIB
#       ESP: a FAT image of MIB MiB, volume ID (8 hex digits; fstab's
#       UUID=XXXX-XXXX), holding ROOT's Debian-signed shim, GRUB and MOK
#       manager (shim-signed, grub-efi-amd64-signed) where "grub-install
#       --uefi-secure-boot --removable" puts them: EFI/BOOT/BOOTX64.EFI
#       (shim, what the firmware starts from a disk it has no boot entry
#       for), grubx64.efi and mmx64.efi beside it; and an empty EFI/debian,
#       where that GRUB reads its grub.cfg (its built-in prefix).
#
#   gpt_disk DISK ESP ROOTFS PARTUUID
#       DISK: a GPT, partition 1 the EFI system partition (ESP's image,
#       from 1 MiB), partition 2 a Linux x86-64 root (ROOTFS's image),
#       whose GPT partition GUID (root=PARTUUID=) is PARTUUID.  Files of
#       DISK's EFI system partition: mtools with -i DISK@@1M.

passed=0
failed=0
t0=$(date +%s)
ok() {
	echo "PASS: $*"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		fail "$name"
		[ -z "$out" ] || printf '%s\n' "$out" | head -n 30 | sed 's/^/    /'
	fi
}
finish() {
	echo "${test_name:-test}: $(($(date +%s) - t0)) s in all"
	echo "$passed passed, $failed failed"
	[ $failed -eq 0 ]
	exit
}
give_up() {
	fail "$*"
	finish
}
elapsed() { echo $(($(date +%s) - $1)); }

debian_mirror() {
	local suite=$1 mirror=${MIRROR:-}
	if [ -z "$mirror" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
		mirror=$(awk -v suite="$suite" 'BEGIN { RS = "" }
			{
				uri = ""; has = 0; n = split($0, line, "\n")
				for (i = 1; i <= n; i++) {
					m = split(line[i], w, /[ \t]+/)
					if (w[1] == "URIs:") uri = w[2]
					if (w[1] == "Suites:") for (j = 2; j <= m; j++) if (w[j] == suite) has = 1
				}
				if (has && uri != "") { print uri; exit }
			}' /etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
		mirror=$(sed -n -E "s/^deb[ \t]+(\[[^]]*\][ \t]+)?([^ \t]+)[ \t]+${suite}[ \t].*/\2/p" /etc/apt/sources.list | head -n 1)
	fi
	printf '%s\n' "$mirror"
}

debian_root_tarball() {
	local suite=$1 include=$2 work=$3 key
	key=$(printf '%s %s %s\n' "$suite" "$include" "$(dpkg-query -W -f='${Version}' debootstrap)" | sha256sum | cut -c1-12)
	echo "$work/$suite-minbase-$key.tar.gz"
}

debian_root() {
	local suite=$1 include=$2 work=$3 root=$4 cache mirror start
	cache=$(debian_root_tarball "$suite" "$include" "$work")
	start=$(date +%s)
	if [ ! -f "$cache" ]; then
		mirror=$(debian_mirror "$suite")
		if [ -z "$mirror" ]; then
			echo "no $suite mirror in /etc/apt/sources.list.d/debian.sources or sources.list (set MIRROR=URL)"
			return 1
		fi
		echo "debootstrap $suite from $mirror${include:+ with $include}"
		rm -rf "$work/bootstrap"
		if ! debootstrap --variant=minbase ${include:+--include="$include"} "$suite" \
			"$work/bootstrap" "$mirror" >"$work/debootstrap.log" 2>&1; then
			tail -n 30 "$work/debootstrap.log" | sed 's/^/    /'
			echo "debootstrap $suite failed (see $work/debootstrap.log)"
			return 1
		fi
		rm -f "$work/bootstrap/var/cache/apt/archives/"*.deb
		rm -f "$work/$suite"-minbase-*.tar.gz
		tar -C "$work/bootstrap" --numeric-owner -cpf - . | gzip -1 >"$cache.tmp" &&
			mv "$cache.tmp" "$cache" || return 1
		rm -rf "$work/bootstrap"
		echo "debootstrap took $(elapsed "$start") s (now cached as $(basename "$cache"))"
	else
		echo "$suite root from the cache ($(basename "$cache"))"
	fi
	rm -rf "$root"
	mkdir -p "$root"
	if ! tar -C "$root" --numeric-owner -xpzf "$cache"; then
		echo "unpacking $cache failed"
		return 1
	fi
	echo "the root ready in $(elapsed "$start") s"
}

efi_system_partition() {
	local esp=$1 root=$2 id=$3 mib=$4
	rm -f "$esp"
	mkfs.vfat -C -i "$id" -n EFI "$esp" $((mib * 1024)) >/dev/null &&
		mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/EFI/debian &&
		mcopy -i "$esp" "$root/usr/lib/shim/shimx64.efi.signed" ::/EFI/BOOT/BOOTX64.EFI &&
		mcopy -i "$esp" "$root/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed" ::/EFI/BOOT/grubx64.efi &&
		mcopy -i "$esp" "$root/usr/lib/shim/mmx64.efi.signed" ::/EFI/BOOT/mmx64.efi
}

gpt_disk() {
	local disk=$1 esp=$2 rootfs=$3 partuuid=$4 esp_mib root_mib
	esp_mib=$(($(stat -c %s "$esp") / 1048576))
	root_mib=$((($(stat -c %s "$rootfs") + 1048575) / 1048576))
	rm -f "$disk"
	truncate -s $((1 + esp_mib + root_mib + 1))M "$disk" &&
		sgdisk -n "1:1M:+${esp_mib}M" -t 1:ef00 -c 1:EFI \
			-n "2:0:+${root_mib}M" -t 2:8304 -c 2:root -u "2:$partuuid" "$disk" >/dev/null &&
		dd if="$esp" of="$disk" bs=1M seek=1 conv=notrunc,sparse status=none &&
		dd if="$rootfs" of="$disk" bs=1M seek=$((1 + esp_mib)) conv=notrunc,sparse status=none
}
