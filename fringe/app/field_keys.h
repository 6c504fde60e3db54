// From typed-config fields to settings keys. The library below the app layer knows no settings
// keys: its errors and warnings name config fields as "Struct.member" (ErrorContext::field,
// core/error.h, and the same words in message text). Each app maps those names back to the keys
// its user wrote, so the user still reads "setting 'image/size' = '3': ...".
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/settings/app_cli.h"

namespace fringe {
class Logger;
}

namespace fringe::app {

// "Struct.member" -> "group/key" for one app.
using FieldKeys = std::map<std::string, std::string, std::less<>>;

// The maps of the four apps (field_keys_<app>.cpp). The simulator and beam-pattern maps
// include station_beam_field_keys(), as both read the same telescope keys.
const FieldKeys& simulator_field_keys();
const FieldKeys& beam_pattern_field_keys();
const FieldKeys& imager_field_keys();
const FieldKeys& calibrate_field_keys();
// jones::StationBeamConfig's fields and their telescope/... keys (field_keys_station_beam.cpp).
const FieldKeys& station_beam_field_keys();
// The observation/... keys of astro::ObservationConfig, shared by both simulator apps.
const FieldKeys& observation_field_keys();

// a and b in one map (a's key wins where both name a field).
FieldKeys merge(const FieldKeys& a, const FieldKeys& b);

// Every "Struct.member" of `keys` in text replaced by its key (longest names first, so
// "A.b_c" is not taken for "A.b").
std::string fields_to_keys(std::string_view text, const FieldKeys& keys);

// e with its field turned into the key and its message rewritten; e itself when nothing maps.
Error with_keys(const Error& e, const FieldKeys& keys);

// Runs f; a fringe::Error it throws is relabelled by with_keys and rethrown as the same object
// (its type, and so the app's exit code, stays), and the logger (may be null) rewrites fields in
// its messages for the duration.
template <typename F>
decltype(auto) with_setting_keys(const FieldKeys& keys, Logger* logger, F&& f);

// Installs/removes the logger rewrite (used by with_setting_keys).
void rewrite_fields(Logger* logger, const FieldKeys* keys);

template <typename F>
decltype(auto) with_setting_keys(const FieldKeys& keys, Logger* logger, F&& f) {
  struct Restore {
    Logger* logger;
    ~Restore() { rewrite_fields(logger, nullptr); }
  } restore{logger};
  rewrite_fields(logger, &keys);
  try {
    return std::forward<F>(f)();
  } catch (Error& e) {
    const Error mapped = with_keys(e, keys);
    e.relabel(mapped.message(), mapped.context());
    throw;
  }
}

}  // namespace fringe::app
