// Structure recognition: the parallel layout (dp x tp x pp and each rank's place), micro-batches
// and layer blocks of the bundled samples, of generated jobs and of the real DLRM traces. The
// expected values come from how the sets were made (scripts/make-samples.sh, the generator's
// Megatron rank order in core/synth/README.md), never from the recogniser itself.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "structure/Structure.h"
#include "synth/Generator.h"

#include <string>
#include <vector>

using namespace sl;

namespace {

// Checks every loaded rank's place against the generator's order: rank = (pp * dp + d) * tp + t.
void checkMegatronPlaces(const ParallelStructure& s, int dp, int tp) {
    for (const auto& p : s.places) {
        QVERIFY(p.known);
        QCOMPARE(p.tp, p.rank % tp);
        QCOMPARE(p.dp, (p.rank / tp) % dp);
        QCOMPARE(p.pp, p.rank / (tp * dp));
    }
}

ParallelStructure generatedStructure(const synth::SynthConfig& c) {
    QTemporaryDir dir;
    synth::generate(c, dir.path().toStdString(), 2);
    TraceSet set = loadTraceSet({dir.path().toStdString()});
    return recognizeStructure(set);
}

synth::SynthConfig small() {
    synth::SynthConfig c;
    c.hidden = 512;
    c.heads = 8;
    c.seq = 256;
    c.vocab = 4096;
    return c;
}

} // namespace

