#include "DeltaTable.h"

#include "TimeFormat.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace sl::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ms(double us) {
    return us / 1000.0;
}

double ms(const std::optional<double>& us) {
    return us ? *us / 1000.0 : kNaN;
}
} // namespace

void DeltaTableModel::setResults(std::shared_ptr<const ScenarioResults> results) {
    beginResetModel();
    results_ = std::move(results);
    build();
    endResetModel();
}

void DeltaTableModel::setShowRanks(bool on) {
    if (on == showRanks_) return;
    beginResetModel();
    showRanks_ = on;
    build();
    endResetModel();
}

void DeltaTableModel::build() {
    rows_.clear();
    if (results_ && !results_->empty()) {
        const double base = ms(results_->front().numbers.simulatedUs);
        for (std::size_t s = 0; s < results_->size(); ++s) {
            const SimulationNumbers& n = (*results_)[s].numbers;
            Row job;
            job.scenario = static_cast<int>(s);
            std::fill(std::begin(job.values), std::end(job.values), kNaN);
            job.values[Iteration] = ms(n.simulatedUs);
            job.values[Change] = base > 0 ? 100.0 * (job.values[Iteration] - base) / base : kNaN;
            if (n.throughputVsBaseline) {
                job.values[Throughput] = *n.throughputVsBaseline;
                job.values[Efficiency] = 100.0 * n.scalingEfficiency.value_or(kNaN);
            }
            if (n.samplesPerSecond) job.values[Samples] = *n.samplesPerSecond;
            // The composition, largest kinds first (as `simulate` prints it).
            std::vector<std::pair<double, std::string>> kinds;
            for (std::size_t l = 0; l < n.criticalPath.size(); ++l)
                if (n.criticalPath[l].pct >= 0.5)
                    kinds.push_back(
                        {n.criticalPath[l].pct, std::string(pathLabelName(static_cast<PathLabel>(l)))});
            std::sort(kinds.rbegin(), kinds.rend());
            QStringList parts;
            for (const auto& [p, name] : kinds)
                parts << QStringLiteral("%1 %2%").arg(QString::fromStdString(name)).arg(p, 0, 'f', 1);
            job.path = parts.join(QStringLiteral(", "));
            rows_.push_back(job);
            if (!showRanks_) continue;
            for (const RankNumbers& r : n.ranks) {
                Row row;
                row.scenario = static_cast<int>(s);
                row.rank = r.rank;
                std::fill(std::begin(row.values), std::end(row.values), kNaN);
                row.values[Iteration] = ms(r.simulatedUs);
                row.values[Compute] = ms(r.computeUs);
                row.values[ExposedComm] = ms(r.exposedCommUs);
                row.values[Wait] = ms(r.commWaitUs);
                row.values[Idle] = ms(r.idleUs);
                rows_.push_back(row);
            }
        }
    }
}

int DeltaTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DeltaTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double DeltaTableModel::value(int row, int column) const {
    if (row < 0 || row >= rowCount() || column < Iteration || column > Idle) return kNaN;
    return rows_[static_cast<std::size_t>(row)].values[column];
}

int DeltaTableModel::jobRow(int scenario) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].scenario == scenario && rows_[i].rank < 0) return static_cast<int>(i);
    return -1;
}

