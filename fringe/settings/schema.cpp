#include "fringe/settings/schema.h"

#include <tinyxml2.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/settings/text.h"

namespace fringe::settings {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

namespace {

bool is_setting_element(const XMLElement* e) {
  std::string_view n = e->Name();
  return n == "s" || n == "setting" || n == "key";
}

const char* attribute(const XMLElement* e, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const char* v = e->Attribute(n)) return v;
  return nullptr;
}

const XMLElement* child(const XMLElement* e, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const XMLElement* c = e->FirstChildElement(n)) return c;
  return nullptr;
}

// Collapses runs of white space to one space and trims.
std::string collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
    } else {
      if (space && !out.empty()) out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

// The content of an element as XML text (keeps markup such as <b> in descriptions).
std::string inner_xml(const XMLElement* e) {
  tinyxml2::XMLPrinter printer(nullptr, true);
  for (const XMLNode* n = e->FirstChild(); n; n = n->NextSibling()) n->Accept(&printer);
  return collapse(printer.CStr());
}

std::string dir_of(const std::string& path) {
  size_t p = path.rfind('/');
  return p == std::string::npos ? std::string() : path.substr(0, p + 1);
}

std::string base_of(const std::string& path) {
  size_t p = path.rfind('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

std::unique_ptr<XMLDocument> parse_document(const std::string& text, const std::string& name) {
  auto doc = std::make_unique<XMLDocument>();
  if (doc->Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    const char* why = doc->ErrorStr();
    throw Error::in_file(name, doc->ErrorLineNum(),
                         std::string("invalid XML: ") + (why ? why : "parse error"));
  }
  return doc;
}

// The nodes that importing a document contributes: the children of a <root> element, or the
// top-level elements.
std::vector<const XMLNode*> import_content(const XMLDocument& doc) {
  std::vector<const XMLNode*> out;
  const XMLElement* first = doc.FirstChildElement();
  if (first && std::string_view(first->Name()) == "root" && !first->NextSiblingElement()) {
    for (const XMLNode* n = first->FirstChild(); n; n = n->NextSibling()) out.push_back(n);
  } else {
    for (const XMLElement* e = first; e; e = e->NextSiblingElement()) out.push_back(e);
  }
  return out;
}

// "a -> b -> a": the part of `stack` from `repeated` on, then `repeated` again.
std::string cycle_chain(const std::vector<std::string>& stack, const std::string& repeated) {
  std::string chain;
  bool in_cycle = false;
  for (const std::string& item : stack) {
    in_cycle = in_cycle || item == repeated;
    if (in_cycle) chain += "'" + item + "' -> ";
  }
  return chain + "'" + repeated + "'";
}

class Loader {
 public:
  explicit Loader(const SchemaFiles& files) : files_(files) {}

  std::string resolve(const std::string& importer, const std::string& name, long line) const {
    if (files_.count(name)) return name;
    std::string rel = dir_of(importer) + name;
    if (files_.count(rel)) return rel;
    std::string found;
    for (const auto& [file, text] : files_) {
      if (base_of(file) == base_of(name)) {
        if (!found.empty()) {
          std::string message = "import '" + name;
          message += "' is ambiguous: '" + found;
          message += "' or '" + file + "'";
          throw Error::in_file(importer, line, message);
        }
        found = file;
      }
    }
    if (found.empty())
      throw Error::in_file(importer, line, "imported schema file '" + name + "' not found");
    return found;
  }

  // Parses a file and inlines its file imports (recursively).
  std::unique_ptr<XMLDocument> load(const std::string& file) {
    for (const auto& f : stack_)
      if (f == file) throw Error("schema files import each other in a cycle: '" + file + "'");
    auto it = files_.find(file);
    if (it == files_.end()) throw Error("schema file '" + file + "' not found");
    auto doc = parse_document(it->second, file);
    stack_.push_back(file);
    expand(*doc, doc.get(), file);
    stack_.pop_back();
    return doc;
  }

 private:
  void expand(XMLDocument& doc, XMLNode* parent, const std::string& file) {
    for (XMLNode* n = parent->FirstChild(); n;) {
      XMLElement* e = n->ToElement();
      if (e && std::string_view(e->Name()) == "import" && e->Attribute("filename")) {
        std::string name = resolve(file, e->Attribute("filename"), e->GetLineNum());
        if (std::find(stack_.begin(), stack_.end(), name) != stack_.end()) {
          throw Error::in_file(
              file, e->GetLineNum(),
              "schema files import each other in a cycle: " + cycle_chain(stack_, name));
        }
        auto sub = load(name);
        XMLNode* after = e;
        for (const XMLNode* m : import_content(*sub)) {
          XMLNode* c = m->DeepClone(&doc);
          parent->InsertAfterChild(after, c);
          after = c;
        }
        XMLNode* next = after->NextSibling();
        parent->DeleteChild(e);
        n = next;
        continue;
      }
      if (e) expand(doc, e, file);
      n = n->NextSibling();
    }
  }

  const SchemaFiles& files_;
  std::vector<std::string> stack_;
};

// Collects <group k=".."> templates and replaces <import group=".."/> by copies of them.
// A group's own imports are expanded (depth first) before it is copied, so a group that
// imports itself, directly or through others, is found at once and refused with the chain of
// group names (copying it would nest without end and overflow the stack). The total of
// copied elements is bounded too: groups that each import the next twice grow exponentially.
void expand_groups(XMLDocument& doc, const std::string& name) {
  constexpr long kMaxCopiedElements = 100000;  // real schemas copy a few hundred
  std::map<std::string, XMLElement*> groups;
  auto collect = [&](auto&& self, XMLElement* e) -> void {
    for (XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) == "group") {
        const char* k = attribute(c, {"k", "key"});
        if (!k) throw Error::in_file(name, c->GetLineNum(), "<group> without a k attribute");
        groups[k] = c;
      }
      self(self, c);
    }
  };
  for (XMLElement* e = doc.FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (std::string_view(e->Name()) == "group") {
      const char* k = attribute(e, {"k", "key"});
      if (k) groups[k] = e;
    }
    collect(collect, e);
  }
  auto count_elements = [](auto&& self, const XMLNode* n) -> long {
    long count = 0;
    for (const XMLElement* c = n->FirstChildElement(); c; c = c->NextSiblingElement())
      count += 1 + self(self, c);
    return count;
  };
  std::vector<std::string> expanding;    // groups whose expansion is under way, outermost first
  std::map<std::string, long> expanded;  // group -> number of elements it copies
  long copied = 0;
  auto expand = [&](auto&& self, XMLNode* parent) -> void {
    for (XMLNode* n = parent->FirstChild(); n;) {
      XMLElement* e = n->ToElement();
      if (e && std::string_view(e->Name()) == "import" && e->Attribute("group")) {
        const std::string g = e->Attribute("group");
        auto it = groups.find(g);
        if (it == groups.end())
          throw Error::in_file(name, e->GetLineNum(), "unknown settings group '" + g + "'");
        if (std::find(expanding.begin(), expanding.end(), g) != expanding.end()) {
          throw Error::in_file(
              name, e->GetLineNum(),
              "settings groups import each other in a cycle: " + cycle_chain(expanding, g));
        }
        if (!expanded.count(g)) {
          expanding.push_back(g);
          self(self, it->second);
          expanding.pop_back();
          expanded[g] = count_elements(count_elements, it->second);
        }
        copied += expanded[g];
        if (copied > kMaxCopiedElements) {
          throw Error::in_file(name, e->GetLineNum(),
                               "settings group imports expand to more than " +
                                   std::to_string(kMaxCopiedElements) + " elements");
        }
        XMLNode* after = e;
        for (const XMLNode* m = it->second->FirstChild(); m; m = m->NextSibling()) {
          XMLNode* c = m->DeepClone(&doc);
          parent->InsertAfterChild(after, c);
          after = c;
        }
        XMLNode* next = after->NextSibling();  // the copies are already expanded
        parent->DeleteChild(e);
        n = next;
        continue;
      }
      if (e && std::string_view(e->Name()) != "group") self(self, e);
      n = n->NextSibling();
    }
  };
  expand(expand, &doc);
}

Compare parse_compare(const char* c, const std::string& file, long line) {
  std::string u = to_upper(c ? c : "EQ");
  if (u.empty() || u == "EQ") return Compare::EQ;
  if (u == "NE") return Compare::NE;
  if (u == "GT") return Compare::GT;
  if (u == "GE") return Compare::GE;
  if (u == "LT") return Compare::LT;
  if (u == "LE") return Compare::LE;
  throw Error::in_file(
      file, line,
      "unknown dependency condition '" + std::string(c) + "' (expected EQ, NE, GT, GE, LT or LE)");
}

bool parse_flag(const char* v, const std::string& what, const std::string& file, long line) {
  if (!v) return false;
  std::string u = to_upper(trim(v));
  if (u == "TRUE" || u == "YES" || u == "1") return true;
  if (u.empty() || u == "FALSE" || u == "NO" || u == "0") return false;
  throw Error::in_file(file, line, "attribute " + what + "='" + v + "': expected true or false");
}

}  // namespace

