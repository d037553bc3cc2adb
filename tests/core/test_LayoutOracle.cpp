// Oracle of tp.degree and parallel.gpus (docs/Layouts.md): generate a transformer job at (dp 4,
// tp 2, pp 1) with its shapes recorded, generate the same job (same seed and model) in another
// layout, predict the second from the first trace and require the step within 5%. The ablation rows
// switch one part of the model off (tp.reshape=false: the sharded kernels keep their traced times;
// tp.resize_comm=false: the tensor-parallel all-reduces keep their traced group) and require the
// prediction to miss by more than 5%, so each part is needed.
#include "SynthFixture.h"

#include "analysis/LayoutPlan.h"
#include "sim/JobRankIds.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "structure/CollectiveCalls.h"
#include "structure/Structure.h"

#include <map>
#include <memory>
#include <string>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;
using slsynth::layoutJob;
using slsynth::Loaded;

namespace {

constexpr double kTolerancePct = 5.0;

// A prediction against the generated truth: its error in %, and a line saying so (logged).
struct Checked {
    double err = 0;
    QString what;
};
Checked check(const QString& label, const QStringList& knobs, TimeNs predicted, TimeNs generated) {
    Checked c;
    c.err = errPct(static_cast<double>(predicted), static_cast<double>(generated));
    c.what = QString("%1 %2: predicted %3 us, generated %4 us, %5% off")
                 .arg(label, knobs.join(' '))
                 .arg(static_cast<double>(predicted) / 1000.0)
                 .arg(static_cast<double>(generated) / 1000.0)
                 .arg(c.err, 0, 'f', 2);
    qInfo("%s", qPrintable(c.what));
    return c;
}

SimKnobs knobsOf(const QStringList& assignments) {
    SimKnobs k;
    for (const auto& a : assignments)
        setKnobAssignment(k, a.toStdString());
    return k;
}

// Simulating `g` with `knobs` is a KnobError of one line that says `message`.
void requireOneLineError(const ExecutionGraph& g, const QStringList& knobs, const QString& message) {
    try {
        simulate(g, knobsOf(knobs));
        QFAIL("no error");
    } catch (const KnobError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find(message.toStdString()) != std::string::npos, what.c_str());
        QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
    }
}

} // namespace

class TestLayoutOracle : public QObject {
    Q_OBJECT
    std::unique_ptr<Loaded> source_;                        // (dp 4, tp 2, pp 1)
    std::map<std::string, std::unique_ptr<Loaded>> truths_; // by "dp,tp,microbatches,link"

    const Loaded& truth(int dp, int tp, int microbatches, int link = 120) {
        const std::string key = std::to_string(dp) + "," + std::to_string(tp) + "," +
                                std::to_string(microbatches) + "," + std::to_string(link);
        auto& t = truths_[key];
        if (!t) t = generateAndLoad(layoutJob(dp, tp, microbatches, link));
        return *t;
    }

private slots:
    void initTestCase() { source_ = generateAndLoad(layoutJob(4, 2)); }

