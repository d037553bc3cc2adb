// The strip under the simulated pane with the ranks dp.degree added, on the bundled samples/02-dp4
// (4 ranks, dp 4, tp 1, pp 1). Megatron order rank = (pp x dp + d) x tp + t is rank = d here, and a
// new replica d runs the program of loaded replica d mod 4 (core/sim/SetupEdits.cpp): dp.degree=8
// adds ranks 4..7 running 0..3. Each added rank is simulated on its own: one row each, slowest
// first, and the busy columns are checked against the added rank's own GPU op times summed here
// from the core result (a straggler among them changes its row, not its source's).
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
Sim simulateSample(const std::shared_ptr<const TraceSet>& set, const ExecutionGraph& g, int dpDegree,
                   int straggler = -1) {
    SimKnobs k;
    k.dpDegree = dpDegree;
    if (straggler >= 0) {
        k.stragglerRank = straggler;
        k.stragglerSlowdown = 1.5;
    }
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

// Busy ns per pixel column of one added rank's simulated GPU ops, straight from the core result:
// every kernel, copy and set of its source's GPU streams at the added rank's own times, cut at the
// column edges of the mapping.
Columns expectedColumns(const TraceSet& set, const ExecutionGraph& g, const SimResult& r, std::int32_t added,
                        const TimeMapping& m, int width) {
    Columns out(static_cast<std::size_t>(width));
    const std::uint32_t rank = r.addedRanks.source[static_cast<std::size_t>(added)];
    const Rank& rk = set.ranks[rank];
    for (std::uint32_t k = 0; k < rk.tracks.size(); ++k) {
        const Track& track = rk.tracks[k];
        if (!track.isGpu()) continue;
        for (std::uint32_t e = 0; e < track.events.size(); ++e) {
            const EventKind kind = track.events.kind[e];
            if (kind != EventKind::Kernel && kind != EventKind::GpuMemcpy && kind != EventKind::GpuMemset)
                continue;
            const NodeId n = g.nodeOf(rank, {k, e});
            if (n == kNoNode || n == kOutsideWindow) continue;
            const NodeTiming t = r.timing({n, added});
            const bool comm =
                kind == EventKind::Kernel && isCollectiveKernelName(rk.strings.str(track.events.name[e]));
            for (int c = 0; c < width; ++c) {
                const TimeNs overlap =
                    std::min(t.end, m.columnStart(c + 1)) - std::max(t.start, m.columnStart(c));
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
    std::shared_ptr<ExecutionGraph> graph_;
    std::shared_ptr<const ExecutionGraph> graphPtr() const { return graph_; }

private slots:
    void initTestCase() {
        set_ = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        QCOMPARE(set_->ranks.size(), std::size_t{4});
        graph_ = std::make_shared<ExecutionGraph>(buildExecutionGraph(*set_));
    }

    void rowPerAddedRank() {
        ViewController controller;
        AddedRanksStrip strip(&controller);
        const Sim sim = simulateSample(set_, *graph_, 8);
        strip.setSimulation(sim.result, graphPtr());
        QVERIFY(!strip.isHidden());
        QCOMPARE(strip.addedCount(), 4);
        std::vector<int> ids;
        for (const auto& row : strip.rows()) {
            ids.push_back(row.rank);
            QCOMPARE(row.sourceRank, row.rank - 4); // replica d runs loaded replica d mod 4
            QCOMPARE(row.step,
                     sim.result->addedRanks.summary[static_cast<std::size_t>(row.added)].simulated());
            QVERIFY(!row.slow); // without variation an added rank runs as its source
        }
        std::sort(ids.begin(), ids.end());
        QCOMPARE(ids, (std::vector<int>{4, 5, 6, 7}));

        // A straggler among the added ranks: its own row goes first and is flagged; its source is not.
        const Sim slow = simulateSample(set_, *graph_, 8, 6);
        strip.setSimulation(slow.result, graphPtr());
        QCOMPARE(strip.rows().front().rank, 6);
        QVERIFY(strip.rows().front().slow);
        QVERIFY(strip.rows().front().step > strip.rows().back().step);
        QCOMPARE(AddedRanksStrip::rowLabel(strip.rows().front()),
                 QString("rank 6 (as 2)  %1 ms")
                     .arg(static_cast<double>(strip.rows().front().step) / 1e6, 0, 'f', 2));

        // dp.degree=32: 28 rows, at most 8 visible with a scroll bar.
        const Sim big = simulateSample(set_, *graph_, 32);
        strip.setSimulation(big.result, graphPtr());
        QCOMPARE(strip.addedCount(), 28);
        QCOMPARE(strip.sizeHint().height(),
                 AddedRanksStrip::kHeaderHeight +
                     AddedRanksStrip::kMaxVisibleRows * AddedRanksStrip::kRowHeight + 2);
    }

    void hiddenWithoutAddedRanks() {
        ViewController controller;
        AddedRanksStrip strip(&controller);
        const Sim plain = simulateSample(set_, *graph_, 0);
        strip.setSimulation(plain.result, graphPtr());
        QVERIFY(strip.isHidden());
        QVERIFY(strip.rows().empty());
        const Sim same = simulateSample(set_, *graph_, 4);
        strip.setSimulation(same.result, graphPtr());
        QVERIFY(strip.isHidden());
        // Fewer replicas (ranks 2, 3 dropped) add none either.
        const Sim fewer = simulateSample(set_, *graph_, 2);
        strip.setSimulation(fewer.result, graphPtr());
        QVERIFY(strip.isHidden());
        // Shown, then a new simulation without clones hides it again.
        const Sim more = simulateSample(set_, *graph_, 8);
        strip.setSimulation(more.result, graphPtr());
        QVERIFY(!strip.isHidden());
        strip.setSimulation(plain.result, graphPtr());
        QVERIFY(strip.isHidden());
    }

    void busyColumnsAreTheAddedRanksOwn() {
        const Sim sim = simulateSample(set_, *graph_, 8, 5); // rank 5 (added) straggles
        ViewController controller;
        controller.setViewportWidth(700);
        controller.setBounds(sim.timeline->start(), sim.timeline->end());
        AddedRanksStrip strip(&controller);
        strip.setSimulation(sim.result, graphPtr());
        const int width = controller.viewportWidth();
        for (int row = 0; row < 4; ++row) {
            const AddedRanksStrip::Row& r = strip.rows()[static_cast<std::size_t>(row)];
            const std::size_t source = r.source;
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
                const Columns want = expectedColumns(*set_, *graph_, *sim.result, r.added, m, width);
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
        // At fit-all every op lies inside the window: the columns hold all of the added rank's GPU time.
        controller.setWindow(sim.timeline->start() - 1000, sim.timeline->end() + 1000);
        const AddedRanksStrip::Row& r1 = strip.rows()[1];
        TimeNs total = 0;
        for (const auto& c :
             expectedColumns(*set_, *graph_, *sim.result, r1.added, controller.mapping(), width))
            total += c.compute + c.communication;
        TimeNs summed = 0;
        for (const auto& c : strip.columns(1, controller.mapping(), width))
            summed += c.compute + c.communication;
        QCOMPARE(summed, total);
        QVERIFY(total > 0);
        // The straggler's row is not its source's: its compute takes longer. Its optimizer runs past
        // the loaded ranks' end, so the window reaches its own end.
        QCOMPARE(strip.rows().front().rank, 5);
        TimeNs lastEnd = sim.timeline->end();
        for (const RankSimSummary& s : sim.result->addedRanks.summary)
            lastEnd = std::max(lastEnd, s.simulatedEnd);
        controller.setBounds(sim.timeline->start(), lastEnd + 1000);
        controller.setWindow(sim.timeline->start() - 1000, lastEnd + 1000);
        TimeNs straggler = 0, other = 0;
        for (const auto& c : strip.columns(0, controller.mapping(), width))
            straggler += c.compute;
        for (const auto& c : strip.columns(1, controller.mapping(), width))
            other += c.compute;
        QVERIFY(straggler > other * 14 / 10);
    }

    void paintsBusyPixels() {
        const Sim sim = simulateSample(set_, *graph_, 8);
        ViewController controller;
        controller.setGutterWidth(200);
        controller.setViewportWidth(600);
        controller.setBounds(sim.timeline->start(), sim.timeline->end());
        AddedRanksStrip strip(&controller);
        strip.setSimulation(sim.result, graphPtr());
        // Gutter + area + the 16 px scroll-bar column, like the panes.
        strip.resize(200 + 600 + 16, strip.sizeHint().height());
        const QImage img = strip.grab().toImage();
        QVERIFY(!img.isNull());
        for (int row = 0; row < 4; ++row) {
            const int y = AddedRanksStrip::kHeaderHeight + row * AddedRanksStrip::kRowHeight +
                          AddedRanksStrip::kRowHeight / 2;
            const QRgb background = palette::laneBackground(row % 2 == 1).rgb();
            const Columns want =
                expectedColumns(*set_, *graph_, *sim.result,
                                strip.rows()[static_cast<std::size_t>(row)].added, controller.mapping(), 600);
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
        panes.setSimulatedRun(sim.result, graphPtr());
        QVERIFY(!panes.addedRanks()->isHidden());
        QVERIFY(!panes.addedRanksLine()->isHidden());
        QCOMPARE(
            panes.addedRanksLine()->text(),
            QString("The simulated job has 8 ranks: the 4 added to it are shown under the simulated pane"));
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
        panes.setSimulatedRun(plain.result, graphPtr());
        QVERIFY(panes.addedRanks()->isHidden());
        QVERIFY(panes.addedRanksLine()->isHidden());
    }
};

QTEST_MAIN(TestAddedRanksStrip)
#include "test_AddedRanksStrip.moc"
