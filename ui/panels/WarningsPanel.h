#pragma once
#include "base/Diagnostics.h"

#include <QTreeWidget>

namespace sl::ui {

struct SimOutput;

// The warnings of the open set, with the text the command line prints: loading (missing or duplicate
// ranks, clock bases, ...), the execution graph (unmatched collectives, inferred edges, ...) and the
// simulation. One group per source with its count; each warning one row with an icon of its severity,
// its tooltip the full line, its kind's key and severity and what the kind means
// (docs/Diagnostics.md); the key is the row's Qt::UserRole data.
class WarningsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit WarningsPanel(QWidget* parent = nullptr);
    void setLoadWarnings(const Warnings& warnings);
    void setSimulationWarnings(const Warnings& graph, const Warnings& simulation);
    void setSimulation(const SimOutput& output);
    void clearAll();
    int count() const;

signals:
    void countChanged(int count);

private:
    void fill(int group, const Warnings& warnings);
    QTreeWidgetItem* groups_[3];
};

} // namespace sl::ui