    void predictsLayout_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("microbatches");
        QTest::addColumn<QStringList>("knobs");
        QTest::addColumn<bool>("within"); // the prediction must be within kTolerancePct (else beyond)
        // Predicted from: 0 the (4, 2, 1) job; 1 the (8, 1, 1) one (its all-reduces calibrate the
        // inserted ones); 2 a single GPU (1, 1, 1) on NVLink (450 GB/s: the GPU table's link times them).
        QTest::addColumn<int>("from");
        const QStringList toTp4{"tp.degree=4", "dp.degree=2"}, toTp1{"tp.degree=1", "dp.degree=8"};
        QTest::newRow("(2,4,1)") << 2 << 4 << 2 << toTp4 << true << 0;
        QTest::newRow("(8,1,1)") << 8 << 1 << 2 << toTp1 << true << 0;
        // The GPU count stays at 8 and so does the global batch: dp 2 runs 4 micro-batches.
        QTest::newRow("(2,4,1) parallel.gpus=8")
            << 2 << 4 << 4 << QStringList{"tp.degree=4", "parallel.gpus=8"} << true << 0;
        QTest::newRow("(2,4,1) without the knob") << 2 << 4 << 2 << QStringList{"dp.degree=2"} << false << 0;
        QTest::newRow("(2,4,1) tp.reshape=false")
            << 2 << 4 << 2 << (toTp4 + QStringList{"tp.reshape=false"}) << false << 0;
        QTest::newRow("(8,1,1) tp.reshape=false")
            << 8 << 1 << 2 << (toTp1 + QStringList{"tp.reshape=false"}) << false << 0;
        QTest::newRow("(2,4,1) tp.resize_comm=false")
            << 2 << 4 << 2 << (toTp4 + QStringList{"tp.resize_comm=false"}) << false << 0;
        QTest::newRow("(8,1,1) tp.resize_comm=false")
            << 8 << 1 << 2 << (toTp1 + QStringList{"tp.resize_comm=false"}) << false << 0;
        // From a trace without tensor parallelism: the all-reduces are inserted (docs/Layouts.md).
        QTest::newRow("(4,2,1) from tp 1")
            << 4 << 2 << 2 << QStringList{"tp.degree=2", "dp.degree=4"} << true << 1;
        QTest::newRow("(1,2,1) from one GPU") << 1 << 2 << 2 << QStringList{"tp.degree=2"} << true << 2;
        QTest::newRow("(2,4,1) from tp 1")
            << 2 << 4 << 2 << QStringList{"tp.degree=4", "dp.degree=2"} << true << 1;
        QTest::newRow("(2,4,1) from tp 1, tp.resize_comm=false")
            << 2 << 4 << 2 << QStringList{"tp.degree=4", "dp.degree=2", "tp.resize_comm=false"} << false << 1;
        QTest::newRow("(2,4,1) from tp 1, tp.reshape=false")
            << 2 << 4 << 2 << QStringList{"tp.degree=4", "dp.degree=2", "tp.reshape=false"} << false << 1;
    }

    void predictsLayout() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, microbatches);
        QFETCH(QStringList, knobs);
        QFETCH(bool, within);
        QFETCH(int, from);
        const int link = from == 2 ? 450 : 120;
        const Loaded& b = truth(dp, tp, microbatches, link);
        const Loaded& a = from == 0 ? *source_ : from == 1 ? truth(8, 1, 2, link) : truth(1, 1, 2, link);
        const SimResult measured = simulate(b.graph);
        const SimResult pred = simulate(a.graph, knobsOf(knobs));
        QVERIFY(pred.complete);
        const Checked c = check(QString(QTest::currentDataTag()), knobs, pred.simulatedIteration,
                                measured.measuredIteration);
        const double err = c.err;
        const QString& what = c.what;
        if (within) {
            QVERIFY2(err <= kTolerancePct, qPrintable(what));
            QCOMPARE(pred.setup.world, dp * tp);
            QCOMPARE(pred.setup.tp, tp);
            QCOMPARE(pred.setup.dp, dp);
        } else {
            QVERIFY2(err > kTolerancePct, qPrintable(what));
        }
    }

    // A pipeline of two stages (4 micro-batches, 1F1B) at (dp 2, tp 2, pp 2), one node of 16 GPUs:
    // the stages' sends and receives stay, each tensor place of a stage gets the new degree.
    void predictsPipelineLayouts() {
        auto pipeline = [](int dp, int tp) {
            SynthConfig c = layoutJob(dp, tp, 4);
            c.pp = 2;
            c.gpusPerNode = 16;
            return c;
        };
        const auto traced = generateAndLoad(pipeline(2, 2));
        struct Row {
            int dp, tp;
            QStringList knobs;
        };
        for (const Row& row : {Row{2, 4, {"tp.degree=4"}}, Row{2, 1, {"tp.degree=1"}},
                               Row{1, 4, {"tp.degree=4", "dp.degree=1"}}}) {
            const auto truthRun = generateAndLoad(pipeline(row.dp, row.tp));
            const TimeNs measured = simulate(truthRun->graph).measuredIteration;
            const SimResult pred = simulate(traced->graph, knobsOf(row.knobs));
            const Checked c = check(QString("(%1,%2,2)").arg(row.dp).arg(row.tp), row.knobs,
                                    pred.simulatedIteration, measured);
            QVERIFY2(c.err <= kTolerancePct, qPrintable(c.what));
            QCOMPARE(pred.setup.world, row.dp * row.tp * 2);
        }
        // pp.degree=4 from the 2 traced stages (docs/Layouts.md, "pp.degree"): each stage a column of
        // 2, its sends and receives on the column's ends; 16 ranks on the node of 16 GPUs.
        auto fourStages = pipeline(2, 2);
        fourStages.pp = 4;
        const auto truthRun = generateAndLoad(fourStages);
        const SimResult pred = simulate(traced->graph, knobsOf({"pp.degree=4"}));
        const Checked c = check("(2,2,4)", {"pp.degree=4"}, pred.simulatedIteration,
                                simulate(truthRun->graph).measuredIteration);
        QVERIFY2(c.err <= kTolerancePct, qPrintable(c.what));
        QCOMPARE(pred.setup.world, 16);
        QCOMPARE(pred.setup.pp, 4);
    }

    // pp.degree (docs/Layouts.md, "pp.degree"): the (4, 2, 1) trace's layers split over 2 stages,
    // each stage's 1F1B order with the traced micro-batches, transfers timed by the collective model.
    // Without the knob the prediction misses; on 2 GPUs a node the transfers cross a 12.5 GB/s
    // network, and pp.transfers=false (free transfers) misses.
    void predictsPipelineStages_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("microbatches"); // of the truth
        QTest::addColumn<QStringList>("knobs");
        QTest::addColumn<bool>("within");
        QTest::addColumn<bool>("twoGpusANode"); // from (1, 2, 1) on nodes of 2 GPUs, 12.5 GB/s between
        const QStringList slow{"comm.gpus_per_node=2", "comm.inter_node_GBps=12.5", "pp.degree=2"};
        QTest::newRow("(4,1,2)") << 4 << 1 << 2 << QStringList{"pp.degree=2", "tp.degree=1"} << true << false;
        QTest::newRow("(1,4,2)") << 1 << 4 << 2 << QStringList{"pp.degree=2", "tp.degree=4", "dp.degree=1"}
                                 << true << false;
        // Added columns: replicas 4..7 clone the loaded ranks' columns; stage 1 sits on the second node,
        // so the transfers cross the 50 GB/s network.
        QTest::newRow("(8,1,2) on 2 nodes")
            << 8 << 1 << 2
            << QStringList{"pp.degree=2", "tp.degree=1", "dp.degree=8", "comm.inter_node_GBps=50"} << true
            << false;
        QTest::newRow("(4,1,2) without pp.degree")
            << 4 << 1 << 2 << QStringList{"tp.degree=1"} << false << false;
        // More micro-batches than traced: copies of micro-batch 0's blocks, on their stages.
        QTest::newRow("(4,1,2) 4 micro-batches")
            << 4 << 1 << 4 << QStringList{"pp.degree=2", "tp.degree=1", "pp.microbatches=4"} << true << false;
        // The GPU count stays and so does the global batch: dp 2 runs 4 micro-batches.
        QTest::newRow("(2,2,2) parallel.gpus=8")
            << 2 << 2 << 4 << QStringList{"pp.degree=2", "parallel.gpus=8"} << true << false;
        QTest::newRow("(1,2,2) 2 GPUs a node") << 1 << 2 << 2 << slow << true << true;
        QTest::newRow("(1,2,2) 2 GPUs a node, pp.transfers=false")
            << 1 << 2 << 2 << (slow + QStringList{"pp.transfers=false"}) << false << true;
    }

    void predictsPipelineStages() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, microbatches);
        QFETCH(QStringList, knobs);
        QFETCH(bool, within);
        QFETCH(bool, twoGpusANode);
        auto job = [&](int d, int t, int pp) {
            SynthConfig c = layoutJob(d, t);
            c.pp = pp;
            if (twoGpusANode) {
                c.gpusPerNode = 2;
                c.interNodeGBps = 12.5;
            }
            return c;
        };
        SynthConfig truthJob = job(dp, tp, 2);
        truthJob.microbatches = microbatches;
        const auto truthRun = generateAndLoad(truthJob);
        const std::unique_ptr<Loaded> own = twoGpusANode ? generateAndLoad(job(1, 2, 1)) : nullptr;
        const Loaded& from = own ? *own : *source_;
        const TimeNs measured = simulate(truthRun->graph).measuredIteration;
        const SimResult pred = simulate(from.graph, knobsOf(knobs));
        QVERIFY(pred.complete);
        const Checked c = check(QString(QTest::currentDataTag()), knobs, pred.simulatedIteration, measured);
        if (!within) {
            QVERIFY2(c.err > kTolerancePct, qPrintable(c.what));
            return;
        }
        QVERIFY2(c.err <= kTolerancePct, qPrintable(c.what));
        QCOMPARE(pred.setup.world, dp * tp * 2);
        QCOMPARE(pred.setup.pp, 2);
        QCOMPARE(pred.setup.tp, tp);
        QCOMPARE(pred.setup.dp, dp);
        // The notes count the transfers of the new job's columns only (tp 2 -> 1 drops half the
        // traced ranks' columns): 2 directions x M micro-batches per kept column and step, and
        // none across nodes when every stage sits on the one 8-GPU node.
        if (QString(QTest::currentDataTag()) == QLatin1String("(4,1,2)")) {
            const std::string all = [&] {
                std::string text;
                for (const auto& n : pred.setup.notes)
                    text.append(n).append("\n");
                return text;
            }();
            const std::string count = std::to_string(2 * 2 * 4) + " stage-to-stage transfers"; // one step
            QVERIFY2(all.find(count) != std::string::npos,
                     all.substr(all.find("stage-to-stage") - 40, 80).c_str());
            QVERIFY2(all.find("across nodes") == std::string::npos, all.c_str());
        }
    }

    // pp.split: stages of unequal layers. The truths are generated with those stages
    // (SynthConfig::stageLayers); the prediction with the split ignored (the even split) must miss.
    void predictsUnevenStages_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<QList<int>>("stageLayers"); // of the truth
        QTest::addColumn<int>("microbatches");       // of the truth
        QTest::addColumn<QStringList>("knobs");
        QTest::addColumn<bool>("within");
        const QStringList two{"pp.degree=2", "tp.degree=1"};
        QTest::newRow("(4,1,2) stages 3,1")
            << 4 << QList<int>{3, 1} << 2 << (two + QStringList{"pp.split=3,1"}) << true;
        QTest::newRow("(4,1,2) stages 1,3")
            << 4 << QList<int>{1, 3} << 2 << (two + QStringList{"pp.split=1,3"}) << true;
        // With 2 micro-batches the even 2,2 comes within 5% of both (0.8% of 3,1, 3.8% of 1,3): the
        // pipeline fill and drain weigh as much as the longest stage; with 8 the longest stage sets
        // most of the step and ignoring the split misses.
        const QStringList eight = two + QStringList{"pp.microbatches=8"};
        QTest::newRow("(4,1,2) stages 3,1, 8 micro-batches")
            << 4 << QList<int>{3, 1} << 8 << (eight + QStringList{"pp.split=3,1"}) << true;
        QTest::newRow("(4,1,2) stages 3,1, 8 micro-batches, pp.split ignored")
            << 4 << QList<int>{3, 1} << 8 << eight << false;
        // 4 layers on 3 stages: even is an error; time balances the stages (the LM head and loss
        // weigh on the last one), as the generated 1,2,1 does.
        QTest::newRow("(2,1,3) pp.split=time")
            << 2 << QList<int>{1, 2, 1} << 2
            << QStringList{"pp.degree=3", "tp.degree=1", "dp.degree=2", "pp.split=time"} << true;
        QTest::newRow("(2,1,3) stages 1,2,1")
            << 2 << QList<int>{1, 2, 1} << 2
            << QStringList{"pp.degree=3", "tp.degree=1", "dp.degree=2", "pp.split=1,2,1"} << true;
        // A split that loads the last stage with the LM head and two layers misses.
        QTest::newRow("(2,1,3) stages 1,2,1, predicted as 1,1,2")
            << 2 << QList<int>{1, 2, 1} << 2
            << QStringList{"pp.degree=3", "tp.degree=1", "dp.degree=2", "pp.split=1,1,2"} << false;
    }

    void predictsUnevenStages() {
        QFETCH(int, dp);
        QFETCH(QList<int>, stageLayers);
        QFETCH(int, microbatches);
        QFETCH(QStringList, knobs);
        QFETCH(bool, within);
        SynthConfig truthJob = layoutJob(dp, 1, microbatches);
        truthJob.pp = static_cast<int>(stageLayers.size());
        truthJob.stageLayers.assign(stageLayers.begin(), stageLayers.end());
        const auto truthRun = generateAndLoad(truthJob);
        const TimeNs measured = simulate(truthRun->graph).measuredIteration;
        const SimResult pred = simulate(source_->graph, knobsOf(knobs));
        QVERIFY(pred.complete);
        const Checked c = check(QString(QTest::currentDataTag()), knobs, pred.simulatedIteration, measured);
        QVERIFY2(within ? c.err <= kTolerancePct : c.err > kTolerancePct, qPrintable(c.what));
        if (!within) return;
        QCOMPARE(pred.setup.world, dp * truthJob.pp);
        QCOMPARE(pred.setup.pp, truthJob.pp);
        // The notes say which split was used.
        std::string notes, split;
        for (const auto& n : pred.setup.notes)
            notes += n + "\n";
        for (int n : stageLayers)
            split.append(split.empty() ? "" : ",").append(std::to_string(n));
        QVERIFY2(notes.find("stages of " + split + " layers (pp.split=") != std::string::npos, notes.c_str());
    }

    // A pipeline the trace cannot make is one clear error, never a result.
    void badPipelinesAreErrors_data() {
        QTest::addColumn<QStringList>("knobs");
        QTest::addColumn<int>("layers"); // of a job of its own (0: the (4, 2, 1) source of 4 layers)
        QTest::addColumn<bool>("withShapes");
        QTest::addColumn<int>("tracedPp");
        QTest::addColumn<QString>("message");
        QTest::newRow("3 stages of 4 layers")
            << QStringList{"pp.degree=3"} << 0 << true << 1 << "3 does not divide the 4 layers";
        QTest::newRow("one layer") << QStringList{"pp.degree=2"} << 1 << true << 1
                                   << "no layer blocks recognised";
        QTest::newRow("no shapes") << QStringList{"pp.degree=2"} << 2 << false << 1
                                   << "the activation size is unknown";
        QTest::newRow("from a pipeline")
            << QStringList{"pp.degree=3"} << 2 << true << 2 << "not a multiple of the traced 2 stages";
        QTest::newRow("with model.layers")
            << QStringList{"pp.degree=2", "model.layers=8"} << 0 << true << 1 << "together with model.layers";
        QTest::newRow("pp.transfers alone")
            << QStringList{"pp.transfers=false"} << 0 << true << 1 << "without pp.degree changes nothing";
        // pp.split: a list of another length or sum, a stage without a layer, a word it does not know,
        // without pp.degree or with the traced degree, more stages than layers, a pipelined trace.
        QTest::newRow("split of 3 stages for 2") << QStringList{"pp.degree=2", "pp.split=2,1,1"} << 0 << true
                                                 << 1 << "3 stage counts for 2 stages";
        QTest::newRow("split summing to 5 of 4 layers")
            << QStringList{"pp.degree=2", "pp.split=3,2"} << 0 << true << 1
            << "the counts sum to 5, not the 4 layers of the trace";
        QTest::newRow("split with an empty stage") << QStringList{"pp.degree=2", "pp.split=4,0"} << 0 << true
                                                   << 1 << "every stage needs at least one layer";
        QTest::newRow("split with a negative stage") << QStringList{"pp.degree=2", "pp.split=5,-1"} << 0
                                                     << true << 1 << "every stage needs at least one layer";
        QTest::newRow("split word") << QStringList{"pp.degree=2", "pp.split=fast"} << 0 << true << 1
                                    << "'fast' is not even, time or a list of layers per stage";
        QTest::newRow("split alone") << QStringList{"pp.split=3,1"} << 0 << true << 1
                                     << "pp.split=3,1 without pp.degree changes nothing";
        QTest::newRow("split of the traced stages")
            << QStringList{"pp.degree=1", "pp.split=time"} << 0 << true << 1 << "pp.split changes nothing";
        QTest::newRow("time over more stages than layers") << QStringList{"pp.degree=5", "pp.split=time"} << 0
                                                           << true << 1 << "4 layers cannot fill 5 stages";
        QTest::newRow("uneven split of a pipeline")
            << QStringList{"pp.degree=4", "pp.split=time"} << 4 << true << 2
            << "an uneven split is only made from a trace of one pipeline stage";
    }

    void badPipelinesAreErrors() {
        QFETCH(QStringList, knobs);
        QFETCH(int, layers);
        QFETCH(bool, withShapes);
        QFETCH(int, tracedPp);
        QFETCH(QString, message);
        std::unique_ptr<Loaded> own;
        if (layers > 0) {
            SynthConfig c = layoutJob(tracedPp > 1 ? 2 : 4, 2);
            c.layers = layers;
            c.pp = tracedPp;
            c.recordShapes = withShapes;
            own = generateAndLoad(c);
        }
        requireOneLineError((own ? *own : *source_).graph, knobs, message);
    }

    // Sequence parallelism: the generated job enters each tensor-parallel region with an all-gather
    // and leaves it with a reduce-scatter (the bytes of the whole activation), its norms and adds on
    // the sequence split; tp.degree re-sizes both collectives and re-shapes those ops too.
    void predictsSequenceParallelLayouts() {
        auto sp = [](int dp, int tp) {
            SynthConfig c = layoutJob(dp, tp);
            c.sequenceParallel = true;
            return c;
        };
        const auto traced = generateAndLoad(sp(4, 2));
        std::map<CollectiveType, int> types;
        for (const auto& c : collectiveCalls(traced->graph))
            if (c.bytes == 5120 * 4096 * 2) ++types[c.type];
        // Per rank: 4 layers x 2 regions x 2 micro-batches x (forward + backward), all 8 ranks.
        QCOMPARE(types[CollectiveType::AllGather], 4 * 2 * 2 * 2 * 8);
        QCOMPARE(types[CollectiveType::ReduceScatter], 4 * 2 * 2 * 2 * 8);
        QCOMPARE(types[CollectiveType::AllReduce], 0);
        struct Row {
            int dp, tp;
            QStringList knobs;
            bool within;
        };
        for (const Row& row : {Row{2, 4, {"tp.degree=4", "dp.degree=2"}, true},
                               Row{8, 1, {"tp.degree=1", "dp.degree=8"}, true},
                               Row{2, 4, {"tp.degree=4", "dp.degree=2", "tp.resize_comm=false"}, false}}) {
            const auto truthRun =
                generateAndLoad(row.tp > 1 ? sp(row.dp, row.tp) : layoutJob(row.dp, row.tp));
            const TimeNs measured = simulate(truthRun->graph).measuredIteration;
            const SimResult pred = simulate(traced->graph, knobsOf(row.knobs));
            const Checked c = check(QString("sequence parallel (%1,%2,1)").arg(row.dp).arg(row.tp), row.knobs,
                                    pred.simulatedIteration, measured);
            QVERIFY2(row.within ? c.err <= kTolerancePct : c.err > kTolerancePct, qPrintable(c.what));
        }
        std::string notes;
        for (const auto& n : simulate(traced->graph, knobsOf({"tp.degree=4"})).setup.notes)
            notes += n + "\n";
        QVERIFY2(notes.find("sequence parallel: 512 norm and residual kernels") != std::string::npos,
                 notes.c_str());
    }

    // The GUI's straggler box offers every rank of the predicted job (sim/JobRankIds.h).
    void largestRankOfTheNewJob() {
        const ParallelStructure s = recognizeStructure(source_->set, &source_->graph);
        QCOMPARE(largestJobRankId(s, 0), 7);
        QCOMPARE(largestJobRankId(s, 0, 4), 15); // dp 4 x tp 4
        QCOMPARE(largestJobRankId(s, 2, 4), 7);
        QCOMPARE(largestJobRankId(s, 8, 1), 7);
        const SimResult pred = simulate(source_->graph, knobsOf({"tp.degree=4", "straggler.rank=15"}));
        QCOMPARE(pred.setup.world, 16);
        QVERIFY_THROWS_EXCEPTION(KnobError,
                                 simulate(source_->graph, knobsOf({"tp.degree=4", "straggler.rank=16"})));
    }

    // What the prediction modelled instead of measuring is in its notes.
    void notesSayWhatIsModelled() {
        const SimResult pred = simulate(source_->graph, knobsOf({"tp.degree=4", "dp.degree=2"}));
        std::string notes;
        for (const auto& n : pred.setup.notes)
            notes += n + "\n";
        QVERIFY2(notes.find("modelled, not measured: ") != std::string::npos, notes.c_str());
        QVERIFY2(notes.find("32 heads / 4") != std::string::npos, notes.c_str());
        QVERIFY2(notes.find("128 tensor-parallel collective kernels re-timed for groups of 4") !=
                     std::string::npos,
                 notes.c_str());
        const SimResult one = simulate(source_->graph, knobsOf({"tp.degree=1", "dp.degree=8"}));
        notes.clear();
        for (const auto& n : one.setup.notes)
            notes += n + "\n";
        QVERIFY2(notes.find("removed 128 tensor-parallel collective kernels (tp 1)") != std::string::npos,
                 notes.c_str());
    }

    // The planner's best layout of 8 GPUs (global batch 8 micro-batches, NVLink-class links) is the
    // generated truth's best in at least 4 of 5 model sizes: tp 1 for the small models (the
    // all-reduces cost more than the sharding saves), tp 2 for the large ones (the gradient
    // all-reduces of unsharded parameters cost more).
    void plannerPicksTheBestLayout() {
        int agree = 0;
        QStringList lines;
        for (auto [hidden, heads] : {std::pair{512, 8}, {1024, 8}, {3072, 24}, {4096, 32}, {6144, 48}}) {
            auto sized = [&](int dp, int tp) {
                SynthConfig c = layoutJob(dp, tp, 8 / dp);
                c.hidden = hidden;
                c.heads = heads;
                c.intraNodeGBps = 450;
                return c;
            };
            const auto traced = generateAndLoad(sized(4, 2));
            const LayoutPlan plan = planLayouts(traced->graph, 8);
            QVERIFY(!plan.rows.empty());
            QVERIFY2(plan.rows.front().error.empty(), plan.rows.front().error.c_str());
            int bestTp = 0;
            TimeNs best = 0;
            for (int tp : {1, 2, 4, 8}) {
                const auto truthRun = generateAndLoad(sized(8 / tp, tp));
                const TimeNs step = simulate(truthRun->graph).measuredIteration;
                if (bestTp == 0 || step < best) {
                    best = step;
                    bestTp = tp;
                }
            }
            agree += plan.rows.front().tp == bestTp ? 1 : 0;
            // The best layout's step, where the planner found it, within 5% of the truth's (the small
            // models need the removed all-reduces' host calls gone).
            if (plan.rows.front().tp == bestTp)
                QVERIFY2(errPct(static_cast<double>(plan.rows.front().step), static_cast<double>(best)) <=
                             kTolerancePct,
                         qPrintable(QString("hidden %1").arg(hidden)));
            lines << QString("hidden %1: planner tp %2 (%3 us), generated best tp %4 (%5 us)")
                         .arg(hidden)
                         .arg(plan.rows.front().tp)
                         .arg(static_cast<double>(plan.rows.front().step) / 1000.0)
                         .arg(bestTp)
                         .arg(static_cast<double>(best) / 1000.0);
        }
        qInfo("%s", qPrintable(lines.join("; ")));
        QVERIFY2(agree >= 4, qPrintable(lines.join("; ")));
    }

    // The memory one GPU holds: an 8192-wide model of 8 layers does not fit an 80 GB H100 unsharded
    // (about 7.0 billion parameters x 18 bytes of weights, gradients and Adam state), does at tp 2;
    // the layouts that do not fit come after those that do.
    void marksLayoutsThatDoNotFit() {
        SynthConfig c = layoutJob(4, 2);
        c.hidden = 8192;
        c.heads = 64;
        c.layers = 8;
        const auto traced = generateAndLoad(c);
        const LayoutPlan plan = planLayouts(traced->graph, 8);
        QCOMPARE(plan.gpuMemoryGB, 80.0);
        QCOMPARE(plan.layers, 8);
        bool seenMisfit = false;
        for (const auto& r : plan.rows) {
            QVERIFY(r.error.empty());
            const double params = (8.0 * (12.0 * 8192 * 8192 + 13.0 * 8192) + 2.0 * 32000 * 8192) / r.tp;
            QVERIFY(std::abs(r.memory.params - params) < 1.0);
            QCOMPARE(r.memory.weightsBytes + r.memory.gradsBytes + r.memory.optimizerBytes, 18.0 * params);
            QCOMPARE(r.fits, r.tp > 1);
            if (!r.fits) seenMisfit = true;
            QVERIFY(r.fits || seenMisfit); // no fitting layout after one that does not fit
            QVERIFY(!seenMisfit || !r.fits);
        }
        QVERIFY(seenMisfit);
    }

    // A layout the trace cannot make is one clear error, never a result.
    void badLayoutsAreErrors_data() {
        QTest::addColumn<QStringList>("knobs");
        QTest::addColumn<bool>("withShapes");
        QTest::addColumn<int>("tracedTp");
        QTest::addColumn<QString>("message");
        QTest::newRow("heads") << QStringList{"tp.degree=3"} << true << 2
                               << "does not divide the 32 attention heads";
        QTest::newRow("gpus") << QStringList{"tp.degree=4", "parallel.gpus=6"} << true << 2
                              << "6 GPUs cannot be laid out with TP 4 x PP 1";
        QTest::newRow("gpus and dp") << QStringList{"tp.degree=4", "parallel.gpus=8", "dp.degree=4"} << true
                                     << 2 << "needs dp 2";
        QTest::newRow("no shapes") << QStringList{"tp.degree=4"} << false << 2
                                   << "no transformer layers recognised";
        QTest::newRow("tp 1 across nodes")
            << QStringList{"tp.degree=16"} << true << 1 << "spans nodes of 8 GPUs";
    }

    void badLayoutsAreErrors() {
        QFETCH(QStringList, knobs);
        QFETCH(bool, withShapes);
        QFETCH(int, tracedTp);
        QFETCH(QString, message);
        SynthConfig c = layoutJob(tracedTp == 1 ? 8 : 4, tracedTp);
        c.layers = 2;
        c.recordShapes = withShapes;
        const bool usesSource = withShapes && tracedTp == 2;
        std::unique_ptr<Loaded> own = usesSource ? nullptr : generateAndLoad(c);
        requireOneLineError((usesSource ? *source_ : *own).graph, knobs, message);
    }
};

QTEST_GUILESS_MAIN(TestLayoutOracle)
#include "test_LayoutOracle.moc"
