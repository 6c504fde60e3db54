// SettingsDelegate: the in-place editor for each setting type in the value column:
//   Bool                         check box (the model's check state; no editor)
//   OptionList                   combo box (unsupported options disabled)
//   Int, UnsignedInt, IntPositive, IntRange      spin box over the type's range
//   IntRangeExt, RandomSeed      spin box whose lowest (and highest) step is a special word
//   DoubleRangeExt               spin box of numbers as typed between its words (min/max/auto)
//   InputFile(List), InputDirectory, OutputFile  line edit + file or folder dialog
//   everything else (numbers, lists, DateTime, Time, String)  line edit validated by the type
// An edit that the type rejects is not written to the model; rejected() says why.
#pragma once

#include <QStyledItemDelegate>

namespace fringe::gui {

class SettingsDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  explicit SettingsDelegate(QObject* parent = nullptr);

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model,
                    const QModelIndex& index) const override;
  void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The text an editor holds (what setModelData would write).
  static QString editor_text(QWidget* editor);

 signals:
  void rejected(const QString& why) const;
};

}  // namespace fringe::gui
