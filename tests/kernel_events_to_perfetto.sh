# convert --to perfetto writes kernel events as Perfetto's ftrace events
# in a bundle per CPU, as traced_probes does: the scheduler's and
# raw_syscalls' events as their typed messages, any other as a generic
# event of its fields; each with its time, task and CPU as query has
# them, none twice, none left out, none as a track event; their bundles'
# clock (BOOTTIME for the importer) given CLOCK_MONOTONIC's value; the
# kernel's release and machine in its system info, from the index.
# (A program that moves itself between two CPUs: its every move wakes
# the CPU's stopper thread and switches it out, so that each kind of
# event and each CPU's bundle is there whatever the machine's load.)
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
command -v protoc >/dev/null || fail "protoc is not installed (make deps installs protobuf-compiler)"
data=$(cd "$(dirname "$0")/data" && pwd)
after=$(tracee_event "hop %d to cpu %d")
"$EVTRACE" record -o "$T/tr" -e "$after" -e kernel/sched/sched_switch -e kernel/sched/sched_waking \
	-e 'kernel/raw_syscalls/*' -e kernel/syscalls/sys_enter_sched_setaffinity \
	-- "$TRACEE" migrate 40 >/dev/null 2>"$T/rec" || fail "record: $(cat "$T/rec")"
"$EVTRACE" convert --to perfetto -o "$T/tr.pftrace" "$T/tr" 2>"$T/conv.err" || { cat "$T/conv.err" >&2; fail "convert"; }
protoc --decode=perfetto.protos.Trace -I "$data" "$data/perfetto_trace.proto" <"$T/tr.pftrace" >"$T/tr.txt" ||
	fail "protoc could not decode the export"
python3 "$(dirname "$0")/perfetto_decoded.py" "$T/tr.txt" >"$T/tr.json" 2>"$T/why" ||
	fail "the export breaks an importer's rule: $(cat "$T/why")"
"$EVTRACE" query --no-cache --csv "$T/tr" \
	"SELECT name, ts, tid, cpu, fields FROM event WHERE name LIKE 'kernel/%' ORDER BY id" >"$T/kernel.csv"
"$EVTRACE" query --no-cache --csv "$T/tr" "SELECT count(*) FROM event WHERE name = '$after'" |
	tail -1 | tr -d '\r' >"$T/afters"
python3 - "$T/tr.json" "$T/kernel.csv" "$(cat "$T/afters")" "$(uname -r)" "$(uname -m)" "$after" <<'PY' || fail "the kernel's events in the export (files in $T)"
import collections, csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
typed = {"kernel/sched/sched_switch": "sched_switch", "kernel/sched/sched_waking": "sched_waking",
         "kernel/raw_syscalls/sys_enter": "sys_enter", "kernel/raw_syscalls/sys_exit": "sys_exit"}

def key(name, ts, tid, cpu):
    return (name, int(ts), int(tid), int(cpu))

want = collections.Counter()
want_fields = {}
for r in rows:
    name = typed.get(r["name"], r["name"].rsplit("/", 1)[1])
    k = key(name, r["ts"], r["tid"], r["cpu"])
    want[k] += 1
    want_fields[k] = json.loads(r["fields"])
got = collections.Counter(key(e["name"], e["ts"], e["pid"], e["cpu"]) for e in d["ftrace"])
assert got == want, ("not query's kernel events", got - want, want - got)
names = {k[0] for k in want}
for n in ("sched_switch", "sched_waking", "sys_enter", "sys_exit", "sys_enter_sched_setaffinity"):
    assert n in names, "no %s recorded" % n
assert len({e["cpu"] for e in d["ftrace"]}) == 2, "not a bundle of each CPU the program ran on"
# Each event's fields are query's: the typed ones by their names in
# Perfetto's schema (an array a repeated field), the generic ones as they are.
for e in d["ftrace"]:
    w = want_fields[key(e["name"], e["ts"], e["pid"], e["cpu"])]
    f = e["fields"]
    if e["name"] == "sys_enter":
        assert f["id"] == w["id"] and f["args"] == w["args"], (e, w)
    else:
        assert f == w, (e, w)
# No kernel event is a track event too; the user's events still are.
assert not [e for e in d["events"] if e["name"].startswith("kernel/")], "kernel events as track events"
afters = [e for e in d["events"] if e["type"] == "TYPE_INSTANT" and e["name"] == sys.argv[6]]
assert len(afters) == int(sys.argv[3]) > 0, (len(afters), sys.argv[3])
# The kernel they came from, which the importer reads task states by.
assert d["system_info"] == [{"sysname": "Linux", "release": sys.argv[4], "machine": sys.argv[5]}], \
    d["system_info"]
print(len(d["ftrace"]), "kernel events in", len({e["cpu"] for e in d["ftrace"]}), "CPUs' bundles")
PY
# (the index says which kernel, in its minor 1)
expect_eq "$(head -1 "$T/tr/evtrace/index")" "evtrace-index 6.1" "the index's version"
expect_grep "^kernel \"$(uname -r)\" \"$(uname -m)\"\$" "$T/tr/evtrace/index" "the index's kernel line"

# A CPU's kernel buffer that lost events: its next bundle says so
# (lost_events), which the importer counts per CPU (ftrace_cpu_has_data_loss).
"$EVTRACE" record -o "$T/lost" --kernel-buffer 8 -e 'kernel/sched/*' -- "$TRACEE" migrate 5000 \
	>/dev/null 2>"$T/rec-lost" || fail "record: $(cat "$T/rec-lost")"
"$EVTRACE" query --no-cache --csv "$T/lost" "SELECT DISTINCT cpu FROM loss WHERE pid = 0 ORDER BY cpu" |
	tail -n +2 | tr -d '\r' | paste -sd' ' >"$T/lost.cpus"
[ -s "$T/lost.cpus" ] || fail "the 8 KiB rings lost nothing: $(cat "$T/rec-lost")"
"$EVTRACE" convert --to perfetto -o "$T/lost.pftrace" "$T/lost" 2>/dev/null || fail "convert the losses"
protoc --decode=perfetto.protos.Trace -I "$data" "$data/perfetto_trace.proto" <"$T/lost.pftrace" >"$T/lost.txt" ||
	fail "protoc could not decode the export of losses"
python3 "$(dirname "$0")/perfetto_decoded.py" "$T/lost.txt" >"$T/lost.json" 2>"$T/why" ||
	fail "the export of losses breaks an importer's rule: $(cat "$T/why")"
expect_eq "$(python3 -c "import json, sys; print(' '.join(map(str, sorted(set(json.load(open(sys.argv[1]))['ftrace_lost'])))))" "$T/lost.json")" \
	"$(cat "$T/lost.cpus")" "the CPUs whose bundles say they lost events"

# A damaged kernel line is refused with its place, not trusted.
cp -r "$T/tr" "$T/bad"
sed -i 's/^kernel .*/kernel "6.1/' "$T/bad/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/bad"
expect_grep "index:4: bad kernel line" "$T/err" "a damaged kernel line"
