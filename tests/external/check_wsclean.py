"""External test: WSClean (Debian package) images a fringe Measurement Set of one
off-centre 1 Jy point source. The dirty-image peak must lie at the source position and be
1 Jy within 2 %. A mirrored source (a UVW or phase sign error) or a wrong axis fails.

usage: check_wsclean.py --writer EXE --workdir DIR
"""
import argparse
import math
import os
import subprocess
import sys

import ms_test_util as util


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    wsclean = util.require_wsclean_and_astropy()
    import numpy as np
    from astropy.io import fits
    from astropy.wcs import WCS

    size, scale_asec = 256, 2.0
    scale = math.radians(scale_asec / 3600.0)
    # The source sits on a pixel centre: 37 pixels east (RA increases), 21 pixels south.
    l, m = 37 * scale, -21 * scale
    ra0, dec0 = 200.0, 30.0
    centre, stations = util.make_layout(16, 3000.0, seed=11)
    results = {}
    for casa in (1, 0):
        name = "wsclean_casa%d" % casa
        ms = util.write_ms(args.writer, args.workdir, name, stations, centre, ra_deg=ra0,
                           dec_deg=dec0, l=l, m=m, flux_jy=1.0, start_mjd=51544.5, dt=240.0,
                           nt=15, f0=1.4e9, df=2e6, nc=4, pol="full", casa=casa)
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
        ra_pk, dec_pk = wcs.wcs_pix2world([[x, y]], 0)[0]
        # Source RA/Dec from (l, m) (inverse SIN projection about the phase centre).
        d0 = math.radians(dec0)
        n = math.sqrt(1.0 - l * l - m * m)
        dec_s = math.asin(m * math.cos(d0) + n * math.sin(d0))
        ra_s = math.radians(ra0) + math.atan2(l, n * math.cos(d0) - m * math.sin(d0))
        sep = math.degrees(math.acos(min(1.0, math.sin(dec_s) * math.sin(math.radians(dec_pk)) +
                                          math.cos(dec_s) * math.cos(math.radians(dec_pk)) *
                                          math.cos(ra_s - math.radians(ra_pk))))) * 3600.0
        print("casa=%d: peak %.4f Jy at pixel (%d, %d), %.2f arcsec from the source" % (casa, peak, x, y, sep))
        results[casa] = (peak, sep)
    ok = True
    for casa, (peak, sep) in results.items():
        if sep > 1.5 * scale_asec:
            print("FAIL: casa=%d peak is %.1f arcsec from the source" % (casa, sep))
            ok = False
        if abs(peak - 1.0) > 0.02:
            print("FAIL: casa=%d peak %.4f Jy, expected 1 Jy within 2 %%" % (casa, peak))
            ok = False
    print("wsclean reads fringe's MS" if ok else "wsclean check failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
