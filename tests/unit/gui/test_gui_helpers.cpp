// Qt Test unit tests of the GUI's non-widget helpers: progress lines, axis ticks, colour
// maps, FITS image loading (files written here with CFITSIO), the SIN/TAN pixel -> sky
// transform against closed-form cases, RA/Dec formatting, rendering, and the station layout
// of telescope models (a hand-written one and the shipped VLA model).
#include <fitsio.h>

#include <QColor>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <numbers>

#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_block.h"
#include "gui/colour_map.h"
#include "gui/fits_image.h"
#include "gui/fits_viewer.h"
#include "gui/plot_data.h"
#include "gui/progress_line.h"
#include "gui/scatter_plot.h"

using namespace fringe::gui;

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// |a - b| for angles in degrees, modulo 360.
double angle_diff(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

// Writes a float image [planes][h][w] with value 100 p + 10 y + x and an SIN header.
void write_fits(const QString& path, int w, int h, int planes) {
  int status = 0;
  fitsfile* f = nullptr;
  const QByteArray name = ("!" + path).toLocal8Bit();
  fits_create_file(&f, name.constData(), &status);
  long axes[3] = {w, h, planes};
  fits_create_img(f, FLOAT_IMG, 3, axes, &status);
  std::vector<float> data(static_cast<size_t>(w * h * planes));
  for (int p = 0; p < planes; ++p)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) data[(p * h + y) * w + x] = 100.0f * p + 10.0f * y + x;
  data[1] = std::numeric_limits<float>::quiet_NaN();  // a blank at (1, 0) of plane 0
  fits_write_img(f, TFLOAT, 1, static_cast<LONGLONG>(data.size()), data.data(), &status);
  char ra[] = "RA---SIN", dec[] = "DEC--SIN", unit[] = "JY/BEAM";
  double crval1 = 60, crval2 = -30, crpix1 = 3, crpix2 = 2, cdelt1 = -0.5, cdelt2 = 0.5;
  fits_write_key(f, TSTRING, "CTYPE1", ra, nullptr, &status);
  fits_write_key(f, TSTRING, "CTYPE2", dec, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CRVAL1", &crval1, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CRVAL2", &crval2, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CRPIX1", &crpix1, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CRPIX2", &crpix2, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CDELT1", &cdelt1, nullptr, &status);
  fits_write_key(f, TDOUBLE, "CDELT2", &cdelt2, nullptr, &status);
  fits_write_key(f, TSTRING, "BUNIT", unit, nullptr, &status);
  fits_close_file(f, &status);
  QCOMPARE(status, 0);
}

FitsWcs wcs_at(double ra0, double dec0, const char* proj, double cdelt) {
  FitsWcs w;
  w.ctype[0] = QString("RA---") + proj;
  w.ctype[1] = QString("DEC--") + proj;
  w.projection = proj;
  w.frame = SkyFrame::Equatorial;
  w.crval[0] = ra0;
  w.crval[1] = dec0;
  w.crpix[0] = w.crpix[1] = 1;  // pixel (0, 0) is the reference
  w.cd[0][0] = -cdelt;
  w.cd[1][1] = cdelt;
  w.cd[0][1] = w.cd[1][0] = 0;
  return w;
}

}  // namespace

class TestGuiHelpers : public QObject {
  Q_OBJECT

 private slots:
  void progress_lines() {
    QCOMPARE(parse_progress("predict: 40%").value(), 40.0);
    QCOMPARE(parse_progress("[####......]  45% predict").value(), 45.0);
    QCOMPARE(parse_progress("a 10% then 12.5 %").value(), 12.5);
    QVERIFY(!parse_progress("no percentage here").has_value());
    QVERIFY(!parse_progress("200%").has_value());  // not a progress value
  }

  void ticks() {
    QCOMPARE(nice_ticks(0, 10, 5), (QVector<double>{0, 2, 4, 6, 8, 10}));
    QCOMPARE(nice_ticks(-3700, 400, 5), (QVector<double>{-3000, -2000, -1000, 0}));
    QVERIFY(nice_ticks(1, 1).isEmpty());
  }

