#!/usr/bin/env python3
"""Compare a fringe image with a reference image (e.g. WSClean's dirty image) pixel by pixel.

Usage: compare_fits.py TEST.fits REF.fits [--max-rms-rel X]
Prints one JSON line: the peaks (largest |pixel|), rms_rel and max_rel (RMS and largest
|TEST - REF| over REF's peak), where the largest difference is (0-based row y, column x), the
same two figures over the central half of the image (where aliasing and the gridders' edge
errors are smallest), and the pixel counts. Exit 0; 1 if --max-rms-rel is given and exceeded or
an image has no finite pixel; 2 if the images do not describe the same pixels (size, CRPIX,
CDELT, CRVAL, CTYPE of both sky axes), naming the header key.

Conventions (issue 23, measured on the low_aa1_dipole_gauss Measurement Set, 512^2 x 28.1"):
fringe and WSClean 3.1 write the same pixel grid, so no flip, shift or rescaling is applied:
- both write RA---SIN / DEC--SIN with CDELT1 < 0 (RA increasing to the left: l = -(x - N/2) cell,
  m = (y - N/2) cell, 0-based x, y) and CRPIX1 = CRPIX2 = N/2 + 1, i.e. the phase centre on the
  0-based pixel N/2 in both (against fringe's DFT 3D: 7.8e-7 of the peak RMS as written;
  2.8e-2 to 1.0e-1 with either image flipped in x or y or shifted by one pixel);
- both are dirty images in Jy/beam divided by the sum of the imaging weights (natural: the MS
  WEIGHT), Stokes I = (XX + YY)/2, without a 1/n factor: WSClean (-use-wgridder
  -wgridder-accuracy 1e-6 -no-small-inversion) equals fringe's DFT 3D to 1.9e-8 of the peak
  RMS (4.0e-7 largest), so any normalisation or w-sign difference would show;
- WSClean's default "small inversion" (grids at the smallest size the uv coverage needs and
  Fourier-interpolates up to -size) differs from the exact image by up to 3 % of the peak near
  the image edges in that case (7.5e-4 RMS): the benchmark passes -no-small-inversion (a no-op
  when the uv coverage already needs the full size, as for the 4096^2 SKA-Low AA4 case).
- CRVAL1 (RA of the centre) is compared modulo 360 deg: fringe writes 200, WSClean -160.
- A one-correlation Measurement Set (OSKAR's scalar mode) holds Stokes I as XX for fringe (as
  OSKAR); WSClean 3.1 refuses -pol I on it ("Can not form requested polarization"): its -pol XX
  image is the one to compare (imager_vs_wsclean.sh: WS_POL=XX).
WSClean writes (1, 1, N, N) float32 arrays, fringe (1, N, N) float32 or float64: the first plane
of each is compared, in double precision. Non-finite pixels (fringe blanks pixels below the
A-term beam's cut-off) are left out and counted.
"""
import argparse
import json
import sys

import numpy as np
from astropy.io import fits


def read(path):
    try:
        hdul = fits.open(path)
    except OSError as e:
        raise SystemExit(f"compare_fits: cannot read {path}: {e}")
    with hdul:
        h = hdul[0].header
        d = np.asarray(hdul[0].data, dtype=np.float64)
    if d.ndim < 2:
        raise SystemExit(f"compare_fits: {path}: expected an image, found {d.ndim} axes")
    if d.shape[-1] * d.shape[-2] == 0:
        raise SystemExit(f"compare_fits: {path}: empty image")
    return h, d.reshape(-1, d.shape[-2], d.shape[-1])[0]


def check_same_grid(ht, hr, test, ref):
    """Exit 2 when the two headers describe different sky pixels."""
    for k in ("NAXIS1", "NAXIS2", "CTYPE1", "CTYPE2", "CRPIX1", "CRPIX2"):
        if ht.get(k) != hr.get(k):
            raise SystemExit(
                f"compare_fits: {test} {k} = {ht.get(k)} but {ref} {k} = {hr.get(k)}")
    for k in ("CDELT1", "CDELT2"):
        # WSClean takes the cell as text (-scale ...asec, 10 decimals): 1e-9 relative is far below
        # a pixel's width across the image (4096 x 1e-9).
        a, b = ht.get(k), hr.get(k)
        if a is None or b is None or abs(a - b) > 1e-9 * abs(b):
            raise SystemExit(f"compare_fits: {test} {k} = {a} but {ref} {k} = {b}")
    for k in ("CRVAL1", "CRVAL2"):  # degrees; 1e-9 deg = 3.6 micro-arcseconds
        a, b = ht.get(k), hr.get(k)
        # RA modulo 360: fringe writes the MS's RA in [0, 360) (200), WSClean in (-180, 180] (-160).
        if a is None or b is None or abs((a - b + 180.0) % 360.0 - 180.0) > 1e-9:
            raise SystemExit(f"compare_fits: {test} {k} = {a} but {ref} {k} = {b}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("test")
    p.add_argument("ref")
    p.add_argument("--max-rms-rel", type=float, default=None)
    a = p.parse_args()
    ht, t = read(a.test)
    hr, r = read(a.ref)
    if t.shape != r.shape:
        print(f"compare_fits: {a.test} is {t.shape}, {a.ref} is {r.shape}", file=sys.stderr)
        return 2
    try:
        check_same_grid(ht, hr, a.test, a.ref)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    ok = np.isfinite(t) & np.isfinite(r)
    if not ok.any():
        print("compare_fits: no pixel is finite in both images", file=sys.stderr)
        return 1
    peak_ref = float(np.abs(r[ok]).max())
    peak_test = float(np.abs(t[ok]).max())
    if peak_ref == 0:
        print(f"compare_fits: {a.ref} is all zero", file=sys.stderr)
        return 1
    e = np.where(ok, t - r, 0.0)
    iy, ix = np.unravel_index(int(np.argmax(np.abs(e))), e.shape)
    n = t.shape[0]
    c = (slice(n // 4, n - n // 4), slice(t.shape[1] // 4, t.shape[1] - t.shape[1] // 4))
    okc = ok[c]
    out = {
        "test": a.test,
        "ref": a.ref,
        "size": list(t.shape),
        "peak_test": peak_test,
        "peak_ref": peak_ref,
        "rms_rel": float(np.sqrt(np.mean(e[ok] ** 2)) / peak_ref),
        "max_rel": float(np.abs(e).max() / peak_ref),
        "max_at_yx": [int(iy), int(ix)],
        "rms_rel_central": float(np.sqrt(np.mean(e[c][okc] ** 2)) / peak_ref),
        "max_rel_central": float(np.abs(e[c]).max() / peak_ref),
        "pixels": int(ok.size),
        "non_finite": int(ok.size - ok.sum()),
    }
    print(json.dumps(out))
    if a.max_rms_rel is not None and not out["rms_rel"] <= a.max_rms_rel:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
