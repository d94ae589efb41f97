# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# A kernel package signed for UEFI Secure Boot with a Machine Owner Key:
# what packaging/build-kernel-deb sources when it is given a key
# (make deb-kernel[-vm] SIGNING_KEY=KEY SIGNING_CERT=CERT).  shim trusts
# what the key signs once the certificate is enrolled with mokutil
# (docs/INSTALL.md): the image, signed here with sbsign (sbsigntool), and
# through the kernel built with the certificate in it, the modules, which
# the kernel's own module signing signs (packaging/kernel/signing.config).
#
#   signing_check KEY CERT DIR
#       before anything is built: sbsign, sbverify and openssl installed;
#       KEY a private key in PEM form without a passphrase, CERT an X.509
#       certificate (PEM or DER) of that very key.  Writes DIR/cert.pem.
#   signing_write_kernel_key KEY CERT_PEM FILE
#       the key and the certificate in one PEM file, mode 0600, as
#       CONFIG_MODULE_SIG_KEY wants them.
#   signing_sign_image KEY CERT_PEM IMAGE
#       IMAGE (an EFI program: the kernel's EFI stub) signed in place, and
#       the signature checked with sbverify.
#   signing_sign_package KEY CERT_PEM DEB
#       the kernel images (boot/vmlinuz-*) in the package DEB signed, its
#       md5sums made to match, and the package made again in DEB's place.
#   signing_check_packages CERT_PEM DEB...
#       what the packages hold: every linux-image package's kernel image
#       verifies with the certificate, every module is signed with its key
#       (modinfo), and no package holds a private key's file.
#
# Each prints one line on stderr when it fails, "build-kernel-deb: ...",
# naming the file and what is wrong with it, and returns 1.

signing_fail() {
	echo "build-kernel-deb: $*" >&2
	return 1
}

# signing_readable WHAT FILE: FILE exists, is a file and opens.
signing_readable() {
	local what=$1 file=$2
	if [ ! -e "$file" ]; then
		signing_fail "$what $file: no such file"
	elif [ -d "$file" ]; then
		signing_fail "$what $file: a directory, not a file"
	elif ! { : <"$file"; } 2>/dev/null; then
		signing_fail "$what $file: cannot be read"
	fi
}

# signing_openssl_error FILE: the first line openssl said about FILE.
signing_openssl_error() {
	sed -n '1{s/^[0-9A-F]*:error:[0-9A-F]*://; p}' "$1"
}

signing_check() {
	local key=$1 cert=$2 dir=$3 tool package err=$3/openssl.err
	for tool in openssl sbsign sbverify; do
		package=sbsigntool
		[ "$tool" != openssl ] || package=openssl
		if ! command -v "$tool" >/dev/null; then
			signing_fail "signing needs $tool, which is not installed (apt-get install $package; scripts/install-deps installs it)"
			return 1
		fi
	done
	signing_readable "signing key (SIGNING_KEY)" "$key" || return 1
	signing_readable "signing certificate (SIGNING_CERT)" "$cert" || return 1
	if grep -qE -- '-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: 4,ENCRYPTED' "$key"; then
		signing_fail "signing key $key: protected by a passphrase, which an unattended build cannot type; write it out without one (openssl pkey -in $key -out KEY, kept where only you can read it)"
		return 1
	fi
	if ! openssl pkey -in "$key" -inform PEM -passin pass: -noout 2>"$err"; then
		signing_fail "signing key $key: not a private key in PEM form ($(signing_openssl_error "$err"))"
		return 1
	fi
	if ! openssl x509 -in "$cert" -inform PEM -out "$dir/cert.pem" 2>/dev/null &&
		! openssl x509 -in "$cert" -inform DER -out "$dir/cert.pem" 2>"$err"; then
		signing_fail "signing certificate $cert: not an X.509 certificate, PEM or DER ($(signing_openssl_error "$err"))"
		return 1
	fi
	# The certificate must be the key's: its public key, the key's.
	if ! cmp -s <(openssl pkey -in "$key" -passin pass: -pubout -outform DER 2>/dev/null) \
		<(openssl x509 -in "$dir/cert.pem" -noout -pubkey | openssl pkey -pubin -outform DER 2>/dev/null); then
		signing_fail "signing certificate $cert is not the certificate of the signing key $key (their public keys differ)"
		return 1
	fi
}

