"""evtrace traces as pandas DataFrames.

    import evtrace
    t = evtrace.Trace("trace")              # a trace directory, several, or a tree
    t.query("SELECT name, count(*) AS n FROM event GROUP BY name")
    ev = t.events()                         # id, ts, name, kind, pid, tid, cpu
    t.slices(), t.counters()                # the spans paired, the counters
    t.fields("printk/prog/prog.c/12")       # one event's fields, typed

The traces are read as `evtrace query` reads them, in this process: the
tables and functions of evtrace(1) are those of query(), times in
nanoseconds (int64) on the clock given (monotonic, realtime or relative).
columns() gives the event table's own arrays, which numpy reads in place
(the trace files stay mapped while any of them lives).
"""

import ctypes
import json
import os

import numpy as np
import pandas as pd

__all__ = ["Trace", "Error"]

_CLOCKS = {"monotonic": 0, "realtime": 1, "relative": 2}
_INTEGER, _FLOAT, _TEXT, _BLOB, _NULL = 1, 2, 3, 4, 5


class Error(Exception):
    """A trace that cannot be opened, or SQL that SQLite refuses."""


class _Columns(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t),
                ("ts", ctypes.POINTER(ctypes.c_int64)),
                ("source", ctypes.POINTER(ctypes.c_uint32)),
                ("thread", ctypes.POINTER(ctypes.c_uint32)),
                ("cpu", ctypes.POINTER(ctypes.c_uint16)),
                ("nsources", ctypes.c_uint32),
                ("nthreads", ctypes.c_uint32)]


def _load():
    lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "_reader.so"))
    P, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    pp = ctypes.POINTER
    lib.evt_py_open.restype = P
    lib.evt_py_open.argtypes = [pp(cp), ctypes.c_int, ctypes.c_int, cp, ctypes.c_int]
    lib.evt_py_close.argtypes = [P]
    lib.evt_py_errors.restype = ctypes.c_uint64
    lib.evt_py_errors.argtypes = [P]
    lib.evt_py_columns.argtypes = [P, pp(_Columns)]
    lib.evt_py_source.argtypes = [P, ctypes.c_uint32, pp(cp), pp(cp),
                                  pp(ctypes.c_int64), pp(ctypes.c_uint32)]
    lib.evt_py_thread.argtypes = [P, ctypes.c_uint32, pp(ctypes.c_uint32),
                                  pp(ctypes.c_uint32)]
    lib.evt_py_query.restype = P
    lib.evt_py_query.argtypes = [P, cp, cp, ctypes.c_int]
    lib.evt_py_result_free.argtypes = [P]
    lib.evt_py_result_shape.argtypes = [P, pp(ctypes.c_int), pp(sz)]
    lib.evt_py_result_column.argtypes = [P, ctypes.c_int, pp(cp),
                                         pp(pp(ctypes.c_uint8)), pp(pp(ctypes.c_int64)),
                                         pp(pp(ctypes.c_double)), pp(pp(ctypes.c_uint64)),
                                         pp(ctypes.c_void_p)]
    return lib


_lib = _load()


