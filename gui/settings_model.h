// SettingsModel: a two-column Qt item model (label or key | value) over fringe::settings
// Settings, in the schema's tree order. It shows OSKAR's GUI cues (docs/gui.md):
// required-but-unset settings (and every group above one) are highlighted; non-default values
// use the palette's link colour; settings whose dependencies are not met are greyed and
// read-only; tooltips carry the description. Every accepted edit is written through to the
// INI file when one is set, changing only the lines of the edited keys (IniDocument): the
// file's comments, unknown keys and other lines stay as they were.
#pragma once

#include <QAbstractItemModel>
#include <QString>
#include <optional>
#include <vector>

#include "fringe/settings/ini.h"
#include "fringe/settings/ini_document.h"
#include "fringe/settings/settings.h"

namespace fringe::gui {

class SettingsModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { LabelColumn = 0, ValueColumn = 1 };
  enum Role {
    KeyRole = Qt::UserRole + 1,  // full key (QString)
    IsSettingRole,               // bool: a setting, not a group
    EnabledRole,                 // bool: its dependencies (and its ancestors') hold
    RequiredUnsetRole,           // bool: required, enabled and empty (groups: any below)
    NonDefaultRole,              // bool: the value differs from the default
    DefaultValueRole,            // QString
    ExpectedRole,                // QString: what the type accepts
  };

  explicit SettingsModel(QObject* parent = nullptr);

  // Replaces the schema (all values back to defaults; no INI file).
  void set_schema(fringe::settings::Schema schema, const QString& app, const QString& version);
  bool has_schema() const { return settings_.has_value(); }
  const fringe::settings::Settings* settings() const;
  const QString& app() const { return app_; }
  const QString& version() const { return version_; }

  // Resets every value, reads the file and makes it the write-through target. Returns the
  // file's problems (bad values are skipped, unknown keys warned). Throws fringe::Error when
  // the file cannot be read. `app_out` receives the file's [General] app=.
  fringe::settings::LoadReport load_ini(const QString& path, QString* app_out = nullptr);
  // Makes path the write-through target and writes the current values to it: the open
  // file's text with the edits (a new file: non-default values only).
  bool save_as(const QString& path);
  // The problems of the file as it is now (with the edits): unknown keys, lines without
  // '=', keys given twice (warnings), values that do not convert (errors); each with its
  // line. Empty when no file is open.
  std::vector<fringe::settings::Problem> file_problems() const;
  const QString& ini_path() const { return ini_path_; }
  // Back to defaults; forgets the file.
  void clear();

  void set_show_keys(bool keys);
  bool show_keys() const { return show_keys_; }

  const fringe::settings::SettingNode* node_at(const QModelIndex& index) const;
  QModelIndex index_of_key(const QString& key, int column = LabelColumn) const;
  // Resets a setting, or every setting under a group. Returns true if anything changed.
  bool reset(const QModelIndex& index);
  // Sets a value by key (as the editors do); false (and edit_rejected) when invalid.
  bool set_value(const QString& key, const QString& value);

  // QAbstractItemModel
  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 signals:
  void values_changed();                   // after any change of values
  void edit_rejected(const QString& why);  // a value was not accepted
  void write_failed(const QString& why);   // the INI file could not be written

 private:
  int node_of(const QModelIndex& index) const;
  const std::vector<int>& children_of(int node) const;
  QModelIndex make_index(int node, int column) const;
  void refresh();  // recomputes the cached flags and repaints every row
  void emit_all_changed(int parent_node);
  void write_through();
  void edit_document(const std::string& key);  // the key's line follows its value
  QString tooltip(int node) const;

  std::optional<fringe::settings::Settings> settings_;
  QString app_, version_, ini_path_;
  std::optional<fringe::settings::IniDocument> document_;  // the open file's lines
  bool show_keys_ = false;
  std::vector<int> top_level_;
  std::vector<int> row_;              // row of each node within its parent
  std::vector<char> enabled_;         // per node
  std::vector<char> required_unset_;  // per node (groups: any descendant)
};

}  // namespace fringe::gui
