"""fringe.station_beams and fringe.BeamPattern (docs/python.md, "Beams, imaging and
calibration").

Truth from outside fringe: closed forms (an isotropic station is the identity; two isotropic
elements d apart on the East axis, beam at the zenith, give the two-element array factor
cos(pi d e / lambda), e the East component of the direction: Thompson, Moran & Swenson,
"Interferometry and Synthesis", ch. 3) and OSKAR 2.13's beam patterns of the tutorial
telescope (tests/data/oskar-reference/beam_pattern/tutorial, pixel directions from the FITS
header through astropy's WCS).
"""
import os
import tarfile

import numpy as np
import pytest

import fringe

C = 299792458.0
SRC = os.environ.get("FRINGE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BP = os.path.join(SRC, "tests", "data", "oskar-reference", "beam_pattern")


def load_telescope(path):
    return fringe.Telescope(path)


def load_settings(path):
    return fringe.SettingsTree("sim_beam_pattern", path)


def two_element_tm(tmp_path, d_m):
    tm = tmp_path / "two.tm"
    (tm / "station").mkdir(parents=True)
    (tm / "position.txt").write_text("20.0 -30.0 0.0\n")
    (tm / "layout.txt").write_text("0 0 0\n")
    (tm / "station" / "layout.txt").write_text(f"{-d_m / 2} 0 0\n{d_m / 2} 0 0\n")
    return str(tm)


def test_isotropic_station_is_the_identity(tmp_path):
    tel = load_telescope(two_element_tm(tmp_path, 1.0))
    ra = np.array([20.0, 25.0, 40.0])
    dec = np.array([-30.0, -20.0, -60.0])
    e = fringe.station_beams(tel, ra_deg=ra, dec_deg=dec, time_mjd_utc=51544.7, freq_hz=1e8,
                             phase_centre_ra_deg=20, phase_centre_dec_deg=-30,
                             station_type="Isotropic beam")
    assert e.shape == (1, 3, 2, 2) and e.dtype == np.complex128
    assert np.array_equal(e, np.broadcast_to(np.eye(2), e.shape))
    s = fringe.station_beams(tel, l=np.array([0.0, 0.1]), m=np.array([0.2, -0.3]),
                             time_mjd_utc=51544.7, freq_hz=1e8, phase_centre_ra_deg=20,
                             phase_centre_dec_deg=-30, station_type="Isotropic beam",
                             pol_mode="Scalar")
    assert s.shape == (1, 2) and np.array_equal(s, np.ones((1, 2)))


def test_two_element_array_factor(tmp_path):
    freq = 150e6
    lam = C / freq
    d = 1.7 * lam
    tel = load_telescope(two_element_tm(tmp_path, d))
    az, el = np.meshgrid(np.radians([0, 30, 90, 200, 271]), np.radians([10, 45, 80, 90]))
    az, el = az.ravel(), el.ravel()
    b = fringe.station_beams(tel, az_deg=np.degrees(az), el_deg=np.degrees(el),
                             time_mjd_utc=51544.7, freq_hz=freq, drift_scan=True,
                             pol_mode="Scalar", element_type="Isotropic")
    want = np.cos(np.pi * d * np.cos(el) * np.sin(az) / lam)
    assert np.max(np.abs(b[0] - want)) < 1e-9


def oskar_cube(tmp_path, case, name):
    from astropy.io import fits
    with tarfile.open(os.path.join(BP, case, "oskar_outputs.tar.gz")) as t:
        t.extractall(tmp_path / "oskar")
    with fits.open(tmp_path / "oskar" / name) as f:
        return f[0].data.astype(float), f[0].header.copy()


def test_station_beams_match_oskar_beam_pattern(tmp_path):
    # OSKAR's beam-pattern pixels (oskar_evaluate_image_lmn_grid, as docs/beam_pattern.md
    # describes them; not the FITS WCS, whose spacing differs by N/(N-1)): with s = sin(fov/2),
    # l_x = s - 2 s x / (N - 1) (East on the left), m_y = -s + 2 s y / (N - 1).
    amp, hdr = oskar_cube(tmp_path, "tutorial", "bp_S0000_TIME_SEP_CHAN_SEP_AMP_X_THETA.fits")
    tel = load_telescope(os.path.join(BP, "telescopes", "tutorial.tm"))
    n = hdr["NAXIS1"]
    s = np.sin(np.radians(180.0) / 2)
    y, x = np.mgrid[0:n, 0:n]
    l = (s - 2 * s * x / (n - 1)).ravel()
    m = (-s + 2 * s * y / (n - 1)).ravel()
    ok = l * l + m * m <= 1
    # Time step 0 of 2 over 12 h from 2000-01-01 12:00 UTC: its centre is 15:00 UTC.
    e = fringe.station_beams(tel, l=l[ok], m=m[ok], time_mjd_utc=51544.625, freq_hz=100e6,
                             phase_centre_ra_deg=20, phase_centre_dec_deg=-30, stations=[0])
    assert e.shape == (1, ok.sum(), 2, 2)
    # FITS data [time, channel, y, x]; plane 0 is time 0, channel 0 (OSKAR: single precision).
    for k, (row, col) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
        part = ["X_THETA", "X_PHI", "Y_THETA", "Y_PHI"][k]
        name = "bp_S0000_TIME_SEP_CHAN_SEP_AMP_" + part + ".fits"
        want = oskar_cube(tmp_path, "tutorial", name)[0].reshape(-1, n * n)[0][ok]
        got = np.abs(e[0, :, row, col])
        assert np.max(np.abs(got - want)) < 1e-4 * np.max(want), name


def test_beam_pattern_from_settings_matches_oskar(tmp_path):
    settings = load_settings(os.path.join(BP, "tutorial", "oskar_sim_beam_pattern.ini"))
    bp = fringe.BeamPattern(settings=settings)
    bp.root_path = str(tmp_path / "bp")  # the settings' root_path would write beside them
    out = bp.run()
    # The INI file's path does the same as its SettingsTree.
    by_path = fringe.BeamPattern(os.path.join(BP, "tutorial", "oskar_sim_beam_pattern.ini"))
    by_path.root_path = ""
    assert all(np.array_equal(a, by_path.run()[k], equal_nan=True) for k, a in out.items())
    assert sorted(out) == ["S0000_TIME_SEP_CHAN_SEP_AMP_" + c
                           for c in ("X_PHI", "X_THETA", "Y_PHI", "Y_THETA")]
    for name, got in out.items():
        want, _ = oskar_cube(tmp_path, "tutorial", "bp_" + name + ".fits")
        assert got.shape == want.shape
        assert np.nanmax(np.abs(got - want)) < 1e-4 * np.nanmax(want)
    # Typed edits on top of the settings: isotropic stations, auto power (I of an unpolarised
    # unit source through an identity beam is 1), files kept under root_path.
    bp.station_type = "Isotropic beam"
    bp.fits_products = ["auto_power"]
    bp.image_size = 8
    bp.root_path = str(tmp_path / "iso")
    out = bp.run()
    i = out["S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I"]
    assert i.shape == (2, 3, 8, 8)  # time, channel, y, x
    assert np.array_equal(i, np.ones_like(i))
    assert os.path.exists(str(tmp_path / "iso_S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits"))


def test_typed_objects(tmp_path):
    # The same telescope and observation as typed objects: station_beams at an observation's
    # time step and channel equals the call with those values spelled out; a BeamPattern of
    # isotropic stations gives auto power I = 1 (an unpolarised unit source through the
    # identity) at every pixel, one [y, x] plane per time and channel.
    tel = load_telescope(two_element_tm(tmp_path, 2.0))
    obs = fringe.Observation(phase_centre_ra_deg=20, phase_centre_dec_deg=-30,
                             start_frequency_hz=100e6, num_channels=2, frequency_inc_hz=50e6,
                             start_time_utc="2000-01-01 18:00:00", length_sec=3600,
                             num_time_steps=2)
    ra, dec = np.array([20.0, 22.0]), np.array([-30.0, -35.0])
    a = fringe.station_beams(tel, ra_deg=ra, dec_deg=dec, observation=obs, time_index=1,
                             channel_index=1, element_type="Isotropic")
    b = fringe.station_beams(tel, ra_deg=ra, dec_deg=dec, time_mjd_utc=obs.time_centres_mjd_utc[1],
                             freq_hz=obs.frequencies_hz[1], phase_centre_ra_deg=20,
                             phase_centre_dec_deg=-30, element_type="Isotropic")
    assert np.array_equal(a, b) and abs(a[0, 0, 0, 0] - 1) < 1e-12  # normalised at the centre
    bp = fringe.BeamPattern(telescope=tel, observation=obs)
    bp.station_type = "Isotropic beam"
    bp.image_size = 4
    bp.fov_deg = 10.0
    out = bp.run()
    stokes = "S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_"
    assert sorted(out) == [stokes + c for c in "IQUV"]
    i = out[stokes + "I"]
    assert i.shape == (2, 2, 4, 4) and np.array_equal(i, np.ones_like(i))
    for c in "QUV":  # an unpolarised source stays unpolarised
        assert np.array_equal(out[stokes + c], np.zeros_like(i))


def test_gpu_beam_pattern_equals_cpu():
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    settings = load_settings(os.path.join(BP, "tutorial", "oskar_sim_beam_pattern.ini"))
    bp = fringe.BeamPattern(settings=settings)
    bp.root_path = ""  # temporary files only
    bp.use_gpus = False
    cpu = bp.run()
    bp.use_gpus = True
    gpu = bp.run()
    for name in cpu:
        # Single precision (the settings'): agreement to float rounding of the peak.
        assert np.nanmax(np.abs(cpu[name] - gpu[name])) < 1e-5 * np.nanmax(cpu[name])


def test_gpu_station_beams_equal_cpu():
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    tel = load_telescope(os.path.join(BP, "telescopes", "tutorial.tm"))
    ra, dec = np.meshgrid(np.arange(0, 360, 9.0), np.arange(-85, 85, 8.5))
    kw = dict(ra_deg=ra.ravel(), dec_deg=dec.ravel(), time_mjd_utc=51544.625, freq_hz=100e6,
              phase_centre_ra_deg=20, phase_centre_dec_deg=-30, stations=[0, 3])
    for mode in ("Full", "Scalar"):
        cpu = fringe.station_beams(tel, pol_mode=mode, use_gpus=False, **kw)
        gpu = fringe.station_beams(tel, pol_mode=mode, use_gpus=True, **kw)
        # Both in double precision (docs/gpu_station_beam.md: ~2e-15 of the beam scale).
        assert np.max(np.abs(cpu - gpu)) < 1e-12 * np.max(np.abs(cpu))


def test_errors_raise_fringe_error(tmp_path):
    tel = load_telescope(two_element_tm(tmp_path, 1.0))
    kw = dict(time_mjd_utc=51544.7, freq_hz=1e8, phase_centre_ra_deg=20, phase_centre_dec_deg=-30)
    with pytest.raises(fringe.Error):  # lengths differ
        fringe.station_beams(tel, ra_deg=np.zeros(2), dec_deg=np.zeros(3), **kw)
    with pytest.raises(fringe.Error):  # no such station
        fringe.station_beams(tel, ra_deg=np.zeros(1), dec_deg=np.zeros(1), stations=[5], **kw)
    with pytest.raises(fringe.Error):
        fringe.station_beams(tel, ra_deg=np.zeros(1), dec_deg=np.zeros(1), station_type="Dish",
                             **kw)
    with pytest.raises(fringe.Error):  # two kinds of direction
        fringe.station_beams(tel, ra_deg=np.zeros(1), dec_deg=np.zeros(1), l=np.zeros(1),
                             m=np.zeros(1), **kw)
    bp = fringe.BeamPattern()
    with pytest.raises(fringe.Error):
        bp.fits_products = ["power"]
    with pytest.raises(fringe.Error):
        bp.run()  # no telescope
