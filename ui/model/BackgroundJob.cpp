#include "BackgroundJob.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QPromise>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace sl::ui {

namespace {
const char* const kPoolName = "sightline-jobs";
}

// Made on the GUI thread (every job starts there).
QThreadPool* jobPool() {
    QCoreApplication* app = QCoreApplication::instance();
    // Without an application (no GUI thread to deliver to) the jobs have nowhere to report; Qt's own
    // pool keeps such a caller working.
    if (!app) return QThreadPool::globalInstance();
    if (auto* pool = app->findChild<QThreadPool*>(QLatin1String(kPoolName), Qt::FindDirectChildrenOnly))
        return pool;
    auto* pool = new QThreadPool(app);
    pool->setObjectName(QLatin1String(kPoolName));
    // Every kind of job (load, simulation, scenarios, sweep, range statistics) can run at once, so
    // none queues behind another; the heavy ones split their own work (base/ParallelFor.h).
    pool->setMaxThreadCount(std::max(QThread::idealThreadCount(), 8));
    return pool;
}

// Who receives what a run posts: the job until its destructor cuts the link (under the mutex, so a
// worker never posts to a job being destroyed; events already posted die with the job).
struct BackgroundJob::Link {
    std::mutex mutex;
    BackgroundJob* job = nullptr;
};

struct JobControl::Run {
    std::atomic<bool> cancel{false};
    std::uint64_t generation = 0;
    std::shared_ptr<BackgroundJob::Link> link;
    std::atomic<int> permille{-1}; // the last progress posted
};

bool JobControl::cancelled() const {
    return run_->cancel.load();
}

const std::atomic<bool>* JobControl::cancelFlag() const {
    return &run_->cancel;
}

std::uint64_t JobControl::generation() const {
    return run_->generation;
}

void JobControl::send(std::function<void(BackgroundJob&)> fn) const {
    const std::lock_guard lock(run_->link->mutex);
    BackgroundJob* job = run_->link->job;
    if (!job) return;
    QMetaObject::invokeMethod(
        job,
        [job, generation = run_->generation, fn = std::move(fn)] {
            if (generation == job->generation_) fn(*job);
        },
        Qt::QueuedConnection);
}

void JobControl::post(std::function<void()> fn) const {
    send([fn = std::move(fn)](BackgroundJob&) { fn(); });
}

void JobControl::progress(double fraction, const QString& what) const {
    const int permille = static_cast<int>(std::floor(std::clamp(fraction, 0.0, 1.0) * 1000));
    int last = run_->permille.load();
    if (what.isEmpty()) {
        do {
            if (permille <= last) return;
        } while (!run_->permille.compare_exchange_weak(last, permille));
    } else {
        while (last < permille && !run_->permille.compare_exchange_weak(last, permille)) {
        }
    }
    send([fraction, what](BackgroundJob& job) { emit job.progress(fraction, what); });
}

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent), link_(std::make_shared<Link>()) {
    link_->job = this;
}

BackgroundJob::~BackgroundJob() {
    {
        const std::lock_guard lock(link_->mutex);
        link_->job = nullptr;
    }
    for (const Active& a : runs_)
        a.run->cancel = true;
    // Bounded: a run that polls its flag ends within milliseconds; one without a hook keeps running
    // on the pool with what it owns, and the pool waits for it when the application ends.
    const QDeadlineTimer deadline(kShutdownWaitMs);
    for (const Active& a : runs_)
        while (!a.future.isFinished() && !deadline.hasExpired())
            QThread::msleep(2);
}

std::uint64_t BackgroundJob::launch(std::function<void(const JobControl&)> body,
                                    std::function<void(bool)> finish) {
    if (currentRunning_ && !runs_.empty()) runs_.back().run->cancel = true;
    auto run = std::make_shared<JobControl::Run>();
    run->generation = ++generation_;
    run->link = link_;
    auto promise = std::make_shared<QPromise<void>>();
    QFuture<void> future = promise->future();
    promise->start();
    auto error = std::make_shared<QString>();
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, run, error, finish = std::move(finish)] {
                watcher->deleteLater();
                runs_.erase(
                    std::find_if(runs_.begin(), runs_.end(), [&](const Active& a) { return a.run == run; }));
                const bool current = run->generation == generation_;
                if (current) currentRunning_ = false;
                if (!error->isEmpty()) {
                    if (current) emit failed(*error);
                    return;
                }
                finish(current);
            });
    watcher->setFuture(future);
    runs_.push_back({run, future});
    currentRunning_ = true;
    jobPool()->start([promise, run, error, body = std::move(body)] {
        try {
            body(JobControl(run));
        } catch (const std::exception& e) {
            *error = QString::fromUtf8(e.what());
        } catch (...) { // never out of the pool's thread
            *error = QStringLiteral("unexpected error in a background job");
        }
        promise->finish();
    });
    return run->generation;
}

void BackgroundJob::cancel() {
    for (const Active& a : runs_)
        a.run->cancel = true;
    if (currentRunning_) ++generation_; // what the run still delivers is dropped
    currentRunning_ = false;
}

bool BackgroundJob::waitForIdle(int timeoutMs, const std::function<bool()>& pending) {
    const QDeadlineTimer deadline(timeoutMs);
    const auto idle = [&] { return runs_.empty() && !(pending && pending()); };
    while (!idle() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!idle()) QThread::msleep(2);
    }
    return idle();
}

} // namespace sl::ui
