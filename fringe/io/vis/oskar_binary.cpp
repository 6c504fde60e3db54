// OSKAR binary container: reader and writer (layout in oskar_binary.h, docs/vis_format.md).
#include "fringe/io/vis/oskar_binary.h"

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <utility>

#include "fringe/core/error.h"

namespace fringe::io {

static_assert(std::endian::native == std::endian::little,
              "fringe reads and writes OSKAR binary files on little-endian hosts only");

namespace {

constexpr std::uint32_t kCrcPoly = 0x82F63B78u;  // CRC-32C, reversed polynomial
constexpr std::uint32_t kCrcInit = 0xFFFFFFFFu;  // initial value and final XOR

// Slicing-by-8 tables: t[0] is the byte-wise (Sarwate) table, t[k][i] the CRC of byte i
// followed by k zero bytes.
struct CrcTables {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  CrcTables() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int b = 0; b < 8; ++b) c = (c >> 1) ^ ((c & 1u) ? kCrcPoly : 0u);
      t[0][i] = c;
    }
    for (std::uint32_t i = 0; i < 256; ++i) {
      for (int k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
    }
  }
};

const CrcTables& tables() {
  static const CrcTables tab;
  return tab;
}

// Raw register update (no pre/post XOR).
std::uint32_t crc_raw(std::uint32_t reg, const unsigned char* p, std::size_t n) {
  const auto& t = tables().t;
  while (n >= 8) {
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    lo ^= reg;
    reg = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
          t[3][hi & 0xFFu] ^ t[2][(hi >> 8) & 0xFFu] ^ t[1][(hi >> 16) & 0xFFu] ^ t[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) reg = (reg >> 8) ^ t[0][(reg ^ *p++) & 0xFFu];
  return reg;
}

std::string hex32(std::uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase;
  s.width(8);
  s.fill('0');
  s << v;
  return s.str();
}

std::string system_message() { return std::strerror(errno); }

}  // namespace

std::uint32_t crc32c(const void* data, std::size_t n) {
  return crc_raw(kCrcInit, static_cast<const unsigned char*>(data), n) ^ kCrcInit;
}

std::uint32_t crc32c_update(std::uint32_t crc, const void* data, std::size_t n) {
  // OSKAR (oskar_crc_update): a value equal to the initial value is taken as a fresh start.
  const std::uint32_t reg = (crc == kCrcInit) ? crc : (crc ^ kCrcInit);
  return crc_raw(reg, static_cast<const unsigned char*>(data), n) ^ kCrcInit;
}

int oskar_element_size(std::uint8_t data_type) {
  int size = 0;
  if (data_type & oskar_type::kChar) {
    size = 1;
  } else if (data_type & oskar_type::kInt) {
    size = 4;
  } else if (data_type & oskar_type::kSingle) {
    size = 4;
  } else if (data_type & oskar_type::kDouble) {
    size = 8;
  } else {
    return 0;
  }
  if (data_type & oskar_type::kComplex) size *= 2;
  if (data_type & oskar_type::kMatrix) size *= 4;
  return size;
}

std::string oskar_type_name(std::uint8_t data_type) {
  std::string base;
  if (data_type & oskar_type::kChar) {
    base = "char";
  } else if (data_type & oskar_type::kInt) {
    base = "int";
  } else if (data_type & oskar_type::kSingle) {
    base = "single";
  } else if (data_type & oskar_type::kDouble) {
    base = "double";
  } else {
    return "unknown type " + std::to_string(int(data_type));
  }
  if (data_type & oskar_type::kComplex) base += " complex";
  if (data_type & oskar_type::kMatrix) base += " matrix";
  return base;
}

std::string BinaryChunk::describe() const {
  std::string s = "chunk (";
  if (extended) {
    s += "group '" + group_name + "', tag '" + tag_name + "'";
  } else {
    s += "group " + std::to_string(int(group)) + ", tag " + std::to_string(int(tag));
  }
  s += ", index " + std::to_string(index) + ") at byte " + std::to_string(offset);
  return s;
}

