// The Structure panel: the recognised layout of a bundled sample as a stage x replica grid of rank
// ids, micro-batches and layers, and the note that appears when the simulated job has more (or
// fewer) ranks than were measured. Expected values from scripts/make-samples.sh (04: dp 2, tp 2,
// pp 2, 4 micro-batches, 4 layers; Megatron order rank = (pp x 2 + d) x 2 + t).
#include "TestSupport.h"

#include "StructurePanel.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QTableWidget>

using namespace sl;
using namespace sl::ui;

class TestStructurePanel : public QObject {
    Q_OBJECT
private slots:
    void gridAndSimulatedNote() {
        TraceSet set = loadTraceSet({sltest::samplePath("04-dp2-tp2-pp2-2nodes")});
        ExecutionGraph g = buildExecutionGraph(set);
        StructurePanel panel;
        panel.setStructure(recognizeStructure(set, &g));
        QVERIFY(panel.summaryText().contains("dp 2 x tp 2 x pp 2 = 8 ranks"));
        QVERIFY(panel.summaryText().contains("4 micro-batches"));
        QVERIFY(panel.summaryText().contains("4 layer blocks"));
        const QTableWidget* grid = panel.grid();
        QCOMPARE(grid->rowCount(), 2);
        QCOMPARE(grid->columnCount(), 2);
        // Stage 1, replica 0: ranks (1 x 2 + 0) x 2 + t = 4, 5; stage 0, replica 1: 2, 3.
        QCOMPARE(grid->item(1, 0)->text(), QString("4, 5"));
        QCOMPARE(grid->item(0, 1)->text(), QString("2, 3"));
        QVERIFY(panel.simulationNote().isEmpty());

        SimKnobs k;
        k.dpDegree = 4;
        SimResult r = simulate(g, k);
        panel.setSimulatedSetup(r.setup);
        // dp 4 x tp 2 x pp 2 = 16 ranks, 8 of them clones.
        QVERIFY2(panel.simulationNote().contains("16 ranks, not the 8 measured"),
                 qPrintable(panel.simulationNote()));
        QVERIFY(panel.simulationNote().contains("8 ranks added"));
        QVERIFY(!panel.simulationNote().contains("dropped"));
        // dp 1: replica 1 (ranks 2, 3, 6, 7) is dropped.
        k.dpDegree = 1;
        panel.setSimulatedSetup(simulate(g, k).setup);
        QVERIFY2(panel.simulationNote().contains("4 measured ranks dropped."),
                 qPrintable(panel.simulationNote()));
        QVERIFY(!panel.simulationNote().contains("added"));
        panel.setSimulatedSetup(simulate(g).setup);
        QVERIFY(panel.simulationNote().isEmpty());
        panel.clear();
        QCOMPARE(panel.grid()->rowCount(), 0);
    }
};

QTEST_MAIN(TestStructurePanel)
#include "test_StructurePanel.moc"
