# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Minimal Debian roots, made with debootstrap and kept as tarballs: the
# clean chroot packaging/build-deb builds the tools package in, and the
# systems tests/packaging installs it on.  Sourced (bash) by
# packaging/build-deb and tests/packaging/lib.sh.
#
# Every root of a release starts from one debootstrap of it, and every
# apt-get in them downloads into one package cache of that release, both
# kept in build/debian-roots/: a run of make check that builds the tools
# package for Debian 12 and 13 and installs it on both (and install-deps
# on a fresh Debian 12) debootstraps each release once, and downloads
# GTK, systemd and the rest once per release, not once per root.
#
#   debian_release NAME
#       the releases the project builds for and tests on: NAME is a
#       codename (bookworm, trixie) or a number (12, 13); prints
#       "CODENAME NUMBER" ("trixie 13").  Any other NAME: nothing, status
#       1 (the caller says what it was asked).
#
#   debian_host_release
#       prints this machine's codename (VERSION_CODENAME of /etc/os-release).
#
#   debian_mirror SUITE
#       prints the mirror apt uses for SUITE: $MIRROR when set, else the
#       URI of the first stanza of /etc/apt/sources.list.d/debian.sources
#       whose Suites has SUITE itself, else the first "deb" line of
#       /etc/apt/sources.list for SUITE; failing both, the same for this
#       machine's own release (a Debian mirror serves every release: a
#       Debian 12 machine's sources name bookworm only); nothing when
#       there is none.
#
#   debian_base SUITE
#       makes build/debian-roots/SUITE-minbase-KEY.tar.gz, the root of
#       "debootstrap --variant=minbase SUITE" from debian_mirror, unless
#       it is there (KEY names the suite and debootstrap's version; an
#       older one is removed).  One debootstrap at a time per suite: a
#       caller that finds another making it waits, then uses it.  Messages
#       on stdout (log: build/debian-roots/SUITE-debootstrap.log); on
#       failure the reason on stdout and status 1.
#
#   debian_archives SUITE
#       prints build/debian-roots/SUITE-archives, the package cache that
#       apt-get in a root of SUITE downloads into (debian_apt_install;
#       tests/packaging/install-deps); SUITE-archives.lock beside it is
#       held while an apt-get uses it.
#
#   debian_root_tarball SUITE INCLUDE WORK
#       prints the name of the tarball that debian_root keeps: with no
#       INCLUDE, debian_base's; else WORK/SUITE-minbase-KEY.tar.gz, KEY
#       naming INCLUDE and the base it was made from.
#
#   debian_root SUITE INCLUDE WORK ROOT
#       makes ROOT the minbase root of SUITE with the packages INCLUDE
#       (comma-separated, may be empty), unpacked from its tarball
#       (debian_root_tarball).  Without that tarball it unpacks
#       debian_base, installs INCLUDE there with apt-get (no recommends,
#       no service started; debootstrap's own --include cannot resolve a
#       virtual package, and trixie's GTK and perl stacks depend on some),
#       then keeps the tarball in place of any older one (log:
#       WORK/debootstrap.log).  Messages on stdout; on failure the reason
#       on stdout and status 1.
#
#   debian_chroot [--archives DIR] ROOT COMMAND...
#       runs COMMAND in ROOT as root, in a mount namespace of its own (so
#       that nothing stays mounted when it ends, however it ends) with
#       /proc and a /dev/pts of its own (and DIR as its package cache),
#       and an environment of PATH, HOME=/root and LANG=C.UTF-8 only.

debian_roots_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/debian-roots

debian_release() {
	case $1 in
	bookworm | 12) echo "bookworm 12" ;;
	trixie | 13) echo "trixie 13" ;;
	*) return 1 ;;
	esac
}

debian_host_release() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

debian_mirror() {
	local suite=$1 mirror=${MIRROR:-}
	for suite in "$suite" "$(debian_host_release)"; do
		if [ -n "$mirror" ] || [ -z "$suite" ]; then
			break
		fi
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
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
	done
	printf '%s\n' "$mirror"
}

debian_base_tarball() {
	local key
	key=$(printf '%s %s minbase\n' "$1" "$(dpkg-query -W -f='${Version}' debootstrap)" | sha256sum | cut -c1-12)
	echo "$debian_roots_dir/$1-minbase-$key.tar.gz"
}

