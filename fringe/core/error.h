// fringe::Error: the one exception type for bad input and failed runs.
// It carries where the problem is (file and line, or settings key and value) so that the
// message a user sees always names the place and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace fringe {

// Where a problem was found. Empty fields are left out of the message.
struct ErrorContext {
  std::string file;   // file path
  long line = 0;      // 1-based line number in file (0 = unknown)
  long column = 0;    // 1-based column (0 = unknown)
  std::string key;    // settings key, e.g. "observation/start_frequency_hz"
  std::string value;  // the offending value as written
  // A typed-config field, "Struct.member" (e.g. "StationBeamConfig.gaussian_fwhm_deg"), set by
  // the library, which knows no settings keys; the app layer maps it to the key the user wrote
  // (fringe/app/field_keys.h) before the message is shown.
  std::string field;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message);
  Error(const std::string& message, ErrorContext context);

  // The plain sentence without the context prefix.
  const std::string& message() const { return message_; }
  const ErrorContext& context() const { return context_; }
  // The whole text, context prefix included.
  const char* what() const noexcept override { return full_.c_str(); }

  // Replaces the sentence and the context in place, keeping the dynamic type (the app layer
  // turns config fields into settings keys and rethrows the same exception).
  void relabel(std::string message, ErrorContext context);

  // Helpers for the common cases.
  static Error in_file(const std::string& file, long line, const std::string& message);
  static Error in_setting(const std::string& key, const std::string& value,
                          const std::string& message);
  static Error in_field(const std::string& field, const std::string& value,
                        const std::string& message);

 private:
  std::string message_;
  ErrorContext context_;
  std::string full_;
};

// Formats "file:line:col: " / "setting 'key' = 'value': " / "field 'Struct.member' = 'value': "
// + message.
std::string format_error(const std::string& message, const ErrorContext& context);

}  // namespace fringe