namespace {
std::string chunk_id(std::uint8_t group, std::uint8_t tag, std::int32_t index) {
  return "chunk (group " + std::to_string(int(group)) + ", tag " + std::to_string(int(tag)) +
         ", index " + std::to_string(index) + ")";
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Writer

BinaryFileWriter::BinaryFileWriter(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_) {
    throw Error::in_file(path_, 0, "cannot create the OSKAR binary file: " + system_message());
  }
  unsigned char header[kOskarFileHeaderBytes] = {};
  std::memcpy(header, "OSKARBIN", 9);  // 8 characters and the terminating zero
  header[9] = static_cast<unsigned char>(kOskarBinaryVersion);
  put(header, sizeof(header), "the file header");
}

BinaryFileWriter::~BinaryFileWriter() {
  if (file_) std::fclose(file_);
}

void BinaryFileWriter::put(const void* data, std::size_t n, const char* what) {
  if (!file_) throw Error::in_file(path_, 0, "write after close");
  if (n == 0) return;
  if (std::fwrite(data, 1, n, file_) != n) {
    throw Error::in_file(path_, 0,
                         std::string("cannot write ") + what + " at byte " +
                             std::to_string(position_) + ": " + system_message());
  }
  position_ += n;
}

void BinaryFileWriter::write(std::uint8_t data_type, std::uint8_t group, std::uint8_t tag,
                             std::int32_t index, const void* data, std::size_t bytes) {
  const int element = oskar_element_size(data_type);
  if (element == 0) {
    throw Error::in_file(path_, 0,
                         "cannot write " + chunk_id(group, tag, index) + ": data type " +
                             std::to_string(int(data_type)) + " has no base type");
  }
  if (bytes % std::size_t(element) != 0) {
    throw Error::in_file(path_, 0,
                         "cannot write " + chunk_id(group, tag, index) + ": " +
                             std::to_string(bytes) + " bytes is not a whole number of " +
                             oskar_type_name(data_type) + " elements");
  }
  unsigned char t[kOskarTagBytes] = {};
  t[0] = 'T';
  t[1] = static_cast<unsigned char>(0x40 + kOskarBinaryVersion);
  t[2] = 'G';
  t[3] = static_cast<unsigned char>(element);
  t[4] = 0x40;  // CRC present; little-endian; standard tag
  t[5] = data_type;
  t[6] = group;
  t[7] = tag;
  std::memcpy(t + 8, &index, 4);
  const std::uint64_t block = std::uint64_t(bytes) + 4;  // payload + CRC
  std::memcpy(t + 12, &block, 8);
  std::uint32_t crc = crc32c(t, sizeof(t));
  crc = crc32c_update(crc, data, bytes);
  const std::string what = chunk_id(group, tag, index);
  put(t, sizeof(t), what.c_str());
  put(data, bytes, what.c_str());
  put(&crc, 4, what.c_str());
}

void BinaryFileWriter::write_int(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                                 std::int32_t value) {
  write(oskar_type::kInt, group, tag, index, &value, sizeof(value));
}

void BinaryFileWriter::write_double(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                                    double value) {
  write(oskar_type::kDouble, group, tag, index, &value, sizeof(value));
}

void BinaryFileWriter::write_string(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                                    const std::string& text, bool with_nul) {
  write(oskar_type::kChar, group, tag, index, text.c_str(), text.size() + (with_nul ? 1 : 0));
}

void BinaryFileWriter::close() {
  if (!file_) return;
  std::FILE* f = std::exchange(file_, nullptr);
  const bool flushed = std::fflush(f) == 0;
  const std::string reason = flushed ? "" : system_message();
  const bool closed = std::fclose(f) == 0;
  if (!flushed || !closed) {
    throw Error::in_file(path_, 0,
                         "cannot finish the OSKAR binary file after " + std::to_string(position_) +
                             " bytes: " + (reason.empty() ? system_message() : reason));
  }
}

// ---------------------------------------------------------------------------------------------
// Reader

void BinaryFileReader::fail_at(std::uint64_t offset, const std::string& message) const {
  throw Error::in_file(path_, 0, "at byte " + std::to_string(offset) + ": " + message);
}

BinaryFileReader::BinaryFileReader(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec)) {
    throw Error::in_file(
        path_, 0,
        "expected an OSKAR binary file (.vis), found " +
            std::string(std::filesystem::exists(path_, ec) ? "something else" : "nothing"));
  }
  file_size_ = std::filesystem::file_size(path_, ec);
  file_ = std::fopen(path_.c_str(), "rb");
  if (!file_) throw Error::in_file(path_, 0, "cannot open: " + system_message());

  unsigned char header[kOskarFileHeaderBytes];
  if (file_size_ < kOskarFileHeaderBytes ||
      std::fread(header, 1, sizeof(header), file_) != sizeof(header)) {
    throw Error::in_file(path_, 0,
                         "file of " + std::to_string(file_size_) +
                             " bytes is shorter than the 64-byte OSKAR binary file header");
  }
  if (std::memcmp(header, "OSKARBIN", 8) != 0) {
    throw Error::in_file(path_, 0, "not an OSKAR binary file: expected \"OSKARBIN\" in bytes 0-7");
  }
  version_ = header[9];
  if (version_ < 1 || version_ > kOskarBinaryVersion) {
    throw Error::in_file(path_, 0,
                         "OSKAR binary format version " + std::to_string(version_) +
                             " at byte 9 is not supported (expected 1 or 2)");
  }
  if (version_ == 1 && header[10] != 0) {
    throw Error::in_file(path_, 0, "big-endian OSKAR binary file (version 1) is not supported");
  }

  std::uint64_t pos = kOskarFileHeaderBytes;
  while (pos < file_size_) {
    if (file_size_ - pos < kOskarTagBytes) {
      fail_at(pos, "truncated: a 20-byte chunk tag starts here but the file has " +
                       std::to_string(file_size_) + " bytes");
    }
    unsigned char t[kOskarTagBytes];
    if (std::fseek(file_, long(pos), SEEK_SET) != 0 ||
        std::fread(t, 1, sizeof(t), file_) != sizeof(t)) {
      fail_at(pos, "cannot read the chunk tag: " + system_message());
    }
    BinaryChunk c;
    c.offset = pos;
    c.flags = t[4];
    c.data_type = t[5];
    c.element_size = t[3];
    c.extended = (c.flags & 0x80) != 0;
    c.has_crc = (c.flags & 0x40) != 0;
    std::memcpy(&c.index, t + 8, 4);
    std::uint64_t block = 0;
    std::memcpy(&block, t + 12, 8);
    if (!c.extended) {
      c.group = t[6];
      c.tag = t[7];
    }
    const int tag_version = int(t[1]) - 0x40;
    if (t[0] != 'T' || t[2] != 'G' || tag_version < 1 || tag_version > kOskarBinaryVersion) {
      fail_at(pos, "expected a chunk tag (\"T\", 0x41 or 0x42, \"G\"), found bytes " +
                       std::to_string(int(t[0])) + ", " + std::to_string(int(t[1])) + ", " +
                       std::to_string(int(t[2])));
    }
    if ((c.flags & 0x1F) != 0) {
      fail_at(pos,
              "chunk tag has reserved flag bits set (flags " + std::to_string(int(c.flags)) + ")");
    }
    if (c.flags & 0x20) {
      fail_at(pos, "big-endian chunk payloads are not supported");
    }
    const int expected_size = oskar_element_size(c.data_type);
    if (expected_size == 0) {
      fail_at(pos, "chunk has unknown data type " + std::to_string(int(c.data_type)));
    }
    if (tag_version >= 2 && c.element_size != expected_size) {
      fail_at(pos, "chunk of type " + oskar_type_name(c.data_type) + " gives element size " +
                       std::to_string(int(c.element_size)) + " bytes, expected " +
                       std::to_string(expected_size));
    }
    const std::uint64_t names = c.extended ? std::uint64_t(t[6]) + t[7] : 0;
    const std::uint64_t overhead = names + (c.has_crc ? 4 : 0);
    if (block < overhead) {
      fail_at(pos, "chunk block size " + std::to_string(block) +
                       " is smaller than its names and "
                       "CRC (" +
                       std::to_string(overhead) + " bytes)");
    }
    const std::uint64_t end = pos + kOskarTagBytes + block;
    if (end > file_size_) {
      // Name the chunk when its ids are known.
      BinaryChunk probe = c;
      probe.extended = false;
      probe.group = t[6];
      probe.tag = t[7];
      throw Error::in_file(path_, 0,
                           "truncated " + probe.describe() + ": payload ends at byte " +
                               std::to_string(end - (c.has_crc ? 4 : 0)) +
                               (c.has_crc ? " (CRC at byte " + std::to_string(end) + ")" : "") +
                               ", file has " + std::to_string(file_size_) + " bytes");
    }
    std::uint32_t crc = crc32c(t, sizeof(t));
    if (c.extended) {
      std::string g(t[6], '\0');
      std::string n(t[7], '\0');
      if (std::fread(g.data(), 1, g.size(), file_) != g.size() ||
          std::fread(n.data(), 1, n.size(), file_) != n.size()) {
        fail_at(pos, "cannot read the names of an extended chunk tag");
      }
      crc = crc32c_update(crc, g.data(), g.size());
      crc = crc32c_update(crc, n.data(), n.size());
      c.group_name = g.c_str();
      c.tag_name = n.c_str();
    }
    c.crc_header = crc;
    c.payload_offset = pos + kOskarTagBytes + names;
    c.payload_size = block - overhead;
    if (c.has_crc) {
      if (std::fseek(file_, long(c.payload_offset + c.payload_size), SEEK_SET) != 0 ||
          std::fread(&c.crc, 1, 4, file_) != 4) {
        fail_at(pos, "cannot read the CRC of " + c.describe());
      }
    }
    chunks_.push_back(std::move(c));
    pos = end;
  }
}

