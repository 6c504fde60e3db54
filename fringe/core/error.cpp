#include "fringe/core/error.h"

#include <utility>

namespace fringe {

std::string format_error(const std::string& message, const ErrorContext& c) {
  std::string prefix;
  if (!c.file.empty()) {
    prefix = c.file;
    if (c.line > 0) prefix += ":" + std::to_string(c.line);
    if (c.column > 0) prefix += ":" + std::to_string(c.column);
    prefix += ": ";
  }
  if (!c.key.empty()) {
    prefix += "setting '" + c.key + "' = '" + c.value + "': ";
  } else if (!c.field.empty()) {
    prefix += "field '" + c.field + "' = '" + c.value + "': ";
  }
  return prefix + message;
}

Error::Error(const std::string& message)
    : std::runtime_error(message), message_(message), full_(message) {}

Error::Error(const std::string& message, ErrorContext context)
    : std::runtime_error(format_error(message, context)),
      message_(message),
      context_(std::move(context)),
      full_(format_error(message_, context_)) {}

void Error::relabel(std::string message, ErrorContext context) {
  message_ = std::move(message);
  context_ = std::move(context);
  full_ = format_error(message_, context_);
}

Error Error::in_file(const std::string& file, long line, const std::string& message) {
  ErrorContext c;
  c.file = file;
  c.line = line;
  return Error(message, std::move(c));
}

Error Error::in_setting(const std::string& key, const std::string& value,
                        const std::string& message) {
  ErrorContext c;
  c.key = key;
  c.value = value;
  return Error(message, std::move(c));
}

Error Error::in_field(const std::string& field, const std::string& value,
                      const std::string& message) {
  ErrorContext c;
  c.field = field;
  c.value = value;
  return Error(message, std::move(c));
}

}  // namespace fringe
