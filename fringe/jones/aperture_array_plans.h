// The aperture-array plans (aperture_array.h) of the stations of one station-Jones evaluation
// (station_jones.h): for entry p of input.stations, the beam direction of its station at the
// input's time (the default pointing or the pointing file's override, then permitted-beam
// snapping), its tiles' directions, the normalisation direction (the phase centre) when
// normalise_beams_at_phase_centre is set, the frequency and the time step. Shared by the CPU
// evaluation, the CUDA back end's callers, tests and benchmarks.
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/jones/aperture_array.h"
#include "fringe/jones/station_jones.h"

namespace fringe::jones {

// Requires input.aperture_array; throws fringe::Error for a station id outside the model.
AaStationPlan aperture_array_plan(const StationBeamConfig& config, const StationJonesInput& input,
                                  std::size_t p);

// The plans of every entry of input.stations (OpenMP over stations).
std::vector<AaStationPlan> aperture_array_plans(const StationBeamConfig& config,
                                                const StationJonesInput& input);

}  // namespace fringe::jones
