"""fringe.Likelihood (docs/model_fitting.md): chi2 = sum w |V_model - D|^2 equals a numpy
computation from a Measurement Set that fringe simulated (read with python-casacore) and a
fringe.predict of a perturbed sky at the MS's (u, v, w); the true sky fits its noise-free data
to the float32 rounding of the DATA column; analytic gradients equal central finite differences
for every parameter type; batches equal single calls; single precision is close to double;
bad input raises fringe.Error naming the parameter or column; the GPU equals the CPU (skipped
without a GPU).

The MS: SKA-Mid AA0.5 (4 dishes, 6 baselines), 3 times x 3 channels at 1.4 GHz, isotropic
stations, Full polarisation, double-precision simulation, no smearing, no noise."""
import os

import numpy as np
import pytest

import fringe

try:
    from casacore import tables
except ImportError:  # e.g. a GPU host's own Python: the tests reading an MS skip, the rest run
    tables = None


def need_tables():
    if tables is None:
        pytest.skip("python-casacore is not installed")

RA0, DEC0 = 210.0, -30.0  # phase centre [deg]; above SKA-Mid's horizon at the start time
FREQS = 1.4e9 + 2e6 * np.arange(3)  # channel centres [Hz]
ARCSEC = np.pi / (180 * 3600)  # rad
# Template sky, OSKAR's 12 columns: RA, Dec [deg], I, Q, U, V [Jy], reference frequency [Hz],
# spectral index, rotation measure, FWHM major, minor [arcsec], position angle [deg]. Source 2
# is a Gaussian (its axes are resolved on the ~1.3 km baselines: lambda / B ~ 33 arcsec) at the
# phase centre: there the simulator's re-projection of the ellipse onto the phase centre's
# (l, m) plane is the identity, and the likelihood's unprojected ellipse equals it (away from
# the centre they differ to first order in the offset: docs/model_fitting.md, "Limits").
SKY = np.array([
    [RA0 + 0.008, DEC0 - 0.01, 2.0, 0.2, -0.1, 0.05, 1.4e9, -0.7, 0, 0, 0, 0],
    [RA0 + 0.01, DEC0 + 0.006, 1.0, 0.0, 0.0, 0.0, 1.4e9, 0.0, 0, 0, 0, 0],
    [RA0, DEC0, 1.5, 0.1, 0.05, 0.0, 1.4e9, 0.3, 0, 20.0, 10.0, 30.0],
])
NAMES = ["I", "Q", "U", "V", "spectral_index", "ra", "dec", "major", "minor", "pa"]


def telescope(source_dir):
    return fringe.Telescope(str(source_dir / "telescope-models" / "ska-mid-aa0.5.tm"))


def observation():
    return fringe.Observation(phase_centre_ra_deg=RA0, phase_centre_dec_deg=DEC0,
                              start_frequency_hz=FREQS[0], num_channels=len(FREQS),
                              frequency_inc_hz=FREQS[1] - FREQS[0],
                              start_time_utc="2025-01-01 06:00:00", length_sec=1800,
                              num_time_steps=3)


def simulate(path, source_dir, **attributes):
    """Simulates SKY into the Measurement Set `path` (Interferometer attributes as given)."""
    sim = fringe.Interferometer(precision="double")
    sim.set_sky_model(fringe.Sky.from_array(SKY))
    sim.set_telescope_model(telescope(source_dir))
    sim.set_observation(observation())
    for name, value in attributes.items():
        setattr(sim, name, value)
    sim.output_measurement_set = str(path)
    sim.run()
    return path


@pytest.fixture(scope="module")
def ms(tmp_path_factory, source_dir):
    """The simulated Measurement Set's path (isotropic stations)."""
    return simulate(tmp_path_factory.mktemp("likelihood") / "sim.ms", source_dir,
                    station_type="Isotropic beam")


def read_ms(path):
    need_tables()
    with tables.table(str(path), ack=False) as t:
        cols = {c: t.getcol(c) for c in ("DATA", "WEIGHT", "FLAG", "UVW", "ANTENNA1", "ANTENNA2",
                                         "TIME")}
    return cols


def all_parameters(sky_array=SKY):
    """Every parameter of every source, in the order parameter_names lists them with
    free=NAMES: (I, Q, U, V [Jy], alpha, ra, dec [rad], major, minor [rad FWHM], pa [rad])."""
    s = sky_array
    cols = [s[:, 2], s[:, 3], s[:, 4], s[:, 5], s[:, 7], np.radians(s[:, 0]),
            np.radians(s[:, 1]), s[:, 9] * ARCSEC, s[:, 10] * ARCSEC, np.radians(s[:, 11])]
    return np.column_stack(cols).ravel()


