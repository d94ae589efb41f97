# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# What the packaging tests share, sourced (bash) by tests/packaging/debian-image,
# secureboot, kernel-boot, kernel-deb, install-deps and flatpak.
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
# The system a test boots, made in a Debian root (debian_root) ROOT:
#
#   newest FILE...          the newest of FILEs (globs that matched
#                           nothing, and debug packages, skipped)
#   deb_depends DEB...      what the packages DEBs depend on, a package a
#                           line (the first of each alternative, no
#                           version): what a root needs for dpkg -i
#   install_debs ROOT LOG DEB...
#                           dpkg -i the packages in ROOT (debian_chroot:
#                           a kernel's initramfs hook wants /proc); the
#                           output in LOG, its end shown on a failure
#   guest_system ROOT HOSTNAME FSTAB
#                           ROOT's host name, /etc/hosts, /etc/fstab
#                           (FSTAB, its lines) and a machine id of its own
#   guest_network ROOT      DHCP on the Ethernet (QEMU's user network) by
#                           systemd-networkd
#   guest_login_user ROOT USER UID PASSWORD
#                           pam_pfsel in the PAM stack as docs/INSTALL.md
#                           says, and USER (UID, PASSWORD), whose login
#                           loads their ~/.pfw (the caller writes it)
#   guest_user ROOT USER UID PASSWORD ASK_SECONDS
#                           guest_login_user, and USER's policy and the
#                           agent's rule file (see the function)
#   guest_test_unit ROOT TEST ENVIRONMENT
#                           the unit that runs the guest's checks
#                           (/usr/local/lib/pfsel-test/run, which the
#                           caller installs) with ENVIRONMENT (systemd's
#                           Environment=) after multi-user.target, then
#                           powers off; enabled (a test says so)
#   guest_boot WORK ROOT RELEASE TIMEOUT [QEMU_ARG...]
#                           ROOT as an ext4 image (WORK/root.img, ROOT's
#                           size and $guest_spare_mib MiB more, 512 unless
#                           the caller says; ROOT removed), booted
#                           under QEMU (TCG, $guest_cpus, 2 GiB) with
#                           ROOT's /boot/vmlinuz-RELEASE, root=/dev/vda
#                           and systemd, for at most TIMEOUT seconds; its
#                           console on the first serial port
#                           (WORK/console.txt), the guest's results on the
#                           second (WORK/results.txt), QEMU_ARGs after
#                           (more ports, a network); sets guest_status
#                           (QEMU's, 124 for the time-out) and
#                           guest_seconds.  Status 1 when the image could
#                           not be made
#   guest_results PREFIX RESULTS CONSOLE
#                           the guest's lines in RESULTS from its first
#                           ("guest: ...": OVMF writes its console to the
#                           second serial port too): "PASS: NAME" and
#                           "FAIL: NAME" counted as "PREFIX: NAME", the
#                           rest shown; a test that the guest ran to its
#                           end ("DONE"), CONSOLE's end shown when not
#
# A disk as Debian installs one on a PC with UEFI, without a loop device
# (the files are made with mkfs -d, mtools and sgdisk):
#
#   disk_ids
#       sets root_uuid (the root file system's UUID), root_partuuid (its
#       GPT partition GUID), esp_id (the EFI system partition's FAT volume
#       ID, 8 hex digits) and esp_uuid (the same as fstab's
#       UUID=XXXX-XXXX), made anew.
#
#   empty_efi_system_partition ESP ID MIB
#       ESP: a FAT image of MIB MiB, volume ID ID, holding an empty EFI
#       folder: where grub-install puts GRUB, run in the system that has
#       it mounted at /boot/efi.
#
#   efi_system_partition ESP ROOT ID MIB
#       ESP as above, holding ROOT's Debian-signed shim, GRUB and MOK
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
#
#   root_disk DISK ESP ROOT WORK
#       DISK from ESP's image and ROOT as an ext4 file system (UUID
#       $root_uuid, label root, ROOT's size and 512 MiB more: mkfs.ext4
#       -d) in partition $root_partuuid; ROOT and ESP's image removed
#       (logs: WORK/mkfs.log, WORK/disk.log).  A test says whether the
#       disk was made.
#
# How a guest's CPUs run: $guest_cpus, QEMU's options for two CPUs under
# TCG, on one host thread (-accel tcg,thread=single).  QEMU 7.2's
# multi-threaded TCG can run code another vCPU has just patched in its old
# state: a Debian 13 image under it died at 1.2 s of its boot with "Oops:
# int3" (a kernel package's modules patch their static keys and calls
# while the other CPU runs; docs/FUZZING.md, "Hook timing and the int3").
# These boots test packages, not races (tests/vm/run's suite does that).

