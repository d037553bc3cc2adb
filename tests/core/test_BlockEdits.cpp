// Oracle tests of model.layers (sim/BlockEdits.h, docs/Structure.md): generate a job (A) and the same
// job with another number of layers (B, same seed and everything else), predict B from A's trace
// with the knob, and require B's measured iteration and, per rank, its iteration, compute,
// communication and exposed communication within 3% (idle within 3% of the rank's iteration: it
// is a small remainder). Each case also requires that A simulated without the knob misses B's
// iteration by far more than 3%, so a knob that is ignored fails it. On DLRM (no repeated layer
// blocks) the knob says it is ignored and why, and changes nothing.
#include "SynthFixture.h"

#include "analysis/Breakdown.h"
#include "io/KinetoLoader.h"
#include "sim/BlockEdits.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "structure/Structure.h"

#include <algorithm>
#include <string>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;

namespace {

constexpr double kTolerancePct = 3.0;

// A small job with every kind of traffic a layer carries: 2-way tensor parallel (two all-reduces
// per layer forward and backward), 2 data-parallel replicas whose DDP buckets (25 MB) fill once
// per layer (100 M gradient elements per layer and TP rank), two micro-batches of gradient
// accumulation. A 4096-wide model keeps the GPUs busy: the host's random per-call spread then
// does not decide how long one rank waits for another.
SynthConfig layerJob(int layers) {
    SynthConfig c;
    c.layers = layers;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 1024;
    c.vocab = 32000;
    c.tp = 2;
    c.dp = 2;
    c.microbatches = 2;
    return c;
}

// The same as a 1F1B pipeline of two stages (half the layers each) and four micro-batches.
SynthConfig pipelineLayerJob(int layers) {
    SynthConfig c = layerJob(layers);
    c.dp = 1;
    c.pp = 2;
    c.microbatches = 4;
    return c;
}

std::string worstError(const slsynth::Loaded& a, const SimResult& pred, const slsynth::Loaded& b,
                       const SimResult& bReplay, double& worst) {
    std::string what = "iteration";
    worst =
        errPct(static_cast<double>(pred.simulatedIteration), static_cast<double>(bReplay.measuredIteration));
    auto add = [&](double e, const std::string& name) {
        if (e > worst) {
            worst = e;
            what = name;
        }
    };
    auto predBd = simulatedBreakdown(a.set, pred.timeline);
    auto measBd = measuredBreakdown(b.set, &b.graph);
    for (std::size_t r = 0; r < b.set.ranks.size(); ++r) {
        const std::string rank = "rank " + std::to_string(b.set.ranks[r].rank);
        const double iter = static_cast<double>(bReplay.ranks[r].measured());
        add(errPct(static_cast<double>(pred.ranks[r].simulated()), iter), rank + " iteration");
        add(errPct(static_cast<double>(predBd[r].compute), static_cast<double>(measBd[r].compute)),
            rank + " compute");
        add(errPct(static_cast<double>(predBd[r].communication),
                   static_cast<double>(measBd[r].communication)),
            rank + " communication");
        add(errPct(static_cast<double>(predBd[r].exposedCommunication),
                   static_cast<double>(measBd[r].exposedCommunication)),
            rank + " exposed communication");
        add(100.0 * std::abs(static_cast<double>(predBd[r].idle - measBd[r].idle)) / iter, rank + " idle");
    }
    return what;
}

// A 1F1B pipeline of two stages (two layers each) with 2-way tensor and data parallelism: sends
// and receives between the stages, TP all-reduces in every block, DDP buckets in the last backward.
SynthConfig microbatchJob(int microbatches) {
    SynthConfig c = layerJob(4);
    c.pp = 2;
    c.microbatches = microbatches;
    return c;
}

void checkPrediction(const SynthConfig& configA, const SynthConfig& configB, const std::string& knob,
                     const std::string& change) {
    auto a = generateAndLoad(configA);
    auto b = generateAndLoad(configB);
    QCOMPARE(a->set.ranks.size(), b->set.ranks.size());
    SimKnobs knobs;
    setKnobAssignment(knobs, knob);
    SimResult pred = simulate(a->graph, knobs);
    SimResult ignored = simulate(a->graph);
    SimResult bReplay = simulate(b->graph);
    QVERIFY(pred.complete && ignored.complete && bReplay.complete);
    QVERIFY2(pred.warnings.empty(), pred.warnings.empty() ? "" : pred.warnings.front().text.c_str());
    QVERIFY(pred.setup.edited);
    // The note says what was done ("... 12 -> 24 layers" per stage, "4 -> 8 micro-batches").
    QVERIFY2(std::any_of(pred.setup.notes.begin(), pred.setup.notes.end(),
                         [&](const std::string& n) { return n.find(change) != std::string::npos; }),
             change.c_str());
    // res.nodes stays parallel to A's graph.
    QCOMPARE(pred.nodes.size(), a->graph.nodes.size());
    // The edited job keeps the generated layout (the configuration's degrees, not the unedited
    // setup's defaults of 1), and rank r keeps its generator coordinates (Megatron order).
    QCOMPARE(pred.setup.dp, configA.dp);
    QCOMPARE(pred.setup.tp, configA.tp);
    QCOMPARE(pred.setup.pp, configA.pp);
    for (const auto& r : pred.setup.ranks) {
        const RankCoord c = rankCoord(configA, r.rank);
        QVERIFY(r.measured && r.dp == c.dp && r.tp == c.tp && r.pp == c.pp);
    }

    double worst = 0;
    const std::string what = worstError(*a, pred, *b, bReplay, worst);
    const double ignoredErr = errPct(static_cast<double>(ignored.simulatedIteration),
                                     static_cast<double>(bReplay.measuredIteration));
    qInfo("%s (pp %d): B measured %.1f us, predicted %.1f us, knob ignored %.1f us (%.1f%% off); "
          "worst error with the knob %.2f%% (%s)",
          knob.c_str(), configA.pp, static_cast<double>(bReplay.measuredIteration) / 1000.0,
          static_cast<double>(pred.simulatedIteration) / 1000.0,
          static_cast<double>(ignored.simulatedIteration) / 1000.0, ignoredErr, worst, what.c_str());
    QVERIFY2(ignoredErr > 5 * kTolerancePct, "ignoring the knob should miss B by far more than 3%");
    QVERIFY2(worst <= kTolerancePct, qPrintable(QString("%1 off by %2%").arg(what.c_str()).arg(worst)));
}

// Every collective group the edit added has two members, both copies, on different ranks (the
// copies of one block on peer ranks), and `pointToPoint` of them are sends / receives.
void checkCopiedGroups(const slsynth::Loaded& a, const BlockEdit& edit, std::size_t pointToPoint) {
    std::size_t p2p = 0;
    for (std::size_t i = a.graph.collectives.size(); i < edit.graph.collectives.size(); ++i) {
        const auto& grp = edit.graph.collectives[i];
        QCOMPARE(grp.members.size(), std::size_t(2));
        QVERIFY(grp.members[0] >= edit.kept && grp.members[1] >= edit.kept);
        QVERIFY(edit.graph.nodes[grp.members[0]].rank != edit.graph.nodes[grp.members[1]].rank);
        if (grp.type == CollectiveType::Send || grp.type == CollectiveType::Recv ||
            grp.type == CollectiveType::SendRecv)
            ++p2p;
    }
    QCOMPARE(p2p, pointToPoint);
}

} // namespace

