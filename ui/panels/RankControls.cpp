#include "RankControls.h"

#include "RankGroups.h"
#include "TrackState.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace sl::ui {

RankControls::RankControls(TrackState* tracks, QWidget* parent)
    : QWidget(parent), tracks_(tracks), filter_(new QLineEdit(this)), grouping_(new QComboBox(this)),
      compact_(new QCheckBox(tr("Compact"), this)) {
    setObjectName(QStringLiteral("rankControls"));
    filter_->setObjectName(QStringLiteral("trackFilter"));
    filter_->setPlaceholderText(tr("Filter ranks and tracks"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Shows only the ranks and tracks whose names contain this text "
                           "(\"dp3\", \"pp1\", \"Rank 12\", \"stream 7\", \"thread\")"));
    grouping_->setObjectName(QStringLiteral("rankGrouping"));
    for (RankGrouping g :
         {RankGrouping::None, RankGrouping::Node, RankGrouping::Stage, RankGrouping::Replica})
        grouping_->addItem(g == RankGrouping::None    ? tr("No groups")
                           : g == RankGrouping::Node  ? tr("By node")
                           : g == RankGrouping::Stage ? tr("By stage (pp)")
                                                      : tr("By replica (dp)"),
                           static_cast<int>(g));
    grouping_->setToolTip(tr("Groups the ranks in the panes; click a group's row to fold it"));
    compact_->setObjectName(QStringLiteral("compactRows"));
    compact_->setToolTip(tr("Collapsed ranks as strips a few pixels high, so that 64 ranks fit in a pane"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(filter_);
    auto* row = new QHBoxLayout;
    row->addWidget(grouping_, 1);
    row->addWidget(compact_);
    layout->addLayout(row);
    connect(filter_, &QLineEdit::textChanged, tracks_, &TrackState::setFilter);
    connect(grouping_, &QComboBox::currentIndexChanged, this,
            [this] { tracks_->setGrouping(static_cast<RankGrouping>(grouping_->currentData().toInt())); });
    connect(compact_, &QCheckBox::toggled, tracks_, &TrackState::setCompactRows);
    connect(tracks_, &TrackState::changed, this, &RankControls::follow);
    follow();
}

void RankControls::follow() {
    const QSignalBlocker a(filter_), b(grouping_), c(compact_);
    if (filter_->text() != tracks_->filter()) filter_->setText(tracks_->filter());
    grouping_->setCurrentIndex(grouping_->findData(static_cast<int>(tracks_->grouping())));
    compact_->setChecked(tracks_->compactRows());
}

} // namespace sl::ui
