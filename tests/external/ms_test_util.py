"""Shared helpers for the external Measurement Set tests (run with Debian's /usr/bin/python3).

Station layouts are made here (WGS84 geodetic -> ECEF, ENU offsets) and handed to the C++
program fringe_write_test_ms, so the positions, times and frequencies the checks use come
from this side, not from fringe.
"""
import math
import os
import shutil
import subprocess
import sys
import tarfile

SKIP = 77  # CTest SKIP_RETURN_CODE


def reference_ms(ms_path, workdir):
    """The OSKAR reference Measurement Set at ms_path, unpacked into workdir when the repository
    holds it packed as ms_path + ".tar.gz" (tests/data/oskar-reference/README.md: an MS is
    about 2.3 MB of mostly empty table files and packs to a few tens of kB)."""
    if os.path.isdir(ms_path):
        return ms_path
    archive = ms_path + ".tar.gz"
    if not os.path.isfile(archive):
        sys.exit(f"reference MS not found: neither {ms_path} nor {archive} exists")
    dest = os.path.join(workdir, "oskar_reference")
    out = os.path.join(dest, os.path.basename(os.path.normpath(ms_path)))
    if os.path.isdir(out):
        shutil.rmtree(out)  # the test's own earlier copy
    os.makedirs(dest, exist_ok=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest)
    if not os.path.isdir(out):
        sys.exit(f"{archive} does not hold {os.path.basename(out)}/")
    return out

WGS84_A = 6378137.0
WGS84_F = 1.0 / 298.257223563


def require_casacore():
    try:
        import casacore.tables  # noqa: F401
    except ImportError:
        print("SKIP: python3-casacore is not installed")
        sys.exit(SKIP)


def require_wsclean_and_astropy():
    """WSClean's path; exits with SKIP when wsclean, numpy or astropy is missing."""
    wsclean = shutil.which("wsclean")
    if not wsclean:
        print("SKIP: wsclean not installed")
        sys.exit(SKIP)
    try:
        import numpy  # noqa: F401
        import astropy.io.fits  # noqa: F401
        import astropy.wcs  # noqa: F401
    except ImportError as e:
        print("SKIP: needs numpy and astropy:", e)
        sys.exit(SKIP)
    return wsclean


def geodetic_to_ecef(lon_rad, lat_rad, alt_m):
    e2 = WGS84_F * (2.0 - WGS84_F)
    n = WGS84_A / math.sqrt(1.0 - e2 * math.sin(lat_rad) ** 2)
    return ((n + alt_m) * math.cos(lat_rad) * math.cos(lon_rad),
            (n + alt_m) * math.cos(lat_rad) * math.sin(lon_rad),
            (n * (1.0 - e2) + alt_m) * math.sin(lat_rad))


def enu_to_ecef(centre_lon, centre_lat, centre_ecef, e, n, u):
    sl, cl = math.sin(centre_lon), math.cos(centre_lon)
    sp, cp = math.sin(centre_lat), math.cos(centre_lat)
    dx = -sl * e - sp * cl * n + cp * cl * u
    dy = cl * e - sp * sl * n + cp * sl * u
    dz = cp * n + sp * u
    return (centre_ecef[0] + dx, centre_ecef[1] + dy, centre_ecef[2] + dz)


def make_layout(num_stations, radius_m, seed=1, lon_deg=-107.618, lat_deg=34.079, alt_m=2115.0):
    """Centre ECEF and station ECEF positions, stations scattered in a disc (deterministic)."""
    import random
    rng = random.Random(seed)
    lon, lat = math.radians(lon_deg), math.radians(lat_deg)
    centre = geodetic_to_ecef(lon, lat, alt_m)
    stations = []
    for _ in range(num_stations):
        r = radius_m * math.sqrt(rng.random())
        a = 2.0 * math.pi * rng.random()
        stations.append(enu_to_ecef(lon, lat, centre, r * math.cos(a), r * math.sin(a),
                                    rng.uniform(-5.0, 5.0)))
    return centre, stations


def write_ms(writer, workdir, name, stations, centre, **params):
    """Runs fringe_write_test_ms; returns the MS path. params are its key=value arguments."""
    os.makedirs(workdir, exist_ok=True)
    station_file = os.path.join(workdir, name + "_stations.txt")
    with open(station_file, "w") as f:
        for s in stations:
            f.write("%.6f %.6f %.6f\n" % s)
    out = os.path.join(workdir, name + ".ms")
    args = [writer, "out=" + out, "stations=" + station_file,
            "centre=%.6f,%.6f,%.6f" % tuple(centre)]
    args += ["%s=%s" % (k, v) for k, v in params.items()]
    subprocess.run(args, check=True)
    return out


def vla_sim_settings(sky, ms, ra0_deg, dec0_deg, num_channels, freq_inc_hz, num_times,
                     interferometer_extra=""):
    """sim_interferometer settings (INI text) of the external imaging tests: the shipped VLA-A
    model with isotropic stations on the CPU, 1.4 GHz, two hours from 15-03-2024 07:26 UTC."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    telescope = os.path.join(root, "telescope-models", "vla-a.tm")
    return f"""[General]
app=sim_interferometer

[simulator]
use_gpus=false

[sky]
oskar_sky_model/file={sky}

[observation]
phase_centre_ra_deg={ra0_deg}
phase_centre_dec_deg={dec0_deg}
start_frequency_hz=1.4e9
num_channels={num_channels}
frequency_inc_hz={freq_inc_hz}
start_time_utc=15-03-2024 07:26:00.000
length=02:00:00.000
num_time_steps={num_times}

[telescope]
input_directory={telescope}
station_type=Isotropic beam

[interferometer]
{interferometer_extra}ms_filename={ms}
"""
