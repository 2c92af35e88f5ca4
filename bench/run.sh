#!/bin/sh
# bench/run.sh BUILD_DIR - measure a disabled and an enabled trace_printk()
# site and print one table; the table is also saved as
# bench/results/<date>.md.  Instructions come from callgrind (repeatable on
# a noisy machine), times from clock_gettime around tight loops (medians).
set -eu
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bench=$B/bench/printk_bench
evtrace=$B/cli/evtrace
work=$(mktemp -d /dev/shm/evtrace-bench.XXXXXX)	# tmpfs: the engine drains to memory
trap 'rm -rf "$work"' EXIT
export EVTRACE_RUNDIR=$work/run
N=1000000
RUNS=7

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ns() { awk '{ print $2 }' | median; }
rate() { awk '{ print $4 }' | median; }

# Instructions per disabled site: callgrind totals at two loop lengths,
# minus the same for the empty loop.
instr() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$1" "$2" 1 1 2>&1 |
		sed -n 's/.*Collected : //p'
}
if command -v valgrind >/dev/null; then
	d1=$(instr site 100000); d2=$(instr site 1100000)
	e1=$(instr empty 100000); e2=$(instr empty 1100000)
	disabled_instr=$(echo "($d2 - $d1 - ($e2 - $e1)) / 1000000" | bc -l)
	disabled_instr=$(printf '%.2f' "$disabled_instr")
	# The enabled site under a recording (valgrind has no rseq, so the
	# CPU number costs a sched_getcpu() call here that it does not outside).
	rec_instr() {
		"$evtrace" record --overwrite -e printk -o "$work/cg" --packets 512 -- \
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" site "$1" 1 1 2>&1 |
			sed -n 's/.*Collected : //p'
	}
	r1=$(rec_instr 100000); r2=$(rec_instr 200000)
	enabled_instr=$(printf '%.0f' "$(echo "($r2 - $r1) / 100000" | bc -l)")
else
	disabled_instr="n/a (no valgrind)"
	enabled_instr="n/a"
fi

disabled_ns=$("$bench" site $N 1 $RUNS | ns)
empty_ns=$("$bench" empty $N 1 $RUNS | ns)
# $1 threads; $2 = overwrite: the writer never waits for the engine, so
# this is the write path alone; discard: the engine drains as it goes.
record() {
	mode=""; [ "$2" = overwrite ] && mode=--overwrite
	"$evtrace" record $mode -e printk -o "$work/trace" --packets 512 -- "$bench" site $N "$1" $RUNS \
		2>"$work/rec.err" >"$work/out"
	sed -n 's/.*; \([0-9]*\) events lost/\1/p' "$work/rec.err" >"$work/lost"
}
record 1 overwrite
enabled1_ns=$(ns <"$work/out"); rate1=$(rate <"$work/out")
record 2 overwrite
enabled2_ns=$(ns <"$work/out"); rate2=$(rate <"$work/out")
scaling=$(echo "$rate2 / $rate1" | bc -l)
record 1 discard
drain1_ns=$(ns <"$work/out"); lost1=$(cat "$work/lost")
record 2 discard
drain2_ns=$(ns <"$work/out"); lost2=$(cat "$work/lost")
rdtsc_ns=$("$bench" rdtsc $N 1 $RUNS | ns)

out=$here/results/$(date +%F).md
{
	printf '# trace_printk("migrate task %%s:%%d\\n", comm, pid) - %s\n\n' "$(date -u '+%F %H:%M UTC')"
	echo "Machine: $(nproc) CPUs, $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')."
	echo "$N events per thread and run, median of $RUNS runs, under \`evtrace record\` (64 KiB x 512 packets per thread), trace on tmpfs."
	echo
	echo "| measure | value | target |"
	echo "|---|---|---|"
	echo "| disabled: instructions per site (callgrind, loop subtracted) | $disabled_instr | <= 3 |"
	echo "| disabled: ns per site (loop included; empty loop $empty_ns ns) | $disabled_ns | |"
	echo "| enabled: instructions per event (callgrind, incl. a sched_getcpu call) | $enabled_instr | |"
	echo "| enabled, 1 thread: ns per event (overwrite mode: write path alone) | $enabled1_ns | <= 20 |"
	echo "| enabled, 2 threads: ns per event per thread (overwrite) | $enabled2_ns | |"
	echo "| 2-thread throughput / 1-thread (overwrite) | $(printf '%.2f' "$scaling") | >= 1.8 |"
	echo "| enabled, engine draining (discard), 1 / 2 threads: ns per event | $drain1_ns / $drain2_ns | |"
	echo "| events lost while draining (all runs), 1 / 2 threads | $lost1 / $lost2 | 0 |"
	echo "| for scale: one rdtsc on this machine, ns | $rdtsc_ns | |"
} | tee "$out"
echo
echo "saved to $out"
