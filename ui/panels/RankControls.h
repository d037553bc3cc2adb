#pragma once
// The row above the track tree for many ranks (docs/ManyRanks.md): a filter box (ranks and
// tracks whose names contain the text), the grouping of ranks (none, node, pipeline stage,
// data-parallel replica) and compact rows for collapsed ranks. Edits TrackState and follows it
// (a restored session sets them too).
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace sl::ui {

class TrackState;

class RankControls : public QWidget {
    Q_OBJECT
public:
    explicit RankControls(TrackState* tracks, QWidget* parent = nullptr);
    QLineEdit* filterBox() const { return filter_; }
    QComboBox* groupingBox() const { return grouping_; }
    QCheckBox* compactBox() const { return compact_; }

private:
    void follow();

    TrackState* tracks_;
    QLineEdit* filter_;
    QComboBox* grouping_;
    QCheckBox* compact_;
};

} // namespace sl::ui
