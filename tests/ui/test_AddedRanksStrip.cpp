// The strip under the simulated pane with the ranks dp.degree added, on the bundled samples/02-dp4
// (4 ranks, dp 4, tp 1, pp 1). Megatron order rank = (pp x dp + d) x tp + t is rank = d here, and a
// new replica d is a copy of loaded replica d mod 4 (core/sim/SetupEdits.cpp): dp.degree=8 adds
// ranks 4..7 as copies of 0..3; dp.degree=32 adds 4, 8, ..., 28 as copies of rank 0. The busy
// columns are checked against the source's simulated GPU ops summed here from the core result.
#include "TestSupport.h"

#include "AddedRanksStrip.h"
#include "Palette.h"
#include "Selection.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/Collective.h"

#include <QApplication>
#include <QImage>
#include <QLabel>

#include <cmath>

using namespace sl;
using namespace sl::ui;

namespace {

struct Sim {
    std::shared_ptr<const SimResult> result;
    std::shared_ptr<const TimelineData> timeline;
};

// The simulated timeline as the GUI's simulation runner builds it.
Sim simulateSample(const std::shared_ptr<const TraceSet>& set, const ExecutionGraph& g, int dpDegree) {
    SimKnobs k;
    k.dpDegree = dpDegree;
    auto result = std::make_shared<const SimResult>(simulate(g, k));
    const SimResult* r = result.get();
    auto timeline = TimelineData::build(
        set,
        [r](std::size_t rank, std::size_t track) {
            const TrackTimes& t = r->timeline.track(rank, track);
            return TimeColumns{t.start.data(), t.duration.data()};
        },
        result);
    return {result, timeline};
}

using Columns = std::vector<AddedRanksStrip::Column>;

// Busy ns per pixel column of one loaded rank's simulated GPU ops, straight from the core result:
// every kernel, copy and set of its GPU streams, cut at the column edges of the mapping.
Columns expectedColumns(const TraceSet& set, const SimResult& r, std::size_t rank, const TimeMapping& m,
                        int width) {
    Columns out(static_cast<std::size_t>(width));
    const Rank& rk = set.ranks[rank];
    for (std::size_t k = 0; k < rk.tracks.size(); ++k) {
        const Track& track = rk.tracks[k];
        if (!track.isGpu()) continue;
        const TrackTimes& times = r.timeline.track(rank, k);
        for (std::size_t e = 0; e < track.events.size(); ++e) {
            const EventKind kind = track.events.kind[e];
            if (kind != EventKind::Kernel && kind != EventKind::GpuMemcpy && kind != EventKind::GpuMemset)
                continue;
            const bool comm =
                kind == EventKind::Kernel && isCollectiveKernelName(rk.strings.str(track.events.name[e]));
            const TimeNs s = times.start[e];
            const TimeNs end = s + times.duration[e];
            for (int c = 0; c < width; ++c) {
                const TimeNs overlap = std::min(end, m.columnStart(c + 1)) - std::max(s, m.columnStart(c));
                if (overlap > 0)
                    (comm ? out[static_cast<std::size_t>(c)].communication
                          : out[static_cast<std::size_t>(c)].compute) += overlap;
            }
        }
    }
    return out;
}

// The simulated [start, end) of the rank's last collective kernel.
std::pair<TimeNs, TimeNs> lastCollective(const TraceSet& set, const SimResult& r, std::size_t rank) {
    std::pair<TimeNs, TimeNs> last{0, 0};
    const Rank& rk = set.ranks[rank];
    for (std::size_t k = 0; k < rk.tracks.size(); ++k) {
        const Track& track = rk.tracks[k];
        if (!track.isGpu()) continue;
        const TrackTimes& times = r.timeline.track(rank, k);
        for (std::size_t e = 0; e < track.events.size(); ++e)
            if (track.events.kind[e] == EventKind::Kernel &&
                isCollectiveKernelName(rk.strings.str(track.events.name[e])) && times.start[e] > last.first)
                last = {times.start[e], times.start[e] + times.duration[e]};
    }
    return last;
}

} // namespace

class TestAddedRanksStrip : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const TraceSet> set_;
    std::unique_ptr<ExecutionGraph> graph_;