QVariant DeltaTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !results_) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= Iteration && c <= Idle && c != Knobs ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                         : QVariant();
    if (role == Qt::FontRole && row.rank < 0) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && (c == Throughput || c == Efficiency) && row.rank < 0) {
        const SimulationNumbers& n = (*results_)[static_cast<std::size_t>(row.scenario)].numbers;
        return n.throughputVsBaseline ? QString::fromStdString(n.throughputNote)
                                      : tr("the same work per step as the baseline: compare the iteration");
    }
    if (role == Qt::ToolTipRole && c == Samples && row.rank < 0) {
        const SimulationNumbers& n = (*results_)[static_cast<std::size_t>(row.scenario)].numbers;
        return !n.rateNote.empty() ? QString::fromStdString(n.rateNote)
                                   : tr("give the traced batch (Job setup, batch.samples) to see samples/s");
    }
    if (role == Qt::ToolTipRole && c == Scenario) {
        const QStringList& knobs = (*results_)[static_cast<std::size_t>(row.scenario)].changedKnobs;
        return knobs.isEmpty() ? tr("replay knobs") : knobs.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole) return {};
    switch (c) {
    case Scenario:
        return row.rank < 0 ? (*results_)[static_cast<std::size_t>(row.scenario)].name : QString();
    case Rank:
        return row.rank < 0 ? tr("job") : QString::number(row.rank);
    case CriticalPath:
        return row.path;
    case Knobs: {
        if (row.rank >= 0) return {};
        const QStringList& knobs = (*results_)[static_cast<std::size_t>(row.scenario)].changedKnobs;
        return knobs.isEmpty() ? tr("replay") : knobs.join(QStringLiteral(", "));
    }
    default:
        break;
    }
    const double v = row.values[c];
    if (std::isnan(v)) return {};
    if (c == Change) return formatChangePct(v);
    if (c == Throughput) return QStringLiteral("%1x").arg(v, 0, 'f', 2);
    if (c == Efficiency) return QStringLiteral("%1%").arg(v, 0, 'f', 0);
    if (c == Samples) return QLocale().toString(v, 'f', v < 100 ? 1 : 0);
    return QString::number(v, 'f', 3);
}

QVariant DeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Scenario:
        return tr("Scenario");
    case Rank:
        return tr("Rank");
    case Iteration:
        return tr("Iteration (ms)");
    case Change:
        return tr("vs baseline");
    case Throughput:
        return tr("Throughput");
    case Efficiency:
        return tr("Scaling eff.");
    case Samples:
        return tr("Samples/s");
    case Knobs:
        return tr("Knobs");
    case Compute:
        return tr("Compute (ms)");
    case ExposedComm:
        return tr("Exposed comm (ms)");
    case Wait:
        return tr("Collective wait (ms)");
    case Idle:
        return tr("GPU idle (ms)");
    case CriticalPath:
        return tr("Critical path");
    default:
        return {};
    }
}

DeltaTable::DeltaTable(QWidget* parent) : QWidget(parent), model_(new DeltaTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    status_ = new QLabel(
        tr("Every scenario, simulated on the open trace (numbers as `sightline-cli simulate --json`)."),
        this);
    status_->setWordWrap(true);
    ranks_ = new QCheckBox(tr("Per rank"), this);
    ranks_->setObjectName(QStringLiteral("deltaPerRank"));
    ranks_->setToolTip(tr("A row per rank under each scenario: compute, exposed communication, "
                          "collective wait and GPU idle"));
    connect(ranks_, &QCheckBox::toggled, this, &DeltaTable::setShowRanks);
    view_ = new QTableView(this);
    view_->setModel(model_);
    view_->setObjectName(QStringLiteral("deltaTable"));
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(ranks_);
    layout->addLayout(top);
    layout->addWidget(view_, 1);
}

void DeltaTable::setShowRanks(bool on) {
    if (ranks_->isChecked() != on) ranks_->setChecked(on); // comes back here through toggled
    model_->setShowRanks(on);
    view_->resizeColumnsToContents();
}

void DeltaTable::setResults(std::shared_ptr<const ScenarioResults> results) {
    const int n = results ? static_cast<int>(results->size()) : 0;
    model_->setResults(std::move(results));
    view_->resizeColumnsToContents();
    status_->setText(
        tr("%n scenario(s), simulated on the open trace (numbers as `sightline-cli simulate --json`).",
           nullptr, n));
}

void DeltaTable::setBusy(int done, int total) {
    status_->setText(tr("Simulating scenarios: %1 of %2...").arg(done).arg(total));
}

void DeltaTable::setFailed(const QString& scenario) {
    status_->setText(
        tr("Scenario \"%1\" could not be simulated (see the message above the timeline).").arg(scenario));
}

} // namespace sl::ui
