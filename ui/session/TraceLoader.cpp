#include "TraceLoader.h"

#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

#include <thread>

namespace sl::ui {

struct TraceLoader::Job {
    QStringList paths;
    std::atomic<std::int64_t> done{0};
    std::atomic<std::int64_t> total{1};
    std::atomic<bool> cancel{false};
    std::atomic<bool> finished{false};
    std::shared_ptr<const TraceSet> set;
    std::shared_ptr<const TimelineData> measured;
    QString error;
    bool wasCancelled = false;
};

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
    timer_->setInterval(50);
    connect(timer_, &QTimer::timeout, this, &TraceLoader::poll);
}

TraceLoader::~TraceLoader() {
    if (job_) job_->cancel = true; // the thread owns a reference to the job and ends on its own
}

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
    if (job_) job_->cancel = true;
    auto job = std::make_shared<Job>();
    job->paths = paths;
    job_ = job;
    std::vector<std::string> list;
    for (const auto& p : paths)
        list.push_back(p.toStdString());
    std::thread([job, skipBadFiles, list = std::move(list), afterLoad = std::move(afterLoad)] {
        LoadOptions options;
        options.skipBadFiles = skipBadFiles;
        options.progress = [job](std::int64_t done, std::int64_t total) {
            job->done = done;
            job->total = std::max<std::int64_t>(total, 1);
            return !job->cancel.load();
        };
        try {
            TraceSet set = loadTraceSet(list, options);
            if (afterLoad)
                afterLoad(set);
            else
                attachEtBeside(set, list);
            job->set = std::make_shared<const TraceSet>(std::move(set));
            // The lanes the panes draw (tens of ms on a 200 MB trace): here, not on the UI thread.
            if (!job->cancel) job->measured = TimelineData::measured(job->set);
        } catch (const LoadCancelled&) {
            job->wasCancelled = true;
        } catch (const std::exception& e) {
            job->error = QString::fromStdString(e.what());
        }
        if (job->cancel) job->wasCancelled = true;
        job->finished = true;
    }).detach();
    timer_->start();
    emit progress(0.0);
}

void TraceLoader::cancel() {
    if (job_) job_->cancel = true;
}

void TraceLoader::poll() {
    if (!job_) {
        timer_->stop();
        return;
    }
    if (!job_->finished) {
        emit progress(static_cast<double>(job_->done.load()) / static_cast<double>(job_->total.load()));
        return;
    }
    timer_->stop();
    auto job = std::move(job_);
    job_.reset();
    if (job->wasCancelled)
        emit cancelled();
    else if (job->set)
        emit loaded(job->set, job->paths, job->measured);
    else
        emit failed(job->error, job->paths);
}

bool TraceLoader::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (job_ && clock.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (job_ && job_->finished) poll();
        QThread::msleep(5);
    }
    return !job_;
}

} // namespace sl::ui