def perturbed_sky():
    """The template with every parameter changed (fluxes, spectra, the point sources'
    positions by a few arcsec, the Gaussian's shape; it stays at the phase centre)."""
    s = SKY.copy()
    s[:, 0] += np.array([3.0, -2.0, 0.0]) / 3600  # RA [deg]
    s[:, 1] += np.array([-1.0, 2.5, 0.0]) / 3600  # Dec [deg]
    s[:, 2] *= np.array([1.1, 0.8, 1.2])
    s[:, 3] += 0.05
    s[:, 4] -= 0.03
    s[:, 5] += 0.02
    s[:, 7] += np.array([0.2, -0.3, 0.1])
    s[2, 9:12] = [25.0, 8.0, 40.0]
    return s


def numpy_chi2(ms_path, sky_array, source_dir):
    """sum w |V - D|^2 with V = fringe.predict of sky_array at the stations' (u, v, w) of each
    time step (no station Jones: the likelihood has no beams here), D, w from the MS."""
    cols = read_ms(ms_path)
    tel, obs = telescope(source_dir), observation()
    sky = fringe.Sky.from_array(sky_array)
    nb = tel.num_stations * (tel.num_stations - 1) // 2
    model = []
    for t in range(obs.num_time_steps):
        uvw = fringe.station_uvw(tel, obs, t)
        p, q = np.triu_indices(tel.num_stations, 1)
        rows = slice(t * nb, (t + 1) * nb)
        # The MS rows of time t are these baselines with these (u, v, w).
        assert np.array_equal(cols["ANTENNA1"][rows], p)
        assert np.array_equal(cols["ANTENNA2"][rows], q)
        assert np.abs(uvw[p] - uvw[q] - cols["UVW"][rows]).max() < 1e-9  # m
        vis = fringe.predict(sky, None, uvw, FREQS, phase_centre_ra_deg=RA0,
                             phase_centre_dec_deg=DEC0)  # [channel, baseline, pol]
        model.append(vis.transpose(1, 0, 2))
    model = np.concatenate(model)  # [row, channel, pol]
    data = cols["DATA"].astype(np.complex128)
    w = np.broadcast_to(cols["WEIGHT"][:, None, :], data.shape).astype(np.float64)
    w = np.where(cols["FLAG"], 0.0, w)
    return float(np.sum(w * np.abs(model - data) ** 2)), model, data, w


@pytest.fixture(scope="module")
def lik(ms):
    """Every parameter of every source free, double precision, CPU, no beams."""
    return fringe.Likelihood(ms, fringe.Sky.from_array(SKY), free=NAMES)  # a pathlib.Path


def test_shapes_and_names(lik):
    assert lik.num_parameters == 3 * len(NAMES)
    assert lik.parameter_names[:3] == ["I[0]", "Q[0]", "U[0]"]
    assert lik.parameter_names[-1] == "pa[2]"
    assert (lik.num_rows, lik.num_channels, lik.num_pols) == (3 * 6, 3, 4)
    assert lik.num_visibilities == 3 * 6 * 3 * 4
    assert lik.device == "CPU"
    assert np.allclose(lik.initial_parameters, all_parameters(), rtol=1e-15, atol=1e-18)
    assert "18 rows" in repr(lik)


def test_chi2_equals_numpy_and_predict(ms, lik, source_dir):
    expected, model, data, w = numpy_chi2(ms, perturbed_sky(), source_dir)
    p = all_parameters(perturbed_sky())
    got = lik.chi2(p)
    assert abs(got - expected) <= 1e-10 * expected
    assert lik.log_likelihood(p) == -0.5 * got
    # The model and residual visibilities equal the predict's, element by element.
    scale = np.abs(model).max()
    assert np.abs(lik.model(p) - model).max() <= 1e-12 * scale
    assert np.abs(lik.residual(p) - np.where(w > 0, data - model, 0)).max() <= 1e-12 * scale