  void colour_maps() {
    // Green (2011): cubehelix runs from black to white.
    const auto ch = colour_table(ColourMap::Cubehelix);
    QCOMPARE(QColor(ch[0]), QColor(0, 0, 0));
    QCOMPARE(QColor(ch[255]), QColor(255, 255, 255));
    const auto v = colour_table(ColourMap::Viridis);
    QCOMPARE(QColor(v[0]), QColor(0x44, 0x01, 0x54));
    QCOMPARE(QColor(v[255]), QColor(0xfd, 0xe7, 0x25));
    const auto g = colour_table(ColourMap::Grey);
    QCOMPARE(qGray(g[128]), 128);
    // Grey levels increase monotonically in every map but Cubehelix's hue wiggles.
    for (auto m : {ColourMap::Grey, ColourMap::Viridis, ColourMap::Inferno}) {
      const auto t = colour_table(m);
      QVERIFY(qGray(t[255]) > qGray(t[0]));
    }
  }

  void fits_load_and_wcs() {
    QTemporaryDir dir;
    const QString path = dir.filePath("img.fits");
    write_fits(path, 5, 4, 2);
    const FitsImage img = load_fits_image(path, 1);
    QCOMPARE(img.width, 5);
    QCOMPARE(img.height, 4);
    QCOMPARE(img.num_planes, 2);
    QCOMPARE(img.value(3, 2), 100.0f + 20.0f + 3.0f);
    QCOMPARE(img.bunit, QString("JY/BEAM"));
    QVERIFY(img.wcs.supported());
    QCOMPARE(img.wcs.projection, QString("SIN"));
    const FitsImage first = load_fits_image(path, 0);
    QVERIFY(std::isnan(first.value(1, 0)));
    QVERIFY_THROWS_EXCEPTION(std::exception, load_fits_image(path, 2));
    QVERIFY_THROWS_EXCEPTION(std::exception, load_fits_image(dir.filePath("none.fits")));
    // The reference pixel (FITS 3, 2 = 0-based 2, 1) is at CRVAL.
    auto c = pixel_to_sky(img.wcs, 2, 1);
    QVERIFY(c);
    QVERIFY(std::abs(c->lon_deg - 60) < 1e-12);
    QVERIFY(std::abs(c->lat_deg + 30) < 1e-12);
    // Along the Dec axis through the reference (l = 0): dec = dec0 + asin(m), RA unchanged.
    for (int k : {-1, 1, 2}) {
      auto s = pixel_to_sky(img.wcs, 2, 1 + k);
      const double m = k * 0.5 * kDeg;
      QVERIFY(std::abs(s->lat_deg - (-30.0 + std::asin(m) / kDeg)) < 1e-10);
      QVERIFY(std::abs(s->lon_deg - 60.0) < 1e-10);
    }
    // RA increases to the left (CDELT1 < 0).
    QVERIFY(pixel_to_sky(img.wcs, 1, 1)->lon_deg > 60.0);
  }

