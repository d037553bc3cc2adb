#include "TimelineData.h"

#include "trace/EventClass.h"

#include "Palette.h"
#include "RankLabels.h"
#include "trace/Collective.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace sl::ui {

namespace {

TimeNs durationAt(const TrackTimeline& t, const Lane& lane, std::size_t pos) {
    return t.duration[lane.event(pos)];
}

void buildLongest(const TrackTimeline& t, Lane& lane) {
    std::size_t below = lane.size; // candidates one level down: positions, then blocks
    while (below > 1) {
        std::vector<std::uint32_t> level((below + Lane::kBlock - 1) / Lane::kBlock);
        const std::vector<std::uint32_t>* prev = lane.longest.empty() ? nullptr : &lane.longest.back();
        for (std::size_t b = 0; b < level.size(); ++b) {
            std::uint32_t best = 0;
            TimeNs bestDur = -1;
            const std::size_t to = std::min(below, (b + 1) * Lane::kBlock);
            for (std::size_t i = b * Lane::kBlock; i < to; ++i) {
                const std::uint32_t pos = prev ? (*prev)[i] : static_cast<std::uint32_t>(i);
                const TimeNs d = durationAt(t, lane, pos);
                if (d > bestDur) bestDur = d, best = pos;
            }
            level[b] = best;
        }
        below = level.size();
        lane.longest.push_back(std::move(level));
    }
}

void buildCoarse(const TrackTimeline& t, Lane& lane) {
    if (lane.size < Lane::kCoarseMinEvents) return;
    const TimeNs lo = lane.start[0];
    const TimeNs span = lane.start[lane.size - 1] - lo + 1;
    const std::size_t target = std::min<std::size_t>(std::bit_ceil(lane.size / 4), std::size_t{1} << 16);
    lane.coarseOrigin = lo;
    lane.coarseWidth =
        std::max<TimeNs>(1, (span + static_cast<TimeNs>(target) - 1) / static_cast<TimeNs>(target));
    std::vector<std::uint32_t> level(static_cast<std::size_t>((span - 1) / lane.coarseWidth + 1),
                                     Lane::kNone);
    for (std::size_t i = 0; i < lane.size; ++i) {
        std::uint32_t& slot = level[static_cast<std::size_t>((lane.start[i] - lo) / lane.coarseWidth)];
        if (slot == Lane::kNone || durationAt(t, lane, i) > durationAt(t, lane, slot))
            slot = static_cast<std::uint32_t>(i);
    }
    lane.coarse.push_back(std::move(level));
    while (lane.coarse.back().size() > 64) {
        const auto& below = lane.coarse.back();
        std::vector<std::uint32_t> up((below.size() + 1) / 2, Lane::kNone);
        for (std::size_t b = 0; b < below.size(); ++b) {
            std::uint32_t& slot = up[b / 2];
            if (below[b] != Lane::kNone &&
                (slot == Lane::kNone || durationAt(t, lane, below[b]) > durationAt(t, lane, slot)))
                slot = below[b];
        }
        lane.coarse.push_back(std::move(up));
    }
}

void finishLane(const TrackTimeline& t, Lane& lane) {
    lane.size = lane.indexStorage.empty() ? lane.size : lane.indexStorage.size();
    if (!lane.indexStorage.empty()) {
        lane.startStorage.resize(lane.size);
        for (std::size_t i = 0; i < lane.size; ++i)
            lane.startStorage[i] = t.start[lane.indexStorage[i]];
        lane.start = lane.startStorage.data();
    } else {
        lane.start = t.start;
    }
    lane.maxEnd.resize(lane.size);
    TimeNs m = std::numeric_limits<TimeNs>::min();
    for (std::size_t i = 0; i < lane.size; ++i) {
        m = std::max(m, lane.start[i] + durationAt(t, lane, i));
        lane.maxEnd[i] = m;
    }
    buildLongest(t, lane);
    buildCoarse(t, lane);
}

void buildTrack(TrackTimeline& t) {
    const Track& track = *t.track;
    const std::size_t n = track.events.size();
    bool sorted = n == 0 || t.start[0] >= 0;
    for (std::size_t i = 1; i < n && sorted; ++i)
        sorted = t.start[i - 1] <= t.start[i];
    const std::size_t depths = static_cast<std::size_t>(track.maxDepth) + 1;
    t.lanes.resize(n ? depths : 0);
    if (n == 0) return;
    if (depths == 1 && sorted) {
        t.lanes[0].size = n;
    } else {
        for (std::size_t i = 0; i < n; ++i) // a negative start: no simulated time, not drawn
            if (t.start[i] >= 0)
                t.lanes[track.events.depth[i]].indexStorage.push_back(static_cast<std::uint32_t>(i));
        if (!sorted)
            for (auto& lane : t.lanes)
                std::stable_sort(lane.indexStorage.begin(), lane.indexStorage.end(),
                                 [&](std::uint32_t a, std::uint32_t b) { return t.start[a] < t.start[b]; });
    }
    for (auto& lane : t.lanes)
        finishLane(t, lane);
}

} // namespace

