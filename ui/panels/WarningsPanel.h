#pragma once
#include <QTreeWidget>

#include <string>
#include <vector>

namespace sl::ui {

// The warnings of the open set, with the text the command line prints: loading (missing or duplicate
// ranks, clock bases, ...), the execution graph (unmatched collectives, inferred edges, ...) and the
// simulation. One group per source with its count; each warning one row (its full text as tooltip).
class WarningsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit WarningsPanel(QWidget* parent = nullptr);
    void setLoadWarnings(const std::vector<std::string>& warnings);
    void setSimulationWarnings(const std::vector<std::string>& graph,
                               const std::vector<std::string>& simulation);
    void clearAll();
    int count() const;

signals:
    void countChanged(int count);

private:
    void fill(int group, const std::vector<std::string>& warnings);
    QTreeWidgetItem* groups_[3];
};

} // namespace sl::ui
