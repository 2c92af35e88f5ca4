#!/usr/bin/env python3
"""perfetto_decoded.py DECODED.txt: reads what protoc --decode made of a
Perfetto trace, checks the importer's rules on interned data, sequences'
defaults, clocks and data loss (doc/perfetto.md lists them), and prints
the trace as JSON: its tracks, its track events with their time (ns of
CLOCK_MONOTONIC), track, interned names and annotations resolved, per
sequence the packets said dropped before one, and the ftrace events of
each CPU's bundles.  Exits 1 naming the
first packet that breaks a rule."""
import json
import re
import sys

SEQ_CLEARED, SEQ_NEEDS_STATE = 1, 2
MONOTONIC, SEQUENCE_CLOCKS = 3, range(64, 128)
TABLES = {"event_names": "event name", "event_categories": "category",
          "debug_annotation_names": "annotation name", "source_locations": "location"}


def parse(text):
    """protoc's text format as nested dicts of lists."""
    root, stack = {}, []
    node = root
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            node = stack.pop()
            continue
        m = re.fullmatch(r"(\w+) \{", line)
        if m:
            child = {}
            node.setdefault(m.group(1), []).append(child)
            stack.append(node)
            node = child
            continue
        key, value = line.split(": ", 1)
        if value.startswith('"'):
            value = value[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()
        elif re.fullmatch(r"-?\d+", value):
            value = int(value)
        node.setdefault(key, []).append(value)
    return root


def one(node, key, default=None):
    return node.get(key, [default])[0]


def fail(n, why):
    sys.exit("packet %d: %s" % (n, why))


def main():
    packets = parse(open(sys.argv[1]).read()).get("packet", [])
    state = {}          # sequence id: {table: {iid: name}}, once cleared
    defaults = {}       # sequence id: (clock id, track uuid), set when cleared
    clocks = {}         # sequence id: {its clock's id: last value, in ns of MONOTONIC}
    seen, dropped, writers = set(), {}, set()
    tracks, events, ftrace, ftrace_lost = {}, [], [], []
    boottime_is_monotonic = False
    system_info = []
    for n, p in enumerate(packets):
        seq = one(p, "trusted_packet_sequence_id", 0)
        flags = one(p, "sequence_flags", 0)
        if not seq:
            fail(n, "no trusted_packet_sequence_id")
        if one(p, "previous_packet_dropped", 0):
            # The importer counts it on a sequence it has seen, and drops
            # the sequence's state unless the packet clears it.
            if seq not in seen:
                fail(n, "a drop said on sequence %d's first packet is not counted" % seq)
            if not flags & SEQ_CLEARED:
                fail(n, "a drop said without clearing the sequence's state")
            dropped[seq] = dropped.get(seq, 0) + 1
        seen.add(seq)
        if flags & SEQ_CLEARED:
            state[seq] = {t: {} for t in TABLES}
            clocks[seq] = {}
            d = p.get("trace_packet_defaults", [{}])[0]
            ted = d.get("track_event_defaults", [{}])[0]
            defaults[seq] = (one(d, "timestamp_clock_id"), one(ted, "track_uuid"))
        elif "trace_packet_defaults" in p:
            fail(n, "defaults set without clearing the sequence's state")
        system_info += p.get("system_info", [])
        for b in p.get("ftrace_events", []):
            if "cpu" not in b:
                fail(n, "a bundle of ftrace events without its CPU")
            if one(b, "lost_events"):
                ftrace_lost.append(one(b, "cpu"))
            last = None
            for ev in b.get("event", []):
                kinds = [k for k in ev if k not in ("timestamp", "pid")]
                if len(kinds) != 1 or "timestamp" not in ev or "pid" not in ev:
                    fail(n, "an ftrace event without its time, task or one event: %s" % ev)
                if last is not None and one(ev, "timestamp") < last:
                    fail(n, "a CPU's bundle out of time order")
                last = one(ev, "timestamp")
                body = ev[kinds[0]][0]
                if kinds[0] == "generic":
                    name = one(body, "event_name")
                    fields = {one(f, "name"): [v for k, v in f.items() if k != "name"][0][0]
                              for f in body.get("field", [])}
                else:
                    name = kinds[0]
                    fields = {k: v if len(v) > 1 else v[0] for k, v in body.items()}
                ftrace.append({"cpu": one(b, "cpu"), "ts": one(ev, "timestamp"),
                               "pid": one(ev, "pid"), "name": name, "fields": fields})
        for cs in p.get("clock_snapshot", []):
            cl = {one(c, "clock_id"): c for c in cs.get("clocks", [])}
            if 6 in cl and MONOTONIC in cl:
                boottime_is_monotonic = one(cl[6], "timestamp") == one(cl[MONOTONIC], "timestamp")
            for cid, c in cl.items():
                if cid in SEQUENCE_CLOCKS:
                    if not one(c, "is_incremental"):
                        fail(n, "clock %d is not incremental" % cid)
                    if MONOTONIC not in cl or one(cl[MONOTONIC], "timestamp") != one(c, "timestamp"):
                        fail(n, "clock %d is not given as CLOCK_MONOTONIC's value" % cid)
                    if seq not in clocks:
                        fail(n, "a clock of sequence %d before its state was cleared" % seq)
                    clocks[seq][cid] = one(c, "timestamp")
        for ts_ in p.get("trace_stats", []):
            for w in ts_.get("writer_stats", []):
                writers.add(one(w, "sequence_id"))
        ts = None
        if "timestamp" in p:
            cid = one(p, "timestamp_clock_id", defaults.get(seq, (None, None))[0])
            if cid == MONOTONIC:
                ts = one(p, "timestamp")
            elif cid in SEQUENCE_CLOCKS and cid in clocks.get(seq, {}):
                ts = clocks[seq][cid] + one(p, "timestamp")
                clocks[seq][cid] = ts
            else:
                fail(n, "a timestamp on clock %s, which sequence %d has not given" % (cid, seq))
        for data in p.get("interned_data", []):
            if seq not in state:
                fail(n, "interned data on sequence %d before it was cleared" % seq)
            for table in TABLES:
                for entry in data.get(table, []):
                    iid = one(entry, "iid")
                    if iid in state[seq][table]:
                        fail(n, "%s iid %d interned twice" % (TABLES[table], iid))
                    state[seq][table][iid] = one(entry, "name", one(entry, "file_name"))
        for td in p.get("track_descriptor", []):
            kind = ("thread" if "thread" in td else "process" if "process" in td
                    else "counter" if "counter" in td else "track")
            tracks[one(td, "uuid")] = {"name": one(td, "name"), "kind": kind,
                                       "parent": one(td, "parent_uuid")}
        for te in p.get("track_event", []):
            uses = any(k in te for k in ("name_iid", "category_iids", "source_location_iid")) or \
                any("name_iid" in a for a in te.get("debug_annotations", []))
            if uses and not flags & SEQ_NEEDS_STATE:
                fail(n, "interned data used without SEQ_NEEDS_INCREMENTAL_STATE")
            if uses and seq not in state:
                fail(n, "interned data used on sequence %d before it was cleared" % seq)
            tables = state.get(seq, {})

            def look(table, iid):
                if iid not in tables.get(table, {}):
                    fail(n, "%s iid %d not interned before" % (TABLES[table], iid))
                return tables[table][iid]
            name = one(te, "name")
            if "name_iid" in te:
                name = look("event_names", one(te, "name_iid"))
            cats = te.get("categories", []) + [look("event_categories", i)
                                               for i in te.get("category_iids", [])]
            annotations = {}
            for a in te.get("debug_annotations", []):
                key = one(a, "name") if "name" in a else look("debug_annotation_names",
                                                              one(a, "name_iid"))
                value = [v for k, v in a.items() if k.endswith("_value")]
                annotations[key] = value[0][0] if value else None
            if "source_location_iid" in te:
                look("source_locations", one(te, "source_location_iid"))
            track = one(te, "track_uuid", defaults.get(seq, (None, None))[1])
            if track is None:
                fail(n, "a track event with no track, and none by default")
            if ts is None:
                fail(n, "a track event with no time")
            events.append({"type": one(te, "type"), "ts": ts,
                           "seq": seq, "track": track, "name": name,
                           "categories": cats, "annotations": annotations,
                           "counter": one(te, "counter_value", one(te, "double_counter_value"))})
    for seq in dropped:
        if seq not in writers:
            sys.exit("sequence %d said drops, and no trace stats name it (the importer's"
                     " sequence packet loss counts only the writers named)" % seq)
    if ftrace and not boottime_is_monotonic:
        sys.exit("ftrace events (on BOOTTIME for the importer) and no clock snapshot"
                 " that gives BOOTTIME CLOCK_MONOTONIC's value")
    json.dump({"tracks": {str(k): v for k, v in tracks.items()}, "events": events,
               "dropped": {str(k): v for k, v in dropped.items()},
               "ftrace": ftrace, "ftrace_lost": ftrace_lost,
               "system_info": [{k: one(u, k) for k in u}
                               for si in system_info for u in si.get("utsname", [])]},
              sys.stdout)


main()