std::shared_ptr<const TimelineData> TimelineData::build(std::shared_ptr<const TraceSet> set,
                                                        const ColumnsFn& columns,
                                                        std::shared_ptr<const void> keepAlive) {
    auto data = std::make_shared<TimelineData>();
    data->set_ = std::move(set);
    data->keepAlive_ = std::move(keepAlive);
    data->rankLabels_ =
        std::make_shared<const RankLabels>(data->set_ ? RankLabels(*data->set_) : RankLabels());
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    for (std::size_t r = 0; r < data->set_->ranks.size(); ++r) {
        const Rank& rank = data->set_->ranks[r];
        RankTimeline rt;
        rt.rank = &rank;
        rt.collective.resize(rank.strings.size());
        rt.shade.resize(rank.strings.size());
        for (std::size_t s = 0; s < rank.strings.size(); ++s) {
            const std::string_view name = rank.strings.str(static_cast<StringId>(s));
            // The analysis' own rules (trace/EventClass.h): host ops by isCommunicationOpName, kernels
            // also by isCommunicationKernelName (DeepEP, NVSHMEM, custom all-reduce move data too).
            rt.collective[s] = isCommunicationOpName(name) || isCommunicationKernelName(name);
            rt.shade[s] = static_cast<std::uint8_t>(palette::shadeOfName(name));
        }
        rt.tracks.resize(rank.tracks.size());
        for (std::size_t k = 0; k < rank.tracks.size(); ++k) {
            TrackTimeline& t = rt.tracks[k];
            t.track = &rank.tracks[k];
            const TimeColumns c = columns(r, k);
            t.start = c.start;
            t.duration = c.duration;
            buildTrack(t);
            const std::size_t n = t.track->events.size();
            data->events_ += static_cast<std::int64_t>(n);
            for (const Lane& lane : t.lanes) {
                if (lane.size == 0) continue;
                lo = std::min(lo, lane.start[0]);
                hi = std::max(hi, lane.maxEnd.back());
            }
        }
        data->ranks_.push_back(std::move(rt));
    }
    if (lo > hi) lo = hi = 0;
    data->start_ = lo;
    data->end_ = hi;
    return data;
}

std::shared_ptr<const TimelineData> TimelineData::measured(std::shared_ptr<const TraceSet> set) {
    const TraceSet* s = set.get();
    return build(std::move(set), [s](std::size_t r, std::size_t k) {
        const EventColumns& ev = s->ranks[r].tracks[k].events;
        return TimeColumns{ev.start.data(), ev.duration.data()};
    });
}

std::size_t TimelineData::firstEndingAfter(const Lane& lane, TimeNs t) {
    return static_cast<std::size_t>(std::upper_bound(lane.maxEnd.begin(), lane.maxEnd.end(), t) -
                                    lane.maxEnd.begin());
}