  void sin_and_tan_closed_forms() {
    // On the equator, along the RA axis: SIN gives ra - ra0 = asin(l), TAN atan(x).
    const FitsWcs sin = wcs_at(10, 0, "SIN", 2.0), tan = wcs_at(10, 0, "TAN", 2.0);
    for (int k : {1, 5, 20}) {
      const double x = -2.0 * k * kDeg;  // intermediate coordinate (rad), CD1_1 < 0
      const auto s = pixel_to_sky(sin, k, 0);
      const auto t = pixel_to_sky(tan, k, 0);
      QVERIFY(angle_diff(s->lon_deg, 10.0 + std::asin(x) / kDeg) < 1e-10);
      QVERIFY(angle_diff(t->lon_deg, 10.0 + std::atan(x) / kDeg) < 1e-10);
      QVERIFY(std::abs(s->lat_deg) < 1e-10);
      QVERIFY(std::abs(t->lat_deg) < 1e-10);
    }
    // At the pole, an offset m along Dec (l = 0): dec = asin(n) = 90 - asin(m).
    const FitsWcs pole = wcs_at(0, 90, "SIN", 1.0);
    const auto p = pixel_to_sky(pole, 0, 10);
    QVERIFY(std::abs(p->lat_deg - (90.0 - std::asin(10 * kDeg) / kDeg)) < 1e-9);
    // Beyond l^2 + m^2 = 1 there is no sky in SIN; unsupported projections give nothing.
    QVERIFY(!pixel_to_sky(sin, 40, 0));
    QVERIFY(!pixel_to_sky(wcs_at(0, 0, "CAR", 1.0), 1, 1));
  }

