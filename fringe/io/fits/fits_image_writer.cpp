#include "fringe/io/fits/fits_image_writer.h"

#include <fitsio.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxAxes = 4;
constexpr int kDoubleDigits = 17;  // significant digits of double keyword values (round trip)

// CFITSIO's text for a status code (and its message stack, which is then cleared).
std::string cfitsio_message(int status) {
  char text[FLEN_STATUS] = {0};
  fits_get_errstatus(status, text);
  std::string message = text;
  char detail[FLEN_ERRMSG] = {0};
  if (fits_read_errmsg(detail) && detail[0] != '\0' && message.find(detail) == std::string::npos) {
    message += " (" + std::string(detail) + ")";
  }
  fits_clear_errmsg();
  return message;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int status) {
  throw Error::in_file(path, 0, what + ": CFITSIO: " + cfitsio_message(status));
}

void check_header(const std::string& path, const FitsImageHeader& header) {
  const std::size_t n = header.axes.size();
  if (n < 1 || n > kMaxAxes) {
    throw Error::in_file(path, 0,
                         "cannot write a FITS image with " + std::to_string(n) +
                             " axes; expected 1 to " + std::to_string(kMaxAxes));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (header.axes[i].length < 1) {
      throw Error::in_file(path, 0,
                           "FITS axis " + std::to_string(i + 1) + " has length " +
                               std::to_string(header.axes[i].length) + "; expected at least 1");
    }
  }
}

void write_keyword(fitsfile* f, const FitsKeyword& k, int& status) {
  const char* comment = k.comment.empty() ? nullptr : k.comment.c_str();
  if (const auto* s = std::get_if<std::string>(&k.value)) {
    fits_write_key_str(f, k.name.c_str(), s->c_str(), comment, &status);
  } else if (const auto* d = std::get_if<double>(&k.value)) {
    fits_write_key_dbl(f, k.name.c_str(), *d, -kDoubleDigits, comment, &status);
  } else if (const auto* l = std::get_if<long>(&k.value)) {
    fits_write_key_lng(f, k.name.c_str(), *l, comment, &status);
  } else {
    fits_write_key_log(f, k.name.c_str(), std::get<bool>(k.value) ? 1 : 0, comment, &status);
  }
}

void write_axis(fitsfile* f, int n, const FitsAxis& a, int& status) {
  const std::string i = std::to_string(n);
  if (!a.ctype.empty()) {
    fits_write_key_str(f, ("CTYPE" + i).c_str(), a.ctype.c_str(),
                       a.comment.empty() ? nullptr : a.comment.c_str(), &status);
  }
  fits_write_key_dbl(f, ("CRVAL" + i).c_str(), a.crval, -kDoubleDigits, nullptr, &status);
  fits_write_key_dbl(f, ("CDELT" + i).c_str(), a.cdelt, -kDoubleDigits, nullptr, &status);
  fits_write_key_dbl(f, ("CRPIX" + i).c_str(), a.crpix, -kDoubleDigits, nullptr, &status);
  if (!a.cunit.empty())
    fits_write_key_str(f, ("CUNIT" + i).c_str(), a.cunit.c_str(), nullptr, &status);
}

}  // namespace

std::string fits_temporary_path(const std::string& final_path) {
  return temporary_path_for(final_path);
}

OutputTarget fits_target(const std::string& key, const std::string& path) {
  OutputTarget t;
  t.key = key;
  t.path = path;
  t.kind = OutputKind::Fits;
  return t;
}

struct FitsImageWriter::Impl {
  std::string path;
  std::string temp_path;
  std::unique_ptr<TemporaryOutput> temp;  // removed unless committed (also on a signal)
  std::size_t num_pixels = 1;
  bool keep_open = true;
  bool finished = false;
  bool failed = false;  // the temporary was given up after an error
  fitsfile* fptr = nullptr;

  // Closes the handle; returns the CFITSIO status (0 when nothing was open).
  int close() {
    int status = 0;
    if (fptr) fits_close_file(fptr, &status);
    fptr = nullptr;
    return status;
  }

  void open() {
    if (fptr) return;
    int status = 0;
    if (fits_open_diskfile(&fptr, temp_path.c_str(), READWRITE, &status)) {
      fptr = nullptr;
      fail(path, "cannot reopen the temporary FITS file '" + temp_path + "'", status);
    }
  }

  // Closes the handle (CFITSIO may try to write its buffers and fail: ignored) and removes
  // the temporary file; the final path is never touched. Never throws.
  void discard() noexcept {
    failed = true;
    if (fptr) {
      int status = 0;
      fits_close_file(fptr, &status);
      fits_clear_errmsg();
      fptr = nullptr;
    }
    try {
      if (temp) temp->discard();
    } catch (...) {
    }
  }