# shellcheck disable=SC2054 # a comma inside QEMU's option value
guest_cpus=(-accel tcg,thread=single -cpu max -smp 2)

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

newest() {
	local f best=
	for f in "$@"; do
		[ -e "$f" ] || continue
		case $f in *-dbg_*) continue ;; esac
		if [ -z "$best" ] || [ "$f" -nt "$best" ]; then best=$f; fi
	done
	echo "$best"
}

deb_depends() {
	local deb
	for deb in "$@"; do
		dpkg-deb --field "$deb" Depends | tr ',' '\n' |
			sed -E 's/\|.*//; s/\(.*\)//; s/:any//; s/[[:space:]]//g' | grep -v '^$'
	done
}

install_debs() {
	local root=$1 log=$2 deb status=0 in_root=()
	shift 2
	mkdir -p "$root/tmp/debs"
	for deb in "$@"; do
		cp "$deb" "$root/tmp/debs/"
		in_root+=("/tmp/debs/$(basename "$deb")")
	done
	debian_chroot "$root" env DEBIAN_FRONTEND=noninteractive dpkg -i "${in_root[@]}" >"$log" 2>&1 ||
		status=$?
	rm -rf "$root/tmp/debs"
	[ $status = 0 ] || sed 's/^/    /' "$log" | tail -n 30
	return $status
}

guest_system() {
	local root=$1 name=$2 fstab=$3
	echo "$name" >"$root/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
		"$name" >"$root/etc/hosts"
	printf '%s\n' "$fstab" >"$root/etc/fstab"
	: >"$root/etc/machine-id"
	chroot "$root" systemd-machine-id-setup >/dev/null 2>&1
}

guest_network() {
	printf '[Match]\nName=en*\n\n[Network]\nDHCP=ipv4\n' >"$1/etc/systemd/network/80-test.network"
	chroot "$1" systemctl enable systemd-networkd.service >/dev/null 2>&1
}

# The user's policy: a denial, and two questions for the agent, which the
# agent's rule file answers (allow one, deny the other); the rule file is
# root's, as the agent wants it.  Three more questions (ports 8010, 8011
# and 8012, where tests/packaging/debian-guest listens: the system policy
# keeps ports below 1024 for system servers), which no rule answers:
# pfsel-prompt asks the person, who has ASK_SECONDS to answer in (the
# guest is told).  The user has a password, which "pfsel confirm" asks
# for through polkit.
guest_login_user() {
	local root=$1 user=$2 uid=$3 password=$4
	echo "session optional pam_pfsel.so" >>"$root/etc/pam.d/common-session"
	chroot "$root" useradd -m -u "$uid" -s /bin/bash "$user"
	echo "$user:$password" | chroot "$root" chpasswd
}

guest_user() {
	local root=$1 user=$2 uid=$3 password=$4 ask_seconds=$5
	guest_login_user "$root" "$user" "$uid" "$password"
	cat >"$root/home/$user/.pfw" <<EOF
policy user;
default allow;
ask timeout ${ask_seconds}s;
ask unanswered deny;
deny * connect tcp to 127.0.0.1 port 7;
ask * connect tcp to 127.0.0.1 port 8, 9;
ask * connect tcp to 127.0.0.1 port 8010, 8011, 8012;
EOF
	mkdir -p "$root/etc/pfsel/agent"
	cat >"$root/etc/pfsel/agent/$user.rules" <<'EOF'
# pfsel-agent's answers, in .pfw rule syntax (pfsel-agent(1), RULE FILE)
allow * connect tcp to 127.0.0.1 port 8 scope once;
deny * connect tcp to 127.0.0.1 port 9;
EOF
	chroot "$root" chown -R "$user:$user" "/home/$user"
}

guest_test_unit() {
	local root=$1 test=$2 environment=$3
	cat >"$root/etc/systemd/system/pfsel-test.service" <<EOF
[Unit]
Description=pfsel test (tests/packaging/$test), then power off
After=multi-user.target

[Service]
Type=oneshot
Environment=$environment
ExecStart=/usr/local/lib/pfsel-test/run
ExecStopPost=/bin/systemctl --no-block poweroff

[Install]
WantedBy=multi-user.target
EOF
	chroot "$root" systemctl enable pfsel-test.service >/dev/null 2>&1
	check "the test unit is enabled in the image" \
		test -L "$root/etc/systemd/system/multi-user.target.wants/pfsel-test.service"
}

