// Before / after comparison (analysis/RunComparison.h): a run against itself, generated pairs with
// one known change (the comparison must find exactly the changed classes and ranks), two seeds of one
// job (noise, not a change), kernels renamed as on another GPU vendor (aligned through the CPU op
// that launched them), and two different programs (said so, with the aligned share).
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/RunComparison.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "synth/Generator.h"

#include <QDir>
#include <QFile>

#include <memory>
#include <string>
#include <vector>

using namespace sl;
using namespace sl::synth;
using slsynth::generateAndLoad;
using slsynth::Loaded;

namespace {

// A small two-layer job on four GPUs (seconds to generate and load).
SynthConfig job() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 1024;
    c.heads = 16;
    c.seq = 1024;
    c.vocab = 8192;
    c.dp = 4;
    return c;
}

const TimeRow* row(const std::vector<TimeRow>& rows, const std::string& key) {
    for (const auto& r : rows)
        if (r.key == key) return &r;
    return nullptr;
}

// One CPU op launching kernels on stream 7, in a hand-made Kineto file.
struct HandOp {
    std::string cpuOp;
    std::vector<std::pair<std::string, int>> kernels; // name, duration in us
};

// A one-rank trace: each op a cpu_op around one cudaLaunchKernel per kernel, its kernels back to back.
QByteArray handTrace(int rank, const std::vector<HandOp>& ops) {
    QString events;
    int ts = 100, gpu = 120, corr = 1;
    for (const auto& op : ops) {
        const int begin = ts;
        QString launches;
        for (const auto& [name, dur] : op.kernels) {
            launches += QString(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,)"
                                R"("ts":%1,"dur":4,"args":{"correlation":%2}},)")
                            .arg(ts + 1)
                            .arg(corr);
            gpu = std::max(gpu, ts + 10);
            launches += QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":7,"ts":%2,"dur":%3,)"
                                R"("args":{"correlation":%4,"stream":7,"device":0}},)")
                            .arg(QString::fromStdString(name))
                            .arg(gpu)
                            .arg(dur)
                            .arg(corr);
            gpu += dur + 2;
            ts += 6;
            ++corr;
        }
        events +=
            QString(R"({"ph":"X","cat":"cpu_op","name":"%1","pid":1,"tid":1,"ts":%2,"dur":%3,"args":{}},)")
                .arg(QString::fromStdString(op.cpuOp))
                .arg(begin)
                .arg(ts - begin + 1);
        events += launches;
        ts += 4;
    }
    events.chop(1);
    return QString(R"({"distributedInfo":{"rank":%1,"world_size":1},"traceEvents":[%2]})")
        .arg(rank)
        .arg(events)
        .toUtf8();
}

struct HandSet {
    QTemporaryDir dir;
    TraceSet set;
    ExecutionGraph graph;
};

std::unique_ptr<HandSet> loadHand(int rank, const std::vector<HandOp>& ops) {
    auto h = std::make_unique<HandSet>();
    const std::string path = sltest::writeFile(h->dir, "trace.json", handTrace(rank, ops));
    h->set = loadTraceSet({path});
    h->graph = buildExecutionGraph(h->set);
    return h;
}

// Rewrites every file of a generated folder with kernel names replaced (another vendor's library).
void renameKernels(const QString& dir, const std::vector<std::pair<QString, QString>>& renames) {
    for (const QString& f : QDir(dir).entryList({"*.json"}, QDir::Files)) {
        QFile file(dir + "/" + f);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(file.readAll());
        file.close();
        for (const auto& [from, to] : renames)
            text.replace(from, to);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.toUtf8());
    }
}

} // namespace

class TestRunComparison : public QObject {
    Q_OBJECT

private slots:
    void selfComparisonIsAllZero() {
        auto a = generateAndLoad(job());
        const RunComparison c = compareRuns(a->graph, a->graph);
        QVERIFY(c.comparable());
        QCOMPARE(c.alignedSharePct(), 100.0);
        QCOMPARE(c.ranks.size(), std::size_t{4});
        QVERIFY(c.ranksById);
        QVERIFY(c.opsBefore > 100);
        for (const auto& rc : c.ranks) {
            QCOMPARE(rc.alignedSharePct(), 100.0);
            QVERIFY(rc.before.iteration > 0);
            for (const auto& f : rc.figures) {
                QCOMPARE(f.delta(), TimeNs{0});
                QVERIFY(!f.changed());
            }
            for (const auto& u : rc.units)
                QCOMPARE(u.beforeTime, u.afterTime);
        }
        for (const auto* table : {&c.byClass, &c.byKernel, &c.byCpuOp})
            for (const auto& r : *table) {
                QCOMPARE(r.delta(), TimeNs{0});
                QCOMPARE(r.countBefore, r.countAfter);
                QVERIFY2(!r.changed(), r.key.c_str());
            }
        QCOMPARE(c.noisePct, 0.0);
        QVERIFY2(c.verdict().find("no GPU time changed") != std::string::npos, c.verdict().c_str());
    }

