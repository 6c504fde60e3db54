"""External test: fringe's imager and WSClean make dirty images of the same Measurement Set
(sim_interferometer: VLA-A, isotropic stations, three point sources at pixel centres of the
common SIN grid). The two images must agree in the source positions (peaks located to
sub-pixel precision by a parabola through the 3 x 3 neighbourhood: within 0.1 pixel) and in
the peak values (within 1 %); the imager's FITS header must give astropy the source RA/Dec;
the imager in single precision on a GPU (when there is one) agrees with the CPU in double
(1e-4 of the peak).

usage: imager_wsclean.py --sim EXE --imager EXE --workdir DIR
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
algorithm=IDG
use_gpus={gpu}
double_precision={double}
size={size}
specify_cellsize=true
cellsize_arcsec={scale}
image_type=I
input_vis_data={ms}
root_path={root}
"""

# Source offsets in pixels (east, north) and fluxes [Jy].
SOURCES = [(0, 0, 1.0), (37, -21, 0.6), (-55, 48, 0.8)]


def sky_position(ra0, dec0, l, m):
    d0 = math.radians(dec0)
    n = math.sqrt(1.0 - l * l - m * m)
    dec = math.asin(m * math.cos(d0) + n * math.sin(d0))
    ra = math.radians(ra0) + math.atan2(l, n * math.cos(d0) - m * math.sin(d0))
    return math.degrees(ra), math.degrees(dec)


def subpixel_peak(np, image, x, y):
    """Peak near (x, y): the largest pixel within 3 pixels, refined by 1-D parabolas."""
    win = image[y - 3:y + 4, x - 3:x + 4]
    dy, dx = np.unravel_index(np.argmax(win), win.shape)
    y, x = y - 3 + dy, x - 3 + dx

    def vertex(a, b, c):
        d = a - 2 * b + c
        return 0.0 if d == 0 else 0.5 * (a - c) / d

    px = x + vertex(image[y, x - 1], image[y, x], image[y, x + 1])
    py = y + vertex(image[y - 1, x], image[y, x], image[y + 1, x])
    return px, py, float(image[y, x])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--imager", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    wsclean = util.require_wsclean_and_astropy()
    import numpy as np
    from astropy.io import fits
    from astropy.wcs import WCS
    os.makedirs(args.workdir, exist_ok=True)
    size, scale_asec = 256, 0.25
    scale = math.radians(scale_asec / 3600.0)
    ra0, dec0 = 200.0, 30.0
    sky = os.path.join(args.workdir, "sky.osm")
    truth = []
    with open(sky, "w") as f:
        for ex, ny, flux in SOURCES:
            l, m = ex * scale, ny * scale
            ra, dec = sky_position(ra0, dec0, l, m)
            truth.append((ra, dec, size // 2 - ex, size // 2 + ny))
            f.write("%.12f %.12f %g\n" % (ra, dec, flux))
    ms = os.path.join(args.workdir, "imager_wsclean.ms")
    ini = os.path.join(args.workdir, "sim.ini")
    with open(ini, "w") as f:
        f.write(util.vla_sim_settings(sky, ms, ra0, dec0, 2, 4e6, 12))
    subprocess.run([args.sim, "-q", ini], check=True)
    prefix = os.path.join(args.workdir, "wsclean")
    subprocess.run([wsclean, "-quiet", "-size", str(size), str(size), "-scale",
                    "%gasec" % scale_asec, "-weight", "natural", "-niter", "0", "-pol", "I",
                    "-name", prefix, ms], check=True, cwd=args.workdir)
    root = os.path.join(args.workdir, "fringe")
    ini = os.path.join(args.workdir, "imager.ini")
    with open(ini, "w") as f:
        f.write(IMAGER.format(size=size, scale=scale_asec, ms=ms, root=root, gpu="false",
                              double="true"))
    subprocess.run([args.imager, "-q", ini], check=True)
    # The same in single precision on a GPU when there is one (else on the CPU again, with a
    # warning): the two fringe images must agree to 1e-4 of the peak (the single-precision target).
    root_gpu = os.path.join(args.workdir, "fringe_gpu")
    ini_gpu = os.path.join(args.workdir, "imager_gpu.ini")
    with open(ini_gpu, "w") as f:
        f.write(IMAGER.format(size=size, scale=scale_asec, ms=ms, root=root_gpu, gpu="true",
                              double="false"))
    run = subprocess.run([args.imager, ini_gpu], check=True, capture_output=True, text=True)
    device = [line for line in run.stdout.splitlines() if "Imaged on" in line]
    print(device[0] if device else "(no 'Imaged on' line)")
    with fits.open(prefix + "-dirty.fits") as h:
        ws = h[0].data[0, 0].astype(float)
    with fits.open(root + "_I.fits") as h:
        fr = h[0].data[0].astype(float)
        wcs = WCS(h[0].header).celestial
        ok = h[0].header["BUNIT"] == "JY/BEAM" and h[0].header["CTYPE3"] == "FREQ"
        if not ok:
            print("FAIL: header BUNIT/CTYPE3:", h[0].header["BUNIT"], h[0].header["CTYPE3"])
    for ra, dec, x, y in truth:
        fx, fy, fpk = subpixel_peak(np, fr, x, y)
        wx, wy, wpk = subpixel_peak(np, ws, x, y)
        ra_px, dec_px = wcs.wcs_world2pix([[ra, dec]], 0)[0]
        print("source at pixel (%d, %d): fringe peak (%.3f, %.3f) %.5f Jy/beam, wsclean "
              "(%.3f, %.3f) %.5f; astropy puts RA/Dec at (%.3f, %.3f)"
              % (x, y, fx, fy, fpk, wx, wy, wpk, ra_px, dec_px))
        if math.hypot(fx - wx, fy - wy) > 0.1:
            print("FAIL: positions differ by %.3f pixels" % math.hypot(fx - wx, fy - wy))
            ok = False
        if abs(fpk - wpk) > 0.01 * abs(wpk):
            print("FAIL: peaks differ by %.2f %%" % (100 * (fpk - wpk) / wpk))
            ok = False
        if math.hypot(ra_px - x, dec_px - y) > 0.01:
            print("FAIL: the FITS WCS puts the source at (%.3f, %.3f)" % (ra_px, dec_px))
            ok = False
    with fits.open(root_gpu + "_I.fits") as h:
        single = h[0].data[0].astype(float)
    d = float(np.max(np.abs(single - fr)) / np.max(np.abs(fr)))
    print("single precision (%s) vs double (CPU): max difference %.3g of the peak"
          % ("GPU" if device and "GPU" in device[0] else "CPU", d))
    if d > 1e-4:
        print("FAIL: single vs double differ by %.3g of the peak" % d)
        ok = False
    rms = float(np.sqrt(np.mean((fr - ws) ** 2)) / np.max(np.abs(ws)))
    print("image difference: RMS %.3g of the peak" % rms)
    print("fringe and wsclean dirty images agree" if ok else "imager vs wsclean check failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
