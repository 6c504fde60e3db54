#include "fringe/app/run_files.h"

#include <filesystem>
#include <system_error>

namespace fringe::app {
namespace {

bool is_input_type(settings::TypeId id) {
  return id == settings::TypeId::InputFile || id == settings::TypeId::InputFileList ||
         id == settings::TypeId::InputDirectory;
}

bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  const auto ca = std::filesystem::weakly_canonical(a, ec1);
  const auto cb = std::filesystem::weakly_canonical(b, ec2);
  return !ec1 && !ec2 && ca == cb;
}

}  // namespace

std::vector<std::string> run_inputs(const settings::Settings& s, const std::string& settings_file,
                                    const std::vector<std::string>& exclude) {
  std::vector<std::string> inputs;
  if (!settings_file.empty()) inputs.push_back(settings_file);
  for (const auto& node : s.schema().nodes()) {
    if (!node.is_setting() || !is_input_type(node.type->id())) continue;
    if (!s.is_enabled(node.key) || s.get(node.key).empty()) continue;
    const bool list = node.type->id() == settings::TypeId::InputFileList;
    for (const std::string& p :
         list ? s.get_path_list(node.key) : std::vector<std::string>{s.get_path(node.key)}) {
      if (p.empty()) continue;
      bool skip = false;
      for (const auto& e : exclude) skip = skip || same_path(p, e);
      if (!skip) inputs.push_back(p);
    }
  }
  return inputs;
}

}  // namespace fringe::app
