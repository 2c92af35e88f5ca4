#!/bin/sh
# bench/run.sh BUILD_DIR - the workloads of issue 4 with evtrace and its
# peers in one run, printed as tables and saved as bench/results/<date>.md:
#   W1 printk ("migrate task %s:%d\n", comm, pid)
#   W2 event (u64 a, u32 b, i32 c, 7-character s)
#   W3 burst: 4 threads x 1M W2 events, default buffers, drained to tmpfs
#   W4 idle: 10,000 disabled sites in a loop, against no evtrace at all
#   W5 system calls: a getppid/write loop under evtrace trace (with the
#      written bytes copied by eBPF, and without), under evtrace record
#      -e kernel/syscalls/... (the same two ways), strace and perf trace,
#      its cost per call and what each tool kept
#   triggers: W1 under a flight recorder with and without triggers, and
#             how fast the recorder evaluates them
#   spans and counters: a scope and a counter against W1
#   query: a 10 M-event trace read into SQLite, beside report
# Instructions come from callgrind (repeatable on a noisy machine); times
# from clock_gettime around tight loops, medians of RUNS runs with threads
# that live across runs.
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
spin=""
hogs=""

cleanup() {
	if [ -n "$spin" ]; then
		kill "$spin" 2>/dev/null || true
	fi
	if [ -n "$hogs" ]; then
		# shellcheck disable=SC2086
		kill $hogs 2>/dev/null || true
	fi
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
ratio() { case "$1$2" in *-*|*n/a*) echo "-";; *) printf '%.1fx' "$(echo "$1 / $2" | bc -l)";; esac; }
ratio2() { case "$1$2" in *-*|*n/a*) echo "-";; *) printf '%.2fx' "$(echo "$1 / $2" | bc -l)";; esac; }

# Instructions per loop iteration minus the empty loop's, by callgrind,
# counted inside the loop functions only (LTTng-UST's own threads run
# beside them for as long as the program lives).
instr() {
	command -v valgrind >/dev/null || { echo n/a; return; }
	c() { valgrind --tool=callgrind --toggle-collect='run_*' --callgrind-out-file=/dev/null \
		"$bench" "$1" "$2" 1 1 2>&1 |
		sed -n 's/.*Collected : //p' | tail -1; }
	a=$(c "$1" 100000); b=$(c "$1" 1100000); e1=$(c empty 100000); e2=$(c empty 1100000)
	# A run that printed no count (seen once) is said, not counted as 0.
	case "$a.$b.$e1.$e2" in
	*[!0-9.]* | .* | *..* | *.) echo "n/a (callgrind printed no count)"; return;;
	esac
	printf '%.2f' "$(echo "($b - $a - ($e2 - $e1)) / 1000000" | bc -l)"
}

# Rows: workload|tracer|disabled instr|disabled ns|enabled ns|2-thread Mev/s|lost
row() { printf '%s|%s|%s|%s|%s|%s|%s\n' "$@" >>"$work/rows"; }

# evtrace under `record`: record THREADS TRACER PATTERN [OPTIONS...]
record() {
	threads=$1 tracer=$2 pattern=$3
	shift 3
	"$evtrace" record "$@" -e "$pattern" -o "$work/trace" -- \
		"$bench" "$tracer" $N "$threads" $RUNS 2>"$work/rec.err" >"$work/out"
}
lost() { sed -n 's/.*; \([0-9]*\) events\{0,1\} lost/\1/p' "$work/rec.err" | tail -1; }

# evtrace, W1 and W2: disabled outside a recording; enabled inside one with
# default buffers in overwrite mode, so that the write path is measured.
evtrace_rows() {	# W TRACER PATTERN
	di=$(instr "$2")
	dn=$("$bench" "$2" $N 1 $RUNS | ns)
	record 1 "$2" "$3" --overwrite; en=$(ns <"$work/out")
	best=$(awk '{ print $2 }' "$work/out" | sort -n | head -1)
	record 2 "$2" "$3" --overwrite; r2=$(rate <"$work/out")
	# Lost: one thread at full speed with the recorder draining.
	# The same with the recorder and the writer pinned to two CPUs (the
	# scheduler otherwise moves them onto one now and then).
	taskset -c 0 "$evtrace" record -e "$3" -o "$work/trace" -- taskset -c 1 \
		"$bench" "$2" $N 1 $RUNS 2>"$work/rec.err" >"$work/out"
	lp=$(lost)
	record 1 "$2" "$3"
	l1=$(lost)
	row "$1" evtrace "$di" "$dn" "$en" "$r2" "$l1 of $((N * RUNS)) (1 thread, draining)"
	# Bytes per event in the trace: stream bytes (packet headers and CPU
	# records included) over the events written.
	bytes=$(sed -n 's/.* packets, \([0-9]*\) bytes .*/\1/p' "$work/rec.err" | tail -1)
	bpe=$(printf '%.2f' "$(echo "$bytes / ($N * $RUNS - $l1)" | bc -l)")
	# Writers that wait for the recorder instead of dropping.
	record 1 "$2" "$3" --block; bn=$(ns <"$work/out"); bl1=$(lost)
	record 2 "$2" "$3" --block; br2=$(rate <"$work/out"); bl2=$(lost)
	row "$1" "evtrace record --block (5 ms)" - - "$bn" "$br2" "$bl1 of $((N * RUNS)) (1 thread); $bl2 of $((2 * N * RUNS)) (2 threads)"
	# The same with both CPUs held by other work (two busy loops), and
	# --block=inf beside it: a bounded wait runs out there, the
	# unbounded one must lose nothing; the ns are what waiting costs.
	for _ in 1 2; do sh -c 'while :; do :; done' & hogs="$hogs $!"; done
	record 1 "$2" "$3" --block; hn=$(ns <"$work/out"); hl1=$(lost)
	record 1 "$2" "$3" --block=inf; in=$(ns <"$work/out"); il1=$(lost)
	record 2 "$2" "$3" --block=inf; ir2=$(rate <"$work/out"); il2=$(lost)
	# shellcheck disable=SC2086
	kill $hogs; hogs=
	row "$1" "evtrace record --block (5 ms), both CPUs busy" - - "$hn" - "$hl1 of $((N * RUNS)) (1 thread)"
	row "$1" "evtrace record --block=inf, both CPUs busy" - - "$in" "$ir2" "$il1 of $((N * RUNS)) (1 thread); $il2 of $((2 * N * RUNS)) (2 threads)"
	# Scaling: 1 and 2 threads in alternation, the ratio of each pair,
	# so that the VM's slow spells (minutes long here) hit both sides.
	: >"$work/scale"
	for _ in 1 2 3 4 5; do
		record 1 "$2" "$3" --overwrite; a=$(rate <"$work/out")
		record 2 "$2" "$3" --overwrite; b=$(rate <"$work/out")
		echo "$b / $a" | bc -l >>"$work/scale"
	done
	eval "ev_$1_bpe=$bpe ev_$1_lost1=$l1 ev_$1_lostp=$lp ev_$1_block_lost=$bl1/$bl2 ev_$1_inf_lost=$il1/$il2 ev_$1_busy_block_lost=$hl1 ev_$1_en=$en ev_$1_best=$best ev_$1_instr=$di ev_$1_scale=$(printf '%.2f' "$(median <"$work/scale")")"
}
evtrace_rows W1 evtrace printk
evtrace_rows W2 evtrace-event bench
# The clock evtrace chose (the trace's metadata says), and the same
# enabled rows on the other clock, so both are measured on any machine.
clock_used=$(sed -n 's/.*description = "\(.*\)";/\1/p' "$work/trace/metadata" | head -1)
for w in W1 W2; do
	t=evtrace; p=printk; [ $w = W2 ] && t=evtrace-event p=bench
	other=monotonic; other_name=CLOCK_MONOTONIC
	case $clock_used in CLOCK_MONOTONIC*) other=tsc other_name=TSC;; esac
	EVTRACE_CLOCK=$other record 1 "$t" "$p" --overwrite
	if sed -n 's/.*description = "\(.*\)";/\1/p' "$work/trace/metadata" | grep -q "${other_name%%_*}"; then
		en=$(ns <"$work/out")
		EVTRACE_CLOCK=$other record 2 "$t" "$p" --overwrite
		row $w "evtrace on $other_name" - - "$en" "$(rate <"$work/out")" -
	fi
