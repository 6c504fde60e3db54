#include "fringe/sim/run_files.h"

#include <filesystem>
#include <system_error>

#include "fringe/imager/imager_config.h"
#include "fringe/io/fits/fits_image_writer.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/sim/beam_pattern_output.h"
#include "fringe/sky/sky_writer.h"

namespace fringe::sim {
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

OutputTarget target(std::string key, std::string path, OutputKind kind) {
  OutputTarget t;
  t.key = std::move(key);
  t.path = std::move(path);
  t.kind = kind;
  return t;
}

OutputTarget text(std::string key, std::string path, const char* signature) {
  OutputTarget t = target(std::move(key), std::move(path), OutputKind::Text);
  t.text_signature = signature;
  return t;
}

// The gain table of a run and its CSV twin (io/ms/gain_table.h).
void add_gains(std::vector<OutputTarget>& out, const std::string& key, const std::string& path) {
  out.push_back(io::gain_table_target(key, path));
  out.push_back(io::gain_csv_target(key, path + ".csv"));
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

std::vector<OutputTarget> interferometer_outputs(const SimulationConfig& config,
                                                 const settings::Settings& s,
                                                 const calibrate::CalibrateMsConfig* calibration,
                                                 const imager::ImagerConfig* imaging) {
  std::vector<OutputTarget> out;
  const std::string ms = io::ms_output_path(config.ms_path);
  out.push_back(target("interferometer/ms_filename", ms, OutputKind::MeasurementSet));
  if (config.corruption.enable) {
    add_gains(out, "interferometer/gain_corruption/enable", ms + ".true_gains");
  }
  const std::string sky_text = "sky/output_text_file";
  if (s.has(sky_text) && s.is_enabled(sky_text) && !s.get(sky_text).empty()) {
    out.push_back(sky::sky_text_target(sky_text, s.get_path(sky_text)));
  }
  if (calibration) {
    add_gains(out, "calibrate/output_gains",
              calibration->gains_path.empty() ? calibration->ms_path + ".gains"
                                              : calibration->gains_path);
  }
  if (imaging && imaging->model_image.empty()) {  // prediction writes into the MS instead
    for (const std::string& name : imager::product_names(imaging->image_type)) {
      out.push_back(io::fits_target("image/root_path", imaging->root_path + "_" + name + ".fits"));
    }
  }
  return out;
}

std::vector<OutputTarget> beam_pattern_outputs(const std::vector<BeamProduct>& products,
                                               const std::string& root_path, bool keep_log_file) {
  std::vector<OutputTarget> out;
  for (const BeamProduct& p : products) {
    out.push_back(product_output_target("beam_pattern/root_path", p));
  }
  if (keep_log_file) {
    out.push_back(text("simulator/keep_log_file", root_path + ".log", kBeamPatternLogSignature));
  }
  return out;
}

}  // namespace fringe::sim
