#include "gui/settings_delegate.h"

#include <QAbstractProxyModel>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <algorithm>
#include <limits>

#include "gui/settings_model.h"
#include "gui/value_editors.h"

namespace fringe::gui {

namespace fs = fringe::settings;

namespace {

// The SettingsModel behind index (through any proxies) and the node there.
const fs::SettingNode* node_for(const QModelIndex& index, const SettingsModel** model_out) {
  QModelIndex i = index;
  const QAbstractItemModel* m = index.model();
  while (auto* proxy = qobject_cast<const QAbstractProxyModel*>(m)) {
    i = proxy->mapToSource(i);
    m = proxy->sourceModel();
  }
  auto* sm = qobject_cast<const SettingsModel*>(m);
  if (model_out) *model_out = sm;
  return sm ? sm->node_at(i) : nullptr;
}

int clamp_int(double v) {
  if (v >= std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  if (v <= std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
  return static_cast<int>(v);
}

}  // namespace

SettingsDelegate::SettingsDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QWidget* SettingsDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
  Q_UNUSED(option);
  const SettingsModel* model = nullptr;
  const fs::SettingNode* node = node_for(index, &model);
  if (!node || !node->is_setting() || index.column() != SettingsModel::ValueColumn) return nullptr;
  const fs::SettingType& type = *node->type;
  const QString base_dir = model && model->settings()
                               ? QString::fromStdString(model->settings()->base_dir())
                               : QString();
  auto* self = const_cast<SettingsDelegate*>(this);
  switch (type.id()) {
    case fs::TypeId::Bool:
      return nullptr;
    case fs::TypeId::OptionList: {
      auto* combo = new QComboBox(parent);
      for (const auto& o : type.options()) combo->addItem(QString::fromStdString(o));
      if (auto* items = qobject_cast<QStandardItemModel*>(combo->model())) {
        for (const auto& u : type.unsupported_options()) {
          const int row = combo->findText(QString::fromStdString(u));
          if (row >= 0) {
            items->item(row)->setEnabled(false);
            items->item(row)->setToolTip(tr("Not supported yet"));
          }
        }
      }
      connect(combo, &QComboBox::activated, self, [self, combo] {
        emit self->commitData(combo);
        emit self->closeEditor(combo);
      });
      return combo;
    }
    case fs::TypeId::Int:
    case fs::TypeId::UnsignedInt:
    case fs::TypeId::IntPositive:
    case fs::TypeId::IntRange: {
      auto* spin = new QSpinBox(parent);
      int lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
      if (type.id() == fs::TypeId::UnsignedInt) lo = 0;
      if (type.id() == fs::TypeId::IntPositive) lo = 1;
      if (type.id() == fs::TypeId::IntRange) {
        lo = clamp_int(type.min());
        hi = clamp_int(type.max());
      }
      spin->setRange(lo, hi);
      spin->setAccelerated(true);
      return spin;
    }
    case fs::TypeId::IntRangeExt:
      return new WordSpinBox(
          clamp_int(type.min()), clamp_int(type.max()),
          QString::fromStdString(type.words().front()),
          type.words().size() > 1 ? QString::fromStdString(type.words()[1]) : QString(), parent);
    case fs::TypeId::RandomSeed:
      return new WordSpinBox(1, std::numeric_limits<int>::max(), "time", {}, parent);
    case fs::TypeId::DoubleRangeExt:
      return new WordDoubleSpinBox(type, parent);
    case fs::TypeId::InputFile:
    case fs::TypeId::InputFileList:
    case fs::TypeId::InputDirectory:
    case fs::TypeId::OutputFile: {
      const auto mode = type.id() == fs::TypeId::InputFile       ? PathEdit::Mode::OpenFile
                        : type.id() == fs::TypeId::InputFileList ? PathEdit::Mode::OpenFiles
                        : type.id() == fs::TypeId::OutputFile    ? PathEdit::Mode::SaveFile
                                                                 : PathEdit::Mode::Directory;
      auto* edit = new PathEdit(mode, base_dir, parent);
      edit->line_edit()->setValidator(new SettingValidator(type, edit));
      connect(edit, &PathEdit::chosen, self, [self, edit] {
        emit self->commitData(edit);
        emit self->closeEditor(edit);
      });
      return edit;
    }
    default: {
      auto* edit = new QLineEdit(parent);
      edit->setValidator(new SettingValidator(type, edit));
      edit->setPlaceholderText(QString::fromStdString(type.expected()));
      edit->setToolTip(QString::fromStdString(type.expected()));
      return edit;
    }
  }
  return nullptr;
}

void SettingsDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  const QString value = index.data(Qt::EditRole).toString();
  if (auto* spin = qobject_cast<WordSpinBox*>(editor)) {
    spin->set_text_value(value);
  } else if (auto* dspin = qobject_cast<WordDoubleSpinBox*>(editor)) {
    dspin->set_text_value(value);
  } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
    spin->setValue(value.toInt());
  } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
    combo->setCurrentIndex(combo->findText(value, Qt::MatchFixedString));
  } else if (auto* path = qobject_cast<PathEdit*>(editor)) {
    path->set_text(value);
  } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
    line->setText(value);
  }
}

QString SettingsDelegate::editor_text(QWidget* editor) {
  if (auto* spin = qobject_cast<WordSpinBox*>(editor)) return spin->text_value();
  if (auto* dspin = qobject_cast<WordDoubleSpinBox*>(editor)) return dspin->text_value();
  if (auto* spin = qobject_cast<QSpinBox*>(editor)) return QString::number(spin->value());
  if (auto* combo = qobject_cast<QComboBox*>(editor)) return combo->currentText();
  if (auto* path = qobject_cast<PathEdit*>(editor)) return path->text();
  if (auto* line = qobject_cast<QLineEdit*>(editor)) return line->text();
  return {};
}

void SettingsDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                    const QModelIndex& index) const {
  const QString text = editor_text(editor);
  const fs::SettingNode* node = node_for(index, nullptr);
  if (!node || !node->is_setting()) return;
  // Check with the type first, so a bad value never reaches the settings.
  const QString why = SettingValidator(*node->type).problem(text);
  if (!why.isEmpty()) {
    emit rejected(tr("%1 = '%2': %3").arg(QString::fromStdString(node->key), text, why));
    return;
  }
  if (text == index.data(Qt::EditRole).toString()) return;
  model->setData(index, text, Qt::EditRole);
}

void SettingsDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                                            const QModelIndex&) const {
  editor->setGeometry(option.rect);
}

QSize SettingsDelegate::sizeHint(const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
  QSize s = QStyledItemDelegate::sizeHint(option, index);
  // Room for the editors' frames (scales with the font, so with the DPI).
  s.setHeight(std::max(s.height(), option.fontMetrics.height() + 8));
  return s;
}

}  // namespace fringe::gui