class SchemaBuilder {
 public:
  SchemaBuilder(Schema& s, std::string name) : s_(s), name_(std::move(name)) {}

  void build(XMLDocument& doc) {
    for (const XMLElement* e = doc.FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string_view(e->Name()) == "root")
        walk(e, -1, "");
      else if (is_setting_element(e))
        declare(e, -1, "");
    }
    check_dependencies();
  }

 private:
  void walk(const XMLElement* parent, int parent_index, const std::string& prefix) {
    for (const XMLElement* e = parent->FirstChildElement(); e; e = e->NextSiblingElement())
      if (is_setting_element(e)) declare(e, parent_index, prefix);
  }

  void declare(const XMLElement* e, int parent_index, const std::string& prefix) {
    const long line = e->GetLineNum();
    const char* k = attribute(e, {"k", "key"});
    if (!k || !*k) throw Error::in_file(name_, line, "setting element without a k attribute");
    SettingNode node;
    node.leaf = k;
    node.key = prefix.empty() ? node.leaf : prefix + "/" + node.leaf;
    node.parent = parent_index;
    auto fail = [&](const std::string& msg) -> void {
      throw Error::in_file(name_, line, "setting '" + node.key + "': " + msg);
    };
    if (s_.index_.count(node.key)) fail("declared twice");
    node.required = parse_flag(attribute(e, {"required", "req", "r"}), "required", name_, line);
    if (const char* p = attribute(e, {"priority", "p"})) {
      try {
        node.priority = std::stoi(p);
      } catch (const std::exception&) {
        fail("priority='" + std::string(p) + "' is not an integer");
      }
    }
    node.unsupported = parse_flag(e->Attribute("unsupported"), "unsupported", name_, line);
    if (const XMLElement* l = child(e, {"label", "l"})) node.label = inner_xml(l);
    if (const XMLElement* d = child(e, {"desc", "description"})) node.description = inner_xml(d);
    if (const XMLElement* t = child(e, {"type", "t"})) {
      const char* tn = attribute(t, {"name", "n"});
      if (!tn) fail("<type> without a name");
      try {
        node.type = SettingType::make(tn, t->GetText() ? t->GetText() : "");
        if (const char* u = t->Attribute("unsupported")) {
          if (node.type->id() != TypeId::OptionList)
            fail("unsupported=\"...\" on <type> is only for OptionList");
          node.type->set_unsupported_options(split_list(u));
        }
        const char* d = attribute(t, {"default", "d"});
        // Checked after the unsupported options are known: a default cannot be one.
        node.default_value = node.type->normalise(d ? d : "");
      } catch (const Error& err) {
        fail(err.message());
      }
      if (node.required && !node.default_value.empty())
        fail("a required setting cannot have a default");
    }
    node.depends = parse_dependencies(e, false);
    const int index = static_cast<int>(s_.nodes_.size());
    s_.index_[node.key] = index;
    s_.index_upper_.emplace(to_upper(node.key), index);
    s_.nodes_.push_back(std::move(node));
    if (parent_index >= 0) s_.nodes_[parent_index].children.push_back(index);
    const std::string key = s_.nodes_[index].key;  // nodes_ grows while walking
    walk(e, index, key);
  }

  DependencyGroup parse_dependencies(const XMLElement* e, bool any) {
    DependencyGroup g;
    g.any = any;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      std::string_view n = c->Name();
      if (n == "depends" || n == "d") {
        Dependency d;
        const char* k = attribute(c, {"k", "key"});
        if (!k) throw Error::in_file(name_, c->GetLineNum(), "<depends> without a k attribute");
        d.key = k;
        const char* v = attribute(c, {"v", "value"});
        d.value = v ? v : "";
        d.op = parse_compare(attribute(c, {"c", "condition"}), name_, c->GetLineNum());
        g.deps.push_back(std::move(d));
      } else if (n == "logic") {
        std::string logic =
            to_upper(attribute(c, {"group", "g"}) ? attribute(c, {"group", "g"}) : "AND");
        if (logic != "AND" && logic != "OR")
          throw Error::in_file(name_, c->GetLineNum(),
                               "<logic group='" + logic + "'>: expected AND or OR");
        g.groups.push_back(parse_dependencies(c, logic == "OR"));
      }
    }
    return g;
  }

  void check_group(DependencyGroup& g, const std::string& owner) {
    for (auto& d : g.deps) {
      const SettingNode* target = s_.find(d.key);
      if (!target || !target->is_setting())
        throw Error("schema " + name_ + ": setting '" + owner + "' depends on unknown setting '" +
                    d.key + "'");
      d.key = target->key;
      try {
        // A dependency may name an option that is not supported yet.
        SettingType type = *target->type;
        type.set_unsupported_options({});
        d.value = type.normalise(d.value);
      } catch (const Error& err) {
        throw Error("schema " + name_ + ": setting '" + owner + "' depends on '" + d.key + "' = '" +
                    d.value + "': " + err.message());
      }
    }
    for (auto& sub : g.groups) check_group(sub, owner);
  }

  void check_dependencies() {
    for (auto& n : s_.nodes_) check_group(n.depends, n.key);
  }

  Schema& s_;
  std::string name_;
};

Schema Schema::load(const SchemaFiles& files, const std::string& root_file) {
  Loader loader(files);
  auto doc = loader.load(root_file);
  Schema s;
  tinyxml2::XMLPrinter printer;
  doc->Print(&printer);
  s.merged_xml_ = printer.CStr();
  expand_groups(*doc, root_file);
  SchemaBuilder(s, root_file).build(*doc);
  return s;
}

Schema Schema::parse(const std::string& xml, const std::string& name) {
  SchemaFiles files{{name, xml}};
  return load(files, name);
}

int Schema::index_of(std::string_view key) const {
  auto it = index_.find(std::string(key));
  if (it != index_.end()) return it->second;
  auto iu = index_upper_.find(to_upper(key));
  return iu == index_upper_.end() ? -1 : iu->second;
}

const SettingNode* Schema::find(std::string_view key) const {
  int i = index_of(key);
  return i < 0 ? nullptr : &nodes_[i];
}

std::vector<std::string> Schema::setting_keys() const {
  std::vector<std::string> keys;
  for (const auto& n : nodes_)
    if (n.is_setting()) keys.push_back(n.key);
  return keys;
}

}  // namespace fringe::settings
