"""fringe.predict and fringe.station_uvw (docs/python.md, "Simulation"): a point source equals
the closed form of docs/conventions.md ("Phase sign and the measurement equation"),
V_pq = S exp(+2 pi i (U l + V m + W (n - 1)) / lambda) with (U, V, W) = uvw_p - uvw_q; station
Jones matrices multiply as J_p B J_q^H; the predict of one time step equals the simulator's
block; bad arguments raise fringe.Error; the GPU agrees with the CPU (skipped without one)."""
import os

import numpy as np
import pytest

import fringe

C = 299792458.0  # m/s
UVW = np.array([[0.0, 0.0, 0.0], [1234.5, -2345.6, 12.3], [-3456.7, 987.6, -45.6]])  # m
FREQS = np.array([1.0e8, 1.4e9])  # Hz


def lmn(ra, dec, ra0, dec0):
    """Direction cosines of (ra, dec) about (ra0, dec0), radians (orthographic projection)."""
    l = np.cos(dec) * np.sin(ra - ra0)
    m = np.sin(dec) * np.cos(dec0) - np.cos(dec) * np.sin(dec0) * np.cos(ra - ra0)
    return l, m, np.sqrt(1 - l * l - m * m)


def test_point_source_equals_closed_form():
    flux, ra, dec, ra0, dec0 = 2.5, 30.3, -39.8, 30.0, -40.0  # Jy, deg
    sky = fringe.Sky.from_array(np.array([[ra, dec, flux]]))
    cross, autos = fringe.predict(sky, None, UVW, FREQS, phase_centre_ra_deg=ra0,
                                  phase_centre_dec_deg=dec0, autocorrelations=True)
    assert cross.shape == (2, 3, 4) and cross.dtype == np.complex128
    assert autos.shape == (2, 3, 4)
    l, m, n = lmn(*np.radians([ra, dec, ra0, dec0]))
    pairs = [(0, 1), (0, 2), (1, 2)]
    for c, f in enumerate(FREQS):
        for b, (p, q) in enumerate(pairs):
            u, v, w = UVW[p] - UVW[q]
            expected = flux * np.exp(2j * np.pi * (u * l + v * m + w * (n - 1)) * f / C)
            assert abs(cross[c, b, 0] - expected) < 1e-9
            assert abs(cross[c, b, 3] - expected) < 1e-9
            assert cross[c, b, 1] == 0 and cross[c, b, 2] == 0
    assert np.allclose(autos[:, :, 0], flux, atol=1e-12)


def test_station_jones_multiply_each_side():
    # Source at the phase centre (K = 1): V_pq = J_p B J_q^H with B = [[I + Q, U + iV],
    # [U - iV, I - Q]] (docs/conventions.md, "Phase sign and the measurement equation") = 2 x identity.
    sky = fringe.Sky.from_array(np.array([[10.0, 20.0, 2.0]]))
    rng = np.random.default_rng(1)
    jones = rng.normal(size=(3, 1, 2, 2)) + 1j * rng.normal(size=(3, 1, 2, 2))
    vis = fringe.predict(sky, jones, UVW, FREQS[:1], phase_centre_ra_deg=10.0,
                         phase_centre_dec_deg=20.0)
    brightness = 2.0 * np.eye(2)  # Stokes I = 2 Jy
    for b, (p, q) in enumerate([(0, 1), (0, 2), (1, 2)]):
        expected = jones[p, 0] @ brightness @ jones[q, 0].conj().T
        assert np.allclose(vis[0, b].reshape(2, 2), expected, atol=1e-12)


def test_predict_of_one_time_equals_the_simulators_block(source_dir):
    tel = fringe.Telescope(str(source_dir / "telescope-models" / "vla-a.tm"))
    obs = fringe.Observation(phase_centre_ra_deg=200, phase_centre_dec_deg=30,
                             start_frequency_hz=1.4e9, num_channels=2, frequency_inc_hz=4e6,
                             start_time_utc="2024-03-15 08:24:00", length_sec=96,
                             num_time_steps=1)
    # Scalar mode: the simulator's Full mode rotates each station's feeds by its own
    # parallactic angle (R_p B R_q^H), which the bare predict does not.
    sky = fringe.Sky.from_array(np.array([[200.05, 30.02, 2.0, 0, 0, 0],
                                          [199.9, 29.95, 1.0, 0, 0, 0]]))
    sim = fringe.Interferometer()
    sim.set_sky_model(sky)
    sim.set_telescope_model(tel)
    sim.set_observation(obs)
    sim.station_type = "Isotropic beam"
    sim.polarisation_mode = "Scalar"
    (block,) = list(sim)
    uvw = fringe.station_uvw(tel, obs, 0, true_positions=True)
    vis = fringe.predict(sky, None, uvw, block.frequency, phase_centre_ra_deg=200,
                         phase_centre_dec_deg=30, polarised=False)
    assert vis.shape == block.vis[0].shape == (2, 351, 1)
    scale = np.abs(vis).max()
    assert np.abs(vis.astype(np.complex64) - block.vis[0]).max() < 1e-6 * scale
    # The written UVW are the measured stations' differences (VLA: no position errors).
    measured = fringe.station_uvw(tel, obs, 0)
    p, q = np.triu_indices(tel.num_stations, 1)
    assert np.array_equal(measured[p] - measured[q], block.uvw[0])


def test_bad_arguments_raise_fringe_error():
    sky = fringe.Sky.from_array(np.array([[0.0, 0.0, 1.0]]))
    with pytest.raises(fringe.Error, match="num_stations, 3"):
        fringe.predict(sky, None, np.zeros((3, 2)), FREQS)
    with pytest.raises(fringe.Error, match="frequency"):
        fringe.predict(sky, None, UVW, np.array([-1.0]))
    with pytest.raises(fringe.Error, match="station_jones"):
        fringe.predict(sky, np.ones((2, 1, 2, 2)), UVW, FREQS)
    with pytest.raises(fringe.Error, match="empty"):
        fringe.predict(fringe.Sky(), None, UVW, FREQS)
    with pytest.raises(fringe.Error):
        fringe.predict(sky, None, UVW, FREQS, device="tpu")


def test_gpu_predict_equals_cpu():
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    rng = np.random.default_rng(3)
    sky = fringe.Sky.from_array(np.column_stack([rng.uniform(29, 31, 50), rng.uniform(-41, -39, 50),
                                                 rng.uniform(0.1, 5, 50)]))
    kw = dict(phase_centre_ra_deg=30.0, phase_centre_dec_deg=-40.0, autocorrelations=True)
    cpu = fringe.predict(sky, None, UVW, FREQS, **kw)
    gpu = fringe.predict(sky, None, UVW, FREQS, device="gpu", **kw)
    for a, b in zip(cpu, gpu):
        assert np.abs(a - b).max() <= 1e-12 * np.abs(a).max() * 50
