// The coarse level of a lane (time buckets of the longest event) that makes zoomed-out frames
// O(pixels): built only for large lanes, chosen only when pixels are wider than its buckets, and
// gives the longest event of a range, as the exact block hierarchy does, up to one bucket.
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

class TestCoarseLevel : public QObject {
    Q_OBJECT
private slots:
    void builtForLargeLanesOnly() {
        auto set = sltest::makeSyntheticSet(1, 2, 20'000);
        auto data = TimelineData::measured(set);
        const Lane& big = data->track(0, 1).lanes[0];
        QVERIFY(!big.coarse.empty());
        QVERIFY(big.coarseWidth > 0);
        QVERIFY(big.coarse.back().size() <= 64);
        auto small = TimelineData::measured(sltest::makeSyntheticSet(1, 1, 100));
        QVERIFY(small->track(0, 1).lanes[0].coarse.empty());
        QCOMPARE(TimelineData::coarseLevel(small->track(0, 1).lanes[0], 1e9), -1);
        // Finer pixels than buckets: the exact path.
        QCOMPARE(TimelineData::coarseLevel(big, static_cast<double>(big.coarseWidth) / 2), -1);
        QCOMPARE(TimelineData::coarseLevel(big, static_cast<double>(big.coarseWidth)), 0);
        QCOMPARE(TimelineData::coarseLevel(big, 1e18), static_cast<int>(big.coarse.size()) - 1);
    }

    void longestMatchesExact() {
        auto set = sltest::makeSyntheticSet(1, 1, 50'000, 5);
        auto data = TimelineData::measured(set);
        const TrackTimeline& t = data->track(0, 1);
        const Lane& lane = t.lanes[0];
        for (int level = 0; level < static_cast<int>(lane.coarse.size()); level += 3) {
            // Whole lane: the global longest.
            const std::uint32_t c =
                TimelineData::coarseLongest(t, lane, level, lane.start[0], lane.maxEnd.back() + 1);
            QVERIFY(c != Lane::kNone);
            QCOMPARE(t.duration[lane.event(c)],
                     t.duration[lane.event(TimelineData::longest(t, lane, 0, lane.size))]);
            // A range aligned on buckets of the level: the same as the exact search over it.
            const TimeNs w = lane.coarseWidth << level;
            const TimeNs from = lane.coarseOrigin + 3 * w, to = lane.coarseOrigin + 7 * w;
            const std::size_t a = TimelineData::firstStartingAt(lane, from);
            const std::size_t b = TimelineData::firstStartingAt(lane, to);
            const std::uint32_t r = TimelineData::coarseLongest(t, lane, level, from, to);
            if (a == b) {
                QCOMPARE(r, Lane::kNone);
            } else {
                QVERIFY(r >= a && r < b);
                QCOMPARE(t.duration[lane.event(r)],
                         t.duration[lane.event(TimelineData::longest(t, lane, a, b))]);
            }
        }
    }

    void zoomedOutFrameCoversTheSameColumns() {
        auto set = sltest::makeSyntheticSet(1, 1, 100'000, 9);
        auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        RowLayout layout;
        layout.build(*set, state);
        QImage image(1000, 200, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        TimelineRenderer renderer;
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->end(), image.width());
        QVERIFY(TimelineData::coarseLevel(data->track(0, 1).lanes[0], m.nsPerPixel) >= 0);
        const RenderStats stats = renderer.paintEvents(p, *data, layout, m, image.size(), 0, {});
        p.end();
        QVERIFY(stats.boxes > 0 && stats.boxes <= image.width() + 2);
        // The GPU row is busy back to back: almost every column of its lane is painted.
        const int row = layout.rowOf(0, 1);
        const int y = layout.rows()[static_cast<std::size_t>(row)].y + RowLayout::laneY(0) + 8;
        int painted = 0;
        for (int x = 0; x < image.width(); ++x)
            painted +=
                image.pixel(x, y) != QColor(0xfafbfc).rgb() && image.pixel(x, y) != QColor(0xf1f3f5).rgb();
        QVERIFY2(painted > image.width() * 95 / 100, qPrintable(QString::number(painted)));
    }
};

QTEST_MAIN(TestCoarseLevel)
#include "test_CoarseLevel.moc"
