#pragma once
#include "BackgroundJob.h"
#include "RangeStats.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <vector>

namespace sl::ui {

// Computes range statistics off the UI thread, so that a drag over millions of events never
// blocks. Each request() gets a newer generation number and cancels the running one; only the
// result of the latest generation is delivered (finished()), older ones are dropped (one background
// job, BackgroundJob.h).
class RangeStatsWorker : public QObject {
    Q_OBJECT
public:
    explicit RangeStatsWorker(QObject* parent = nullptr);
    ~RangeStatsWorker() override;

    // Both panes' statistics of [start, end): measured, and simulated when not null. hidden: a copy
    // of the hidden flags (see hiddenTracks()).
    std::uint64_t request(std::shared_ptr<const TimelineData> measured,
                          std::shared_ptr<const TimelineData> simulated,
                          std::vector<std::vector<bool>> hidden, TimeNs start, TimeNs end);
    // Drops the running request's result.
    void cancel();
    std::uint64_t generation() const { return job_.generation(); }
    bool busy() const { return job_.running() > 0; }
    // Processes events until no request is running (tests).
    bool waitForIdle(int timeoutMs);

signals:
    void finished(std::uint64_t generation, sl::ui::RangeTable table);

private:
    BackgroundJob job_;
};

} // namespace sl::ui
