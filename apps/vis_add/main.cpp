// vis_add: the sum of visibility files, as OSKAR 2.13's oskar_vis_add (docs/vis_tools.md):
// vis_add [-o out.vis] [-q] a.vis b.vis..., or Measurement Sets (output out.ms by default).
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>

#include "fringe/app/vis_tool_cli.h"
#include "fringe/vistools/vis_add.h"

int main(int argc, char** argv) {
  fringe::app::ToolSpec spec;
  spec.name = "vis_add";
  spec.oskar_name = "oskar_vis_add";
  spec.version = FRINGE_VERSION;
  spec.description =
      "Combines (adds) OSKAR visibility files, or Measurement Sets (their DATA).\n"
      "The output is out.vis (or out.ms for Measurement Sets) unless -o names it.";
  spec.inputs_label = "OSKAR visibility files...";
  spec.min_inputs = 2;
  spec.flags = {fringe::app::value_flag("-o", "--output", "Output visibility file name", "out.vis"),
                fringe::app::switch_flag("-q", "--quiet", "Disable log messages")};
  spec.examples = {"vis_add file1.vis file2.vis", "vis_add file1.vis file2.vis -o combined.vis",
                   "vis_add -q a.ms b.ms -o sum.ms"};
  return fringe::app::run_tool(
      argc, argv, spec, [](const fringe::app::ToolArgs& a, std::ostream& out, std::ostream&) {
        fringe::vistools::VisAddConfig c;
        c.inputs = a.inputs;
        if (a.is_set("-o")) c.output = a.get("-o");
        const bool verbose = !a.is_set("-q");
        if (verbose) {
          // The default name depends on the inputs: out.vis, or out.ms for Measurement Sets.
          std::string shown = a.get("-o");
          if (c.output.empty() && std::filesystem::is_directory(c.inputs.front())) shown = "out.ms";
          out << "Output visibility file: " << shown << "\n"
              << "Combining the " << c.inputs.size() << " input files:\n";
          char line[32];
          for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            std::snprintf(line, sizeof line, "  [%02zu] ", i);
            out << line << c.inputs[i] << "\n";
          }
        }
        const auto r = fringe::vistools::vis_add(c);
        if (verbose) out << "Wrote " << r.output << "\n";
      });
}
