#include "Screenshot.h"

#include "ComparisonController.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "ScenarioController.h"
#include "Session.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TrackState.h"
#include "ViewController.h"
#include "io/KinetoLoader.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>

#include <optional>

namespace sl::ui {

namespace {
// The longest communication kernel of the first rank, else the longest GPU op: a good first look.
EventId interestingEvent(const TimelineData& data) {
    EventId best;
    TimeNs bestDur = -1;
    bool bestComm = false;
    if (data.ranks().empty()) return best;
    const RankTimeline& rt = data.ranks()[0];
    for (std::size_t k = 0; k < rt.tracks.size(); ++k) {
        const TrackTimeline& t = rt.tracks[k];
        const EventColumns& ev = t.track->events;
        if (!t.track->isGpu()) continue;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (!isGpuOp(ev.kind[i])) continue;
            const bool comm = rt.collective[ev.name[i]] != 0;
            if ((comm && !bestComm) || (comm == bestComm && t.duration[i] > bestDur)) {
                best = {0, {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i)}};
                bestDur = t.duration[i];
                bestComm = comm;
            }
        }
    }
    return best;
}
// With the critical path shown: collapses the ranks the path does not cross (their headers and
// exposed lanes stay) and returns the longest GPU op on the path, if any.
EventId showPathRanks(MainWindow& window, const PaneHighlights& h) {
    EventId best;
    TimeNs bestDur = -1;
    const TraceSet& set = *window.sessions()->traceSet();
    TrackState* tracks = window.sessions()->tracks();
    for (std::size_t r = 0; r < h.ranks.size() && r < tracks->rankCount(); ++r) {
        bool onPath = false;
        for (std::size_t k = 0; k < h.ranks[r].tracks.size(); ++k) {
            const auto& flags = h.ranks[r].tracks[k].flags;
            const Track& track = set.ranks[r].tracks[k];
            for (std::size_t i = 0; i < flags.size(); ++i) {
                if (!highlight::onPath(flags[i])) continue;
                onPath = true;
                if (track.isGpu() && track.events.duration[i] > bestDur) {
                    bestDur = track.events.duration[i];
                    best = {static_cast<int>(r),
                            {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i)}};
                }
            }
        }
        tracks->setRankExpanded(r, onPath);
    }
    return best;
}
} // namespace

QString takeScreenshot(const ScreenshotRequest& request) {
    if (request.output.isEmpty()) return QStringLiteral("--screenshot needs an output file");
    if (request.traces.isEmpty())
        return QStringLiteral("--screenshot needs at least one trace file or folder");
    // A saved session stands for its traces, knobs, track tree, view and highlights.
    std::optional<Session> session;
    QStringList traces = request.traces;
    if (traces.size() == 1 && isSessionPath(traces[0])) {
        session.emplace();
        const QString error = readSessionFile(traces[0], *session);
        if (!error.isEmpty()) return error;
        traces = session->traces;
        if (traces.isEmpty()) return QStringLiteral("%1: the session has no traces").arg(request.traces[0]);
    }
    SimKnobs knobs = session ? session->knobs : SimKnobs{};
    for (const QString& k : request.knobs) {
        try {
            setKnobAssignment(knobs, k.toStdString());
        } catch (const std::exception& e) {
            return QStringLiteral("--set %1: %2").arg(k, QString::fromStdString(e.what()));
        }
    }
    std::shared_ptr<const TraceSet> set;
    try {
        std::vector<std::string> paths;
        for (const QString& p : traces)
            paths.push_back(p.toStdString());
        set = std::make_shared<const TraceSet>(loadTraceSet(paths));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    SimOutput sim;
    QString simError;
    try {
        sim = SimRunner::runNow(set, knobs);
    } catch (const std::exception& e) {
        simError = QString::fromStdString(e.what());
    }
    MainWindow window;
    SessionController* sessions = window.sessions();
    sessions->driver()->setAutoSimulate(false);
    window.resize(request.width, request.height);
    sessions->showTraceSet(set, {});
    // A session's scenarios, as opening it shows them (the comparison below waits for them).
    if (session && !session->scenarios.empty())
        sessions->scenarios()->restore(session->scenarios, session->currentScenario, session->knobs);
    sessions->knobs()->setKnobs(knobs);
    if (sim.timeline) sessions->driver()->showSimulation(sim);
    const bool criticalPath = request.criticalPath || (session && session->criticalPath);
    sessions->highlights()->setCriticalPath(criticalPath);
    sessions->highlights()->setExposed(request.exposed || (session && session->exposed));
    if (session && !session->tracks.empty()) sessions->tracks()->restore(session->tracks);
    // The comparison run in the lower pane (docs/Compare.md).
    const QStringList comparison = !request.comparison.isEmpty() ? request.comparison
                                   : session                     ? session->comparison
                                                                 : QStringList();
    if (!comparison.isEmpty()) {
        const QString error = sessions->comparison()->openNow(comparison);
        if (!error.isEmpty()) return error.startsWith(QStringLiteral("error: ")) ? error.mid(7) : error;
    }
    EventId focus;
    if (criticalPath && sim.simulatedHighlights && !(session && !session->tracks.empty()))
        focus = showPathRanks(window, *sim.simulatedHighlights);
    if (!simError.isEmpty())
        window.findChild<MessageBar*>()->showMessage(QStringLiteral("Simulation failed: %1").arg(simError),
                                                     MessageBar::Level::Error);
    window.show();
    QApplication::processEvents();
    window.resize(request.width, request.height);
    QApplication::processEvents();
    if (session && session->hasView) {
        sessions->view()->setWindow(session->viewStart, session->viewEnd);
        sessions->view()->setScrollY(session->scrollY);
    } else {
        sessions->view()->fitAll();
    }
    if (!focus.valid()) focus = interestingEvent(*sessions->measured());
    if (focus.valid()) sessions->selection()->setEvent(focus);
    QApplication::processEvents();
    // The scenario table and the result card fill from background simulations (started when the
    // simulation above was shown): wait for them, so the picture shows the comparison.
    if (ScenarioRunner* runner = sessions->scenarios()->runner(); runner->busy()) {
        runner->waitForIdle(60000);
        QApplication::processEvents();
    }
    const QImage image = window.grab().toImage();
    if (!image.save(request.output, "PNG"))
        return QStringLiteral("%1: cannot write the image").arg(request.output);
    return {};
}

} // namespace sl::ui
