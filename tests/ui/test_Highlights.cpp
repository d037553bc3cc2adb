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
#include "TimelinePanes.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "WindowParts.h"
#include "io/KinetoLoader.h"

#include "TestSupport.h"

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
        // The simulated pane has one bar per non-empty segment; the measured one per path node.
        std::int64_t segments = 0;
        for (const PathSegment& s : path.segments)
            segments += s.node != kNoNode && s.end > s.start;
        QCOMPARE(sim_.simulatedHighlights->bars, segments);
        QCOMPARE(sim_.measuredHighlights->bars, static_cast<std::int64_t>(onPath.size()));
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
        w.sessions()->setAutoSimulate(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.sessions()->showTraceSet(set_);
        w.sessions()->showSimulation(sim_);
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