done

# Spans and counters: a scope (begin and end) and an integer counter per
# iteration, and a typed event with W1's arguments (a string and an int),
# enabled under the same kind of recording as W1, alternated with W1 so
# that the machine's slow spells hit them all.
: >"$work/sp.w1"; : >"$work/sp.scope"; : >"$work/sp.counter"; : >"$work/sp.typed"
for _ in 1 2 3; do
	record 1 evtrace printk --overwrite; ns <"$work/out" >>"$work/sp.w1"
	record 1 evtrace-typed-w1 'bench/migrate' --overwrite; ns <"$work/out" >>"$work/sp.typed"
	record 1 evtrace-scope 'span/bench' --overwrite; ns <"$work/out" >>"$work/sp.scope"
	record 1 evtrace-counter 'counter/bench' --overwrite; ns <"$work/out" >>"$work/sp.counter"
done
sp_w1=$(median <"$work/sp.w1"); sp_scope=$(median <"$work/sp.scope"); sp_counter=$(median <"$work/sp.counter")
sp_typed=$(median <"$work/sp.typed")
sp_typed_dis=$("$bench" evtrace-typed-w1 $N 1 $RUNS | ns)
# The typed event against W1 again with both CPUs kept busy (two loops at
# nice 5), where a slower path shows most.
: >"$work/sp.w1.busy"; : >"$work/sp.typed.busy"
hogs=""
for _ in 1 2; do nice -n 5 sh -c 'while :; do :; done' & hogs="$hogs $!"; done
for _ in 1 2 3; do
	record 1 evtrace printk --overwrite; ns <"$work/out" >>"$work/sp.w1.busy"
	record 1 evtrace-typed-w1 'bench/migrate' --overwrite; ns <"$work/out" >>"$work/sp.typed.busy"
done
# shellcheck disable=SC2086
kill $hogs; hogs=
sp_w1_busy=$(median <"$work/sp.w1.busy"); sp_typed_busy=$(median <"$work/sp.typed.busy")
sp_scope_dis=$("$bench" evtrace-scope $N 1 $RUNS | ns)
sp_counter_dis=$("$bench" evtrace-counter $N 1 $RUNS | ns)

# query: a trace of 10 M W1 events (5 threads, --block: none lost): the
# first answer to a GROUP BY over every event and the next (nothing is
# kept between them), beside babeltrace2 and report reading the same
# trace; peak memory of each; what query leaves beside the trace.
timed() {	# OUT COMMAND...: "seconds max-RSS-KiB" into OUT
	t_out=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%e %M' -o "$t_out" "$@" >/dev/null 2>"$t_out.err" || true
	else
		echo "n/a n/a" >"$t_out"
	fi
}
QN=2000000
"$evtrace" record --block -e printk -o "$work/qtrace" -- "$bench" evtrace $QN 5 1 >/dev/null 2>"$work/rec.err"
q_events=$((5 * QN - $(lost)))
q_mb=$(du -sm "$work/qtrace" | cut -f1)
ls -A "$work/qtrace" >"$work/q.ls"
timed "$work/q.report" "$evtrace" report "$work/qtrace"
if command -v babeltrace2 >/dev/null; then
	timed "$work/q.bt2" babeltrace2 "$work/qtrace"
else
	echo "n/a n/a" >"$work/q.bt2"
fi
q_group='SELECT name, count(*) FROM event GROUP BY name'
timed "$work/q.first" "$evtrace" query "$work/qtrace" "$q_group"
timed "$work/q.again" "$evtrace" query "$work/qtrace" "$q_group"
timed "$work/q.range" "$evtrace" query "$work/qtrace" \
	'SELECT count(*) FROM event WHERE ts BETWEEN (SELECT ts FROM event WHERE id = 1000000) AND (SELECT ts FROM event WHERE id = 1100000)'
timed "$work/q.messages" "$evtrace" query "$work/qtrace" \
	"SELECT count(*) FROM event WHERE message LIKE '%77 %'"
timed "$work/q.perfetto" "$evtrace" convert --to perfetto -o "$work/q.pftrace" "$work/qtrace"
# Python: counting the events per name with the evtrace module, and with
# babeltrace2's bindings (Debian's Python has both)
timed "$work/q.py_evtrace" env PYTHONPATH="$B/python" /usr/bin/python3 "$here/python_count.py" \
	evtrace "$work/qtrace"
if /usr/bin/python3 -c 'import bt2' 2>/dev/null; then
	timed "$work/q.py_bt2" /usr/bin/python3 "$here/python_count.py" bt2 "$work/qtrace"
else
	echo "n/a n/a" >"$work/q.py_bt2"
fi
# (bytes of what was not there after the recording)
q_kept=$(ls -A "$work/qtrace" | grep -vxF -f "$work/q.ls" |
	 sed "s|^|$work/qtrace/|" | xargs -r du -cb | tail -1 | cut -f1)
q_kept=${q_kept:-0}
q_rate() { awk -v n="$q_events" '{ if ($1 > 0) printf "%.2f", n / $1 / 1e6; else print "n/a" }' "$1"; }
q_rss() { awk '{ printf "%.0f", $2 / 1024 }' "$1"; }
q_s() { awk '{ print $1 }' "$1"; }
# babeltrace2's seconds over OUT's (or BASE's over OUT's)
q_vs() { awk -v b="$(q_s "${2:-$work/q.bt2}")" '{ if ($1 > 0 && b + 0 > 0) printf "%.1f", b / $1; else print "n/a" }' "$1"; }

# Triggers: W1 under a flight recorder, alone, with a trigger on another
# event (never written: the writer's cost must not change), and with a
# trigger on the W1 site itself that never fires (each event also goes to
# the triggers' stream and is compared: what evaluation costs the writer,
# and how fast the recorder evaluates).  Alternated, medians.
: >"$work/tg.none"; : >"$work/tg.other"; : >"$work/tg.same"
: >"$work/tg.cpu.none"; : >"$work/tg.cpu.same"
engine_cpu() { sed -n 's/.*engine CPU \([0-9.]*\) s.*/\1/p' "$work/rec.err"; }
w1_site=$("$evtrace" record -q -o "$work/trace" -- "$bench" evtrace 1 1 1 >/dev/null 2>&1;
	  "$evtrace" report "$work/trace" | sed -n 's/.*: \(printk\/[^:]*\): migrate.*/\1/p' | head -1)
