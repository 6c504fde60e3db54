"""External test of the imager's products, read with astropy: on a Measurement Set that
sim_interferometer writes (VLA-A, Full polarisation, isotropic stations, one unpolarised
1 Jy source at the phase centre and a 0.5 Jy source with Q = 0.3, V = 0.1 off centre):
  - the PSF peaks at 1 at the centre pixel (CRPIX);
  - Stokes (I,Q,U,V) gives four files; the I image equals the I-only image; at the polarised
    source V/I = 0.2 (within 0.01) and the linear polarisation sqrt(Q^2 + U^2)/I is at most 0.6
    (the simulator rotates Q into U with the parallactic angle, which the imager does not undo:
    no A-terms);
  - Linear (XX,XY,YX,YY): (XX + YY)/2 equals I, (XX - YY)/2 equals Q, (XY + YX)/2 equals U;
  - channel snapshots: a cube with one plane per channel, FREQ axis = the channel frequencies;
  - uniform weighting changes the image but not the source position.

usage: imager_products.py --sim EXE --imager EXE --workdir DIR
"""
import argparse
import math
import os
import subprocess
import sys

import ms_test_util as util


IMAGER = """[General]
app=imager

[image]
use_gpus=false
size=128
specify_cellsize=true
cellsize_arcsec=0.25
input_vis_data={ms}
root_path={root}
{extra}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--imager", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    try:
        import numpy as np
        from astropy.io import fits
    except ImportError as e:
        print("SKIP: needs numpy and astropy:", e)
        return util.SKIP
    os.makedirs(args.workdir, exist_ok=True)
    scale = math.radians(0.25 / 3600)
    # Polarised source 20 pixels east, 12 north: (x, y) = (64 - 20, 64 + 12).
    l, m = 20 * scale, 12 * scale
    d0 = math.radians(30)
    n = math.sqrt(1 - l * l - m * m)
    dec = math.asin(m * math.cos(d0) + n * math.sin(d0))
    ra = math.radians(200) + math.atan2(l, n * math.cos(d0) - m * math.sin(d0))
    sky = os.path.join(args.workdir, "sky.osm")
    with open(sky, "w") as f:
        f.write("200 30 1.0\n%.12f %.12f 0.5 0.3 0.0 0.1\n" % (math.degrees(ra), math.degrees(dec)))
    ms = os.path.join(args.workdir, "products.ms")
    ini = os.path.join(args.workdir, "sim.ini")
    with open(ini, "w") as f:
        f.write(util.vla_sim_settings(sky, ms, 200, 30, 3, 8e6, 10))
    subprocess.run([args.sim, "-q", ini], check=True)

    def image(name, extra):
        root = os.path.join(args.workdir, name)
        path = os.path.join(args.workdir, name + ".ini")
        with open(path, "w") as f:
            f.write(IMAGER.format(ms=ms, root=root, extra=extra))
        subprocess.run([args.imager, "-q", path], check=True)
        return root

    ok = True

    def check(cond, what):
        nonlocal ok
        print(("ok: " if cond else "FAIL: ") + what)
        ok = ok and cond

    def read(path):
        with fits.open(path) as h:
            return h[0].data.astype(float), h[0].header

    psf, hdr = read(image("psf", "image_type=PSF") + "_PSF.fits")
    y, x = np.unravel_index(np.argmax(psf[0]), psf[0].shape)
    check((x + 1, y + 1) == (hdr["CRPIX1"], hdr["CRPIX2"]) and abs(psf[0, y, x] - 1) < 1e-6,
          "PSF peak %.7f at pixel (%d, %d), CRPIX (%g, %g)"
          % (psf[0, y, x], x + 1, y + 1, hdr["CRPIX1"], hdr["CRPIX2"]))
    i_only, _ = read(image("i", "") + "_I.fits")
    root = image("stokes", "image_type=Stokes (I,Q,U,V)")
    st = {p: read(root + "_%s.fits" % p)[0][0] for p in "IQUV"}
    check(np.max(np.abs(st["I"] - i_only[0])) < 1e-9, "Stokes I equals the I-only image")
    px, py = 64 - 20, 64 + 12
    si = st["I"][py, px]
    check(abs(st["V"][py, px] / si - 0.2) < 0.01, "V/I = %.4f at the source (0.2)" % (st["V"][py, px] / si))
    p = math.hypot(st["Q"][py, px], st["U"][py, px]) / si
    check(0 < p <= 0.606, "sqrt(Q^2 + U^2)/I = %.4f at the source (<= 0.6)" % p)
    root = image("linear", "image_type=Linear (XX,XY,YX,YY)")
    lin = {c: read(root + "_%s.fits" % c)[0][0] for c in ("XX", "XY", "YX", "YY")}
    check(np.max(np.abs(0.5 * (lin["XX"] + lin["YY"]) - i_only[0])) < 1e-9, "(XX + YY)/2 equals I")
    check(np.max(np.abs(0.5 * (lin["XX"] - lin["YY"]) - st["Q"])) < 1e-9, "(XX - YY)/2 equals Q")
    check(np.max(np.abs(0.5 * (lin["XY"] + lin["YX"]) - st["U"])) < 1e-9, "(XY + YX)/2 equals U")
    cube, hdr = read(image("cube", "channel_snapshots=true") + "_I.fits")
    check(cube.shape[0] == 3 and hdr["CRVAL3"] == 1.4e9 and hdr["CDELT3"] == 8e6,
          "snapshot cube: %d planes, CRVAL3 %g, CDELT3 %g" % (cube.shape[0], hdr["CRVAL3"], hdr["CDELT3"]))
    uni, _ = read(image("uniform", "weighting=Uniform") + "_I.fits")
    y, x = np.unravel_index(np.argmax(uni[0]), uni[0].shape)
    check((x, y) == (64, 64) and np.max(np.abs(uni[0] - i_only[0])) > 1e-3,
          "uniform weighting: peak at (%d, %d), image differs from natural" % (x, y))
    print("imager products check passed" if ok else "imager products check failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
