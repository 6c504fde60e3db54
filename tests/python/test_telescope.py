"""fringe.Telescope: a repository model loaded and checked against its layout files read with
numpy; ENU -> ECEF offsets against the rotation written out here; position overrides
(docs/python.md, "Telescope")."""
import numpy as np
import pytest

import fringe

AA05 = "telescope-models/ska-low-aa0.5.tm"


def enu_to_ecef_offset(enu, lon_deg, lat_deg):
    """ENU -> ECEF offset: the transpose of the usual ECEF -> ENU rotation (e.g. Hofmann-
    Wellenhof et al., GNSS, eq. 10.13), written out independently of fringe."""
    lon, lat = np.radians(lon_deg), np.radians(lat_deg)
    e, n, u = enu[:, 0], enu[:, 1], enu[:, 2]
    x = -np.sin(lon) * e - np.sin(lat) * np.cos(lon) * n + np.cos(lat) * np.cos(lon) * u
    y = np.cos(lon) * e - np.sin(lat) * np.sin(lon) * n + np.cos(lat) * np.sin(lon) * u
    z = np.cos(lat) * n + np.sin(lat) * u
    return np.stack([x, y, z], axis=1)


def test_ska_low_aa05_against_its_files(source_dir):
    tm = source_dir / AA05
    tel = fringe.Telescope.load(str(tm))
    layout = np.loadtxt(tm / "layout.txt", ndmin=2)
    lon, lat, alt = np.loadtxt(tm / "position.txt")
    assert tel.num_stations == layout.shape[0] == 4
    np.testing.assert_array_equal(tel.station_positions_enu(), layout[:, :3])
    np.testing.assert_array_equal(tel.station_positions_enu(true_positions=True), layout[:, :3])
    assert (tel.lon_deg, tel.lat_deg, tel.alt_m) == pytest.approx((lon, lat, alt), abs=1e-12)
    folders = sorted(p.name for p in tm.iterdir() if p.is_dir())
    assert tel.station_names == folders
    for i, name in enumerate(folders):
        elements = np.loadtxt(tm / name / "layout.txt", ndmin=2)
        assert tel.num_elements(i) == elements.shape[0]
        np.testing.assert_array_equal(tel.element_positions_enu(i), elements[:, :3])
        np.testing.assert_array_equal(tel.element_positions_enu(i, feed=1), elements[:, :3])
    np.testing.assert_allclose(tel.station_positions_ecef(),
                               enu_to_ecef_offset(layout, lon, lat), rtol=0, atol=1e-8)


def read_rows(path, width):
    """Rows of a layout file as OSKAR reads them: '#' starts a comment, commas or blanks
    separate values, missing trailing columns are 0."""
    rows = []
    for line in path.read_text().splitlines():
        values = line.split("#")[0].replace(",", " ").split()
        if values:
            rows.append([float(v) for v in values] + [0.0] * (width - len(values)))
    return np.array(rows)


def test_position_errors_give_true_positions(source_dir):
    tm = source_dir / "tests/data/telescope/enu_errors.tm"
    tel = fringe.Telescope(str(tm))
    rows = read_rows(tm / "layout.txt", 6)  # E N U dE dN dU [m]
    assert rows[:, 3:].any()  # the file has errors to add
    np.testing.assert_array_equal(tel.station_positions_enu(), rows[:, :3])
    np.testing.assert_array_equal(tel.station_positions_enu(true_positions=True),
                                  rows[:, :3] + rows[:, 3:])


def test_station_type_map(source_dir):
    tm = source_dir / "tests/data/telescope/type_map.tm"
    tel = fringe.Telescope.load(str(tm))
    folder_of = np.loadtxt(tm / "station_type_map.txt", dtype=int)  # 0 = type_a, 1 = type_b
    layouts = [np.loadtxt(tm / f / "layout.txt", ndmin=2) for f in ("type_a", "type_b")]
    for station, folder in enumerate(folder_of):
        expected = np.zeros((layouts[folder].shape[0], 3))
        expected[:, :2] = layouts[folder][:, :2]  # missing U column = 0
        np.testing.assert_array_equal(tel.element_positions_enu(station), expected)
    index = tel.station_model_index
    assert len(set(index)) == tel.num_station_models == 2
    # Stations of the same folder share a model.
    assert all((index[a] == index[b]) == (folder_of[a] == folder_of[b])
               for a in range(4) for b in range(4))


def test_set_station_coords_enu(source_dir):
    tel = fringe.Telescope.load(str(source_dir / AA05))
    copy = tel.create_copy()
    e = np.array([0.0, 100.0, 0.0, -50.0])
    n = np.array([0.0, 0.0, 200.0, 25.0])
    u = np.array([0.0, 1.0, 2.0, 3.0])
    tel.set_station_coords_enu(21.443, -30.713, 1050.0, e, n, u, z_err=[0.0, 0.0, 0.0, 0.5])
    np.testing.assert_array_equal(tel.station_positions_enu(), np.stack([e, n, u], axis=1))
    np.testing.assert_array_equal(tel.station_positions_enu(true_positions=True)[:, 2],
                                  u + [0, 0, 0, 0.5])
    assert (tel.lon_deg, tel.lat_deg, tel.alt_m) == pytest.approx((21.443, -30.713, 1050.0))
    np.testing.assert_allclose(tel.station_positions_ecef(),
                               enu_to_ecef_offset(np.stack([e, n, u], axis=1), 21.443, -30.713),
                               rtol=0, atol=1e-9)
    assert copy.lon_deg != tel.lon_deg  # create_copy is deep
    with pytest.raises(fringe.Error, match="4 stations"):
        tel.set_station_coords_enu(0.0, 0.0, 0.0, e[:3], n[:3], u[:3])


def test_set_position_keeps_enu(source_dir):
    tel = fringe.Telescope.load(str(source_dir / AA05))
    enu = tel.station_positions_enu()
    tel.set_position(10.0, 45.0, 0.0)
    np.testing.assert_array_equal(tel.station_positions_enu(), enu)
    np.testing.assert_allclose(tel.station_positions_ecef(), enu_to_ecef_offset(enu, 10.0, 45.0),
                               rtol=0, atol=1e-8)


def test_bad_station_index(source_dir):
    tel = fringe.Telescope.load(str(source_dir / AA05))
    with pytest.raises(fringe.Error, match="out of range"):
        tel.element_positions_enu(4)
