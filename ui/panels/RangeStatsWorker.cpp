#include "RangeStatsWorker.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sl::ui {

RangeStatsWorker::RangeStatsWorker(QObject* parent) : QObject(parent) {}

RangeStatsWorker::~RangeStatsWorker() {
    if (cancel_) *cancel_ = true;
}

std::uint64_t RangeStatsWorker::request(std::shared_ptr<const TimelineData> measured,
                                        std::shared_ptr<const TimelineData> simulated,
                                        std::vector<std::vector<bool>> hidden, TimeNs start, TimeNs end) {
    if (cancel_) *cancel_ = true;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++generation_;
    auto cancel = cancel_;
    auto* watcher = new QFutureWatcher<RangeTable>(this);
    ++running_;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        --running_;
        watcher->deleteLater();
        if (generation != generation_) return; // a newer request (or cancel()) superseded it
        emit finished(generation, watcher->result());
    });
    // The task owns what it reads: the timelines (shared) and the copy of the hidden flags.
    watcher->setFuture(QtConcurrent::run([measured = std::move(measured), simulated = std::move(simulated),
                                          hidden = std::move(hidden), start, end, cancel] {
        if (!measured) return RangeTable{};
        return computeRangeTable(*measured, simulated.get(), hidden, start, end, cancel.get());
    }));
    return generation;
}

void RangeStatsWorker::cancel() {
    if (cancel_) *cancel_ = true;
    ++generation_;
}

bool RangeStatsWorker::waitForIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (running_ > 0 && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return running_ == 0;
}

} // namespace sl::ui
