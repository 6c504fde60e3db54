"""fringe.Interferometer (docs/python.md, "Simulation"): the blocks the Python iterator yields
equal, bit for bit, the Measurement Set that the sim_interferometer executable writes for the
same settings (read with python-casacore); run() from settings and from objects write the same
MS; OSKAR's process_block hook sees the same blocks; errors raise fringe.Error."""
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import fringe

# Two polarised sources near the phase centre (RA 200, Dec 30 deg) as an OSKAR sky file:
# RA, Dec [deg], I, Q, U, V [Jy].
SKY = "200.05 30.02 2.0 0.1 -0.2 0.05\n199.9 29.95 1.0 0 0 0\n"


def write_settings(tmp_path, source_dir, extra=""):
    """A small sim_interferometer INI file: VLA-A (27 stations), 5 times x 3 channels in blocks
    of 2 times, isotropic stations, writing sim.ms in tmp_path."""
    (tmp_path / "sky.osm").write_text(SKY)
    ini = tmp_path / "sim.ini"
    ini.write_text(f"""[General]
app=sim_interferometer

[simulator]
use_gpus=false

[sky]
oskar_sky_model\\file=sky.osm

[observation]
phase_centre_ra_deg=200
phase_centre_dec_deg=30
start_frequency_hz=1.4e9
num_channels=3
frequency_inc_hz=4e6
start_time_utc=2024-03-15 08:24:00
length=00:08:00
num_time_steps=5

[telescope]
input_directory={source_dir}/telescope-models/vla-a.tm
station_type=Isotropic beam

[interferometer]
max_time_samples_per_block=2
ms_filename=sim.ms
{extra}
""")
    return ini


def run_app(binary_dir, ini):
    exe = binary_dir / "apps" / "sim_interferometer" / "sim_interferometer"
    subprocess.run([str(exe), "-q", str(ini)], check=True, cwd=ini.parent,
                   stdout=subprocess.DEVNULL)


def read_ms(path):
    # Only the tests that read a Measurement Set need python-casacore (a GPU image may lack it).
    casacore_tables = pytest.importorskip("casacore.tables")
    with casacore_tables.table(str(path), ack=False) as t:
        return {c: t.getcol(c) for c in ("DATA", "UVW", "TIME", "ANTENNA1", "ANTENNA2")}


def ms_blocks(blocks, nchan):
    """The iterator's blocks in MS row order: DATA [row, channel, pol] and friends."""
    data, uvw, time, a1, a2 = [], [], [], [], []
    full = {}
    for b in blocks:
        assert b.start_channel_index == 0 and b.num_channels == nchan
        # [time, channel, baseline, pol] -> rows of (time, baseline), then channel, pol.
        data.append(b.vis.transpose(0, 2, 1, 3).reshape(-1, nchan, b.num_pols))
        uvw.append(b.uvw.reshape(-1, 3))
        time.append(np.repeat(b.time_mjd_utc_sec, b.num_baselines))
        a1.append(np.tile(b.antenna1, b.num_times))
        a2.append(np.tile(b.antenna2, b.num_times))
    full["DATA"] = np.concatenate(data)
    full["UVW"] = np.concatenate(uvw)
    full["TIME"] = np.concatenate(time)
    full["ANTENNA1"] = np.concatenate(a1)
    full["ANTENNA2"] = np.concatenate(a2)
    return full


