#include "RangeStatsPanel.h"
#include "SimRunner.h"

#include "DialogDir.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "Selection.h"
#include "TimeFormat.h"
#include "TrackState.h"
#include "ViewController.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

namespace sl::ui {

namespace {
constexpr int kSimColumns[] = {RangeStatsModel::SimCount, RangeStatsModel::SimTotal,
                               RangeStatsModel::SimShare};
QString hint() {
    return RangeStatsPanel::tr("Shift+drag (or right-drag) in a pane to select a time range.");
}
} // namespace

RangeStatsPanel::RangeStatsPanel(SelectionModel* selection, TrackState* tracks, ViewController* view,
                                 QWidget* parent)
    : QWidget(parent), selection_(selection), tracks_(tracks), view_(view), model_(new RangeStatsModel(this)),
      worker_(new RangeStatsWorker(this)) {
    setObjectName(QStringLiteral("rangeStats"));
    connect(worker_, &RangeStatsWorker::finished, this,
            [this](std::uint64_t, RangeTable table) { showTable(std::move(table)); });
    connect(selection_, &SelectionModel::rangeChanged, this, &RangeStatsPanel::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    label_ = new QLabel(hint(), this);
    label_->setObjectName(QStringLiteral("rangeHeadline"));
    label_->setContentsMargins(6, 3, 6, 3);
    label_->setWordWrap(true);
    export_ = new QPushButton(tr("Export CSV..."), this);
    export_->setObjectName(QStringLiteral("rangeExport"));
    export_->setEnabled(false);
    export_->setToolTip(tr("Write this table (both panes, times in ns) to a CSV file"));
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export range statistics"), dialogDir(QStringLiteral("range.csv")), tr("CSV (*.csv)"));
        if (!path.isEmpty()) {
            rememberDir(path);
            exportCsv(path);
        }
    });
    auto* top = new QHBoxLayout;
    top->addWidget(label_, 1);
    top->addWidget(export_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("rangeTable"));
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RangeStatsModel::Total, Qt::DescendingOrder);
    // Docked in a 200-380 px column: the numbers take the width they need, the name the rest (its
    // full text in the tooltip), so Count, Measured and % show without scrolling.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(RangeStatsModel::Name, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(36);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int c : kSimColumns)
        table_->setColumnHidden(c, true);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
}

QString RangeStatsPanel::headline() const {
    return label_->text();
}

void RangeStatsPanel::setTimelines(std::shared_ptr<const TimelineData> measured,
                                   std::shared_ptr<const TimelineData> simulated) {
    measured_ = std::move(measured);
    simulated_ = std::move(simulated);
    if (!measured_) worker_->cancel(); // a late result of the old set is never shown
    if (!measured_ || selection_->hasRange()) refresh();
}

void RangeStatsPanel::refresh() {
    if (!measured_ || !selection_->hasRange()) {
        worker_->cancel();
        model_->setTable({});
        label_->setText(hint());
        export_->setEnabled(false);
        return;
    }
    emit rangeSelected();
    // Off the UI thread: a range over millions of events must not block; a newer range drops this.
    label_->setText(
        tr("Range %1: computing...").arg(formatDuration(selection_->rangeEnd() - selection_->rangeStart())));
    worker_->request(measured_, simulated_,
                     hiddenTracks(tracks_->matches(measured_->set()) ? tracks_ : nullptr),
                     selection_->rangeStart(), selection_->rangeEnd());
}

void RangeStatsPanel::showTable(RangeTable table) {
    if (!measured_) return;
    std::int64_t events = 0;
    for (const auto& r : table.rows)
        events += r.measured.count;
    const TimeNs res = resolutionFor(view_->mapping().nsPerPixel);
    label_->setText(
        tr("Range %1 (from %2 to %3): %4 events, %5 names%6")
            .arg(formatPrecise(table.length(), res), formatPrecise(table.start - measured_->start(), res),
                 formatPrecise(table.end - measured_->start(), res))
            .arg(events)
            .arg(table.rows.size())
            .arg(table.hasSimulated ? QString() : tr(" (simulated columns after the simulation)")));
    const bool sim = table.hasSimulated;
    model_->setTable(std::move(table));
    for (int c : kSimColumns)
        table_->setColumnHidden(c, !sim);
    export_->setEnabled(true);
    const auto* header = table_->horizontalHeader();
    model_->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
}

QString RangeStatsPanel::exportCsv(const QString& path) {
    QString error;
    if (model_->rowCount() == 0 && !selection_->hasRange()) {
        error = tr("No range selected");
    } else {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text) ||
            f.write(rangeTableCsv(model_->table()).toUtf8()) < 0 || !f.commit())
            error = tr("Could not write %1: %2").arg(path, f.errorString());
    }
    if (!error.isEmpty())
        emit failed(error);
    else
        emit exported(path);
    return error;
}

void RangeStatsPanel::setSimulation(const SimOutput& output) {
    setTimelines(measured_, output.timeline); // gain (or refresh) the simulated columns
}

} // namespace sl::ui
