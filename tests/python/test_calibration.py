"""fringe.calibrate / fringe.Calibration (docs/python.md, "Beams, imaging and calibration").

Model visibilities are corrupted in numpy with known random gains, R_pq = G_p M_pq G_q^H
(docs/calibration.md), and solved back. StEFCal's solution is unique up to one phase per
polarisation (Salvini & Wijnholds 2014, section 2); fringe fixes it by making the reference
station's gain real and positive, so the truth is the true gains times the phase factor that
does the same. The Measurement Set case corrupts OSKAR's simulated MS of
tests/data/oskar-reference/vla_gauss_beam_smear with python-casacore.
"""
import os
import tarfile

import numpy as np
import pytest

import fringe

SRC = os.environ.get("FRINGE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CASE = os.path.join(SRC, "tests", "data", "oskar-reference", "vla_gauss_beam_smear")


def random_gains(rng, n):
    return rng.uniform(0.7, 1.3, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n))


def referenced(g, ref):
    return g * np.exp(-1j * np.angle(g[ref]))


def baselines(n, times):
    a1, a2, t = [], [], []
    for k in range(times):
        for p in range(n):
            for q in range(p + 1, n):
                a1.append(p)
                a2.append(q)
                t.append(5e9 + 10.0 * k)
    return np.array(a1, np.int32), np.array(a2, np.int32), np.array(t)


