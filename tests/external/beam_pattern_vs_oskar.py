"""External test: sim_beam_pattern on an OSKAR 2.13 reference case writes what OSKAR wrote
(tests/data/oskar-reference/beam_pattern/<case>/, README.md there): the settings file is
copied into the work folder with its inputs made absolute (tests/integration/relocate_ini.py),
the app runs there, and its files are compared with OSKAR's (oskar_outputs.tar.gz):

- the same set of file names;
- FITS: BITPIX, NAXISn, CTYPEn, CRVALn, CDELTn, CRPIXn, CROTAn, BUNIT (present or not, and
  equal), TIMESYS, TIMEUNIT, MJD-OBS, OBSRA, OBSDEC, WCSNAME, LONPOLE, LATPOLE (numbers to
  1e-9 relative: OSKAR writes 11 significant digits); pixel values (NaN at the same pixels);
- text: the '#' header lines identical; the same number of lines and numbers per line, each
  number in the same format (decimals, exponent digits, sign column); the values.

Values agree within TOL times the largest magnitude of the file's family (the amplitude files
of the same product, every component: see family()): 1e-9 in double precision, 2e-4 in
single (OSKAR and fringe round float32 at different steps). Phases are compared modulo 2 pi and only
where the amplitude counterpart exceeds 1e-6 of its maximum (the phase of a near-zero
number is noise).

usage: beam_pattern_vs_oskar.py --app EXE --case DIR --workdir DIR [--set key=value ...]
Exit 0 when everything agrees, 1 with a list of differences, 77 without numpy (skipped).
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile

try:
    import numpy as np
except ImportError as e:  # pragma: no cover
    print("SKIP: numpy not available:", e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

HEADER_KEYS = ["BITPIX", "NAXIS", "TIMESYS", "TIMEUNIT", "MJD-OBS", "OBSRA", "OBSDEC",
               "WCSNAME", "LONPOLE", "LATPOLE", "BUNIT"]
for _a in range(1, 5):
    HEADER_KEYS += [k + str(_a) for k in ("NAXIS", "CTYPE", "CRVAL", "CDELT", "CRPIX", "CROTA")]


def read_fits(path):
    """The primary header (dict of keyword -> value string) and data of a FITS file."""
    cards = {}
    with open(path, "rb") as f:
        raw = f.read()
    offset = 0
    done = False
    while not done:
        block = raw[offset:offset + 2880].decode("ascii")
        offset += 2880
        for i in range(0, 2880, 80):
            card = block[i:i + 80]
            key = card[:8].strip()
            if key == "END":
                done = True
                break
            if card[8:10] == "= ":
                value = card[10:]
                if value.strip().startswith("'"):
                    value = value.strip()[1:].split("'")[0].rstrip()
                else:
                    value = value.split("/")[0].strip()
                cards[key] = value
    bitpix = int(cards["BITPIX"])
    shape = [int(cards["NAXIS%d" % a]) for a in range(int(cards["NAXIS"]), 0, -1)]
    dtype = {-32: ">f4", -64: ">f8"}[bitpix]
    count = int(np.prod(shape))
    data = np.frombuffer(raw, dtype=dtype, count=count, offset=offset).reshape(shape)
    return cards, data.astype(np.float64)


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read_text(path):
    """Header lines, and per data line its tokens (split at single spaces)."""
    header, rows = [], []
    with open(path) as f:
        for line in f.read().split("\n")[:-1]:
            (header if line.startswith("#") else rows).append(line)
    return header, rows


def token_shape(tok):
    """The printf shape of a number token: sign column, decimals, exponent digits."""
    if tok in ("-nan", "nan", " nan"):
        return "nan"
    m = re.fullmatch(r"([ -]?)\d\.(\d+)e([+-])(\d+)", tok)
    if not m:
        return "bad:" + tok
    return "%d.%de%d" % (len(m.group(1)), len(m.group(2)), len(m.group(4)))


def text_values(rows):
    out = []
    for r in rows:
        for tok in re.findall(r"[ -]?(?:\d\.\d+e[+-]\d+|nan)", r):
            out.append(float(tok.replace(" ", "")))
    return np.array(out, dtype=np.float64)


COMPONENTS = ("_X_THETA", "_X_PHI", "_Y_THETA", "_Y_PHI", "_I", "_Q", "_U", "_V")


def family(name):
    """A product's name without its extension, its component (matrix element or Stokes
    parameter) and with PHASE, REAL and IMAG read as AMP: the files whose largest amplitude
    sets the scale of a file's differences (a Stokes V or a cross-polar element of an
    unpolarised, isotropic case is zero up to rounding: its own maximum is noise)."""
    base = os.path.splitext(name)[0]
    for q in ("_PHASE", "_REAL", "_IMAG"):
        base = base.replace(q, "_AMP")
    if "RAW_COMPLEX" in base:
        return base
    for c in COMPONENTS:
        if base.endswith(c):
            return base[: -len(c)]
    return base


def counterpart(name, names):
    """The amplitude file that goes with a phase product (same component), if OSKAR wrote one."""
    base, ext = os.path.splitext(name)
    if "_PHASE" not in base:
        return None
    cand = base.replace("_PHASE", "_AMP", 1)
    for e in (ext, ".fits" if ext == ".txt" else ".txt"):
        if cand + e in names:
            return cand + e
    return None


class Comparer:
    def __init__(self, ref_dir, out_dir, tol):
        self.ref, self.out, self.tol = ref_dir, out_dir, tol
        self.errors = []
        self.cache = {}
        self.worst = 0.0

    def values(self, directory, name):
        key = (directory, name)
        if key not in self.cache:
            path = os.path.join(directory, name)
            if name.endswith(".fits"):
                self.cache[key] = read_fits(path)[1].ravel()
            else:
                self.cache[key] = text_values(read_text(path)[1])
        return self.cache[key]

    def compare_values(self, name, a, b, names):
        """a: fringe's, b: OSKAR's values of one file."""
        if a.shape != b.shape:
            self.errors.append("%s: %d values, OSKAR %d" % (name, a.size, b.size))
            return
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if np.any(nan_a != nan_b):
            i = int(np.argmax(nan_a != nan_b))
            self.errors.append("%s: NaN at value %d differs (fringe %r, OSKAR %r)" %
                               (name, i, a[i], b[i]))
            return
        ok = ~nan_b
        scale = np.max(np.abs(b[ok])) if np.any(ok) else 0.0
        for other in names:
            if family(other) == family(name) and "_AMP" in family(other) and "PHASE" not in other:
                scale = max(scale, float(np.nanmax(np.abs(self.values(self.ref, other)),
                                                   initial=0.0)))
        amp = None
        amp_name = counterpart(name, names)
        if amp_name:
            amp = self.values(self.ref, amp_name)
            if amp.shape != b.shape:
                amp = None
        if "PHASE" in name:
            d = np.abs(np.angle(np.exp(1j * (a[ok] - b[ok]))))
            if amp is not None:
                d = np.where(np.abs(amp[ok]) > 1e-6 * np.nanmax(np.abs(amp)), d, 0.0)
            err = float(np.max(d)) if d.size else 0.0
            limit = self.tol * 2 * math.pi
            if self.tol > 1e-6:
                limit = 5e-3  # single precision phases (rad)
        else:
            d = np.abs(a[ok] - b[ok])
            err = float(np.max(d)) / scale if d.size and scale > 0 else float(np.max(d, initial=0))
            limit = self.tol
        self.worst = max(self.worst, err)
        if not err <= limit:
            i = int(np.argmax(d))
            self.errors.append("%s: largest difference %.3g (limit %.3g) at value %d: fringe %r, "
                               "OSKAR %r" % (name, err, limit, i, a[ok][i], b[ok][i]))

    def fits(self, name, names):
        ha, a = read_fits(os.path.join(self.out, name))
        hb, b = read_fits(os.path.join(self.ref, name))
        for k in HEADER_KEYS:
            va, vb = ha.get(k), hb.get(k)
            if (va is None) != (vb is None):
                self.errors.append("%s: %s = %r, OSKAR %r" % (name, k, va, vb))
                continue
            if va is None:
                continue
            na, nb = number(va), number(vb)
            if na is not None and nb is not None:
                if not abs(na - nb) <= 1e-9 * max(abs(nb), 1e-300) + 1e-12:
                    self.errors.append("%s: %s = %r, OSKAR %r" % (name, k, va, vb))
            elif va != vb:
                self.errors.append("%s: %s = %r, OSKAR %r" % (name, k, va, vb))
        self.compare_values(name, a.ravel(), b.ravel(), names)

    def text(self, name, names):
        ha, ra = read_text(os.path.join(self.out, name))
        hb, rb = read_text(os.path.join(self.ref, name))
        if ha != hb:
            for x, y in zip(ha + [""] * len(hb), hb + [""] * len(ha)):
                if x != y:
                    self.errors.append("%s: header line %r, OSKAR %r" % (name, x, y))
                    break
        if len(ra) != len(rb):
            self.errors.append("%s: %d data lines, OSKAR %d" % (name, len(ra), len(rb)))
            return
        for n, (x, y) in enumerate(zip(ra, rb)):
            # Layout: the same tokens between single spaces, each of the same printf shape.
            sx = [token_shape(t) for t in re.findall(r"[ -]?(?:\d\.\d+e[+-]\d+|nan)", x)]
            sy = [token_shape(t) for t in re.findall(r"[ -]?(?:\d\.\d+e[+-]\d+|nan)", y)]
            if sx != sy or len(x) != len(y) or not x.endswith(" "):
                self.errors.append("%s: line %d %r, OSKAR %r" % (name, len(ha) + n + 1, x, y))
                return
        self.compare_values(name, self.values(self.out, name), self.values(self.ref, name), names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    case = os.path.abspath(args.case)
    app = os.path.abspath(args.app)
    if os.path.isdir(args.workdir):
        shutil.rmtree(args.workdir)
    ref_dir = os.path.join(args.workdir, "oskar")
    out_dir = os.path.join(args.workdir, "fringe")
    os.makedirs(ref_dir)
    with tarfile.open(os.path.join(case, "oskar_outputs.tar.gz")) as tar:
        tar.extractall(ref_dir)
    ini = os.path.join(case, "oskar_sim_beam_pattern.ini")
    relocate = [sys.executable, os.path.join(ROOT, "tests", "integration", "relocate_ini.py"),
                ini, out_dir]
    for kv in args.set:
        relocate += ["--set", kv]
    copy = subprocess.run(relocate, check=True, capture_output=True, text=True).stdout.strip()
    # Run in the work folder, as OSKAR ran in the case folder: the root path "bp" is relative.
    print(" ".join([app, "-q", copy]))
    subprocess.run([app, "-q", os.path.basename(copy)], check=True, cwd=out_dir)

    ref_names = sorted(n for n in os.listdir(ref_dir) if n.startswith("bp"))
    out_names = sorted(n for n in os.listdir(out_dir) if n.startswith("bp"))
    c = Comparer(ref_dir, out_dir, 1e-9 if "double_precision=true" in open(copy).read() else 2e-4)
    if ref_names != out_names:
        for n in sorted(set(ref_names) - set(out_names)):
            c.errors.append("missing: %s (OSKAR wrote it)" % n)
        for n in sorted(set(out_names) - set(ref_names)):
            c.errors.append("extra: %s (OSKAR did not write it)" % n)
    names = set(ref_names)
    for n in ref_names:
        if n not in out_names:
            continue
        if n.endswith(".fits"):
            c.fits(n, names)
        else:
            c.text(n, names)
    print("%d files compared, largest relative difference %.3g" % (len(ref_names), c.worst))
    for e in c.errors[:40]:
        print("DIFF", e)
    if len(c.errors) > 40:
        print("... %d differences in all" % len(c.errors))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
