#include "fringe/io/fits/fits_file.h"

#include <fitsio.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/core/resources.h"

namespace fringe::io {

namespace {

fitsfile* handle(void* p) { return static_cast<fitsfile*>(p); }

}  // namespace

std::string cfitsio_message(int status, bool with_detail) {
  char text[FLEN_STATUS] = {0};
  fits_get_errstatus(status, text);
  std::string message = text;
  if (with_detail) {
    char detail[FLEN_ERRMSG] = {0};
    if (fits_read_errmsg(detail) && detail[0] != '\0' &&
        message.find(detail) == std::string::npos) {
      message += " (" + std::string(detail) + ")";
    }
  }
  fits_clear_errmsg();
  return message;
}

FitsFile::FitsFile(const std::string& path, FitsOpen mode) {
  int status = 0;
  if (!open(path, mode, status)) {
    throw Error::in_file(path, 0, "cannot open FITS file: " + cfitsio_message(status));
  }
}

FitsFile::~FitsFile() {
  if (fptr_) {
    int status = 0;
    fits_close_file(handle(fptr_), &status);
  }
}

FitsFile::FitsFile(FitsFile&& other) noexcept
    : path_(std::move(other.path_)), fptr_(std::exchange(other.fptr_, nullptr)) {}

FitsFile& FitsFile::operator=(FitsFile&& other) noexcept {
  if (this != &other) {
    close_discarding_errors();
    path_ = std::move(other.path_);
    fptr_ = std::exchange(other.fptr_, nullptr);
  }
  return *this;
}

bool FitsFile::open(const std::string& path, FitsOpen mode, int& status) {
  if (fptr_) close();
  path_ = path;
  fitsfile* f = nullptr;
  switch (mode) {
    case FitsOpen::ReadOnly:
      fits_open_file(&f, path.c_str(), READONLY, &status);
      break;
    case FitsOpen::ReadOnlyImage:
      fits_open_image(&f, path.c_str(), READONLY, &status);
      break;
    case FitsOpen::ReadOnlyPlain:
      fits_open_diskfile(&f, path.c_str(), READONLY, &status);
      break;
    case FitsOpen::ReadWritePlain:
      fits_open_diskfile(&f, path.c_str(), READWRITE, &status);
      break;
  }
  fptr_ = status == 0 ? f : nullptr;
  return status == 0;
}

bool FitsFile::create(const std::string& path, int& status) {
  if (fptr_) close();
  path_ = path;
  fitsfile* f = nullptr;
  fits_create_diskfile(&f, path_.c_str(), &status);
  fptr_ = status == 0 ? f : nullptr;
  return status == 0;
}

int FitsFile::close() {
  int status = 0;
  if (fptr_) fits_close_file(handle(fptr_), &status);
  fptr_ = nullptr;
  return status;
}

void FitsFile::close_discarding_errors() noexcept {
  if (fptr_) {
    int status = 0;
    fits_close_file(handle(fptr_), &status);
    fits_clear_errmsg();
    fptr_ = nullptr;
  }
}

void FitsFile::check(int status, const std::string& what) const {
  if (status == 0) return;
  throw Error::in_file(path_, 0, what + ": " + cfitsio_message(status));
}

std::optional<double> FitsFile::key_double(const std::string& name) const {
  int status = 0;
  double v = 0;
  fits_read_key(handle(fptr_), TDOUBLE, name.c_str(), &v, nullptr, &status);
  if (status == KEY_NO_EXIST || status == VALUE_UNDEFINED) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  check(status, "cannot read keyword " + name);
  return v;
}

std::optional<std::string> FitsFile::key_string(const std::string& name) const {
  int status = 0;
  char v[FLEN_VALUE] = {0};
  fits_read_key(handle(fptr_), TSTRING, name.c_str(), v, nullptr, &status);
  if (status == KEY_NO_EXIST || status == VALUE_UNDEFINED) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  check(status, "cannot read keyword " + name);
  std::string s(v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::optional<double> FitsFile::try_key_double(const std::string& name) const {
  int status = 0;
  double v = 0;
  fits_read_key(handle(fptr_), TDOUBLE, name.c_str(), &v, nullptr, &status);
  if (status != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> FitsFile::try_key_string(const std::string& name) const {
  int status = 0;
  char v[FLEN_VALUE] = {0};
  fits_read_key(handle(fptr_), TSTRING, name.c_str(), v, nullptr, &status);
  if (status != 0) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  std::string s(v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void FitsFile::check_read_size(double values, double bytes_per_value,
                               const std::string& keywords) const {
  int status = 0;
  LONGLONG head = 0, data_start = 0, data_end = 0;
  fits_get_hduaddrll(handle(fptr_), &head, &data_start, &data_end, &status);
  check(status, "cannot locate the data section");
  // logfilesize: the file's size as CFITSIO sees it (uncompressed, for .gz files).
  const double file_bytes = static_cast<double>(handle(fptr_)->Fptr->logfilesize);
  if (static_cast<double>(data_end) > file_bytes + 2880.0) {  // allow one missing FITS block
    throw Error::in_file(path_, 0,
                         "the header (" + keywords + ") implies " +
                             format_bytes(static_cast<double>(data_end)) +
                             " of data, but the file holds " + format_bytes(file_bytes) +
                             ": the header is wrong or the file is truncated");
  }
  const double bytes = values * bytes_per_value;
  const std::int64_t available = available_memory_bytes();
  if (available >= 0 && bytes > static_cast<double>(available)) {
    throw Error::in_file(path_, 0,
                         "reading it (" + keywords + ") needs about " + format_bytes(bytes) +
                             " of memory, but only " +
                             format_bytes(static_cast<double>(available)) + " is available");
  }
}

std::vector<std::string> FitsFile::history() const {
  std::vector<std::string> out;
  int status = 0, nkeys = 0;
  fits_get_hdrspace(handle(fptr_), &nkeys, nullptr, &status);
  check(status, "cannot read header");
  for (int k = 1; k <= nkeys; ++k) {
    char card[FLEN_CARD] = {0};
    fits_read_record(handle(fptr_), k, card, &status);
    check(status, "cannot read header card");
    const std::string c(card);
    if (c.rfind("HISTORY", 0) == 0) out.push_back(c.substr(7));
  }
  return out;
}

FitsHduType FitsFile::move_to_hdu(int number, int& status) const {
  int type = -1;
  fits_movabs_hdu(handle(fptr_), number, &type, &status);
  switch (type) {
    case IMAGE_HDU:
      return FitsHduType::Image;
    case ASCII_TBL:
      return FitsHduType::AsciiTable;
    case BINARY_TBL:
      return FitsHduType::BinaryTable;
    default:
      return FitsHduType::Unknown;
  }
}

int FitsFile::image_dim(int& status) const {
  int naxis = 0;
  fits_get_img_dim(handle(fptr_), &naxis, &status);
  return naxis;
}

std::vector<long> FitsFile::image_size(int max_axes, int& status) const {
  std::vector<long> axes(static_cast<std::size_t>(std::max(max_axes, 0)), 1);
  fits_get_img_size(handle(fptr_), static_cast<int>(axes.size()), axes.data(), &status);
  return axes;
}

namespace {

template <typename T>
void read_pixels_as(fitsfile* f, int datatype, std::span<const long> first, std::span<T> out,
                    T blank, int& status) {
  std::vector<LONGLONG> first_ll(first.begin(), first.end());
  int any_blank = 0;
  fits_read_pixll(f, datatype, first_ll.data(), static_cast<LONGLONG>(out.size()), &blank,
                  out.data(), &any_blank, &status);
}

}  // namespace

void FitsFile::read_pixels(std::span<const long> first, std::span<double> out, double blank,
                           int& status) const {
  read_pixels_as(handle(fptr_), TDOUBLE, first, out, blank, status);
}

void FitsFile::read_pixels(std::span<const long> first, std::span<float> out, float blank,
                           int& status) const {
  read_pixels_as(handle(fptr_), TFLOAT, first, out, blank, status);
}

long FitsFile::num_rows(int& status) const {
  long rows = 0;
  fits_get_num_rows(handle(fptr_), &rows, &status);
  return rows;
}

long FitsFile::column_repeat(int column, int& status) const {
  int typecode = 0;
  long repeat = 0, width = 0;
  fits_get_coltype(handle(fptr_), column, &typecode, &repeat, &width, &status);
  return repeat;
}

void FitsFile::read_column(int column, long long first_row, long long first_element,
                           std::span<double> out, double blank, int& status) const {
  int any_blank = 0;
  fits_read_col(handle(fptr_), TDOUBLE, column, first_row, first_element,
                static_cast<LONGLONG>(out.size()), &blank, out.data(), &any_blank, &status);
}

void FitsFile::create_image(FitsPixelType type, std::span<const long> axes, int& status) {
  const int bitpix = type == FitsPixelType::Float64 ? DOUBLE_IMG : FLOAT_IMG;
  std::vector<long> lengths(axes.begin(), axes.end());
  fits_create_img(handle(fptr_), bitpix, static_cast<int>(lengths.size()), lengths.data(), &status);
}

namespace {

const char* comment_or_null(const std::string& comment) {
  return comment.empty() ? nullptr : comment.c_str();
}

}  // namespace

void FitsFile::write_key_string(const std::string& name, const std::string& value,
                                const std::string& comment, int& status) {
  fits_write_key_str(handle(fptr_), name.c_str(), value.c_str(), comment_or_null(comment), &status);
}

void FitsFile::write_key_double(const std::string& name, double value, int digits,
                                const std::string& comment, int& status) {
  // A negative decimals argument asks CFITSIO for that many significant digits (%G).
  fits_write_key_dbl(handle(fptr_), name.c_str(), value, -digits, comment_or_null(comment),
                     &status);
}

void FitsFile::write_key_long(const std::string& name, long value, const std::string& comment,
                              int& status) {
  fits_write_key_lng(handle(fptr_), name.c_str(), value, comment_or_null(comment), &status);
}

void FitsFile::write_key_bool(const std::string& name, bool value, const std::string& comment,
                              int& status) {
  fits_write_key_log(handle(fptr_), name.c_str(), value ? 1 : 0, comment_or_null(comment), &status);
}

void FitsFile::write_date(int& status) { fits_write_date(handle(fptr_), &status); }

void FitsFile::write_history(const std::string& text, int& status) {
  fits_write_history(handle(fptr_), text.c_str(), &status);
}

void FitsFile::write_pixels(long long first_element, std::span<const float> values, int& status) {
  // CFITSIO takes a non-const pointer but does not modify the values.
  fits_write_img(handle(fptr_), TFLOAT, first_element, static_cast<LONGLONG>(values.size()),
                 const_cast<float*>(values.data()), &status);
}

void FitsFile::write_pixels(long long first_element, std::span<const double> values, int& status) {
  fits_write_img(handle(fptr_), TDOUBLE, first_element, static_cast<LONGLONG>(values.size()),
                 const_cast<double*>(values.data()), &status);
}

}  // namespace fringe::io