def test_diagonal_gains_recovered_per_interval():
    rng = np.random.default_rng(11)
    n, nt, nc = 9, 4, 3
    a1, a2, t = baselines(n, nt)
    rows = len(a1)
    model = rng.normal(size=(rows, nc, 4)) + 1j * rng.normal(size=(rows, nc, 4))
    # Different gains per pair of time steps (times_per_solution = 2 -> 2 intervals).
    gx = [random_gains(rng, n) for _ in range(2)]
    gy = [random_gains(rng, n) for _ in range(2)]
    data = np.empty_like(model)
    for r in range(rows):
        i, p, q = int(r // (rows // nt)) // 2, a1[r], a2[r]
        gp = np.array([gx[i][p], gy[i][p]])
        gq = np.array([gx[i][q], gy[i][q]])
        m = model[r].reshape(nc, 2, 2)
        data[r] = (gp[None, :, None] * m * np.conj(gq)[None, None, :]).reshape(nc, 4)
    out = fringe.calibrate(data, model, a1, a2, time=t, times_per_solution=2,
                           reference_station=3, tolerance=1e-12, max_iterations=1000)
    g = out["gains"]
    assert g.shape == (2, 1, n, 2, 2)
    for i in range(2):
        assert np.max(np.abs(g[i, 0, :, 0, 0] - referenced(gx[i], 3))) < 1e-8
        assert np.max(np.abs(g[i, 0, :, 1, 1] - referenced(gy[i], 3))) < 1e-8
        assert np.max(np.abs(g[i, 0, :, 0, 1])) == 0 and np.max(np.abs(g[i, 0, :, 1, 0])) == 0
    assert not out["flags"].any()
    assert np.all(out["rms_after"] < 1e-8 * out["rms_before"])
    assert out["state"] == ["converged", "converged"]
    np.testing.assert_allclose(out["time"], [5e9 + 5.0, 5e9 + 25.0])


def test_scalar_gains_per_channel_group():
    rng = np.random.default_rng(12)
    n, nc = 6, 4
    a1, a2, t = baselines(n, 1)
    model = rng.normal(size=(len(a1), nc)) + 1j * rng.normal(size=(len(a1), nc))
    g = [random_gains(rng, n), random_gains(rng, n)]  # channels 0-1 and 2-3
    data = np.stack([g[c // 2][a1] * model[:, c] * np.conj(g[c // 2][a2]) for c in range(nc)], 1)
    cal = fringe.Calibration(gain_type="scalar", channels_per_solution=2, tolerance=1e-12)
    out = cal.solve(data, model, a1, a2)
    assert out["gains"].shape == (1, 2, n, 2, 2)
    for k in range(2):
        assert np.max(np.abs(out["gains"][0, k, :, 0, 0] - referenced(g[k], 0))) < 1e-8
        assert np.max(np.abs(out["gains"][0, k, :, 1, 1] - referenced(g[k], 0))) < 1e-8
    assert list(out["chan_start"]) == [0, 2] and list(out["chan_end"]) == [1, 3]


def test_full_jones_gains_recovered():
    rng = np.random.default_rng(13)
    n = 8
    a1, a2, t = baselines(n, 1)
    G = rng.normal(size=(n, 2, 2)) * 0.2 + np.eye(2) + 1j * rng.normal(size=(n, 2, 2)) * 0.2
    M = rng.normal(size=(len(a1), 2, 2)) + 1j * rng.normal(size=(len(a1), 2, 2))
    R = G[a1] @ M @ np.conj(np.transpose(G[a2], (0, 2, 1)))
    out = fringe.calibrate(R.reshape(-1, 1, 4), M.reshape(-1, 1, 4), a1, a2,
                           gain_type="full_jones", tolerance=1e-12, max_iterations=2000)
    # Reference: G_ref[0, 0] real and positive (one common phase for all of G).
    want = G * np.exp(-1j * np.angle(G[0, 0, 0]))
    assert np.max(np.abs(out["gains"][0, 0] - want)) < 1e-7


def corrupt_ms(ms, gx, gy):
    import casacore.tables as tables
    with tables.table(ms, readonly=False, ack=False) as t:
        desc = t.getcoldesc("DATA")
        desc["name"] = "MODEL_DATA"
        t.addcols(tables.makecoldesc("MODEL_DATA", desc))
        model = t.getcol("DATA")
        t.putcol("MODEL_DATA", model)
        a1, a2 = t.getcol("ANTENNA1"), t.getcol("ANTENNA2")
        g = np.stack([gx, gy], 1)  # [station, pol]
        # R_pq[XX, XY, YX, YY] = g_p[row pol] M g_q^*[col pol]
        data = model * (g[a1][:, None, [0, 0, 1, 1]] * np.conj(g[a2])[:, None, [0, 1, 0, 1]])
        t.putcol("DATA", data.astype(np.complex64))
        return data, model, a1, a2, t.getcol("TIME")


def test_measurement_set_and_arrays_agree(tmp_path):
    with tarfile.open(os.path.join(CASE, "vla_gauss_beam_smear.ms.tar.gz")) as t:
        t.extractall(tmp_path)
    ms = str(tmp_path / "vla_gauss_beam_smear.ms")
    rng = np.random.default_rng(14)
    gx, gy = random_gains(rng, 27), random_gains(rng, 27)
    data, model, a1, a2, time = corrupt_ms(ms, gx, gy)
    cal = fringe.Calibration(gain_type="diagonal", times_per_solution=0, tolerance=1e-10)
    gains_path = str(tmp_path / "solved.gains")
    from_ms = cal.run(ms, gains_path=gains_path, use_gpus=False)
    assert os.path.isdir(gains_path)
    g = from_ms["gains"]
    assert g.shape == (1, 1, 27, 2, 2)
    # float32 visibilities in the MS: about 1e-6 relative.
    assert np.max(np.abs(g[0, 0, :, 0, 0] - referenced(gx, 0))) < 1e-4
    assert np.max(np.abs(g[0, 0, :, 1, 1] - referenced(gy, 0))) < 1e-4
    arrays = cal.solve(data.astype(np.complex64).astype(complex), model.astype(complex), a1, a2,
                       time=time)
    assert np.max(np.abs(arrays["gains"] - g)) < 1e-6
    # CORRECTED_DATA = G_p^-1 R G_q^-H is the model again in XX and YY (diagonal gains solved
    # from XX and YY leave the X-Y phase free, so XY and YX keep a phase factor).
    import casacore.tables as tables
    with tables.table(ms, ack=False) as t:
        corrected = t.getcol("CORRECTED_DATA")
    err = np.abs(corrected - model)[:, :, [0, 3]]
    assert np.max(err) < 1e-4 * np.max(np.abs(model))


def test_errors_raise_fringe_error():
    a1, a2, _ = baselines(5, 1)
    d = np.ones((len(a1), 1, 4), complex)
    with pytest.raises(fringe.Error):
        fringe.calibrate(d, d[:, :, :1], a1, a2)  # model shape differs
    with pytest.raises(fringe.Error):
        fringe.calibrate(d[:, :, :1], d[:, :, :1], a1, a2)  # diagonal gains from one pol
    with pytest.raises(fringe.Error):
        fringe.calibrate(d, d, a1[:-1], a2[:-1])  # antenna arrays too short
    with pytest.raises(fringe.Error):
        fringe.Calibration(gain_type="phase_only")
    with pytest.raises(fringe.Error):
        fringe.Calibration().run("/nonexistent/x.ms")