def test_from_arrays_equals_the_ms(ms, lik):
    cols = read_ms(ms)
    b = fringe.Likelihood.from_arrays(
        cols["UVW"], cols["ANTENNA1"], cols["ANTENNA2"], FREQS, cols["DATA"], cols["WEIGHT"],
        cols["FLAG"], phase_centre=(np.radians(RA0), np.radians(DEC0)),
        sky=fringe.Sky.from_array(SKY), free=NAMES)
    p = all_parameters(perturbed_sky())
    assert b.parameter_names == lik.parameter_names
    assert abs(b.chi2(p) - lik.chi2(p)) <= 1e-13 * lik.chi2(p)
    with pytest.raises(fringe.Error):  # no Measurement Set to write into
        b.write_model(p)
    # Weights per channel ([row, channel, pol]) give the same; a wrong shape is named.
    w3 = np.repeat(cols["WEIGHT"][:, None, :], len(FREQS), axis=1)
    b3 = fringe.Likelihood.from_arrays(
        cols["UVW"], cols["ANTENNA1"], cols["ANTENNA2"], FREQS, cols["DATA"], w3,
        phase_centre=(np.radians(RA0), np.radians(DEC0)), sky=fringe.Sky.from_array(SKY),
        free=NAMES)
    assert abs(b3.chi2(p) - b.chi2(p)) <= 1e-13 * b.chi2(p)
    with pytest.raises(fringe.Error, match="weight"):
        fringe.Likelihood.from_arrays(
            cols["UVW"], cols["ANTENNA1"], cols["ANTENNA2"], FREQS, cols["DATA"], w3[:, :2],
            phase_centre=(0.0, 0.0), sky=fringe.Sky.from_array(SKY))
    # A flag removes its term: flag one value whose residual is non-zero.
    flag = cols["FLAG"].copy()
    flag[4, 1, 0] = True
    c = fringe.Likelihood.from_arrays(
        cols["UVW"], cols["ANTENNA1"], cols["ANTENNA2"], FREQS, cols["DATA"], cols["WEIGHT"],
        flag, phase_centre=(np.radians(RA0), np.radians(DEC0)), sky=fringe.Sky.from_array(SKY),
        free=NAMES)
    r = lik.residual(p)[4, 1, 0]
    assert c.num_visibilities == lik.num_visibilities - 1
    assert abs(lik.chi2(p) - c.chi2(p) - abs(r) ** 2) <= 1e-10 * lik.chi2(p)


def test_true_sky_fits_to_the_float32_rounding(ms, source_dir):
    # The simulator's Full mode applies each station's parallactic rotation R (isotropic
    # stations: J = R), so the likelihood needs the same station beams to model the
    # polarised sources. DATA is stored as complex64: each of Re, Im is rounded to within
    # 2^-24 of its magnitude, so |D - V|^2 <= 2^-47 |V|^2 and chi2(true) <= 2^-47 sum w |D|^2
    # (up to the double-precision sums, far smaller).
    lik = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=NAMES,
                            telescope=telescope(source_dir), station_beams=True,
                            station_type="Isotropic beam")
    cols = read_ms(ms)
    power = float(np.sum(cols["WEIGHT"][:, None, :] * np.abs(cols["DATA"].astype(complex)) ** 2))
    true_chi2 = lik.chi2(lik.initial_parameters)
    assert true_chi2 <= 2.0 ** -47 * power * 1.01
    assert lik.chi2(all_parameters(perturbed_sky())) > 1e6 * true_chi2


def test_gaussian_station_beams_fit_the_simulation(tmp_path, source_dir):
    # Gaussian station beams of FWHM 0.05 deg at 1.4 GHz: the sources 0.01 to 0.013 deg out
    # are attenuated by ~10 % (power pattern exp(-4 ln 2 r^2 / FWHM^2) per station pair), so
    # the likelihood fits only with the same beams (bound as in the isotropic test).
    beam = dict(station_type="Gaussian beam", gaussian_beam_fwhm_deg=0.05,
                gaussian_beam_ref_freq_hz=1.4e9)
    path = simulate(tmp_path / "gauss.ms", source_dir, **beam)
    cols = read_ms(path)
    power = float(np.sum(cols["WEIGHT"][:, None, :] * np.abs(cols["DATA"].astype(complex)) ** 2))
    tel = telescope(source_dir)
    same = fringe.Likelihood(str(path), fringe.Sky.from_array(SKY), telescope=tel,
                             station_beams=True, **beam)
    assert same.chi2(same.initial_parameters) <= 2.0 ** -47 * power * 1.01
    beam["gaussian_beam_fwhm_deg"] = 0.06
    wider = fringe.Likelihood(str(path), fringe.Sky.from_array(SKY), telescope=tel,
                              station_beams=True, **beam)
    assert wider.chi2(wider.initial_parameters) > 1e-4 * power
    with pytest.raises(fringe.Error, match="telescope"):
        fringe.Likelihood(str(path), fringe.Sky.from_array(SKY), station_beams=True)


