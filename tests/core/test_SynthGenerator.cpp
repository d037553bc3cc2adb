// The synthetic workload generator: generated sets load like real traces, match the configured
// shape (ranks, streams, collectives per step), follow the schedule, and replay within 1%.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

using namespace sl;
using namespace sl::synth;

namespace {

SynthConfig small() {
    SynthConfig c;
    c.layers = 2;
    c.hidden = 1024;
    c.heads = 16;
    c.seq = 512;
    c.vocab = 8192;
    c.dp = 1;
    return c;
}

TraceSet generateAndLoad(const SynthConfig& c, QTemporaryDir& dir) {
    auto result = generate(c, dir.path().toStdString(), 2);
    if (result.files.size() != static_cast<std::size_t>(c.worldSize())) qFatal("wrong file count");
    return loadTraceSet({dir.path().toStdString()});
}

struct RankComms {
    std::map<std::string, int> byDesc; // process group description -> collective kernels
    std::map<CollectiveType, int> byType;
    std::int64_t dpElements = 0;
    int withoutMetadata = 0;
};

std::string groupDesc(const Rank& r, const CollectiveMeta& m) {
    std::string_view name = r.strings.str(m.processGroupName);
    for (const auto& pg : r.processGroups)
        if (pg.name == name) return pg.description;
    return "?";
}

RankComms comms(const Rank& r) {
    RankComms out;
    for (const auto& m : r.collectives) {
        if (!m.hasMetadata) ++out.withoutMetadata;
        std::string desc = groupDesc(r, m);
        ++out.byDesc[desc];
        ++out.byType[m.type];
        if (desc == "dp") out.dpElements += m.inNelems;
    }
    return out;
}

std::set<std::int64_t> streams(const Rank& r) {
    std::set<std::int64_t> s;
    for (const auto& t : r.tracks)
        if (t.isGpu()) s.insert(t.stream());
    return s;
}

// Names of the user annotations on the CPU thread that start with prefix, in time order.
std::vector<std::string> annotations(const Rank& r, std::string_view prefix) {
    std::vector<std::string> out;
    for (const auto& t : r.tracks) {
        if (t.isGpu()) continue;
        for (std::size_t i = 0; i < t.events.size(); ++i) {
            std::string_view n = r.strings.str(t.events.name[i]);
            if (t.events.kind[i] == EventKind::UserAnnotation && n.substr(0, prefix.size()) == prefix)
                out.emplace_back(n);
        }
    }
    return out;
}

void checkShape(const TraceSet& set, const SynthConfig& c) {
    QCOMPARE(static_cast<int>(set.ranks.size()), c.worldSize());
    QVERIFY2(set.warnings.empty(), set.warnings.empty() ? "" : set.warnings.front().c_str());
    for (const auto& r : set.ranks) {
        QVERIFY(r.rankFromFile);
        QCOMPARE(r.worldSize, c.worldSize());
        QCOMPARE(r.backend, std::string("nccl"));
        QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t(0));
        QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().c_str());
        QCOMPARE(r.flowsByCategory.count("ac2g"), std::size_t(1));
        QVERIFY(r.eventsByKind[static_cast<int>(EventKind::CudaSync)] > 0);
        QCOMPARE(static_cast<int>(annotations(r, "ProfilerStep#").size()), c.steps);

        ExpectedComms e = expectedComms(c, r.rank);
        RankComms got = comms(r);
        QCOMPARE(got.withoutMetadata, 0);
        QCOMPARE(got.byDesc["tp"], e.tpAllReduces * c.steps);
        QCOMPARE(got.byDesc["dp"], e.dpAllReduces * c.steps);
        QCOMPARE(got.byDesc["pp_fwd"] + got.byDesc["pp_bwd"], (e.ppSends + e.ppRecvs) * c.steps);
        QCOMPARE(got.byType[CollectiveType::Send], e.ppSends * c.steps);
        QCOMPARE(got.byType[CollectiveType::Recv], e.ppRecvs * c.steps);
        QCOMPARE(got.dpElements, e.dpGradientElements * c.steps);

        std::set<std::int64_t> want{7};
        if (c.tp > 1) want.insert(20);
        if (c.dp > 1) want.insert(24);
        if (e.ppSends > 0) want.insert({28, 32});
        QCOMPARE(streams(r), want);
        std::int64_t kernels = 0;
        for (const auto& t : r.tracks)
            if (t.isGpu() && t.stream() == 7)
                for (auto k : t.events.kind)
                    kernels += k == EventKind::Kernel;
        QCOMPARE(kernels, std::int64_t(e.computeKernels) * c.steps);
    }
}