def assert_bitwise_equal(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    # Bit patterns, so that -0.0 != 0.0 and NaNs would be compared too.
    assert np.array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.mark.parametrize("extra", [
    "",  # CASA phase convention, double precision, cross-correlations
    "correlation_type=Both\nuse_casa_phase_convention=false",
])
def test_blocks_equal_the_apps_ms(tmp_path, source_dir, binary_dir, extra):
    ini = write_settings(tmp_path, source_dir, extra)
    run_app(binary_dir, ini)
    ms = read_ms(tmp_path / "sim.ms")
    sim = fringe.Interferometer(settings=str(ini))
    got = ms_blocks(sim.blocks(), 3)
    assert got["DATA"].dtype == np.complex64
    assert np.abs(got["DATA"]).max() > 0.5  # not a run of zeros
    for column in ("DATA", "UVW", "TIME"):
        assert_bitwise_equal(got[column], ms[column])
    assert np.array_equal(got["ANTENNA1"], ms["ANTENNA1"])
    assert np.array_equal(got["ANTENNA2"], ms["ANTENNA2"])
    # The iterator wrote no file (sim.ms is the app's; nothing else appeared).
    assert sorted(os.listdir(tmp_path)) == ["sim.ini", "sim.ms", "sky.osm"]


def test_block_time_and_frequency_axes(tmp_path, source_dir):
    sim = fringe.Interferometer(settings=str(write_settings(tmp_path, source_dir)))
    blocks = list(sim)
    assert [b.block_index for b in blocks] == [0, 1, 2]
    assert [b.num_times for b in blocks] == [2, 2, 1]
    # Dump centres: start 2024-03-15 08:24 UTC = MJD 60384.35, 96 s steps, centre +48 s.
    times = np.concatenate([b.time for b in blocks])
    assert np.allclose((times - 60384.35) * 86400.0, 48.0 + 96.0 * np.arange(5), atol=1e-4)
    assert np.array_equal(blocks[0].frequency, [1.4e9, 1.404e9, 1.408e9])
    assert blocks[0].vis.shape == (2, 3, 351, 4)
    assert blocks[0].uvw.shape == (2, 351, 3)


def test_run_from_settings_and_from_objects_give_the_same_ms(tmp_path, source_dir):
    ini = write_settings(tmp_path, source_dir)
    a = fringe.Interferometer(settings=fringe.SettingsTree("sim_interferometer", str(ini)))
    a.output_measurement_set = str(tmp_path / "a.ms")
    result = a.run()
    assert result["ms_path"] == str(tmp_path / "a.ms")
    assert result["num_rows"] == 5 * 351

    b = fringe.Interferometer()
    b.set_sky_model(fringe.Sky.from_array(np.loadtxt(tmp_path / "sky.osm")))
    b.set_telescope_model(fringe.Telescope(str(source_dir / "telescope-models" / "vla-a.tm")))
    b.set_observation(fringe.Observation(
        phase_centre_ra_deg=200, phase_centre_dec_deg=30, start_frequency_hz=1.4e9,
        num_channels=3, frequency_inc_hz=4e6, start_time_utc="2024-03-15 08:24:00",
        length_sec=480, num_time_steps=5))
    b.station_type = "Isotropic beam"
    b.max_times_per_block = 2
    b.output_measurement_set = str(tmp_path / "b.ms")
    b.run()
    ma, mb = read_ms(tmp_path / "a.ms"), read_ms(tmp_path / "b.ms")
    for column in ma:
        assert_bitwise_equal(ma[column], mb[column])


def test_process_block_hook_gets_every_block(tmp_path, source_dir):
    class Collect(fringe.Interferometer):
        def process_block(self, block, block_index):
            self.seen.append((block_index, block.vis.copy()))

    sim = Collect(settings=str(write_settings(tmp_path, source_dir)))
    sim.seen = []
    sim.output_measurement_set = ""  # the hook alone: no file
    sim.run()
    expected = [b.vis for b in sim.blocks()]
    assert [i for i, _ in sim.seen] == [0, 1, 2]
    for (_, got), want in zip(sim.seen, expected):
        assert np.array_equal(got, want)


def test_process_block_exception_stops_the_run(tmp_path, source_dir):
    class Failing(fringe.Interferometer):
        def process_block(self, block, block_index):
            if block_index == 1:
                raise ValueError("consumer failed")

    sim = Failing(settings=str(write_settings(tmp_path, source_dir)))
    with pytest.raises(ValueError, match="consumer failed"):
        sim.run()
    assert not (tmp_path / "sim.ms").exists()  # the temporary MS was removed


def test_stopping_early_removes_the_files(tmp_path, source_dir):
    sim = fringe.Interferometer(settings=str(write_settings(tmp_path, source_dir)))
    with sim.blocks(write_files=True, queue_blocks=1) as blocks:
        first = next(blocks)
        assert first.block_index == 0
    assert blocks.result is None
    assert not (tmp_path / "sim.ms").exists()


def test_ctrl_c_stops_the_iterator(tmp_path, source_dir):
    # 40000 sources: the first block takes about 2 s on the two cores of the dev container;
    # SIGINT arrives after 0.05 s and must stop the wait for it (the iterator waits in 0.1 s
    # slices and checks Python's signals), not only once the block has come.
    sim = fringe.Interferometer(settings=str(write_settings(tmp_path, source_dir)))
    rng = np.random.default_rng(2)
    n = 40000
    sim.set_sky_model(fringe.Sky.from_array(np.column_stack(
        [rng.uniform(199.5, 200.5, n), rng.uniform(29.5, 30.5, n), np.ones(n)])))
    blocks = sim.blocks(write_files=True)
    timer = threading.Timer(0.05, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    got = []
    with pytest.raises(KeyboardInterrupt):
        for block in blocks:
            got.append(block)
    timer.join()
    assert got == []
    assert not (tmp_path / "sim.ms").exists()  # the run was stopped and its MS removed


def test_single_precision_is_close_to_double(tmp_path, source_dir):
    sim = fringe.Interferometer(precision="single", settings=str(write_settings(tmp_path, source_dir)))
    assert sim.precision == "single"
    single = np.concatenate([b.vis for b in sim], axis=0)
    sim.precision = "double"
    double = np.concatenate([b.vis for b in sim], axis=0)
    assert not np.array_equal(single, double)  # a different code path ...
    assert np.abs(single - double).max() < 1e-4 * np.abs(double).max()  # ... the same sums


def test_errors_raise_fringe_error(tmp_path, source_dir):
    with pytest.raises(fringe.Error, match="no sky model"):
        fringe.Interferometer().run()
    with pytest.raises(fringe.Error):
        fringe.Interferometer(precision="quadruple")
    sim = fringe.Interferometer(settings=str(write_settings(tmp_path, source_dir)))
    with pytest.raises(fringe.Error, match="'cpu' or 'gpu'"):
        sim.device = "tpu"
    with pytest.raises(fringe.Error):
        sim.station_type = "Parabolic dish"
    # An empty sky: the pipeline's error, raised by the iterator in place of a block.
    sim.set_sky_model(fringe.Sky())
    with pytest.raises(fringe.Error, match="empty"):
        list(sim)
    # An output that is not a Measurement Set is never replaced.
    precious = tmp_path / "precious.MS"
    precious.write_text("keep me")
    sim.set_sky_model(fringe.Sky.from_array(np.array([[200.0, 30.0, 1.0]])))
    sim.output_measurement_set = str(precious)
    with pytest.raises(fringe.Error):
        sim.run()
    assert precious.read_text() == "keep me"
    # A bad settings file names the problem.
    bad = write_settings(tmp_path, source_dir, "").read_text().replace("vla-a.tm", "nowhere.tm")
    (tmp_path / "bad.ini").write_text(bad)
    with pytest.raises(fringe.Error, match="nowhere.tm"):
        fringe.Interferometer(settings=str(tmp_path / "bad.ini"))


def test_gpu_blocks_equal_cpu(tmp_path, source_dir):
    if not fringe.built_with_cuda() or not os.path.exists("/dev/nvidia0"):
        pytest.skip("no GPU")
    sim = fringe.Interferometer(settings=str(write_settings(tmp_path, source_dir)))
    cpu = np.concatenate([b.vis for b in sim], axis=0)
    sim.device = "gpu"
    gpu = np.concatenate([b.vis for b in sim], axis=0)
    # Double precision on both: the same sums up to rounding (docs/gpu_predict.md).
    assert np.abs(gpu - cpu).max() <= 1e-5 * np.abs(cpu).max()
