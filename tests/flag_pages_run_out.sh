# A process's control file has room for 1024 pages of C sites' flag
# bytes, a page for each unit's sites.  A process of 1025 modules (copies
# of the test plugin under 1025 names, each a unit with a site) maps 1024;
# the last module's site, whose page could not be mapped, has its byte
# set for good: it reads its enable word at each run, and records what
# is enabled, exactly.
. "$(dirname "$0")/lib.sh"
n=1025
mkdir "$T/libs"
i=1
while [ $i -le $n ]; do
	cp "$PLUGIN" "$T/libs/libp$i.so"
	i=$((i + 1))
done
mkfifo "$T/in"
# shellcheck disable=SC2046
"$TRACEE" dlopen-all $(i=1; while [ $i -le $n ]; do echo "$T/libs/libp$i.so"; i=$((i + 1)); done) \
	<"$T/in" >"$T/out" 2>"$T/err" &
p=$!
BG_PIDS="$BG_PIDS $p"
exec 8>"$T/in"
wait_for "the program" "grep -q ready '$T/out'"
# The control file's pages mapped over the modules' flag pages (4 kB
# each; the file's own mapping is larger).
ctl=$(basename "$(ls "$EVTRACE_RUNDIR"/"$p"-*.ctl)")
pages=$(python3 -c '
import sys
n = 0
for line in open(sys.argv[1]):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    n += f[-1].endswith("/" + sys.argv[2]) and hi - lo == 4096
print(n)' "/proc/$p/maps" "$ctl")
expect_eq "$pages" 1024 "flag pages mapped from the control file"
round 0
# Rounds 1 and 2 with the last module's event and the first's on.
"$EVTRACE" record -q -p "$p" -e "printk/libp$n.so/" -e printk/libp1.so/ -o "$T/tr" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the recording's collection" "collection_in $p $rec"
round 1
round 2
kill -INT "$rec"
wait "$rec" || fail "record -p: $(cat "$T/rec.err")"
round 3
exec 8>&-
wait "$p" || fail "the program failed: $(cat "$T/err")"
"$EVTRACE" report "$T/tr" | sed -n 's|.*printk/\(libp[0-9]*\)\.so/[^:]*: \(plugin round [0-9]*\)$|\1 \2|p' |
	tr '\n' , >"$T/got"
expect_eq "$(cat "$T/got")" \
	"libp1 plugin round 1,libp$n plugin round 1,libp1 plugin round 2,libp$n plugin round 2," \
	"the first module's events and the last's, rounds 1 and 2"
echo "ok: 1024 flag pages mapped; the site without one reads its word"