  void wcs_agrees_with_astropy() {
    // External truth: astropy.wcs (wcslib) on a header with CROTA2 and unequal CDELTs, and on
    // one with a CD matrix. Skipped where Debian's python3-astropy is not installed.
    if (QProcess::execute("/usr/bin/python3", {"-c", "import astropy.wcs"}) != 0)
      QSKIP("python3-astropy is not installed");
    QTemporaryDir dir;
    struct Case {
      const char* name;
      QList<QPair<QByteArray, double>> keys;
      QList<QPair<QByteArray, QByteArray>> strings;
    };
    const Case cases[] = {
        {"crota",
         {{"CRPIX1", 10.5},
          {"CRPIX2", 20.25},
          {"CDELT1", -0.01},
          {"CDELT2", 0.02},
          {"CROTA2", 30.0}}},
        {"cd",
         {{"CRPIX1", -3.0},
          {"CRPIX2", 7.0},
          {"CD1_1", -0.02},
          {"CD1_2", 0.005},
          {"CD2_1", 0.004},
          {"CD2_2", 0.015}}},
        // sim_beam_pattern's Horizon frame (OSKAR's): azimuth and elevation about the zenith.
        {"horizon",
         {{"CRPIX1", 33.0},
          {"CRPIX2", 33.0},
          {"CRVAL1", 0.0},
          {"CRVAL2", 90.0},
          {"CDELT1", std::asin(2.0 / 64.0) / kDeg},
          {"CDELT2", std::asin(2.0 / 64.0) / kDeg},
          {"LONPOLE", 0.0},
          {"LATPOLE", 90.0}},
         {{"CTYPE1", "HOLN-SIN"}, {"CTYPE2", "HOLT-SIN"}}},
        // A pole-centred RA/Dec image without LONPOLE (default 0 there) and a TAN one.
        {"pole", {{"CRVAL2", 90.0}, {"CDELT1", -0.3}, {"CDELT2", 0.3}}},
        {"tan",
         {{"CRVAL2", -60.0}, {"CDELT1", -0.4}, {"CDELT2", 0.4}},
         {{"CTYPE1", "RA---TAN"}, {"CTYPE2", "DEC--TAN"}}},
    };
    for (const auto& c : cases) {
      const QString path = dir.filePath(QString(c.name) + ".fits");
      write_fits(path, 5, 4, 1);
      int status = 0;
      fitsfile* f = nullptr;
      fits_open_file(&f, path.toLocal8Bit().constData(), READWRITE, &status);
      double crval2 = 52.5;
      fits_update_key(f, TDOUBLE, "CRVAL2", &crval2, nullptr, &status);
      for (auto [k, v] : c.keys) fits_update_key(f, TDOUBLE, k.constData(), &v, nullptr, &status);
      for (auto [k, v] : c.strings)
        fits_update_key(f, TSTRING, k.constData(), v.data(), nullptr, &status);
      fits_close_file(f, &status);
      QCOMPARE(status, 0);
      const FitsImage img = load_fits_image(path);
      const QString script = QString(
                                 "from astropy.io import fits\nfrom astropy.wcs import WCS\n"
                                 "w = WCS(fits.getheader('%1'), naxis=2)\n"
                                 "for x, y in [(0,0),(4,3),(-50,80),(120,-40),(40,21)]:\n"
                                 "    r, d = w.all_pix2world([[x, y]], 0)[0]\n"
                                 "    print('%.12f %.12f' % (r, d))\n")
                                 .arg(path);
      QProcess py;
      py.start("/usr/bin/python3", {"-c", script});
      QVERIFY(py.waitForFinished(60000));
      const QStringList lines =
          QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 5);
      const int px[5][2] = {{0, 0}, {4, 3}, {-50, 80}, {120, -40}, {40, 21}};
      for (int i = 0; i < 5; ++i) {
        const auto ours = pixel_to_sky(img.wcs, px[i][0], px[i][1]);
        const double ra = lines[i].section(' ', 0, 0).toDouble();
        const double dec = lines[i].section(' ', 1, 1).toDouble();
        // Off the sky (outside the SIN circle) for both, or on it for both.
        QCOMPARE(bool(ours), !std::isnan(ra));
        if (!ours) continue;
        QVERIFY2(angle_diff(ours->lon_deg, ra) < 1e-9 && std::abs(ours->lat_deg - dec) < 1e-9,
                 qPrintable(QString("%1 pixel %2: ours %3 %4, astropy %5 %6")
                                .arg(c.name)
                                .arg(i)
                                .arg(ours->lon_deg, 0, 'f', 12)
                                .arg(ours->lat_deg, 0, 'f', 12)
                                .arg(ra, 0, 'f', 12)
                                .arg(dec, 0, 'f', 12)));
      }
    }
  }

  void horizon_frame_is_azimuth_elevation() {
    // sim_beam_pattern's Horizon-frame image (docs/beam_pattern.md): pixel (i, j) has
    // l = -(i - W/2) c (East), m = (j - H/2) c (North); az = atan2(l, m), el = acos(|(l, m)|).
    QTemporaryDir dir;
    const QString path = dir.filePath("horizon.fits");
    write_fits(path, 64, 64, 1);
    int status = 0;
    fitsfile* f = nullptr;
    fits_open_file(&f, path.toLocal8Bit().constData(), READWRITE, &status);
    const double c = std::asin(2.0 / 64.0);
    for (auto [k, v] : QList<QPair<const char*, double>>{{"CRPIX1", 33},
                                                         {"CRPIX2", 33},
                                                         {"CRVAL1", 0},
                                                         {"CRVAL2", 90},
                                                         {"CDELT1", c / kDeg},
                                                         {"CDELT2", c / kDeg},
                                                         {"LONPOLE", 0},
                                                         {"LATPOLE", 90}})
      fits_update_key(f, TDOUBLE, k, &v, nullptr, &status);
    char lon[] = "HOLN-SIN", lat[] = "HOLT-SIN";
    fits_update_key(f, TSTRING, "CTYPE1", lon, nullptr, &status);
    fits_update_key(f, TSTRING, "CTYPE2", lat, nullptr, &status);
    fits_close_file(f, &status);
    QCOMPARE(status, 0);
    const FitsImage img = load_fits_image(path);
    QCOMPARE(img.wcs.frame, SkyFrame::Horizon);
    QVERIFY(img.wcs.supported());
    QCOMPARE(img.wcs.lon_name(), QString("Az"));
    QCOMPARE(img.wcs.lat_name(), QString("El"));
    for (auto [i, j] : QList<QPair<int, int>>{{32, 50}, {10, 32}, {50, 32}, {32, 5}, {45, 12}}) {
      const double l = -(i - 32) * c, m = (j - 32) * c;
      double az = std::atan2(l, m) / kDeg;
      if (az < 0) az += 360.0;
      const double el = std::acos(std::hypot(l, m)) / kDeg;
      const auto s = pixel_to_sky(img.wcs, i, j);
      QVERIFY(s);
      QVERIFY2(angle_diff(s->lon_deg, az) < 1e-9 && std::abs(s->lat_deg - el) < 1e-9,
               qPrintable(QString("pixel %1 %2: az %3 el %4, expected %5 %6")
                              .arg(i)
                              .arg(j)
                              .arg(s->lon_deg)
                              .arg(s->lat_deg)
                              .arg(az)
                              .arg(el)));
    }
    // North is up, East to the left (docs/beam_pattern.md).
    QVERIFY(angle_diff(pixel_to_sky(img.wcs, 32, 50)->lon_deg, 0.0) < 1e-9);
    QVERIFY(angle_diff(pixel_to_sky(img.wcs, 10, 32)->lon_deg, 90.0) < 1e-9);
    QVERIFY(angle_diff(pixel_to_sky(img.wcs, 50, 32)->lon_deg, 270.0) < 1e-9);
    QVERIFY(!pixel_to_sky(img.wcs, 0, 0));  // a corner: outside the hemisphere
    // The viewer's status line names azimuth and elevation, and still gives pixel and value.
    FitsViewer viewer;
    QSignalSpy loaded(&viewer, &FitsViewer::loaded);
    viewer.open(path);
    QVERIFY(loaded.wait(10000));
    const QString text = viewer.describe(10, 32);
    QVERIFY2(text.contains("Az 90.0000") && text.contains("El ") &&
                 text.contains("pixel (11, 33)") && text.contains("value 330"),
             qPrintable(text));
    QVERIFY(viewer.describe(0, 0).contains("outside the projection"));
    QVERIFY2(viewer.title().contains("Horizon frame: azimuth (Az"), qPrintable(viewer.title()));
    // An image without a celestial WCS still shows pixel and value.
    FitsImage plain;
    plain.wcs.ctype[0] = "X";
    QVERIFY(!pixel_to_sky(plain.wcs, 1, 1));
  }

  void sexagesimal() {
    QCOMPARE(format_ra(60.0), QString("04:00:00.000"));
    QCOMPARE(format_ra(359.9999999999), QString("00:00:00.000"));
    QCOMPARE(format_ra(15.0 * (1 + 2 / 60.0 + 3.5 / 3600.0)), QString("01:02:03.500"));
    QCOMPARE(format_dec(-30.5), QString("-30:30:00.00"));
    QCOMPARE(format_dec(45.0 + 1 / 60.0 + 2.25 / 3600.0), QString("+45:01:02.25"));
    QCOMPARE(format_dec(-0.5 / 3600.0), QString("-00:00:00.50"));
  }

  void rendering() {
    FitsImage img;
    img.width = 10;
    img.height = 10;
    for (int i = 0; i < 100; ++i) img.pixels.push_back(static_cast<float>(i));
    img.pixels[55] = std::numeric_limits<float>::quiet_NaN();
    const auto table = colour_table(ColourMap::Grey);
    const auto r = render_fits(img, table, Scale::Linear, 100.0);
    QCOMPARE(r.low, 0.0);
    QCOMPARE(r.high, 99.0);
    // FITS row 0 is drawn at the bottom.
    QCOMPARE(r.image.pixel(0, 9), table[0]);
    QCOMPARE(r.image.pixel(9, 0), table[255]);
    QCOMPARE(qAlpha(r.image.pixel(5, 4)), 0);  // the blank (x 5, y 5)
    // Clipping narrows the limits.
    const auto clipped = render_fits(img, table, Scale::Linear, 90.0);
    QVERIFY(clipped.low > 0 && clipped.high < 99);
  }

  void station_layout_of_written_model() {
    QTemporaryDir dir;
    const QString tm = dir.filePath("test.tm");
    QDir().mkpath(tm);
    QFile pos(tm + "/position.txt"), layout(tm + "/layout.txt");
    QVERIFY(pos.open(QIODevice::WriteOnly) && layout.open(QIODevice::WriteOnly));
    pos.write("20.0 -30.0\n");
    layout.write("0 0\n100 0\n0 -50\n-25.5 12.25\n");
    pos.close();
    layout.close();
    const StationLayout l = load_station_layout(tm);
    QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
    QCOMPARE(l.measured_en.size(), 4);
    QCOMPARE(l.measured_en[1], QPointF(100, 0));
    QCOMPARE(l.measured_en[3], QPointF(-25.5, 12.25));
    QCOMPARE(l.true_en, l.measured_en);  // no error columns
    QCOMPARE(l.lat_deg, -30.0);
    const StationLayout bad = load_station_layout(dir.filePath("missing.tm"));
    QVERIFY(!bad.error.isEmpty());
  }

  void station_layout_of_shipped_vla() {
    // telescope-models/README.md: VLA A has 27 antennas; A spans ~36 km.
    const StationLayout l = load_station_layout(FRINGE_SOURCE_DIR "/telescope-models/vla-a.tm");
    QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
    QCOMPARE(l.measured_en.size(), 27);
    double max_r = 0;
    for (const auto& p : l.measured_en) max_r = std::max(max_r, std::hypot(p.x(), p.y()));
    QVERIFY(max_r > 15e3 && max_r < 25e3);
  }

  void uv_coverage_of_written_ms() {
    QTemporaryDir dir;
    fringe::vis::VisMeta meta;
    meta.station_names = {"a", "b", "c"};
    meta.station_ecef_m = {{{-1601614.0, -5042001.0, 3554652.0}},
                           {{-1601714.0, -5041901.0, 3554752.0}},
                           {{-1601514.0, -5042101.0, 3554552.0}}};
    meta.array_centre_ecef_m = meta.station_ecef_m[0];
    meta.num_channels = 1;
    meta.start_frequency_hz = 100e6;
    meta.frequency_inc_hz = 1e6;
    meta.num_times = 1;
    meta.start_time_mjd_utc = 60000.5;
    meta.time_inc_sec = 10;
    meta.pol_mode = fringe::vis::PolMode::Scalar;
    meta.write_autocorrelations = true;  // autos sit at uv = 0 and are not plotted
    fringe::vis::VisBlock<float> block(1, 1, 3, fringe::vis::PolMode::Scalar, true, true);
    block.time_mjd_utc_sec(0) = (60000.5 * 86400.0) + 5;
    block.frequency_hz(0) = 100e6;
    const std::array<double, 3> uvw[3] = {{{10, 20, 1}}, {{-30, 5, 2}}, {{7, -8, 3}}};
    for (int b = 0; b < 3; ++b) block.uvw(0, b) = uvw[b];
    const QString path = dir.filePath("t.ms");
    fringe::io::MsWriter w(path.toStdString(), meta);
    w.append_block(block);
    w.finish();
    const UvCoverage uv = load_uv_coverage(path);
    QVERIFY2(uv.error.isEmpty(), qPrintable(uv.error));
    QCOMPARE(uv.num_stations, 3);
    QCOMPARE(uv.num_rows, size_t(6));  // 3 autos + 3 crosses
    QCOMPARE(uv.rows_used, size_t(3));
    QCOMPARE(uv.uv.size(), 6);
    for (const auto& b : uvw) {  // each baseline and its mirror image
      QVERIFY(uv.uv.contains(QPointF(b[0], b[1])));
      QVERIFY(uv.uv.contains(QPointF(-b[0], -b[1])));
    }
    QCOMPARE(uv.freq_min_hz, 100e6);
  }

  void uv_coverage_error_is_reported() {
    QTemporaryDir dir;
    const UvCoverage uv = load_uv_coverage(dir.filePath("nothing.ms"));
    QVERIFY(!uv.error.isEmpty());
    QVERIFY(uv.uv.isEmpty());
  }
};

QTEST_MAIN(TestGuiHelpers)
#include "test_gui_helpers.moc"
