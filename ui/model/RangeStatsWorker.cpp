#include "RangeStatsWorker.h"

namespace sl::ui {

RangeStatsWorker::RangeStatsWorker(QObject* parent) : QObject(parent) {}

RangeStatsWorker::~RangeStatsWorker() = default;

std::uint64_t RangeStatsWorker::request(std::shared_ptr<const TimelineData> measured,
                                        std::shared_ptr<const TimelineData> simulated,
                                        std::vector<std::vector<bool>> hidden, TimeNs start, TimeNs end) {
    // The run owns what it reads: the timelines (shared) and the copy of the hidden flags.
    return job_.start(
        [measured = std::move(measured), simulated = std::move(simulated), hidden = std::move(hidden), start,
         end](const JobControl& control) {
            if (!measured) return RangeTable{};
            return computeRangeTable(*measured, simulated.get(), hidden, start, end, control.cancelFlag());
        },
        [this](RangeTable table) { emit finished(job_.generation(), std::move(table)); });
}

void RangeStatsWorker::cancel() {
    job_.cancel();
}

bool RangeStatsWorker::waitForIdle(int timeoutMs) {
    return job_.waitForIdle(timeoutMs);
}

} // namespace sl::ui
