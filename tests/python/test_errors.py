"""fringe::Error reaches Python as fringe.Error (a RuntimeError) carrying fringe's message and
its context (docs/python.md, "Errors")."""
import pytest

import fringe


def test_classes():
    assert issubclass(fringe.Error, RuntimeError)
    for sub in (fringe.InputError, fringe.RunFailure, fringe.Cancelled):
        assert issubclass(sub, fringe.Error)


def test_missing_sky_file_names_the_file(tmp_path):
    path = str(tmp_path / "no_such_sky.osm")
    with pytest.raises(fringe.Error) as info:
        fringe.Sky.load(path)
    assert path in str(info.value)
    assert info.value.file == path
    assert info.value.message  # the sentence without the "file: " prefix
    assert info.value.message in str(info.value)


def test_missing_telescope_folder_names_it(tmp_path):
    path = str(tmp_path / "none.tm")
    with pytest.raises(fringe.Error) as info:
        fringe.Telescope.load(path)
    assert "none.tm" in str(info.value)


def test_bad_setting_names_key_and_value():
    tree = fringe.SettingsTree("sim_interferometer")
    with pytest.raises(fringe.Error) as info:
        tree["observation/num_channels"] = "three"
    assert info.value.key == "observation/num_channels"
    assert info.value.value == "three"
    assert "observation/num_channels" in str(info.value)


def test_bad_sky_row_names_row_and_column():
    with pytest.raises(fringe.Error, match=r"row 1, column 'dec_deg'"):
        fringe.Sky.from_array([[0.0, 0.0, 1.0], [0.0, 95.0, 1.0]])


def test_error_is_catchable_as_runtime_error():
    with pytest.raises(RuntimeError):
        fringe.Sky.from_array([[0.0, 0.0]])  # 2 columns: RA, Dec and I are required
