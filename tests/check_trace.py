#!/usr/bin/env python3
"""check_trace.py - parse `evtrace report` and babeltrace2 text output and
check what the tests require of them.  Usage: check_trace.py CHECK ARGS..."""
import re
import sys

REPORT = re.compile(r'^\s*(?P<comm>.*?)-(?P<tid>\d+)\s+\[(?P<cpu>\d+|---)\] '
                    r'(?P<ts>\d+\.\d{9}): (?P<rest>.*)$')
BT = re.compile(r'^\[[^\]]*\] \([^)]*\) \S+ (?P<name>[^:]+(?::\d+)?): '
                r'\{ first_event = \d+, pid = (?P<pid>\d+), tid = (?P<tid>\d+), '
                r'comm = "[^"]*" \}(?:, \{ (?P<args>.*) \})?$')
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
        lm = re.fullmatch(r'lost (\d+) events?(: .*)?', rest)
        if lm and m.group('cpu') == '---':
            lost += int(lm.group(1))
            continue
        name, _, text = rest.partition(': ')
        events.append(dict(tid=int(m.group('tid')), ts=m.group('ts'),
                           name=name, text=text))
    if summary is None:
        fail('report has no summary line')
    sm = re.match(r'# (\d+) events?, (\d+) lost', summary)
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
        if m.group('name') == 'evtrace/cpu':
            continue    # the CPU of the records after it
        if m.group('name') == 'evtrace/lost':
            continue    # the sites of a loss the packet header counts
        args = dict(ARG.findall(m.group('args') or ''))
        events.append(dict(name=m.group('name'), tid=int(m.group('tid')),
                           args=args, payload=m.group('args') or ''))
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


def check_loop(rep, nthreads, at_least):
    """An attached recording of `tracee loop`: each thread's events are one
    contiguous run of its numbers, none twice, none lost; prints each
    thread's first and last number."""
    events, lost = report(rep)
    if lost:
        fail('%d events lost' % lost)
    runs = {}
    for e in events:
        m = re.fullmatch(r'loop t=(\d+) i=(\d+)', e['text'])
        if not m:
            continue
        t, i = int(m.group(1)), int(m.group(2))
        if t in runs and runs[t][1] + 1 != i:
            fail('thread %d: event %d after %d' % (t, i, runs[t][1]))
        runs[t] = (runs[t][0] if t in runs else i, i)
    if sorted(runs) != list(range(nthreads)):
        fail('threads seen: %r' % sorted(runs))
    for t, (first, last) in sorted(runs.items()):
        if last - first + 1 < at_least:
            fail('thread %d: only %d events' % (t, last - first + 1))
        print(t, first, last)


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


def unquote(s, i):
    """The C-quoted string starting at s[i] == '"'; returns (text, next)."""
    out, i = [], i + 1
    while s[i] != '"':
        if s[i] == '\\':
            c = s[i + 1]
            if c == 'x':
                out.append(chr(int(s[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append({'n': '\n', 't': '\t', 'r': '\r'}.get(c, c))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return ''.join(out), i + 1


def report_fields(text):
    """`a=1 s="x" v=[1, 2]` as a dict of strings and lists of strings."""
    fields, i = {}, 0
    while i < len(text):
        m = re.compile(r'(\w+)=').match(text, i)
        if not m:
            fail('unparsable typed event text at %d: %r' % (i, text))
        name, i = m.group(1), m.end()
        if text[i] == '"':
            value, i = unquote(text, i)
        elif text[i] == '[':
            end = text.index(']', i)
            inner = text[i + 1:end]
            value = inner.split(', ') if inner else []
            i = end + 1
        else:
            end = text.find(' ', i)
            end = len(text) if end < 0 else end
            value, i = text[i:end], end
        fields[name] = value
        i += 1 if i < len(text) and text[i] == ' ' else 0
    return fields


def bt_value(s, i):
    """One babeltrace2 value at s[i]; returns (value, next)."""
    if s[i] == '"':
        return unquote(s, i)
    if s[i] == '(':		# enumeration: ( "label" : container = N )
        m = re.compile(r'\( (?:"([^"]*)"|<unknown>) : container = (-?\d+) \)').match(s, i)
        return (m.group(1) if m.group(1) is not None else m.group(2)), m.end()
    if s[i] == '[':
        items, i = [], i + 2
        while s[i] != ']':
            m = re.compile(r'\[\d+\] = ').match(s, i)
            v, i = bt_value(s, m.end())
            items.append(v)
            i += 2 if s[i] == ',' else 1
        return items, i + 1
    m = re.compile(r'[^,\s}\]]+').match(s, i)
    return m.group(0), m.end()


def bt_fields(args):
    fields, i = {}, 0
    while i < len(args):
        m = re.compile(r'(\w+) = ').match(args, i)
        if not m:
            fail('unparsable babeltrace2 payload at %d: %r' % (i, args))
        value, i = bt_value(args, m.end())
        if not m.group(1).startswith('_'):	# sequence lengths
            fields[m.group(1)] = value
        i += 2 if args[i:i + 2] == ', ' else 0
    return fields


def check_typed(rep, bt, prefix):
    """Typed events under prefix: babeltrace2 shows the same values, in the
    same order; prints each as `path: field=value ...` for the test."""
    events, _ = report(rep)
    ours = [(e['name'], report_fields(e['text'])) for e in events
            if e['name'].startswith(prefix)]
    theirs = [(e['name'], bt_fields(e['payload'])) for e in babeltrace(bt)
              if e['name'].startswith(prefix)]
    if len(ours) != len(theirs):
        fail('report shows %d events, babeltrace2 %d' % (len(ours), len(theirs)))
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            fail('event %d differs:\n  report     %r\n  babeltrace %r' % (k, a, b))
    print('%d typed events agree' % len(ours))


if __name__ == '__main__':
    check, args = sys.argv[1], sys.argv[2:]
    if check == 'seq':
        check_seq(args[0], args[1], int(args[2]), int(args[3]))
    elif check == 'count':
        check_count(args[0], args[1], int(args[2]), args[3])
    elif check == 'typed':
        check_typed(args[0], args[1], args[2])
    elif check == 'loop':
        check_loop(args[0], int(args[1]), int(args[2]))
    elif check == 'suffix':
        check_suffix(args[0], int(args[1]))
    else:
        fail('unknown check ' + check)
