// The packed form of a telescope model folder tree used by the .tm fuzzer and its seed corpus
// (tests/fuzz/pack_tm.sh writes it from a real .tm folder):
//   @@ <relative path>     the lines after it, up to the next "@@" line, are that file
//   @@dir <relative path>  an empty folder
//   @@link <relative path> a symbolic link to "." (the link-loop case of issue 16)
// Text before the first header is ignored. A path is 1 to 5 components of [A-Za-z0-9_.-]
// (not "." or ".."), so nothing is ever written outside the target folder; at most 64 entries.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace fringe::fuzz {

inline bool safe_relative_path(std::string_view p) {
  if (p.empty() || p.size() > 200) return false;
  int components = 0;
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t end = std::min(p.find('/', start), p.size());
    const std::string_view c = p.substr(start, end - start);
    if (c.empty() || c == "." || c == "..") return false;
    for (const char ch : c) {
      const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
      if (!ok) return false;
    }
    if (++components > 5) return false;
    start = end + 1;
  }
  return true;
}

// Unpacks `packed` into the existing, empty folder `root`.
inline void unpack_tree(std::string_view packed, const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::ofstream out;
  int entries = 0;
  std::size_t pos = 0;
  while (pos < packed.size()) {
    std::size_t eol = packed.find('\n', pos);
    const bool last = eol == std::string_view::npos;
    if (last) eol = packed.size();
    const std::string_view line = packed.substr(pos, eol - pos);
    pos = last ? packed.size() : eol + 1;
    if (line.substr(0, 2) != "@@") {
      if (out.is_open()) {
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
        if (!last) out.put('\n');
      }
      continue;
    }
    out.close();
    if (++entries > 64) break;
    std::string_view kind = line.substr(2);
    std::string_view rel;
    const std::size_t space = kind.find(' ');
    if (space == std::string_view::npos) continue;
    rel = kind.substr(space + 1);
    kind = kind.substr(0, space);
    if (!safe_relative_path(rel)) continue;
    const fs::path target = root / std::string(rel);
    fs::create_directories(target.parent_path(), ec);
    if (kind.empty()) {
      out.open(target, std::ios::binary);
    } else if (kind == "dir") {
      fs::create_directories(target, ec);
    } else if (kind == "link") {
      fs::create_directory_symlink(".", target, ec);
    }
  }
}

}  // namespace fringe::fuzz
