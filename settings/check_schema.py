#!/usr/bin/env python3
"""Check fringe settings schemas (settings/*.xml) and INI files against them.

Standard library only. Resolves <import filename=.../> (relative to the
importing file) and <group k=...> templates copied in by <import group=.../>,
then checks the schema itself:
  - every <s> has a k, full keys are unique, every <type> name is known;
  - OptionList defaults and unsupported="..." values name real options;
  - every <depends k=...> names an existing key, and a value that is one of its
    options, not an unsupported one (fringe's loader refuses that);
  - required settings carry no default.
With INI files it checks that every key exists in the schema (OSKAR's rules:
[group] prefix except [General]; '\\' and '.' in keys become '/'; fringe also
accepts 'key = value'), and that OptionList and Bool values are valid. It warns
when an INI sets an unsupported key or option to something other than its
default.

Usage:
  check_schema.py SCHEMA.xml                 check the schema, print nothing else
  check_schema.py SCHEMA.xml --list          print full keys (type, default)
  check_schema.py SCHEMA.xml FILE.ini ...    also check INI files
Exit status 0 when no errors, 1 otherwise.
"""

import argparse
import copy
import os
import sys
import xml.etree.ElementTree as ET

# OSKAR type names (case-insensitive) and their aliases.
TYPE_ALIASES = {
    "bool": "Bool", "int": "Int", "unsignedint": "UnsignedInt", "uint": "UnsignedInt",
    "intpositive": "IntPositive", "intrange": "IntRange", "intrangeext": "IntRangeExt",
    "double": "Double", "unsigneddouble": "UnsignedDouble", "doublerange": "DoubleRange",
    "doublerangeext": "DoubleRangeExt", "intlist": "IntList", "doublelist": "DoubleList",
    "intlistext": "IntListExt", "string": "String", "stringlist": "StringList",
    "inputfile": "InputFile", "inputfilelist": "InputFileList",
    "inputdirectory": "InputDirectory", "outputfile": "OutputFile",
    "optionlist": "OptionList", "randomseed": "RandomSeed", "datetime": "DateTime",
    "time": "Time",
}
SETTING_TAGS = ("s", "setting", "key")


class Setting:
    def __init__(self, key, type_name, default, params, required, unsupported,
                 unsupported_options, depends, source):
        self.key = key
        self.type_name = type_name          # None for a pure group
        self.default = default
        self.params = params
        self.required = required
        self.unsupported = unsupported
        self.unsupported_options = unsupported_options
        self.depends = depends              # list of (key, value, cond)
        self.source = source

    def options(self):
        return split_params(self.params) if self.type_name == "OptionList" else []


def split_params(text):
    """Comma-separated list; double quotes protect commas."""
    out, cur, quoted = [], "", False
    for ch in (text or ""):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip() or out:
        out.append(cur.strip())
    return [o for o in out if o != ""]


def is_true(text):
    return (text or "").strip().upper() in ("TRUE", "YES", "1")


def attr(el, *names):
    for n in names:
        if n in el.attrib:
            return el.attrib[n]
    return None


