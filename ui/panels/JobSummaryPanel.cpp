#include "JobSummaryPanel.h"

#include "NumberCell.h"
#include "StragglersPanel.h"

#include "base/Error.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace sl::ui {

namespace {

double ms(double us) {
    return us / 1000.0;
}

} // namespace

JobSummaryPanel::JobSummaryPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("jobSummaryPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    headline_ = new QLabel(tr("No job summary open: File > Open Job Summary... shows a job that "
                              "sightline.summarize() summarised rank by rank (docs/Python.md)."),
                           this);
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(headline_);
    tabs_ = new QTabWidget(this);
    ranks_ = new QTableWidget(0, 9, this);
    ranks_->setObjectName(QStringLiteral("jobSummaryRanks"));
    ranks_->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Step (ms)"), tr("Compute (ms)"), tr("Communication (ms)"), tr("Exposed comm. (ms)"),
         tr("GPU idle (ms)"), tr("Pinned % (alone)"), tr("Made others wait (ms)"), tr("Last at")});
    ranks_->verticalHeader()->hide();
    ranks_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    ranks_->setSelectionBehavior(QAbstractItemView::SelectRows);
    ranks_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    ranks_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tabs_->addTab(ranks_, tr("Ranks"));
    stragglers_ = new StragglersPanel(this);
    tabs_->addTab(stragglers_, tr("Who waited for whom"));
    missing_ = new QTableWidget(0, 2, this);
    missing_->setHorizontalHeaderLabels({tr("Rank file"), tr("Why it is missing")});
    missing_->verticalHeader()->hide();
    missing_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    missing_->horizontalHeader()->setStretchLastSection(true);
    tabs_->addTab(missing_, tr("Missing"));
    layout->addWidget(tabs_, 1);
    open_ = new QPushButton(tr("Open Selected Ranks in Full"), this);
    open_->setObjectName(QStringLiteral("jobSummaryOpen"));
    open_->setToolTip(tr("Loads the trace files of the ranks selected in the table into the timeline "
                         "(the slowest and a typical one, say)"));
    open_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(open_);
    layout->addLayout(buttons);
    connect(ranks_, &QTableWidget::itemSelectionChanged, this,
            [this] { open_->setEnabled(!selectedPaths().isEmpty()); });
    connect(open_, &QPushButton::clicked, this, [this] {
        const QStringList paths = selectedPaths();
        if (!paths.isEmpty()) emit openRequested(paths);
    });
}

QString JobSummaryPanel::open(const QString& path) {
    try {
        show(readJobSummaryFile(path.toStdString()), path);
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

void JobSummaryPanel::show(JobSummaryFile job, const QString& path) {
    job_ = std::move(job);
    path_ = path;
    ranks_->setSortingEnabled(false);
    ranks_->clearContents();
    ranks_->setRowCount(static_cast<int>(job_.ranks.size()));
    for (std::size_t i = 0; i < job_.ranks.size(); ++i) {
        const JobSummaryFile::Rank& r = job_.ranks[i];
        const RankWaiting& w = job_.arrivals.ranks[i];
        const int row = static_cast<int>(i);
        auto* rank = numberCell(r.rank, 0);
        rank->setData(Qt::UserRole, QString::fromStdString(r.path));
        rank->setToolTip(QString::fromStdString(r.path));
        ranks_->setItem(row, 0, rank);
        ranks_->setItem(row, 1, numberCell(ms(r.measuredUs), 3));
        ranks_->setItem(row, 2, numberCell(ms(r.computeUs), 3));
        ranks_->setItem(row, 3, numberCell(ms(r.commUs), 3));
        ranks_->setItem(row, 4, numberCell(ms(r.exposedCommUs), 3));
        ranks_->setItem(row, 5, numberCell(ms(r.idleUs), 3));
        ranks_->setItem(row, 6, numberCell(r.pinnedSharePct, 1));
        ranks_->setItem(row, 7, numberCell(static_cast<double>(w.madeOthersWait) / 1e6, 3));
        ranks_->setItem(row, 8, numberCell(static_cast<double>(w.timesLast), 0));
    }
    ranks_->setSortingEnabled(true);
    ranks_->sortItems(1, Qt::DescendingOrder); // slowest first
    stragglers_->setArrivals(job_.arrivals);
    missing_->setRowCount(static_cast<int>(job_.missing.size()));
    for (std::size_t i = 0; i < job_.missing.size(); ++i) {
        missing_->setItem(static_cast<int>(i), 0,
                          new QTableWidgetItem(QString::fromStdString(job_.missing[i].path)));
        missing_->setItem(static_cast<int>(i), 1,
                          new QTableWidgetItem(QString::fromStdString(job_.missing[i].error)));
    }
    tabs_->setTabText(2, tr("Missing (%1)").arg(job_.missing.size()));
    headline_->setText(headline());
    open_->setEnabled(false);
}

QString JobSummaryPanel::headline() const {
    if (path_.isEmpty()) return headline_->text();
    QString text =
        tr("%1: %2 ranks summarised one by one").arg(QFileInfo(path_).fileName()).arg(job_.ranks.size());
    if (!job_.ranks.empty()) {
        const auto slowest =
            std::max_element(job_.ranks.begin(), job_.ranks.end(),
                             [](const auto& a, const auto& b) { return a.measuredUs < b.measuredUs; });
        text += tr("; the slowest step: rank %1, %2 ms")
                    .arg(slowest->rank)
                    .arg(ms(slowest->measuredUs), 0, 'f', 3);
    }
    text += QStringLiteral(". ") + stragglers_->summary();
    // Never a silently partial job: what the summary lacks is said.
    if (!job_.missing.empty())
        text += tr(" %n rank file(s) missing (the Missing tab says why).", nullptr,
                   static_cast<int>(job_.missing.size()));
    if (job_.collectivesLeftOut > 0)
        text +=
            tr(" %1 collective(s) left out: a participant was not summarised.").arg(job_.collectivesLeftOut);
    if (job_.complete) text += tr(" Complete: every rank and every collective of the job.");
    return text;
}

QStringList JobSummaryPanel::selectedPaths() const {
    std::set<int> rows;
    for (const QModelIndex& i : ranks_->selectionModel()->selectedRows())
        rows.insert(i.row());
    QStringList paths;
    for (const int row : rows) {
        const QTableWidgetItem* item = ranks_->item(row, 0);
        const QString path = item ? item->data(Qt::UserRole).toString() : QString();
        if (!path.isEmpty()) paths << path;
    }
    return paths;
}

} // namespace sl::ui
