#include "fringe/app/field_keys.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "fringe/core/log.h"

namespace fringe::app {

std::string fields_to_keys(std::string_view text, const FieldKeys& keys) {
  std::vector<const FieldKeys::value_type*> order;
  for (const auto& kv : keys) order.push_back(&kv);
  std::sort(order.begin(), order.end(),
            [](auto* a, auto* b) { return a->first.size() > b->first.size(); });
  const auto ident = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_';
  };
  std::string out(text);
  for (const auto* kv : order) {
    const std::string& field = kv->first;
    std::size_t pos = 0;
    for (std::size_t at = out.find(field); at != std::string::npos; at = out.find(field, pos)) {
      // Only whole names: nothing of an identifier (or a '.') on either side.
      const std::size_t end = at + field.size();
      const bool whole = (end == out.size() || !ident(out[end])) &&
                         (at == 0 || !(ident(out[at - 1]) || out[at - 1] == '.'));
      if (whole) {
        out.replace(at, field.size(), kv->second);
        pos = at + kv->second.size();
      } else {
        pos = at + 1;
      }
    }
  }
  return out;
}

Error with_keys(const Error& e, const FieldKeys& keys) {
  ErrorContext c = e.context();
  if (!c.field.empty()) {
    const auto it = keys.find(c.field);
    if (it != keys.end()) {
      c.key = it->second;
      c.field.clear();
    } else if (c.field.find('/') != std::string::npos) {
      c.key = c.field;  // already a settings key (the app layer names outputs by key)
      c.field.clear();
    }
  }
  return Error(fields_to_keys(e.message(), keys), std::move(c));
}

FieldKeys merge(const FieldKeys& a, const FieldKeys& b) {
  FieldKeys out = a;
  out.insert(b.begin(), b.end());
  return out;
}

void rewrite_fields(Logger* logger, const FieldKeys* keys) {
  if (logger == nullptr) return;
  if (keys == nullptr) {
    logger->set_rewrite(nullptr);
  } else {
    logger->set_rewrite([keys](std::string_view m) { return fields_to_keys(m, *keys); });
  }
}

}  // namespace fringe::app
