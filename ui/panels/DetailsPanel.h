#pragma once
#include "KernelRoofline.h"
#include "Selection.h"
#include "TimelineData.h"

#include <QTextBrowser>

#include <memory>

namespace sl::ui {

struct SimOutput;

// The details of the selected event: name, kind, times, measured vs simulated, args; for a GPU kernel
// its roofline figures on the traced GPU (KernelRoofline).
class DetailsPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const TimelineData> measured, std::shared_ptr<const TimelineData> simulated);
    void showDetails(EventId e);
    // The simulated timeline of a run shown (its events' simulated times).
    void setSimulation(const SimOutput& output);

private:
    std::shared_ptr<const TimelineData> measured_;
    std::shared_ptr<const TimelineData> simulated_;
    EventId shown_;
    KernelRoofline roofline_;
};

} // namespace sl::ui
