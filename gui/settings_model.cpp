#include "gui/settings_model.h"

#include <QColor>
#include <QFileInfo>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <sstream>

#include "fringe/core/error.h"
#include "gui/theme.h"

namespace fringe::gui {

namespace fs = fringe::settings;

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

SettingsModel::SettingsModel(QObject* parent) : QAbstractItemModel(parent) {}

void SettingsModel::set_schema(fs::Schema schema, const QString& app, const QString& version) {
  beginResetModel();
  settings_.emplace(std::move(schema));
  app_ = app;
  version_ = version;
  ini_path_.clear();
  document_.reset();
  const auto& nodes = settings_->schema().nodes();
  top_level_.clear();
  row_.assign(nodes.size(), 0);
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
    if (nodes[i].parent < 0) {
      row_[i] = static_cast<int>(top_level_.size());
      top_level_.push_back(i);
    }
    for (int r = 0; r < static_cast<int>(nodes[i].children.size()); ++r)
      row_[nodes[i].children[r]] = r;
  }
  enabled_.assign(nodes.size(), 1);
  required_unset_.assign(nodes.size(), 0);
  endResetModel();
  refresh();
}

const fs::Settings* SettingsModel::settings() const { return settings_ ? &*settings_ : nullptr; }

fs::LoadReport SettingsModel::load_ini(const QString& path, QString* app_out) {
  if (!settings_) throw fringe::Error("no application schema is loaded");
  fs::IniFile ini;
  settings_->reset_all();
  fs::LoadReport report;
  const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
  try {
    report = fs::load_ini(*settings_, file, &ini);
    document_ = fs::IniDocument::read(file);
  } catch (...) {
    refresh();
    throw;
  }
  ini_path_ = QFileInfo(path).absoluteFilePath();
  if (app_out) *app_out = qs(ini.app);
  refresh();
  return report;
}

bool SettingsModel::save_as(const QString& path) {
  if (!settings_) return false;
  const QString previous = ini_path_;
  ini_path_ = QFileInfo(path).absoluteFilePath();
  settings_->set_base_dir(QFileInfo(ini_path_).absolutePath().toStdString());
  try {
    // No file open yet: the values so far make a new file.
    if (!document_)
      document_ = fs::IniDocument::from_text(
          fs::format_ini(*settings_, app_.toStdString(), version_.toStdString()));
    document_->write(ini_path_.toStdString());
  } catch (const std::exception& e) {
    ini_path_ = previous;
    emit write_failed(QString::fromUtf8(e.what()));
    return false;
  }
  return true;
}

std::vector<fs::Problem> SettingsModel::file_problems() const {
  if (!settings_ || !document_ || ini_path_.isEmpty()) return {};
  std::istringstream in(document_->text());
  const fs::IniFile ini = fs::parse_ini(in, ini_path_.toStdString());
  fs::Settings scratch = *settings_;
  scratch.reset_all();
  fs::LoadReport report = fs::apply_ini(scratch, ini);
  std::vector<fs::Problem> problems = std::move(report.errors);
  problems.insert(problems.end(), report.warnings.begin(), report.warnings.end());
  return problems;
}

void SettingsModel::edit_document(const std::string& key) {
  if (!document_) return;
  const std::string canonical = settings_->schema().find(key)->key;
  if (settings_->is_given(canonical) && !settings_->is_default(canonical))
    document_->set(settings_->schema(), canonical, settings_->get(canonical));
  else
    document_->remove(settings_->schema(), canonical);
}

void SettingsModel::clear() {
  if (!settings_) return;
  settings_->reset_all();
  ini_path_.clear();
  document_.reset();
  refresh();
}

void SettingsModel::set_show_keys(bool keys) {
  if (keys == show_keys_) return;
  show_keys_ = keys;
  emit_all_changed(-1);
}

int SettingsModel::node_of(const QModelIndex& index) const {
  return index.isValid() ? static_cast<int>(index.internalId()) : -1;
}