for _ in 1 2 3; do
	record 1 evtrace printk --overwrite --stats; ns <"$work/out" >>"$work/tg.none"
	engine_cpu >>"$work/tg.cpu.none"
	record 1 evtrace printk --overwrite --trigger 'printk/nothing/**'; ns <"$work/out" >>"$work/tg.other"
	record 1 evtrace printk --overwrite --stats --trigger "$w1_site if arg1 == -1"
	ns <"$work/out" >>"$work/tg.same"
	engine_cpu >>"$work/tg.cpu.same"
	tg_fired=$(sed -n 's/.*triggers fired \([0-9]*\) times.*/\1/p' "$work/rec.err")
	tg_eval=$(sed -n 's/.*triggers evaluated \([0-9]*\) events.*/\1/p' "$work/rec.err")
	tg_missed=$(sed -n "s/.*the triggers' stream lost \([0-9]*\) event.*/\1/p" "$work/rec.err")
done
tg_none=$(median <"$work/tg.none"); tg_other=$(median <"$work/tg.other"); tg_same=$(median <"$work/tg.same")
# How fast the recorder evaluates: the events it evaluated over the CPU
# time it took beyond the same recording without the trigger.
tg_cpu=$(echo "$(median <"$work/tg.cpu.same") - $(median <"$work/tg.cpu.none")" | bc -l)
tg_rate=$(awk -v n="${tg_eval:-0}" -v s="$tg_cpu" 'BEGIN { if (s > 0) printf "%.1f", n / s / 1e6; else print "n/a" }')

