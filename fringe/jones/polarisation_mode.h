// The polarisation mode of a run (the telescope's pol_mode): Full evaluates each station's
// 2 x 2 Jones matrix (E R, station_jones.h evaluate_station_jones_full), Scalar its beam E
// alone as one complex number (evaluate_station_jones_scalar).
#pragma once

namespace fringe::jones {

enum class PolarisationMode { Full, Scalar };

}  // namespace fringe::jones
