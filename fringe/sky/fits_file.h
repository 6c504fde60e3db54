// Minimal RAII access to a FITS file through CFITSIO for the sky readers: open read-only,
// optional keywords, and errors that name the file and the CFITSIO message.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fitsio.h>

namespace fringe::sky {

class FitsFile {
 public:
  explicit FitsFile(const std::string& path);  // throws fringe::Error if it cannot be opened
  ~FitsFile();
  FitsFile(const FitsFile&) = delete;
  FitsFile& operator=(const FitsFile&) = delete;

  fitsfile* get() const { return fptr_; }
  const std::string& path() const { return path_; }

  // Throws fringe::Error "<path>: <what>: <CFITSIO message>" if status != 0.
  void check(int status, const std::string& what) const;

  std::optional<double> key_double(const std::string& name) const;
  std::optional<std::string> key_string(const std::string& name) const;
  // All HISTORY card texts of the current HDU.
  std::vector<std::string> history() const;

  // Before a read of `values` numbers that the header implies (`keywords` names them, e.g.
  // "NAXIS1 = 1000000000, NAXIS2 = 2"): refuses, naming the file and the keywords, a current
  // HDU whose data section (as the header sizes it) runs past the end of the file, and a read
  // whose memory (`bytes_per_value` each) exceeds the available memory (resources.h), so that
  // a corrupt header never becomes a runaway allocation or std::bad_alloc.
  void check_read_size(double values, double bytes_per_value, const std::string& keywords) const;

 private:
  std::string path_;
  fitsfile* fptr_ = nullptr;
};

}  // namespace fringe::sky
