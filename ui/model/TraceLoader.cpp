#include "TraceLoader.h"

#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <algorithm>

namespace sl::ui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    connect(&job_, &BackgroundJob::progress, this, [this](double fraction) { emit progress(fraction); });
}

TraceLoader::~TraceLoader() = default;

namespace {

// An et/ folder next to the kineto/ folder that was opened (docs/Chakra.md, "Execution traces"):
// its execution traces give collectives their sizes, as --et does in the CLI. A bad ET file
// leaves a warning, never a failed load.
void attachEtBeside(TraceSet& set, const std::vector<std::string>& paths) {
    if (paths.size() != 1 || set.ranks.empty() || !set.ranks.front().hasMeasuredTimes) return;
    const std::string et = etFolderBeside(paths.front());
    if (et.empty()) return;
    try {
        EtApplied applied = applyExecutionTraces(set, {et});
        set.warnings.add(Warn::EtLinked, applied.summary() + " (from " + et + ")", applied.files);
        set.warnings.append(applied.warnings);
    } catch (const LoadError& e) {
        set.warnings.add(Warn::EtNotUsed,
                         std::string("execution traces next to the traces not used: ") + e.what());
    }
}

} // namespace

void TraceLoader::start(const QStringList& paths, bool skipBadFiles, AfterLoad afterLoad) {
    std::vector<std::string> list;
    for (const auto& p : paths)
        list.push_back(p.toStdString());
    struct Outcome {
        std::shared_ptr<const TraceSet> set;
        std::shared_ptr<const TimelineData> measured;
        QString error;
        bool cancelled = false;
    };
    job_.start(
        [skipBadFiles, list = std::move(list), afterLoad = std::move(afterLoad)](const JobControl& control) {
            Outcome o;
            LoadOptions options;
            options.skipBadFiles = skipBadFiles;
            // Called by the loader's threads for every piece; the job forwards a thousandth at most.
            options.progress = [control](std::int64_t done, std::int64_t total) {
                control.progress(static_cast<double>(done) /
                                 static_cast<double>(std::max<std::int64_t>(total, 1)));
                return !control.cancelled();
            };
            try {
                TraceSet set = loadTraceSet(list, options);
                if (afterLoad)
                    afterLoad(set);
                else
                    attachEtBeside(set, list);
                o.set = std::make_shared<const TraceSet>(std::move(set));
                // The lanes the panes draw (tens of ms on a 200 MB trace): here, not on the UI thread.
                if (!control.cancelled()) o.measured = TimelineData::measured(o.set);
            } catch (const LoadCancelled&) {
                o.cancelled = true;
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            o.cancelled = o.cancelled || control.cancelled();
            return o;
        },
        [this, paths](Outcome o) {
            if (o.cancelled)
                emit cancelled();
            else if (o.set)
                emit loaded(o.set, paths, o.measured);
            else
                emit failed(o.error, paths);
        });
    emit progress(0.0);
}

void TraceLoader::cancel() {
    // The load stops at its next piece; what it still delivers is dropped.
    if (!job_.busy()) return;
    job_.cancel();
    emit cancelled();
}

bool TraceLoader::busy() const {
    return job_.busy();
}

bool TraceLoader::waitForFinished(int timeoutMs) {
    return job_.waitForIdle(timeoutMs);
}

} // namespace sl::ui
