// Lane index (binary search, longest-event blocks), hit testing, range statistics, find, and that
// the renderer draws within its budget of boxes.
#include "EventSearch.h"
#include "RangeStats.h"
#include "RowLayout.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TrackState.h"

#include "SyntheticTrace.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestTimelineRendering : public QObject {
    Q_OBJECT
private slots:
    void lanesSplitByDepth() {
        auto set = sltest::makeSyntheticSet(1, 2, 300);
        auto data = TimelineData::measured(set);
        const TrackTimeline& cpu = data->track(0, 0);
        QCOMPARE(cpu.lanes.size(), std::size_t{3});
        std::size_t total = 0;
        for (const Lane& lane : cpu.lanes) {
            total += lane.size;
            for (std::size_t i = 1; i < lane.size; ++i)
                QVERIFY(lane.start[i - 1] <= lane.start[i]);
        }
        QCOMPARE(total, set->ranks[0].tracks[0].events.size());
        QCOMPARE(data->track(0, 1).lanes.size(), std::size_t{1});
        QVERIFY(data->track(0, 1).lanes[0].indexStorage.empty()); // identity lane
    }
    void longestMatchesBruteForce() {
        auto set = sltest::makeSyntheticSet(1, 1, 5000, 3);
        auto data = TimelineData::measured(set);
        const TrackTimeline& t = data->track(0, 1);
        const Lane& lane = t.lanes[0];
        std::mt19937 rng(1);
        for (int k = 0; k < 300; ++k) {
            std::size_t a = rng() % lane.size, b = rng() % lane.size;
            if (a > b) std::swap(a, b);
            ++b;
            std::size_t best = a;
            for (std::size_t i = a; i < b; ++i)
                if (t.duration[i] > t.duration[best]) best = i;
            QCOMPARE(t.duration[TimelineData::longest(t, lane, a, b)], t.duration[best]);
        }
    }
    void firstEndingAfter() {
        auto set = sltest::makeSyntheticSet(1, 1, 1000);
        auto data = TimelineData::measured(set);
        const TrackTimeline& t = data->track(0, 1);
        const Lane& lane = t.lanes[0];
        const TimeNs probe = lane.start[500] + 1;
        const std::size_t pos = TimelineData::firstEndingAfter(lane, probe);
        QCOMPARE(pos, std::size_t{500});
        QVERIFY(TimelineData::firstStartingAt(lane, probe) == 501);
    }
    void hitTestFindsEvent() {
        auto set = sltest::makeSyntheticSet(2, 2, 200);
        auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        state.setAllRanksExpanded(true);
        for (std::size_t r = 0; r < 2; ++r)
            state.setTrackNested(r, 0, true);
        RowLayout layout;
        layout.build(*set, state);
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->start() + 200'000, 1000);
        const EventId target{1, {2, 3}};
        const QRectF r = TimelineRenderer::eventRect(*data, layout, m, target);
        QVERIFY(!r.isEmpty());
        const EventId hit =
            TimelineRenderer::hitTest(*data, layout, m, r.center().x(), static_cast<int>(r.center().y()));
        QCOMPARE(hit, target);
        QVERIFY(!TimelineRenderer::hitTest(*data, layout, m, 5, 2).valid()); // rank header
    }
    // A collapsed rank's summary strip selects what it shows: the GPU event under the pointer.
    void hitTestInACollapsedStrip() {
        auto set = sltest::makeSyntheticSet(2, 2, 200);
        auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        state.setAllRanksExpanded(false);
        RowLayout layout;
        layout.build(*set, state);
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->start() + 200'000, 1000);
        std::size_t gpu = 0;
        while (!set->ranks[1].tracks[gpu].isGpu())
            ++gpu;
        const TrackTimeline& t = data->track(1, gpu);
        const std::uint32_t e = t.lanes[0].event(3);
        const double x = m.x(t.start[e] + t.duration[e] / 2);
        const Row* header = nullptr;
        for (const Row& row : layout.rows())
            if (row.header() && row.rank == 1) header = &row;
        QVERIFY(header && header->collapsed);
        const EventId hit = TimelineRenderer::hitTest(*data, layout, m, x, header->y + header->height / 2);
        QVERIFY(hit.valid());
        QCOMPARE(hit.rank, 1);
        QVERIFY(set->ranks[1].tracks[hit.ref.track].isGpu());
        QVERIFY(t.start[e] <= data->track(1, hit.ref.track).end(hit.ref.index));
        // Nothing under the pointer: nothing selected.
        QVERIFY(!TimelineRenderer::hitTest(*data, layout, m, m.x(data->end() + 1'000'000), header->y + 5)
                     .valid());
    }

    void renderFoldsDenseData() {
        auto set = sltest::makeSyntheticSet(2, 2, 200'000);
        auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        RowLayout layout;
        layout.build(*set, state);
        QImage image(1400, 800, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        TimelineRenderer renderer;
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->end(), 1400);
        const RenderStats stats = renderer.paintEvents(p, *data, layout, m, image.size(), 0, {});
        QVERIFY(stats.boxes > 0);
        QVERIFY2(stats.boxes <= 1400 * 12,
                 qPrintable(QString::number(stats.boxes))); // folded: ~ pixels x lanes
        // Zoomed in: boxes get labels.
        const TimeMapping zoom = TimeMapping::fromWindow(data->start(), data->start() + 30'000, 1400);
        const RenderStats zs = renderer.paintEvents(p, *data, layout, zoom, image.size(), 0, {});
        QVERIFY(zs.labels > 0);
    }
    void rangeStatistics() {
        auto set = sltest::makeSyntheticSet(2, 2, 100);
        auto data = TimelineData::measured(set);
        const auto all = computeRangeStats(*data, nullptr, data->start(), data->end() + 1);
        std::int64_t count = 0;
        for (const auto& s : all) {
            count += s.count;
            QVERIFY(s.max * s.count >= s.total);
        }
        QCOMPARE(count, data->eventCount());
        for (std::size_t i = 1; i < all.size(); ++i)
            QVERIFY(all[i - 1].total >= all[i].total);
        // A range around one kernel sees it (and its neighbours at most).
        const TrackTimeline& t = data->track(0, 1);
        const auto one = computeRangeStats(*data, nullptr, t.start[10] + 1, t.start[10] + 2);
        std::int64_t n = 0;
        for (const auto& s : one)
            n += s.count;
        QVERIFY(n >= 1);
        TrackState state;
        state.reset(*set);
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t k = 0; k < 3; ++k)
                state.setTrackHidden(r, k, true);
        QVERIFY(computeRangeStats(*data, &state, data->start(), data->end()).empty());
    }
    void findNextPrevious() {
        auto set = sltest::makeSyntheticSet(2, 2, 50);
        auto data = TimelineData::measured(set);
        EventSearch search;
        const std::size_t n = search.search(*data, QStringLiteral("ALLREDUCE"));
        QCOMPARE(n, std::size_t{2 * 10});
        TimeNs last = -1;
        for (std::size_t i = 0; i < n; ++i) {
            const EventId e = search.next();
            QVERIFY(e.valid());
            const TimeNs s = data->track(static_cast<std::size_t>(e.rank), e.ref.track).start[e.ref.index];
            QVERIFY(s >= last);
            last = s;
        }
        const EventId wrapped = search.next();
        QCOMPARE(search.current(), 0);
        QCOMPARE(search.previous().rank >= 0, true);
        QCOMPARE(search.current(), static_cast<int>(n) - 1);
        QVERIFY(wrapped.valid());
        QCOMPARE(search.search(*data, QStringLiteral("no such name")), std::size_t{0});
        QVERIFY(!search.next().valid());
    }
};

QTEST_MAIN(TestTimelineRendering)
#include "test_TimelineRendering.moc"
