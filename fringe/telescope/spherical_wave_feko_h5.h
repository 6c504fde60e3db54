// OSKAR 2.13's FEKO spherical-wave coefficient HDF5 files (*FEKO*.h5; docs/station_beams.md,
// "FEKO coefficients"), read through fringe/io/hdf5.
//
// The file holds one 2-D dataset per antenna, feed and frequency, named X<a>_<Hz> and
// Y<a>_<Hz> (antenna a = 1, 2, ... is element type a - 1; the frequency in Hz, written
// without decimals). Each dataset has 2 rows of 2 ((L + 1)^2 - 1) numbers: row 0 the
// amplitudes, row 1 the phases in degrees, both interleaved (TE, TM) per mode index
// j = l*l + l - 1 + m (l = 1..L, m = -l..l). Every antenna needs both feeds at every frequency
// that any dataset names; names that do not parse as <X|Y><integer>_<number> are ignored (as
// OSKAR does). The two feeds may have different L: the larger is used, the other padded with
// zeros; max_order > 0 caps L.
#pragma once

#include <string>
#include <vector>

#include "fringe/telescope/spherical_wave_files.h"

namespace fringe::telescope {

// Adds the coefficients of one FEKO HDF5 file to `types` (index = element type; feko and
// common_phi set; a frequency already held in the FEKO convention for a type is replaced, as
// OSKAR does). Throws fringe::Error naming the file and the dataset: a dataset missing,
// not 2-D with 2 rows, a length that is not 2 ((L + 1)^2 - 1) for an integer L >= 1,
// non-finite values, an antenna number < 1, or no coefficient datasets at all.
void load_feko_h5(const std::string& path, int max_order, std::vector<ElementTypePattern>& types);

}  // namespace fringe::telescope