BinaryFileReader::~BinaryFileReader() {
  if (file_) std::fclose(file_);
}

const BinaryChunk* BinaryFileReader::find(std::uint8_t group, std::uint8_t tag, std::int32_t index,
                                          std::uint8_t data_type) const {
  for (const BinaryChunk& c : chunks_) {
    if (!c.extended && c.group == group && c.tag == tag && c.index == index &&
        (data_type == 0 || c.data_type == data_type)) {
      return &c;
    }
  }
  return nullptr;
}

const BinaryChunk& BinaryFileReader::require(std::uint8_t group, std::uint8_t tag,
                                             std::int32_t index, std::uint8_t data_type) const {
  if (const BinaryChunk* c = find(group, tag, index, data_type)) return *c;
  if (const BinaryChunk* other = find(group, tag, index)) {
    throw Error::in_file(path_, 0,
                         other->describe() + " holds " + oskar_type_name(other->data_type) +
                             " data, expected " + oskar_type_name(data_type));
  }
  throw Error::in_file(path_, 0,
                       "missing " + chunk_id(group, tag, index) + ": expected " +
                           oskar_type_name(data_type) + " data");
}

std::vector<unsigned char> BinaryFileReader::read(const BinaryChunk& c) const {
  std::vector<unsigned char> data(c.payload_size);
  if (c.payload_size > 0) {
    if (std::fseek(file_, long(c.payload_offset), SEEK_SET) != 0 ||
        std::fread(data.data(), 1, data.size(), file_) != data.size()) {
      throw Error::in_file(path_, 0, "cannot read the payload of " + c.describe());
    }
  }
  if (c.has_crc) {
    const std::uint32_t computed = crc32c_update(c.crc_header, data.data(), data.size());
    if (computed != c.crc) {
      throw Error::in_file(path_, 0,
                           "CRC mismatch in " + c.describe() + ": stored " + hex32(c.crc) +
                               ", computed " + hex32(computed) + " over its " +
                               std::to_string(c.payload_size) +
                               " payload bytes (the file is damaged)");
    }
  }
  return data;
}

