#include "DetailsPanel.h"
#include "SimRunner.h"

#include "EventText.h"

namespace sl::ui {

DetailsPanel::DetailsPanel(QWidget* parent) : QTextBrowser(parent) {
    setObjectName(QStringLiteral("detailsPanel"));
    setOpenLinks(false);
    // Lines break between words only: the default also breaks inside a word that does not fit, which
    // cut "user_annotation" into "user_anno" / "tation" in a narrow dock. A name longer than the
    // dock scrolls sideways instead.
    setWordWrapMode(QTextOption::WordWrap);
    showDetails({});
}

void DetailsPanel::setData(std::shared_ptr<const TimelineData> measured,
                           std::shared_ptr<const TimelineData> simulated) {
    measured_ = std::move(measured);
    simulated_ = std::move(simulated);
    showDetails(shown_);
}

void DetailsPanel::showDetails(EventId e) {
    shown_ = e;
    if (!measured_ || !e.valid()) {
        setHtml(tr("<i>Click an event to see its details.</i>"));
        return;
    }
    setHtml(eventDetailsHtml(*measured_, simulated_.get(), e) +
            roofline_.html(measured_->set(), e.rank, e.ref));
}

void DetailsPanel::setSimulation(const SimOutput& output) {
    simulated_ = output.timeline;
    showDetails(shown_);
}

} // namespace sl::ui
