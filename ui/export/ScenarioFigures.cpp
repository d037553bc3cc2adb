#include "ScenarioFigures.h"

#include "Scenario.h"

#include <QCoreApplication>

namespace sl::ui {

std::vector<ScenarioFigure> scenarioFigures(const std::shared_ptr<const TimelineData>& measured,
                                            const std::vector<const ScenarioResult*>& results) {
    std::vector<ScenarioFigure> out;
    if (!measured) return out;
    for (const ScenarioResult* r : results) {
        if (!r || !r->output.timeline) continue;
        Figure fig;
        fig.size = QSize(1600, 900);
        fig.measured = measured;
        fig.simulated = r->output.timeline;
        fig.title = r->name;
        fig.simulatedTitle =
            QCoreApplication::translate("sl::ui::SessionController", "Simulated: %1").arg(r->name);
        fig.knobs = ScenarioList::knobChanges(r->knobs);
        fig.subtitle = r->headline;
        fig.added = AddedRanks::of(r->output.result, r->output.graph);
        const QString knobs = fig.knobs.isEmpty()
                                  ? QCoreApplication::translate("sl::ui::SessionController", "replay")
                                  : fig.knobs.join(QStringLiteral(", "));
        out.push_back({std::move(fig), r->name.toStdString(), knobs.toStdString()});
    }
    return out;
}

std::vector<ReportFigure> drawScenarioFigures(const std::vector<ScenarioFigure>& figures) {
    std::vector<ReportFigure> out;
    for (const ScenarioFigure& s : figures)
        if (const QByteArray svg = figureSvg(s.figure); !svg.isEmpty())
            out.push_back({s.name, s.knobs, svg.toStdString()});
    return out;
}

} // namespace sl::ui
