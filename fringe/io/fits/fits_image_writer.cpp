#include "fringe/io/fits/fits_image_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxAxes = 4;
constexpr int kDoubleDigits = 17;  // significant digits of double keyword values (round trip)

[[noreturn]] void fail(const std::string& path, const std::string& what, int status) {
  throw Error::in_file(path, 0, what + ": CFITSIO: " + cfitsio_message(status, true));
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

void write_keyword(FitsFile& f, const FitsKeyword& k, int& status) {
  if (const auto* s = std::get_if<std::string>(&k.value)) {
    f.write_key_string(k.name, *s, k.comment, status);
  } else if (const auto* d = std::get_if<double>(&k.value)) {
    f.write_key_double(k.name, *d, kDoubleDigits, k.comment, status);
  } else if (const auto* l = std::get_if<long>(&k.value)) {
    f.write_key_long(k.name, *l, k.comment, status);
  } else {
    f.write_key_bool(k.name, std::get<bool>(k.value), k.comment, status);
  }
}

void write_axis(FitsFile& f, int n, const FitsAxis& a, int& status) {
  const std::string i = std::to_string(n);
  if (!a.ctype.empty()) f.write_key_string("CTYPE" + i, a.ctype, a.comment, status);
  f.write_key_double("CRVAL" + i, a.crval, kDoubleDigits, "", status);
  f.write_key_double("CDELT" + i, a.cdelt, kDoubleDigits, "", status);
  f.write_key_double("CRPIX" + i, a.crpix, kDoubleDigits, "", status);
  if (!a.cunit.empty()) f.write_key_string("CUNIT" + i, a.cunit, "", status);
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
  FitsFile file;

  // Closes the handle; returns the CFITSIO status (0 when nothing was open).
  int close() { return file.close(); }

  void open() {
    if (file.is_open()) return;
    int status = 0;
    if (!file.open(temp_path, FitsOpen::ReadWritePlain, status)) {
      fail(path, "cannot reopen the temporary FITS file '" + temp_path + "'", status);
    }
  }

  // Closes the handle (CFITSIO may try to write its buffers and fail: ignored) and removes
  // the temporary file; the final path is never touched. Never throws.
  void discard() noexcept {
    failed = true;
    file.close_discarding_errors();
    try {
      if (temp) temp->discard();
    } catch (...) {
    }
  }

  template <typename T>
  void write(std::size_t offset, std::span<const T> values) {
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
    file.write_pixels(static_cast<long long>(offset) + 1, values, status);
    if (status) {
      const std::string message = cfitsio_message(status, true);
      discard();
      throw Error::in_file(
          path, 0, "cannot write pixels to '" + temp_path + "' (removed): CFITSIO: " + message);
    }
    if (!keep_open) {
      status = close();
      if (status) {
        const std::string message = cfitsio_message(status, true);
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
  if (!m.file.create(m.temp_path, status)) {
    const std::string system = errno ? std::string(" [") + std::strerror(errno) + "]" : "";
    fail(m.path, "cannot create the FITS file (as '" + m.temp_path + "')" + system, status);
  }
  m.file.create_image(header.pixel_type, std::span<const long>(naxes, header.axes.size()), status);
  for (std::size_t i = 0; i < header.axes.size(); ++i) {
    write_axis(m.file, static_cast<int>(i) + 1, header.axes[i], status);
  }
  for (const FitsKeyword& k : header.keywords) write_keyword(m.file, k, status);
  m.file.write_date(status);
  for (const std::string& h : header.history) m.file.write_history(h, status);
  if (status) {
    const std::string message = cfitsio_message(status, true);
    m.discard();
    throw Error::in_file(m.path, 0, "cannot write the FITS header: CFITSIO: " + message);
  }
  if (!keep_open) {
    status = m.close();
    if (status) {
      const std::string message = cfitsio_message(status, true);
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
  impl_->write(offset, values);
}

void FitsImageWriter::write(std::size_t offset, std::span<const double> values) {
  impl_->write(offset, values);
}

void FitsImageWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  if (m.failed) throw Error::in_file(m.path, 0, "finish() after an earlier write error");
  const int status = m.close();  // CFITSIO fills unwritten pixels with 0 when it closes
  if (status) {
    const std::string message = cfitsio_message(status, true);
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
