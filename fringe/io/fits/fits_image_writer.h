// FITS image writer (CFITSIO, through fits_file.h): a primary-HDU image of 1 to 4 axes in 32- or
// 64-bit IEEE floating point, with a linear WCS per axis (CTYPEn, CRVALn, CDELTn, CRPIXn, CUNITn;
// Greisen & Calabretta 2002, A&A 395, 1061: world = CRVAL + CDELT (p - CRPIX), p 1-based),
// extra keywords and HISTORY cards. Pixels are addressed by a 0-based linear offset with
// axis 1 fastest (FITS order), so a caller can stream planes or pieces of planes in any order.
//
// Output safety (fringe/core/output_guard.h): the constructor refuses a final path that
// holds anything but an earlier FITS file (a folder, a text file, ...). The file is written
// under a temporary name beside the final one ("<path>.tmp-<pid>-<hex>", registered with
// fringe::interrupt so SIGINT/SIGTERM remove it) and committed over the final path by
// finish(): nothing is created under the final name before, a run that fails leaves no file
// that looks complete, and an earlier file there stays until the new one is complete. A
// failed write or close (disk full, file-size limit) removes the temporary at once and
// throws; the destructor of an unfinished writer removes the temporary file. Pixels never written
// read back as 0. NaN values are written as IEEE NaN (the FITS convention for blank pixels of
// floating-point images). CFITSIO's extended file-name syntax is not used (fits_create_diskfile),
// so names may contain '[' or '!'. Errors are fringe::Error naming the final file, what failed and
// CFITSIO's message.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "fringe/core/output_guard.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::io {

// One image axis (NAXISn = length) and its linear WCS. Empty strings are not written.
struct FitsAxis {
  long length = 1;
  std::string ctype;    // e.g. "RA---SIN", "FREQ"
  double crval = 0.0;   // world coordinate at the reference pixel (CUNIT units)
  double cdelt = 1.0;   // world increment per pixel
  double crpix = 1.0;   // reference pixel, 1-based
  std::string cunit;    // e.g. "deg", "Hz", "s"
  std::string comment;  // comment of the CTYPE card
};

// A header keyword: string, floating-point, integer or logical value.
struct FitsKeyword {
  std::string name;  // at most 8 characters, FITS keyword characters
  std::variant<std::string, double, long, bool> value;
  std::string comment;
};

struct FitsImageHeader {
  FitsPixelType pixel_type = FitsPixelType::Float32;
  std::vector<FitsAxis> axes;         // 1..4 axes, each of length >= 1
  std::vector<FitsKeyword> keywords;  // written after the axes, in order
  std::vector<std::string> history;   // one HISTORY card (or more, if long) per entry
};

class FitsImageWriter {
 public:
  // Creates the temporary file and writes the header. `keep_open` false closes the CFITSIO
  // handle between writes (for runs that write more files than may be open at once).
  FitsImageWriter(std::string path, const FitsImageHeader& header, bool keep_open = true);
  ~FitsImageWriter();  // unfinished: closes and removes the temporary file; never throws
  FitsImageWriter(const FitsImageWriter&) = delete;
  FitsImageWriter& operator=(const FitsImageWriter&) = delete;

  const std::string& path() const;            // the final path
  const std::string& temporary_path() const;  // where the file is until finish()
  std::size_t num_pixels() const;             // product of the axis lengths

  // Writes values to pixels [offset, offset + values.size()) (0-based, axis 1 fastest),
  // converted to the file's pixel type. Throws fringe::Error past the end or after finish().
  void write(std::size_t offset, std::span<const float> values);
  void write(std::size_t offset, std::span<const double> values);

  // Closes the file and commits it to path() (replacing an earlier FITS file only).
  void finish();
  bool finished() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Writes a whole image in one call (values.size() must equal the number of pixels).
void write_fits_image(const std::string& path, const FitsImageHeader& header,
                      std::span<const float> values);
void write_fits_image(const std::string& path, const FitsImageHeader& header,
                      std::span<const double> values);

// A temporary name for `final_path`: "<final_path>.tmp-<pid>-<8 hex digits>"
// (fringe::temporary_path_for).
std::string fits_temporary_path(const std::string& final_path);

// The output-guard target of a FITS file named by settings key `key` (for check_outputs).
OutputTarget fits_target(const std::string& key, const std::string& path);

}  // namespace fringe::io
