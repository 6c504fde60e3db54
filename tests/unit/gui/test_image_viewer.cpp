// Qt Test unit tests of the FITS image viewer widget (FitsViewer with its ImageCanvas): an
// image written here with CFITSIO loads off the GUI thread; the wheel zooms about the cursor,
// a drag pans, a double click fits; the pixel under the cursor is reported, and the status
// text gives the pixel, RA/Dec and the value with its unit; colour maps can be chosen.
#include <fitsio.h>

#include <QComboBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <vector>

#include "gui/fits_viewer.h"
#include "gui/image_canvas.h"

using namespace fringe::gui;

namespace {

// A 40 x 20 image with value 10 y + x, RA---SIN / DEC--SIN about (60, -30) deg.
void write_image(const QString& path) {
  int status = 0;
  fitsfile* f = nullptr;
  fits_create_file(&f, ("!" + path).toLocal8Bit().constData(), &status);
  long axes[2] = {40, 20};
  fits_create_img(f, FLOAT_IMG, 2, axes, &status);
  std::vector<float> data(40 * 20);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 40; ++x) data[y * 40 + x] = 10.0f * y + x;
  fits_write_img(f, TFLOAT, 1, static_cast<LONGLONG>(data.size()), data.data(), &status);
  char ra[] = "RA---SIN", dec[] = "DEC--SIN", unit[] = "JY/BEAM";
  double crval1 = 60, crval2 = -30, crpix1 = 21, crpix2 = 11, cdelt1 = -0.1, cdelt2 = 0.1;
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

void send_mouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
  const Qt::MouseButton button =
      type == QEvent::MouseMove ? Qt::NoButton : static_cast<Qt::MouseButton>(buttons.toInt());
  QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

}  // namespace

class TestImageViewer : public QObject {
  Q_OBJECT

 private slots:
  void zoom_pan_and_cursor_readout() {
    QTemporaryDir dir;
    const QString path = dir.filePath("image.fits");
    write_image(path);
    FitsViewer viewer;
    viewer.resize(700, 500);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QSignalSpy loaded(&viewer, &FitsViewer::loaded);
    viewer.open(path);
    // open() returns at once: the file loads on a worker thread and loaded() comes through the
    // event loop (busy() may already be false here when the small file loaded quickly).
    QCOMPARE(loaded.count(), 0);
    QVERIFY(loaded.wait(10000));
    QVERIFY(loaded.last().at(1).toString().isEmpty());
    QVERIFY(viewer.image());
    ImageCanvas* canvas = viewer.canvas();
    const double fitted = canvas->zoom();
    QVERIFY(fitted > 1.0);  // 40 pixels across a canvas of hundreds

    // The pixel under the centre of the canvas, in FITS orientation (y up).
    const QPointF centre(canvas->width() / 2.0, canvas->height() / 2.0);
    int x0 = -1, y0 = -1;
    QVERIFY(canvas->pixel_at(centre, x0, y0));
    QVERIFY(x0 >= 5 && x0 <= 35 && y0 >= 5 && y0 <= 15);
    // One screen step of `fitted` is one image pixel; up on the screen is up in FITS y.
    int tx = -1, ty = -1;
    QVERIFY(canvas->pixel_at(centre + QPointF(-3 * fitted, -2 * fitted), tx, ty));
    QCOMPARE(tx, x0 - 3);
    QCOMPARE(ty, y0 + 2);

    // Wheel: zooms by 1.25 per notch about the cursor (the pixel there stays there).
    const QPointF at = centre + QPointF(3.3 * fitted, -2.2 * fitted);
    int ax = -1, ay = -1;
    QVERIFY(canvas->pixel_at(at, ax, ay));
    QSignalSpy zoomed(canvas, &ImageCanvas::zoom_changed);
    QWheelEvent wheel(at, canvas->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas, &wheel);
    QCOMPARE(zoomed.count(), 1);
    QVERIFY(std::abs(canvas->zoom() - 1.25 * fitted) < 1e-9);
    int bx = -1, by = -1;
    QVERIFY(canvas->pixel_at(at, bx, by));
    QCOMPARE(bx, ax);
    QCOMPARE(by, ay);
    canvas->zoom_by(2.0);  // the + button
    QVERIFY(std::abs(canvas->zoom() - 2.5 * fitted) < 1e-9);

    // Drag: the image moves with the mouse.
    int px = -1, py = -1;
    QVERIFY(canvas->pixel_at(centre, px, py));
    send_mouse(canvas, QEvent::MouseButtonPress, centre, Qt::LeftButton);
    send_mouse(canvas, QEvent::MouseMove, centre + QPointF(40, 25), Qt::LeftButton);
    send_mouse(canvas, QEvent::MouseButtonRelease, centre + QPointF(40, 25), Qt::NoButton);
    int qx = -1, qy = -1;
    QVERIFY(canvas->pixel_at(centre + QPointF(40, 25), qx, qy));
    QCOMPARE(qx, px);
    QCOMPARE(qy, py);

    // Double click: back to the fitted view.
    send_mouse(canvas, QEvent::MouseButtonDblClick, centre, Qt::LeftButton);
    QVERIFY(std::abs(canvas->zoom() - fitted) < 1e-9);

    // Hover: the pixel is reported and described with its sky position and value.
    QSignalSpy hovered(canvas, &ImageCanvas::hovered);
    send_mouse(canvas, QEvent::MouseMove, centre, Qt::NoButton);
    QCOMPARE(hovered.count(), 1);
    const int hx = hovered.last().at(0).toInt(), hy = hovered.last().at(1).toInt();
    QCOMPARE(hx, x0);
    QCOMPARE(hy, y0);
    const QString text = viewer.describe(hx, hy);
    QVERIFY2(text.contains(QString("pixel (%1, %2)").arg(hx + 1).arg(hy + 1)), qPrintable(text));
    QVERIFY2(text.contains("RA 0") && text.contains("Dec -"), qPrintable(text));
    QVERIFY2(text.contains(QString("value %1 JY/BEAM").arg(10 * hy + hx)), qPrintable(text));
    // The reference pixel (FITS 21, 11) is the image's centre on the sky.
    QVERIFY2(viewer.describe(20, 10).contains("RA 04:00:00.000  Dec -30:00:00.00"),
             qPrintable(viewer.describe(20, 10)));
    QVERIFY(viewer.describe(40, 0).isEmpty());  // outside the image

    // Colour maps: the four of the docs, in the first combo box.
    auto* maps = viewer.findChild<QComboBox*>();
    QVERIFY(maps);
    for (const char* name : {"Grey", "Viridis", "Inferno", "Cubehelix"})
      QVERIFY2(maps->findText(name) >= 0, name);
    maps->setCurrentIndex(maps->findText("Grey"));
    QVERIFY(std::abs(canvas->zoom() - fitted) < 1e-9);  // re-rendering keeps the view
  }
};

QTEST_MAIN(TestImageViewer)
#include "test_image_viewer.moc"
