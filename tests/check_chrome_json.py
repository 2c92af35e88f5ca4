#!/usr/bin/env python3
"""check_chrome_json.py JSON REPORT: JSON is a strict Trace Event format
file (the JSON Object Format of the Trace Event Format document: the
fields each phase needs, with their types) and holds the events of
REPORT (evtrace report's text of the same trace): the same events, in
the same order, on the same threads, with the same messages and times,
and losses adding up to the report's.  Spans and counters are checked
for their schema here (slices with their state, counters with numbers);
their values, by the tests that write them."""
import json
import re
import sys


def fail(msg):
    sys.exit('check_chrome_json: ' + msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_schema(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        fail('not an object with a traceEvents array')
    if doc.get('displayTimeUnit') not in (None, 'ms', 'ns'):
        fail('displayTimeUnit %r' % doc['displayTimeUnit'])
    procs, threads, last_ts = set(), set(), None
    instants, spans = [], []
    for n, e in enumerate(doc['traceEvents']):
        where = 'event %d %r' % (n, e)
        if not isinstance(e, dict) or not isinstance(e.get('ph'), str):
            fail(where + ': no ph')
        if not is_int(e.get('pid')) or not is_int(e.get('tid')):
            fail(where + ': pid and tid must be integers')
        if not isinstance(e.get('name'), str) or not e['name']:
            fail(where + ': no name')
        if 'args' in e and not isinstance(e['args'], dict):
            fail(where + ': args must be an object')
        ph = e['ph']
        if ph == 'M':
            if e['name'] not in ('process_name', 'thread_name'):
                fail(where + ': unknown metadata')
            if not isinstance(e.get('args', {}).get('name'), str):
                fail(where + ': metadata without args.name')
            (procs if e['name'] == 'process_name' else threads).add(
                (e['pid'],) if e['name'] == 'process_name' else (e['pid'], e['tid']))
        elif ph in ('i', 'I'):
            if e.get('s', 't') not in ('g', 'p', 't'):
                fail(where + ': bad scope')
            if not isinstance(e.get('ts'), (int, float)) or isinstance(e['ts'], bool) or e['ts'] < 0:
                fail(where + ': ts must be a number >= 0')
            if 'cat' in e and not isinstance(e['cat'], str):
                fail(where + ': cat must be a string')
            if last_ts is not None and e['ts'] < last_ts:
                fail(where + ': out of time order')
            last_ts = e['ts']
            instants.append(e)
        elif ph in ('X', 'B', 'b', 'e', 'C'):
            if not isinstance(e.get('ts'), (int, float)) or isinstance(e['ts'], bool) or e['ts'] < 0:
                fail(where + ': ts must be a number >= 0')
            if ph == 'X' and (not isinstance(e.get('dur'), (int, float)) or e['dur'] < 0):
                fail(where + ': a complete event needs dur >= 0')
            if ph in 'be' and (not isinstance(e.get('id'), str) or not isinstance(e.get('cat'), str)):
                fail(where + ': an async event needs an id and a cat')
            if ph == 'C' and (not e.get('args') or not all(
                    v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
                    for v in e['args'].values())):
                fail(where + ': a counter needs numeric args')
            if ph != 'C' and e.get('args', {}).get('state') not in (
                    'complete', 'no_end', 'open', 'no_begin', 'after_loss'):
                fail(where + ': a slice without its state')
            spans.append(e)
        else:
            fail(where + ': phase %r not written by evtrace' % ph)
    for e in instants + spans:
        if (e['pid'],) not in procs or (e['pid'], e['tid']) not in threads:
            fail('event %r on an unnamed track' % e)
    return instants


def report_lines(path):
    line = re.compile(r'^\s*(?P<comm>.*)-(?P<tid>\d+)\s+\[(?P<cpu>[\d-]+)\] '
                      r'(?P<s>\d+)\.(?P<ns>\d{9}): (?P<rest>.*)$')
    out = []
    for text in open(path, errors='surrogateescape'):
        text = text.rstrip('\n')
        if text.startswith('#'):
            continue
        m = line.match(text)
        if not m:
            fail('report line %r' % text)
        ns = int(m.group('s')) * 10**9 + int(m.group('ns'))
        lost = re.fullmatch(r'lost (\d+) events?(: .*)?', m.group('rest'))
        if lost and m.group('cpu') == '---':
            out.append(('lost', int(m.group('tid')), ns, int(lost.group(1))))
        else:
            name, msg = m.group('rest').split(': ', 1)
            if name.split('/')[0] in ('span', 'async', 'counter'):
                continue	# slices and counters, not instants
            out.append((name, int(m.group('tid')), ns, msg))
    return out


def main():
    doc = json.load(open(sys.argv[1]))
    instants = check_schema(doc)
    want = report_lines(sys.argv[2])
    if len(instants) != len(want):
        fail('%d instants, the report has %d lines' % (len(instants), len(want)))
    start = want[0][2] if want else 0
    lost = 0
    for e, (name, tid, ns, rest) in zip(instants, want):
        if e['tid'] != tid:
            fail('%r: tid, report says %d' % (e, tid))
        if abs(e['ts'] * 1000 - (ns - start)) > 1:
            fail('%r: ts, report says %d ns after the start' % (e, ns - start))
        if name == 'lost':
            if e['name'] != 'lost events' or e['args'].get('lost') != rest:
                fail('%r: report says lost %d' % (e, rest))
            lost += rest
        elif e['name'] != name or e['args'].get('message') != rest:
            fail('%r: report says %s: %s' % (e, name, rest))
    print('%d events, %d lost' % (len([w for w in want if w[0] != 'lost']), lost))


main()
