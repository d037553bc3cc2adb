// Temporal breakdown (HTA definitions) on hand-made intervals and on the real DLRM ranks.
#include "GraphFixture.h"
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "io/KinetoLoader.h"
#include "sim/Simulator.h"

using namespace sl;

Q_DECLARE_METATYPE(std::vector<sl::OpInterval>)

class TestBreakdown : public QObject {
    Q_OBJECT

private slots:
    void intervals_data() {
        QTest::addColumn<std::vector<OpInterval>>("ops");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("comm");
        QTest::addColumn<qint64>("exposed");
        QTest::addColumn<qint64>("idle");
        QTest::addColumn<double>("overlapPct");
        const auto C = OpClass::Compute, N = OpClass::Communication, M = OpClass::MemcpyMemset;
        QTest::newRow("fully hidden") << std::vector<OpInterval>{{0, 100, 0, C}, {10, 50, 0, N}} << 100LL
                                      << 40LL << 0LL << 0LL << 100.0;
        QTest::newRow("fully exposed") << std::vector<OpInterval>{{0, 100, 0, C}, {150, 200, 0, N}} << 100LL
                                       << 50LL << 50LL << 50LL << 0.0;
        QTest::newRow("half hidden") << std::vector<OpInterval>{{0, 100, 0, C}, {50, 150, 0, N}} << 100LL
                                     << 100LL << 50LL << 0LL << 50.0;
        // Overlapping compute kernels on two streams count once (union); memcpy is neither.
        QTest::newRow("union and memory")
            << std::vector<OpInterval>{{0, 60, 0, C}, {40, 100, 0, C}, {120, 130, 0, M}} << 100LL << 0LL
            << 0LL << 20LL << 0.0;
        // Compute on another device does not hide communication.
        QTest::newRow("other device") << std::vector<OpInterval>{{0, 100, 1, C}, {0, 100, 0, N}} << 100LL
                                      << 100LL << 100LL << 0LL << 0.0;
        QTest::newRow("empty") << std::vector<OpInterval>{} << 0LL << 0LL << 0LL << 0LL << 0.0;
    }
    void intervals() {
        QFETCH(std::vector<OpInterval>, ops);
        QFETCH(qint64, compute);
        QFETCH(qint64, comm);
        QFETCH(qint64, exposed);
        QFETCH(qint64, idle);
        QFETCH(double, overlapPct);
        RankBreakdown b = breakdownOf(3, ops);
        QCOMPARE(b.rank, 3);
        QCOMPARE(b.compute, compute);
        QCOMPARE(b.communication, comm);
        QCOMPARE(b.exposedCommunication, exposed);
        QCOMPARE(b.idle, idle);
        QCOMPARE(b.overlapPct(), overlapPct);
    }

    void exposedIntervalsMatchTheBreakdown() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        auto totals = measuredBreakdown(set);
        auto spans = measuredExposedCommunication(set);
        QCOMPARE(spans.size(), set.ranks.size());
        for (std::size_t r = 0; r < spans.size(); ++r) {
            TimeNs sum = 0;
            for (std::size_t k = 0; k < spans[r].size(); ++k) {
                QVERIFY(spans[r][k].end > spans[r][k].start);
                if (k) QVERIFY(spans[r][k].start > spans[r][k - 1].end);
                sum += spans[r][k].end - spans[r][k].start;
            }
            QCOMPARE(sum, totals[r].exposedCommunication);
        }
    }

    void dlrmMeasured() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        auto all = measuredBreakdown(set);
        QCOMPARE(all.size(), std::size_t(8));
        for (const auto& b : all) {
            QVERIFY(b.compute > 0);
            QVERIFY(b.communication > 0);
            QVERIFY(b.exposedCommunication <= b.communication);
            QVERIFY(b.exposedCommunication >= 0);
            QVERIFY(b.idle >= 0);
            // The parts never exceed the span: compute + memory + exposed comm + idle covers it
            // at most once (compute may overlap memory, so this is an upper bound check).
            QVERIFY(b.idle + b.exposedCommunication <= b.span);
            QVERIFY(b.compute <= b.span);
        }
    }

    void opClass() {
        SL_REQUIRE_TRACES();
        Rank r = loadKinetoFile(sltest::tracePath("single-rank/a100-nccl-metadata-rank0of2.json.gz"));
        int comm = 0, memory = 0;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            for (std::uint32_t i = 0; i < r.tracks[t].events.size(); ++i) {
                if (!isGpuOp(r.tracks[t].events.kind[i])) continue;
                OpClass c = opClassOf(r, {t, i});
                comm += c == OpClass::Communication;
                memory += c == OpClass::MemcpyMemset;
            }
        QCOMPARE(comm, int(r.collectives.size()));
        QCOMPARE(memory, 960 + 114);
    }

    // Rank 0 reaches the all-reduce at 20 us, rank 1 at 60 us; the transfer takes 60 us. Rank 0
    // waits 40 us and transfers 60 us; a 2x network halves only the transfer.
    void collectiveWaitAndTransfer() {
        slgraph::Fixture f;
        f.load(slgraph::twoRankAllReduce());
        auto m = measuredCommSplit(f.graph);
        QCOMPARE(m[0].wait, slgraph::us(40));
        QCOMPARE(m[0].transfer, slgraph::us(60));
        QCOMPARE(m[0].exposedWait, slgraph::us(40)); // no compute kernel on rank 0
        QCOMPARE(m[1].wait, TimeNs(0));
        SimKnobs k;
        k.commSpeedup = 2;
        auto s = simulatedCommSplit(f.graph, simulate(f.graph, k));
        QCOMPARE(s[0].wait, slgraph::us(40));
        QCOMPARE(s[0].transfer, slgraph::us(30));
        QCOMPARE(s[0].exposedTransfer, slgraph::us(30));
    }
};

QTEST_GUILESS_MAIN(TestBreakdown)
#include "test_Breakdown.moc"
