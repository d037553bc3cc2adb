// What limits the step, named by rank and event: the straggler sample (rank 5 runs 1.3x slower and
// the collectives wait for it), the DLRM step (rank 7 enters 7.5 ms after rank 1, then loads data
// before its first GPU call), and the fallback to the path's largest kind on a sample without either.
// On a generated 64-rank job (dp 8 x tp 4 x pp 2) the path crosses many ranks and the straggler
// holds only a fifth of it: the card still names it, and names nobody when there is none. A
// straggler among the ranks dp.degree adds is named by its own id, not by the rank it copies. A rank
// whose host alone is slow (the generator's --cpu-slow-rank) is named with its host, the numbers
// checked against the raw files; a pipeline's last stage that arrives last at the sends and
// receives of a sped-up step is not a straggler. Under replay the card (simulated) and the rank
// overview's "late: rN" (measured arrivals, lateRank) name the same rank, or none.
#include "GraphFixture.h"
#include "SynthFixture.h"

#include "analysis/CollectiveArrivals.h"
#include "analysis/LimitingCause.h"
#include "analysis/StepExplanation.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace sl;
using namespace slgraph;

namespace {

LimitingCause causeOf(const ExecutionGraph& g, const SimKnobs& knobs = {}) {
    const SimResult r = simulate(g, knobs);
    return limitingCause(g, criticalPath(g, r), r);
}

// dp 8 x tp 4 x pp 2, eight GPUs per node (the job `sightline-cli generate --dp 8 --tp 4 --pp 2`
// writes), with rank 37 (stage 1, replica 1) running its kernels 1.5x longer.
synth::SynthConfig job64(int straggler) {
    synth::SynthConfig c;
    c.dp = 8;
    c.tp = 4;
    c.pp = 2;
    c.stragglerRank = straggler;
    c.stragglerSlowdown = straggler >= 0 ? 1.5 : 1.0;
    return c;
}

// From the raw files alone (generated ranks share one clock): per rank the time of its launch calls
// and the start of its k-th NCCL kernel (us).
struct RawRank {
    double launches = 0;
    std::vector<double> ncclStarts;
};
std::vector<RawRank> rawRanks(const QString& dir, int ranks) {
    std::vector<RawRank> out(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        QFile f(QDir(dir).filePath(QStringLiteral("rank-%1.json").arg(r)));
        if (!f.open(QIODevice::ReadOnly)) return {};
        const QJsonArray events = QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray();
        RawRank& raw = out[static_cast<std::size_t>(r)];
        for (const auto& v : events) {
            const QJsonObject e = v.toObject();
            if (e["ph"].toString() != "X") continue;
            if (e["cat"].toString() == "cuda_runtime" && e["name"].toString() == "cudaLaunchKernel")
                raw.launches += e["dur"].toDouble();
            if (e["cat"].toString() == "kernel" && e["name"].toString().startsWith("nccl"))
                raw.ncclStarts.push_back(e["ts"].toDouble());
        }
        std::sort(raw.ncclStarts.begin(), raw.ncclStarts.end());
    }
    return out;
}

} // namespace

