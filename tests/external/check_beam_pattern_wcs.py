"""External test: astropy reads the FITS beam images that fringe's sim_beam_pattern writes.

Runs sim_beam_pattern on a small Gaussian-beam case (Equatorial and Horizon frames) and checks,
with astropy.wcs (wcslib) and astropy.coordinates only:
  * Equatorial (an odd image size, so that the centre pixel is the phase centre): the world
    coordinate of the brightest pixel is the phase centre; pixels at known offsets map to
    the RA/Dec of the SIN projection with the pixel size OSKAR's rule gives
    (asin(2 sin(fov/2)/N)); the value there is the Gaussian exp(-(l^2 + m^2) / (2 sigma^2))
    (docs/conventions.md, "Station beams") at the pixel's own direction cosines, which
    OSKAR spreads evenly over [-sin(fov/2), sin(fov/2)] (N/(N-1) times the WCS spacing;
    docs/beam_pattern.md); the frequency axis gives the channel frequencies and the time
    axis starts at the observation start with the dump length as step (OSKAR's header).
  * Horizon: the reference pixel is the zenith (elevation 90 deg); a pixel to the right of
    it points West (azimuth 270 deg), one above it North (azimuth 0), at the elevation
    acos(k cell).

usage: check_beam_pattern_wcs.py --app PATH/sim_beam_pattern --telescope DIR.tm --workdir DIR
Exit 0: pass, 1: fail, 77: astropy missing (skipped).
"""
import argparse
import math
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    from astropy.coordinates import SkyCoord
    from astropy.io import fits
    from astropy import units as u
    from astropy.wcs import WCS
except ImportError as e:  # pragma: no cover
    print("SKIP: astropy/numpy not available:", e)
    sys.exit(77)

FAILURES = []
RA0, DEC0 = 60.0, -30.0
FOV, N = 12.0, 65
FWHM = 4.0
F0, DF, NCHAN = 100e6, 20e6, 2
NTIME, LENGTH = 2, 1200.0
START = "2025-01-01 13:17:30"
START_MJD = 60676.0 + (13 * 3600 + 17 * 60 + 30) / 86400.0


def check(cond, message):
    if not cond:
        FAILURES.append(message)
        print("FAIL:", message)
    else:
        print("ok:", message)


def write_ini(path, root, telescope, frame):
    with open(path, "w") as f:
        f.write(f"""[General]
app=sim_beam_pattern
version=0.1.0

[simulator]
use_gpus=false

[observation]
phase_centre_ra_deg={RA0}
phase_centre_dec_deg={DEC0}
start_frequency_hz={F0}
num_channels={NCHAN}
frequency_inc_hz={DF}
start_time_utc={START}
length={LENGTH}
num_time_steps={NTIME}

[telescope]
input_directory={telescope}
station_type=Gaussian beam
gaussian_beam/fwhm_deg={FWHM}
pol_mode=Scalar

[beam_pattern]
coordinate_frame={frame}
beam_image/size={N}
beam_image/fov_deg={FOV}
root_path={root}
station_outputs/fits_image/amp=true
""")