// The k-th collective kernel of a process group ends at the same time on every member.
void checkCollectivesEndTogether(const TraceSet& set) {
    std::map<std::pair<std::string, int>, std::set<TimeNs>> ends;
    for (const auto& r : set.ranks) {
        std::map<std::string, std::vector<TimeNs>> byGroup;
        for (const auto& m : r.collectives) {
            const auto& ev = r.tracks[m.kernel.track].events;
            byGroup[std::string(r.strings.str(m.processGroupName))].push_back(ev.end(m.kernel.index));
        }
        for (auto& [g, v] : byGroup) {
            std::sort(v.begin(), v.end());
            for (std::size_t k = 0; k < v.size(); ++k)
                ends[{g, static_cast<int>(k)}].insert(v[k]);
        }
    }
    QVERIFY(!ends.empty());
    for (const auto& [key, set1] : ends)
        QVERIFY2(set1.size() == 1, ("group " + key.first + " #" + std::to_string(key.second)).c_str());
}

double replayError(const TraceSet& set, double* worstRank, std::vector<std::string>* warnings) {
    ExecutionGraph g = buildExecutionGraph(set);
    SimResult r = simulate(g);
    *warnings = r.warnings;
    *worstRank = 0;
    for (const auto& rs : r.ranks)
        *worstRank = std::max(*worstRank, rs.errorPct());
    return r.iterationErrorPct();
}

} // namespace

class TestSynthGenerator : public QObject {
    Q_OBJECT

private slots:
    void dataParallelShape() {
        SynthConfig c = small();
        c.dp = 4;
        c.steps = 2;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        checkShape(set, c);
        checkCollectivesEndTogether(set);
        QVERIFY(expectedComms(c, 0).dpAllReduces >= 1);
    }

    void threeDParallelShape() {
        SynthConfig c = small();
        c.layers = 4;
        c.dp = 2;
        c.tp = 2;
        c.pp = 2;
        c.microbatches = 4;
        c.gpusPerNode = 4;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        checkShape(set, c);
        checkCollectivesEndTogether(set);
        // Process groups in distributedInfo: default, tp, dp, pp_fwd, pp_bwd.
        const Rank& r0 = set.ranks[0];
        std::set<std::string> descs;
        for (const auto& pg : r0.processGroups)
            descs.insert(pg.description);
        QCOMPARE(descs, (std::set<std::string>{"default_pg", "tp", "dp", "pp_fwd", "pp_bwd"}));
    }

    void pipelineScheduleIsOneFOneB() {
        QCOMPARE(oneFOneBSchedule(4, 0, 6), (std::vector<int>{0, 1, 2, 3, -1, 4, -2, 5, -3, -4, -5, -6}));
        QCOMPARE(oneFOneBSchedule(4, 3, 3), (std::vector<int>{0, -1, 1, -2, 2, -3}));
        QCOMPARE(oneFOneBSchedule(1, 0, 2), (std::vector<int>{0, -1, 1, -2}));
        QCOMPARE(oneFOneBSchedule(4, 1, 1), (std::vector<int>{0, -1}));

        // The trace follows it: stage 0 of 3 runs two warm-up forwards before its first backward.
        SynthConfig c = small();
        c.layers = 3;
        c.pp = 3;
        c.microbatches = 4;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        checkShape(set, c);
        auto order = annotations(set.ranks[0], "");
        std::vector<std::string> steps;
        for (const auto& n : order)
            if (n.rfind("forward_step#", 0) == 0 || n.rfind("backward_step#", 0) == 0) steps.push_back(n);
        QCOMPARE(steps, (std::vector<std::string>{"forward_step#0", "forward_step#1", "forward_step#2",
                                                  "backward_step#0", "forward_step#3", "backward_step#1",
                                                  "backward_step#2", "backward_step#3"}));
        // The last stage alternates from the start.
        order = annotations(set.ranks[2], "forward_step#");
        QCOMPARE(static_cast<int>(order.size()), 4);
    }

