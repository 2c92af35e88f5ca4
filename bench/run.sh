#!/bin/sh
# bench/run.sh BUILD_DIR - workload W1, ("migrate task %s:%d\n", comm, pid),
# with evtrace and its peers in one run, printed as one table and saved as
# bench/results/<date>.md.  Instructions come from callgrind (repeatable on
# a noisy machine); times from clock_gettime around tight loops, medians of
# RUNS runs with threads that live across runs.
set -eu
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bench=$B/bench/tracer_bench
evtrace=$B/cli/evtrace
work=$(mktemp -d /dev/shm/evtrace-bench.XXXXXX)	# tmpfs: engines drain to memory
export EVTRACE_RUNDIR=$work/run
N=1000000
RUNS=7
tracing=/sys/kernel/tracing
marker_was=""

cleanup() {
	if [ -n "$marker_was" ]; then
		echo "$marker_was" >"$tracing/tracing_on" 2>/dev/null || true
	fi
	if command -v lttng >/dev/null; then
		lttng destroy evtbench >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

has() { "$bench" "$1" 1 1 1 >/dev/null 2>&1; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
ns() { awk '{ print $2 }' | median; }
rate() { awk '{ printf "%.1f\n", $4 / 1e6 }' | median; }

# Instructions per loop iteration minus the empty loop's, by callgrind.
instr() {
	command -v valgrind >/dev/null || { echo n/a; return; }
	c() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$1" "$2" 1 1 2>&1 |
		sed -n 's/.*Collected : //p'; }
	a=$(c "$1" 100000); b=$(c "$1" 1100000); e1=$(c empty 100000); e2=$(c empty 1100000)
	printf '%.2f' "$(echo "($b - $a - ($e2 - $e1)) / 1000000" | bc -l)"
}

# One row: tracer, disabled instr, disabled ns, enabled ns, 2-thread Mev/s, lost.
row() { printf '%s|%s|%s|%s|%s|%s\n' "$@" >>"$work/rows"; }

# evtrace: disabled outside a recording, enabled inside one (overwrite
# mode: the write path alone; discard mode: the engine draining).
ev_instr=$(instr evtrace)
ev_dis=$("$bench" evtrace $N 1 $RUNS | ns)
record() {	# record THREADS MODE [TRACER PATTERN]
	"$evtrace" record $2 -e "${4:-printk}" -o "$work/trace" --packets 512 -- \
		"$bench" "${3:-evtrace}" $N "$1" $RUNS 2>"$work/rec.err" >"$work/out"
	sed -n 's/.*; \([0-9]*\) events lost/\1/p' "$work/rec.err" | tail -1 >"$work/lost"
}
record 1 --overwrite; ev_en=$(ns <"$work/out"); ev_rate1=$(rate <"$work/out")
record 2 --overwrite; ev_rate2=$(rate <"$work/out")
record 1 ""; ev_drain=$(ns <"$work/out"); ev_lost1=$(cat "$work/lost")
record 2 ""; ev_drain2=$(ns <"$work/out"); ev_lost2=$(cat "$work/lost")
row evtrace "$ev_instr" "$ev_dis" "$ev_en" "$ev_rate2" "$ev_lost1 / $ev_lost2 (draining)"

# W2, the typed event (u64, u32, i32, 7-character string); peers: issue 4.
w2_instr=$(instr evtrace-event)
w2_dis=$("$bench" evtrace-event $N 1 $RUNS | ns)
record 1 --overwrite evtrace-event bench; w2_en=$(ns <"$work/out")
record 2 --overwrite evtrace-event bench; w2_rate2=$(rate <"$work/out")
row "evtrace W2 typed event" "$w2_instr" "$w2_dis" "$w2_en" "$w2_rate2" "-"

# fprintf to a fully buffered file: always on.
"$bench" fprintf $N 1 $RUNS >"$work/out"; en=$(ns <"$work/out")
"$bench" fprintf $N 2 $RUNS >"$work/out"
row "fprintf (buffered file)" "-" "-" "$en" "$(rate <"$work/out")" 0

# ftrace's trace_marker: a write(2) per event, tracing on.
if [ -w "$tracing/trace_marker" ]; then
	marker_was=$(cat "$tracing/tracing_on")
	echo 1 >"$tracing/tracing_on"
	"$bench" marker 200000 1 $RUNS >"$work/out"; en=$(ns <"$work/out")
	"$bench" marker 200000 2 $RUNS >"$work/out"
	row "ftrace trace_marker" "-" "-" "$en" "$(rate <"$work/out")" "n/a (overwrites)"
fi

# A USDT probe: disabled only (enabling it takes a uprobe tracer).
if has usdt; then
	row "USDT probe (sys/sdt.h)" "$(instr usdt)" "$("$bench" usdt $N 1 $RUNS | ns)" "-" "-" "-"
fi

# LTTng-UST: disabled without a session, enabled inside a started one.
if has lttng && command -v lttng >/dev/null; then
	lttng list >/dev/null 2>&1 || lttng-sessiond --daemonize >/dev/null 2>&1 || true
	lt_dis=$("$bench" lttng $N 1 $RUNS | ns); lt_instr=$(instr lttng)
	tf_dis=$("$bench" lttng-tracef $N 1 $RUNS | ns); tf_instr=$(instr lttng-tracef)
	lttng create evtbench --output="$work/lttng" >/dev/null
	lttng enable-channel -u --subbuf-size=4M --num-subbuf=8 bench >/dev/null
	lttng enable-event -u -c bench 'evtbench:migrate' >/dev/null
	lttng enable-event -u -c bench 'lttng_ust_tracef:*' >/dev/null
	lttng start >/dev/null
	for t in lttng lttng-tracef; do
		"$bench" $t $N 1 $RUNS >"$work/$t.1"
		"$bench" $t $N 2 $RUNS >"$work/$t.2"
	done
	lttng stop >"$work/lttng.stop" 2>&1
	lttng destroy evtbench >>"$work/lttng.stop" 2>&1
	lt_lost=$(sed -n 's/.*Warning: \([0-9]*\) events were discarded.*/\1/p' "$work/lttng.stop" | head -1)
	row "LTTng-UST tracepoint" "$lt_instr" "$lt_dis" "$(ns <"$work/lttng.1")" "$(rate <"$work/lttng.2")" "${lt_lost:-0} (both)"
	row "LTTng-UST tracef()" "$tf_instr" "$tf_dis" "$(ns <"$work/lttng-tracef.1")" "$(rate <"$work/lttng-tracef.2")" "${lt_lost:-0} (both)"
fi

out=$here/results/$(date +%F).md
{
	printf '# W1: trace_printk("migrate task %%s:%%d\\\\n", comm, pid) and its peers - %s\n\n' "$(date -u '+%F %H:%M UTC')"
	echo "Machine: $(nproc) CPUs, $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')."
	echo "$N events per thread and run, median of $RUNS runs; evtrace under \`evtrace record\` (64 KiB x 512 packets per thread, overwrite mode for the write path), traces on tmpfs."
	echo
	echo "| tracer | disabled: instructions | disabled: ns | enabled: ns (1 thread) | 2 threads: M events/s | events lost | evtrace cheaper by |"
	echo "|---|---|---|---|---|---|---|"
	while IFS='|' read -r name di dn en r2 lost; do
		ratio="-"
		case "$en" in ''|-|n/a) ;; *) ratio=$(printf '%.1fx' "$(echo "$en / $ev_en" | bc -l)");; esac
		[ "$name" = evtrace ] && ratio="1x"
		case "$name" in "evtrace W2"*) ratio="-";; esac
		echo "| $name | $di | $dn | $en | $r2 | $lost | $ratio |"
	done <"$work/rows"
	echo
	echo "evtrace alone:"
	echo
	echo "| measure | value | target |"
	echo "|---|---|---|"
	echo "| disabled: instructions per site | $ev_instr | <= 3 |"
	echo "| enabled, 1 thread: ns per event (write path) | $ev_en | <= 20 |"
	echo "| W2 typed event: disabled instructions / enabled ns, 1 thread | $w2_instr / $w2_en | <= 3 / <= 20 |"
	echo "| 2-thread throughput / 1-thread | $(printf '%.2f' "$(echo "$ev_rate2 / $ev_rate1" | bc -l)") | >= 1.8 |"
	echo "| enabled with the engine draining, 1 / 2 threads: ns per event | $ev_drain / $ev_drain2 | |"
	echo "| one rdtsc on this machine, ns | $("$bench" rdtsc $N 1 $RUNS | ns) | |"
} | tee "$out"
echo
echo "saved to $out"
