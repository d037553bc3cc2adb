#include "StructurePanel.h"
#include "SimRunner.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>
#include <vector>

namespace sl::ui {

StructurePanel::StructurePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("structurePanel"));
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid_ = new QTableWidget(this);
    grid_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    grid_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    grid_->setToolTip(
        tr("Rows: pipeline stages. Columns: data-parallel replicas. Each cell: the ranks of the "
           "tensor-parallel group there."));
    notes_ = new QLabel(this);
    notes_->setWordWrap(true);
    simulated_ = new QLabel(this);
    simulated_->setWordWrap(true);
    simulated_->setObjectName(QStringLiteral("structureSimulatedNote"));
    layout->addWidget(summary_);
    layout->addWidget(grid_, 1);
    layout->addWidget(notes_);
    layout->addWidget(simulated_);
    clear();
}

void StructurePanel::clear() {
    summary_->setText(tr("No trace loaded"));
    grid_->clear();
    grid_->setRowCount(0);
    grid_->setColumnCount(0);
    notes_->clear();
    notes_->hide();
    simulated_->clear();
    simulated_->hide();
    loadedRanks_ = 0;
}

void StructurePanel::setStructure(const ParallelStructure& s) {
    loadedRanks_ = static_cast<int>(s.places.size());
    QString text = tr("dp %1 x tp %2 x pp %3 = %4 ranks (%5 loaded, from %6)")
                       .arg(s.dp)
                       .arg(s.tp)
                       .arg(s.pp)
                       .arg(s.world)
                       .arg(loadedRanks_)
                       .arg(QString::fromStdString(s.source));
    text += QStringLiteral("\n") + (s.microbatches > 0 ? tr("%1 micro-batches per step").arg(s.microbatches)
                                                       : tr("micro-batches not recognised"));
    text +=
        QStringLiteral(", ") + (s.layers > 0 ? tr("%1 layer blocks").arg(s.layers) : tr("no layer blocks"));
    summary_->setText(text);

    // Grid: stage x replica -> tensor-parallel rank ids of the loaded ranks placed there.
    std::map<std::pair<int, int>, std::vector<int>> cells;
    for (const auto& p : s.places)
        if (p.known) cells[{p.pp, p.dp}].push_back(p.rank);
    grid_->clear();
    grid_->setRowCount(s.pp);
    grid_->setColumnCount(s.dp);
    QStringList rows, cols;
    for (int st = 0; st < s.pp; ++st)
        rows << tr("stage %1").arg(st);
    for (int d = 0; d < s.dp; ++d)
        cols << tr("dp %1").arg(d);
    grid_->setVerticalHeaderLabels(rows);
    grid_->setHorizontalHeaderLabels(cols);
    for (const auto& [key, ranks] : cells) {
        if (key.first >= s.pp || key.second >= s.dp) continue;
        QStringList ids;
        for (int r : ranks)
            ids << QString::number(r);
        grid_->setItem(key.first, key.second, new QTableWidgetItem(ids.join(QStringLiteral(", "))));
    }
    QStringList notes;
    for (const auto& n : s.notes)
        notes << QString::fromStdString(n);
    notes_->setText(notes.join(QStringLiteral("\n")));
    notes_->setVisible(!notes.isEmpty());
}

void StructurePanel::setSimulatedSetup(const SimulatedSetup& setup) {
    if (!setup.edited) {
        simulated_->clear();
        simulated_->hide();
        return;
    }
    const std::size_t dropped = setup.droppedCount();
    QString text = tr("Simulated job: dp %1 x tp %2 x pp %3 = %4 ranks, not the %5 measured.")
                       .arg(setup.dp)
                       .arg(setup.tp)
                       .arg(setup.pp)
                       .arg(setup.world)
                       .arg(loadedRanks_);
    if (setup.added() > 0)
        text +=
            QStringLiteral(" ") + tr("%1 ranks added: clones with the simulated times of the measured rank "
                                     "they copy (the simulated pane shows the measured ranks).")
                                      .arg(setup.added());
    if (dropped > 0) text += QStringLiteral(" ") + tr("%1 measured ranks dropped.").arg(dropped);
    for (const auto& n : setup.notes)
        text += QStringLiteral("\n") + QString::fromStdString(n);
    simulated_->setText(text);
    simulated_->show();
}

QString StructurePanel::summaryText() const {
    return summary_->text();
}

QString StructurePanel::simulationNote() const {
    return simulated_->isHidden() ? QString() : simulated_->text();
}

void StructurePanel::setSimulation(const SimOutput& output) {
    setSimulatedSetup(output.result->setup);
}

} // namespace sl::ui