debian_base() {
	local suite=$1 base mirror start lock status=0
	base=$(debian_base_tarball "$suite")
	mkdir -p "$debian_roots_dir"
	exec {lock}>"$debian_roots_dir/$suite-base.lock"
	flock "$lock"
	[ -f "$base" ] || mirror=$(debian_mirror "$suite")
	if [ -f "$base" ]; then
		echo "the $suite base from the cache ($(basename "$base"))"
	elif [ -z "$mirror" ]; then
		echo "no $suite mirror in /etc/apt/sources.list.d/debian.sources or sources.list (set MIRROR=URL)"
		status=1
	else
		echo "debootstrap $suite from $mirror (shared by every $suite root: ${base#"$debian_roots_dir/"})"
		start=$(date +%s)
		rm -rf "$debian_roots_dir/$suite-bootstrap"
		# (What debootstrap downloaded stays in the root's package cache,
		# which apt-get later finds hidden under the release's: dropped.)
		if debootstrap --variant=minbase "$suite" "$debian_roots_dir/$suite-bootstrap" "$mirror" \
			>"$debian_roots_dir/$suite-debootstrap.log" 2>&1 &&
			rm -f "$debian_roots_dir/$suite-bootstrap/var/cache/apt/archives/"*.deb &&
			tar -C "$debian_roots_dir/$suite-bootstrap" --numeric-owner -cpf - . | gzip -1 >"$base.tmp"; then
			rm -f "$debian_roots_dir/$suite"-minbase-*.tar.gz
			mv "$base.tmp" "$base"
			echo "debootstrap $suite took $(($(date +%s) - start)) s"
		else
			tail -n 30 "$debian_roots_dir/$suite-debootstrap.log" | sed 's/^/    /'
			echo "debootstrap $suite failed (see build/debian-roots/$suite-debootstrap.log)"
			rm -f "$base.tmp"
			status=1
		fi
		rm -rf "$debian_roots_dir/$suite-bootstrap"
	fi
	exec {lock}>&-
	return $status
}

debian_archives() {
	mkdir -p "$debian_roots_dir/$1-archives/partial"
	echo "$debian_roots_dir/$1-archives"
}

debian_root_tarball() {
	local suite=$1 include=$2 work=$3 base key
	base=$(debian_base_tarball "$suite")
	if [ -z "$include" ]; then
		echo "$base"
		return
	fi
	key=$(printf '%s %s %s apt\n' "$suite" "$include" "$(basename "$base")" | sha256sum | cut -c1-12)
	echo "$work/$suite-minbase-$key.tar.gz"
}

debian_root() {
	local suite=$1 include=$2 work=$3 root=$4 cache start
	cache=$(debian_root_tarball "$suite" "$include" "$work")
	start=$(date +%s)
	debian_base "$suite" || return 1
	if [ ! -f "$cache" ]; then
		echo "the $suite base, then apt-get install ${include//,/ }"
		rm -rf "$work/bootstrap"
		mkdir -p "$work/bootstrap"
		if ! tar -C "$work/bootstrap" --numeric-owner -xpzf "$(debian_base_tarball "$suite")" ||
			! debian_apt_install "$work/bootstrap" "$include" "$suite" >"$work/debootstrap.log" 2>&1; then
			tail -n 30 "$work/debootstrap.log" | sed 's/^/    /'
			echo "apt-get install in the $suite base failed (see $work/debootstrap.log)"
			rm -rf "$work/bootstrap"
			return 1
		fi
		rm -f "$work/$suite"-minbase-*.tar.gz
		tar -C "$work/bootstrap" --numeric-owner -cpf - . | gzip -1 >"$cache.tmp" &&
			mv "$cache.tmp" "$cache" || return 1
		rm -rf "$work/bootstrap"
		echo "the $suite root made in $(($(date +%s) - start)) s (now cached as $(basename "$cache"))"
	else
		echo "$suite root from the cache ($(basename "$cache"))"
	fi
	rm -rf "$root"
	mkdir -p "$root"
	if ! tar -C "$root" --numeric-owner -xpzf "$cache"; then
		echo "unpacking $cache failed"
		return 1
	fi
	echo "the root ready in $(($(date +%s) - start)) s"
}

# debian_apt_install ROOT PACKAGES SUITE: PACKAGES (comma-separated)
# installed in the fresh ROOT of SUITE from its release's mirror, through
# the release's package cache (debian_archives, held while apt-get runs);
# no service starts.  Then the package lists are dropped.
debian_apt_install() {
	local root=$1 packages=$2 archives lock status=0
	[ -n "$packages" ] || return 0
	archives=$(debian_archives "$3")
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	exec {lock}>"$archives.lock"
	flock "$lock"
	# shellcheck disable=SC2086 # one package a word
	debian_chroot --archives "$archives" "$root" apt-get update -q &&
		debian_chroot --archives "$archives" "$root" env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends ${packages//,/ } || status=$?
	exec {lock}>&-
	rm -rf "$root/usr/sbin/policy-rc.d" "$root/var/lib/apt/lists/"*
	return $status
}

debian_chroot() {
	local archives=
	if [ "$1" = --archives ]; then
		archives=$2
		shift 2
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -c '
		root=$1 archives=$2
		shift 2
		mount -t proc proc "$root/proc" &&
			mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" &&
			{ [ -z "$archives" ] || mount --bind "$archives" "$root/var/cache/apt/archives"; } &&
			exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				HOME=/root LANG=C.UTF-8 "$@"
	' debian_chroot "$1" "$archives" "${@:2}"
}
