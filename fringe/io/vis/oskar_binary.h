// The OSKAR binary container (OSKAR 2.13, docs/binary_file/binary_file.rst; docs/vis_format.md):
// a 64-byte file header followed by chunks. Each chunk is a 20-byte tag, optional group and
// tag names (extended tags), the payload and, in format version 2, a 4-byte CRC-32C.
//
// File header (bytes): 0-8 "OSKARBIN\0", 9 format version (2), 10-63 zero (reserved).
// Tag (bytes): 0 'T', 1 0x40 + version ('B'), 2 'G', 3 size of one payload element in bytes
// (version 2; 0 in version 1), 4 flags (bit 5 big-endian payload, bit 6 CRC present, bit 7
// extended tag; bits 0-4 zero), 5 data type (bits: 0x01 char, 0x02 int, 0x04 single,
// 0x08 double, 0x20 complex, 0x40 2x2 matrix), 6 group id (or group name size), 7 tag id (or
// tag name size), 8-11 user index (int32, little-endian), 12-19 block size (uint64,
// little-endian: bytes from the end of the tag to the next tag, names and CRC included).
// CRC: CRC-32C (Castagnoli, reversed polynomial 0x82F63B78, initial value and final XOR
// 0xFFFFFFFF) of the tag, the names and the payload, stored little-endian after the payload.
// OSKAR forms it in two steps (tag first, then names and payload) and, when continuing,
// undoes the final XOR of the partial value unless that value equals 0xFFFFFFFF;
// crc32c_update() reproduces that exactly.
//
// Only little-endian payloads are read or written (every OSKAR file written on x86/ARM);
// a big-endian chunk is refused with a clear error. Errors are fringe::Error naming the file,
// the chunk (group, tag, index, byte offset of its tag) and what was expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fringe::io {

// Payload data type bits (tag byte 5).
namespace oskar_type {
inline constexpr std::uint8_t kChar = 0x01;
inline constexpr std::uint8_t kInt = 0x02;
inline constexpr std::uint8_t kSingle = 0x04;
inline constexpr std::uint8_t kDouble = 0x08;
inline constexpr std::uint8_t kComplex = 0x20;
inline constexpr std::uint8_t kMatrix = 0x40;
}  // namespace oskar_type

// Size in bytes of one (compound) element of a data type: char 1, int 4, single 4, double 8,
// times 2 for complex and 4 for matrix; 0 when no base type bit is set.
int oskar_element_size(std::uint8_t data_type);
// "double complex matrix", "int", ... for messages.
std::string oskar_type_name(std::uint8_t data_type);

// CRC-32C of n bytes (a fresh computation).
std::uint32_t crc32c(const void* data, std::size_t n);
// Continues a CRC-32C value returned by crc32c()/crc32c_update() over n more bytes, with
// OSKAR's rule: the final XOR of `crc` is undone unless crc == 0xFFFFFFFF.
std::uint32_t crc32c_update(std::uint32_t crc, const void* data, std::size_t n);

inline constexpr int kOskarBinaryVersion = 2;
inline constexpr std::size_t kOskarFileHeaderBytes = 64;
inline constexpr std::size_t kOskarTagBytes = 20;

// One chunk as found in a file.
struct BinaryChunk {
  bool extended = false;
  std::uint8_t group = 0;  // group id (standard tag)
  std::uint8_t tag = 0;    // tag id (standard tag)
  std::string group_name;  // extended tags only
  std::string tag_name;
  std::int32_t index = 0;  // user index
  std::uint8_t data_type = 0;
  std::uint8_t element_size = 0;  // tag byte 3 (0 in format version 1)
  std::uint8_t flags = 0;
  bool has_crc = false;
  std::uint64_t offset = 0;          // byte offset of the tag in the file
  std::uint64_t payload_offset = 0;  // byte offset of the payload
  std::uint64_t payload_size = 0;    // payload bytes
  std::uint32_t crc = 0;             // CRC stored after the payload (has_crc)
  std::uint32_t crc_header = 0;      // CRC-32C of the tag and names

  // "chunk (group 12, tag 3, index 0) at byte 1234".
  std::string describe() const;
};

// Writes an OSKAR binary file (format version 2, standard tags, CRC on every chunk) to a path
// that the caller owns (a temporary name from core/output_guard.h). Errors name the file.
class BinaryFileWriter {
 public:
  explicit BinaryFileWriter(std::string path);  // creates or truncates, writes the file header
  ~BinaryFileWriter();
  BinaryFileWriter(const BinaryFileWriter&) = delete;
  BinaryFileWriter& operator=(const BinaryFileWriter&) = delete;

  // One chunk: data_type (oskar_type bits), group, tag, index, `bytes` bytes of payload.
  void write(std::uint8_t data_type, std::uint8_t group, std::uint8_t tag, std::int32_t index,
             const void* data, std::size_t bytes);
  void write_int(std::uint8_t group, std::uint8_t tag, std::int32_t index, std::int32_t value);
  void write_double(std::uint8_t group, std::uint8_t tag, std::int32_t index, double value);
  // A char chunk; with_nul appends the terminating zero (OSKAR writes strings that way).
  void write_string(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                    const std::string& text, bool with_nul = true);

  // Flushes and closes; throws fringe::Error if any write failed. Idempotent.
  void close();
  std::uint64_t bytes_written() const { return position_; }
  const std::string& path() const { return path_; }

 private:
  void put(const void* data, std::size_t n, const char* what);
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t position_ = 0;
};

// Reads an OSKAR binary file (format version 1 or 2): the constructor checks the file header
// and indexes every chunk (tag magic, reserved bits, element size against the data type, block
// sizes against the file size); payloads are read on demand and their CRC checked.
class BinaryFileReader {
 public:
  explicit BinaryFileReader(std::string path);
  ~BinaryFileReader();
  BinaryFileReader(const BinaryFileReader&) = delete;
  BinaryFileReader& operator=(const BinaryFileReader&) = delete;

  const std::string& path() const { return path_; }
  int version() const { return version_; }
  std::uint64_t file_size() const { return file_size_; }
  const std::vector<BinaryChunk>& chunks() const { return chunks_; }

  // First standard chunk (group, tag, index) whose data type is data_type (0: any), or
  // nullptr.
  const BinaryChunk* find(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                          std::uint8_t data_type = 0) const;
  // As find(), but throws fringe::Error naming the file and the chunk when it is absent or of
  // another type ("expected a double chunk (group 11, tag 23, index 0)").
  const BinaryChunk& require(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                             std::uint8_t data_type) const;

  // The payload, CRC checked ("CRC mismatch: stored 0x..., computed 0x...").
  std::vector<unsigned char> read(const BinaryChunk& chunk) const;
  // Typed reads of a required chunk; a scalar read needs exactly one element.
  std::int32_t read_int(std::uint8_t group, std::uint8_t tag, std::int32_t index) const;
  double read_double(std::uint8_t group, std::uint8_t tag, std::int32_t index) const;
  // A char chunk as text, cut at the first zero byte.
  std::string read_string(const BinaryChunk& chunk) const;
  // Payload as n values of `bytes_per_value` checked against the chunk: throws unless
  // payload_size == n * bytes_per_value ("payload of 96 bytes, expected 24 x 8 bytes").
  void check_payload_size(const BinaryChunk& chunk, std::uint64_t n, std::size_t bytes_per_value,
                          const std::string& what) const;

 private:
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& message) const;
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t file_size_ = 0;
  int version_ = 0;
  std::vector<BinaryChunk> chunks_;
};

}  // namespace fringe::io
