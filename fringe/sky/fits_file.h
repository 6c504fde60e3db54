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

 private:
  std::string path_;
  fitsfile* fptr_ = nullptr;
};

}  // namespace fringe::sky