    void parallelismChangesTheTrace() {
        SynthConfig base = small();
        base.dp = 2;
        ExpectedComms dp2 = expectedComms(base, 0);
        QCOMPARE(dp2.tpAllReduces, 0);
        QCOMPARE(dp2.ppSends, 0);
        QVERIFY(dp2.dpAllReduces > 0);

        SynthConfig tp = base;
        tp.tp = 2;
        ExpectedComms tp2 = expectedComms(tp, 0);
        QCOMPARE(tp2.tpAllReduces, 4 * tp.layers);
        // Shards halve the gradients (up to the unsharded final layer norm).
        QVERIFY(std::abs(double(tp2.dpGradientElements * 2 - dp2.dpGradientElements)) <
                1e-3 * double(dp2.dpGradientElements));

        SynthConfig pp = base;
        pp.pp = 2;
        pp.microbatches = 3;
        QCOMPARE(expectedComms(pp, 0).ppSends, 3);                     // activations forward
        QCOMPARE(expectedComms(pp, rankOf(pp, {1, 0, 0})).ppSends, 3); // gradients back
        SynthConfig pp3 = pp;
        pp3.pp = 3;
        pp3.layers = 3;
        QCOMPARE(expectedComms(pp3, rankOf(pp3, {1, 0, 0})).ppSends, 6); // middle stage: both ways

        SynthConfig nodp = base;
        nodp.dp = 1;
        QCOMPARE(expectedComms(nodp, 0).dpAllReduces, 0);
    }

    void deterministicForASeed() {
        SynthConfig c = small();
        c.dp = 2;
        c.tp = 2;
        auto a = generateJson(c);
        auto b = generateJson(c);
        QVERIFY(a == b);
        c.seed = 7;
        auto d = generateJson(c);
        QVERIFY(a != d);
    }

    void stragglerIsSlower() {
        SynthConfig c = small();
        c.dp = 4;
        c.stragglerRank = 2;
        c.stragglerSlowdown = 2.0;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        auto computeTime = [](const Rank& r) {
            TimeNs sum = 0;
            for (const auto& t : r.tracks)
                if (t.isGpu() && t.stream() == 7)
                    for (std::size_t i = 0; i < t.events.size(); ++i)
                        if (t.events.kind[i] == EventKind::Kernel) sum += t.events.duration[i];
            return static_cast<double>(sum);
        };
        double ratio = computeTime(set.ranks[2]) / computeTime(set.ranks[1]);
        QVERIFY2(ratio > 1.8 && ratio < 2.2, qPrintable(QString::number(ratio)));
        // Everyone's gradient all-reduce waits for the straggler: same end on all ranks.
        checkCollectivesEndTogether(set);
    }

    void badConfigurationsAreRejected() {
        auto rejects = [](auto change) {
            SynthConfig c = small();
            change(c);
            try {
                c.validate();
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(rejects([](SynthConfig& c) { c.dp = 0; }));
        QVERIFY(rejects([](SynthConfig& c) { c.pp = 3; })); // 2 layers
        QVERIFY(rejects([](SynthConfig& c) { c.tp = 3; })); // 16 heads
        QVERIFY(rejects([](SynthConfig& c) { c.gpu = "v100"; }));
        QVERIFY(rejects([](SynthConfig& c) { c.stragglerRank = 5; }));
        QVERIFY(rejects([](SynthConfig& c) { c.stragglerSlowdown = 0.5; }));
        QVERIFY(!rejects([](SynthConfig&) {}));
    }

    void replayIsWithinOnePercent_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("straggler");
        QTest::newRow("dp4") << 4 << 1 << 1 << -1;
        QTest::newRow("dp4 straggler") << 4 << 1 << 1 << 1;
        QTest::newRow("tp2 pp2") << 1 << 2 << 2 << -1;
        QTest::newRow("dp2 tp2 pp2") << 2 << 2 << 2 << -1;
    }
    void replayIsWithinOnePercent() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, straggler);
        SynthConfig c = small();
        c.dp = dp;
        c.tp = tp;
        c.pp = pp;
        c.microbatches = pp > 1 ? 4 : 1;
        c.stragglerRank = straggler;
        c.stragglerSlowdown = straggler >= 0 ? 1.5 : 1.0;
        QTemporaryDir dir;
        TraceSet set = generateAndLoad(c, dir);
        double worst = 0;
        std::vector<std::string> warnings;
        double err = replayError(set, &worst, &warnings);
        // Every collective is matched across ranks (pipelines: the simulator does not yet pair a
        // send with its recv, so those keep their measured durations, which replays exactly too).
        if (pp == 1) QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());
        QVERIFY2(err < 1.0, qPrintable(QString("iteration error %1%").arg(err)));
        QVERIFY2(worst < 1.0, qPrintable(QString("worst rank error %1%").arg(worst)));
    }
};

QTEST_GUILESS_MAIN(TestSynthGenerator)
#include "test_SynthGenerator.moc"
