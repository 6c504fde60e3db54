// vis_summary: the header, statistics, run log or settings of visibility files, as OSKAR
// 2.13's oskar_vis_summary (docs/vis_tools.md): vis_summary [-a] [-t] [-l] [-s] files...
#include <ostream>

#include "fringe/app/vis_tool_cli.h"
#include "fringe/vistools/vis_summary.h"

int main(int argc, char** argv) {
  fringe::app::ToolSpec spec;
  spec.name = "vis_summary";
  spec.oskar_name = "oskar_vis_summary";
  spec.version = FRINGE_VERSION;
  spec.description =
      "Prints a summary of OSKAR visibility files or Measurement Sets (the header when no\n"
      "other part is asked for).";
  spec.inputs_label = "OSKAR visibility file";
  spec.flags = {fringe::app::switch_flag("-l", "--log", "Display the simulation log."),
                fringe::app::switch_flag("-s", "--opts", "Display the simulation settings file."),
                fringe::app::switch_flag("-t", "--stats", "Display visibility statistics."),
                fringe::app::switch_flag("-a", "--header", "Display header.")};
  spec.examples = {"vis_summary example.vis", "vis_summary -t example.vis", "vis_summary -a x.ms"};
  return fringe::app::run_tool(
      argc, argv, spec, [](const fringe::app::ToolArgs& a, std::ostream& out, std::ostream& err) {
        fringe::vistools::VisSummaryConfig c;
        c.inputs = a.inputs;
        c.header = a.is_set("-a");
        c.stats = a.is_set("-t");
        c.log = a.is_set("-l");
        c.settings = a.is_set("-s");
        fringe::vistools::vis_summary(c, out, err);
      });
}
