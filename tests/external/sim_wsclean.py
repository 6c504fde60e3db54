"""External test: WSClean images the Measurement Set that sim_interferometer writes for one
off-centre 1 Jy point source (VLA-A, isotropic stations, Full polarisation). The dirty-image
peak must lie at the source position and be 1 Jy within 2 %, with both phase conventions
(interferometer/use_casa_phase_convention true and false). The source position is chosen here
(a pixel centre of WSClean's SIN grid), not by fringe.

usage: sim_wsclean.py --app EXE --workdir DIR
"""
import argparse
import math
import os
import subprocess
import sys

import ms_test_util as util


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    wsclean = util.require_wsclean_and_astropy()
    import numpy as np
    from astropy.io import fits
    from astropy.wcs import WCS
    os.makedirs(args.workdir, exist_ok=True)

    size, scale_asec = 256, 0.25
    scale = math.radians(scale_asec / 3600.0)
    l, m = 37 * scale, -21 * scale  # 37 pixels east, 21 pixels south
    ra0, dec0 = 200.0, 30.0
    d0 = math.radians(dec0)
    n = math.sqrt(1.0 - l * l - m * m)
    dec_s = math.asin(m * math.cos(d0) + n * math.sin(d0))
    ra_s = math.radians(ra0) + math.atan2(l, n * math.cos(d0) - m * math.sin(d0))
    sky = os.path.join(args.workdir, "sky.osm")
    with open(sky, "w") as f:
        f.write("# RA, Dec, I (one off-centre source)\n%.12f %.12f 1.0\n"
                % (math.degrees(ra_s), math.degrees(dec_s)))
    ok = True
    for casa in ("true", "false"):
        name = "sim_wsclean_casa_" + casa
        ms = os.path.join(args.workdir, name + ".ms")
        ini = os.path.join(args.workdir, name + ".ini")
        with open(ini, "w") as f:
            f.write(util.vla_sim_settings(sky, ms, ra0, dec0, 4, 2e6, 15,
                                          f"use_casa_phase_convention={casa}\n"))
        subprocess.run([args.app, "-q", ini], check=True)
        prefix = os.path.join(args.workdir, name)
        cmd = [wsclean, "-quiet", "-size", str(size), str(size), "-scale", "%gasec" % scale_asec,
               "-weight", "natural", "-niter", "0", "-pol", "I", "-name", prefix, ms]
        print(" ".join(cmd))
        subprocess.run(cmd, check=True, cwd=args.workdir)
        with fits.open(prefix + "-dirty.fits") as hdul:
            image = hdul[0].data[0, 0]
            wcs = WCS(hdul[0].header).celestial
        y, x = np.unravel_index(np.argmax(image), image.shape)
        peak = float(image[y, x])
        ra_pk, dec_pk = [math.radians(v) for v in wcs.wcs_pix2world([[x, y]], 0)[0]]
        cos_sep = (math.sin(dec_s) * math.sin(dec_pk) +
                   math.cos(dec_s) * math.cos(dec_pk) * math.cos(ra_s - ra_pk))
        sep = math.degrees(math.acos(min(1.0, cos_sep))) * 3600.0
        print("casa=%s: peak %.4f Jy at pixel (%d, %d), %.3f arcsec from the source"
              % (casa, peak, x, y, sep))
        if sep > 1.5 * scale_asec:
            print("FAIL: casa=%s: the peak is %.2f arcsec from the source" % (casa, sep))
            ok = False
        if abs(peak - 1.0) > 0.02:
            print("FAIL: casa=%s: peak %.4f Jy, expected 1 Jy within 2 %%" % (casa, peak))
            ok = False
    print("wsclean images the simulated source where it is" if ok else "wsclean check failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