class TestBlockEdits : public QObject {
    Q_OBJECT
private slots:
    void doublingTheLayersPredictsTheDeeperModel() {
        checkPrediction(layerJob(12), layerJob(24), "model.layers=24", "12 -> 24 layers");
    }

    void halvingTheLayersPredictsTheShallowerModel() {
        checkPrediction(layerJob(24), layerJob(12), "model.layers=12", "24 -> 12 layers");
    }

    void layersOfAPipelinePredictTheDeeperPipeline() {
        // 6 layers per stage become 12.
        checkPrediction(pipelineLayerJob(12), pipelineLayerJob(24), "model.layers=24", "6 -> 12 layers");
    }

    void doublingTheMicrobatchesPredictsTheLongerPipeline() {
        checkPrediction(microbatchJob(4), microbatchJob(8), "pp.microbatches=8", "4 -> 8 micro-batches");
    }

    // Without a pipeline (gradient accumulation on 2 replicas) from one traced micro-batch, whose
    // backward holds every gradient all-reduce: the copies must not repeat them.
    void accumulatingFromOneMicrobatch() {
        SynthConfig one = layerJob(4), four = layerJob(4);
        one.microbatches = 1;
        four.microbatches = 4;
        checkPrediction(one, four, "pp.microbatches=4", "1 -> 4 micro-batches");
    }

