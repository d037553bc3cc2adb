#pragma once
#include "DependencyLinks.h"
#include "Highlights.h"
#include "Selection.h"

#include <QObject>

#include <memory>

namespace sl::ui {

struct SimOutput;

// What the panes highlight, shared by both: the toggles (critical path, exposed communication,
// dependency arrows), the precomputed per-pane highlights of the current simulation and the links
// of the selected event. Emits changed() whenever any of it changes; panes repaint (and relayout
// when the exposed-communication lanes come or go).
class HighlightModel : public QObject {
    Q_OBJECT
public:
    explicit HighlightModel(SelectionModel* selection, QObject* parent = nullptr);

    bool criticalPath() const { return criticalPath_; }
    bool exposed() const { return exposed_; }
    bool arrows() const { return arrows_; }
    void setCriticalPath(bool on);
    void setExposed(bool on);
    void setArrows(bool on);

    // The highlights of the latest simulation (graph, analysis) or none.
    void setSimulation(const SimOutput& output);
    void clear();
    bool hasData() const { return measured_ != nullptr; }
    const PaneHighlights* pane(bool simulated) const {
        return simulated ? simulated_.get() : topOverride_ ? topOverride_.get() : measured_.get();
    }
    // The upper pane shows a scenario instead of the measured trace: its highlights (null: the
    // measured ones again).
    void setTopOverride(std::shared_ptr<const PaneHighlights> highlights);
    const SelectionLinks& links() const { return links_; }

signals:
    void changed();
    void exposedChanged(bool on);
    void criticalPathChanged(bool on);

private:
    void updateLinks();

    SelectionModel* selection_;
    std::shared_ptr<const ExecutionGraph> graph_;
    std::shared_ptr<const PaneHighlights> measured_;
    std::shared_ptr<const PaneHighlights> simulated_;
    std::shared_ptr<const PaneHighlights> topOverride_;
    SelectionLinks links_;
    bool criticalPath_ = false;
    bool exposed_ = false;
    bool arrows_ = true;
};

} // namespace sl::ui
