#pragma once
// The HTML report's timeline picture per simulated scenario (docs/Exports.md): the measured pane
// above the scenario's, over the whole trace (FigureRender.h). Taken from the scenarios' results on
// the UI thread, drawn in the report's background job: the timelines are shared and read-only.
#include "FigureRender.h"
#include "ScenarioRunner.h"
#include "report/Report.h"

#include <memory>
#include <string>
#include <vector>

namespace sl::ui {

// A scenario's picture before it is drawn, with what the report says of it.
struct ScenarioFigure {
    Figure figure;
    std::string name;
    std::string knobs; // "replay" or the knobs that differ from it
};

// One per result with a timeline (nulls skipped), in order.
std::vector<ScenarioFigure> scenarioFigures(const std::shared_ptr<const TimelineData>& measured,
                                            const std::vector<const ScenarioResult*>& results);
// Draws them as SVG (any thread); a picture that fails to draw is left out.
std::vector<ReportFigure> drawScenarioFigures(const std::vector<ScenarioFigure>& figures);

} // namespace sl::ui