private slots:
    void initTestCase() {
        set_ = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        QCOMPARE(set_->ranks.size(), std::size_t{4});
        graph_ = std::make_unique<ExecutionGraph>(buildExecutionGraph(*set_));
    }

    void rowsOfClones() {
        ViewController controller;
        AddedRanksStrip strip(&controller);
        const Sim sim = simulateSample(set_, *graph_, 8);
        strip.setSetup(sim.result->setup, sim.timeline);
        QVERIFY(!strip.isHidden());
        QCOMPARE(strip.addedCount(), 4);
        QCOMPARE(strip.rows().size(), std::size_t{4});
        for (int i = 0; i < 4; ++i) {
            const AddedRanksStrip::Row& row = strip.rows()[static_cast<std::size_t>(i)];
            QCOMPARE(row.source, static_cast<std::uint32_t>(i));
            QCOMPARE(row.sourceRank, i);
            QCOMPARE(row.clones, std::vector<int>{4 + i});
        }
        QCOMPARE(AddedRanksStrip::rowLabel(strip.rows()[2]), QString("rank 6 = rank 2"));

        // dp.degree=32: 28 added, 7 copies of each loaded rank (d, d + 4, ..., d + 28 minus d itself).
        const Sim big = simulateSample(set_, *graph_, 32);
        strip.setSetup(big.result->setup, big.timeline);
        QCOMPARE(strip.addedCount(), 28);
        QCOMPARE(strip.rows().size(), std::size_t{4});
        QCOMPARE(strip.rows()[0].clones, (std::vector<int>{4, 8, 12, 16, 20, 24, 28}));
        QCOMPARE(strip.rows()[3].clones, (std::vector<int>{7, 11, 15, 19, 23, 27, 31}));
        QCOMPARE(AddedRanksStrip::rowLabel(strip.rows()[0]), QString("ranks 4, 8, 12 (+4 more) = rank 0"));
        // Four rows fit: no scrolling, and the height holds the header and the four rows.
        QCOMPARE(strip.sizeHint().height(),
                 AddedRanksStrip::kHeaderHeight + 4 * AddedRanksStrip::kRowHeight + 2);
    }

    void hiddenWithoutAddedRanks() {
        ViewController controller;
        AddedRanksStrip strip(&controller);
        const Sim plain = simulateSample(set_, *graph_, 0);
        strip.setSetup(plain.result->setup, plain.timeline);
        QVERIFY(strip.isHidden());
        QVERIFY(strip.rows().empty());
        const Sim same = simulateSample(set_, *graph_, 4);
        strip.setSetup(same.result->setup, same.timeline);
        QVERIFY(strip.isHidden());
        // Fewer replicas (ranks 2, 3 dropped) add none either.
        const Sim fewer = simulateSample(set_, *graph_, 2);
        strip.setSetup(fewer.result->setup, fewer.timeline);
        QVERIFY(strip.isHidden());
        // Shown, then a new simulation without clones hides it again.
        const Sim more = simulateSample(set_, *graph_, 8);
        strip.setSetup(more.result->setup, more.timeline);
        QVERIFY(!strip.isHidden());
        strip.setSetup(plain.result->setup, plain.timeline);
        QVERIFY(strip.isHidden());
    }

    void busyColumnsAreTheSourceRanks() {
        const Sim sim = simulateSample(set_, *graph_, 8);
        ViewController controller;
        controller.setViewportWidth(700);
        controller.setBounds(sim.timeline->start(), sim.timeline->end());
        AddedRanksStrip strip(&controller);
        strip.setSetup(sim.result->setup, sim.timeline);
        const int width = controller.viewportWidth();
        for (int row = 0; row < 4; ++row) {
            const std::size_t source = strip.rows()[static_cast<std::size_t>(row)].source;
            // The whole run, then a window around the source's last all-reduce and the compute next
            // to it (only visible time counts: most of the run is outside).
            for (int zoom = 0; zoom < 2; ++zoom) {
                if (zoom == 1) {
                    const auto [s, e] = lastCollective(*set_, *sim.result, source);
                    QVERIFY(e > s);
                    controller.setWindow(s - 3 * (e - s), e + 3 * (e - s));
                    QVERIFY(controller.windowEnd() - controller.windowStart() <
                            (sim.timeline->end() - sim.timeline->start()) / 2);
                }
                const TimeMapping m = controller.mapping();
                const Columns got = strip.columns(row, m, width);
                const Columns want = expectedColumns(*set_, *sim.result, source, m, width);
                QCOMPARE(got.size(), want.size());
                int busy = 0, comm = 0;
                for (std::size_t c = 0; c < got.size(); ++c) {
                    QCOMPARE(got[c].compute, want[c].compute);
                    QCOMPARE(got[c].communication, want[c].communication);
                    busy += want[c].compute + want[c].communication > 0;
                    comm += want[c].communication > 0;
                }
                // The sample has both: compute kernels and NCCL all-reduces in the visible time.
                QVERIFY2(busy > 0 && comm > 0, qPrintable(QString("row %1 zoom %2").arg(row).arg(zoom)));
            }
            controller.fitAll();
        }
        // At fit-all every op lies inside the window: the columns hold all of the source's GPU time.
        controller.setWindow(sim.timeline->start() - 1000, sim.timeline->end() + 1000);
        TimeNs total = 0;
        for (const Track& t : set_->ranks[1].tracks) {
            if (!t.isGpu()) continue;
            const std::size_t k = static_cast<std::size_t>(&t - set_->ranks[1].tracks.data());
            for (std::size_t e = 0; e < t.events.size(); ++e)
                if (t.events.kind[e] == EventKind::Kernel || t.events.kind[e] == EventKind::GpuMemcpy ||
                    t.events.kind[e] == EventKind::GpuMemset)
                    total += sim.result->timeline.track(1, k).duration[e];
        }
        TimeNs summed = 0;
        for (const auto& c : strip.columns(1, controller.mapping(), width))
            summed += c.compute + c.communication;
        QCOMPARE(summed, total);
    }

    void paintsBusyPixels() {
        const Sim sim = simulateSample(set_, *graph_, 8);
        ViewController controller;
        controller.setGutterWidth(200);
        controller.setViewportWidth(600);
        controller.setBounds(sim.timeline->start(), sim.timeline->end());
        AddedRanksStrip strip(&controller);
        strip.setSetup(sim.result->setup, sim.timeline);
        // Gutter + area + the 16 px scroll-bar column, like the panes.
        strip.resize(200 + 600 + 16, strip.sizeHint().height());
        const QImage img = strip.grab().toImage();
        QVERIFY(!img.isNull());
        for (int row = 0; row < 4; ++row) {
            const int y = AddedRanksStrip::kHeaderHeight + row * AddedRanksStrip::kRowHeight +
                          AddedRanksStrip::kRowHeight / 2;
            const QRgb background = palette::laneBackground(row % 2 == 1).rgb();
            const Columns want =
                expectedColumns(*set_, *sim.result, static_cast<std::size_t>(row), controller.mapping(), 600);
            int painted = 0, expected = 0;
            for (int x = 0; x < 600; ++x) {
                const bool busy = want[static_cast<std::size_t>(x)].compute +
                                      want[static_cast<std::size_t>(x)].communication >
                                  0;
                expected += busy;
                const bool drawn = img.pixel(200 + x, y) != background;
                painted += drawn;
                QCOMPARE(drawn, busy);
            }
            QVERIFY(expected > 0);
            QCOMPARE(painted, expected);
        }
    }

    void panesNoteAndPlacement() {
        ViewController controller;
        SelectionModel selection;
        TrackState tracks;
        TimelinePanes panes(&controller, &selection, &tracks);
        panes.resize(1000, 700);
        panes.show();
        panes.setMeasured(TimelineData::measured(set_));
        const Sim sim = simulateSample(set_, *graph_, 8);
        panes.setSimulated(sim.timeline);
        panes.setSimulatedSetup(sim.result->setup);
        QVERIFY(!panes.addedRanks()->isHidden());
        QVERIFY(!panes.addedRanksLine()->isHidden());
        QCOMPARE(
            panes.addedRanksLine()->text(),
            QString(
                "The simulated job has 8 ranks: 4 added by dp.degree are shown under the simulated pane"));
        // The measured pane's own note stays its own (empty for a Kineto set).
        QVERIFY(panes.measured()->note().isEmpty());
        // The measured and simulated panes keep the loaded ranks only.
        QCOMPARE(panes.simulated()->data()->ranks().size(), std::size_t{4});
        // Laid out: the line right under the measured pane, the strip under the simulated pane, both
        // as wide as the panes (one time axis).
        QApplication::processEvents();
        const auto rectIn = [&](QWidget* w) { return QRect(w->mapTo(&panes, QPoint(0, 0)), w->size()); };
        QCOMPARE(rectIn(panes.addedRanksLine()).top(), rectIn(panes.measured()).bottom() + 1);
        QVERIFY(rectIn(panes.addedRanksLine()).bottom() < rectIn(panes.simulated()).top());
        QVERIFY(rectIn(panes.addedRanks()).top() > rectIn(panes.simulated()).bottom());
        QCOMPARE(panes.addedRanks()->width(), panes.simulated()->width());
        QCOMPARE(panes.addedRanks()->height(), panes.addedRanks()->sizeHint().height());
        // A new simulation (or none) hides the strip and the line until its setup comes.
        panes.setSimulated(nullptr);
        QVERIFY(panes.addedRanks()->isHidden());
        QVERIFY(panes.addedRanksLine()->isHidden());
        const Sim plain = simulateSample(set_, *graph_, 0);
        panes.setSimulated(plain.timeline);
        panes.setSimulatedSetup(plain.result->setup);
        QVERIFY(panes.addedRanks()->isHidden());
        QVERIFY(panes.addedRanksLine()->isHidden());
    }
};

QTEST_MAIN(TestAddedRanksStrip)
#include "test_AddedRanksStrip.moc"
