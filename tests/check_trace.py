#!/usr/bin/env python3
"""check_trace.py - parse `evtrace report` and babeltrace2 text output and
check what the tests require of them.  Usage: check_trace.py CHECK ARGS..."""
import re
import sys

REPORT = re.compile(r'^\s*(?P<comm>.*?)-(?P<tid>\d+)\s+\[(?P<cpu>\d+|---)\] '
                    r'(?P<ts>\d+\.\d{9}): (?P<rest>.*)$')
BT = re.compile(r'^\[[^\]]*\] \([^)]*\) \S+ (?P<name>[^:]+(?::\d+)?): '
                r'\{ first_event = \d+, pid = (?P<pid>\d+), tid = (?P<tid>\d+), '
                r'comm = "[^"]*" \}, \{ cpu_id = \d+ \}(?:, \{ (?P<args>.*) \})?$')
ARG = re.compile(r'(arg\d+(?:_width|_precision)?) = ("(?:[^"\\]|\\.)*"|[^,]+)')


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def report(path):
    events, lost, summary = [], 0, None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('# '):
            summary = line
            continue
        m = REPORT.match(line)
        if not m:
            fail('unparsable report line: %r' % line)
        rest = m.group('rest')
        lm = re.fullmatch(r'lost (\d+) events', rest)
        if lm and m.group('cpu') == '---':
            lost += int(lm.group(1))
            continue
        name, _, text = rest.partition(': ')
        events.append(dict(tid=int(m.group('tid')), ts=m.group('ts'),
                           name=name, text=text))
    if summary is None:
        fail('report has no summary line')
    sm = re.match(r'# (\d+) events, (\d+) lost', summary)
    if int(sm.group(1)) != len(events) or int(sm.group(2)) != lost:
        fail('summary %r disagrees with %d events, %d lost' %
             (summary, len(events), lost))
    return events, lost


def babeltrace(path):
    events = []
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        m = BT.match(line)
        if not m:
            fail('unparsable babeltrace2 line: %r' % line)
        args = dict(ARG.findall(m.group('args') or ''))
        events.append(dict(name=m.group('name'), tid=int(m.group('tid')),
                           args=args))
    return events


def check_seq(rep, bt, nthreads, per_thread):
    """Every (t, i) written once, in order per thread, and babeltrace2
    agrees on every value and on the order."""
    events, lost = report(rep)
    if lost:
        fail('%d events lost' % lost)
    events = [e for e in events if e['text'].startswith('seq ')]
    seen = {}
    for e in events:
        m = re.fullmatch(r'seq t=(\d+) i=(\d+)', e['text'])
        if not m:
            fail('unexpected event %r' % e)
        t, i = int(m.group(1)), int(m.group(2))
        if seen.get(t, -1) + 1 != i:
            fail('thread %d: event %d after %d' % (t, i, seen.get(t, -1)))
        seen[t] = i
    if len(seen) != nthreads or any(v != per_thread - 1 for v in seen.values()):
        fail('threads saw %r' % seen)
    names = set(e['name'] for e in events)
    b = [e for e in babeltrace(bt) if e['name'] in names]
    ours = [(e['tid'], e['text']) for e in events]
    theirs = [(e['tid'], 'seq t=%s i=%s' % (e['args']['arg0'], e['args']['arg1']))
              for e in b]
    if sorted(ours) != sorted(theirs):
        fail('babeltrace2 disagrees: %d vs %d events' % (len(theirs), len(ours)))
    for tid in set(t for t, _ in ours):
        if [x for x in ours if x[0] == tid] != [x for x in theirs if x[0] == tid]:
            fail('babeltrace2 orders thread %d differently' % tid)


def check_count(rep, bt, tried, prefix):
    """Events read + lost == events tried, none twice, babeltrace2 agrees."""
    events, lost = report(rep)
    mine = [e for e in events if e['text'].startswith(prefix)]
    texts = [e['text'] for e in mine]
    if len(set(texts)) != len(texts):
        fail('an event was read twice')
    if len(mine) + lost != tried:
        fail('%d read + %d lost != %d tried' % (len(mine), lost, tried))
    b = [e for e in babeltrace(bt) if e['name'] != 'ftrace/print']
    if len(b) != len(events):
        fail('babeltrace2 shows %d events, report %d' % (len(b), len(events)))
    print('read %d lost %d' % (len(mine), lost))


def check_suffix(rep, tried):
    """Overwrite mode: the events kept are the newest, contiguous."""
    events, lost = report(rep)
    nums = [int(e['text'].split()[1]) for e in events if e['text'].startswith('burst ')]
    if not nums:
        fail('no events kept')
    if nums != list(range(tried - len(nums), tried)):
        fail('kept events are not the newest, contiguous: %r..%r' % (nums[:3], nums[-3:]))
    if lost != tried - len(nums):
        fail('lost %d, expected %d' % (lost, tried - len(nums)))
    print('kept %d of %d' % (len(nums), tried))


if __name__ == '__main__':
    check, args = sys.argv[1], sys.argv[2:]
    if check == 'seq':
        check_seq(args[0], args[1], int(args[2]), int(args[3]))
    elif check == 'count':
        check_count(args[0], args[1], int(args[2]), args[3])
    elif check == 'suffix':
        check_suffix(args[0], int(args[1]))
    else:
        fail('unknown check ' + check)
