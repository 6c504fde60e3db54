// The settings schema: the tree of settings declared in OSKAR's XML vocabulary
// (docs/settings.md).
//   <root>                       document root (optional)
//   <s k="..">                   a setting or group (aliases setting, key; attribute key)
//       required/req/r="true|yes", priority/p="1",
//       unsupported="true"       fringe: the feature is not implemented; only the default
//                                value is accepted
//     <label>/<l>, <desc>/<description>
//     <type name/n=".." default/d="..">params</type>   (alias <t>; params = comma list,
//                                "..." protects commas; OptionList may carry
//                                unsupported="opt1,opt2" (fringe): those options are rejected)
//     <depends k/key=".." v/value=".." c/condition="EQ|NE|GT|GE|LT|LE"/>  (alias <d>;
//                                several = AND; full keys)
//     <logic group/g="AND|OR"> depends and logic nested </logic>
//   <import filename=".."/>      inlines another schema file (looked up in SchemaFiles)
//   <group k="name"> .. </group> a template, not a setting; <import group="name"/> copies
//                                its children in place
// Full key = ancestor keys joined with '/'. Dependencies of ancestors also apply.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fringe/settings/setting_type.h"

namespace fringe::settings {

// Schema files by name (e.g. "sim_interferometer.xml", "common/sky.xml") -> XML text.
using SchemaFiles = std::map<std::string, std::string>;

enum class Compare { EQ, NE, GT, GE, LT, LE };

struct Dependency {
  std::string key;    // full key of the setting it looks at
  std::string value;  // normalised with that setting's type
  Compare op = Compare::EQ;
};

struct DependencyGroup {
  bool any = false;  // false: all must hold (AND); true: one is enough (OR)
  std::vector<Dependency> deps;
  std::vector<DependencyGroup> groups;
  bool empty() const { return deps.empty() && groups.empty(); }
};

struct SettingNode {
  std::string key;   // full key, e.g. "observation/start_frequency_hz"
  std::string leaf;  // last part, e.g. "start_frequency_hz"
  std::string label;
  std::string description;
  std::optional<SettingType> type;  // absent for a group (a node with a label only)
  std::string default_value;        // normalised; "" = no default
  bool required = false;
  int priority = 0;
  bool unsupported = false;  // fringe extension: only the default value is accepted
  DependencyGroup depends;   // this node's own dependencies
  int parent = -1;           // index in Schema::nodes(), -1 for top level
  std::vector<int> children;
  bool is_setting() const { return type.has_value(); }
};

class Schema {
 public:
  // Loads root_file from files, inlining <import filename=".."/> (names are looked up as
  // given, relative to the importing file's folder, then by file name alone).
  // Throws fringe::Error naming the file, line or key on any problem.
  static Schema load(const SchemaFiles& files, const std::string& root_file);
  // One document without file imports.
  static Schema parse(const std::string& xml, const std::string& name = "schema.xml");

  // Every node in document order (depth first).
  const std::vector<SettingNode>& nodes() const { return nodes_; }
  // Finds a node by full key: exact, else case-insensitive; nullptr if none.
  const SettingNode* find(std::string_view key) const;
  int index_of(std::string_view key) const;  // -1 if none
  // Full keys of all settings (not groups), in document order.
  std::vector<std::string> setting_keys() const;

  // The XML with file imports inlined (what `app --settings` prints).
  const std::string& merged_xml() const { return merged_xml_; }

 private:
  std::vector<SettingNode> nodes_;
  std::unordered_map<std::string, int> index_;
  std::unordered_map<std::string, int> index_upper_;
  std::string merged_xml_;
  friend class SchemaBuilder;
};

}  // namespace fringe::settings
