#!/bin/sh
# after_install.sh PREFIX LIBDIR BINDIR - run by `meson install` (not
# into a DESTDIR: a package's own scripts run ldconfig).  As root it
# updates the loader's cache, so that programs built against the library
# start, and says so when the loader does not look in LIBDIR; for a user
# it prints the variables a shell needs to build and run with what was
# installed, those not set already.
prefix=$1 libdir=$2 bindir=$3
pcdir=$libdir/pkgconfig

if [ "$(id -u)" = 0 ]; then
	ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
	if ! "$ldconfig"; then
		echo "evtrace: ldconfig failed: run it before starting programs built against $libdir/libevtrace.so.0" >&2
		exit 0
	fi
	"$ldconfig" -p | grep -q " => $libdir/libevtrace\.so\.0\$" && exit 0
	echo "evtrace: the loader does not look in $libdir: add that directory to a file in /etc/ld.so.conf.d/ and run ldconfig, or set LD_LIBRARY_PATH=$libdir for programs built against evtrace" >&2
	exit 0
fi

# VAR DIR: DIR is one of $VAR's directories.
has() {
	eval "v=\${$1:-}"
	case ":$v:" in *":$2:"*) return 0;; esac
	return 1
}
missing=
has PATH "$bindir" || missing="$missing
    export PATH=\"$bindir:\$PATH\""
has LD_LIBRARY_PATH "$libdir" || missing="$missing
    export LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\""
has PKG_CONFIG_PATH "$pcdir" || missing="$missing
    export PKG_CONFIG_PATH=\"$pcdir\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\""
[ -z "$missing" ] && exit 0
echo "evtrace: installed in $prefix; to build and run programs with it, add to your shell's profile:$missing"
