"""fringe.SettingsTree: OSKAR INI files with the app's schema validation; saved files equal
what the app's own --set writes (docs/python.md, "SettingsTree")."""
import shutil
import subprocess

import pytest

import fringe

EXAMPLE = "settings/examples/sim_interferometer.ini"


def test_round_trip(source_dir, tmp_path):
    original = source_dir / EXAMPLE
    tree = fringe.SettingsTree("sim_interferometer", str(original))
    assert tree.app == "sim_interferometer"
    assert tree["observation/num_channels"] == "3"
    tree["observation/num_channels"] = 5
    tree.set_value("observation/phase_centre_dec_deg", -45.5)
    tree["interferometer/max_time_samples_per_block"] = 4  # a key the file lacks
    out = tmp_path / "edited.ini"
    tree.save(str(out))
    assert tree.settings_file == str(out)
    back = fringe.SettingsTree("sim_interferometer", str(out))
    assert back.to_dict() == tree.to_dict()
    assert back["observation/num_channels"] == "5"
    assert back["observation/phase_centre_dec_deg"] == "-45.5"
    # Every line of the original that gives no edited key is kept as it was.
    edited = ("num_channels=", "phase_centre_dec_deg=")
    kept = [l for l in original.read_text().splitlines() if not l.startswith(edited)]
    new_lines = out.read_text().splitlines()
    assert all(l in new_lines for l in kept)


def test_save_equals_the_apps_set(source_dir, binary_dir, tmp_path):
    # sim_interferometer --set edits one key of a file in place; save() must write the same.
    app = binary_dir / "apps" / "sim_interferometer" / "sim_interferometer"
    assert app.exists(), f"{app} not built"
    a, b = tmp_path / "app.ini", tmp_path / "python.ini"
    shutil.copy(source_dir / EXAMPLE, a)
    shutil.copy(source_dir / EXAMPLE, b)
    subprocess.run([str(app), "--set", str(a), "observation/num_time_steps", "8"], check=True)
    subprocess.run([str(app), "--set", str(a), "observation/length", "01:00:00"], check=True)
    tree = fringe.SettingsTree("oskar_sim_interferometer", str(b))
    tree["observation/num_time_steps"] = 8
    tree["observation/length"] = "01:00:00"
    tree.save()  # back into the file it came from
    assert b.read_bytes() == a.read_bytes()


def test_invalid_value_raises_and_keeps_the_old(source_dir):
    tree = fringe.SettingsTree("sim_interferometer", str(source_dir / EXAMPLE))
    with pytest.raises(fringe.Error) as info:
        tree["observation/num_channels"] = "many"
    assert "observation/num_channels" in str(info.value) and "many" in str(info.value)
    assert tree["observation/num_channels"] == "3"
    with pytest.raises(fringe.Error, match="did you mean 'observation/num_channels'"):
        tree["observation/num_chanels"] = 3


def test_bad_file_names_file_and_line(tmp_path):
    path = tmp_path / "bad.ini"
    path.write_text("[General]\napp=sim_interferometer\n\n[observation]\nnum_time_steps=-2\n")
    with pytest.raises(fringe.Error) as info:
        fringe.SettingsTree("sim_interferometer", str(path))
    assert f"{path}:5:" in str(info.value)
    assert info.value.key == "observation/num_time_steps"


def test_unknown_key_is_a_warning(tmp_path):
    path = tmp_path / "typo.ini"
    path.write_text("[observation]\nnum_chanels=3\n")
    with pytest.warns(UserWarning, match="num_chanels"):
        tree = fringe.SettingsTree("sim_interferometer", str(path))
    assert any("num_chanels" in w for w in tree.warnings)


def test_save_refuses_other_files(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n")
    tree = fringe.SettingsTree("imager")
    tree["image/size"] = 256
    with pytest.raises(fringe.Error, match="notes.txt"):
        tree.save(str(notes))
    assert notes.read_text() == "keep me\n"
    with pytest.raises(fringe.Error):
        tree.save()  # no file loaded and none given
    out = tmp_path / "imager.ini"
    tree.save(str(out))
    assert out.read_text().startswith("[General]")
    tree["image/size"] = 512
    tree.save(str(out))  # an INI file: may be replaced
    assert fringe.SettingsTree("imager", str(out))["image/size"] == "512"


def test_dicts(source_dir):
    tree = fringe.SettingsTree("sim_interferometer", str(source_dir / EXAMPLE))
    given = tree.to_dict()
    assert given["observation/frequency_inc_hz"] == "25e6"
    everything = tree.to_dict(include_defaults=True)
    assert set(given) < set(everything)
    assert "interferometer/channel_bandwidth_hz" in everything
    with pytest.raises(fringe.Error):
        tree.from_dict({"observation/num_channels": 7, "observation/num_time_steps": "x"})
    assert tree["observation/num_channels"] == "3"  # all or nothing
    tree.from_dict({"observation/num_channels": 7, "observation/num_time_steps": 2})
    assert tree["observation/num_time_steps"] == "2"


def test_apps():
    assert fringe.SettingsTree("oskar_imager").app == "imager"
    for app in ("sim_beam_pattern", "calibrate"):
        assert len(fringe.SettingsTree(app).keys()) > 0
    with pytest.raises(fringe.Error, match="unknown app"):
        fringe.SettingsTree("oskar_sim_everything")


def test_validate_reports_missing_required(tmp_path):
    tree = fringe.SettingsTree("sim_interferometer")
    problems = tree.validate()
    assert any("observation/start_frequency_hz" in p for p in problems)


def test_objects_from_settings(source_dir):
    # The example names sky.osm and ../../telescope-models/ska-low-aa0.5.tm relative to its
    # folder, with no filters: the objects equal those loaded directly.
    tree = fringe.SettingsTree("sim_interferometer", str(source_dir / EXAMPLE))
    sky = fringe.Sky.from_settings(tree)
    direct = fringe.Sky.load(str(source_dir / "settings/examples/sky.osm"))
    assert sky.num_sources == direct.num_sources > 0
    assert (sky.to_array() == direct.to_array()).all()
    tel = fringe.Telescope.from_settings(tree)
    direct_tel = fringe.Telescope.load(str(source_dir / "telescope-models/ska-low-aa0.5.tm"))
    assert (tel.station_positions_enu() == direct_tel.station_positions_enu()).all()
    tree["telescope/input_directory"] = str(source_dir / "no_such.tm")
    with pytest.raises(fringe.Error, match="no_such.tm"):
        fringe.Telescope.from_settings(tree)