    void halvingTheMicrobatchesPredictsTheShorterPipeline() {
        checkPrediction(microbatchJob(8), microbatchJob(4), "pp.microbatches=4", "8 -> 4 micro-batches");
    }

    // The edited graph holds each copied collective once per rank of its group, matched as one
    // collective of copies on different ranks. 12 -> 16 layers copies 4 layers in each of the 4
    // forward / backward blocks; a layer has 2 TP all-reduces in each pass: 4 x 4 x 2 = 32 new TP
    // groups per TP pair (2 pairs), and the last backward's 4 copied layers carry one DDP bucket
    // each: 4 new DP groups per DP pair (2 pairs). 2 x 32 + 2 x 4 = 72.
    void copiedCollectivesMeetTheirPeers() {
        auto a = generateAndLoad(layerJob(12));
        BlockEdit edit = editBlocks(a->graph, BlockEditKnobs{16});
        QVERIFY(edit.active);
        QCOMPARE(edit.graph.collectives.size() - a->graph.collectives.size(), std::size_t(2 * 32 + 2 * 4));
        checkCopiedGroups(*a, edit, 0);
    }

    // 4 -> 8 micro-batches on 2 stages x 2 replicas x 2 TP ranks: 4 copied micro-batches, each
    // with a forward and a backward block. Per pipeline link (4 of them) a copied block pair sends
    // activations forward and gradients back: 4 x 2 x 4 = 32 send/receive groups. Per TP pair (4)
    // each copied block runs 2 layers x 2 all-reduces: 4 x 2 x 4 x 4 = 128. The gradient buckets
    // stay in the traced last micro-batch: none copied. 32 + 128 = 160 new groups.
    void copiedMicrobatchesMeetTheOtherStage() {
        auto a = generateAndLoad(microbatchJob(4));
        BlockEdit edit = editMicrobatches(a->graph, 8);
        QVERIFY(edit.active);
        QCOMPARE(edit.graph.collectives.size() - a->graph.collectives.size(), std::size_t(160));
        checkCopiedGroups(*a, edit, 32);
    }

    // The regions the edits work on, counted by hand from the generator's program (core/synth):
    // per rank 2 forward and 2 backward micro-batch blocks of 6 layers each. A forward layer has 12
    // top-level ops with TP 2 (layer norm, QKV linear, attention, output linear, TP all-reduce,
    // add, layer norm, MLP up, GeLU, MLP down, TP all-reduce, add), a backward layer 12 gradient
    // functions; in the last backward every layer also all-reduces its DDP bucket
    // (reduce_bucket#k, one per layer at 100 M gradient elements): 13, the "#k" ignored.
    void layerRegionsOfTheGeneratedJob() {
        auto a = generateAndLoad(layerJob(6));
        for (const Rank& rank : a->set.ranks) {
            std::vector<LayerRegion> regions = layerRegions(rank);
            QCOMPARE(regions.size(), std::size_t(4));
            const bool backward[] = {false, true, false, true};
            const int length[] = {12, 12, 12, 13};
            for (std::size_t i = 0; i < regions.size(); ++i) {
                QCOMPARE(regions[i].backward, backward[i]);
                QCOMPARE(regions[i].rep.count, 6);
                QCOMPARE(regions[i].rep.length, length[i]);
            }
        }
    }

    void dlrmHasNoBlocksAndSaysSo() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ExecutionGraph g = buildExecutionGraph(set);
        SimKnobs knobs;
        setKnobAssignment(knobs, "model.layers=24");
        SimResult res = simulate(g, knobs);
        SimResult replay = simulate(g);
        QCOMPARE(res.warnings.count(Warn::BlockEditIgnored), std::int64_t(1));
        QVERIFY(!res.setup.edited);
        QCOMPARE(res.simulatedIteration, replay.simulatedIteration);
        // Nor micro-batch markers.
        SimKnobs mb;
        setKnobAssignment(mb, "pp.microbatches=8");
        SimResult resMb = simulate(g, mb);
        QCOMPARE(resMb.warnings.count(Warn::BlockEditIgnored), std::int64_t(1));
        QCOMPARE(resMb.simulatedIteration, replay.simulatedIteration);
    }
};

QTEST_GUILESS_MAIN(TestBlockEdits)
#include "test_BlockEdits.moc"
