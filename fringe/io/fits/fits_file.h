// The one CFITSIO wrapper: an owning handle to a FITS file and the calls the readers (sky
// images, HEALPix maps, model images, the GUI viewer) and the image writer need. CFITSIO's
// header stays in fits_file.cpp, so no other file calls CFITSIO directly.
//
// Two error styles:
// - Throwing: the constructor, key_double/key_string, history, check_read_size and check
//   throw fringe::Error naming the file ("<path>: <what>: <CFITSIO message>").
// - Status (CFITSIO's convention): the calls taking `int& status` do nothing when status is
//   non-zero on entry and set it on failure, so a caller can chain several and report once
//   (check(), or cfitsio_message() for its own wording).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fringe::io {

enum class FitsPixelType { Float32, Float64 };  // BITPIX -32, -64

// How a file is opened.
enum class FitsOpen {
  ReadOnly,       // CFITSIO's extended file-name syntax ("a.fits[1]", compressed "a.fits.gz")
  ReadOnlyImage,  // as ReadOnly, then moves to the first HDU that holds an image
  ReadOnlyPlain,  // the name is a plain file name (may contain '[' or '!')
  ReadWritePlain  // as ReadOnlyPlain, for writing
};

// The type of the current HDU.
enum class FitsHduType { Image, AsciiTable, BinaryTable, Unknown };

// CFITSIO's text for a status code. `with_detail` appends the oldest entry of CFITSIO's
// error-message stack in parentheses when it says more. Clears that stack.
std::string cfitsio_message(int status, bool with_detail = false);

class FitsFile {
 public:
  FitsFile() = default;  // closed
  // Opens an existing file; throws fringe::Error "<path>: cannot open FITS file: <message>".
  explicit FitsFile(const std::string& path, FitsOpen mode = FitsOpen::ReadOnly);
  ~FitsFile();  // closes, ignoring errors
  FitsFile(const FitsFile&) = delete;
  FitsFile& operator=(const FitsFile&) = delete;
  FitsFile(FitsFile&& other) noexcept;
  FitsFile& operator=(FitsFile&& other) noexcept;

  // Opens an existing file (closing one held before); false and status set on failure.
  bool open(const std::string& path, FitsOpen mode, int& status);
  // Creates a new file under a plain name (refused if something is there) with no HDU yet.
  bool create(const std::string& path, int& status);
  // Closes the file (CFITSIO writes its buffers) and returns CFITSIO's status (0 when none
  // was open). The handle is released even on failure.
  int close();
  // Closes the file ignoring any failure and clears CFITSIO's message stack. Never throws.
  void close_discarding_errors() noexcept;

  bool is_open() const { return fptr_ != nullptr; }
  const std::string& path() const { return path_; }

  // Throws fringe::Error "<path>: <what>: <CFITSIO message>" if status != 0.
  void check(int status, const std::string& what) const;

  // Header keywords of the current HDU. nullopt when the keyword is absent or has no value;
  // other failures (e.g. a value that is not a number) throw. Strings lose trailing blanks.
  std::optional<double> key_double(const std::string& name) const;
  std::optional<std::string> key_string(const std::string& name) const;
  // As above, but nullopt on any failure.
  std::optional<double> try_key_double(const std::string& name) const;
  std::optional<std::string> try_key_string(const std::string& name) const;
  // All HISTORY card texts of the current HDU.
  std::vector<std::string> history() const;

  // Before a read of `values` numbers that the header implies (`keywords` names them, e.g.
  // "NAXIS1 = 1000000000, NAXIS2 = 2"): refuses, naming the file and the keywords, a current
  // HDU whose data section (as the header sizes it) runs past the end of the file, and a read
  // whose memory (`bytes_per_value` each) exceeds the available memory (resources.h), so that
  // a corrupt header never becomes a runaway allocation or std::bad_alloc.
  void check_read_size(double values, double bytes_per_value, const std::string& keywords) const;

  // --- Status-style calls (see the top of this file). ---

  // Moves to HDU `number` (1 = primary) and returns its type.
  FitsHduType move_to_hdu(int number, int& status) const;

  // The image of the current HDU: NAXIS, and the first `max_axes` axis lengths (NAXISi;
  // 1 for an axis beyond NAXIS).
  int image_dim(int& status) const;
  std::vector<long> image_size(int max_axes, int& status) const;
  // Reads out.size() pixels from `first` (1-based pixel coordinates, one per axis, axis 1
  // fastest), converted to the element type; blank pixels become `blank`.
  void read_pixels(std::span<const long> first, std::span<double> out, double blank,
                   int& status) const;
  void read_pixels(std::span<const long> first, std::span<float> out, float blank,
                   int& status) const;

  // The binary or ASCII table of the current HDU: rows, and the repeat count of a column
  // (1-based); reads out.size() values of `column` from `first_row`, `first_element`
  // (1-based), converted to double; blank values become `blank`.
  long num_rows(int& status) const;
  long column_repeat(int column, int& status) const;
  void read_column(int column, long long first_row, long long first_element, std::span<double> out,
                   double blank, int& status) const;

  // Writing (after create() or a ReadWritePlain open): a primary image HDU of the given axis
  // lengths, keywords (an empty comment writes none; doubles with `digits` significant
  // digits), DATE, HISTORY cards, and pixels from 1-based linear element `first_element`
  // (axis 1 fastest), converted to the file's pixel type.
  void create_image(FitsPixelType type, std::span<const long> axes, int& status);
  void write_key_string(const std::string& name, const std::string& value,
                        const std::string& comment, int& status);
  void write_key_double(const std::string& name, double value, int digits,
                        const std::string& comment, int& status);
  void write_key_long(const std::string& name, long value, const std::string& comment, int& status);
  void write_key_bool(const std::string& name, bool value, const std::string& comment, int& status);
  void write_date(int& status);
  void write_history(const std::string& text, int& status);
  void write_pixels(long long first_element, std::span<const float> values, int& status);
  void write_pixels(long long first_element, std::span<const double> values, int& status);

 private:
  std::string path_;
  void* fptr_ = nullptr;  // CFITSIO's fitsfile*, kept opaque so that fitsio.h stays private
};

}  // namespace fringe::io
