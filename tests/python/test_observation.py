"""fringe.Observation: keywords in user units, derived channel frequencies and time centres,
the apps' range checks (docs/python.md, "Observation")."""
import datetime

import numpy as np
import pytest

import fringe


def mjd(*args):
    """MJD(UTC) of a calendar date-time, from Python's datetime (MJD 0 = 1858-11-17 00:00)."""
    delta = datetime.datetime(*args) - datetime.datetime(1858, 11, 17)
    return delta.days + delta.seconds / 86400 + delta.microseconds / 86400e6


def make(**changes):
    values = dict(phase_centre_ra_deg=60.0, phase_centre_dec_deg=-30.0, start_frequency_hz=100e6,
                  num_channels=3, frequency_inc_hz=25e6, start_time_utc=60676.5,
                  length_sec=1200.0, num_time_steps=4)
    values.update(changes)
    return fringe.Observation(**values)


def test_properties():
    o = make()
    assert o.phase_centre_ra_deg == pytest.approx(60.0, rel=1e-15)
    assert o.phase_centre_dec_rad == pytest.approx(np.radians(-30.0), rel=1e-15)
    assert (o.start_frequency_hz, o.num_channels, o.frequency_inc_hz) == (100e6, 3, 25e6)
    assert (o.start_mjd_utc, o.length_sec, o.num_time_steps) == (60676.5, 1200.0, 4)
    assert o.interval_sec == 300.0
    assert o.mode == "Tracking"
    # docs/conventions.md, "Time": channel c at start + c * inc, step i centred at
    # start + (i + 1/2) * interval.
    np.testing.assert_array_equal(o.frequencies_hz, 100e6 + 25e6 * np.arange(3))
    np.testing.assert_allclose(o.time_centres_mjd_utc,
                               60676.5 + (np.arange(4) + 0.5) * 300.0 / 86400.0,
                               rtol=0, atol=1e-11)
    assert "RA 60 deg" in repr(o)


def test_start_time_strings():
    expected = mjd(2025, 1, 1, 13, 17, 30)
    for text in ("2025-01-01 13:17:30", "2025-01-01T13:17:30.000", "01-01-2025 13:17:30",
                 "2025/01/01/13:17:30"):
        o = make(start_time_utc=text)
        assert o.start_mjd_utc == pytest.approx(expected, abs=1e-9), text
        assert o.start_time_text == text
    o.start_mjd_utc = "2000-01-01 12:00:00"
    assert o.start_mjd_utc == pytest.approx(51544.5, abs=1e-9)
    with pytest.raises(fringe.Error, match="yesterday"):
        make(start_time_utc="yesterday")


@pytest.mark.parametrize("field,value", [
    ("start_frequency_hz", -1.0), ("start_frequency_hz", 2e12), ("num_channels", 0),
    ("phase_centre_dec_deg", 91.0), ("length_sec", 0.0), ("num_time_steps", 0),
    ("frequency_inc_hz", -5.0), ("start_time_utc", 1000.0)])
def test_range_checks(field, value):
    with pytest.raises(fringe.Error) as info:
        make(**{field: value})
    assert info.value.field.startswith("ObservationConfig.")
    o = make()
    attribute = "start_mjd_utc" if field == "start_time_utc" else field
    before = getattr(o, attribute)
    with pytest.raises(fringe.Error):
        setattr(o, attribute, value)
    assert getattr(o, attribute) == before  # a rejected value changes nothing


def test_last_channel_limit():
    with pytest.raises(fringe.Error, match="last channel"):
        make(start_frequency_hz=1e9, num_channels=1001, frequency_inc_hz=1e9)


def test_from_settings_matches_keywords(source_dir):
    tree = fringe.SettingsTree("sim_interferometer",
                               str(source_dir / "settings/examples/sim_interferometer.ini"))
    o = fringe.Observation.from_settings(tree)
    # The example's values: RA 60, Dec -30, 3 x 25 MHz from 100 MHz, 4 steps over 20 min from
    # 2025-01-01 13:17:30.
    k = make(start_time_utc="2025-01-01 13:17:30")
    for name in ("phase_centre_ra_deg", "phase_centre_dec_deg", "start_frequency_hz",
                 "num_channels", "frequency_inc_hz", "start_mjd_utc", "length_sec",
                 "num_time_steps"):
        assert getattr(o, name) == pytest.approx(getattr(k, name), rel=1e-15), name
    assert o.mode == k.mode


def test_drift_scan_and_copy():
    o = make(mode="Drift scan")
    c = o.create_copy()
    c.mode = "Tracking"
    assert o.mode == "Drift scan" and c.mode == "Tracking"
    with pytest.raises(fringe.Error):
        make(mode="Tracking-ish")