void BinaryFileReader::check_payload_size(const BinaryChunk& c, std::uint64_t n,
                                          std::size_t bytes_per_value,
                                          const std::string& what) const {
  if (c.payload_size != n * bytes_per_value) {
    throw Error::in_file(path_, 0,
                         c.describe() + " (" + what + ") has a payload of " +
                             std::to_string(c.payload_size) + " bytes, expected " +
                             std::to_string(n) + " x " + std::to_string(bytes_per_value) +
                             " bytes");
  }
}

std::int32_t BinaryFileReader::read_int(std::uint8_t group, std::uint8_t tag,
                                        std::int32_t index) const {
  const BinaryChunk& c = require(group, tag, index, oskar_type::kInt);
  check_payload_size(c, 1, 4, "one int");
  const auto bytes = read(c);
  std::int32_t v = 0;
  std::memcpy(&v, bytes.data(), 4);
  return v;
}

double BinaryFileReader::read_double(std::uint8_t group, std::uint8_t tag,
                                     std::int32_t index) const {
  const BinaryChunk& c = require(group, tag, index, oskar_type::kDouble);
  check_payload_size(c, 1, 8, "one double");
  const auto bytes = read(c);
  double v = 0;
  std::memcpy(&v, bytes.data(), 8);
  return v;
}

std::string BinaryFileReader::read_string(const BinaryChunk& c) const {
  const auto bytes = read(c);
  std::string s(bytes.begin(), bytes.end());
  const auto nul = s.find('\0');
  if (nul != std::string::npos) s.resize(nul);
  return s;
}

}  // namespace fringe::io