const std::vector<int>& SettingsModel::children_of(int node) const {
  return node < 0 ? top_level_ : settings_->schema().nodes()[node].children;
}

QModelIndex SettingsModel::make_index(int node, int column) const {
  if (!settings_ || node < 0) return {};
  return createIndex(row_[node], column, static_cast<quintptr>(node));
}

const fs::SettingNode* SettingsModel::node_at(const QModelIndex& index) const {
  const int n = node_of(index);
  return n < 0 || !settings_ ? nullptr : &settings_->schema().nodes()[n];
}

QModelIndex SettingsModel::index_of_key(const QString& key, int column) const {
  if (!settings_) return {};
  return make_index(settings_->schema().index_of(key.toStdString()), column);
}

QModelIndex SettingsModel::index(int row, int column, const QModelIndex& parent) const {
  if (!settings_ || column < 0 || column > 1) return {};
  const auto& kids = children_of(node_of(parent));
  if (row < 0 || row >= static_cast<int>(kids.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(kids[row]));
}

QModelIndex SettingsModel::parent(const QModelIndex& child) const {
  const int n = node_of(child);
  if (n < 0) return {};
  return make_index(settings_->schema().nodes()[n].parent, 0);
}

int SettingsModel::rowCount(const QModelIndex& parent) const {
  if (!settings_ || (parent.isValid() && parent.column() != 0)) return 0;
  return static_cast<int>(children_of(node_of(parent)).size());
}

int SettingsModel::columnCount(const QModelIndex&) const { return 2; }

QVariant SettingsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == LabelColumn ? (show_keys_ ? tr("Key") : tr("Setting")) : tr("Value");
}

QString SettingsModel::tooltip(int n) const {
  const auto& node = settings_->schema().nodes()[n];
  QString tip = "<p><b>" + qs(node.label).toHtmlEscaped() + "</b><br><tt>" +
                qs(node.key).toHtmlEscaped() + "</tt></p>";
  if (!node.description.empty()) tip += "<p>" + qs(node.description) + "</p>";
  if (node.is_setting()) {
    tip += "<p>" + tr("Expects %1.").arg(qs(node.type->expected()).toHtmlEscaped());
    if (!node.default_value.empty())
      tip += "<br>" + tr("Default: %1").arg(qs(node.default_value).toHtmlEscaped());
    tip += "</p>";
  }
  if (node.required) tip += "<p><b>" + tr("[Required]") + "</b></p>";
  if (!enabled_[n])
    tip += "<p><i>" + tr("Disabled: the settings it depends on are off.") + "</i></p>";
  return tip;
}

QVariant SettingsModel::data(const QModelIndex& index, int role) const {
  const int n = node_of(index);
  if (n < 0 || !settings_) return {};
  const auto& node = settings_->schema().nodes()[n];
  const bool is_setting = node.is_setting();
  const bool bool_type = is_setting && node.type->id() == fs::TypeId::Bool;
  const std::string value = is_setting ? settings_->get(node.key) : std::string();
  const bool non_default = is_setting && !settings_->is_default(node.key);
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == LabelColumn) return show_keys_ ? qs(node.key) : qs(node.label);
      return bool_type ? QVariant() : QVariant(qs(value));
    case Qt::EditRole:
      if (index.column() == LabelColumn) return qs(node.key);
      return qs(value);
    case Qt::CheckStateRole:
      if (index.column() == ValueColumn && bool_type)
        return node.type->to_bool(value.empty() ? "false" : value) ? Qt::Checked : Qt::Unchecked;
      return {};
    case Qt::ToolTipRole:
      return tooltip(n);
    case Qt::ForegroundRole:
      if (required_unset_[n] && enabled_[n]) return QColor(Qt::white);
      if (!enabled_[n]) return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
      if (non_default) return QGuiApplication::palette().color(QPalette::Link);
      return {};
    case Qt::BackgroundRole:
      if (required_unset_[n] && enabled_[n]) return required_colour();
      return {};
    case Qt::FontRole:
      if (!is_setting && node.parent < 0) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case KeyRole:
      return qs(node.key);
    case IsSettingRole:
      return is_setting;
    case EnabledRole:
      return static_cast<bool>(enabled_[n]);
    case RequiredUnsetRole:
      return static_cast<bool>(required_unset_[n]);
    case NonDefaultRole:
      return non_default;
    case DefaultValueRole:
      return qs(node.default_value);
    case ExpectedRole:
      return is_setting ? qs(node.type->expected()) : QString();
    default:
      return {};
  }
}