  template <typename T>
  void write(std::size_t offset, std::span<const T> values, int datatype) {
    if (finished) throw Error::in_file(path, 0, "cannot write to a FITS image after finish()");
    if (failed) throw Error::in_file(path, 0, "cannot write to a FITS image after an error");
    if (offset > num_pixels || values.size() > num_pixels - offset) {
      throw Error::in_file(path, 0,
                           "FITS write of " + std::to_string(values.size()) + " pixels at offset " +
                               std::to_string(offset) + " is past the end of the image (" +
                               std::to_string(num_pixels) + " pixels)");
    }
    if (values.empty()) return;
    open();
    int status = 0;
    // CFITSIO takes a non-const pointer but does not modify the values.
    fits_write_img(fptr, datatype, static_cast<LONGLONG>(offset) + 1,
                   static_cast<LONGLONG>(values.size()), const_cast<T*>(values.data()), &status);
    if (status) {
      const std::string message = cfitsio_message(status);
      discard();
      throw Error::in_file(
          path, 0, "cannot write pixels to '" + temp_path + "' (removed): CFITSIO: " + message);
    }
    if (!keep_open) {
      status = close();
      if (status) {
        const std::string message = cfitsio_message(status);
        discard();
        throw Error::in_file(path, 0,
                             "cannot close '" + temp_path + "' (removed): CFITSIO: " + message);
      }
    }
  }
};

FitsImageWriter::FitsImageWriter(std::string path, const FitsImageHeader& header, bool keep_open)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = std::move(path);
  m.keep_open = keep_open;
  check_header(m.path, header);
  // Only nothing or an earlier FITS file may be at the final path (output_guard.h).
  check_output(fits_target("", m.path));
  m.temp = std::make_unique<TemporaryOutput>(fits_target("", m.path));
  m.temp_path = m.temp->path();
  long naxes[kMaxAxes] = {1, 1, 1, 1};
  for (std::size_t i = 0; i < header.axes.size(); ++i) {
    naxes[i] = header.axes[i].length;
    m.num_pixels *= static_cast<std::size_t>(naxes[i]);
  }
  int status = 0;
  errno = 0;
  if (fits_create_diskfile(&m.fptr, m.temp_path.c_str(), &status)) {
    const std::string system = errno ? std::string(" [") + std::strerror(errno) + "]" : "";
    m.fptr = nullptr;
    fail(m.path, "cannot create the FITS file (as '" + m.temp_path + "')" + system, status);
  }
  const int bitpix = header.pixel_type == FitsPixelType::Float64 ? DOUBLE_IMG : FLOAT_IMG;
  fits_create_img(m.fptr, bitpix, static_cast<int>(header.axes.size()), naxes, &status);
  for (std::size_t i = 0; i < header.axes.size(); ++i) {
    write_axis(m.fptr, static_cast<int>(i) + 1, header.axes[i], status);
  }
  for (const FitsKeyword& k : header.keywords) write_keyword(m.fptr, k, status);
  fits_write_date(m.fptr, &status);
  for (const std::string& h : header.history) fits_write_history(m.fptr, h.c_str(), &status);
  if (status) {
    const std::string message = cfitsio_message(status);
    m.discard();
    throw Error::in_file(m.path, 0, "cannot write the FITS header: CFITSIO: " + message);
  }
  if (!keep_open) {
    status = m.close();
    if (status) {
      const std::string message = cfitsio_message(status);
      m.discard();
      throw Error::in_file(m.path, 0, "cannot close '" + m.temp_path + "': CFITSIO: " + message);
    }
  }
}

FitsImageWriter::~FitsImageWriter() {
  if (impl_ && !impl_->finished) impl_->discard();
}

const std::string& FitsImageWriter::path() const { return impl_->path; }
const std::string& FitsImageWriter::temporary_path() const { return impl_->temp_path; }
std::size_t FitsImageWriter::num_pixels() const { return impl_->num_pixels; }
bool FitsImageWriter::finished() const { return impl_->finished; }

void FitsImageWriter::write(std::size_t offset, std::span<const float> values) {
  impl_->write(offset, values, TFLOAT);
}

void FitsImageWriter::write(std::size_t offset, std::span<const double> values) {
  impl_->write(offset, values, TDOUBLE);
}

void FitsImageWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  if (m.failed) throw Error::in_file(m.path, 0, "finish() after an earlier write error");
  const int status = m.close();  // CFITSIO fills unwritten pixels with 0 when it closes
  if (status) {
    const std::string message = cfitsio_message(status);
    m.discard();
    throw Error::in_file(m.path, 0, "cannot close '" + m.temp_path + "': CFITSIO: " + message);
  }
  // Replaces an earlier FITS file only now, after checking again what is there.
  m.temp->commit();
  m.finished = true;
}

namespace {

template <typename V>
void write_whole_image(const std::string& path, const FitsImageHeader& header,
                       std::span<const V> values) {
  FitsImageWriter w(path, header);
  if (values.size() != w.num_pixels()) {
    throw Error::in_file(path, 0,
                         std::to_string(values.size()) + " values for a FITS image of " +
                             std::to_string(w.num_pixels()) + " pixels");
  }
  w.write(0, values);
  w.finish();
}

}  // namespace

void write_fits_image(const std::string& path, const FitsImageHeader& header,
                      std::span<const float> values) {
  write_whole_image(path, header, values);
}

void write_fits_image(const std::string& path, const FitsImageHeader& header,
                      std::span<const double> values) {
  write_whole_image(path, header, values);
}

}  // namespace fringe::io
