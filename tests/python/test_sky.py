"""fringe.Sky: arrays in and out, a text round trip, the writer's file against fringe's app
and OSKAR's tool, zero-copy views (docs/python.md, "Sky")."""
import subprocess

import numpy as np
import pytest

import fringe


def test_from_array_to_array(sky_array):
    sky = fringe.Sky.from_array(sky_array)
    assert sky.num_sources == len(sky) == sky_array.shape[0]
    # deg -> rad -> deg and arcsec -> rad -> arcsec each lose at most an ulp or two.
    np.testing.assert_allclose(sky.to_array(), sky_array, rtol=1e-14, atol=1e-12)
    np.testing.assert_array_equal(sky.I, sky_array[:, 2])  # Jy: stored as given
    np.testing.assert_allclose(sky.ra_rad, np.radians(sky_array[:, 0]), rtol=1e-15)


def test_short_rows_fill_zeros():
    sky = fringe.Sky.from_array(np.array([[10.0, 20.0, 3.0]]))
    expected = np.zeros(12)
    expected[:3] = [10.0, 20.0, 3.0]
    np.testing.assert_allclose(sky.to_array()[0], expected, rtol=1e-15)


def test_from_columns_equals_from_array(sky_array):
    a = sky_array
    sky = fringe.Sky.from_columns(a[:, 0], a[:, 1], a[:, 2], Q=a[:, 3], U=a[:, 4], V=a[:, 5],
                                  ref_freq_hz=a[:, 6], spectral_index=a[:, 7],
                                  rotation_measure=a[:, 8], major_arcsec=a[:, 9],
                                  minor_arcsec=a[:, 10], pa_deg=a[:, 11])
    np.testing.assert_array_equal(sky.to_array(), fringe.Sky.from_array(a).to_array())


def test_save_load_round_trip(sky_array, tmp_path):
    sky = fringe.Sky.from_array(sky_array)
    path = tmp_path / "sky.osm"
    sky.save(str(path))
    back = fringe.Sky.load(str(path))
    # The writer prints the shortest text that reads back to the same double.
    np.testing.assert_array_equal(back.to_array(), sky.to_array())
    # The file itself, read by numpy, holds OSKAR's 12 columns in OSKAR's units.
    np.testing.assert_array_equal(np.loadtxt(path, ndmin=2), sky.to_array())


def test_save_refuses_a_file_it_did_not_write(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(fringe.Error, match="notes.txt"):
        fringe.Sky.from_array([[0.0, 0.0, 1.0]]).save(str(path))
    assert path.read_text() == "my notes\n"  # untouched


def test_save_replaces_an_earlier_sky(tmp_path):
    path = str(tmp_path / "sky.osm")
    fringe.Sky.from_array([[0.0, 0.0, 1.0]]).save(path)
    fringe.Sky.from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).save(path)
    assert fringe.Sky.load(path).num_sources == 2


OSKAR_FITS = "tests/data/oskar-reference/fits_image_to_sky_model"


def test_fits_image_against_oskar(source_dir):
    # OSKAR's oskar_fits_image_to_sky_model -f 0.1 -s -0.7 (README in that folder).
    d = source_dir / OSKAR_FITS
    sky = fringe.Sky.from_fits_file(str(d / "jy_beam.fits"), min_peak_fraction=0.1,
                                    spectral_index=-0.7)
    # OSKAR separates the columns with commas and spaces.
    text = (d / "jy_beam_f0.1_s-0.7.osm").read_text().replace(",", " ")
    ref = np.loadtxt(text.splitlines(), ndmin=2)
    ours = sky.to_array()[:, :ref.shape[1]]
    assert ours.shape == ref.shape
    # Tolerances of that folder's compare_sky.py: positions 1e-9 deg, I 1e-6 relative.
    np.testing.assert_allclose(ours[:, :2], ref[:, :2], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours[:, 2], ref[:, 2], rtol=1e-6)
    np.testing.assert_allclose(ours[:, 3:], ref[:, 3:], rtol=1e-13, atol=1e-300)


