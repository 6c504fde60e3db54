#!/usr/bin/python3
"""Samples of FITS images, to compare fringe's outputs with OSKAR's without storing OSKAR's
full images (the tutorial's beam patterns are 18 MB each).

  fits_samples.py extract OUT.npz STEP FILE...   # every STEP-th pixel of every plane (as
                                                 # float32), plus the WCS header cards
  fits_samples.py compare REF.npz DIR TOL        # DIR/<same names>: headers equal, NaN (no
                                                 # value, e.g. below the horizon) at the same
                                                 # pixels, the other samples within
                                                 # TOL x (largest |reference sample|)

The reference files in tests/data/oskar-examples/reference were made with `extract` from
OSKAR 2.13's own outputs (README there). Exit 0 when equal within tolerance, 1 otherwise.
"""
import json
import os
import sys

import numpy as np
from astropy.io import fits

CARDS = ["NAXIS", "NAXIS1", "NAXIS2", "NAXIS3", "NAXIS4", "CTYPE1", "CTYPE2", "CTYPE3",
         "CTYPE4", "CRPIX1", "CRPIX2", "CRPIX3", "CRPIX4", "CDELT1", "CDELT2", "CDELT3",
         "CDELT4", "CRVAL1", "CRVAL2", "CRVAL3", "CRVAL4", "BUNIT"]


def samples(path, step):
    with fits.open(path) as f:
        h = f[0].header
        data = np.asarray(f[0].data, dtype=np.float64)
        cards = {k: h[k] for k in CARDS if k in h}
    planes = data.reshape((-1,) + data.shape[-2:])
    return cards, planes[:, ::step, ::step].ravel().tolist()


def extract(out, step, files):
    meta = {"step": step, "files": {}}
    arrays = {}
    for i, path in enumerate(files):
        cards, values = samples(path, step)
        meta["files"][os.path.basename(path)] = {"header": cards, "array": f"a{i}"}
        arrays[f"a{i}"] = np.array(values, dtype=np.float32)
    np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)


def load(ref_path):
    with np.load(ref_path) as z:
        meta = json.loads(str(z["meta"]))
        for r in meta["files"].values():
            r["samples"] = z[r["array"]].astype(np.float64)
    return meta


def compare(ref_path, folder, tol):
    ref = load(ref_path)
    ok = True
    for name, r in sorted(ref["files"].items()):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            print(f"FAIL: {name}: OSKAR wrote it, fringe did not")
            ok = False
            continue
        cards, values = samples(path, ref["step"])
        for k, v in r["header"].items():
            got = cards.get(k)
            same = (got == v) if isinstance(v, str) else (
                got is not None and abs(float(got) - float(v)) <= 1e-9 * max(1.0, abs(float(v))))
            if not same:
                print(f"FAIL: {name}: {k} = {got!r}, OSKAR {v!r}")
                ok = False
        a, b = np.array(r["samples"]), np.array(values)
        if a.shape != b.shape:
            print(f"FAIL: {name}: {b.size} samples, OSKAR {a.size}")
            ok = False
            continue
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if np.any(nan_a != nan_b):
            print(f"FAIL: {name}: {np.sum(nan_a != nan_b)} samples are NaN in one file only")
            ok = False
            continue
        a, b = a[~nan_a], b[~nan_b]
        peak = np.max(np.abs(a)) if a.size else 0.0
        diff = np.max(np.abs(a - b)) / peak if peak > 0 else np.inf
        print(f"{name}: max |fringe - OSKAR| / peak = {diff:.3g} over {a.size} samples")
        if not np.all(np.isfinite(b)) or not diff <= tol:
            print(f"FAIL: {name}: differs by more than {tol}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "extract":
        extract(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
        sys.exit(0)
    if len(sys.argv) == 5 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    print(__doc__)
    sys.exit(2)