# shellcheck disable=SC2034 # set for the caller
guest_boot() {
	local work=$1 root=$2 release=$3 timeout=$4 size start
	shift 4
	cp "$root/boot/vmlinuz-$release" "$work/vmlinuz"
	rm -f "$work/root.img"
	size=$(($(du -sm "$root" | cut -f1) + ${guest_spare_mib:-512}))
	if ! mkfs.ext4 -q -F -L root -d "$root" "$work/root.img" "${size}M" >"$work/mkfs.log" 2>&1; then
		sed 's/^/    /' "$work/mkfs.log"
		return 1
	fi
	rm -rf "$root"
	echo "$(basename "$work"): image of ${size} MiB; booting $release (timeout ${timeout} s)"
	: >"$work/console.log"
	: >"$work/results.log"
	start=$(date +%s)
	guest_status=0
	timeout --foreground "$timeout" qemu-system-x86_64 \
		-nodefaults -no-user-config -no-reboot -display none -monitor none \
		"${guest_cpus[@]}" -m 2G \
		-kernel "$work/vmlinuz" -append "root=/dev/vda ro console=ttyS0 panic=-1" \
		-drive "file=$work/root.img,format=raw,if=virtio" \
		-serial "file:$work/console.log" -serial "file:$work/results.log" "$@" ||
		guest_status=$?
	guest_seconds=$(elapsed "$start")
	tr -d '\r' <"$work/console.log" >"$work/console.txt"
	tr -d '\r' <"$work/results.log" >"$work/results.txt"
	echo "$(basename "$work"): the VM ran ${guest_seconds} s (qemu status $guest_status)"
}

guest_results() {
	local prefix=$1 results=$2 console=$3 line
	while IFS= read -r line; do
		case $line in
		PASS:\ *) ok "$prefix: ${line#PASS: }" ;;
		FAIL:\ *) fail "$prefix: ${line#FAIL: }" ;;
		DONE) ;;
		*) echo "$line" ;;
		esac
	done < <(sed -n '/^guest: /,$p' "$results")
	if grep -qx DONE "$results"; then
		ok "$prefix: the guest's test ran to its end"
	else
		fail "$prefix: the guest's test ran to its end"
		tail -n 40 "$console" | sed 's/^/    /'
	fi
}

# shellcheck disable=SC2034 # set for the caller
disk_ids() {
	root_uuid=$(cat /proc/sys/kernel/random/uuid)
	root_partuuid=$(cat /proc/sys/kernel/random/uuid)
	esp_id=$(od -An -N4 -tx4 /dev/urandom | tr -d ' ' | tr a-f A-F)
	esp_uuid=${esp_id:0:4}-${esp_id:4:4}
}

empty_efi_system_partition() {
	local esp=$1 id=$2 mib=$3
	rm -f "$esp"
	mkfs.vfat -C -i "$id" -n EFI "$esp" $((mib * 1024)) >/dev/null &&
		mmd -i "$esp" ::/EFI
}

efi_system_partition() {
	local esp=$1 root=$2 id=$3 mib=$4
	empty_efi_system_partition "$esp" "$id" "$mib" &&
		mmd -i "$esp" ::/EFI/BOOT ::/EFI/debian &&
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

root_disk() {
	local disk=$1 esp=$2 root=$3 work=$4 rootfs=$4/root.img mib
	mib=$(($(du -sm "$root" | cut -f1) + 512))
	rm -f "$rootfs"
	if ! mkfs.ext4 -q -F -L root -U "$root_uuid" -d "$root" "$rootfs" "${mib}M" >"$work/mkfs.log" 2>&1; then
		sed 's/^/    /' "$work/mkfs.log"
		fail "mkfs.ext4 -d (the root)"
		return 1
	fi
	rm -rf "$root"
	if gpt_disk "$disk" "$esp" "$rootfs" "$root_partuuid" 2>"$work/disk.log"; then
		ok "the disk: GPT, EFI system partition (FAT), root (ext4)"
	else
		sed 's/^/    /' "$work/disk.log"
		fail "the disk: GPT, EFI system partition (FAT), root (ext4)"
		return 1
	fi
	rm -f "$esp" "$rootfs"
}
