#!/usr/bin/env python3
"""Writes the C and C++ examples of the docs to OUTDIR, one file each, and
prints their names: in a man page the .nf/.EX block after a line
'.\\" example: NAME.c' or NAME.cc (roff escapes undone), in a Markdown
file every ```c block (README-1.c, README-2.c, ...) and ```cpp block
(README-cpp-1.cc, ...)."""
import os
import re
import sys

ROFF = [(r'\-', '-'), (r'\e', '\\'), (r'\(dq', '"'), (r'\(aq', "'"),
        (r'\&', ''), ('\\\\', '\\')]


def unroff(line):
    out, i = [], 0
    while i < len(line):
        for esc, plain in ROFF:
            if line.startswith(esc, i):
                out.append(plain)
                i += len(esc)
                break
        else:
            out.append(line[i])
            i += 1
    return ''.join(out)


def man_examples(path):
    lines = open(path).read().split('\n')
    for i, line in enumerate(lines):
        m = re.match(r'\.\\" example: (\S+\.cc?)$', line)
        if not m:
            continue
        if lines[i + 1] not in ('.nf', '.EX'):
            sys.exit('%s:%d: the example tag is not before .nf or .EX' % (path, i + 1))
        end = '.fi' if lines[i + 1] == '.nf' else '.EE'
        body = []
        for code in lines[i + 2:]:
            if code == end:
                break
            if code.startswith('.') and not code.startswith('.\\"'):
                sys.exit('%s: a request in example %s: %s' % (path, m.group(1), code))
            body.append(unroff(code))
        yield m.group(1), '\n'.join(body) + '\n'


def markdown_examples(path):
    base = os.path.splitext(os.path.basename(path))[0]
    text = open(path).read()
    blocks = re.findall(r'^```c\n(.*?)^```$', text, re.M | re.S)
    for n, block in enumerate(blocks, 1):
        yield '%s-%d.c' % (base, n), block
    blocks = re.findall(r'^```cpp\n(.*?)^```$', text, re.M | re.S)
    for n, block in enumerate(blocks, 1):
        yield '%s-cpp-%d.cc' % (base, n), block


def main():
    out = sys.argv[1]
    for path in sys.argv[2:]:
        found = markdown_examples(path) if path.endswith('.md') else man_examples(path)
        for name, text in found:
            with open(os.path.join(out, name), 'w') as f:
                f.write(text)
            print(name)


main()