signing_write_kernel_key() {
	local key=$1 cert_pem=$2 file=$3
	rm -f "$file"
	(
		umask 077
		openssl pkey -in "$key" -passin pass: >"$file" && cat "$cert_pem" >>"$file"
	) || signing_fail "could not write the module signing key $file"
}

signing_sign_image() {
	local key=$1 cert_pem=$2 image=$3
	if ! sbsign --key "$key" --cert "$cert_pem" --output "$image.signed" "$image" >"$image.sbsign.log" 2>&1; then
		signing_fail "sbsign could not sign $image: $(grep -v '^warning' "$image.sbsign.log" | head -n 1)"
		return 1
	fi
	if ! sbverify --cert "$cert_pem" "$image.signed" >/dev/null 2>&1; then
		signing_fail "sbverify does not verify the image sbsign signed ($image.signed)"
		return 1
	fi
	mv "$image.signed" "$image"
	rm -f "$image.sbsign.log"
}

signing_sign_package() {
	local key=$1 cert_pem=$2 deb=$3 dir image name
	dir=$(mktemp -d "$deb.XXXXXX")
	if ! dpkg-deb --raw-extract "$deb" "$dir/pkg"; then
		rm -rf "$dir"
		signing_fail "dpkg-deb could not unpack $deb"
		return 1
	fi
	for image in "$dir"/pkg/boot/vmlinuz-*; do
		name=${image#"$dir"/pkg/}
		if ! signing_sign_image "$key" "$cert_pem" "$image"; then
			rm -rf "$dir"
			return 1
		fi
		sed -i "s|^[0-9a-f]*  $name\$|$(cd "$dir/pkg" && md5sum "$name")|" "$dir/pkg/DEBIAN/md5sums"
	done
	if ! dpkg-deb --root-owner-group --build "$dir/pkg" "$dir/signed.deb" >/dev/null; then
		rm -rf "$dir"
		signing_fail "dpkg-deb could not make $deb again"
		return 1
	fi
	mv "$dir/signed.deb" "$deb"
	rm -rf "$dir"
}

# signing_serial CERT_PEM: the certificate's serial number as modinfo
# prints a module's sig_key (hexadecimal, upper case, no separators).
signing_serial() {
	openssl x509 -in "$1" -noout -serial | sed 's/^serial=//; s/^0*//'
}

signing_check_packages() {
	local cert_pem=$1 deb name tmp image serial module sig bad
	shift
	serial=$(signing_serial "$cert_pem")
	for deb; do
		name=$(basename "$deb")
		if dpkg-deb --contents "$deb" | grep -qE '/(signing_key|pfsel-signing-key)\.pem$|\.priv$'; then
			signing_fail "$name holds a private key's file"
			return 1
		fi
		case $name in
		linux-image-*-dbg_*) continue ;;
		linux-image-*) ;;
		*) continue ;;
		esac
		tmp=$(mktemp -d)
		dpkg-deb --extract "$deb" "$tmp"
		for image in "$tmp"/boot/vmlinuz-*; do
			if ! sbverify --cert "$cert_pem" "$image" >/dev/null 2>&1; then
				rm -rf "$tmp"
				signing_fail "$name: ${image#"$tmp"} is not signed with the signing key"
				return 1
			fi
		done
		bad=0
		while IFS= read -r -d '' module; do
			sig=$(modinfo -F sig_key "$module" 2>/dev/null | tr -d ':' | sed 's/^0*//')
			if [ "$sig" != "$serial" ]; then
				signing_fail "$name: ${module#"$tmp"} is ${sig:+signed with another key ($sig)}${sig:-not signed}"
				bad=1
				break
			fi
		done < <(find "$tmp/lib/modules" -name '*.ko*' -print0 2>/dev/null)
		rm -rf "$tmp"
		[ $bad = 0 ] || return 1
	done
}