def test_smearing_fits_the_simulation(tmp_path, source_dir):
    # Bandwidth smearing over 50 MHz and time smearing over 600 s dumps, simulated and
    # modelled alike: the sources 0.01 deg out (~1 fringe on the longest baseline) lose
    # ~1e-3 of their amplitude (bandwidth: sinc(pi dnu/nu U l), dnu/nu = 0.036) and more from
    # the Earth's rotation (0.044 rad per dump). Isotropic stations with beams as above.
    smear = dict(channel_bandwidth_hz=50e6, time_average_sec=600.0)
    path = simulate(tmp_path / "smear.ms", source_dir, station_type="Isotropic beam", **smear)
    cols = read_ms(path)
    power = float(np.sum(cols["WEIGHT"][:, None, :] * np.abs(cols["DATA"].astype(complex)) ** 2))
    kw = dict(telescope=telescope(source_dir), station_beams=True,
              station_type="Isotropic beam")
    same = fringe.Likelihood(path, fringe.Sky.from_array(SKY), free=NAMES, **kw, **smear)
    assert same.chi2(same.initial_parameters) <= 2.0 ** -47 * power * 1.01
    for off in (dict(channel_bandwidth_hz=50e6), dict(time_average_sec=600.0)):
        without = fringe.Likelihood(path, fringe.Sky.from_array(SKY), **kw, **off)
        assert without.chi2(without.initial_parameters) > 1e-8 * power, off
    # The gradient of the smeared model, as in test_gradient_equals_finite_differences.
    check_gradient(same, all_parameters(perturbed_sky()))


# Central-difference steps per parameter type: fluxes enter chi2 quadratically (exact up to
# rounding); positions and axes small next to the fringe spacing (~1.6e-4 rad) and the
# Gaussian's size (~1e-4 rad); see the test for the error budget.
STEPS = {"I": 1e-3, "Q": 1e-3, "U": 1e-3, "V": 1e-3, "spectral_index": 1e-4, "ra": 1e-8,
         "dec": 1e-8, "major": 1e-8, "minor": 1e-8, "pa": 1e-5, "gain": 1e-5}


def check_gradient(lik, p):
    chi2, grad = lik.chi2_and_grad(p)
    assert chi2 == lik.chi2(p)
    assert grad.shape == (lik.num_parameters,) and grad.dtype == np.float64
    for i, name in enumerate(lik.parameter_names):
        kind = name.split("[")[0]
        h = STEPS["gain" if kind.startswith("gain") else kind]
        if kind in ("major", "minor", "pa") and p[i - NAMES.index(kind) + 7] == 0:
            # A point source (major = 0): the taper exp(-k major^2 ...) is flat there, and
            # negative axes are refused, so no central difference; the gradient is 0.
            assert grad[i] == 0, name
            continue
        up, down = p.copy(), p.copy()
        up[i] += h
        down[i] -= h
        fd = (lik.chi2(up) - lik.chi2(down)) / (2 * h)
        # Truncation error ~ h^2 chi2''' / 6, rounding error ~ 1e-16 chi2 / h: both below
        # 1e-6 |grad| with these steps, plus a floor for parameters with a tiny gradient.
        floor = 1e-14 * chi2 / h
        assert abs(fd - grad[i]) <= 1e-6 * abs(grad[i]) + floor, (name, fd, grad[i])


def test_gradient_equals_finite_differences(lik):
    check_gradient(lik, all_parameters(perturbed_sky()))


def test_gain_gradient_equals_finite_differences(ms):
    lik = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=["I", "ra"],
                            sources=[2, 0], gain_stations=[1, 3])
    assert lik.parameter_names == ["I[2]", "ra[2]", "I[0]", "ra[0]", "gain_x_re[1]",
                                   "gain_x_im[1]", "gain_y_re[1]", "gain_y_im[1]",
                                   "gain_x_re[3]", "gain_x_im[3]", "gain_y_re[3]",
                                   "gain_y_im[3]"]
    p = lik.initial_parameters
    assert np.array_equal(p[4:], [1, 0, 1, 0, 1, 0, 1, 0])
    p[4:] += np.array([0.1, -0.05, -0.08, 0.12, 0.03, 0.07, -0.1, 0.02])
    p[[0, 2]] *= 1.1
    p[[1, 3]] += 2e-5
    check_gradient(lik, p)