def test_saved_file_equals_the_apps(source_dir, binary_dir, tmp_path):
    # fringe's fits_image_to_sky_model app writes through the same C++ writer: the bytes of
    # Sky.save must be the app's.
    app = binary_dir / "apps" / "fits_image_to_sky_model" / "fits_image_to_sky_model"
    assert app.exists(), f"{app} not built"
    image = source_dir / OSKAR_FITS / "jy_beam.fits"
    subprocess.run([str(app), "-f", "0.1", "-s", "-0.7", str(image), str(tmp_path / "app.osm")],
                   check=True, capture_output=True)
    sky = fringe.Sky.from_fits_file(str(image), min_peak_fraction=0.1, spectral_index=-0.7)
    sky.save(str(tmp_path / "python.osm"))
    assert (tmp_path / "python.osm").read_bytes() == (tmp_path / "app.osm").read_bytes()


def test_views_are_zero_copy_and_keep_the_sky_alive(sky_array):
    sky = fringe.Sky.from_array(sky_array)
    stokes_i = sky.I
    stokes_i *= 2.0  # writes into the sky
    np.testing.assert_array_equal(sky.to_array()[:, 2], 2.0 * sky_array[:, 2])
    del sky
    np.testing.assert_array_equal(stokes_i, 2.0 * sky_array[:, 2])  # still valid


def test_reallocation_refused_while_a_view_lives(sky_array):
    sky = fringe.Sky.from_array(sky_array)
    view = sky.ra_rad[2:]  # a slice of a view keeps the view's owner
    with pytest.raises(fringe.Error, match="view"):
        sky.append(sky.create_copy())
    del view
    sky.append(sky.create_copy())
    assert sky.num_sources == 2 * sky_array.shape[0]


def test_assign_column(sky_array):
    sky = fringe.Sky.from_array(sky_array)
    sky.Q = np.arange(sky.num_sources, dtype=float)
    np.testing.assert_array_equal(sky.to_array()[:, 3], np.arange(sky.num_sources))
    with pytest.raises(fringe.Error):
        sky.Q = np.zeros(3)


def test_append_and_copy(sky_array):
    a = fringe.Sky.from_array(sky_array[:5])
    b = fringe.Sky.from_array(sky_array[5:])
    c = a.create_copy()
    c.append(b)
    np.testing.assert_array_equal(c.to_array(), fringe.Sky.from_array(sky_array).to_array())
    assert a.num_sources == 5  # the copy is deep
    a.append_sources([1.0], [2.0], [3.0], V=[0.5])
    assert a.num_sources == 6 and a.to_array()[5, 5] == 0.5


def test_healpix_map_against_oskar(source_dir):
    # OSKAR's oskar_fits_image_to_sky_model -n 0.3 of an equatorial HEALPix map (README there).
    d = source_dir / OSKAR_FITS
    sky = fringe.Sky.load(str(d / "healpix_equatorial.fits"), min_abs_val=0.3)
    text = (d / "healpix_equatorial_n0.3.osm").read_text().replace(",", " ")
    ref = np.loadtxt(text.splitlines(), ndmin=2)
    ours = sky.to_array()[:, :ref.shape[1]]
    assert ours.shape == ref.shape
    np.testing.assert_allclose(ours[:, :2], ref[:, :2], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours[:, 2], ref[:, 2], rtol=1e-6)


def test_named_columns_keep_what_fixed_columns_drop(source_dir, tmp_path):
    # A multi-valued spectrum (three Stokes I values at 76, 84, 92 MHz) fits only named columns.
    sky = fringe.Sky.load(str(source_dir / "tests/data/sky/named_spectra.txt"))
    named = tmp_path / "named.txt"
    sky.save(str(named), named_columns=True)
    rows = [l for l in named.read_text().splitlines() if not l.startswith("#")]
    assert rows == ["0,0,[1,2,3],[7.6e+07,8.4e+07,9.2e+07]"]  # I [Jy] and their freqs [Hz]
    np.testing.assert_array_equal(fringe.Sky.load(str(named)).to_array(), sky.to_array())
    with pytest.warns(UserWarning, match="fixed-column format cannot hold"):
        sky.save(str(tmp_path / "fixed.osm"))
