#!/usr/bin/env python3
"""perfetto_decoded.py DECODED.txt: reads what protoc --decode made of a
Perfetto trace, checks the importer's rules on interned data (doc/
perfetto.md lists them), and prints the trace as JSON: its tracks, and
its track events with their interned names and annotations resolved.
Exits 1 naming the first packet that breaks a rule."""
import json
import re
import sys

SEQ_CLEARED, SEQ_NEEDS_STATE = 1, 2
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
    tracks, events = {}, []
    for n, p in enumerate(packets):
        seq = one(p, "trusted_packet_sequence_id", 0)
        flags = one(p, "sequence_flags", 0)
        if flags & SEQ_CLEARED:
            state[seq] = {t: {} for t in TABLES}
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
            events.append({"type": one(te, "type"), "ts": one(p, "timestamp"),
                           "seq": seq, "track": one(te, "track_uuid"), "name": name,
                           "categories": cats, "annotations": annotations,
                           "counter": one(te, "counter_value", one(te, "double_counter_value"))})
    json.dump({"tracks": {str(k): v for k, v in tracks.items()}, "events": events},
              sys.stdout)


main()