    // GPU 2x: every compute class halves, on every rank; memcpy does not move.
    void fasterGpuChangesEveryComputeClass() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.gpuSpeedup = 2;
        auto b = generateAndLoad(cb);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.alignedSharePct(), 100.0);
        for (const char* cls : {"gemm", "attention", "elementwise", "reduction"}) {
            const TimeRow* r = row(c.byClass, cls);
            QVERIFY2(r, cls);
            QVERIFY2(r->changed(), cls);
            QVERIFY2(std::abs(r->deltaPct() + 50.0) < 1.0,
                     qPrintable(QString("%1 %2").arg(cls).arg(r->deltaPct())));
        }
        const TimeRow* memcpy = row(c.byClass, "memcpy");
        QVERIFY(memcpy);
        QVERIFY(!memcpy->changed());
        for (const auto& rc : c.ranks) {
            QVERIFY(rc.figure("compute")->changed());
            QVERIFY(rc.figure("iteration")->changed());
            QVERIFY(rc.figure("iteration")->delta() < 0);
        }
        QVERIFY(c.iterationAfter < c.iterationBefore);
    }

    // One straggler: only its rank's compute changed (the others wait for it, so their
    // communication does change, and the iteration of every rank).
    void stragglerChangesOneRanksCompute() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.stragglerRank = 2;
        cb.stragglerSlowdown = 1.5;
        auto b = generateAndLoad(cb);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QVERIFY(c.comparable());
        std::vector<int> changed;
        for (const auto& rc : c.ranks)
            if (rc.figure("compute")->changed()) changed.push_back(rc.afterRank);
        QCOMPARE(changed, std::vector<int>{2});
        const auto& r2 = c.ranks[2];
        QCOMPARE(r2.afterRank, 2);
        QVERIFY(std::abs(r2.figure("compute")->deltaPct() - 50.0) < 2.0);
        for (const auto& rc : c.ranks)
            if (rc.afterRank != 2) QVERIFY(rc.figure("wait")->after > rc.figure("wait")->before);
        QVERIFY2(c.verdict().find("compute changed on rank 2") != std::string::npos, c.verdict().c_str());
    }

    // More layers: more kernels; what was there aligns, the added ones do not, and the kernels whose
    // count changed are changes even where their time says little.
    void moreLayersAddsKernels() {
        auto a = generateAndLoad(job());
        SynthConfig cb = job();
        cb.layers = 3;
        auto b = generateAndLoad(cb);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QVERIFY(c.comparable());
        QCOMPARE(c.alignedBefore, c.opsBefore);
        QVERIFY(c.opsAfter > c.opsBefore);
        QVERIFY(c.alignedSharePct() < 100.0);
        const TimeRow* gemm = row(c.byClass, "gemm");
        QVERIFY(gemm && gemm->countAfter > gemm->countBefore && gemm->changed());
        // The noise comes from kernels of unchanged count only: still the generator's jitter, a few %.
        QVERIFY2(c.noisePct < 5.0, qPrintable(QString::number(c.noisePct)));
        for (const auto& rc : c.ranks)
            QVERIFY(rc.figure("compute")->changed());
    }

    // Two seeds of one job with 2% jitter: run-to-run noise, not a change.
    // The same program with its data loading moved to 4 DataLoader workers (the ResNet-50 pair a
    // user brought: the summary led with kernel classes within noise): the summary leads with the
    // host, and says the kernels did not change.
    void dataLoaderPairNamesTheHost() {
        SynthConfig ca = job(), cb = job();
        ca.steps = cb.steps = 2;
        ca.dataLoaderUs = cb.dataLoaderUs = 20'000;
        cb.dataWorkers = 4;
        auto a = generateAndLoad(ca);
        auto b = generateAndLoad(cb);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QVERIFY(c.comparable());
        const TimeRow* loading = row(c.figures, "data_loading");
        const TimeRow* idle = row(c.figures, "idle");
        QVERIFY(loading && idle);
        QVERIFY2(loading->deltaPct() < -50.0, qPrintable(QString::number(loading->deltaPct())));
        QVERIFY2(idle->delta() < 0, qPrintable(QString::number(idle->deltaPct())));
        const std::string v = c.verdict();
        // The host leads (the largest moves), the kernels are said to be unchanged.
        const auto first = v.find("changed beyond noise, largest first: ");
        QVERIFY2(first != std::string::npos, v.c_str());
        const std::string lead = v.substr(first + 37, 40);
        QVERIFY2(lead.starts_with("GPU idle -") || lead.starts_with("host data loading -"), v.c_str());
        QVERIFY2(v.find("host data loading -") != std::string::npos, v.c_str());
        QVERIFY2(v.find("compute kernels unchanged within noise") != std::string::npos, v.c_str());
        QVERIFY2(v.find("compute changed") == std::string::npos, v.c_str());
    }

    void twoSeedsAreNoise() {
        SynthConfig ca = job(), cb = job();
        cb.seed = 7;
        auto a = generateAndLoad(ca);
        auto b = generateAndLoad(cb);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.alignedSharePct(), 100.0);
        QVERIFY2(c.noisePct > 0.3 && c.noisePct < 5.0, qPrintable(QString::number(c.noisePct)));
        bool anyDelta = false;
        for (const auto& r : c.byClass) {
            anyDelta = anyDelta || r.delta() != 0;
            if (r.key != "comm_kernel")
                QVERIFY2(!r.changed(),
                         qPrintable(QString::fromStdString(r.key) + " " + QString::number(r.deltaPct())));
        }
        QVERIFY(anyDelta); // the runs do differ, by noise
        for (const auto& rc : c.ranks)
            QVERIFY2(!rc.figure("compute")->changed(),
                     qPrintable(QString::number(rc.figure("compute")->deltaPct())));
        QVERIFY2(c.verdict().find("run-to-run noise") != std::string::npos, c.verdict().c_str());
    }

    // Profiles with shapes: a run against itself aligns every op by name and shapes; a larger batch
    // changes the shapes of most ops, which then align by name alone.
    void shapesFirstThenNames() {
        SynthConfig ca = job();
        ca.recordShapes = true;
        SynthConfig cb = ca;
        cb.microbatch = 2;
        auto a = generateAndLoad(ca);
        auto b = generateAndLoad(cb);
        const RunComparison self = compareRuns(a->graph, a->graph);
        QCOMPARE(self.unitsBy[static_cast<int>(AlignedBy::NameShapes)], self.opsBefore);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.alignedSharePct(), 100.0);
        QVERIFY(c.unitsBy[static_cast<int>(AlignedBy::Name)] > c.opsBefore / 2);
        QVERIFY(c.unitsBy[static_cast<int>(AlignedBy::NameShapes)] > 0);
        QVERIFY(row(c.byClass, "gemm")->deltaPct() > 50.0);
    }

    // Another vendor: the GEMM kernels have other names, and one op launches two kernels there.
    void renamedKernelsAlignThroughTheCpuOp() {
        auto a = loadHand(0, {{"aten::mm", {{"sm90_xmma_gemm_bf16", 100}}},
                              {"aten::add", {{"vectorized_elementwise_kernel", 10}}},
                              {"aten::mm", {{"sm90_xmma_gemm_bf16", 120}}},
                              {"aten::add", {{"vectorized_elementwise_kernel", 10}}}});
        auto b =
            loadHand(0, {{"aten::mm", {{"Cijk_Ailk_Bljk_BBS_BH_MT128x128", 80}, {"Cijk_reduce_splitk", 10}}},
                         {"aten::add", {{"vectorized_elementwise_kernel", 12}}},
                         {"aten::mm", {{"Cijk_Ailk_Bljk_BBS_BH_MT128x128", 90}, {"Cijk_reduce_splitk", 10}}},
                         {"aten::add", {{"vectorized_elementwise_kernel", 12}}}});
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.opsBefore, std::int64_t{4});
        QCOMPARE(c.opsAfter, std::int64_t{6});
        QCOMPARE(c.alignedSharePct(), 100.0);
        QVERIFY(c.comparable());
        QCOMPARE(c.unitsBy[static_cast<int>(AlignedBy::CpuOp)], std::int64_t{2});
        const auto& units = c.ranks[0].units;
        int viaOp = 0;
        for (const auto& u : units)
            if (u.by == AlignedBy::CpuOp) {
                ++viaOp;
                QCOMPARE(u.before.size(), std::size_t{1});
                QCOMPARE(u.after.size(), std::size_t{2});
            }
        QCOMPARE(viaOp, 2);
        // The k-th aten::mm with the k-th: 100 -> 90, 120 -> 100 us.
        std::vector<std::pair<TimeNs, TimeNs>> times;
        for (const auto& u : units)
            if (u.by == AlignedBy::CpuOp) times.emplace_back(u.beforeTime, u.afterTime);
        QCOMPARE(times[0], (std::pair<TimeNs, TimeNs>{100000, 90000}));
        QCOMPARE(times[1], (std::pair<TimeNs, TimeNs>{120000, 100000}));
        const TimeRow* mm = row(c.byCpuOp, "aten::mm");
        QVERIFY(mm);
        QCOMPARE(mm->before, TimeNs{220000});
        QCOMPARE(mm->after, TimeNs{190000});
        QCOMPARE(launchingCpuOp(a->set.ranks[0], a->graph.nodes[units[0].before[0]].event).valid(), true);
    }

    // A generated job whose GEMM and flash-attention kernels carry another vendor's names.
    void renamedGeneratedJobStillAligns() {
        SynthConfig cfg = job();
        auto a = generateAndLoad(cfg);
        auto b = std::make_unique<Loaded>();
        sl::synth::generate(cfg, b->dir.path().toStdString(), 2);
        renameKernels(b->dir.path(),
                      {{"sm90_xmma_gemm", "Cijk_Alik_Bljk_HHS"}, {"pytorch_flash::", "ck_fmha::"}});
        b->set = loadTraceSet({b->dir.path().toStdString()});
        b->graph = buildExecutionGraph(b->set);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.alignedSharePct(), 100.0);
        QVERIFY(c.unitsBy[static_cast<int>(AlignedBy::CpuOp)] > 0);
        // Same durations: every aligned unit has the same time on both sides.
        for (const auto& rc : c.ranks)
            for (const auto& u : rc.units)
                QCOMPARE(u.beforeTime, u.afterTime);
        QCOMPARE(row(c.byClass, "gemm")->delta(), TimeNs{0});
    }

    // Two different programs: said so with the aligned share, no table that looks like a result.
    void differentProgramsAreNotComparable() {
        auto a = loadHand(0, {{"aten::mm", {{"gemm_a", 100}}}, {"aten::mm", {{"gemm_a", 100}}}});
        auto b = loadHand(0, {{"aten::conv2d", {{"implicit_conv", 50}}},
                              {"aten::relu", {{"relu_kernel", 5}}},
                              {"aten::conv2d", {{"implicit_conv", 50}}}});
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.alignedSharePct(), 0.0);
        QVERIFY(!c.comparable());
        QVERIFY2(c.alignmentNote().find("do not look like one program") != std::string::npos,
                 c.alignmentNote().c_str());
        QVERIFY(c.verdict().find("0.0% of GPU ops aligned") != std::string::npos);
        QCOMPARE(c.warnings.count(Warn::CompareNotOneProgram), std::int64_t{1});
        QCOMPARE(c.warnings.size(), std::size_t{1});
    }

    // Sets without a common rank id pair by order, and say so.
    void ranksWithoutCommonIdPairByOrder() {
        const std::vector<HandOp> ops = {{"aten::mm", {{"gemm_a", 100}}}};
        auto a = loadHand(3, ops);
        auto b = loadHand(5, ops);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QVERIFY(!c.ranksById);
        QCOMPARE(c.ranks.size(), std::size_t{1});
        QCOMPARE(c.ranks[0].beforeRank, 3);
        QCOMPARE(c.ranks[0].afterRank, 5);
        QCOMPARE(c.alignedSharePct(), 100.0);
        QCOMPARE(c.warnings.count(Warn::CompareRanksByOrder), std::int64_t{1});
        QVERIFY(!c.warnings.has(Warn::CompareRanksUnpaired));
    }

    // Ranks of one run only are left out and counted (compare_ranks_unpaired: one per rank).
    void ranksOfOneRunOnlyAreCounted() {
        SynthConfig two = job();
        two.dp = 2;
        auto a = generateAndLoad(job());
        auto b = generateAndLoad(two);
        const RunComparison c = compareRuns(a->graph, b->graph);
        QCOMPARE(c.ranks.size(), std::size_t{2});
        QCOMPARE(c.onlyBefore.size(), std::size_t{2});
        QCOMPARE(c.warnings.count(Warn::CompareRanksUnpaired), std::int64_t{2});
        QVERIFY(!c.warnings.has(Warn::CompareRanksByOrder));
        QVERIFY(!c.warnings.has(Warn::CompareGpusDiffer));
    }
};

QTEST_GUILESS_MAIN(TestRunComparison)
#include "test_RunComparison.moc"
