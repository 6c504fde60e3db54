"""fringe.Imager (docs/python.md, "Beams, imaging and calibration").

Truth from outside fringe: numpy's direct Fourier sum, OSKAR's simulated Measurement Set of
tests/data/oskar-reference/vla_gauss_beam_smear (read with python-casacore) and its sky model,
astropy for the FITS files. Image convention (fringe/imager/dft.h, geometry.h): pixel (x, y)
has l = -(x - n/2) cell, m = (y - n/2) cell, and
image(l, m) = Re sum_k w_k V_k exp(-2 pi i (u l + v m + w (n - 1))) / sum_k w_k.
"""
import os
import shutil
import tarfile

import numpy as np
import pytest

import fringe

C = 299792458.0
SRC = os.environ.get("FRINGE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CASE = os.path.join(SRC, "tests", "data", "oskar-reference", "vla_gauss_beam_smear")


def random_uvw(rows, max_m, seed):
    rng = np.random.default_rng(seed)
    uvw = rng.uniform(-max_m, max_m, (rows, 3))
    uvw[:, 2] *= 0.1
    return uvw


def point_source_vis(uvw, freq_hz, l0, m0):
    # The visibility whose image (convention above) peaks at (l0, m0) with value 1.
    n0 = np.sqrt(1 - l0 * l0 - m0 * m0)
    k = freq_hz / C
    return np.exp(2j * np.pi * k * (uvw[:, 0] * l0 + uvw[:, 1] * m0 + uvw[:, 2] * (n0 - 1)))


def imager(size, cell_arcsec, algorithm="IDG"):
    im = fringe.Imager()
    im.image_size = size
    im.cellsize_arcsec = cell_arcsec
    im.algorithm = algorithm
    im.use_gpus = False
    return im


@pytest.mark.parametrize("algorithm", ["DFT 3D", "IDG"])  # both with the w term
def test_point_sources_at_centre_and_offset(algorithm):
    n, cell = 64, 0.002  # cell in radians
    uvw = random_uvw(400, 150.0, 1)
    freq = np.array([100e6])
    im = imager(n, np.degrees(cell) * 3600, algorithm)
    tol = 1e-9 if algorithm.startswith("DFT") else 2e-3
    out = im.run(uvw, np.ones(len(uvw), complex), freq)
    img = out["images"][0, 0]
    assert img.shape == (n, n)
    assert np.unravel_index(np.argmax(img), img.shape) == (n // 2, n // 2)
    assert abs(img[n // 2, n // 2] - 1.0) < tol
    # Offset: 5 pixels East (l > 0: smaller x), 3 North (larger y).
    l0, m0 = 5 * cell, 3 * cell
    img = im.run(uvw, point_source_vis(uvw, freq[0], l0, m0), freq)["images"][0, 0]
    assert np.unravel_index(np.argmax(img), img.shape) == (n // 2 + 3, n // 2 - 5)
    assert abs(img.max() - 1.0) < tol


# Tolerances: FFT, the spheroidal kernel's aliasing error in the inner half of the image
# (docs/imager_fft.md: ~3e-4 of the peak); W-projection, also the quantisation of w to OSKAR's
# automatic planes (measured 1.2e-2 here; docs/imager_wproj.md).
@pytest.mark.parametrize("algorithm,reference,tol",
                         [("FFT", "DFT 2D", 5e-3), ("W-projection", "DFT 3D", 2.5e-2)])
def test_convolutional_gridders_match_the_dft(algorithm, reference, tol):
    # OSKAR's gridders (issue 22) against the exact transform of the same geometry (FFT has no
    # w term, W-projection has), two sources off centre.
    n, cell = 64, 0.002
    uvw = random_uvw(400, 150.0, 4)
    freq = np.array([100e6, 101e6])
    vis = np.stack([point_source_vis(uvw, f, 5 * cell, 3 * cell)
                    + 0.5 * point_source_vis(uvw, f, -7 * cell, 2 * cell) for f in freq], axis=1)
    got = imager(n, np.degrees(cell) * 3600, algorithm).run(uvw, vis, freq)["images"][0, 0]
    want = imager(n, np.degrees(cell) * 3600, reference).run(uvw, vis, freq)["images"][0, 0]
    inner = slice(n // 4, 3 * n // 4)
    diff = np.max(np.abs(got[inner, inner] - want[inner, inner])) / np.max(np.abs(want))
    assert diff < tol, diff
    assert np.unravel_index(np.argmax(got), got.shape) == (n // 2 + 3, n // 2 - 5)


def test_dft_equals_numpy_direct_sum():
    rng = np.random.default_rng(2)
    n, cell = 8, 0.01
    uvw = random_uvw(30, 80.0, 3)
    freq = np.array([90e6, 110e6])
    vis = rng.normal(size=(30, 2)) + 1j * rng.normal(size=(30, 2))
    weight = rng.uniform(0.2, 2.0, (30, 2)).astype(np.float32).astype(float)  # kept as float32
    im = imager(n, np.degrees(cell) * 3600, "DFT 3D")
    got = im.run(uvw, vis, freq, weight=weight)["images"][0, 0]
    x = np.arange(n)
    l = -(x - n // 2) * cell
    m = (x - n // 2) * cell
    L, M = np.meshgrid(l, m)  # [y, x]
    NM1 = np.sqrt(1 - L**2 - M**2) - 1
    want = np.zeros((n, n))
    for c in range(2):
        k = freq[c] / C
        for r in range(30):
            u, v, w = uvw[r] * k
            phase = np.exp(-2j * np.pi * (u * L + v * M + w * NM1))
            want += (weight[r, c] * vis[r, c] * phase).real
    want /= weight.sum()
    assert np.max(np.abs(got - want)) < 1e-12


def test_psf_and_uniform_weighting_peak_at_one():
    uvw = random_uvw(300, 100.0, 4)
    uvw = np.concatenate([uvw, uvw[:50]])  # repeated uv points: uniform weights differ
    freq = np.array([120e6])
    im = imager(32, np.degrees(0.004) * 3600, "DFT 2D")
    im.image_type = "PSF"
    psf = im.run(uvw, np.zeros(len(uvw), complex), freq)["images"][0, 0]
    assert abs(psf[16, 16] - 1.0) < 1e-12 and psf.max() <= 1.0 + 1e-12
    im.image_type = "I"
    im.weighting = "Uniform"
    img = im.run(uvw, np.ones(len(uvw), complex), freq)["images"][0, 0]
    assert abs(img[16, 16] - 1.0) < 1e-12
    im.weighting = "Robust"
    im.robust = 0.5
    assert abs(im.run(uvw, np.ones(len(uvw), complex), freq)["images"][0, 0][16, 16] - 1) < 1e-12


def test_array_path_writes_fits(tmp_path):
    # The offset source of the test above, written as FITS: astropy reads the same pixels and
    # its SIN WCS puts the source (5 pixels East, 3 North of the phase centre) at the peak.
    from astropy.io import fits
    from astropy.wcs import WCS
    n, cell = 64, 0.002
    uvw = random_uvw(400, 150.0, 1)
    freq = np.array([100e6])
    l0, m0 = 5 * cell, 3 * cell
    im = imager(n, np.degrees(cell) * 3600, "DFT 3D")
    im.output_root = str(tmp_path / "arr")
    out = im.run(uvw, point_source_vis(uvw, freq[0], l0, m0), freq, phase_centre_ra_deg=30.0,
                 phase_centre_dec_deg=-40.0)
    assert out["files"] == [str(tmp_path / "arr_I.fits")]
    with fits.open(out["files"][0]) as f:
        data, hdr = f[0].data.squeeze(), f[0].header
    assert np.array_equal(data, out["images"][0, 0])
    # The source's RA/Dec from (l0, m0) about (30, -40) deg (SIN projection), then to pixels.
    ra0, dec0 = np.radians(30.0), np.radians(-40.0)
    n0 = np.sqrt(1 - l0 * l0 - m0 * m0)
    dec = np.arcsin(m0 * np.cos(dec0) + n0 * np.sin(dec0))
    ra = ra0 + np.arctan2(l0, n0 * np.cos(dec0) - m0 * np.sin(dec0))
    x, y = WCS(hdr).celestial.all_world2pix(np.degrees(ra), np.degrees(dec), 0)
    assert (round(float(y)), round(float(x))) == np.unravel_index(np.argmax(data), data.shape)
    with pytest.raises(fringe.Error):  # an existing file that is not an image is not replaced
        (tmp_path / "notes_I.fits").write_text("my notes")
        im.output_root = str(tmp_path / "notes")
        im.run(uvw, np.ones(len(uvw), complex), freq)
    assert (tmp_path / "notes_I.fits").read_text() == "my notes"


def test_make_image_like_oskar():
    uvw = random_uvw(200, 50.0, 5)  # wavelengths
    img = fringe.Imager.make_image(uvw[:, 0], uvw[:, 1], uvw[:, 2], np.ones(200, complex),
                                   fov_deg=10.0, size=32, algorithm="DFT 2D")
    assert img.shape == (32, 32)
    assert abs(img[16, 16] - 1.0) < 1e-12


@pytest.fixture
def oskar_ms(tmp_path):
    with tarfile.open(os.path.join(CASE, "vla_gauss_beam_smear.ms.tar.gz")) as t:
        t.extractall(tmp_path)
    return str(tmp_path / "vla_gauss_beam_smear.ms")


def read_ms(path):
    import casacore.tables as tables
    with tables.table(path, ack=False) as ms:
        cols = {c: ms.getcol(c) for c in ("UVW", "DATA", "ANTENNA1", "ANTENNA2", "TIME", "WEIGHT")}
    with tables.table(path + "/SPECTRAL_WINDOW", ack=False) as sw:
        cols["FREQ"] = sw.getcol("CHAN_FREQ")[0]
    return cols


def test_array_path_equals_measurement_set_path(oskar_ms, tmp_path):
    d = read_ms(oskar_ms)
    im = imager(128, 0.5)
    # The MS's WEIGHT per correlation; Stokes I uses XX and YY: their mean, per channel.
    w = np.repeat(d["WEIGHT"][:, [0, 3]].mean(axis=1)[:, None], len(d["FREQ"]), axis=1)
    arrays = im.run(d["UVW"], d["DATA"].astype(complex), d["FREQ"], weight=w,
                    antenna1=d["ANTENNA1"], antenna2=d["ANTENNA2"], time=d["TIME"])
    im.input_file = oskar_ms
    from_ms = im.run()
    a, b = arrays["images"], from_ms["images"]
    assert a.shape == b.shape == (1, 1, 128, 128)
    assert np.max(np.abs(a - b)) < 1e-9 * np.max(np.abs(a))
    # Written as FITS when asked: the file holds the same image (astropy reads it).
    from astropy.io import fits
    im.output_root = str(tmp_path / "img")
    written = im.run()
    assert written["files"] == [str(tmp_path / "img_I.fits")]
    with fits.open(written["files"][0]) as f:
        assert np.max(np.abs(f[0].data.squeeze() - b[0, 0])) < 1e-9 * np.max(np.abs(b))


def test_oskar_source_lands_at_image_centre(oskar_ms):
    # Re-phased to a source of OSKAR's sky model (the brightest one after the 0.5 deg Gaussian
    # beam: 0.19 deg from the phase centre), the dirty image peaks at the centre pixel.
    im = imager(64, 0.25)
    im.input_file = oskar_ms
    im.direction = (200.05118369, 29.81414583)
    img = im.run()["images"][0, 0]
    assert np.unravel_index(np.argmax(img), img.shape) == (32, 32)
    assert img[32, 32] > 1.0  # Jy/beam: 5.7 Jy times the beam; other sources are > 0.1 deg away


def test_errors_raise_fringe_error():
    uvw = random_uvw(10, 10.0, 6)
    freq = np.array([1e8])
    im = imager(16, 60.0)
    with pytest.raises(fringe.Error):
        im.run(uvw, np.ones(10, complex), np.array([1e8, 2e8]))  # 2 frequencies, 1 channel
    with pytest.raises(fringe.Error):
        im.run(uvw[:, :2], np.ones(10, complex), freq)  # uvw needs 3 columns
    with pytest.raises(fringe.Error):
        im.algorithm = "Gridding"  # not one of OSKAR's names
    im.image_size = 15
    with pytest.raises(fringe.Error):
        im.run(uvw, np.ones(10, complex), freq)
    im.image_size = 16
    with pytest.raises(fringe.Error):
        im.run()  # neither arrays nor input_file
    im.input_file = "/nonexistent/x.ms"
    with pytest.raises(fringe.Error):
        im.run()