class _Handle:
    """The C side's trace: closed when neither the Trace nor any array
    read in place from it is left."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        if self.ptr:
            _lib.evt_py_close(self.ptr)
            self.ptr = None


def _in_place(handle, pointer, ctype, n):
    """The n values at pointer as a read-only numpy array that keeps
    handle (and so the memory) alive."""
    if n == 0:
        return np.empty(0, dtype=np.dtype(ctype))
    buf = (ctype * n).from_address(ctypes.addressof(pointer.contents))
    buf._evtrace_handle = handle
    a = np.frombuffer(buf, dtype=np.dtype(ctype))
    a.flags.writeable = False
    return a


def _column(n, types, ints, reals, text_end, text):
    """One result column as the narrowest numpy array that holds it:
    int64, float64 (NaN for NULL), or objects (str, bytes, None)."""
    if n == 0:
        return np.empty(0, dtype=object)
    t = np.ctypeslib.as_array(types, shape=(n,))
    kinds = set(np.unique(t).tolist())
    if kinds == {_INTEGER}:
        return np.ctypeslib.as_array(ints, shape=(n,)).copy()
    if _FLOAT in kinds and kinds <= {_INTEGER, _FLOAT, _NULL}:
        r = np.ctypeslib.as_array(reals, shape=(n,)).astype(np.float64)
        if _INTEGER in kinds:
            i = np.ctypeslib.as_array(ints, shape=(n,))
            r[t == _INTEGER] = i[t == _INTEGER]
        r[t == _NULL] = np.nan
        return r
    if kinds == {_INTEGER, _NULL}:
        s = pd.array(np.ctypeslib.as_array(ints, shape=(n,)).copy(), dtype="Int64")
        s[t == _NULL] = pd.NA
        return s
    ends = np.ctypeslib.as_array(text_end, shape=(n,))
    raw = ctypes.string_at(text, int(ends[-1])) if ends[-1] else b""
    ints_a = np.ctypeslib.as_array(ints, shape=(n,))
    reals_a = np.ctypeslib.as_array(reals, shape=(n,))
    out = np.empty(n, dtype=object)
    start = 0
    for k in range(n):
        end = int(ends[k])
        kind = t[k]
        if kind == _TEXT:
            out[k] = raw[start:end].decode("utf-8", "replace")
        elif kind == _BLOB:
            out[k] = raw[start:end]
        elif kind == _INTEGER:
            out[k] = int(ints_a[k])
        elif kind == _FLOAT:
            out[k] = float(reals_a[k])
        else:
            out[k] = None
        start = end
    return out


class Trace:
    """One or more traces (directories, or trees holding them), read as
    `evtrace query` reads them.  clock: "monotonic" (the default),
    "realtime" or "relative"."""

    def __init__(self, paths, clock="monotonic"):
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        paths = [os.fsencode(p) for p in paths]
        if not paths:
            raise Error("no trace given")
        if clock not in _CLOCKS:
            raise Error("clock %r: not one of %s" % (clock, ", ".join(_CLOCKS)))
        err = ctypes.create_string_buffer(1024)
        argv = (ctypes.c_char_p * len(paths))(*paths)
        ptr = _lib.evt_py_open(argv, len(paths), _CLOCKS[clock], err, len(err))
        if not ptr:
            raise Error(err.value.decode("utf-8", "replace"))
        self._h = _Handle(ptr)
        self.clock = clock
        #: read errors met (each said on standard error, as query says them)
        self.errors = _lib.evt_py_errors(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Lets the trace go; arrays from columns() keep what they read."""
        self._h = None

    def _ptr(self):
        if self._h is None:
            raise Error("the trace is closed")
        return self._h.ptr

    def query(self, sql):
        """The rows of SQL's last statement that returns rows, as a
        DataFrame: integer columns int64 (Int64 with NULLs), reals
        float64 (NaN for NULL), the rest objects."""
        err = ctypes.create_string_buffer(1024)
        r = _lib.evt_py_query(self._ptr(), sql.encode(), err, len(err))
        if not r:
            raise Error(err.value.decode("utf-8", "replace"))
        try:
            ncols, nrows = ctypes.c_int(), ctypes.c_size_t()
            _lib.evt_py_result_shape(r, ctypes.byref(ncols), ctypes.byref(nrows))
            data, names = {}, []
            for i in range(ncols.value):
                name = ctypes.c_char_p()
                types = ctypes.POINTER(ctypes.c_uint8)()
                ints = ctypes.POINTER(ctypes.c_int64)()
                reals = ctypes.POINTER(ctypes.c_double)()
                ends = ctypes.POINTER(ctypes.c_uint64)()
                text = ctypes.c_void_p()
                _lib.evt_py_result_column(r, i, ctypes.byref(name), ctypes.byref(types),
                                          ctypes.byref(ints), ctypes.byref(reals),
                                          ctypes.byref(ends), ctypes.byref(text))
                key = name.value.decode("utf-8", "replace")
                while key in data:
                    key += "_"
                names.append(key)
                data[key] = _column(nrows.value, types, ints, reals, ends, text)
            return pd.DataFrame(data, columns=names)
        finally:
            _lib.evt_py_result_free(r)

    def columns(self):
        """The event table's own columns, read in place: ts (int64),
        source and thread (uint32: numbers into sources() and threads()),
        cpu (uint16); row i is the event of id i + 1."""
        c = _Columns()
        _lib.evt_py_columns(self._ptr(), ctypes.byref(c))
        n = c.n
        return {"ts": _in_place(self._h, c.ts, ctypes.c_int64, n),
                "source": _in_place(self._h, c.source, ctypes.c_uint32, n),
                "thread": _in_place(self._h, c.thread, ctypes.c_uint32, n),
                "cpu": _in_place(self._h, c.cpu, ctypes.c_uint16, n)}

    def sources(self):
        """What columns()' source numbers: name, kind, site_id, trace_id."""
        c = _Columns()
        _lib.evt_py_columns(self._ptr(), ctypes.byref(c))
        rows = []
        for s in range(c.nsources):
            name, kind = ctypes.c_char_p(), ctypes.c_char_p()
            site, trace = ctypes.c_int64(), ctypes.c_uint32()
            _lib.evt_py_source(self._ptr(), s, ctypes.byref(name), ctypes.byref(kind),
                               ctypes.byref(site), ctypes.byref(trace))
            rows.append((name.value.decode("utf-8", "replace"), kind.value.decode(),
                         site.value, trace.value))
        return pd.DataFrame(rows, columns=["name", "kind", "site_id", "trace_id"])

    def threads(self):
        """What columns()' thread numbers: pid, tid."""
        c = _Columns()
        _lib.evt_py_columns(self._ptr(), ctypes.byref(c))
        pid, tid = ctypes.c_uint32(), ctypes.c_uint32()
        rows = []
        for i in range(c.nthreads):
            _lib.evt_py_thread(self._ptr(), i, ctypes.byref(pid), ctypes.byref(tid))
            rows.append((pid.value, tid.value))
        return pd.DataFrame(rows, columns=["pid", "tid"], dtype=np.int64)

    def events(self):
        """Every event in time order: id, ts (int64 ns), name and kind
        (categories), pid, tid (int64), cpu (uint16).  Made from
        columns() with numpy, no SQL; ts and cpu are the reader's memory
        itself (read-only: .copy() the frame to write into it)."""
        col = self.columns()
        src, thr = self.sources(), self.threads()
        names = pd.Categorical(src["name"])
        kinds = pd.Categorical(src["kind"])
        n = len(col["ts"])
        none = np.empty(0, np.int64)
        columns = {
            "id": np.arange(1, n + 1, dtype=np.int64),
            "ts": col["ts"],
            "name": pd.Categorical.from_codes(names.codes[col["source"]],
                                              categories=names.categories),
            "kind": pd.Categorical.from_codes(kinds.codes[col["source"]],
                                              categories=kinds.categories),
            "pid": thr["pid"].to_numpy()[col["thread"]] if n else none,
            "tid": thr["tid"].to_numpy()[col["thread"]] if n else none,
            "cpu": col["cpu"],
        }
        # A column a block, not pd.DataFrame(dict), which copies same-typed
        # columns into one block (0.8 s of 1.7 s for 5 M events here).
        return pd.concat([pd.Series(v, name=k, copy=False) for k, v in columns.items()],
                         axis=1, copy=False)

    def slices(self):
        """The spans paired into slices (the table slice)."""
        return self.query("SELECT * FROM slice ORDER BY id")

    def counters(self):
        """Every counter sample (the table counter), in time order."""
        return self.query("SELECT * FROM counter ORDER BY ts")

    def fields(self, name):
        """The events named name (an event's path, as events() has it):
        id, ts, tid and a column per field, typed: integers int64 (Int64
        where some events lack the field), reals float64, text str.  A
        field named as one of the first three gets a _ after its name."""
        rows = self.query("SELECT id, ts, tid, fields FROM event WHERE name = '%s'"
                          " ORDER BY id" % name.replace("'", "''"))
        objs = [json.loads(f) if f else {} for f in rows["fields"]]
        keys = list(dict.fromkeys(k for o in objs for k in o))
        out = rows.drop(columns=["fields"])
        for k in keys:
            values = [o.get(k) for o in objs]
            present = [v for v in values if v is not None]
            if present and all(isinstance(v, int) and not isinstance(v, bool)
                               for v in present):
                col = (np.array(values, dtype=np.int64) if len(present) == len(values)
                       else pd.array(values, dtype="Int64"))
            elif present and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                 for v in present):
                col = np.array([np.nan if v is None else v for v in values], np.float64)
            else:
                col = np.array(values, dtype=object)
            out[k + "_" if k in ("id", "ts", "tid") else k] = col
        return out
