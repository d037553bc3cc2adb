#include "WindowText.h"

#include "SessionController.h"
#include "SessionDocument.h"
#include "TimeFormat.h"
#include "ViewController.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace sl::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("sl::ui::MainWindow", text);
}
} // namespace

QString windowTitleFor(const SessionController& session) {
    // The session's name when there is one, else the traces' (with their folder: sets are often all
    // called "kineto").
    const QString& file = session.document()->sessionPath();
    const QStringList& paths = session.tracePaths();
    QString name;
    if (!file.isEmpty()) {
        name = QFileInfo(file).fileName();
    } else if (!paths.isEmpty()) {
        const QFileInfo first(paths[0]);
        name = first.absoluteDir().dirName() + QLatin1Char('/') + first.fileName();
        if (paths.size() > 1) name += tr(" and %1 more").arg(paths.size() - 1);
    }
    return name.isEmpty() ? tr("Sightline") : tr("%1[*] - Sightline").arg(name);
}

QString statusTextFor(const SessionController& session) {
    const auto& set = session.traceSet();
    if (!set) return tr("No trace loaded");
    QString text = tr("%1 ranks, %2 events  |  window %3")
                       .arg(set->ranks.size())
                       .arg(set->eventCount())
                       .arg(formatDuration(session.view()->windowDuration()));
    const SimOutput& simulation = session.simulation();
    if (!simulation.result) return text;
    const SimResult& r = *simulation.result;
    const double change = r.measuredIteration > 0
                              ? 100.0 * static_cast<double>(r.simulatedIteration - r.measuredIteration) /
                                    static_cast<double>(r.measuredIteration)
                              : 0.0;
    text += tr("  |  iteration: measured %1, simulated %2 (%3)")
                .arg(formatDuration(r.measuredIteration), formatDuration(r.simulatedIteration),
                     formatChangePct(change));
    // The GPU span too: the iteration alone can hide drift on the GPU. Simulated over the ranks of
    // the simulated job: the loaded ranks an edit kept and those it added (a straggler among the
    // added ranks is the longest; docs/AddedRanks.md).
    TimeNs gpuMeasured = 0, gpuSimulated = 0;
    for (std::size_t i = 0; i < r.ranks.size(); ++i) {
        const RankSimSummary& rank = r.ranks[i];
        gpuMeasured = std::max(gpuMeasured, rank.measuredGpuEnd - rank.measuredGpuStart);
        if (!r.setup.isDropped(i))
            gpuSimulated = std::max(gpuSimulated, rank.simulatedGpuEnd - rank.simulatedGpuStart);
    }
    for (const RankSimSummary& rank : r.addedRanks.summary)
        gpuSimulated = std::max(gpuSimulated, rank.simulatedGpuEnd - rank.simulatedGpuStart);
    if (gpuMeasured > 0)
        text += tr("  |  GPU span %1 -> %2").arg(formatDuration(gpuMeasured), formatDuration(gpuSimulated));
    text += tr("  |  simulated in %1 ms").arg(simulation.seconds * 1000.0, 0, 'f', 0);
    return text;
}

} // namespace sl::ui
