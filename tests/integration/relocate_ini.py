#!/usr/bin/env python3
"""Copies a settings file into another folder so that a run writes its outputs there.

    relocate_ini.py SRC.ini DEST_DIR [--ms NAME] [--set key=value ...]

Relative input paths (keys ending in 'file' or 'input_directory', comma lists too) are made
absolute against SRC's folder; a relative 'ms_filename' becomes DEST_DIR/NAME (default: its own
base name); an absolute one is kept. Line numbers are kept, so messages that name a line stay the same. --set replaces
(or appends, in its [group]) a value: key is group/sub/key. Prints the new file's path.
"""
import argparse
import os
import re
import sys

LINE = re.compile(r'^(\s*)([^=;#\[][^=]*?)(\s*=\s*)(.*?)\s*$')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('dest')
    ap.add_argument('--ms')
    ap.add_argument('--set', action='append', default=[])
    a = ap.parse_args()
    src_dir = os.path.dirname(os.path.abspath(a.src))
    os.makedirs(a.dest, exist_ok=True)
    sets = {}
    for kv in a.set:
        k, _, v = kv.partition('=')
        sets[k.strip().replace('\\', '/')] = v
    out, group, done = [], '', set()
    for raw in open(a.src, encoding='utf-8').read().splitlines():
        stripped = raw.strip()
        if stripped.startswith('[') and stripped.endswith(']'):
            # Append pending --set keys of the group being left.
            out.extend(pending(sets, done, group))
            group = stripped[1:-1]
            out.append(raw)
            continue
        m = LINE.match(raw)
        if not m or not group or group == 'General':
            out.append(raw)
            continue
        indent, key, eq, value = m.groups()
        full = (group + '/' + re.sub(r'[\\.]', '/', key.strip())).replace('//', '/')
        if full in sets:
            value = sets[full]
            done.add(full)
        elif full.endswith('ms_filename') and value and not os.path.isabs(value):
            value = os.path.join(os.path.abspath(a.dest), a.ms or os.path.basename(value))
        elif (full.endswith('file') or full.endswith('input_directory')) and value and \
                value.lower() not in ('true', 'false'):  # keep_log_file=false is no path
            parts = [p.strip() for p in value.strip('"').split(',')]
            value = ','.join(p if os.path.isabs(p) or not p else os.path.join(src_dir, p)
                             for p in parts)
        out.append(indent + key + eq + value)
    out.extend(pending(sets, done, group))
    for k in sets:
        if k not in done:
            g, _, rest = k.partition('/')
            out += ['', '[' + g + ']', rest + '=' + sets[k]]
            done.add(k)
    dst = os.path.join(a.dest, os.path.basename(a.src))
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')
    print(dst)


def pending(sets, done, group):
    lines = []
    for k, v in sets.items():
        if k not in done and group and k.startswith(group + '/'):
            lines.append(k[len(group) + 1:] + '=' + v)
            done.add(k)
    return lines


if __name__ == '__main__':
    sys.exit(main())