class TestStructure : public QObject {
    Q_OBJECT
private slots:
    void repetitionByHand() {
        // a b c | x y z x y z x y z | q: three copies of "x y z" starting at 3.
        std::vector<std::uint32_t> seq = {1, 2, 3, 7, 8, 9, 7, 8, 9, 7, 8, 9, 4};
        Repetition r = longestRepetition(seq, 3);
        QCOMPARE(r.count, 3);
        QCOMPARE(r.length, 3);
        QCOMPARE(r.first, std::size_t{3});
        // Blocks shorter than minBlock are not layers: "5 5 5 5" with minBlock 3 is nothing.
        QCOMPARE(longestRepetition({5, 5, 5, 5}, 3).count, 0);
        // Six copies of a two-op block read as three copies of a four-op block with minBlock 3
        // (coverage 12 either way; the shortest block of at least 3 ops wins).
        Repetition two = longestRepetition({1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, 3);
        QCOMPARE(two.count, 3);
        QCOMPARE(two.length, 4);
        QCOMPARE(longestRepetition({}, 3).count, 0);
    }

    // samples/03-tp2-pp2: --dp 1 --tp 2 --pp 2 --microbatches 4 --layers 4 (two per stage).
    void sampleTp2Pp2() {
        TraceSet set = loadTraceSet({sltest::samplePath("03-tp2-pp2")});
        ParallelStructure s = recognizeStructure(set);
        QCOMPARE(s.world, 4);
        QCOMPARE(s.dp, 1);
        QCOMPARE(s.tp, 2);
        QCOMPARE(s.pp, 2);
        QVERIFY(s.recognised);
        QVERIFY(s.megatronOrder);
        QCOMPARE(QString::fromStdString(s.source), QString("pg_config"));
        checkMegatronPlaces(s, 1, 2);
        QCOMPARE(s.microbatches, 4);
        QCOMPARE(s.layers, 4);
        for (const auto& b : s.blocks) {
            QCOMPARE(b.forward, 4);
            QCOMPARE(b.backward, 4);
            QCOMPARE(b.layers, 2);
        }
        nlohmann::json j = structureJson(s);
        QCOMPARE(j["stages"].size(), std::size_t{2});
        QCOMPARE(j["grid"].size(), std::size_t{4});
    }

    // samples/04-dp2-tp2-pp2-2nodes: --dp 2 --tp 2 --pp 2 --microbatches 4 --layers 4.
    void sampleDp2Tp2Pp2() {
        TraceSet set = loadTraceSet({sltest::samplePath("04-dp2-tp2-pp2-2nodes")});
        ParallelStructure s = recognizeStructure(set);
        QCOMPARE(s.world, 8);
        QCOMPARE(s.dp, 2);
        QCOMPARE(s.tp, 2);
        QCOMPARE(s.pp, 2);
        QVERIFY(s.recognised && s.megatronOrder);
        checkMegatronPlaces(s, 2, 2);
        QCOMPARE(s.microbatches, 4);
        QCOMPARE(s.layers, 4);
    }

    // samples/02-dp4 and 01-dp8-straggler: plain data parallel, one micro-batch, four layers.
    void sampleDataParallel() {
        for (auto [name, dp] : {std::pair{"02-dp4", 4}, std::pair{"01-dp8-straggler", 8}}) {
            TraceSet set = loadTraceSet({sltest::samplePath(name)});
            ParallelStructure s = recognizeStructure(set);
            QCOMPARE(s.world, dp);
            QCOMPARE(s.dp, dp);
            QCOMPARE(s.tp, 1);
            QCOMPARE(s.pp, 1);
            QVERIFY(s.recognised);
            checkMegatronPlaces(s, dp, 1);
            QCOMPARE(s.microbatches, 1);
            QCOMPARE(s.layers, 4);
        }
    }

    // A generated 3-stage pipeline with 6 layers (two per stage) and 3 micro-batches, tp 2.
    void generatedPipeline() {
        synth::SynthConfig c = small();
        c.dp = 1;
        c.tp = 2;
        c.pp = 3;
        c.layers = 6;
        c.microbatches = 3;
        ParallelStructure s = generatedStructure(c);
        QCOMPARE(s.world, 6);
        QCOMPARE(s.tp, 2);
        QCOMPARE(s.pp, 3);
        QCOMPARE(s.dp, 1);
        checkMegatronPlaces(s, 1, 2);
        QCOMPARE(s.microbatches, 3);
        QCOMPARE(s.layers, 6);
    }

    // One layer per stage: nothing repeats, so no layer blocks (and a note says so).
    void oneLayerPerStageHasNoBlocks() {
        synth::SynthConfig c = small();
        c.dp = 2;
        c.pp = 2;
        c.layers = 2;
        c.microbatches = 2;
        ParallelStructure s = generatedStructure(c);
        QCOMPARE(s.dp, 2);
        QCOMPARE(s.pp, 2);
        QCOMPARE(s.layers, 0);
        bool noted = false;
        for (const auto& n : s.notes)
            noted = noted || n.find("no repeated layer blocks") != std::string::npos;
        QVERIFY(noted);
    }

    // DLRM on 8 V100s: no pg_config and no collective metadata; every collective (all-to-all and
    // all-reduce) spans all 8 ranks, so it is 8-way data parallel, without pipeline or micro-batch
    // markers.
    void dlrm() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        ParallelStructure noGraph = recognizeStructure(set);
        QCOMPARE(noGraph.world, 8);
        QCOMPARE(QString::fromStdString(noGraph.source), QString("ranks"));
        ExecutionGraph g = buildExecutionGraph(set);
        ParallelStructure s = recognizeStructure(set, &g);
        QCOMPARE(QString::fromStdString(s.source), QString("matched collectives"));
        QCOMPARE(s.world, 8);
        QCOMPARE(s.dp, 8);
        QCOMPARE(s.tp, 1);
        QCOMPARE(s.pp, 1);
        QVERIFY(s.recognised);
        for (const auto& p : s.places)
            QCOMPARE(p.dp, p.rank);
        QCOMPARE(s.microbatches, 0);
        bool dataGroup = false;
        for (const auto& grp : s.groups)
            dataGroup = dataGroup || (grp.role == GroupRole::Data && grp.ranks.size() == 8);
        QVERIFY(dataGroup);
    }
};

QTEST_GUILESS_MAIN(TestStructure)
#include "test_Structure.moc"
