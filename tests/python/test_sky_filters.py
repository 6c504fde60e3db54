"""fringe.Sky filters and generators against numpy computations (docs/python.md, "Sky")."""
import numpy as np

import fringe


def test_filter_by_flux(sky_array):
    sky = fringe.Sky.from_array(sky_array)
    lo, hi = 2.0, 7.0
    sky.filter_by_flux(lo, hi)
    # OSKAR's rule: keep lo < I <= hi.
    keep = (sky_array[:, 2] > lo) & (sky_array[:, 2] <= hi)
    assert 0 < keep.sum() < len(keep)
    np.testing.assert_array_equal(sky.I, sky_array[keep, 2])


def test_filter_by_radius(sky_array):
    ra0, dec0, inner, outer = 100.0, -20.0, 10.0, 80.0
    sky = fringe.Sky.from_array(sky_array)
    sky.filter_by_radius(inner, outer, ra0, dec0)
    # Great-circle distance by the spherical law of cosines (far from 0 and 180 deg here).
    ra, dec = np.radians(sky_array[:, 0]), np.radians(sky_array[:, 1])
    cos_r = (np.sin(dec) * np.sin(np.radians(dec0)) +
             np.cos(dec) * np.cos(np.radians(dec0)) * np.cos(ra - np.radians(ra0)))
    r = np.degrees(np.arccos(np.clip(cos_r, -1, 1)))
    keep = (r >= inner) & (r < outer)
    assert 0 < keep.sum() < len(keep)
    np.testing.assert_array_equal(sky.to_array()[:, 2], sky_array[keep, 2])


def test_generate_grid_centre_and_count():
    sky = fringe.Sky.generate_grid(60.0, -30.0, side_length=3, fov_deg=2.0, mean_flux_jy=1.5)
    assert sky.num_sources == 9
    np.testing.assert_array_equal(sky.I, 1.5)
    # The middle source of an odd grid is the centre (l = m = 0).
    np.testing.assert_allclose(sky.ra_deg[4], 60.0, atol=1e-12)
    np.testing.assert_allclose(sky.dec_deg[4], -30.0, atol=1e-12)


def test_random_power_law_flux_range():
    sky = fringe.Sky.generate_random_power_law(500, 0.1, 10.0, power_law_index=-2.0, seed=3)
    assert sky.num_sources == 500
    assert sky.I.min() >= 0.1 and sky.I.max() <= 10.0
    # dN/dS ~ S^-2 on [0.1, 10]: the median is 2 / (1/0.1 + 1/10) = 0.198 Jy (inverse CDF at
    # 1/2); 500 samples put it within 15 %.
    assert abs(np.median(sky.I) / 0.198 - 1) < 0.15
