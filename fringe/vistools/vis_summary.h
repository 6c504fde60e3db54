// vis_summary: what a visibility data set holds (OSKAR 2.13's oskar_vis_summary;
// docs/vis_tools.md), printed in OSKAR's log layout so that scripts parsing OSKAR's output work:
//  - header (-a, the default): the .vis header values OSKAR prints, in its order and formats;
//    for a Measurement Set the same kind of table from its columns and subtables;
//  - statistics (-t): minimum, maximum (the values of least and greatest |I|), mean and
//    standard deviation of Stokes I = (XX + YY) / 2 (the value itself for scalar data) and the
//    count of zeros, for auto- and cross-correlations; a .vis file's values as stored (in the
//    file's own phase convention, as OSKAR reads them);
//  - the run log (-l) and the settings (-s) stored in a .vis file, printed as they are.
// Units: Jy, MHz or Hz as labelled, seconds, MJD(UTC).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace fringe::vistools {

struct VisSummaryConfig {
  std::vector<std::string> inputs;  // .vis files and/or Measurement Sets
  bool header = false;              // -a (on when no other part is asked for)
  bool stats = false;               // -t
  bool log = false;                 // -l
  bool settings = false;            // -s
};

// Writes the summary of every input to out, notes about parts a Measurement Set does not have
// to err. Throws fringe::Error naming the file (and chunk) for a missing or bad input.
void vis_summary(const VisSummaryConfig& config, std::ostream& out, std::ostream& err);

}  // namespace fringe::vistools