def run(app, ini):
    r = subprocess.run([app, "-q", ini], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(f"sim_beam_pattern failed with exit code {r.returncode}")


def sin_offset_radec(dx, dy, cell_rad):
    """RA/Dec [deg] of the pixel (dx, dy) pixels from the reference pixel (SIN projection)."""
    l, m = -dx * cell_rad, dy * cell_rad
    n = math.sqrt(1 - l * l - m * m)
    d0 = math.radians(DEC0)
    dec = math.asin(n * math.sin(d0) + m * math.cos(d0))
    ra = math.radians(RA0) + math.atan2(l, n * math.cos(d0) - m * math.sin(d0))
    return math.degrees(ra) % 360.0, math.degrees(dec)


def equatorial(app, telescope, workdir):
    ini = os.path.join(workdir, "eq.ini")
    write_ini(ini, "eq", telescope, "Equatorial")
    run(app, ini)
    path = os.path.join(workdir, "eq_S0000_TIME_SEP_CHAN_SEP_AMP.fits")
    with fits.open(path) as hdul:
        header, data = hdul[0].header, hdul[0].data
    check(data.shape == (NTIME, NCHAN, N, N), f"cube shape {data.shape} (time, chan, y, x)")
    w = WCS(header)
    cel = w.celestial
    plane = data[0, 0]
    jy, ix = np.unravel_index(np.nanargmax(plane), plane.shape)
    ra, dec = cel.pixel_to_world_values(ix, jy)
    check(abs((ra - RA0 + 180) % 360 - 180) < 1e-9 and abs(dec - DEC0) < 1e-9,
          f"peak pixel ({ix}, {jy}) is at the phase centre: RA {ra:.12f}, Dec {dec:.12f}")
    check((ix + 1, jy + 1) == (header["CRPIX1"], header["CRPIX2"]) == ((N + 1) / 2, (N + 1) / 2),
          f"peak pixel is CRPIX = (N + 1)/2 = {(N + 1) / 2}")
    cell = math.asin(2 * math.sin(math.radians(FOV) / 2) / N)
    sigma = math.sin(math.radians(FWHM)) / (2 * math.sqrt(2 * math.log(2)))
    spacing = 2 * math.sin(math.radians(FOV) / 2) / (N - 1)  # the pixels' own l, m step
    worst_pos, worst_val = 0.0, 0.0
    for dx, dy in [(5, 0), (0, 7), (-9, 4), (12, -11), (-31, -31), (31, 20)]:
        ra_e, dec_e = sin_offset_radec(dx, dy, cell)
        ra_w, dec_w = cel.pixel_to_world_values(ix + dx, jy + dy)
        pos = SkyCoord(ra_w * u.deg, dec_w * u.deg)
        err = pos.separation(SkyCoord(ra_e * u.deg, dec_e * u.deg)).deg
        worst_pos = max(worst_pos, err)
        l, m = -dx * spacing, dy * spacing
        expect = math.exp(-(l * l + m * m) / (2 * sigma ** 2))
        worst_val = max(worst_val, abs(plane[jy + dy, ix + dx] - expect))
    check(worst_pos < 1e-9, f"offset pixels map to the expected RA/Dec (worst {worst_pos:.2e} deg)")
    check(worst_val < 1e-9, f"values are the Gaussian of the distance (worst {worst_val:.2e})")
    # Spectral and time axes (s since MJD 0, MJDREF = 0): OSKAR's CRVAL4 is the start.
    _, _, f1, t1 = w.pixel_to_world_values(0, 0, 1, 1)
    check(abs(f1 - (F0 + DF)) < 1e-3, f"channel 1 at {f1} Hz")
    t_expect = START_MJD * 86400.0 + LENGTH / NTIME
    check(abs(t1 - t_expect) < 1e-3, f"time 1 at {t1} s (start + one dump: {t_expect} s)")


def horizon(app, telescope, workdir):
    ini = os.path.join(workdir, "hz.ini")
    write_ini(ini, "hz", telescope, "Horizon")
    run(app, ini)
    path = os.path.join(workdir, "hz_S0000_TIME_SEP_CHAN_SEP_AMP.fits")
    with fits.open(path) as hdul:
        header, data = hdul[0].header, hdul[0].data
    cel = WCS(header).celestial
    c1, c2 = header["CRPIX1"] - 1, header["CRPIX2"] - 1
    cell = math.asin(2.0 / N)
    _, el0 = cel.pixel_to_world_values(c1, c2)
    check(abs(el0 - 90) < 1e-9, f"reference pixel is the zenith (elevation {el0})")
    k = 20
    az, el = cel.pixel_to_world_values(c1 + k, c2)
    check(abs(az % 360 - 270) < 1e-6 and abs(el - math.degrees(math.acos(k * cell))) < 1e-9,
          f"pixel right of the zenith: azimuth {az % 360:.9f} (West), elevation {el:.9f}")
    az, el = cel.pixel_to_world_values(c1, c2 + k)
    check(min(az % 360, 360 - az % 360) < 1e-6, f"pixel above the zenith: azimuth {az % 360} (North)")
    check(math.isnan(data[0, 0, 0, 0]), "corner pixel (below the horizon) is NaN")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--telescope", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    equatorial(a.app, a.telescope, a.workdir)
    horizon(a.app, a.telescope, a.workdir)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
