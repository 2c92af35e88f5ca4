# The Python module (import evtrace, as the build has it): a trace of
# three threads' spans, async jobs and counters reads into DataFrames
# that say what evtrace query says: counts per name, every event's time,
# name, thread and CPU, the slices and counters with their types, one
# event's fields typed.  The event columns are the reader's own memory,
# read-only, and outlive the Trace that made them.  Several traces carry
# their trace ids; errors raise evtrace.Error with query's message.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3	# (Debian's, with numpy and pandas)
"$PY" -c 'import numpy, pandas' 2>"$T/py.err" ||
	{ cat "$T/py.err" >&2; fail "numpy and pandas are not installed (make deps installs python3-pandas)"; }
export PYTHONPATH="$BUILD/python"
# A sanitized module loads into Python with its runtime first; Python's
# own allocations are not the module's leaks.
case $(sanitizer) in
asan)	LD_PRELOAD=$(cc -print-file-name=libasan.so) ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
	export LD_PRELOAD ASAN_OPTIONS;;
tsan)	echo "SKIP: ThreadSanitizer's runtime cannot be loaded into Python after it started"; exit 77;;
esac

"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/all" -- "$SPANS" 3 \
	>/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "record"; }
"$EVTRACE" record -e 'span/**' -o "$T/two" -- "$SPANS" 1 >/dev/null 2>&1 || fail "record two"
"$EVTRACE" query --csv "$T/all" "SELECT name, count(*) AS n FROM event GROUP BY name ORDER BY name" |
	tr -d '\r' >"$T/counts.csv"
"$EVTRACE" query --csv "$T/all" "SELECT id, ts, name, kind, pid, tid, cpu FROM event ORDER BY id" |
	tr -d '\r' >"$T/events.csv"

"$PY" - "$T" <<'PY' || fail "the module's answers"
import io, sys
import numpy as np, pandas as pd
import evtrace
T = sys.argv[1]
t = evtrace.Trace(T + "/all")
assert t.errors == 0, t.errors

# Counts per name: the same as query's, the same from events().
want = pd.read_csv(T + "/counts.csv")
got = t.query("SELECT name, count(*) AS n FROM event GROUP BY name ORDER BY name")
assert got.equals(want), (got, want)
assert got["n"].dtype == np.int64, got.dtypes
vc = t.events()["name"].value_counts().sort_index()
assert list(vc.index) == list(want["name"]) and list(vc) == list(want["n"]), vc

# Every event, as query has it, with typed columns.
ev = t.events()
want = pd.read_csv(T + "/events.csv")
assert len(ev) == len(want) == 45, (len(ev), len(want))
for c in ("id", "ts", "pid", "tid", "cpu"):
    assert (ev[c].to_numpy(np.int64) == want[c].to_numpy()).all(), c
assert list(ev["name"].astype(str)) == list(want["name"])
assert list(ev["kind"].astype(str)) == list(want["kind"])
assert ev["ts"].dtype == np.int64 and ev["cpu"].dtype == np.uint16, ev.dtypes
assert str(ev["name"].dtype) == "category", ev.dtypes

# The columns are the reader's memory, read-only, kept alive by the arrays.
col = t.columns()
ts = col["ts"]
assert not ts.flags.owndata and not ts.flags.writeable
first = ts[:5].copy()
assert (ts == ev["ts"].to_numpy()).all()
# (events() takes ts and cpu as they are, not a copy)
assert np.shares_memory(ev["ts"].to_numpy(), ts) and np.shares_memory(ev["cpu"].to_numpy(), col["cpu"])
try:
    ts[0] = 1
    raise SystemExit("a read-only column was written")
except ValueError:
    pass
t.close()
del t
import gc; gc.collect()
assert (ts[:5] == first).all() and len(ts) == 45, "the columns went with the trace"

# Slices, counters and fields, typed.
t = evtrace.Trace(T + "/all")
s = t.slices()
assert len(s) == 15 and s["ts"].dtype == np.int64 and s["dur"].dtype == np.int64, s.dtypes
assert str(s["parent_id"].dtype) == "Int64", s.dtypes
assert sorted(s.groupby("name").size().items()) == [("job", 3), ("step", 6), ("tail", 3), ("work", 3)]
assert (s[s.name == "step"]["parent_id"].isna() == False).all()
k = t.counters()
for tid, g in k[k.name == "queue"].groupby("tid"):
    assert list(g["value"]) == [0, 1, 2, 3], (tid, g)
assert sorted(k[k.name == "load"]["value"]) == [0.5, 1.5, 2.5]
f = t.fields("async/job")
assert len(f) == 6 and list(f.columns) == ["id", "ts", "tid", "phase", "id_", "arg0"], f.columns
assert sorted(f["id_"]) == [100, 100, 101, 101, 102, 102] and f["id_"].dtype == np.int64, f
begins = f[f.phase == 1]
assert sorted(begins["arg0"].astype(int)) == [0, 1, 2], begins
assert str(begins["arg0"].dtype) == "Int64", f.dtypes

# A column's type from its values: integers with NULLs Int64, numbers
# with a real float64 (NaN for NULL), text and mixtures objects.
m = t.query("SELECT 1 AS i, 2.5 AS r, 'a' AS s, 1 AS x UNION ALL SELECT NULL, NULL, NULL, 'b'"
            " UNION ALL SELECT 3, 4, 'c', 2.5")
assert str(m["i"].dtype) == "Int64" and list(m["i"].astype(object).fillna(-1)) == [1, -1, 3], m
assert m["r"].dtype == np.float64 and m["r"].isna().tolist() == [False, True, False], m
assert list(m["r"].fillna(0)) == [2.5, 0, 4.0] and list(m["s"]) == ["a", None, "c"], m
assert list(m["x"]) == [1, "b", 2.5], m

# Several traces: each row its trace id.
two = evtrace.Trace([T + "/all", T + "/two"])
by = two.query("SELECT trace_id, count(*) AS n FROM slice GROUP BY trace_id ORDER BY trace_id")
assert list(by["trace_id"]) == [1, 2] and list(by["n"]) == [15, 4], by

# Errors: query's messages.
for make, said in ((lambda: evtrace.Trace(T + "/nowhere"), "no such trace directory"),
                   (lambda: t.query("SELECT * FROM slices"), "no such table: slices"),
                   (lambda: evtrace.Trace(T + "/all", clock="wall"), "clock 'wall'")):
    try:
        make()
        raise SystemExit("no error for: " + said)
    except evtrace.Error as e:
        assert said in str(e), (said, str(e))
t.close()
try:
    t.query("SELECT 1")
    raise SystemExit("a closed trace answered")
except evtrace.Error as e:
    assert "closed" in str(e), e
print("ok")
PY
