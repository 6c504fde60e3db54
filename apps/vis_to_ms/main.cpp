// vis_to_ms: OSKAR .vis files -> a Measurement Set, as OSKAR 2.13's oskar_vis_to_ms
// (docs/vis_tools.md): vis_to_ms [-o out.ms] [-p] [-q] files.vis...
#include <cstdio>
#include <ostream>

#include "fringe/app/vis_tool_cli.h"
#include "fringe/core/log.h"
#include "fringe/vistools/vis_to_ms.h"

int main(int argc, char** argv) {
  fringe::app::ToolSpec spec;
  spec.name = "vis_to_ms";
  spec.oskar_name = "oskar_vis_to_ms";
  spec.version = FRINGE_VERSION;
  spec.description =
      "Converts one or more OSKAR visibility binary files to a Measurement Set.\n"
      "Several files are stitched one after the other in time. If not specified, the\n"
      "Measurement Set is named 'out.ms'.";
  spec.inputs_label = "OSKAR visibility files...";
  spec.flags = {fringe::app::value_flag("-o", "--output", "Output Measurement Set name", "out.ms"),
                fringe::app::switch_flag("-p", "--force_polarised", "Force polarised MS format"),
                fringe::app::switch_flag("-q", "--quiet", "Disable log messages")};
  spec.examples = {"vis_to_ms file1.vis file2.vis", "vis_to_ms file1.vis file2.vis -o stitched.ms"};
  return fringe::app::run_tool(
      argc, argv, spec, [](const fringe::app::ToolArgs& a, std::ostream& out, std::ostream&) {
        fringe::vistools::VisToMsConfig c;
        c.inputs = a.inputs;
        c.output = a.get("-o");
        c.force_polarised = a.is_set("-p");
        const bool verbose = !a.is_set("-q");
        if (verbose) {
          out << "Output Measurement Set: " << c.output << "\n"
              << "Using the " << c.inputs.size() << " input files:\n";
          char line[32];
          for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            std::snprintf(line, sizeof line, "  [%02zu] ", i);
            out << line << c.inputs[i] << "\n";
          }
        }
        const auto r = fringe::vistools::vis_to_ms(c);
        if (verbose) {
          out << "Wrote " << r.num_rows << " rows (" << r.num_times << " times) to " << r.ms_path
              << "\n";
        }
      });
}
