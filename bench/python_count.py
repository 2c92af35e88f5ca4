"""python_count.py READER TRACE: counts TRACE's events per name in Python
with READER: evtrace (the module: events() and pandas' value_counts) or
bt2 (babeltrace2's Python bindings, an event message at a time); prints
the events counted and the names."""
import collections
import sys

reader, path = sys.argv[1], sys.argv[2]
if reader == "bt2":
    import bt2
    counts = collections.Counter()
    for msg in bt2.TraceCollectionMessageIterator(path):
        if type(msg) is bt2._EventMessageConst:
            counts[msg.event.name] += 1
    total, names = sum(counts.values()), len(counts)
else:
    import evtrace
    counts = evtrace.Trace(path).events()["name"].value_counts()
    total, names = int(counts.sum()), int((counts > 0).sum())
print(total, names)
