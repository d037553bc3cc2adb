// SessionController's exports (File > Export: the report, the simulated trace, timeline figures
// and the clipboard picture): each writes from what the session holds now (docs/Exports.md).
#include "SessionController.h"

#include "io/KinetoLoader.h"

#include "Annotations.h"
#include "Autosave.h"
#include "ComparisonController.h"
#include "DialogDir.h"
#include "EtAttach.h"
#include "Export.h"
#include "FigureRender.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "RankViewMemory.h"
#include "Samples.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "ScenarioFigures.h"
#include "ScenarioRunner.h"
#include "Selection.h"
#include "TimeFormat.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "analysis/StepExplanation.h"
#include "report/SimulationReport.h"
#include "structure/Structure.h"

#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSignalBlocker>

#include <algorithm>
#include <tuple>

namespace sl::ui {

QString SessionController::exportSimulatedTrace(const QString& path) {
    QString error = !set_ || !simulation().result
                        ? tr("No simulation to export yet")
                        : writeSimulatedTrace(path, *set_, simulation().result->timeline);
    if (!error.isEmpty())
        emit message(error, MessageBar::Level::Error);
    else
        emit exported(tr("Simulated trace"), path);
    return error;
}

std::vector<ReportSnapshot::Scenario> SessionController::simulatedScenarios(int* baseline) const {
    // The scenarios simulated so far (those whose result is of their current knobs), for the
    // report's Scenarios table (report/Report.h); the first one is the baseline.
    std::vector<ReportSnapshot::Scenario> out;
    *baseline = -1;
    for (int i = 0; scenarios_ && i < scenarios_->list()->count(); ++i) {
        const ScenarioResult* r = scenarios_->result(i);
        if (!r) continue;
        if (i == 0) *baseline = static_cast<int>(out.size());
        out.push_back({r->name.toStdString(), r->knobs, r->output.result, r->limit.toStdString()});
    }
    return out;
}

nlohmann::json SessionController::scenarioTableJson() const {
    int baseline = -1;
    const std::vector<ReportSnapshot::Scenario> simulated = simulatedScenarios(&baseline);
    if (simulated.empty()) return nlohmann::json::array();
    std::vector<ScenarioRun> runs;
    for (const auto& s : simulated)
        runs.push_back({s.name, s.knobs, s.result.get(), s.limit});
    // Every scenario ran on the graph of the set shown (ScenarioRunner): any result's will do.
    const ScenarioResult* any = nullptr;
    for (int i = 0; !any; ++i)
        any = scenarios_->result(i);
    const ExecutionGraph& graph = *any->output.graph;
    return sl::scenarioTableJson(
        scenarioTable(graph, runs, baseline >= 0 ? &runs[static_cast<std::size_t>(baseline)] : nullptr));
}

Figure SessionController::timelineFigure(QSize size, const FigureContent& content) const {
    Figure fig;
    fig.size = size;
    fig.measured = content.measured || !simulation().timeline ? measured_ : nullptr;
    fig.simulated = content.simulated ? simulation().timeline : nullptr;
    if (content.windowTracks) fig.tracks = tracks_;
    QStringList names;
    for (const QString& p : paths_)
        names << QFileInfo(p).fileName();
    fig.title = names.join(QStringLiteral(", "));
    const int current = scenarios_ ? scenarios_->list()->current() : -1;
    const QString scenario = current >= 0 ? scenarios_->list()->at(current).name : QString();
    fig.simulatedTitle = scenario.isEmpty() ? tr("Simulated") : tr("Simulated: %1").arg(scenario);
    fig.knobs = ScenarioList::knobChanges(scenarios_ ? scenarios_->currentKnobs() : SimKnobs{});
    // The card's headline (docs/WhatIfWorkbench.md, "Result card"): the scenario against the baseline,
    // with throughput and scaling efficiency where the work per step changed.
    const ScenarioResult* card = current >= 0 ? scenarios_->result(current) : nullptr;
    if (card && !card->headline.isEmpty()) {
        fig.subtitle = current == 0
                           ? tr("%1: %2").arg(scenario, card->headline)
                           : tr("%1 vs %2: %3").arg(scenario, scenarios_->list()->at(0).name, card->headline);
        if (!card->throughput.isEmpty()) fig.subtitle += tr("; %1").arg(card->throughput);
    } else if (simulation().result) {
        fig.subtitle =
            tr("Iteration: measured %1")
                .arg(QString::fromStdString(resultHeadline(simulation().result->measuredIteration,
                                                           simulation().result->simulatedIteration)));
    }
    // What the panes show now: the visible time window; a window over the whole measured trace
    // reaches to the simulated pane's end too (a longer what-if is not cut at the measured end).
    fig.start = view_->windowStart();
    fig.end = view_->windowEnd();
    if (fig.measured && fig.simulated && fig.start <= fig.measured->start() && fig.end >= fig.measured->end())
        fig.end = std::max(fig.end, fig.simulated->end());
    fig.notes = annotations_->notes();
    if (fig.simulated) fig.added = AddedRanks::of(simulation().result, simulation().graph);
    // The comparison run in the lower pane (docs/Compare.md): in the picture too, with the colours.
    if (const auto& run = comparison_->run(); content.simulated && comparison_->inPane() && fig.measured) {
        fig.simulated = run->timeline;
        fig.simulatedTitle = tr("Comparison: %1").arg(run->name());
        fig.simulatedRows = run->rows;
        fig.added = nullptr;
        std::tie(fig.measuredDeltas, fig.simulatedDeltas) = run->deltasAgainst(*fig.measured);
    }
    return fig;
}

QString SessionController::exportTimelineFigure(const QString& path, QSize size,
                                                const FigureContent& content) {
    const QString error =
        measured_ ? renderFigure(timelineFigure(size, content), path) : tr("No trace to export yet");
    if (!error.isEmpty())
        emit message(error, MessageBar::Level::Error);
    else
        emit exported(tr("Timeline figure"), path);
    return error;
}

QString SessionController::copyTimelineFigure(QSize size) {
    if (!measured_) {
        const QString error = tr("No trace to copy yet");
        emit message(error, MessageBar::Level::Error);
        return error;
    }
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    paintFigure(p, timelineFigure(size));
    p.end();
    QGuiApplication::clipboard()->setImage(image);
    emit message(tr("Timeline figure (%1x%2) copied to the clipboard").arg(size.width()).arg(size.height()),
                 MessageBar::Level::Info);
    return {};
}

namespace {
// The results of the scenarios simulated so far, in list order (null: not simulated yet).
std::vector<const ScenarioResult*> scenarioResults(const ScenarioController* scenarios) {
    std::vector<const ScenarioResult*> out;
    for (int i = 0; scenarios && i < scenarios->list()->count(); ++i)
        out.push_back(scenarios->result(i));
    return out;
}
} // namespace

std::vector<ReportFigure> SessionController::scenarioFigures() const {
    std::vector<ReportFigure> figures =
        drawScenarioFigures(sl::ui::scenarioFigures(measured_, scenarioResults(scenarios_)));
    if (extraFigures_)
        for (const auto& f : extraFigures_())
            figures.push_back(f);
    return figures;
}

bool SessionController::startReportExport(const QString& path, std::function<void(QString)> done) {
    if (!simulation().result || !simulation().graph) {
        const QString error = tr("No simulation to report yet");
        emit message(error, MessageBar::Level::Error);
        if (done) done(error);
        return false;
    }
    // What the window holds now; the report is built from it off the UI thread.
    ReportSnapshot snapshot;
    snapshot.graph = simulation().graph;
    snapshot.result = simulation().result;
    snapshot.analysis = simulation().analysis;
    snapshot.knobs = simulation().knobs;
    snapshot.paths = paths_;
    snapshot.scenarios = simulatedScenarios(&snapshot.baselineScenario);
    // The replay, when a scenario of this graph already simulated it (else the report does).
    for (int i = 0; i < scenarios_->list()->count(); ++i)
        if (const ScenarioResult* r = scenarios_->result(i);
            r && r->knobs.isReplay() && r->output.graph == simulation().graph && r->output.result->complete)
            snapshot.replay = r->output.result;
    // The scenarios' pictures are drawn in the job; the extra ones (a chart of the window) here.
    std::vector<ScenarioFigure> specs = sl::ui::scenarioFigures(measured_, scenarioResults(scenarios_));
    std::vector<ReportFigure> extra = extraFigures_ ? extraFigures_() : std::vector<ReportFigure>{};
    reportJob_->start(
        [path, snapshot = std::move(snapshot), specs = std::move(specs),
         extra = std::move(extra)](const JobControl&) mutable {
            snapshot.figures = drawScenarioFigures(specs);
            snapshot.figures.insert(snapshot.figures.end(), extra.begin(), extra.end());
            return writeReport(path, snapshot);
        },
        [this, path, done = std::move(done)](QString error) {
            if (!error.isEmpty())
                emit message(error, MessageBar::Level::Error);
            else
                emit exported(tr("Report"), path);
            if (done) done(error);
        });
    return true;
}

QString SessionController::exportReport(const QString& path) {
    auto outcome = std::make_shared<std::optional<QString>>();
    if (!startReportExport(path, [outcome](QString error) { *outcome = std::move(error); }))
        return outcome->value_or(QString());
    reportJob_->waitForIdle(10 * 60 * 1000);
    return outcome->value_or(tr("%1: the report was not written").arg(path));
}

} // namespace sl::ui