class TestLimitingCause : public QObject {
    Q_OBJECT
private slots:
    void stragglerSampleNamesTheSlowRank() {
        const LoadedSet& s = loadCached(sltest::samplePath("01-dp8-straggler"));
        const LimitingCause c = causeOf(s.graph);
        qInfo("01-dp8-straggler: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 5);
        QVERIFY2(c.slowdown > 1.2 && c.slowdown < 1.4, qPrintable(QString::number(c.slowdown)));
        QVERIFY(c.collectivesWaited > 0);
        QCOMPARE(c.collectivesLast, c.collectivesWaited);
        QVERIFY2(c.sentence.starts_with(
                     "rank 5 runs 1.3x slower than the others and every collective waits for it"),
                 c.sentence.c_str());
        // The old sentence named the 65 us late start instead.
        QVERIFY(c.sentence.find("late") == std::string::npos);
    }

    // Under straggler.rank=2 (x2) the cause follows the knob: rank 2 now holds the path.
    void followsTheKnobs() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        SimKnobs k;
        k.stragglerRank = 2;
        k.stragglerSlowdown = 2;
        const LimitingCause c = causeOf(s.graph, k);
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 2);
        QVERIFY2(c.slowdown > 1.8, qPrintable(QString::number(c.slowdown)));
    }

    void dlrmRank7EntersLate() {
        SL_REQUIRE_TRACES();
        const LoadedSet& s = loadCached(sltest::tracePath("dlrm-8rank-v100/kineto"));
        const LimitingCause c = causeOf(s.graph);
        qInfo("DLRM: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::LateStart);
        QCOMPARE(c.rankId, 7);
        QCOMPARE(c.earliestRankId, 1);
        QVERIFY(c.enteredAfter > 7'400'000 && c.enteredAfter < 7'700'000);
        QVERIFY(c.beforeFirstCall > 1'000'000 && c.beforeFirstCall < 1'400'000);
        QVERIFY2(c.beforeOp.find("DataLoader") != std::string::npos, c.beforeOp.c_str());
        QVERIFY2(c.sentence.starts_with("rank 7 enters the step 7.5"), c.sentence.c_str());
        QVERIFY2(c.sentence.find("loading data") != std::string::npos, c.sentence.c_str());
        QVERIFY(c.sharePct > 35 && c.sharePct < 50);
    }

    // 64 ranks: the path runs through rank 37 (19%) until the replicas' gradient all-reduce, which
    // holds most of it (73%, on rank 16). The card named only that all-reduce ("communication
    // kernels on rank 16"), never the rank the others waited for.
    void generated64NamesTheStraggler() {
        const auto l = slsynth::generateAndLoad(job64(37));
        QCOMPARE(l->set.ranks.size(), std::size_t{64});
        const LimitingCause c = causeOf(l->graph);
        qInfo("64 ranks, straggler 37: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 37);
        QVERIFY2(c.slowdown > 1.4 && c.slowdown < 1.6, qPrintable(QString::number(c.slowdown)));
        // Most of the collectives it joins where someone waited wait for it.
        QVERIFY2(c.collectivesLast * 2 > c.collectivesWaited,
                 qPrintable(QStringLiteral("%1 of %2").arg(c.collectivesLast).arg(c.collectivesWaited)));
        QVERIFY2(c.sentence.starts_with("rank 37 runs 1.5x slower than the others"), c.sentence.c_str());
        // It holds part of the path; what holds most of it is said as well.
        QVERIFY2(c.sharePct > 10 && c.sharePct < 50, qPrintable(QString::number(c.sharePct)));
        QVERIFY2(c.sentence.find("% is communication kernels on rank") != std::string::npos,
                 c.sentence.c_str());
    }

    // The same job without a straggler: no rank is named as the one the others wait for.
    void generated64WithoutStragglerNamesNoRank() {
        const auto l = slsynth::generateAndLoad(job64(-1));
        const LimitingCause c = causeOf(l->graph);
        qInfo("64 ranks, no straggler: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::PathKind);
        // Nor on a pipeline sample: its last stage arrives last at most transfers without being slow.
        QCOMPARE(causeOf(loadCached(sltest::samplePath("03-tp2-pp2")).graph).kind,
                 LimitingCause::Kind::PathKind);
    }

    // `generate --cpu-slow-rank 3 --cpu-slowdown 2`: rank 3's host runs twice as slow, its kernels
    // as fast as the others'. The card said "GPU compute (most on rank 5)" on the 8-rank job (rank 3
    // holds 30% of the path: the others wait for it at the first all-reduces, the ones after queue
    // behind those) and "rank 3 arrives last ..." on a small model whose host bounds the step, never
    // that the host is what is slow.
    void slowHostIsNamed_data() {
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("seq");
        QTest::newRow("GPU-bound step") << 4096 << 2048;
        QTest::newRow("host-bound step") << 1024 << 512;
    }
    void slowHostIsNamed() {
        QFETCH(int, hidden);
        QFETCH(int, seq);
        synth::SynthConfig cfg;
        cfg.hidden = hidden;
        cfg.seq = seq;
        cfg.cpuSlowRank = 3;
        cfg.cpuSlowdown = 2;
        const auto l = slsynth::generateAndLoad(cfg);
        const LimitingCause c = causeOf(l->graph);
        qInfo("slow host on rank 3: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowHost);
        QCOMPARE(c.rankId, 3);
        // Independently: rank 3's launch calls against the median of the others' (every host cost is
        // doubled, launches among them), and who started each NCCL kernel last.
        const std::vector<RawRank> raw = rawRanks(l->dir.path(), 8);
        QCOMPARE(raw.size(), std::size_t{8});
        std::vector<double> others;
        for (int r = 0; r < 8; ++r)
            if (r != 3) others.push_back(raw[static_cast<std::size_t>(r)].launches);
        std::sort(others.begin(), others.end());
        const double rawHost = raw[3].launches / others[others.size() / 2];
        qInfo("host %.3fx (launch calls in the files: %.3fx), GPU %.3fx", c.hostSlowdown, rawHost,
              c.slowdown);
        QVERIFY2(rawHost > 1.8 && rawHost < 2.2, qPrintable(QString::number(rawHost)));
        QVERIFY2(std::abs(c.hostSlowdown - rawHost) < 0.15, qPrintable(QString::number(c.hostSlowdown)));
        QVERIFY2(c.slowdown < 1.05, qPrintable(QString::number(c.slowdown)));
        int waited = 0, last3 = 0;
        for (std::size_t k = 0; k < raw[0].ncclStarts.size(); ++k) {
            double first = 1e300, latest = -1e300;
            int latestRank = -1;
            for (int r = 0; r < 8; ++r) {
                QCOMPARE(raw[static_cast<std::size_t>(r)].ncclStarts.size(), raw[0].ncclStarts.size());
                const double t = raw[static_cast<std::size_t>(r)].ncclStarts[k];
                first = std::min(first, t);
                if (t > latest) latest = t, latestRank = r;
            }
            if (latest - first <= 1.0) continue; // entered together: nobody waited
            ++waited;
            if (latestRank == 3) ++last3;
        }
        qInfo("collectives where someone waited: %d, rank 3 last at %d (raw); card %d of %d", waited, last3,
              c.collectivesLast, c.collectivesWaited);
        QVERIFY(waited > 0);
        QCOMPARE(c.collectivesWaited, waited);
        QCOMPARE(c.collectivesLast, last3);
        const std::string waits = last3 == waited ? "every collective waits for it"
                                                  : std::to_string(last3) + " of " + std::to_string(waited) +
                                                        " collectives wait for it";
        QVERIFY2(c.sentence.starts_with("rank 3's host runs 2.0x slower than the others' and " + waits),
                 c.sentence.c_str());
    }

    // 03-tp2-pp2 with compute.speedup=2: rank 3 (the last pipeline stage) arrived last at 51 of 65
    // transfers and held 93% of the path, and the card named it ("rank 3 arrives last"), although
    // nothing on it is slow: the last stage waits for the others' sends as much as they wait for it.
    void pipelineLastStageIsNoStraggler() {
        const LoadedSet& s = loadCached(sltest::samplePath("03-tp2-pp2"));
        const LimitingCause c = causeOf(s.graph, knobsOf({"compute.speedup=2"}));
        qInfo("03-tp2-pp2, compute.speedup=2: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::PathKind);
        QVERIFY2(c.sentence.find("arrives last") == std::string::npos, c.sentence.c_str());
        // A real straggler on that stage still is one: its tensor-parallel peer waits for it.
        const LimitingCause slow =
            causeOf(s.graph, knobsOf({"compute.speedup=2", "straggler.rank=3", "straggler.slowdown=1.5"}));
        qInfo("... with straggler.rank=3 x1.5: %s", slow.sentence.c_str());
        QCOMPARE(slow.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(slow.rankId, 3);
    }

    // The window's two answers agree under replay: the card from the simulated run, the rank
    // overview's "late: rN" from the measured arrivals (the overview named the rank charged the most
    // waits at any collective: r3 of 03-tp2-pp2, a few microseconds at a time).
    void cardAndOverviewAgreeUnderReplay_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("straggler");
        QTest::addColumn<int>("slowHost");
        QTest::addColumn<int>("expected");
        QTest::newRow("01-dp8-straggler") << "01-dp8-straggler" << 0 << 0 << 0 << -1 << -1 << 5;
        QTest::newRow("02-dp4") << "02-dp4" << 0 << 0 << 0 << -1 << -1 << -1;
        QTest::newRow("03-tp2-pp2") << "03-tp2-pp2" << 0 << 0 << 0 << -1 << -1 << -1;
        QTest::newRow("04-dp2-tp2-pp2") << "04-dp2-tp2-pp2-2nodes" << 0 << 0 << 0 << -1 << -1 << -1;
        QTest::newRow("64 ranks, straggler 37") << "" << 8 << 4 << 2 << 37 << -1 << 37;
        QTest::newRow("64 ranks") << "" << 8 << 4 << 2 << -1 << -1 << -1;
        QTest::newRow("16 ranks, straggler 12") << "" << 4 << 2 << 2 << 12 << -1 << 12;
        QTest::newRow("dp2 tp2 pp4, straggler 9") << "" << 2 << 2 << 4 << 9 << -1 << 9;
        QTest::newRow("dp8, slow host 3") << "" << 8 << 1 << 1 << -1 << 3 << 3;
    }
    void cardAndOverviewAgreeUnderReplay() {
        QFETCH(QString, set);
        QFETCH(int, straggler);
        QFETCH(int, slowHost);
        QFETCH(int, expected);
        std::unique_ptr<slsynth::Loaded> generated;
        const ExecutionGraph* g = nullptr;
        if (!set.isEmpty()) {
            g = &loadCached(sltest::samplePath(qPrintable(set))).graph;
        } else {
            synth::SynthConfig cfg = job64(straggler);
            QFETCH(int, dp);
            QFETCH(int, tp);
            QFETCH(int, pp);
            cfg.dp = dp;
            cfg.tp = tp;
            cfg.pp = pp;
            cfg.cpuSlowRank = slowHost;
            cfg.cpuSlowdown = slowHost >= 0 ? 2.0 : 1.0;
            generated = slsynth::generateAndLoad(cfg);
            g = &generated->graph;
        }
        const LimitingCause c = causeOf(*g);
        const bool named = c.kind == LimitingCause::Kind::SlowRank || c.kind == LimitingCause::Kind::SlowHost;
        const int card = named ? c.rankId : -1;
        const LateRank late = lateRank(*g, collectiveArrivals(*g));
        const int overview = late.latest < 0 ? -1 : g->ranks[static_cast<std::size_t>(late.latest)].rankId;
        qInfo("card %d (%s), overview %d", card, c.sentence.c_str(), overview);
        QCOMPARE(card, expected);
        QCOMPARE(overview, expected);
    }

    // dp.degree=8 on four loaded ranks with the straggler on added rank 6 (a copy of rank 2): the
    // card named rank 2, the source whose nodes rank 6 runs.
    void addedRankStragglerIsNamedByItsOwnId() {
        const LoadedSet& s = loadCached(sltest::samplePath("02-dp4"));
        const SimResult r =
            simulate(s.graph, knobsOf({"dp.degree=8", "straggler.rank=6", "straggler.slowdown=2"}));
        QCOMPARE(r.addedRanks.count(), std::size_t{4});
        const LimitingCause c = limitingCause(s.graph, criticalPath(s.graph, r), r);
        qInfo("02-dp4, dp.degree=8, straggler 6: %s", c.sentence.c_str());
        QCOMPARE(c.kind, LimitingCause::Kind::SlowRank);
        QCOMPARE(c.rankId, 6);
        QVERIFY2(c.slowdown > 1.8, qPrintable(QString::number(c.slowdown)));
        QVERIFY2(c.sentence.starts_with("rank 6 "), c.sentence.c_str());
    }

    // Neither a late start nor one rank the others wait for: the kind holding most of the path.
    void fallsBackToThePathKind() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 10, 5, 1), gpu("k1", 20, 100, 1)})});
        const LimitingCause c = causeOf(f.graph);
        QCOMPARE(c.kind, LimitingCause::Kind::PathKind);
        const SimResult r = simulate(f.graph);
        QCOMPARE(c.sentence, stepLimit(f.graph, criticalPath(f.graph, r)).sentence);
        QVERIFY(limitingCause(f.graph, CriticalPath{}, r).sentence.empty());
    }
};

QTEST_GUILESS_MAIN(TestLimitingCause)
#include "test_LimitingCause.moc"
