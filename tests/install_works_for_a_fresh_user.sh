# A new user follows the README: after the per-user install, the README's
# three lines are enough to build its example with its own cc line and to
# trace it; `make install` prints those lines.  After `make install` as
# root into /usr/local, a new user builds and runs the same example with
# nothing set (the loader's cache was updated).  Installs into the real
# /usr/local, and removes what it installed.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: installs into /usr/local and makes a user: needs root"; exit 77; }
skip_if_sanitized "a program built against the installed library"
SRC=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(meson introspect "$BUILD" --buildoptions |
	python3 -c 'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
[ "$prefix" = /usr/local ] || { echo "SKIP: $BUILD installs into $prefix, not /usr/local"; exit 77; }
if [ -n "$(find /usr/local -name 'libevtrace.so*' -o -name evtrace.pc 2>/dev/null)" ]; then
	echo "SKIP: evtrace is installed in /usr/local already; this test installs it there and removes it"
	exit 77
fi

u=evt-newcomer
id "$u" >/dev/null 2>&1 && fail "user $u exists already"
useradd -m -s /bin/sh "$u" || fail "useradd $u"
USERS_USED=$u USERS_MADE=$u
home=$(getent passwd "$u" | cut -d: -f6)
uid=$(id -u "$u")
RESTORE="rm -rf '$home' /dev/shm/evtrace-$uid"

# The README's example, its cc line and its per-user lines.
sed -n '/^## Instrumenting a program/,/^## /p' "$SRC/README.md" |
	awk '/^```c$/ { n++; next } /^```$/ && n == 1 { exit } n == 1' >"$T/demo.c"
grep -q 'int main' "$T/demo.c" || fail "no example with a main in the README"
cc_line=$(sed -n 's/^    \(cc -o demo demo.c .*\)$/\1/p' "$SRC/README.md")
[ -n "$cc_line" ] || fail "no cc line for the example in the README"
sed -n '/^make install PREFIX=\$HOME\/.local$/,/^```$/p' "$SRC/README.md" | sed '1d;$d' >"$T/profile"
[ "$(grep -c '^export ' "$T/profile")" = 3 ] || fail "the README's per-user lines: $(cat "$T/profile")"
cp "$T/demo.c" "$T/profile" "$home/"
chown "$u" "$home/demo.c" "$home/profile"

# As `make install PREFIX=$HOME/.local` lays it out (the build's own
# layout, libraries in lib/): what it installs, moved there.
meson install -C "$BUILD" --no-rebuild --destdir "$T/stage" >/dev/null || fail "meson install --destdir"
arch_lib=$(meson introspect "$BUILD" --buildoptions |
	python3 -c 'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"][0])')
mkdir -p "$home/.local/lib"
cp -a "$T/stage/usr/local/bin" "$T/stage/usr/local/include" "$T/stage/usr/local/share" "$home/.local/"
cp -a "$T/stage/usr/local/$arch_lib/." "$home/.local/lib/"
sed -i -e "s|^prefix=.*|prefix=$home/.local|" -e 's|^libdir=.*|libdir=${prefix}/lib|' "$home/.local/lib/pkgconfig/"*.pc
chown -R "$u" "$home/.local"
as_login() { su -l "$u" -c "$1"; }
as_login 'cd && . ./profile && '"$cc_line"' && evtrace record -o tr -- ./demo && evtrace report tr' \
	>"$T/user.out" 2>&1 || fail "the per-user install with the README's lines: $(cat "$T/user.out")"
expect_grep ': printk/demo/demo.c/5: migrate task kworker/0:42$' "$T/user.out" "the per-user install traces the example"
# make install says the lines a shell lacks, as the README has them.
as_login "env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH sh '$SRC/scripts/after_install.sh' '$home/.local' '$home/.local/lib' '$home/.local/bin'" \
	>"$T/said" 2>&1 || fail "after_install.sh for a user: $(cat "$T/said")"
expect_grep "^evtrace: installed in $home/.local; " "$T/said" "make install's word to a user"
sed -n 's/^    export /export /p' "$T/said" | sed "s|$home|\$HOME|g" >"$T/said.lines"
[ "$(grep -c LD_LIBRARY_PATH "$T/said.lines")" = 1 ] && [ "$(grep -c PKG_CONFIG_PATH "$T/said.lines")" = 1 ] ||
	fail "make install does not say LD_LIBRARY_PATH and PKG_CONFIG_PATH: $(cat "$T/said")"
while read -r line; do
	grep -qxF "$line" "$T/profile" || fail "make install says '$line', which the README does not"
done <"$T/said.lines"
rm -rf "$home/.local" "$home/tr" "$home/demo"

# make install as root, into /usr/local, then a new login with nothing set.
find /usr/local -type d | sort >"$T/dirs.before"
RESTORE="$RESTORE; uninstall"
uninstall() {
	[ -f "$T/installed" ] && grep -v '^#' "$T/installed" | while read -r f; do [ -d "$f" ] || rm -f "$f"; done
	find /usr/local -depth -type d | sort -r | while read -r d; do
		grep -qxF "$d" "$T/dirs.before" || rmdir "$d" 2>/dev/null || true
	done
	ldconfig
}
meson install -C "$BUILD" --no-rebuild >"$T/install.out" 2>&1 || fail "meson install: $(cat "$T/install.out")"
cp "$BUILD/meson-logs/install-log.txt" "$T/installed"
grep -q "/usr/local/$arch_lib/libevtrace.so.0" "$T/installed" || fail "the install log does not list libevtrace.so.0"
ldconfig -p | grep -q " => /usr/local/$arch_lib/libevtrace.so.0$" || fail "the loader's cache does not have libevtrace.so.0"
as_login 'cd && '"$cc_line"' && ./demo && evtrace record -o tr -- ./demo && evtrace report tr' \
	>"$T/root.out" 2>&1 || fail "after make install as root: $(cat "$T/root.out")"
expect_grep ': printk/demo/demo.c/5: migrate task kworker/0:42$' "$T/root.out" "the system install traces the example"
as_login 'man -w evtrace' >"$T/man" 2>&1 || fail "man evtrace: $(cat "$T/man")"
expect_grep '^/usr/local/\(share/\)\?man/man1/evtrace\.1' "$T/man" "the man page found"
# As root into a directory the loader does not search (PREFIX=/opt/...):
# said, with both ways out.
mkdir -p "$T/opt/lib" "$T/opt/bin"
sh "$SRC/scripts/after_install.sh" "$T/opt" "$T/opt/lib" "$T/opt/bin" >"$T/opt.out" 2>&1 ||
	fail "after_install.sh into $T/opt: $(cat "$T/opt.out")"
expect_eq "$(cat "$T/opt.out")" "evtrace: the loader does not look in $T/opt/lib: add that directory to a file in /etc/ld.so.conf.d/ and run ldconfig, or set LD_LIBRARY_PATH=$T/opt/lib for programs built against evtrace" \
	"make install as root where the loader does not look"
