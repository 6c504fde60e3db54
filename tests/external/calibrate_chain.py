#!/usr/bin/env python3
"""simulate -> corrupt -> calibrate, checked with python-casacore (issue 9).

1. sim_interferometer (SKA-Low AA1, 16 stations, two point sources, 4 times x 3 channels)
   with interferometer/gain_corruption (fixed + random-walk gains and a 2 ns delay per station
   and polarisation): the MS must hold DATA and MODEL_DATA, the true gains a casacore table and
   a CSV beside it, and DATA = G MODEL_DATA G^H with those gains (to float rounding).
2. calibrate (diagonal gains per time and channel): every cell converged; the solved gains
   equal the true gains after fixing the reference station's X and Y phases (1e-5: the MS
   stores float); CORRECTED_DATA equals MODEL_DATA in XX and YY; the gain CSV has every row.
   Again with the model predicted from the sky model (calibrate/sky_model_file): the gains
   equal the truth to 1e-3 (the prediction has no beam; measured 5e-5).
3. The same with system noise (rms 1 Jy per station, Range): the gain error agrees with the
   expected statistical error sigma / sqrt(sum_q |g_q M_pq|^2) (within 35 % in mean square,
   16 stations x 2 pols x 12 cells) and the RMS of CORRECTED_DATA - MODEL_DATA in XX and YY is
   the least-squares residual level sigma sqrt(1 - (2N - 1) / (N (N - 1))) (within 10 %).
--use-gpus runs both apps on GPUs (for the GPU machine; the CTest registration uses the CPU).
Exit 77 (skip) without python-casacore or numpy.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys

from ms_test_util import SKIP, require_casacore

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(SKIP)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def sim_ini(workdir, noise, gpus):
    text = f"""[General]
app=sim_interferometer
version=0.1.0

[simulator]
use_gpus={gpus}

[sky]
oskar_sky_model/file={ROOT}/tests/integration/data/sky.osm

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels=3
frequency_inc_hz=1e6
start_time_utc=2025-01-01T13:17:30.5
length=00:20:00
num_time_steps=4

[telescope]
input_directory={ROOT}/telescope-models/ska-low-aa1.tm
station_type=Isotropic beam

[interferometer]
ms_filename={workdir}/chain.ms
gain_corruption/enable=true
gain_corruption/seed=3
gain_corruption/delay_std_ns=2
"""
    if noise:
        text += """noise/enable=true
noise/seed=11
noise/freq=Observation settings
noise/rms=Range
noise/rms/start=0.05
noise/rms/end=0.05
"""
    path = os.path.join(workdir, "sim.ini")
    write(path, text)
    return path


def cal_ini(workdir, gpus):
    path = os.path.join(workdir, "cal.ini")
    write(path, f"""[General]
app=calibrate
version=0.1.0

[calibrate]
input_ms={workdir}/chain.ms
gain_type=Diagonal
solution_interval_times=1
channels_per_solution=1
tolerance=1e-10
use_gpus={gpus}
""")
    return path


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {r.returncode}")
    return r.stdout


def gains_by_cell(tab, times):
    """{(time index, channel, station): 2x2 gain} from a fringe gain table."""
    t, a = tab.getcol("TIME"), tab.getcol("ANTENNA1")
    c0, c1, g = tab.getcol("CHAN_START"), tab.getcol("CHAN_END"), tab.getcol("GAIN")
    out = {}
    for i in range(len(t)):
        ti = int(np.argmin(np.abs(times - t[i])))
        for ch in range(c0[i], c1[i] + 1):
            out[(ti, ch, a[i])] = g[i].reshape(2, 2)
    return out


def referenced(g, ref):
    """Diagonal gains with the reference station's X and Y phases removed."""
    gx = {k: v[0, 0] for k, v in g.items()}
    gy = {k: v[1, 1] for k, v in g.items()}
    out = {}
    for (ti, ch, st) in g:
        rx = gx[(ti, ch, ref)] / abs(gx[(ti, ch, ref)])
        ry = gy[(ti, ch, ref)] / abs(gy[(ti, ch, ref)])
        out[(ti, ch, st)] = np.array([gx[(ti, ch, st)] / rx, gy[(ti, ch, st)] / ry])
    return out


