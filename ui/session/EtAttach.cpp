#include "EtAttach.h"

#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <thread>

namespace sl::ui {

struct EtAttach::Job {
    std::atomic<bool> finished{false};
    std::shared_ptr<const TraceSet> set;
    std::weak_ptr<const TraceSet> source;
    std::string summary;
    QString error;
};

EtAttach::EtAttach(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
    timer_->setInterval(50);
    connect(timer_, &QTimer::timeout, this, &EtAttach::poll);
}

// The worker thread owns a reference to its job and ends on its own; its result is dropped.
EtAttach::~EtAttach() = default;

std::shared_ptr<const TraceSet> EtAttach::loadWithExecutionTraces(const std::vector<std::string>& tracePaths,
                                                                  const std::vector<std::string>& etPaths,
                                                                  std::size_t expectRanks,
                                                                  std::string* summary) {
    // A missing file or a folder without ETs fails before the traces are loaded again.
    expandEtPaths(etPaths);
    LoadOptions options;
    options.skipBadFiles = true;
    TraceSet set = loadTraceSet(tracePaths, options);
    if (set.ranks.size() != expectRanks)
        throw LoadError(tracePaths.front(), "the traces changed since they were opened (" +
                                                std::to_string(set.ranks.size()) + " rank(s) load now, " +
                                                std::to_string(expectRanks) + " were open); open them again");
    EtApplied applied = applyExecutionTraces(set, etPaths);
    std::string from;
    for (const auto& p : etPaths)
        from += (from.empty() ? "" : ", ") + p;
    const std::string text = applied.summary() + " (from " + from + ")";
    set.warnings.push_back(text);
    set.warnings.insert(set.warnings.end(), applied.warnings.begin(), applied.warnings.end());
    if (summary) *summary = text;
    return std::make_shared<const TraceSet>(std::move(set));
}

void EtAttach::start(std::shared_ptr<const TraceSet> set, const QStringList& tracePaths,
                     const QStringList& etPaths) {
    QString problem;
    if (!set || tracePaths.isEmpty())
        problem = tr("no trace set is open");
    else if (etPaths.isEmpty())
        problem = tr("no files chosen");
    else if (set->ranks.empty() || !set->ranks.front().hasMeasuredTimes)
        problem = tr("execution traces link to Kineto traces; this set has no measured CPU ops");
    if (!problem.isEmpty()) {
        emit failed(tr("Could not attach execution traces: %1").arg(problem));
        return;
    }
    auto job = std::make_shared<Job>();
    job->source = set;
    job_ = job;
    auto list = [](const QStringList& paths) {
        std::vector<std::string> out;
        for (const auto& p : paths)
            out.push_back(QDir::cleanPath(QFileInfo(p).absoluteFilePath()).toStdString());
        return out;
    };
    std::thread([job, traces = list(tracePaths), ets = list(etPaths), ranks = set->ranks.size()] {
        try {
            job->set = loadWithExecutionTraces(traces, ets, ranks, &job->summary);
        } catch (const std::exception& e) {
            // LoadError names the file and what is wrong with it.
            job->error = QString::fromStdString(e.what());
        }
        job->finished = true;
    }).detach();
    timer_->start();
}

void EtAttach::poll() {
    if (!job_) {
        timer_->stop();
        return;
    }
    if (!job_->finished) return;
    timer_->stop();
    auto job = std::move(job_);
    job_.reset();
    if (job->set)
        emit attached(job->set, QString::fromStdString(job->summary), job->source.lock());
    else
        emit failed(tr("Could not attach execution traces: %1").arg(job->error));
}

bool EtAttach::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (job_ && clock.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (job_ && job_->finished) poll();
        QThread::msleep(5);
    }
    return !job_;
}

QStringList EtAttach::askPaths(QWidget* parent, const QStringList& tracePaths, bool folder) {
    QString dir;
    if (!tracePaths.isEmpty()) {
        dir = QString::fromStdString(etFolderBeside(tracePaths.front().toStdString()));
        if (dir.isEmpty()) {
            const QFileInfo first(tracePaths.front());
            dir = first.isDir() ? first.absoluteFilePath() : first.absolutePath();
        }
    }
    if (folder) {
        const QString chosen =
            QFileDialog::getExistingDirectory(parent, tr("Attach execution traces (folder)"), dir);
        return chosen.isEmpty() ? QStringList{} : QStringList{chosen};
    }
    return QFileDialog::getOpenFileNames(parent, tr("Attach execution traces"), dir,
                                         tr("Execution traces (*.json *.json.gz);;All files (*)"));
}

} // namespace sl::ui
