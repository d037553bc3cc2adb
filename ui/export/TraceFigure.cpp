#include "TraceFigure.h"

#include "FigureRender.h"
#include "Scenario.h"
#include "SimRunner.h"

#include "analysis/StepExplanation.h"
#include "analysis/Throughput.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace sl::ui {

bool parseFigureSize(const QString& text, QSize& size) {
    static const QRegularExpression re(QStringLiteral("^([0-9]{1,5})[xX]([0-9]{1,5})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) return false;
    size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    return true;
}

QString renderTraceFigure(const TraceFigureRequest& request) {
    if (request.output.isEmpty()) return QStringLiteral("--render needs an output file");
    if (request.traces.isEmpty()) return QStringLiteral("render needs at least one trace file or folder");
    const QString panes = request.panes.toLower();
    if (panes != QLatin1String("both") && panes != QLatin1String("measured") &&
        panes != QLatin1String("simulated"))
        return QStringLiteral("--pane %1: expected both, measured or simulated").arg(request.panes);
    SimKnobs knobs;
    for (const QString& k : request.knobs) {
        try {
            setKnobAssignment(knobs, k.toStdString());
        } catch (const std::exception& e) {
            return QStringLiteral("--set %1: %2").arg(k, QString::fromStdString(e.what()));
        }
    }
    TimeNs from = 0, to = 0;
    QString rangeError;
    if (!request.range.isEmpty() && !parseTimeRange(request.range, from, to, &rangeError)) return rangeError;
    std::shared_ptr<const TraceSet> set;
    try {
        std::vector<std::string> paths;
        for (const QString& p : request.traces)
            paths.push_back(p.toStdString());
        set = std::make_shared<const TraceSet>(loadTraceSet(paths));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    SimOutput sim;
    try {
        sim = SimRunner::runNow(set, knobs);
    } catch (const std::exception& e) {
        return QStringLiteral("%1: simulation failed: %2")
            .arg(request.traces.front(), QString::fromStdString(e.what()));
    }
    Figure fig;
    fig.size = request.size;
    fig.measured = panes == QLatin1String("simulated") ? nullptr : TimelineData::measured(set);
    fig.simulated = panes == QLatin1String("measured") ? nullptr : sim.timeline;
    if (fig.simulated) fig.added = AddedRanks::of(sim.result, sim.graph);
    QStringList names;
    for (const QString& t : request.traces)
        names << QFileInfo(t).fileName();
    fig.title = names.join(QStringLiteral(", "));
    fig.knobs = ScenarioList::knobChanges(knobs);
    fig.simulatedTitle =
        knobs.isReplay() ? QStringLiteral("Simulated (replay)") : QStringLiteral("Simulated (what-if)");
    if (sim.result)
        fig.subtitle = QStringLiteral("Iteration: measured %1")
                           .arg(QString::fromStdString(resultHeadline(sim.result->measuredIteration,
                                                                      sim.result->simulatedIteration)));
    // A what-if that changes the work per step (dp.degree, layers, micro-batches): the headline says
    // the throughput and scaling efficiency against the replay, as the window's card does.
    if (sim.result && sim.graph && !knobs.isReplay()) {
        try {
            const SimOutput replay = SimRunner::runNow(set, SimKnobs{});
            const Throughput t =
                throughputVsBaseline(*sim.graph, *replay.result, SimKnobs{}, *sim.result, knobs);
            if (t.applies) fig.subtitle += QStringLiteral("; %1").arg(QString::fromStdString(t.sentence));
        } catch (const std::exception&) {
            // The replay of a set the what-if simulated does not fail; without it the headline stays.
        }
    }
    if (to > from) {
        const TimeNs origin = (fig.measured ? fig.measured : fig.simulated)->start();
        fig.start = origin + from;
        fig.end = origin + to;
    }
    return renderFigure(fig, request.output);
}

} // namespace sl::ui
