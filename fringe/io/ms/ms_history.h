// HISTORY ORIGINs of the Measurement Sets fringe writes (docs/ms_output.md): the settings
// file, one row per line, under OSKAR 2.13's name for it (tools that read OSKAR's settings
// back from an MS find them); fringe's run log under its own name (its lines are not in
// OSKAR's log format, which a reader of OSKAR_LOG rows may expect).
// casacore-free header, C++17.
#pragma once

namespace fringe::io {

inline constexpr const char* kMsSettingsOrigin = "OSKAR_SETTINGS";
inline constexpr const char* kMsLogOrigin = "FRINGE_LOG";

}  // namespace fringe::io
