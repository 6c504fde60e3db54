// The one HDF5 wrapper: a read-only handle to an HDF5 file and the few reads fringe's readers
// need (gain models, numerical element patterns). HDF5's header stays in hdf5_file.cpp, so no
// other file calls HDF5 directly (docs/architecture.md).
//
// Names: a dataset or group is named by its path from the file's root, with or without the
// leading '/', e.g. "gain_xpol", "/freq (Hz)" or "coeffs/te_re". Attributes belong to a dataset
// or group named the same way ("/" or "" is the root group).
//
// Errors: every failure throws fringe::Error naming the file, the object and what was
// expected, e.g. "gains.h5: dataset 'gain_xpol': expected complex values (a compound of two
// floats, or floats with a last dimension of 2), found integer". HDF5's own error printing is
// switched off; its innermost message is appended where it says more.
//
// Example:
//   fringe::io::Hdf5File f("telescope/gain_model.h5");
//   if (!f.has_dataset("gain_xpol")) ...;
//   fringe::io::Hdf5Complex g = f.read_complex("gain_xpol");  // g.dims = {times, chans, n}
//   std::complex<double> v = g.values[(t * g.dims[1] + c) * g.dims[2] + s];  // row-major
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fringe::io {

// A dataset of real numbers read as double, row-major (C order: the last dimension varies
// fastest), as HDF5 stores it.
struct Hdf5Real {
  std::vector<std::size_t> dims;  // empty for a scalar dataset
  std::vector<double> values;     // product of dims values (1 for a scalar)
};

// A dataset of complex numbers read as std::complex<double>, row-major. dims excludes the
// trailing dimension 2 of a (..., 2) real dataset.
struct Hdf5Complex {
  std::vector<std::size_t> dims;
  std::vector<std::complex<double>> values;
};

// What a name in the file refers to.
enum class Hdf5Kind { Missing, Group, Dataset, Other };

class Hdf5File {
 public:
  // Opens an existing file read-only; throws "<path>: cannot open HDF5 file: <why>" (missing
  // file, not an HDF5 file).
  explicit Hdf5File(const std::string& path);
  ~Hdf5File();  // closes, ignoring errors
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  Hdf5File(Hdf5File&& other) noexcept;
  Hdf5File& operator=(Hdf5File&& other) noexcept;

  const std::string& path() const { return path_; }

  // What `name` refers to; Missing when it (or a group on its path) does not exist.
  Hdf5Kind kind(const std::string& name) const;
  bool has_dataset(const std::string& name) const { return kind(name) == Hdf5Kind::Dataset; }
  bool has_group(const std::string& name) const { return kind(name) == Hdf5Kind::Group; }

  // The names (not paths) of the members of a group, sorted by name ("" or "/": the root).
  // Throws when `group` is not a group.
  std::vector<std::string> members(const std::string& group = "/") const;
  // Only the members that are datasets / groups.
  std::vector<std::string> datasets(const std::string& group = "/") const;
  std::vector<std::string> groups(const std::string& group = "/") const;

  // The dimensions of a dataset (empty for a scalar). Throws when it is missing.
  std::vector<std::size_t> dims(const std::string& dataset) const;

  // Reads a dataset of integers or floats as doubles. Throws when it is missing or of another
  // type (compound, string).
  Hdf5Real read_real(const std::string& dataset) const;
  // Reads a dataset of complex numbers: a compound of two floats of one size (the first
  // member is the real part, whatever the names: h5py writes "r"/"i"), or floats whose last
  // dimension is 2 (real, imaginary). Throws when it is missing or of another type.
  Hdf5Complex read_complex(const std::string& dataset) const;
  // As read_complex, but also accepts real data (imaginary parts 0).
  Hdf5Complex read_real_or_complex(const std::string& dataset) const;

  // Attributes of a dataset or group. nullopt when the attribute is absent; throws when the
  // object is missing or the attribute has another type (a number read as a string, ...).
  bool has_attribute(const std::string& object, const std::string& attribute) const;
  // A numeric attribute (integer or float) of one value.
  std::optional<double> attribute_double(const std::string& object,
                                         const std::string& attribute) const;
  // A numeric attribute of any number of values (row-major).
  std::optional<std::vector<double>> attribute_doubles(const std::string& object,
                                                       const std::string& attribute) const;
  // A string attribute (fixed or variable length; trailing NULs and blanks removed).
  std::optional<std::string> attribute_string(const std::string& object,
                                              const std::string& attribute) const;

 private:
  std::string path_;
  std::int64_t file_ = -1;  // hid_t
};

}  // namespace fringe::io