# Trigger windows on a loaded machine: P processes of tests/spans "slow"
# (4 planned 100 ms spans each among 0.2 ms ones) under one flight
# recorder with 'span req > 60ms', both CPUs kept busy by two loops; per
# window, from its span's end to the window on disk (evtrace/trigger's
# written_ns); 20 windows at most.
: >"$work/tw_rows"
for procs in 1 4 16; do
	for _ in 1 2; do nice -n 5 sh -c 'while :; do :; done' & hogs="$hogs $!"; done
	rm -rf "$work/tw"
	"$evtrace" record --overwrite --max-windows 20 --trigger 'span req > 60ms' -o "$work/tw" \
		-- sh -c "i=0; while [ \$i -lt $procs ]; do '$B/tests/spans' slow 4 100 >/dev/null & i=\$((i + 1)); done; wait" \
		>/dev/null 2>"$work/tw.err" || true
	# shellcheck disable=SC2086
	kill $hogs; hogs=
	: >"$work/tw.lat"; held=0; windows=0
	for f in "$work"/tw/window-*/evtrace/trigger; do
		[ -f "$f" ] || continue
		windows=$((windows + 1))
		grep -q '^firing_event: held$' "$f" && held=$((held + 1))
		at=$(sed -n 's/^monotonic_ns: //p' "$f"); tid=$(sed -n 's/^tid: //p' "$f")
		end=$("$evtrace" query --no-cache --csv "${f%/evtrace/trigger}" "SELECT ts + dur FROM slice
			WHERE tid = $tid AND ts <= $at AND ts + dur >= $at AND state = 'complete'" | sed -n 2p | tr -d '\r')
		[ -n "$end" ] && echo "$(($(sed -n 's/^written_ns: //p' "$f") - end))" >>"$work/tw.lat"
	done
	fired=$(sed -n 's/.*triggers fired \([0-9]*\) times\{0,1\}.*/\1/p' "$work/tw.err")
	echo "| $procs | ${fired:-0} | $windows | $held | $(awk '{ printf "%.1f\n", $1 / 1e6 }' "$work/tw.lat" | median) | $(sort -n "$work/tw.lat" | tail -1 | awk '{ printf "%.1f", $1 / 1e6 }') |" >>"$work/tw_rows"
done
rm -rf "$work/tw"

# evtrace's counting mode (evtrace count): the same sites counted per
# thread, no records written, no clock read; lost = counts missing.
count_rows() {	# W TRACER PATTERN
	"$evtrace" count -e "$3" -- "$bench" "$2" $N 1 $RUNS 2>"$work/count.err" >"$work/out"
	en=$(ns <"$work/out")
	"$evtrace" count -e "$3" -- "$bench" "$2" $N 2 $RUNS 2>"$work/count.err" >"$work/out"
	counted=$(awk '$2 ~ /\// { s += $1 } END { print s + 0 }' "$work/count.err")
	row "$1" "evtrace count (counting mode)" - - "$en" "$(rate <"$work/out")" \
		"$((2 * N * RUNS - counted)) of $((2 * N * RUNS)) (2 threads)"
}
count_rows W1 evtrace printk
count_rows W2 evtrace-event bench

# fprintf to a fully buffered file: always on.
for w in W1 W2; do
	t=fprintf; [ $w = W2 ] && t=fprintf-w2
	"$bench" $t $N 1 $RUNS >"$work/out"; en=$(ns <"$work/out")
	"$bench" $t $N 2 $RUNS >"$work/out"
	row $w "fprintf (buffered file)" - - "$en" "$(rate <"$work/out")" 0
done

# ftrace's trace_marker: snprintf + write(2) per event, tracing on.
if [ -w "$tracing/trace_marker" ]; then
	marker_was=$(cat "$tracing/tracing_on")
	echo 1 >"$tracing/tracing_on"
	for w in W1 W2; do
		t=marker; [ $w = W2 ] && t=marker-w2
		"$bench" $t 200000 1 $RUNS >"$work/out"; en=$(ns <"$work/out")
		"$bench" $t 200000 2 $RUNS >"$work/out"
		row $w "ftrace trace_marker" - - "$en" "$(rate <"$work/out")" "n/a (overwrites)"
	done
fi

# A USDT probe: disabled only (enabling it takes a uprobe tracer).
if has usdt; then
	row W1 "USDT probe (sys/sdt.h)" "$(instr usdt)" "$("$bench" usdt $N 1 $RUNS | ns)" - - -
	row W2 "USDT probe (sys/sdt.h)" "$(instr usdt-w2)" "$("$bench" usdt-w2 $N 1 $RUNS | ns)" - - -
fi

# The same W1 USDT probe enabled: a uprobe trap per hit, under evtrace
# record -e usdt/... and under perf probe + perf record, alternated.
USDT_N=100000
: >"$work/usdt.evt"; : >"$work/usdt.perf"
if has usdt && [ -w "$tracing/uprobe_events" ]; then
	for _ in 1 2 3; do
		"$evtrace" record -q -e usdt/evtbench/migrate -o "$work/usdt.tr" \
			-- "$bench" usdt $USDT_N 1 1 2>/dev/null | ns >>"$work/usdt.evt"
		rm -rf "$work/usdt.tr"
		if perf buildid-cache --add "$bench" >/dev/null 2>&1 &&
		   perf probe -q sdt_evtbench:migrate >/dev/null 2>&1; then
			perf record -q -e sdt_evtbench:migrate -o "$work/usdt.perf.data" \
				-- "$bench" usdt $USDT_N 1 1 2>/dev/null | ns >>"$work/usdt.perf"
			perf probe -q -d 'sdt_evtbench:*' >/dev/null 2>&1
		fi
	done
fi
usdt_evt=$(median <"$work/usdt.evt"); usdt_perf=$(median <"$work/usdt.perf")

# LTTng-UST: disabled without a session, enabled inside a started one.
if has lttng && command -v lttng >/dev/null; then
	lttng list >/dev/null 2>&1 || lttng-sessiond --daemonize >/dev/null 2>&1 || true
	for t in lttng lttng-tracef lttng-w2; do
		eval "dis_$(echo $t | tr - _)=\$(\"\$bench\" $t $N 1 $RUNS | ns)"
		eval "ins_$(echo $t | tr - _)=\$(instr $t)"
	done
	lttng create evtbench --output="$work/lttng" >/dev/null
	lttng enable-channel -u --subbuf-size=4M --num-subbuf=8 bench >/dev/null
	lttng enable-event -u -c bench 'evtbench:*' >/dev/null
	lttng enable-event -u -c bench 'lttng_ust_tracef:*' >/dev/null
	lttng start >/dev/null
	for t in lttng lttng-tracef lttng-w2; do
		"$bench" $t $N 1 $RUNS >"$work/$t.1"
		"$bench" $t $N 2 $RUNS >"$work/$t.2"
	done
	lttng stop >"$work/lttng.stop" 2>&1
	lttng destroy evtbench >>"$work/lttng.stop" 2>&1
	lt_lost=$(sed -n 's/.*Warning: \([0-9]*\) events were discarded.*/\1/p' "$work/lttng.stop" | head -1)
	[ "${lt_lost:-0}" -le $((9 * N * RUNS)) ] || lt_lost="? (lttng said $lt_lost)"
	row W1 "LTTng-UST tracepoint" "$ins_lttng" "$dis_lttng" "$(ns <"$work/lttng.1")" "$(rate <"$work/lttng.2")" "${lt_lost:-0} (all three)"
	row W1 "LTTng-UST tracef()" "$ins_lttng_tracef" "$dis_lttng_tracef" "$(ns <"$work/lttng-tracef.1")" "$(rate <"$work/lttng-tracef.2")" "${lt_lost:-0} (all three)"
	row W2 "LTTng-UST tracepoint" "$ins_lttng_w2" "$dis_lttng_w2" "$(ns <"$work/lttng-w2.1")" "$(rate <"$work/lttng-w2.2")" "${lt_lost:-0} (all three)"
fi

# This VM runs a thread much slower while its other CPU is busy with
# anything at all (a shared physical core, it seems): W2 on one thread
# with a plain loop spinning on the other CPU, the fair baseline for the
# 2-thread ratio.
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	taskset -c 1 "$bench" empty 1000000000000 1 1 >/dev/null &
	spin=$!
	"$evtrace" record --overwrite -e bench -o "$work/trace" -- taskset -c 0 \
		"$bench" evtrace-event $N 1 $RUNS 2>"$work/rec.err" >"$work/out"
	kill $spin
	spin=""
	ev_W2_busy_en=$(ns <"$work/out") ev_W2_busy_rate=$(rate <"$work/out")
	record 2 evtrace-event bench --overwrite
	ev_W2_busy_scale=$(printf '%.2f' "$(echo "$(rate <"$work/out") / $ev_W2_busy_rate" | bc -l)")
else
	ev_W2_busy_en=n/a ev_W2_busy_scale=n/a
fi

# W3: 4 threads x 1M W2 events with default buffers, discard mode, drained
# to tmpfs: as fast as they go, then paced, doubling the rate until events
# are lost.
w3() {	# RATE_PER_THREAD (0: as fast as they go) LABEL [TABLE OUTPUT-OPTION...]
	w3_per=$1 w3_label=$2 w3_table=${3:-$work/w3}
	shift 2
	[ $# = 0 ] || shift
	[ $# -gt 0 ] || set -- -o "$work/trace"
	"$evtrace" record --stats -e bench "$@" -- \
		"$bench" evtrace-event $N 4 1 $([ "$w3_per" = 0 ] || echo "$w3_per") 2>"$work/rec.err" >"$work/out"
	w3_rate=$(awk '{ printf "%.1f", $4 / 1e6 }' "$work/out")
	w3_lost=$(lost)
	w3_bytes=$(sed -n 's/.*packets, \([0-9]*\) bytes.*/\1/p' "$work/rec.err")
	w3_cpu=$(sed -n 's/.*engine CPU \([0-9.]*\) s.*/\1/p' "$work/rec.err")
	w3_mbps=$(sed -n 's/.*: \([0-9]*\) MB per CPU second.*/\1/p' "$work/rec.err")
	w3_wake=$(sed -n 's/.*woken \([0-9]*\) times.*/\1/p' "$work/rec.err")
	echo "| ${w3_label:-$w3_rate} | $w3_rate | $w3_lost ($(printf '%.1f' "$(echo "100 * $w3_lost / (4 * $N)" | bc -l)")%) | $((w3_bytes / 1000000)) | $w3_cpu | ${w3_mbps:-n/a} | $w3_wake |" >>"$w3_table"
}
w3 0 "as fast as they go"
w3_full_rate=$w3_rate w3_full_lost=$w3_lost w3_full_mbps=$w3_mbps
# The same burst into LTTng-UST with its default channel (the peer's
# default buffers), for the lost count side by side.
w3_lttng="n/a"
if has lttng-w2 && command -v lttng >/dev/null; then
	lttng create evtbench --output="$work/lttng3" >/dev/null
	lttng enable-event -u 'evtbench:w2' >/dev/null
	lttng start >/dev/null
	"$bench" lttng-w2 $N 4 1 >"$work/out"
	lttng stop >/dev/null 2>&1
	lttng destroy evtbench >/dev/null 2>&1
	# Lost = written - read: lttng's own "discarded" count has been seen
	# to print with its top bit set.
	read_back=$(babeltrace2 "$work/lttng3" -c sink.utils.counter 2>/dev/null |
		sed -n 's/^ *\([0-9]*\) Event messages/\1/p' | tail -1)
	w3_lttng="$(awk '{ printf "%.1f", $4 / 1e6 }' "$work/out") M events/s written, $((4 * N - ${read_back:-0})) of $((4 * N)) events lost"
fi
w3_ok="none" w3_first_loss="none" w3_ok_mbps="n/a"
for per in 250000 500000 1000000 2000000 4000000 8000000; do
	w3 $per "$(echo "4 * $per / 1000000" | bc) (paced)"
	if [ "$w3_lost" = 0 ]; then
		w3_ok=$(echo "4 * $per / 1000000" | bc) w3_ok_mbps=$w3_mbps
	else
		w3_first_loss=$(echo "4 * $per / 1000000" | bc)
		break
	fi
done

# The cost of --relay: W3 at its highest loss-free rate (and as fast as it
# goes) into a trace directory, and streamed to an lttng-relayd on this
# machine (its output on the same filesystem), in the same minutes.
: >"$work/relay_rows"
if command -v lttng-relayd >/dev/null; then
	rp=$(python3 -c 'import socket
while True:
    ss = [socket.socket() for _ in range(3)]
    try:
        ss[0].bind(("127.0.0.1", 0)); p = ss[0].getsockname()[1]
        ss[1].bind(("127.0.0.1", p + 1)); ss[2].bind(("127.0.0.1", p + 2))
        print(p); break
    except OSError:
        pass
    finally:
        [s.close() for s in ss]')
	lttng-relayd -o "$work/relay" -C tcp://127.0.0.1:$rp -D tcp://127.0.0.1:$((rp + 1)) \
		-L tcp://127.0.0.1:$((rp + 2)) >/dev/null 2>&1 &
	relayd_pid=$!
	sleep 1
	# Each output: offered 1, 2, 4... M events/s until events are lost,
	# then as fast as they go.
	for how in "trace directory|-o|$work/trace" "--relay|--relay|127.0.0.1:$rp" \
		   "--relay and -o|--relay|127.0.0.1:$rp|-o|$work/trace"; do
		label=${how%%|*}
		set -- $(echo "${how#*|}" | tr '|' ' ')
		for per in 250000 500000 1000000 2000000 4000000 8000000; do
			w3 "$per" "$label, $(echo "4 * $per / 1000000" | bc) M/s offered" "$work/relay_rows" "$@"
			[ "$w3_lost" = 0 ] || break
		done
		w3 0 "$label, as fast as they go" "$work/relay_rows" "$@"
	done
	kill "$relayd_pid" 2>/dev/null
	wait "$relayd_pid" 2>/dev/null
	rm -rf "$work/relay"
fi

# W1 call by call beside NanoLog, a binary printf-style logger
# (bench/per_call.h: rdtscp around each call, less an empty pair's
# median): 5 runs of 3 repetitions of 5 M calls, evtrace under a
# recording that drains to tmpfs and NanoLog logging to tmpfs by its own
# thread, alternated; a run's figure is the median of its repetitions'.
# Quiet, then with both CPUs kept busy by two loops at nice 5.  NanoLog
# is not in Debian: `make bench NANOLOG=DIR` with DIR a checkout of it
# whose runtime/libNanoLog.a is built (bench/README.md).
PC_N=5000000
nanolog_pc="" nanolog_why="not measured: make bench NANOLOG=DIR (bench/README.md)"
if [ -n "${NANOLOG:-}" ]; then
	if g++ -std=c++17 -O3 -DNDEBUG -I"$NANOLOG/runtime" -I"$here" "$here/per_call_nanolog.cc" \
		"$NANOLOG/runtime/libNanoLog.a" -pthread -lrt -o "$work/per_call_nanolog" 2>"$work/nanolog.err"; then
		nanolog_pc=$work/per_call_nanolog
	else
		nanolog_why="did not build against $NANOLOG: $(grep -m1 error "$work/nanolog.err")"
	fi
fi
pc_p50() { awk '{ print $4 }' | median; }
pc_mean() { awk '{ print $8 }' | median; }
: >"$work/pc_rows"; : >"$work/pc_ratios.quiet"; : >"$work/pc_ratios.busy"
pc_runs() {	# CONDITION
	for r in 1 2 3 4 5; do
		"$evtrace" record -q -e printk -o "$work/trace" -- "$B/bench/per_call" $PC_N 3 \
			>"$work/pc.ev" 2>/dev/null || : >"$work/pc.ev"
		rm -rf "$work/trace"
		if [ -n "$nanolog_pc" ]; then
			# (in $work: NanoLog also opens ./compressedLog at its start)
			(cd "$work" && "$nanolog_pc" $PC_N 3 "$work/nanolog.log") >"$work/pc.nl" ||
				: >"$work/pc.nl"
			rm -f "$work/nanolog.log"* "$work/compressedLog"
		else
			: >"$work/pc.nl"
		fi
		e=$(pc_p50 <"$work/pc.ev") l=$(pc_p50 <"$work/pc.nl")
		echo "| $1 | $r | $e | $l | $(ratio2 "$e" "$l") | $(pc_mean <"$work/pc.ev") | $(pc_mean <"$work/pc.nl") |" >>"$work/pc_rows"
		echo "$(ratio2 "$e" "$l")" | tr -d x >>"$work/pc_ratios.$1"
	done
}
pc_runs quiet
for _ in 1 2; do nice -n 5 sh -c 'while :; do :; done' & hogs="$hogs $!"; done
# shellcheck disable=SC2086
pc_runs busy
# shellcheck disable=SC2086
kill $hogs; hogs=
pc_worst() { if [ -n "$nanolog_pc" ]; then sort -n "$1" | tail -1 | sed 's/$/x/'; else echo n/a; fi; }

# W4: the same 10,000 small functions without tracing, with a USDT probe
# at each site (where sys/sdt.h was there to build it) and with evtrace
# (sites disabled), alternately; the same for the dense shape, 1,000
# functions of 10 sites with a multiply-add between them.  All on the
# last CPU: unpinned, a run that the scheduler moves refills another
# core's caches with the whole loop's code, which says more about the
# code's size than about a site (W4 evtrace 21 ns against 15.4 pinned).
w4_cpu=$(($(nproc) - 1))
w4_runs() {	# NAME LOOPS: medians in NAME_plain, NAME_usdt, NAME_traced
	: >"$work/$1.plain"; : >"$work/$1.usdt"; : >"$work/$1.traced"
	for _ in $(seq $RUNS); do
		taskset -c $w4_cpu "$B/bench/$1_plain" "$2" | awk '{ print $2 }' >>"$work/$1.plain"
		if [ -x "$B/bench/$1_usdt" ]; then
			taskset -c $w4_cpu "$B/bench/$1_usdt" "$2" | awk '{ print $2 }' >>"$work/$1.usdt"
		fi
		taskset -c $w4_cpu "$B/bench/$1_traced" "$2" | awk '{ print $2 }' >>"$work/$1.traced"
	done
	eval "$1_plain=$(median <"$work/$1.plain") $1_usdt=$(median <"$work/$1.usdt") $1_traced=$(median <"$work/$1.traced")"
}
w4_runs w4 300
w4_runs w4d 3000
w4_pct=$(printf '%.1f' "$(echo "100 * ($w4_traced - $w4_plain) / $w4_plain" | bc -l)")
w4d_pct=$(printf '%.1f' "$(echo "100 * ($w4d_traced - $w4d_plain) / $w4d_plain" | bc -l)")

# fork+_exit of a pre-fork server's children, tracing off, against the
# same program without evtrace, alternately; and what the children left
# in the run directory (a forked child makes no control file until it
# traces).
: >"$work/fork.plain"; : >"$work/fork.traced"
fork_rundir=$work/fork-run
for _ in $(seq $RUNS); do
	"$B/bench/fork_plain" 2000 | awk '{ print $2 }' >>"$work/fork.plain"
	EVTRACE_RUNDIR=$fork_rundir "$B/bench/fork_traced" 2000 | awk '{ print $2 }' >>"$work/fork.traced"
done
fork_plain_us=$(printf '%.1f' "$(echo "$(median <"$work/fork.plain") / 1000" | bc -l)")
fork_traced_us=$(printf '%.1f' "$(echo "$(median <"$work/fork.traced") / 1000" | bc -l)")
fork_ratio=$(printf '%.2f' "$(echo "$fork_traced_us / $fork_plain_us" | bc -l)")
fork_left_kib=$(du -sk "$fork_rundir" | cut -f1)

# Cold paths.  A thread's first event: 50 threads one after another, the
# recorder and the program pinned apart (bench/cold_paths.c).
taskset -c 0 "$evtrace" record -q -o "$work/trace" -- taskset -c 1 \
	"$B/bench/cold_paths" 50 >"$work/cold" 2>/dev/null
cold_first=$(awk '{ printf "%.1f / %.1f", $2 / 1000, $3 / 1000 }' "$work/cold")
cold_second=$(awk '{ print $5 }' "$work/cold")
# The first pass through large buffers (512 x 64 KiB, overwrite mode):
# the first of 4 runs of W1 writes 16 MB into fresh pages, the last reuses.
"$evtrace" record -q --overwrite --packets 512 -e printk -o "$work/trace" -- \
	"$bench" evtrace $N 1 4 >"$work/big" 2>/dev/null
big_first=$(head -1 "$work/big" | awk '{ print $2 }')
big_last=$(tail -1 "$work/big" | awk '{ print $2 }')
# Registration: starting the W4 program (10,000 sites) with and without
# evtrace, 10 times each, in wall time per site.
startup_ns() {	# PROGRAM: ns for 10 starts
	s=$(date +%s%N)
	for _ in 1 2 3 4 5 6 7 8 9 10; do "$1" 0 >/dev/null; done
	echo $(($(date +%s%N) - s))
}
reg_us=$(echo "($(startup_ns "$B/bench/w4_traced") - $(startup_ns "$B/bench/w4_plain")) / 10 / 10000 / 1000" | bc -l)
reg_us=$(printf '%.2f' "$reg_us")

# W5: a program making 2 x W5_ROUNDS system calls as fast as it can,
# alone and under each tool, output to tmpfs; medians of 3 runs.
W5_ROUNDS=100000
w5() {	# NAME COMMAND...: a row of the W5 table
	name=$1; shift
	: >"$work/w5.ns"; : >"$work/w5.wall"; : >"$work/w5.lost"; : >"$work/w5.lines"
	: >"$work/w5.cpu"
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		# (user time of the command and its children, the program too:
		# the eBPF program's share is system time, in the program)
		/usr/bin/time -f '%U %S' -o "$work/w5.time" "$@" >"$work/w5.out" 2>"$work/w5.err" || true
		echo $(( ($(date +%s%N) - t0) / 1000000 )) >>"$work/w5.wall"
		awk '{ printf "%d\n", $1 * 1000 }' "$work/w5.time" >>"$work/w5.cpu"
		cat "$work/w5.out" "$work/w5.err" "$work/w5.file" 2>/dev/null |
			sed -n 's/.*ns \([0-9.]*\) calls [0-9]*.*/\1/p' | head -1 >>"$work/w5.ns"
		sed -n 's/.*\(kernel records read, \|written to .*; \)\([0-9]*\) events lost$/\2/p' \
			"$work/w5.err" >>"$work/w5.lost"
		grep -o 'LOST [0-9]* events' "$work/w5.file" 2>/dev/null | awk '{ s += $2 } END { if (NR) print s }' >>"$work/w5.lost"
		cat "$work/w5.out" "$work/w5.file" 2>/dev/null | wc -l >>"$work/w5.lines"
		rm -rf "$work/w5.file"
	done
	ns=$(median <"$work/w5.ns"); lost=$(median <"$work/w5.lost")
	cpu=$(median <"$work/w5.cpu"); lines=$(median <"$work/w5.lines")
	[ "$name" = none ] && { w5_bare=$ns; w5_bare_cpu=$cpu; }
	echo "| $name | $ns | $(ratio "$ns" "$w5_bare") | $(median <"$work/w5.wall") | $cpu | $lines | ${lost:-0} |" >>"$work/w5"
	# lines a second of the tool's own user time (the program's taken off)
	eval "w5_lps_$(echo "$name" | tr -c 'a-z0-9\n' '_')=$(awk -v l="$lines" -v c="$cpu" -v b="$w5_bare_cpu" \
		'BEGIN { if (c > b) printf "%.2f", l / ((c - b) / 1000) / 1e6; else print "n/a" }')"
	eval "w5_ns_$(echo "$name" | tr -c 'a-z0-9\n' '_')=\$ns"
}
: >"$work/w5"
w5 none "$B/bench/syscall_loop" $W5_ROUNDS
w5 "evtrace trace" "$evtrace" trace -o "$work/w5.file" -- "$B/bench/syscall_loop" $W5_ROUNDS
# trace's fixed cost around a command that does nothing: loading (the
# kernel's verifier) and detaching the eBPF program, the hold window.
: >"$work/w5.start"
for _ in 1 2 3; do
	t0=$(date +%s%N)
	"$evtrace" trace -o /dev/null -- true 2>/dev/null || true
	echo $(( ($(date +%s%N) - t0) / 1000000 )) >>"$work/w5.start"
done
w5_start_ms=$(median <"$work/w5.start")
w5 "evtrace trace, 1 MiB rings" "$evtrace" trace -o "$work/w5.file" --kernel-buffer 1024 -- "$B/bench/syscall_loop" $W5_ROUNDS
w5 "evtrace trace, addresses only (no eBPF)" env EVTRACE_NO_EBPF=1 "$evtrace" trace -o "$work/w5.file" -- "$B/bench/syscall_loop" $W5_ROUNDS
# record -e kernel/syscalls/...: the calls' records with their memory (the
# eBPF program), and with addresses only (perf), into a trace directory.
w5_sys="-e kernel/syscalls/sys_enter_getppid -e kernel/syscalls/sys_exit_getppid
	-e kernel/syscalls/sys_enter_write -e kernel/syscalls/sys_exit_write"
# shellcheck disable=SC2086
w5 "evtrace record -e kernel/syscalls/..., memory (eBPF)" "$evtrace" record -q -o "$work/w5.file" $w5_sys -- "$B/bench/syscall_loop" $W5_ROUNDS
# shellcheck disable=SC2086
w5 "evtrace record -e kernel/syscalls/..., addresses only (perf)" env EVTRACE_NO_EBPF=1 "$evtrace" record -q -o "$work/w5.file" $w5_sys -- "$B/bench/syscall_loop" $W5_ROUNDS
if command -v strace >/dev/null; then
	w5 "strace -f" strace -f -o "$work/w5.file" "$B/bench/syscall_loop" $W5_ROUNDS
fi
if perf trace -o /dev/null -- true >/dev/null 2>&1; then
	w5 "perf trace" perf trace -o "$work/w5.file" -- "$B/bench/syscall_loop" $W5_ROUNDS
fi

table() {	# W: the peers of workload W, with evtrace's ratio to each
	echo "| tracer | disabled: instructions | disabled: ns | enabled: ns (1 thread) | 2 threads: M events/s | events lost | evtrace cheaper by |"
	echo "|---|---|---|---|---|---|---|"
	eval "ev=\$ev_$1_en"
	grep "^$1|" "$work/rows" | while IFS='|' read -r _ name di dn en r2 lost; do
		r=$(ratio "$en" "$ev"); [ "$name" = evtrace ] && r="1x"
		echo "| $name | $di | $dn | $en | $r2 | $lost | $r |"
	done
}
lt_ratio() { grep "^$1|LTTng-UST tracepoint|" "$work/rows" | cut -d'|' -f5 | { read -r en && ratio "$en" "$2" || echo n/a; }; }

out=$here/results/$(date +%F).md
{
	echo "# evtrace and its peers, workloads W1-W5 - $(date -u '+%F %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?');"
	echo "evtrace's trace clock: ${clock_used:-?} (the row \"evtrace on ...\" is the other clock, forced)."
	echo "$N events per thread and run, median of $RUNS runs, traces on tmpfs.  evtrace's enabled"
	echo "figures are taken under \`evtrace record --overwrite\` with default buffers (16 x 64 KiB per thread),"
	echo "its lost events in discard mode with the recorder draining; LTTng-UST's channel has 8 x 4 MiB sub-buffers."
	echo
	echo "## W1: trace_printk(\"migrate task %s:%d\\\\n\", comm, pid)"
	echo
	table W1
	echo
	echo "## W2: event with u64 a, u32 b, i32 c, 7-character string s"
	echo
	table W2
	echo
	echo "## Triggers (record --overwrite --trigger)"
	echo
	echo "W1, one thread, $N events a run, median of 3 recordings each, alternated."
	echo
	echo "| recording | enabled: ns per event | against none |"
	echo "|---|---|---|"
	echo "| --overwrite, no trigger | $tg_none | 1x |"
	echo "| a trigger on another event (never written) | $tg_other | $(ratio "$tg_other" "$tg_none") |"
	echo "| a trigger on the W1 site, compared at every event, never firing | $tg_same | $(ratio "$tg_same" "$tg_none") |"
	echo
	echo "In the last row every event also goes to the triggers' own stream (written twice), where the"
	echo "recorder compares it (firings: ${tg_fired:-0}, as there must be none); the writer pays the second write."
	echo "The recorder evaluated ${tg_eval:-0} events (its stream lost ${tg_missed:-0}) in $(printf '%.3f' "$tg_cpu") s of CPU"
	echo "beyond the recording without the trigger: $tg_rate M events per CPU second."
	echo
	echo "## Trigger windows on a loaded machine"
	echo
	echo "P processes of 4 planned 100 ms spans each among 0.2 ms ones, one flight recorder,"
	echo "--trigger 'span req > 60ms', --max-windows 20, two busy loops on both CPUs.  Latency: from"
	echo "the window's span's end to the window on disk."
	echo
	echo "| processes | firings | windows | holding their firing event | median latency, ms | worst, ms |"
	echo "|---|---|---|---|---|---|"
	cat "$work/tw_rows"
	echo
	echo "## Spans, counters and a typed event"
	echo
	echo "One thread, $N iterations, median of 3 recordings alternated with W1 (enabled, --overwrite)."
	echo
	echo "| site | disabled: ns | enabled: ns | against a W1 event | target |"
	echo "|---|---|---|---|---|"
	echo "| trace_printk, W1 | $("$bench" evtrace $N 1 $RUNS | ns) | $sp_w1 | 1x | |"
	echo "| trace_scope (begin and end) | $sp_scope_dis | $sp_scope | $(ratio "$sp_scope" "$sp_w1") | <= 2x |"
	echo "| trace_counter (integer) | $sp_counter_dis | $sp_counter | $(ratio "$sp_counter" "$sp_w1") | <= 1x |"
	echo "| a typed event with W1's arguments (evt_string comm, evt_integer int pid) | $sp_typed_dis | $sp_typed | $(ratio "$sp_typed" "$sp_w1") | <= 1.1x |"
	echo "| the same, both CPUs busy (W1: $sp_w1_busy ns) | | $sp_typed_busy | $(ratio "$sp_typed_busy" "$sp_w1_busy") | <= 1.1x |"
	echo
	echo "## query: SQL over a trace of $q_events W1 events ($q_mb MB)"
	echo
	echo "| reader | seconds | M events/s | peak memory, MiB | babeltrace2's seconds over these |"
	echo "|---|---|---|---|---|"
	echo "| babeltrace2 (text to /dev/null) | $(q_s "$work/q.bt2") | $(q_rate "$work/q.bt2") | $(q_rss "$work/q.bt2") | 1.0 |"
	echo "| evtrace report (text to /dev/null) | $(q_s "$work/q.report") | $(q_rate "$work/q.report") | $(q_rss "$work/q.report") | $(q_vs "$work/q.report") |"
	echo "| evtrace query: GROUP BY name over every event, first | $(q_s "$work/q.first") | $(q_rate "$work/q.first") | $(q_rss "$work/q.first") | $(q_vs "$work/q.first") |"
	echo "| the same, again | $(q_s "$work/q.again") | $(q_rate "$work/q.again") | $(q_rss "$work/q.again") | $(q_vs "$work/q.again") |"
	echo "| evtrace query: a range of 100,000 events by time | $(q_s "$work/q.range") | - | $(q_rss "$work/q.range") | $(q_vs "$work/q.range") |"
	echo "| evtrace query: every event's message (LIKE) | $(q_s "$work/q.messages") | $(q_rate "$work/q.messages") | $(q_rss "$work/q.messages") | $(q_vs "$work/q.messages") |"
	echo "| evtrace convert --to perfetto | $(q_s "$work/q.perfetto") | $(q_rate "$work/q.perfetto") | $(q_rss "$work/q.perfetto") | $(q_vs "$work/q.perfetto") |"
	echo
	echo "Counting the events per name in Python (the process whole: start, imports, reading):"
	echo
	echo "| reader | seconds | M events/s | peak memory, MiB | bt2's seconds over these |"
	echo "|---|---|---|---|---|"
	echo "| babeltrace2's bindings (bt2), a message at a time | $(q_s "$work/q.py_bt2") | $(q_rate "$work/q.py_bt2") | $(q_rss "$work/q.py_bt2") | 1.0 |"
	echo "| evtrace module: Trace(path).events()['name'].value_counts() | $(q_s "$work/q.py_evtrace") | $(q_rate "$work/q.py_evtrace") | $(q_rss "$work/q.py_evtrace") | $(q_vs "$work/q.py_evtrace" "$work/q.py_bt2") |"
	echo
	echo "Bytes query left beside the trace: $q_kept.  Peak memory counts the trace's own pages, which the"
	echo "readers map ($q_mb MB here); query's event table is 30 bytes an event on top."
	echo "Targets: the first GROUP BY at least 20x faster than babeltrace2, and under half a second"
	echo "again on 5 M events; nothing kept beside the trace larger than it (none is)."
	echo
	echo "## W3: 4 threads x $N W2 events, default buffers, discard mode, drained to tmpfs"
	echo
	echo "| offered: M events/s (4 threads) | written: M events/s | events lost | MB drained | recorder CPU s | MB drained per recorder CPU second | wake-ups |"
	echo "|---|---|---|---|---|---|---|"
	cat "$work/w3"
	echo
	if [ "$w3_first_loss" = none ]; then
		echo "No loss at any rate offered (up to $w3_ok M events/s)."
	else
		echo "No loss up to $w3_ok M events/s in all; loss from $w3_first_loss M events/s."
	fi
	echo "LTTng-UST, the same burst as fast as it goes into its default channel: $w3_lttng."
	echo
	echo "## The cost of record --relay: W3 to a trace directory and to lttng-relayd on this machine"
	echo
	echo "| output | written: M events/s | events lost | MB drained | recorder CPU s (sending thread included) | MB drained per recorder CPU second | wake-ups |"
	echo "|---|---|---|---|---|---|---|"
	if [ -s "$work/relay_rows" ]; then cat "$work/relay_rows"; else echo "| lttng-relayd not installed | | | | | | |"; fi
	echo
	echo "## W1 call by call, beside NanoLog"
	echo
	echo "rdtscp around each of $PC_N calls, less an empty pair's median, 3 repetitions a run (the"
	echo "median of theirs), evtrace recording to tmpfs and NanoLog logging to tmpfs, alternated;"
	if [ -n "$nanolog_pc" ]; then nanolog_said="built from $NANOLOG"; else nanolog_said=$nanolog_why; fi
	echo "busy: two loops at nice 5 keep both CPUs busy.  NanoLog: $nanolog_said."
	echo
	echo "| condition | run | evtrace p50, ns | NanoLog p50, ns | evtrace / NanoLog | evtrace mean, ns | NanoLog mean, ns |"
	echo "|---|---|---|---|---|---|---|"
	cat "$work/pc_rows"
	echo
	echo "## W4: 10,000 disabled sites in a loop (bench/w4_gen.py), on CPU $w4_cpu"
	echo
	echo "| build | ns per site, W4 (a function a site) | ns per site, dense (10 sites a function) |"
	echo "|---|---|---|"
	echo "| without tracing | $w4_plain | $w4d_plain |"
	echo "| a USDT probe (sys/sdt.h) at each site | $w4_usdt | $w4d_usdt |"
	echo "| evtrace, sites disabled | $w4_traced | $w4d_traced |"
	echo
	echo "## W5: $((2 * W5_ROUNDS)) system calls (getppid, write to /dev/null) under a system call tracer"
	echo
	echo "Output to tmpfs; the traced program's own time per call, median of 3 runs;"
	echo "wall time of the whole command, tool included; user CPU time of the whole"
	echo "command, program included; lines the tool wrote; events it lost."
	echo
	echo "| tool | ns per call in the program | slowdown | wall ms | user ms | lines | lost |"
	echo "|---|---|---|---|---|---|---|"
	cat "$work/w5"
	echo
	echo "## Targets"
	echo
	echo "| measure | value | target |"
	echo "|---|---|---|"
	echo "| disabled: instructions per site, W1 / W2 | $ev_W1_instr / $ev_W2_instr | <= 3 |"
	echo "| W4: 10,000 disabled sites against no evtrace | +$w4_pct% | within 1% |"
	echo "| disabled sites against a USDT probe, W4 / dense shape (against no tracing: +$w4d_pct%) | $(ratio2 "$w4_traced" "$w4_usdt") / $(ratio2 "$w4d_traced" "$w4d_usdt") | <= 1.2x |"
	echo "| enabled, 1 thread: ns per event, median (best of $RUNS), W1 / W2 | $ev_W1_en ($ev_W1_best) / $ev_W2_en ($ev_W2_best) | <= 20 |"
	echo "| cheaper than the LTTng-UST tracepoint, W1 / W2 | $(lt_ratio W1 "$ev_W1_en") / $(lt_ratio W2 "$ev_W2_en") | >= 6x |"
	echo "| bytes per event in the trace, W1 / W2 (payload 12 / 24 bytes) | $ev_W1_bpe / $ev_W2_bpe | <= 16 / <= 32 |"
	echo "| events lost, 1 thread at full speed, discard mode, W1 / W2 | $ev_W1_lost1 / $ev_W2_lost1 of $((N * RUNS)) | 0 |"
	echo "| the same, recorder and writer pinned to CPUs 0 and 1, W1 / W2 | $ev_W1_lostp / $ev_W2_lostp of $((N * RUNS)) | 0 |"
	echo "| events lost with --block, 1 thread / 2 threads, W1; W2 | $ev_W1_block_lost; $ev_W2_block_lost | 0 |"
	echo "| both CPUs held by two busy loops: events lost with --block (5 ms), 1 thread, W1 / W2; with --block=inf, 1 / 2 threads, W1; W2 | $ev_W1_busy_block_lost / $ev_W2_busy_block_lost; $ev_W1_inf_lost; $ev_W2_inf_lost | stated; 0 |"
	echo "| 2-thread throughput / 1-thread (median of 5 alternated pairs), W1 / W2 | $ev_W1_scale / $ev_W2_scale | >= 1.8 |"
	echo "| W2, 1 thread with a plain loop busy on the other CPU: ns per event; 2-thread throughput / that | $ev_W2_busy_en; $ev_W2_busy_scale | |"
	echo "| W3 as fast as they go: M events/s written, events lost | $w3_full_rate, $w3_full_lost | no loss while the recorder keeps up |"
	echo "| W3: highest loss-free rate / first lossy rate, M events/s | $w3_ok / $w3_first_loss | stated |"
	echo "| recorder drain rate to tmpfs, MB per CPU second (W3 at the highest loss-free rate / as fast as they go) | $w3_ok_mbps / $w3_full_mbps | >= 1000 |"
	echo "| W5: cost per system call under evtrace trace; cheaper than strace -f / perf trace by | ${w5_ns_evtrace_trace:-n/a} ns; $(ratio "${w5_ns_strace__f:-n/a}" "${w5_ns_evtrace_trace:-n/a}") / $(ratio "${w5_ns_perf_trace:-n/a}" "${w5_ns_evtrace_trace:-n/a}") | stated |"
	echo "| W5: evtrace trace around a command that does nothing (true), wall ms | $w5_start_ms | stated |"
	echo "| W5: lines formatted per second of the tool's user time (the program's taken off; reading the rings and ordering included; loading the eBPF program, system time, not), M/s | ${w5_lps_evtrace_trace:-n/a} | >= 1 |"
	echo "| a thread's first event, us: median / max of 50 threads (its second: $cold_second ns) | $cold_first | < 20 |"
	echo "| W1, 512 x 64 KiB buffers: ns per event, first pass (fresh pages) / fourth run | $big_first / $big_last | first <= 2x |"
	echo "| registration at start-up, us per site (10,000 sites) | $reg_us | < 0.5 |"
	echo "| fork+_exit, tracing off: us traced / untraced; ratio; KiB left in the run directory by $((2000 * RUNS)) children | $fork_traced_us / $fork_plain_us; ${fork_ratio}x; $fork_left_kib | <= 1.2x; < 1024 |"
	echo "| triggers: a W1 event with a trigger on another event / on itself, against none | $(ratio "$tg_other" "$tg_none") / $(ratio "$tg_same" "$tg_none") | 1x / stated |"
	echo "| triggers: the recorder's evaluation, M events per CPU second (its stream lost) | $tg_rate (${tg_missed:-0}) | stated |"
	echo "| a scope (begin and end) / a counter, enabled, against a W1 event | $(ratio "$sp_scope" "$sp_w1") / $(ratio "$sp_counter" "$sp_w1") | <= 2x / <= 1x |"
	echo "| a typed event with W1's arguments against the W1 printk, enabled, quiet / both CPUs busy | $(ratio "$sp_typed" "$sp_w1") / $(ratio "$sp_typed_busy" "$sp_w1_busy") | <= 1.1x |"
	echo "| an enabled USDT probe (W1's, a uprobe trap), ns: under evtrace record -e usdt/ / perf probe + perf record; perf's against evtrace's | ${usdt_evt:-n/a} / ${usdt_perf:-n/a}; $(ratio "${usdt_perf:-n/a}" "${usdt_evt:-n/a}") | stated |"
	echo "| query: the first GROUP BY over every event, babeltrace2's time over query's; again, s; kept beside the trace | $(q_vs "$work/q.first"); $(q_s "$work/q.again"); $q_kept B | >= 20x; < 0.5 s at 5 M; <= the trace |"
	echo "| Python: events counted per name, bt2's time over the evtrace module's | $(q_vs "$work/q.py_evtrace" "$work/q.py_bt2") | >= 20x |"
	echo "| W1 call by call, p50 against NanoLog's: the worst of 5 runs, quiet / both CPUs busy | $(pc_worst "$work/pc_ratios.quiet") / $(pc_worst "$work/pc_ratios.busy") | <= 1.0x |"
	echo "| one rdtsc on this machine, ns | $("$bench" rdtsc $N 1 $RUNS | ns) | |"
} | tee "$out"
echo
echo "saved to $out"
