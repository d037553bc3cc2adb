// Highlights on the bundled 8-rank sample samples/01-dp8-straggler (always present, so nothing
// here skips): per-event critical-path flags match the path's nodes, the exposed lanes carry the
// core's intervals, the arrows of a selected event are its graph edges, collective links span the
// ranks; the renderer draws them; the critical-path toggle by key and by action. The straggler's
// slow GPU puts compute kernels on the path and makes the other ranks wait in their all-reduces
// (exposed communication), which the checks below need.
#include "DependencyLinks.h"
#include "HighlightModel.h"
#include "Highlights.h"
#include "MainWindow.h"
#include "RowLayout.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "WindowParts.h"
#include "io/KinetoLoader.h"

#include "TestSupport.h"
#include "core/GraphFixture.h"

#include <QAction>
#include <QImage>
#include <QPainter>
#include <QtTest>

#include <set>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestHighlights : public QObject {
    Q_OBJECT
    std::shared_ptr<const TraceSet> set_;
    SimOutput sim_;

    void ensureLoaded() {
        if (set_) return;
        set_ = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("01-dp8-straggler")}));
        sim_ = SimRunner::runNow(set_, {});
    }
    // The first collective kernel node of a rank that is part of a matched group.
    EventId collectiveEvent(std::size_t rank = 0) const {
        const ExecutionGraph& g = *sim_.graph;
        for (const GraphNode& n : g.nodes)
            if (n.rank == rank && n.kind == NodeKind::Collective && n.collective < g.collectives.size() &&
                g.collectives[n.collective].members.size() > 1)
                return {static_cast<int>(rank), n.event};
        return {};
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Highlights");
    }

    void flagsMarkExactlyThePathNodes() {
        ensureLoaded();
        const ExecutionGraph& g = *sim_.graph;
        const CriticalPath& path = sim_.analysis->path;
        QVERIFY(!path.segments.empty());
        std::set<NodeId> onPath;
        for (const PathSegment& s : path.segments)
            if (s.node != kNoNode) onPath.insert(s.node);
        for (const PaneHighlights* h : {sim_.measuredHighlights.get(), sim_.simulatedHighlights.get()}) {
            QCOMPARE(h->eventsOnPath, static_cast<std::int64_t>(onPath.size()));
            std::int64_t flagged = 0;
            for (std::size_t r = 0; r < h->ranks.size(); ++r)
                for (std::size_t k = 0; k < h->ranks[r].tracks.size(); ++k) {
                    const auto& flags = h->ranks[r].tracks[k].flags;
                    for (std::size_t i = 0; i < flags.size(); ++i) {
                        if (!highlight::onPath(flags[i])) continue;
                        ++flagged;
                        const NodeId n =
                            g.nodeOf(static_cast<std::uint32_t>(r),
                                     {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i)});
                        QVERIFY(onPath.count(n) == 1);
                        QVERIFY(static_cast<int>(highlight::label(flags[i])) < kPathLabelCount);
                    }
                }
            QCOMPARE(flagged, static_cast<std::int64_t>(onPath.size()));
        }
        // Both panes have one bar per non-empty segment (the measured one at measured times).
        std::int64_t segments = 0;
        for (const PathSegment& s : path.segments)
            segments += s.node != kNoNode && s.end > s.start;
        QCOMPARE(sim_.simulatedHighlights->bars, segments);
        QCOMPARE(sim_.measuredHighlights->bars, segments);
    }

    void labelOfAComputeKernelOnThePath() {
        ensureLoaded();
        const ExecutionGraph& g = *sim_.graph;
        for (const PathSegment& s : sim_.analysis->path.segments) {
            if (s.node == kNoNode || s.edge != kNoEdge || s.label != PathLabel::GpuCompute) continue;
            const GraphNode& n = g.nodes[s.node];
            const std::uint8_t f =
                sim_.simulatedHighlights->ranks[n.rank].tracks[n.event.track].flags[n.event.index];
            QVERIFY(highlight::onPath(f));
            QCOMPARE(highlight::label(f), PathLabel::GpuCompute);
            return;
        }
        QFAIL("the straggler sample's critical path has no GPU compute segment");
    }

    void exposedIntervalsAreTheCoreOnes() {
        ensureLoaded();
        const auto measured = measuredExposedCommunication(*set_, sim_.graph.get());
        const auto simulated = simulatedExposedCommunication(*set_, sim_.result->timeline);
        QCOMPARE(sim_.measuredHighlights->ranks.size(), measured.size());
        bool any = false;
        for (std::size_t r = 0; r < measured.size(); ++r) {
            const auto& m = sim_.measuredHighlights->ranks[r].exposed;
            const auto& s = sim_.simulatedHighlights->ranks[r].exposed;
            QCOMPARE(m.size(), measured[r].size());
            QCOMPARE(s.size(), simulated[r].size());
            for (std::size_t i = 0; i < m.size(); ++i) {
                QCOMPARE(m[i].start, measured[r][i].start);
                QCOMPARE(m[i].end, measured[r][i].end);
            }
            any = any || !m.empty();
            // Exactly the GPU streams with NCCL kernels are communication streams.
            bool comm = false;
            for (const auto& t : sim_.measuredHighlights->ranks[r].tracks)
                comm = comm || t.communication;
            QVERIFY(comm);
        }
        QVERIFY(any); // the ranks that wait for the straggler expose their all-reduces
    }

    void exposedLaneInLayoutAndPainted() {
        ensureLoaded();
        TrackState state;
        state.reset(*set_);
        RowLayout layout;
        layout.build(*set_, state);
        const std::size_t rows = layout.rows().size();
        state.setExposedLanes(true);
        layout.build(*set_, state);
        QCOMPARE(layout.rows().size(), rows + set_->ranks.size());
        QVERIFY(layout.rows()[1].exposedLane());
        QCOMPARE(layout.rows()[1].rank, 0);

        auto measured = TimelineData::measured(set_);
        QImage image(1400, 2000, QImage::Format_ARGB32_Premultiplied);
        TimelineRenderer renderer;
        const auto m = TimeMapping::fromWindow(measured->start(), measured->end(), image.width());
        RenderState rs;
        rs.highlights = sim_.measuredHighlights.get();
        rs.exposed = true;
        QPainter p(&image);
        RenderStats stats = renderer.paintEvents(p, *measured, layout, m, image.size(), 0, rs);
        QVERIFY(stats.exposedBoxes > 0);
        QCOMPARE(stats.pathBars, 0);
        rs.criticalPath = true;
        stats = renderer.paintEvents(p, *measured, layout, m, image.size(), 0, rs);
        QVERIFY(stats.pathBars > 0);
        p.end();
    }

    // Only the on-path slice of an event is painted in the path colour. Rank 0's all-reduce kernel
    // [20,120] us waits inside for rank 1, which arrives at 60 us; rank 0's next kernel (the job's
    // last) follows it, so the path runs through the kernel's last 60 us (the transfer) and crosses
    // to rank 1 there. The measured pane paints 60% of the kernel in the GPU-comm path colour, from
    // 60 us on, and the waiting part dimmed; rank 1's wait before its launch is striped.
    void paintsOnlyTheOnPathSlice() {
        const char* nccl = slgraph::kAllReduceKernel;
        const QList<QByteArray> files{
            slgraph::trace({slgraph::cpu("cudaLaunchKernel", 10, 5, 1),
                            slgraph::cpu("cudaLaunchKernel", 16, 3, 2), slgraph::gpu(nccl, 20, 100, 1, 20),
                            slgraph::gpu("k9", 121, 9, 2, 20)},
                           0, 2),
            slgraph::trace({slgraph::cpu("cudaLaunchKernel", 0, 5, 9),
                            slgraph::cpu("cudaLaunchKernel", 50, 5, 1), slgraph::gpu("k0", 10, 5, 9),
                            slgraph::gpu(nccl, 60, 60, 1, 20)},
                           1, 2)};
        QTemporaryDir dir;
        std::vector<std::string> paths;
        for (int i = 0; i < files.size(); ++i)
            paths.push_back(sltest::writeFile(dir, QStringLiteral("rank-%1.json").arg(i), files[i]));
        auto set = std::make_shared<const TraceSet>(loadTraceSet(paths));
        const SimOutput sim = SimRunner::runNow(set, {});
        TrackState state;
        state.reset(*set);
        RowLayout layout;
        layout.build(*set, state);
        auto measured = TimelineData::measured(set);
        QImage image(1000, layout.height(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        TimelineRenderer renderer;
        const auto m = TimeMapping::fromWindow(measured->start(), measured->end(), image.width());
        RenderState rs;
        rs.highlights = sim.measuredHighlights.get();
        rs.criticalPath = true;
        RenderStats stats;
        {
            QPainter p(&image);
            stats = renderer.paintEvents(p, *measured, layout, m, image.size(), 0, rs);
        }
        // The path moves from rank 1 (its launch) to rank 0 (the transfer) once: one joint, drawn.
        QCOMPARE(sim.measuredHighlights->joints.size(), std::size_t{1});
        QCOMPARE(sim.measuredHighlights->joints[0].rank, 1);
        QCOMPARE(sim.measuredHighlights->joints[0].toRank, 0);
        QCOMPARE(stats.pathJoints, 1);
        const Rank& rank0 = set->ranks[0];
        const Row* gpuRow = nullptr;
        for (const Row& row : layout.rows())
            if (row.isTrack() && row.rank == 0 && rank0.tracks[static_cast<std::size_t>(row.track)].isGpu())
                gpuRow = &row;
        QVERIFY(gpuRow);
        const EventColumns& ev = rank0.tracks[static_cast<std::size_t>(gpuRow->track)].events;
        std::size_t k = 0;
        while (k < ev.size() && rank0.strings.str(ev.name[k]) != nccl)
            ++k;
        QVERIFY(k < ev.size());
        const int y = gpuRow->y + RowLayout::laneY(0) + RowLayout::kLaneHeight / 2;
        const QRgb comm = palette::pathColor(PathLabel::GpuComm).rgb();
        const int x0 = static_cast<int>(std::ceil(m.x(ev.start[k]))) + 1;
        const int x1 = static_cast<int>(std::floor(m.x(ev.end(k)))) - 1;
        const int xMid = static_cast<int>(m.x(ev.start[k] + 40'000)); // 60 us: the transfer begins
        int onPath = 0, early = 0;
        for (int x = x0; x < x1; ++x) {
            const bool c = image.pixel(x, y) == comm;
            onPath += c;
            early += c && x < xMid - 1;
        }
        const double share = static_cast<double>(onPath) / (x1 - x0);
        QVERIFY2(std::abs(share - 0.6) < 0.03, qPrintable(QString::number(share)));
        QCOMPARE(early, 0);
        // The highlights hold the slice and the wait as bars: a striped wait on rank 1's thread.
        bool striped = false;
        for (const auto& th : sim.measuredHighlights->ranks[1].tracks)
            for (const PathBar& b : th.bars)
                striped = striped || b.wait;
        QVERIFY(striped);
        // Collapsed, rank 1 shows its path pieces in its summary strip: the strip differs with the
        // path shown from the same strip dimmed without path pieces.
        state.setRankExpanded(1, false);
        layout.build(*set, state);
        const Row* header = nullptr;
        for (const Row& row : layout.rows())
            if (row.header() && row.collapsed && row.rank == 1) header = &row;
        QVERIFY(header);
        auto strip = [&](const PaneHighlights& h) {
            QImage img(1000, layout.height(), QImage::Format_ARGB32_Premultiplied);
            img.fill(Qt::white);
            RenderState s = rs;
            s.highlights = &h;
            QPainter p(&img);
            renderer.paintEvents(p, *measured, layout, m, img.size(), 0, s);
            return img.copy(0, header->y, img.width(), header->height);
        };
        PaneHighlights noBars = *sim.measuredHighlights;
        for (auto& th : noBars.ranks[1].tracks) {
            th.bars.clear();
            th.barsMaxEnd.clear();
        }
        QVERIFY(strip(*sim.measuredHighlights) != strip(noBars));
    }

    void arrowsOfASelectedKernel() {
        ensureLoaded();
        const ExecutionGraph& g = *sim_.graph;
        // A compute kernel with a launch and a stream-order predecessor.
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            if (g.nodes[n].kind != NodeKind::GpuOp) continue;
            const EventId e{static_cast<int>(g.nodes[n].rank), g.nodes[n].event};
            const SelectionLinks links = selectionLinks(g, e);
            QCOMPARE(links.edges.size(), g.inEdges(n).size() + g.outEdges(n).size());
            std::set<EdgeKind> kinds;
            int incoming = 0;
            for (const DependencyLink& l : links.edges) {
                kinds.insert(l.kind);
                incoming += l.incoming;
                QVERIFY(l.incoming ? l.to == e : l.from == e);
            }
            QCOMPARE(incoming, static_cast<int>(g.inEdges(n).size()));
            if (kinds.count(EdgeKind::Launch) && kinds.count(EdgeKind::StreamOrder)) {
                QVERIFY(links.collective.empty());
                for (const DependencyLink& l : links.edges)
                    if (l.kind == EdgeKind::Launch) {
                        QVERIFY(l.incoming && l.fromStart && !l.toEnd);
                        QVERIFY(set_->ranks[static_cast<std::size_t>(l.from.rank)]
                                    .tracks[l.from.ref.track]
                                    .isGpu() == false);
                    }
                return;
            }
        }
        QFAIL("no kernel with launch and stream-order edges");
    }

    void collectiveLinksAcrossRanks() {
        ensureLoaded();
        const EventId e = collectiveEvent();
        QVERIFY(e.valid());
        const SelectionLinks links = selectionLinks(*sim_.graph, e);
        QVERIFY(links.collective.size() > 1);
        std::set<int> ranks;
        for (const EventId& m : links.collective)
            ranks.insert(m.rank);
        QCOMPARE(ranks.size(), links.collective.size()); // one per rank
        QVERIFY(ranks.count(0) == 1);
        QVERIFY(std::any_of(links.edges.begin(), links.edges.end(),
                            [](const DependencyLink& l) { return l.kind == EdgeKind::Collective; }));
        // Nothing for an event that is no graph node (or no selection).
        QVERIFY(selectionLinks(*sim_.graph, {}).empty());
    }

    void toggleByKeyAndAction() {
        ensureLoaded();
        MainWindow w;
        w.sessions()->driver()->setAutoSimulate(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.sessions()->showTraceSet(set_);
        w.sessions()->driver()->showSimulation(sim_);
        QVERIFY(w.sessions()->highlights()->hasData());
        QVERIFY(!w.sessions()->highlights()->criticalPath());
        part<TimelinePanes>(w)->measured()->setFocus();
        QTest::keyClick(part<TimelinePanes>(w)->measured(), Qt::Key_C);
        QVERIFY(w.sessions()->highlights()->criticalPath());
        QVERIFY(w.menus()->criticalPathAction()->isChecked());
        w.menus()->criticalPathAction()->trigger();
        QVERIFY(!w.sessions()->highlights()->criticalPath());
        w.menus()->criticalPathAction()->trigger();
        QVERIFY(w.sessions()->highlights()->criticalPath());
        // E: exposed communication adds a lane per rank in both panes.
        const std::size_t rows = part<TimelinePanes>(w)->simulated()->layout().rows().size();
        QTest::keyClick(part<TimelinePanes>(w)->measured(), Qt::Key_E);
        QVERIFY(w.sessions()->highlights()->exposed());
        QCOMPARE(part<TimelinePanes>(w)->simulated()->layout().rows().size(), rows + set_->ranks.size());
        QCOMPARE(part<TimelinePanes>(w)->measured()->layout().rows().size(), rows + set_->ranks.size());
        // Selecting a collective gives links; the simulated pane paints arrows. Show only the
        // ranks the path crosses, so that its bars are in view, and select a collective on one of
        // them (a collapsed rank draws no arrows).
        std::size_t pathRank = set_->ranks.size();
        for (std::size_t r = 0; r < set_->ranks.size(); ++r) {
            bool on = false;
            for (const auto& t : sim_.simulatedHighlights->ranks[r].tracks)
                on = on || !t.bars.empty();
            w.sessions()->tracks()->setRankExpanded(r, on);
            if (on && pathRank == set_->ranks.size()) pathRank = r;
        }
        QVERIFY(pathRank < set_->ranks.size());
        w.sessions()->selection()->setEvent(collectiveEvent(pathRank));
        QVERIFY(w.sessions()->highlights()->links().collective.size() > 1);
        part<TimelinePanes>(w)->simulated()->repaint();
        QVERIFY(part<TimelinePanes>(w)->simulated()->lastStats().arrows > 0);
        QVERIFY(part<TimelinePanes>(w)->simulated()->lastStats().pathBars > 0);
    }
};

QTEST_MAIN(TestHighlights)
#include "test_Highlights.moc"