def test_batch_equals_single_calls(lik):
    rng = np.random.default_rng(5)
    base = all_parameters(perturbed_sky())
    P = base + rng.normal(size=(5, base.size)) * np.abs(base) * 1e-3
    chi2 = lik.chi2_batch(P)
    chi2g, grads = lik.chi2_and_grad_batch(P)
    assert chi2.shape == (5,) and grads.shape == (5, base.size)
    for k in range(5):
        single, g = lik.chi2_and_grad(P[k])
        assert abs(chi2[k] - single) <= 1e-12 * single
        assert abs(chi2g[k] - single) <= 1e-12 * single
        assert np.abs(grads[k] - g).max() <= 1e-12 * np.abs(g).max()


def test_threads_share_one_likelihood(lik):
    # The GIL is released during each call; calls on one object from several threads take
    # turns (the engine reuses its buffers), so every thread gets the single-call values.
    from concurrent.futures import ThreadPoolExecutor
    base = all_parameters(perturbed_sky())
    P = base + np.random.default_rng(6).normal(size=(24, base.size)) * np.abs(base) * 1e-3
    expected = [lik.chi2_and_grad(p) for p in P]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lik.chi2_and_grad, P))
    for (c0, g0), (c1, g1) in zip(expected, got):
        # (equal up to the order of OpenMP's partial sums)
        assert abs(c0 - c1) <= 1e-13 * c0
        assert np.abs(g0 - g1).max() <= 1e-12 * np.abs(g0).max()


def test_single_precision_is_close_to_double(ms, lik):
    single = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=NAMES,
                               precision="single")
    p = all_parameters(perturbed_sky())
    c64, g64 = lik.chi2_and_grad(p)
    c32, g32 = single.chi2_and_grad(p)
    # float32 terms (relative rounding ~6e-8 per term), summed in double (measured: 2e-9 in
    # chi2, 3e-8 in the gradient).
    assert abs(c32 - c64) <= 1e-6 * c64
    assert np.linalg.norm(g32 - g64) <= 1e-5 * np.linalg.norm(g64)


def test_bad_parameters_raise(lik):
    n = lik.num_parameters
    with pytest.raises(fringe.Error, match=f"num_parameters = {n}"):
        lik.chi2(np.zeros(n - 1))
    with pytest.raises(fringe.Error, match=f"num_parameters = {n}"):
        lik.chi2_and_grad(np.zeros((1, n)))
    with pytest.raises(fringe.Error, match=f"num_parameters = {n}"):
        lik.chi2_batch(np.zeros((2, n + 1)))
    p = lik.initial_parameters
    p[lik.parameter_names.index("ra[1]")] = np.nan
    with pytest.raises(fringe.Error, match=r"ra\[1\]"):
        lik.chi2(p)
    with pytest.raises(fringe.Error, match=r"ra\[1\]"):
        lik.chi2_batch(np.vstack([lik.initial_parameters, p]))
    with pytest.raises(fringe.Error, match="nope"):
        fringe.Likelihood.from_arrays(np.zeros((1, 3)), [0], [1], [1e9], np.ones((1, 1, 1)),
                                      np.ones((1, 1)), phase_centre=(0.0, 0.0),
                                      sky=fringe.Sky.from_array(SKY), free=["nope"])
    with pytest.raises(fringe.Error, match="device"):
        fringe.Likelihood(str("x.ms"), fringe.Sky.from_array(SKY), device="tpu")


def test_ms_without_weight_names_the_column(ms, tmp_path):
    copy = copy_ms(ms, tmp_path / "noweight.ms")
    need_tables()
    with tables.table(str(copy), readonly=False, ack=False) as t:
        t.removecols("WEIGHT")
    with pytest.raises(fringe.Error, match="WEIGHT"):
        fringe.Likelihood(str(copy), fringe.Sky.from_array(SKY))


def copy_ms(ms, path):
    need_tables()
    with tables.table(str(ms), ack=False) as t:
        t.copy(str(path), deep=True).close()
    return path