Qt::ItemFlags SettingsModel::flags(const QModelIndex& index) const {
  const int n = node_of(index);
  if (n < 0) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  const auto& node = settings_->schema().nodes()[n];
  if (index.column() == ValueColumn && node.is_setting() && enabled_[n]) {
    if (node.type->id() == fs::TypeId::Bool)
      f |= Qt::ItemIsUserCheckable;
    else
      f |= Qt::ItemIsEditable;
  }
  return f;
}

bool SettingsModel::set_value(const QString& key, const QString& value) {
  if (!settings_) return false;
  try {
    settings_->set(key.toStdString(), value.toStdString());
  } catch (const fringe::Error& e) {
    emit edit_rejected(QString::fromUtf8(e.what()));
    return false;
  }
  edit_document(key.toStdString());
  refresh();
  write_through();
  return true;
}

bool SettingsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const auto* node = node_at(index);
  if (!node || !node->is_setting() || index.column() != ValueColumn) return false;
  if (!enabled_[node_of(index)]) return false;
  if (role == Qt::CheckStateRole && node->type->id() == fs::TypeId::Bool) {
    const bool on = value.toInt() == Qt::Checked;
    return set_value(qs(node->key), on ? "true" : "false");
  }
  if (role != Qt::EditRole) return false;
  return set_value(qs(node->key), value.toString());
}

bool SettingsModel::reset(const QModelIndex& index) {
  const int n = node_of(index);
  if (n < 0 || !settings_) return false;
  const auto& nodes = settings_->schema().nodes();
  bool changed = false;
  // Depth-first order: a node's descendants follow it until the next node at its depth.
  for (int i = n; i < static_cast<int>(nodes.size()); ++i) {
    if (i != n) {
      int a = nodes[i].parent;
      while (a >= 0 && a != n) a = nodes[a].parent;
      if (a != n) break;
    }
    if (nodes[i].is_setting() && settings_->is_given(nodes[i].key)) {
      settings_->reset(nodes[i].key);
      edit_document(nodes[i].key);
      changed = true;
    }
  }
  if (changed) {
    refresh();
    write_through();
  }
  return changed;
}

void SettingsModel::write_through() {
  if (ini_path_.isEmpty() || !settings_ || !document_) return;
  try {
    document_->write(ini_path_.toStdString());
  } catch (const std::exception& e) {
    emit write_failed(QString::fromUtf8(e.what()));
  }
}

void SettingsModel::refresh() {
  if (!settings_) return;
  const auto& nodes = settings_->schema().nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    enabled_[i] = settings_->is_enabled(nodes[i].key);
    required_unset_[i] = nodes[i].is_setting() && nodes[i].required && enabled_[i] &&
                         settings_->get(nodes[i].key).empty();
  }
  // Children follow their parents in document order: propagate flags upwards in reverse.
  for (int i = static_cast<int>(nodes.size()) - 1; i >= 0; --i)
    if (required_unset_[i] && nodes[i].parent >= 0) required_unset_[nodes[i].parent] = 1;
  emit_all_changed(-1);
  emit values_changed();
}

void SettingsModel::emit_all_changed(int parent_node) {
  const auto& kids = children_of(parent_node);
  if (kids.empty()) return;
  emit dataChanged(make_index(kids.front(), 0), make_index(kids.back(), 1));
  if (parent_node < 0) emit headerDataChanged(Qt::Horizontal, 0, 1);
  for (int k : kids) emit_all_changed(k);
}

}  // namespace fringe::gui