std::size_t TimelineData::firstStartingAt(const Lane& lane, TimeNs t) {
    return static_cast<std::size_t>(std::lower_bound(lane.start, lane.start + lane.size, t) - lane.start);
}

std::size_t TimelineData::nextStartingAt(const Lane& lane, std::size_t from, TimeNs t) {
    if (from >= lane.size || lane.start[from] >= t) return from;
    std::size_t lo = from, step = 1, hi = from + 1;
    while (hi < lane.size && lane.start[hi] < t) {
        lo = hi;
        step *= 2;
        hi = from + step;
    }
    hi = std::min(hi, lane.size);
    return static_cast<std::size_t>(std::lower_bound(lane.start + lo, lane.start + hi, t) - lane.start);
}

std::size_t TimelineData::longest(const TrackTimeline& track, const Lane& lane, std::size_t from,
                                  std::size_t to) {
    std::size_t best = from;
    TimeNs bestDur = -1;
    std::size_t pos = from;
    while (pos < to) {
        std::size_t size = 1;
        std::size_t candidate = pos;
        std::size_t blockSize = Lane::kBlock;
        for (const auto& level : lane.longest) {
            if (pos % blockSize != 0 || pos + blockSize > to) break;
            size = blockSize;
            candidate = level[pos / blockSize];
            blockSize *= Lane::kBlock;
        }
        const TimeNs d = durationAt(track, lane, candidate);
        if (d > bestDur) bestDur = d, best = candidate;
        pos += size;
    }
    return best;
}

int TimelineData::coarseLevel(const Lane& lane, double nsPerPixel) {
    if (lane.coarse.empty() || nsPerPixel < static_cast<double>(lane.coarseWidth)) return -1;
    const int level =
        static_cast<int>(std::floor(std::log2(nsPerPixel / static_cast<double>(lane.coarseWidth))));
    return std::clamp(level, 0, static_cast<int>(lane.coarse.size()) - 1);
}

std::uint32_t TimelineData::coarseLongest(const TrackTimeline& track, const Lane& lane, int level,
                                          TimeNs from, TimeNs to) {
    const auto& buckets = lane.coarse[static_cast<std::size_t>(level)];
    const TimeNs w = lane.coarseWidth << level;
    // Buckets whose start lies in [from, to).
    auto bucketAt = [&](TimeNs t) {
        if (t <= lane.coarseOrigin) return std::int64_t{0};
        return std::min<std::int64_t>((t - lane.coarseOrigin + w - 1) / w,
                                      static_cast<std::int64_t>(buckets.size()));
    };
    std::uint32_t best = Lane::kNone;
    for (std::int64_t b = bucketAt(from), e = bucketAt(to); b < e; ++b) {
        const std::uint32_t c = buckets[static_cast<std::size_t>(b)];
        if (c != Lane::kNone &&
            (best == Lane::kNone || durationAt(track, lane, c) > durationAt(track, lane, best)))
            best = c;
    }
    return best;
}

std::int64_t TimelineData::hitTest(const TrackTimeline& track, const Lane& lane, TimeNs t, TimeNs tolerance) {
    std::size_t pos = firstEndingAfter(lane, t - tolerance - 1);
    std::int64_t best = -1;
    TimeNs bestDistance = std::numeric_limits<TimeNs>::max();
    for (int n = 0; pos < lane.size && lane.start[pos] <= t + tolerance && n < 512; ++pos, ++n) {
        const std::uint32_t e = lane.event(pos);
        const TimeNs s = lane.start[pos];
        const TimeNs end = s + track.duration[e];
        const TimeNs distance = t < s ? s - t : (t > end ? t - end : 0);
        if (distance < bestDistance ||
            (distance == 0 && bestDistance == 0 && track.duration[e] < track.duration[best])) {
            bestDistance = distance;
            best = e;
        }
    }
    return bestDistance <= tolerance ? best : -1;
}

} // namespace sl::ui