def test_write_model_and_residual(ms, tmp_path):
    path = copy_ms(ms, tmp_path / "copy.ms")
    lik = fringe.Likelihood(str(path), fringe.Sky.from_array(SKY), free=NAMES)
    p = all_parameters(perturbed_sky())
    lik.write_model(p)
    lik.write_residual(p, column="RES")
    need_tables()
    with tables.table(str(path), ack=False) as t:
        model, res = t.getcol("MODEL_DATA"), t.getcol("RES")
        data = t.getcol("DATA")
    # Written as complex float: equal to the arrays up to float32 rounding (2^-24 relative).
    scale = np.abs(lik.model(p)).max()
    assert np.abs(model - lik.model(p)).max() <= 2.0 ** -23 * scale
    assert np.abs(res - lik.residual(p)).max() <= 2.0 ** -23 * scale
    assert np.abs(res - (data - model)).max() <= 2.0 ** -22 * scale
    # Existing columns and the data are not replaced unless asked.
    with pytest.raises(fringe.Error, match="MODEL_DATA"):
        lik.write_model(p)
    lik.write_model(p, replace_existing=True)
    with pytest.raises(fringe.Error, match="DATA"):
        lik.write_residual(p, column="DATA", replace_existing=True)


@pytest.mark.parametrize("precision", ["double", "single"])
def test_gpu_equals_cpu(ms, precision):
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    lik = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=NAMES, precision=precision)
    # Double: the same sums up to rounding; single: float32 terms in another order.
    tol = 1e-12 if precision == "double" else 1e-6
    gpu = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=NAMES, device="gpu",
                            precision=precision)
    assert gpu.device.startswith("GPU")
    base = all_parameters(perturbed_sky())
    P = base + np.random.default_rng(7).normal(size=(4, base.size)) * np.abs(base) * 1e-3
    c_cpu, g_cpu = lik.chi2_and_grad_batch(P)
    c_gpu, g_gpu = gpu.chi2_and_grad_batch(P)
    assert np.abs(c_gpu - c_cpu).max() <= tol * c_cpu.max()
    assert np.abs(g_gpu - g_cpu).max() <= 100 * tol * np.abs(g_cpu).max()
    assert np.abs(gpu.model(base) - lik.model(base)).max() <= tol * np.abs(lik.model(base)).max()


def test_two_gpus_equal_cpu(ms, lik):
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia1"):
        pytest.skip("fewer than two GPUs")
    two = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), free=NAMES, device="gpu",
                            gpus=[0, 1])
    assert two.device == "GPU 0,1"
    base = all_parameters(perturbed_sky())
    P = base + np.random.default_rng(8).normal(size=(3, base.size)) * np.abs(base) * 1e-3
    c_cpu, g_cpu = lik.chi2_and_grad_batch(P)
    c_two, g_two = two.chi2_and_grad_batch(P)
    assert np.abs(c_two - c_cpu).max() <= 1e-12 * c_cpu.max()
    assert np.abs(g_two - g_cpu).max() <= 1e-10 * np.abs(g_cpu).max()


def test_gpu_smearing_equals_cpu(tmp_path, source_dir):
    # The CUDA back end models bandwidth and time smearing too (fit/likelihood_cuda.cu).
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    smear = dict(channel_bandwidth_hz=50e6, time_average_sec=600.0)
    path = simulate(tmp_path / "smear.ms", source_dir, station_type="Isotropic beam", **smear)
    cpu = fringe.Likelihood(path, fringe.Sky.from_array(SKY), free=NAMES, **smear)
    gpu = fringe.Likelihood(path, fringe.Sky.from_array(SKY), free=NAMES, device="gpu", **smear)
    p = all_parameters(perturbed_sky())
    c_cpu, g_cpu = cpu.chi2_and_grad(p)
    c_gpu, g_gpu = gpu.chi2_and_grad(p)
    assert abs(c_gpu - c_cpu) <= 1e-12 * c_cpu
    assert np.abs(g_gpu - g_cpu).max() <= 1e-10 * np.abs(g_cpu).max()


def test_gpu_with_fixed_sources_equals_cpu(ms):
    # Sources 0 and 2 fixed: their model is computed once on the back end's device and taken
    # from the data; the GPU and the CPU still agree.
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    kw = dict(free=["I", "ra", "dec", "spectral_index"], sources=[1])
    cpu = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), **kw)
    gpu = fringe.Likelihood(str(ms), fringe.Sky.from_array(SKY), device="gpu", **kw)
    p = cpu.initial_parameters * np.array([1.1, 1.0, 1.0, 1.0]) + np.array([0, 1e-6, -2e-6, 0.1])
    c_cpu, g_cpu = cpu.chi2_and_grad(p)
    c_gpu, g_gpu = gpu.chi2_and_grad(p)
    assert abs(c_gpu - c_cpu) <= 1e-12 * c_cpu
    assert np.abs(g_gpu - g_cpu).max() <= 1e-10 * np.abs(g_cpu).max()
