# shellcheck shell=sh
# The oracle's guest files, sourced by oracle.sh and default-area.sh:
# Debian packages fetched once into CACHE (cache=, an absolute path;
# kver=, the kernel's Debian version; here=, bench/oracle), the arm64
# ones through a private apt state so that the host's apt configuration
# gains no architecture, and unpacked with dpkg-deb -x, never installed;
# and the out-of-tree modules of module/, built against the headers.

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# apt_arm64 ARGS: apt-get for arm64 packages with a private state in CACHE
apt_arm64() {
	a=$cache/apt-arm64
	mkdir -p "$a/lists/partial" "$a/archives/partial"
	apt-get -qq -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o Dir::State::Lists="$a/lists" -o Dir::Cache="$a" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 "$@"
}

# fetch ARCH PKG: the .deb of PKG for ARCH in CACHE/deb (downloaded once)
fetch() {
	d=$cache/deb
	mkdir -p "$d"
	ls "$d/$2"_*_"$1".deb >/dev/null 2>&1 && return 0
	echo "${0##*/}: downloading $2 ($1) into $d" >&2
	if [ "$1" = arm64 ]; then
		# the lists, not their directory: an update that failed left it
		ls "$cache/apt-arm64/lists/"*_Packages* >/dev/null 2>&1 || apt_arm64 update ||
			die "cannot read the arm64 package lists"
		(cd "$d" && apt_arm64 download "$2") 2>/dev/null
	else
		(cd "$d" && apt-get -qq download "$2") 2>/dev/null
	fi
	ls "$d/$2"_*_"$1".deb >/dev/null 2>&1 ||
		die "could not download $2 ($1); list the available ones with: apt-cache search linux-image-6.12 (then ORACLE_KVER=...)"
}

# guest_files ARCH: CACHE/ARCH/{vmlinuz,config,busybox,oracle-helper,lib}
guest_files() {
	g=$cache/$1
	mkdir -p "$g"
	if [ ! -f "$g/vmlinuz" ]; then
		fetch "$1" "linux-image-$kver-$1-unsigned"
		rm -rf "$g/x" && dpkg-deb -x "$cache/deb/linux-image-$kver-$1-unsigned"_*_"$1".deb "$g/x" || exit 1
		cp "$g/x/boot/vmlinuz-$kver-$1" "$g/vmlinuz" &&
			cp "$g/x/boot/config-$kver-$1" "$g/config" &&
			rm -rf "${g:?}/lib" && mv "$g/x/lib/modules/$kver-$1" "$g/lib" && rm -rf "$g/x" || exit 1
	fi
	if [ ! -f "$g/busybox" ]; then
		if [ "$1" = arm64 ]; then
			fetch arm64 busybox-static
			rm -rf "$g/x" && dpkg-deb -x "$cache/deb/busybox-static"_*_arm64.deb "$g/x" &&
				cp "$g/x/bin/busybox" "$g/busybox" && rm -rf "$g/x" || exit 1
		else
			cp "$(command -v busybox)" "$g/busybox" || exit 1
		fi
	fi
	cc=gcc
	[ "$1" = arm64 ] && cc=aarch64-linux-gnu-gcc
	if [ ! -f "$g/oracle-helper" ] || [ "$here/helper.c" -nt "$g/oracle-helper" ]; then
		$cc -O2 -Wall -Wextra -static -o "$g/oracle-helper" "$here/helper.c" || exit 1
	fi
}

# pack_initramfs DIR FILE: DIR as a gzipped cpio, reproducibly: the same
# bytes from the same files (sorted, owned by 0:0, every mtime 0, gzip -n)
pack_initramfs() {
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . | LC_ALL=C sort | cpio --reproducible -o -H newc -R 0:0 2>/dev/null) |
		gzip -n -9 > "$2" || exit 1
}

# headers: CACHE/arm64/headers, the three packages unpacked together (the
# arm64 one's scripts and tools are relative links into the kbuild one)
headers() {
	h=$cache/arm64/headers
	[ -d "$h" ] && return 0
	host=$(dpkg --print-architecture)
	fetch arm64 "linux-headers-$kver-arm64"
	fetch all "linux-headers-$kver-common"
	fetch "$host" "linux-kbuild-$kver"
	rm -rf "$h.x" && mkdir -p "$h.x" || exit 1
	d=$cache/deb
	for f in "$d/linux-headers-$kver-arm64"_*_arm64.deb "$d/linux-headers-$kver-common"_*_all.deb \
		"$d/linux-kbuild-$kver"_*_"$host".deb; do
		dpkg-deb -x "$f" "$h.x" || exit 1
	done
	# its Makefile includes the common part by its installed path
	echo "include $h/usr/src/linux-headers-$kver-common/Makefile" > \
		"$h.x/usr/src/linux-headers-$kver-arm64/Makefile" && mv "$h.x" "$h" || exit 1
}

# build_module NAME [VARIANT]: CACHE/arm64/NAME.ko from module/NAME.c, built
# against Debian's linux-headers with the cross compiler (no BTF: pahole is
# not needed); default-area.sh and oracle.sh's experiments with module= use
# it. With VARIANT (module_variant=), CACHE/arm64/NAME-VARIANT.ko, built with
# -DNAME_VARIANT in upper case (oracle_cma direct: -DORACLE_CMA_DIRECT); the
# build without one is unchanged
build_module() {
	ko=$cache/arm64/$1${2:+-$2}.ko
	[ -f "$ko" ] && [ "$ko" -nt "$here/module/$1.c" ] && return 0
	headers
	kd=""
	[ -n "${2:-}" ] && kd=-D$(echo "$1_$2" | tr 'a-z' 'A-Z')
	w=$(mktemp -d "$cache/module.XXXXXX")
	cp "$here/module/$1.c" "$here/module/Kbuild" "$w/" &&
		make -s -C "$cache/arm64/headers/usr/src/linux-headers-$kver-arm64" M="$w" \
			ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CONFIG_DEBUG_INFO_BTF_MODULES= ${kd:+KCFLAGS=$kd} modules &&
		cp "$w/$1.ko" "$ko" || die "module/$1.c did not build against linux-headers-$kver-arm64"
	rm -rf "$w"
}