def load_file(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        raise SystemExit(f"error: {path}: not well-formed XML: {e}")
    except OSError as e:
        raise SystemExit(f"error: {path}: {e}")


class Schema:
    def __init__(self, path):
        self.errors = []
        self.settings = {}       # full key -> Setting (ordered)
        self.groups = {}         # template path -> element
        root = load_file(path)
        self.app = root.attrib.get("app", "")
        self._walk(root, [], os.path.dirname(os.path.abspath(path)), path, [])
        self._check()

    def error(self, msg):
        self.errors.append(msg)

    def _walk(self, el, prefix, base_dir, src, deps_stack):
        for child in list(el):
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag == "import":
                fname = attr(child, "filename", "file")
                gname = attr(child, "group")
                if fname:
                    ipath = os.path.join(base_dir, fname)
                    if not os.path.isfile(ipath):
                        self.error(f"{src}: import of missing file '{fname}'")
                        continue
                    iroot = load_file(ipath)
                    holder = ET.Element("holder")
                    if iroot.tag == "root":
                        holder.extend(list(iroot))
                    else:
                        holder.append(iroot)
                    self._walk(holder, prefix, os.path.dirname(ipath), ipath, deps_stack)
                elif gname:
                    tmpl = self._find_group(gname)
                    if tmpl is None:
                        self.error(f"{src}: import of undefined or ambiguous group '{gname}' "
                                   f"under '{'/'.join(prefix)}' (templates must come first)")
                        continue
                    holder = ET.Element("holder")
                    holder.extend(copy.deepcopy(list(tmpl)))
                    self._walk(holder, prefix, base_dir, src, deps_stack)
                else:
                    self.error(f"{src}: <import> without filename or group")
            elif tag == "group":
                k = attr(child, "k", "key")
                if not k:
                    self.error(f"{src}: <group> without k")
                    continue
                self.groups["/".join(prefix + [k])] = child
            elif tag in SETTING_TAGS:
                self._setting(child, prefix, base_dir, src, deps_stack)

    def _find_group(self, name):
        """A template by its full path (OSKAR: parent keys + k), else by its
        bare k when that is unique (fringe's loader names groups by k alone)."""
        if name in self.groups:
            return self.groups[name]
        hits = [g for p, g in self.groups.items() if p.rsplit("/", 1)[-1] == name]
        return hits[0] if len(hits) == 1 else None

    def _setting(self, el, prefix, base_dir, src, deps_stack):
        k = attr(el, "k", "key")
        if not k:
            self.error(f"{src}: <s> without k under '{'/'.join(prefix)}'")
            return
        key = "/".join(prefix + [k])
        type_el = None
        depends = []
        for c in el:
            if c.tag in ("type", "t"):
                type_el = c
            elif c.tag == "depends":
                depends.append(self._dep(c, key, src))
            elif c.tag == "logic":
                depends.extend(self._logic(c, key, src))
        type_name = default = params = None
        unsupported_options = []
        if type_el is not None:
            raw = attr(type_el, "name", "n") or ""
            type_name = TYPE_ALIASES.get(raw.lower())
            if type_name is None:
                self.error(f"{key}: unknown type name '{raw}'")
            default = attr(type_el, "default", "d")
            params = " ".join((type_el.text or "").split())
            u = type_el.attrib.get("unsupported")
            if u:
                unsupported_options = split_params(u)
        required = is_true(attr(el, "required", "req", "r"))
        unsupported = is_true(el.attrib.get("unsupported"))
        if key in self.settings:
            self.error(f"{key}: defined twice ({self.settings[key].source}, {src})")
        self.settings[key] = Setting(key, type_name, default, params, required,
                                     unsupported, unsupported_options, depends, src)
        self._walk(el, prefix + [k], base_dir, src, deps_stack)

    def _dep(self, c, key, src):
        dk = attr(c, "k", "key")
        dv = attr(c, "v", "value")
        cond = (attr(c, "c", "cond") or "EQ").upper()
        if dk is None or dv is None:
            self.error(f"{key}: <depends> needs k and v")
        if cond not in ("EQ", "NE", "GT", "GE", "LT", "LE"):
            self.error(f"{key}: <depends> condition '{cond}' unknown")
        return (dk, dv, cond)

    def _logic(self, c, key, src):
        grp = (c.attrib.get("group") or "AND").upper()
        if grp not in ("AND", "OR"):
            self.error(f"{key}: <logic group='{grp}'> must be AND or OR")
        out = []
        for d in c:
            if d.tag == "depends":
                out.append(self._dep(d, key, src))
            elif d.tag == "logic":
                out.extend(self._logic(d, key, src))
        return out

    def _check(self):
        for s in self.settings.values():
            opts = s.options()
            if s.type_name == "OptionList":
                if not opts:
                    self.error(f"{s.key}: OptionList without options")
                if s.default is not None and s.default != "" and \
                        match_option(s.default, opts) is None:
                    self.error(f"{s.key}: default '{s.default}' is not one of {opts}")
                for u in s.unsupported_options:
                    if u not in opts:
                        self.error(f"{s.key}: unsupported option '{u}' is not one of {opts}")
                    if s.default and match_option(s.default, opts) == u:
                        self.error(f"{s.key}: the default '{s.default}' is marked unsupported")
            elif s.unsupported_options:
                self.error(f"{s.key}: unsupported=\"...\" option list on a non-OptionList type")
            if s.type_name in ("IntRange", "DoubleRange", "IntRangeExt", "DoubleRangeExt"):
                n = len(split_params(s.params))
                ext = s.type_name.endswith("Ext")
                if (not ext and n != 2) or (ext and n not in (3, 4)):
                    self.error(f"{s.key}: {s.type_name} needs 'min,max{',word[,word]' if ext else ''}'"
                               f", got '{s.params}'")
                elif s.default not in (None, "") and ext:
                    words = split_params(s.params)[2:]
                    if s.default not in words:
                        try:
                            float(s.default)
                        except ValueError:
                            self.error(f"{s.key}: default '{s.default}' is neither a number nor one of {words}")
            if s.type_name == "IntListExt" and not split_params(s.params):
                self.error(f"{s.key}: IntListExt needs its special word as parameter")
            if s.required and s.default not in (None, ""):
                self.error(f"{s.key}: required but has default '{s.default}'")
            if s.unsupported and s.type_name is None:
                self.error(f"{s.key}: unsupported=\"true\" on a group; mark its settings")
            if s.unsupported and s.required:
                self.error(f"{s.key}: both required and unsupported")
            if s.type_name == "Bool" and s.default not in (None, "true", "false"):
                self.error(f"{s.key}: Bool default '{s.default}' should be true or false")
            for dk, dv, _ in s.depends:
                if dk and dk not in self.settings:
                    self.error(f"{s.key}: depends on unknown key '{dk}'")
                elif dk and self.settings[dk].type_name == "OptionList" and dv != "":
                    m = match_option(dv, self.settings[dk].options())
                    if m is None:
                        self.error(f"{s.key}: depends on {dk}='{dv}', not an option of it")
                    elif m in self.settings[dk].unsupported_options:
                        # fringe's loader normalises dependency values and refuses these.
                        self.error(f"{s.key}: depends on {dk}='{dv}', an unsupported option")


def match_option(text, options):
    """OSKAR's rule: the first option that starts with the text, ignoring case."""
    t = text.strip().lower()
    if t == "":
        return None
    for o in options:
        if o.lower() == t:
            return o
    for o in options:
        if o.lower().startswith(t):
            return o
    return None


def read_ini(path):
    """Yield (line_no, full_key, value) as OSKAR reads them (plus 'k = v')."""
    group = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip(" \t\r\n")
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("[") and line.endswith("]"):
                group = line[1:-1].strip()
                continue
            if "=" not in line:
                continue
            k, v = line.split("=", 1)
            k = k.strip().replace("\\", "/").replace(".", "/")
            v = v.strip()
            if group.lower() == "general":
                if k in ("app", "version"):
                    continue
                full = k
            else:
                full = f"{group}/{k}" if group else k
            yield n, full, v


def check_ini(schema, path):
    errors, warnings = [], []
    keys = list(schema.settings)
    for n, key, value in read_ini(path):
        s = schema.settings.get(key)
        where = f"{path}:{n}"
        if s is None or s.type_name is None:
            import difflib
            near = difflib.get_close_matches(key, keys, n=1)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            errors.append(f"{where}: unknown key '{key}'{hint}")
            continue
        if s.type_name == "OptionList" and value != "":
            m = match_option(value, s.options())
            if m is None:
                errors.append(f"{where}: {key}='{value}' is not one of {s.options()}")
            elif m in s.unsupported_options:
                warnings.append(f"{where}: {key}='{value}' is not supported yet")
        if s.type_name == "Bool" and not value.upper().startswith(("TRUE", "ON", "1")) \
                and value.upper() not in ("FALSE", "OFF", "0", "NO"):
            errors.append(f"{where}: {key}='{value}' is not a boolean")
        if s.unsupported and value != (s.default or ""):
            warnings.append(f"{where}: {key}='{value}' is not supported yet "
                            f"(only the default '{s.default or ''}' is accepted)")
    return errors, warnings


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("schema")
    ap.add_argument("ini", nargs="*")
    ap.add_argument("--list", action="store_true", help="print every full key")
    a = ap.parse_args()
    schema = Schema(a.schema)
    status = 0
    for e in schema.errors:
        print(f"schema error: {a.schema}: {e}")
        status = 1
    if a.list:
        for s in schema.settings.values():
            if s.type_name is None:
                continue
            flags = "".join([" R" if s.required else "",
                             " unsupported" if s.unsupported else "",
                             f" unsupported-options={','.join(s.unsupported_options)}"
                             if s.unsupported_options else ""])
            print(f"{s.key}\t{s.type_name}\t{s.default if s.default is not None else ''}{flags}")
    for ini in a.ini:
        errors, warnings = check_ini(schema, ini)
        for w in warnings:
            print(f"warning: {w}")
        for e in errors:
            print(f"error: {e}")
        if errors:
            status = 1
        else:
            print(f"ok: {ini}")
    sys.stdout.flush()
    n = sum(1 for s in schema.settings.values() if s.type_name)
    print(f"{a.schema}: {n} settings, {len(schema.errors)} schema errors", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
