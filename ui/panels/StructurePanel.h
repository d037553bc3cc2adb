#pragma once
#include "sim/SetupEdits.h"
#include "structure/Structure.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace sl::ui {

struct SimOutput;

// The recognised structure of the open set (docs/Structure.md): the parallel layout as a grid
// (one row per pipeline stage, one column per data-parallel replica, each cell the rank ids of the
// tensor-parallel group there), micro-batches and layer blocks, and what could not be recognised.
// After a setup edit (dp.degree) a note says how the simulated job differs from the measured
// ranks: how many ranks were added (clones with their source rank's numbers) or dropped.
class StructurePanel : public QWidget {
    Q_OBJECT
public:
    explicit StructurePanel(QWidget* parent = nullptr);
    void setStructure(const ParallelStructure& structure);
    void setSimulatedSetup(const SimulatedSetup& setup);
    void setSimulation(const SimOutput& output);
    void clear();

    QString summaryText() const;
    QString simulationNote() const; // empty when the simulated job is the measured one
    const QTableWidget* grid() const { return grid_; }

private:
    QLabel* summary_ = nullptr;
    QTableWidget* grid_ = nullptr;
    QLabel* notes_ = nullptr;
    QLabel* simulated_ = nullptr;
    int loadedRanks_ = 0;
};

} // namespace sl::ui
