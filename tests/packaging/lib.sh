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
#   elapsed START           the seconds since START (a "date +%s")
#
# and, from scripts/debian-root.sh, the minimal Debian roots (debian_root,
# debian_chroot, debian_release, ...).
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

# shellcheck source=scripts/debian-root.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/debian-root.sh"

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


# Where the tools package puts what moved between releases, and the names
# of what it depends on that were renamed (Debian 13 moved /lib into /usr,
# and renamed libraries whose ABI has a time_t to *t64): release_layout
# SUITE sets unitdir (system units), pamdir (PAM modules) and
# auparse_package.
release_layout() {
	case $1 in
	bookworm)
		unitdir=/lib/systemd/system pamdir=/lib/x86_64-linux-gnu/security
		auparse_package=libauparse0
		;;
	trixie)
		unitdir=/usr/lib/systemd/system pamdir=/usr/lib/x86_64-linux-gnu/security
		auparse_package=libauparse0t64
		;;
	*) return 1 ;;
	esac
}

# check_tools_deb SUITE OUTDIR: the tools package that "make deb
# DIST=SUITE" left in OUTDIR (build/deb/SUITE): its files, modes,
# conffiles, Depends (the release's own library packages), maintainer
# scripts, md5sums, the source package and .changes beside it, and
# lintian's verdict (build-deb ran the release's own lintian in the
# chroot): no tag but the overridden ones, each override with a comment
# that says why.  Tests named "deb (SUITE): ...".
check_tools_deb() {
	local suite=$1 out=$2 deb version tmp depends p f unitdir pamdir auparse_package
	local n="deb ($suite)"
	release_layout "$suite" || { fail "$n: no layout known for $suite"; return; }
	deb=$(ls -t "$out"/pfsel-tools_*_amd64.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { fail "$n: no $out/pfsel-tools_*_amd64.deb"; return; }
	tmp=$(mktemp -d)
	version=$(dpkg-deb --field "$deb" Version)
	echo "$n: $(basename "$deb")"
	dpkg-deb --contents "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/contents"
	depends=$(dpkg-deb --field "$deb" Depends)
	echo "$n: Depends: $depends"
	for f in /usr/bin/pfwc /usr/bin/pfsel-agent /usr/lib/x86_64-linux-gnu/libpfsel.so.1 \
		/usr/lib/x86_64-linux-gnu/pkgconfig/libpfsel.pc /usr/share/pfsel/services \
		/etc/pfsel/system.pfw $unitdir/pfsel-load-system-policy.service \
		$unitdir/pfsel-agent@.service /usr/libexec/pfsel/load-system-policy \
		/usr/share/doc/pfsel-tools/copyright /usr/share/man/man1/pfwc.1.gz; do
		check "$n: holds $f" grep -qxF "$f" "$tmp/contents"
	done
	check "$n: nothing under /usr/local" bash -c "! grep -q '^/usr/local' '$tmp/contents'"
	if grep -q 'pam_pfsel.so$' "$tmp/contents"; then
		check "$n: pam_pfsel.so is in PAM's directory ($pamdir)" \
			grep -qx "$pamdir/pam_pfsel.so" "$tmp/contents"
	fi
	check "$n: conffiles is /etc/pfsel/system.pfw" \
		bash -c "[ \"\$(dpkg-deb --ctrl-tarfile '$deb' | tar -xOf - ./conffiles)\" = /etc/pfsel/system.pfw ]"
	for p in libsepol2 libnl-3-200 libnl-genl-3-200 libc6; do
		check "$n: Depends on $p" grep -q "\\b$p\\b" <<<"$depends"
	done
	if grep -qx /usr/bin/pfsel "$tmp/contents"; then
		check "$n: Depends on $auparse_package (pfsel audit2pfw)" \
			grep -qE "(^|, )$auparse_package( |,|\$)" <<<"$depends"
	fi
	check "$n: holds pfsel-prompt, its user unit and .desktop file" bash -c \
		"grep -qxF /usr/bin/pfsel-prompt '$tmp/contents' && grep -qxF /usr/lib/systemd/user/pfsel-monitor.service '$tmp/contents' && grep -qxF /usr/share/applications/org.pfsel.Monitor.desktop '$tmp/contents'"
	check "$n: pfsel-prompt is mode 0711" bash -c \
		"dpkg-deb --contents '$deb' | grep -q '^-rwx--x--x .* ./usr/bin/pfsel-prompt\$'"
	check "$n: Depends on libgtk-4-1 (pfsel-prompt)" grep -q '\blibgtk-4-1\b' <<<"$depends"
	if grep -q 'pam_pfsel.so$' "$tmp/contents"; then
		check "$n: Depends on libpam0g (pam_pfsel)" grep -q '\blibpam0g\b' <<<"$depends"
	fi
	check "$n: does not depend on itself" bash -c "! grep -q pfsel <<<'$depends'"
	mkdir -p "$tmp/ctrl" "$tmp/x"
	dpkg-deb --control "$deb" "$tmp/ctrl"
	dpkg-deb -x "$deb" "$tmp/x"
	check "$n: postinst and postrm parse (sh -n)" sh -n "$tmp/ctrl/postinst" "$tmp/ctrl/postrm"
	# shellcheck disable=SC2016 # the maintainer script's text
	check "$n: postinst enables the boot unit" grep -q 'deb-systemd-helper enable "$unit"' "$tmp/ctrl/postinst"
	check "$n: the units name /usr" \
		bash -c "grep -q '^ExecStart=/usr/libexec/pfsel/load-system-policy load' '$tmp/x$unitdir/pfsel-load-system-policy.service' && grep -q '^ExecStart=/usr/bin/pfsel-agent ' '$tmp/x$unitdir/pfsel-agent@.service'"
	check "$n: libpfsel.pc names /usr" \
		grep -qx libdir=/usr/lib/x86_64-linux-gnu "$tmp/x/usr/lib/x86_64-linux-gnu/pkgconfig/libpfsel.pc"
	check "$n: md5sums match" bash -c "cd '$tmp/x' && md5sum --quiet -c '$tmp/ctrl/md5sums'"
	# Built for the release, from a source package.
	check "$n: the version is built for $suite ($version)" \
		grep -qE "\\+deb$(debian_release "$suite" | cut -d' ' -f2)\$" <<<"$version"
	check "$n: the source package beside it (pfsel_$version.dsc, .tar.xz)" \
		test -f "$out/pfsel_$version.dsc" -a -f "$out/pfsel_$version.tar.xz"
	check "$n: the .changes is for $suite" \
		grep -qx "Distribution: $suite" "$out/pfsel_${version}_amd64.changes"
	check "$n: lintian ran ($suite's, in the chroot)" test -f "$out/lintian.log"
	check "$n: lintian: no error, warning or info tag but the overridden ones" \
		bash -c "! grep -E '^[EWI]: ' '$out/lintian.log'"
	grep '^O: ' "$out/lintian.log" 2>/dev/null | sed 's/^/    /'
	rm -rf "$tmp"
}

# lintian_overrides_explained FILE...: every override in FILEs (lintian's
# override files) has a comment just above it, saying why.
lintian_overrides_explained() {
	awk 'FNR == 1 { why = 0 }
		/^#/ { why = 1; next }
		/^[[:space:]]*$/ { why = 0; next }
		!why { print FILENAME ": no comment says why: " $0; bad = 1 }
		END { exit bad }' "$@"
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
