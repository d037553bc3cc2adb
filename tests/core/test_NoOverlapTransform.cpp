// comm.overlap=false as a transform over a finished graph (sim/NoOverlapTransform.h) on the bundled
// sample 02-dp4: 4 ranks, one compute stream and one NCCL stream per rank, 12 all-reduces matched
// across the ranks (sightline-cli simulate: "12 collectives matched").
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/NoOverlapTransform.h"
#include "sim/Simulator.h"

using namespace sl;

class TestNoOverlapTransform : public QObject {
    Q_OBJECT

    TraceSet set_;
    ExecutionGraph graph_;

private slots:
    void initTestCase() {
        set_ = loadTraceSet({sltest::samplePath("02-dp4")});
        graph_ = buildExecutionGraph(set_);
    }

    // 12 collectives x 4 ranks = 48 collective kernels, each with one compute stream beside it:
    // an edge from the compute op before it and one to the compute op after it = 96 edges, none of
    // them in the graph itself.
    void edgesAreLaidOverTheGraph() {
        const std::size_t graphEdges = graph_.edges.size();
        auto serial = noOverlapEdgesFor(graph_);
        QCOMPARE(serial->overlay.edges.size(), std::size_t(96));
        QVERIFY(serial->unavailable.empty());
        QCOMPARE(graph_.edges.size(), graphEdges);
        for (const GraphEdge& e : serial->overlay.edges) {
            QCOMPARE(e.kind, EdgeKind::CrossStream);
            QCOMPARE(e.delay, TimeNs(0));
            const bool fromComm = graph_.nodes[e.from].kind == NodeKind::Collective;
            QVERIFY(fromComm != (graph_.nodes[e.to].kind == NodeKind::Collective));
        }
    }

    // Derived once per graph; a copy (which may be edited) derives its own.
    void derivedOncePerGraph() {
        auto a = noOverlapEdgesFor(graph_);
        QCOMPARE(noOverlapEdgesFor(graph_).get(), a.get());
        ExecutionGraph copy = graph_;
        auto c = noOverlapEdgesFor(copy);
        QVERIFY(c.get() != a.get());
        QCOMPARE(c->overlay.edges.size(), a->overlay.edges.size());
        copy.buildAdjacency(); // the step after an edit: forgets what was derived
        QVERIFY(noOverlapEdgesFor(copy).get() != c.get());
    }

    // The simulation honours every overlay edge (the collective starts after the compute op before
    // it ends, the next compute op after the collective ends), and an id beyond the graph's edges
    // resolves to the overlay edge that bound the node.
    void simulationHonoursTheOverlay() {
        SimKnobs k;
        setKnob(k, "comm.overlap", "false");
        const SimResult r = simulate(graph_, k);
        QVERIFY(r.addedEdges);
        for (const GraphEdge& e : r.addedEdges->edges)
            QVERIFY(r.nodes[e.to].start >= r.nodes[e.from].end);
        int boundByOverlay = 0;
        for (const NodeTiming& t : r.nodes)
            if (t.startBoundBy != kNoEdge && t.startBoundBy >= graph_.edges.size()) {
                QCOMPARE(r.edge(graph_, t.startBoundBy).kind, EdgeKind::CrossStream);
                ++boundByOverlay;
            }
        QVERIFY(boundByOverlay > 0);
        QVERIFY(!simulate(graph_).addedEdges);
    }
};

QTEST_GUILESS_MAIN(TestNoOverlapTransform)
#include "test_NoOverlapTransform.moc"
