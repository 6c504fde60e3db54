// vis_add_noise: adds system noise to visibility files, as OSKAR 2.13's oskar_vis_add_noise
// (docs/vis_tools.md): vis_add_noise -s settings.ini [-v] [-q] [-i] [-c COLUMN] files...
// x.vis -> x_noise.vis, x.ms -> x_noise.ms (-i: replace the input when complete).
#include <ostream>

#include "fringe/app/vis_noise_settings.h"
#include "fringe/app/vis_tool_cli.h"
#include "fringe/core/log.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/vistools/vis_add_noise.h"

int main(int argc, char** argv) {
  fringe::app::ToolSpec spec;
  spec.name = "vis_add_noise";
  spec.oskar_name = "oskar_vis_add_noise";
  spec.version = FRINGE_VERSION;
  spec.description =
      "Adds system noise to OSKAR visibility files or Measurement Sets, as set by the\n"
      "interferometer/noise keys of a sim_interferometer settings file. x.vis is written\n"
      "to x_noise.vis, x.ms to x_noise.ms.";
  spec.inputs_label = "OSKAR visibility file(s)...";
  spec.flags = {
      fringe::app::value_flag("-s", "", "OSKAR settings file (noise settings); required", ""),
      fringe::app::switch_flag("-v", "", "Verbose logging."),
      fringe::app::switch_flag("-q", "", "Suppress all logging output."),
      fringe::app::switch_flag("-i", "--in-place",
                               "Replace each input (when its noisy copy is complete)"),
      fringe::app::value_flag("-c", "--column", "Measurement Sets: the column that gets the noise",
                              "DATA")};
  spec.examples = {"vis_add_noise -s sim.ini example.vis", "vis_add_noise -s sim.ini -i run.ms"};
  return fringe::app::run_tool(
      argc, argv, spec, [](const fringe::app::ToolArgs& a, std::ostream& out, std::ostream& err) {
        if (a.get("-s").empty()) {
          throw fringe::Error("a settings file is required (-s settings.ini)");
        }
        fringe::Logger log(out);
        if (a.is_set("-q")) log.set_level(fringe::LogLevel::Warning);
        if (a.is_set("-v")) log.set_level(fringe::LogLevel::Debug);
        const fringe::app::VisNoiseSettings noise = fringe::app::read_vis_noise_settings(
            a.get("-s"), fringe::settings::embedded_schemas(), log, err);
        fringe::vistools::VisAddNoiseConfig c;
        c.inputs = a.inputs;
        c.noise = noise.table;
        c.seed = noise.seed;
        c.in_place = a.is_set("-i");
        c.column = a.get("-c");
        c.other_inputs = noise.input_files;
        log.debug("Settings file: " + a.get("-s") + ", seed " + std::to_string(c.seed));
        const auto r = fringe::vistools::vis_add_noise(c, &log);
        for (const auto& o : r.outputs) log.info("Wrote " + o);
      });
}
