#include "fringe/sky/fits_file.h"

#include <fitsio.h>

#include "fringe/core/error.h"
#include "fringe/core/resources.h"

namespace fringe::sky {

FitsFile::FitsFile(const std::string& path) : path_(path) {
  int status = 0;
  if (fits_open_file(&fptr_, path.c_str(), READONLY, &status)) {
    fptr_ = nullptr;
    char msg[FLEN_STATUS] = {0};
    fits_get_errstatus(status, msg);
    fits_clear_errmsg();
    throw Error::in_file(path, 0, std::string("cannot open FITS file: ") + msg);
  }
}

FitsFile::~FitsFile() {
  if (fptr_) {
    int status = 0;
    fits_close_file(fptr_, &status);
  }
}

void FitsFile::check(int status, const std::string& what) const {
  if (status == 0) return;
  char msg[FLEN_STATUS] = {0};
  fits_get_errstatus(status, msg);
  fits_clear_errmsg();
  throw Error::in_file(path_, 0, what + ": " + msg);
}

std::optional<double> FitsFile::key_double(const std::string& name) const {
  int status = 0;
  double v = 0;
  fits_read_key(fptr_, TDOUBLE, name.c_str(), &v, nullptr, &status);
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
  fits_read_key(fptr_, TSTRING, name.c_str(), v, nullptr, &status);
  if (status == KEY_NO_EXIST || status == VALUE_UNDEFINED) {
    fits_clear_errmsg();
    return std::nullopt;
  }
  check(status, "cannot read keyword " + name);
  std::string s(v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void FitsFile::check_read_size(double values, double bytes_per_value,
                               const std::string& keywords) const {
  int status = 0;
  LONGLONG head = 0, data_start = 0, data_end = 0;
  fits_get_hduaddrll(fptr_, &head, &data_start, &data_end, &status);
  check(status, "cannot locate the data section");
  // logfilesize: the file's size as CFITSIO sees it (uncompressed, for .gz files).
  const double file_bytes = static_cast<double>(fptr_->Fptr->logfilesize);
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
  fits_get_hdrspace(fptr_, &nkeys, nullptr, &status);
  check(status, "cannot read header");
  for (int k = 1; k <= nkeys; ++k) {
    char card[FLEN_CARD] = {0};
    fits_read_record(fptr_, k, card, &status);
    check(status, "cannot read header card");
    const std::string c(card);
    if (c.rfind("HISTORY", 0) == 0) out.push_back(c.substr(7));
  }
  return out;
}

}  // namespace fringe::sky