def check(args, noise):
    import casacore.tables as pt
    workdir = os.path.join(args.workdir, "noise" if noise else "clean")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    gpus = "true" if args.use_gpus else "false"
    run([args.sim, "-q", sim_ini(workdir, noise, gpus)])
    ms_path = os.path.join(workdir, "chain.ms")
    true_path = ms_path + ".true_gains"
    for p in (true_path, true_path + ".csv"):
        if not os.path.exists(p):
            raise SystemExit(f"FAIL: {p} was not written")
    log = run([args.cal, cal_ini(workdir, gpus)])
    if args.use_gpus and "Calibration summary (gpu" not in log:
        raise SystemExit("FAIL: --use-gpus given but calibrate did not solve on a GPU\n" + log)
    ms = pt.table(ms_path, ack=False)
    for col in ("DATA", "MODEL_DATA", "CORRECTED_DATA"):
        if col not in ms.colnames():
            raise SystemExit(f"FAIL: {col} missing from {ms_path}")
    times = np.unique(ms.getcol("TIME"))
    a1, a2 = ms.getcol("ANTENNA1"), ms.getcol("ANTENNA2")
    tidx = np.searchsorted(times, ms.getcol("TIME"))
    data, model = ms.getcol("DATA"), ms.getcol("MODEL_DATA")
    corrected = ms.getcol("CORRECTED_DATA")
    truth = gains_by_cell(pt.table(true_path, ack=False), times)
    sol_tab = pt.table(ms_path + ".gains", ack=False)
    states = set(sol_tab.getcol("STATE"))
    if states != {"converged"}:
        raise SystemExit(f"FAIL: solution states {states}\n{log}")
    sol = gains_by_cell(sol_tab, times)
    with open(ms_path + ".gains.csv") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    if len(rows) - 1 != sol_tab.nrows():
        raise SystemExit(f"FAIL: CSV has {len(rows) - 1} rows, table {sol_tab.nrows()}")
    cross = a1 != a2
    nchan = data.shape[1]
    if not noise:
        # DATA = G MODEL G^H with the true gains.
        worst = 0.0
        for r in np.nonzero(cross)[0]:
            for ch in range(nchan):
                gp, gq = truth[(tidx[r], ch, a1[r])], truth[(tidx[r], ch, a2[r])]
                pred = gp @ model[r, ch].reshape(2, 2) @ gq.conj().T
                worst = max(worst, np.abs(pred.ravel() - data[r, ch]).max())
        scale = np.abs(data[cross]).max()
        print(f"clean: DATA vs G MODEL G^H (true gains): {worst / scale:.2e} of max |DATA|")
        if worst > 1e-6 * scale:
            raise SystemExit("FAIL: DATA is not G MODEL_DATA G^H with the true gains")
    ref = 0
    st, rt = referenced(sol, ref), referenced(truth, ref)
    err2 = np.array([np.abs(st[k] - rt[k]) ** 2 for k in st])  # [cell x station, pol]
    rel = max(np.sqrt(err2[i].max()) / np.abs(rt[k]).min() for i, k in enumerate(st))
    par = [0, 3]
    resid = corrected[cross][:, :, par] - model[cross][:, :, par]
    if not noise:
        print(f"clean: max relative gain error {rel:.2e}")
        if rel > 1e-5:
            raise SystemExit("FAIL: solved gains differ from the true gains")
        cmax = np.abs(resid).max() / np.abs(model[cross][:, :, par]).max()
        print(f"clean: max |CORRECTED - MODEL| (XX, YY) / max |MODEL| = {cmax:.2e}")
        if cmax > 1e-5:
            raise SystemExit("FAIL: CORRECTED_DATA differs from MODEL_DATA")
        # The model predicted from the sky model instead of MODEL_DATA (no beam: the sim's
        # isotropic stations): the same gains to the model's agreement (measured 5e-5).
        sky_ini = os.path.join(workdir, "cal_sky.ini")
        write(sky_ini, f"""[General]
app=calibrate

[calibrate]
input_ms={ms_path}
sky_model_file={ROOT}/tests/integration/data/sky.osm
model_column=NO_SUCH_COLUMN
gain_type=Diagonal
channels_per_solution=1
tolerance=1e-10
use_gpus={gpus}
output_gains={workdir}/sky.gains
write_corrected=false
""")
        run([args.cal, sky_ini])
        sky_sol = referenced(gains_by_cell(pt.table(workdir + "/sky.gains", ack=False), times), ref)
        rel_sky = max(np.abs(sky_sol[k] - rt[k]).max() / np.abs(rt[k]).min() for k in sky_sol)
        print(f"clean, sky-model prediction: max relative gain error {rel_sky:.2e}")
        if rel_sky > 1e-3:
            raise SystemExit("FAIL: gains from the predicted sky model differ from the truth")
        return
    # Noise: expected var(g_p) = sigma^2 / sum_q |g_q M_pq|^2 per pol (sigma^2: complex
    # noise variance; Range rms 0.05 Jy -> 0.05 per real part in Full mode, so 2 x 0.05^2).
    sigma2 = 2.0 * 0.05 ** 2
    info = {}
    for r in np.nonzero(cross)[0]:
        for ch in range(nchan):
            for x, k in ((0, 0), (1, 3)):
                p, q, ti = a1[r], a2[r], tidx[r]
                m2 = abs(model[r, ch, k]) ** 2
                info[(ti, ch, p, x)] = info.get((ti, ch, p, x), 0.0) + abs(truth[(ti, ch, q)][x, x]) ** 2 * m2
                info[(ti, ch, q, x)] = info.get((ti, ch, q, x), 0.0) + abs(truth[(ti, ch, p)][x, x]) ** 2 * m2
    measured = predicted = 0.0
    for (ti, ch, stn), g in st.items():
        if stn == ref:
            continue  # its phase is fixed, not estimated
        for x in (0, 1):
            measured += abs(g[x] - rt[(ti, ch, stn)][x]) ** 2
            # Referencing adds the reference's phase error, variance
            # sigma^2 / (2 |g_ref|^2 info_ref), times |g_p|^2.
            g_ref2 = abs(rt[(ti, ch, ref)][x]) ** 2
            predicted += sigma2 / info[(ti, ch, stn, x)] + abs(rt[(ti, ch, stn)][x]) ** 2 * sigma2 / (
                2.0 * g_ref2 * info[(ti, ch, ref, x)])
    ratio = measured / predicted
    # Expected RMS of CORRECTED - MODEL: the solution absorbs the part of the noise that the
    # gains can fit (a least-squares residual), so per polarisation and cell the noise
    # variance is reduced by (parameters / observations) = (2N - 1) / (N (N - 1)) (real
    # values; N stations, N (N - 1) / 2 baselines).
    n_st = int(max(a1.max(), a2.max())) + 1
    expected_rms = np.sqrt(sigma2 * (1.0 - (2.0 * n_st - 1.0) / (n_st * (n_st - 1.0))))
    noise_rms = np.sqrt(np.mean(np.abs(resid) ** 2))
    print(f"noise: gain mean-square error / expected = {ratio:.3f}; "
          f"RMS(CORRECTED - MODEL) = {noise_rms:.4f} Jy, expected {expected_rms:.4f} Jy "
          f"(noise alone {np.sqrt(sigma2):.4f} Jy)")
    if not 0.65 < ratio < 1.35:
        raise SystemExit("FAIL: gain errors do not match the expected statistical error")
    if not 0.9 < noise_rms / expected_rms < 1.1:
        raise SystemExit("FAIL: CORRECTED_DATA residual is not at the noise level")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--cal", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--use-gpus", action="store_true",
                    help="simulate and calibrate on GPUs (simulator/use_gpus, calibrate/use_gpus)")
    args = ap.parse_args()
    require_casacore()
    check(args, noise=False)
    check(args, noise=True)
    print("OK")


if __name__ == "__main__":
    sys.exit(main())
