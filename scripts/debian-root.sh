# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Minimal Debian roots, made with debootstrap and kept as tarballs: the
# clean chroot packaging/build-deb builds the tools package in, and the
# systems tests/packaging installs it on.  Sourced (bash) by
# packaging/build-deb and tests/packaging/lib.sh.
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
#   debian_root_tarball SUITE INCLUDE WORK
#       prints the name of the tarball that debian_root keeps:
#       WORK/SUITE-minbase-KEY.tar.gz, KEY naming the suite, INCLUDE and
#       debootstrap's version.
#
#   debian_root SUITE INCLUDE WORK ROOT
#       makes ROOT a "debootstrap --variant=minbase" root of SUITE with the
#       packages INCLUDE (comma-separated, may be empty), unpacked from
#       its tarball (debian_root_tarball).  Without that tarball it
#       debootstraps from debian_mirror, then installs INCLUDE there with
#       apt-get (no recommends, no service started; debootstrap's own
#       --include cannot resolve a virtual package, and trixie's GTK and
#       perl stacks depend on some), then keeps the tarball in place of any
#       older one (log: WORK/debootstrap.log).  Messages on stdout; on
#       failure the reason on stdout and status 1.
#
#   debian_chroot ROOT COMMAND...
#       runs COMMAND in ROOT as root, in a mount namespace of its own (so
#       that nothing stays mounted when it ends, however it ends) with
#       /proc and a /dev/pts of its own, and an environment of PATH,
#       HOME=/root and LANG=C.UTF-8 only.

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

debian_root_tarball() {
	local suite=$1 include=$2 work=$3 key
	key=$(printf '%s %s %s apt\n' "$suite" "$include" "$(dpkg-query -W -f='${Version}' debootstrap)" | sha256sum | cut -c1-12)
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
		echo "debootstrap $suite from $mirror${include:+, then apt-get install ${include//,/ }}"
		rm -rf "$work/bootstrap"
		if ! debootstrap --variant=minbase "$suite" "$work/bootstrap" "$mirror" \
			>"$work/debootstrap.log" 2>&1 ||
			! debian_apt_install "$work/bootstrap" "$include" >>"$work/debootstrap.log" 2>&1; then
			tail -n 30 "$work/debootstrap.log" | sed 's/^/    /'
			echo "debootstrap $suite failed (see $work/debootstrap.log)"
			rm -rf "$work/bootstrap"
			return 1
		fi
		rm -f "$work/$suite"-minbase-*.tar.gz
		tar -C "$work/bootstrap" --numeric-owner -cpf - . | gzip -1 >"$cache.tmp" &&
			mv "$cache.tmp" "$cache" || return 1
		rm -rf "$work/bootstrap"
		echo "debootstrap took $(($(date +%s) - start)) s (now cached as $(basename "$cache"))"
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

# debian_apt_install ROOT PACKAGES: PACKAGES (comma-separated) installed in
# the fresh ROOT from its release's mirror; no service starts.  Then the
# package cache and lists are dropped.
debian_apt_install() {
	local root=$1 packages=$2 status=0
	[ -n "$packages" ] || return 0
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	# shellcheck disable=SC2086 # one package a word
	debian_chroot "$root" apt-get update -q &&
		debian_chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends ${packages//,/ } || status=$?
	debian_chroot "$root" apt-get clean
	rm -rf "$root/usr/sbin/policy-rc.d" "$root/var/lib/apt/lists/"*
	return $status
}

debian_chroot() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -c '
		root=$1
		shift
		mount -t proc proc "$root/proc" &&
			mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" &&
			exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				HOME=/root LANG=C.UTF-8 "$@"
	' debian_chroot "$1" "${@:2}"
}
