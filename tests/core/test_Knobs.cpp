// What-if knobs: parsing and range checks, presets, and meaningful, monotonic behaviour with
// numbers on the bundled samples and the real traces.
#include "GraphFixture.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "models/KernelClass.h"
#include "sim/KnobRegistry.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QDirIterator>

#include <fstream>
#include <map>
#include <memory>

using namespace sl;

namespace {

using Loaded = slgraph::LoadedSet;

const Loaded& load(const std::string& path) {
    return slgraph::loadCached(path);
}
std::string sample(const char* name) {
    return sltest::samplePath(name);
}

SimKnobs knobs(std::initializer_list<const char*> sets) {
    SimKnobs k;
    for (const char* s : sets)
        setKnobAssignment(k, s);
    return k;
}

TimeNs exposedSum(const Loaded& l, const SimResult& r) {
    TimeNs s = 0;
    for (const auto& b : simulatedBreakdown(l.set, r.timeline))
        s += b.exposedCommunication;
    return s;
}

std::string knobError(const char* assignment) {
    SimKnobs k;
    try {
        setKnobAssignment(k, assignment);
    } catch (const KnobError& e) {
        return e.what();
    }
    return {};
}

// Sets for the monotonic checks: every sample, the 8-rank DLRM job and the A100 rank with metadata.
QStringList allSets() {
    // The real sets are always rows: without ../shared they show as skipped (SL_REQUIRE_SET).
    return {"01-dp8-straggler",
            "02-dp4",
            "03-tp2-pp2",
            "04-dp2-tp2-pp2-2nodes",
            "real:dlrm-8rank-v100/kineto",
            "real:single-rank/a100-nccl-metadata-rank0of2.json.gz"};
}

// A set named "real:<path>" lives in ../shared/traces: the test skips when that is absent.
#define SL_REQUIRE_SET(name)                                                                                 \
    do {                                                                                                     \
        if ((name).startsWith("real:")) SL_REQUIRE_TRACES();                                                 \
    } while (0)

std::string pathOf(const QString& name) {
    if (name.startsWith("real:")) return sltest::tracePath(qPrintable(name.mid(5)));
    return sample(qPrintable(name));
}

} // namespace

class TestKnobs : public QObject {
    Q_OBJECT
private slots:
    void rangesAreChecked() {
        QVERIFY(knobError("compute.speedup=0").find("(0, 1e6]") != std::string::npos);
        QVERIFY(knobError("compute.speedup=-2").find("compute.speedup") != std::string::npos);
        QVERIFY(knobError("comm.speedup=nan").find("not a finite number") != std::string::npos);
        QVERIFY(knobError("comm.speedup=inf").find("not a finite number") != std::string::npos);
        QVERIFY(knobError("dp.scale=0.5").find("[1, 1e5]") != std::string::npos);
        QVERIFY(knobError("straggler.slowdown=0.5").find("[1, 1e6]") != std::string::npos);
        QVERIFY(knobError("straggler.rank=-3").find("(-1 = none)") != std::string::npos);
        QVERIFY(knobError("comm.gpus_per_node=5000").find("[1, 4096] (0 = from the trace)") !=
                std::string::npos);
        QVERIFY(knobError("comm.gpus_per_node=2.5").find("integer") != std::string::npos);
        QVERIFY(knobError("comm.intra_node_GBps=-1").find("GB/s") != std::string::npos);
        QVERIFY(knobError("comm.latency_us=-2").find("-1 = calibrated") != std::string::npos);
        QVERIFY(knobError("launch.latency_us=-5").find("-1 = from the trace") != std::string::npos);
        QVERIFY(knobError("comm.model=fast").find("measured or alpha-beta") != std::string::npos);
        QVERIFY(knobError("comm.algorithm=star").find("ring or tree") != std::string::npos);
        QVERIFY(knobError("comm.overlap=maybe").find("true or false") != std::string::npos);
        QVERIFY(knobError("comm.all_reduce.speed=3").find("unknown parameter") != std::string::npos);
        QVERIFY(knobError("comm.all_reduce.intra_node_GBps=0").find("(0, 1e6]") != std::string::npos);
        QVERIFY(knobError("comm.gossip.latency_us=1").find("valid keys") != std::string::npos);
        QVERIFY(knobError("kernel.class.other=foo").find("unknown kernel class") != std::string::npos);
        QVERIFY(knobError("kernel.class.gemm=(").find("invalid regular expression") != std::string::npos);
        QVERIFY(knobError("compute.speedup.tensor=2").find("unknown kernel class") != std::string::npos);
        // Valid edge values.
        QVERIFY(knobError("comm.gpus_per_node=0").empty());
        QVERIFY(knobError("comm.latency_us=-1").empty());
        QVERIFY(knobError("comm.all_reduce.latency_us=0").empty());
        QVERIFY(knobError("comm.send_recv.inter_node_latency_us=12.5").empty());
        QVERIFY(knobError("kernel.class.gemm=^my_(mm|gemm)").empty());
        SimKnobs k;
        QVERIFY(k.isReplay());
        QVERIFY(k.unsupported().empty());
        setKnobAssignment(k, "comm.all_reduce.intra_node_GBps=100");
        QCOMPARE(k.toJson()["comm.all_reduce.intra_node_GBps"].get<double>(), 100.0);
        QVERIFY(!k.isReplay());
    }

    void jsonConfigIgnoresLabels() {
        SimKnobs k;
        applyKnobsJson(k, nlohmann::json::parse(R"({"name":"x","description":"y","calibration":{"fits":[]},
            "comm":{"model":"alpha-beta","intra_node_GBps":200},"dp.scale":2})"));
        QCOMPARE(k.commModel, CommModel::AlphaBeta);
        QCOMPARE(k.commIntraNodeGBps, 200.0);
        QCOMPARE(k.dpScale, 2.0);
        QVERIFY_THROWS_EXCEPTION(KnobError, applyKnobsJson(k, nlohmann::json::parse(R"({"dp.scale":0})")));
    }

    void presetsLoad() {
        QDirIterator it(QStringLiteral(SIGHTLINE_SOURCE_DIR) + "/resources/presets", {"*.json"});
        QStringList names;
        while (it.hasNext()) {
            QString path = it.next();
            std::ifstream in(path.toStdString());
            nlohmann::json j = nlohmann::json::parse(in);
            QVERIFY2(j.is_object() && j["name"].is_string() && j["description"].is_string(),
                     qPrintable(path));
            for (auto e = j.begin(); e != j.end(); ++e) // flat: no nested objects
                QVERIFY(!e.value().is_object());
            SimKnobs k;
            applyKnobsJson(k, j);
            QVERIFY2(!k.isReplay(), qPrintable(path));
            names << QString::fromStdString(j["name"].get<std::string>());
        }
        names.sort();
        QCOMPARE(names, QStringList({"GPU 2x faster", "Network 2x faster", "No overlap", "One slow rank",
                                     "Scale data parallel 4x"}));
    }

    void kernelClasses() {
        KernelClassifier c;
        QCOMPARE(c.classify("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", EventKind::Kernel),
                 KernelClass::Gemm);
        QCOMPARE(c.classify("ampere_sgemm_128x64_tn", EventKind::Kernel), KernelClass::Gemm);
        QCOMPARE(
            c.classify("pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>", EventKind::Kernel),
            KernelClass::Attention);
        QCOMPARE(
            c.classify("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>",
                       EventKind::Kernel),
            KernelClass::Elementwise);
        QCOMPARE(c.classify("void at::native::reduce_kernel<512, 1>", EventKind::Kernel),
                 KernelClass::Reduction);
        QCOMPARE(c.classify("void cunn_SoftMaxForward<4>", EventKind::Kernel), KernelClass::Reduction);
        QCOMPARE(c.classify("Memcpy HtoD (Pageable -> Device)", EventKind::GpuMemcpy), KernelClass::Memory);
        QCOMPARE(c.classify("void at::native::index_select_kernel", EventKind::Kernel), KernelClass::Memory);
        QCOMPARE(c.classify("my_custom_kernel", EventKind::Kernel), KernelClass::Other);
        c.setPattern(KernelClass::Gemm, "^my_.*kernel$");
        QCOMPARE(c.classify("my_custom_kernel", EventKind::Kernel), KernelClass::Gemm);
        QCOMPARE(c.classify("ampere_sgemm_128x64_tn", EventKind::Kernel), KernelClass::Other);
    }

    // The <class> of the class knobs are the kernel classes' names (models/KernelClass.h), as the
    // knob reference documents them; "other" takes a speed-up but no name pattern.
    void classKnobKeysAreTheKernelClasses() {
        QStringList patterns;
        for (const KnobFamily& f : knobFamilies())
            patterns << QString::fromStdString(f.pattern);
        QVERIFY(patterns.contains("compute.speedup.<gemm|attention|elementwise|reduction|memory|other>"));
        QVERIFY(patterns.contains("kernel.class.<gemm|attention|elementwise|reduction|memory>"));
        for (int i = 0; i < kKernelClassCount; ++i) {
            const auto c = static_cast<KernelClass>(i);
            const std::string name(kernelClassName(c));
            SimKnobs k;
            setKnobAssignment(k, "compute.speedup." + name + "=2");
            QCOMPARE(k.computeClassSpeedup.at(name), 2.0);
            QCOMPARE(knobError(("kernel.class." + name + "=^x").c_str()).empty(), c != KernelClass::Other);
        }
    }

    // compute.speedup 1 -> 1.5 -> 2 -> 4: the iteration never grows and compute on the critical
    // path shrinks (DLRM and the A100 trace are host-bound: there it must not grow).
    void fasterGpuNeverSlower_data() {
        QTest::addColumn<QString>("set");
        for (const auto& s : allSets())
            QTest::newRow(qPrintable(s)) << s;
    }
    void fasterGpuNeverSlower() {
        QFETCH(QString, set);
        SL_REQUIRE_SET(set);
        const Loaded& l = load(pathOf(set));
        TimeNs prevIter = -1, prevCompute = -1;
        for (const char* v : {"1", "1.5", "2", "4"}) {
            SimKnobs k = knobs({});
            setKnob(k, "compute.speedup", v);
            SimResult r = simulate(l.graph, k);
            QVERIFY(r.complete);
            CriticalPath cp = criticalPath(l.graph, r);
            TimeNs compute = cp.byLabel[static_cast<int>(PathLabel::GpuCompute)];
            if (prevIter >= 0) {
                QVERIFY2(
                    r.simulatedIteration <= prevIter + 1000,
                    qPrintable(QString("%1 at %2 vs %3").arg(r.simulatedIteration).arg(v).arg(prevIter)));
                QVERIFY2(compute <= prevCompute + 1000,
                         qPrintable(QString("%1 vs %2").arg(compute).arg(prevCompute)));
            }
            prevIter = r.simulatedIteration;
            prevCompute = compute;
        }
        if (!set.startsWith("real:")) { // samples: a 4x faster GPU cuts the iteration, and halves compute
            SimResult base = simulate(l.graph);
            SimResult fast = simulate(l.graph, knobs({"compute.speedup=4"}));
            QVERIFY(static_cast<double>(fast.simulatedIteration) <
                    0.97 * static_cast<double>(base.simulatedIteration));
            QVERIFY(static_cast<double>(
                        criticalPath(l.graph, fast).byLabel[static_cast<int>(PathLabel::GpuCompute)]) <
                    0.5 * static_cast<double>(
                              criticalPath(l.graph, base).byLabel[static_cast<int>(PathLabel::GpuCompute)]));
        }
    }

    // comm.overlap=false never makes an iteration faster; on GPU-bound data-parallel sets it costs
    // what the overlap hid, and no collective overlaps compute any more (exposed == total).
    void noOverlapNeverFaster_data() { fasterGpuNeverSlower_data(); }
    void noOverlapNeverFaster() {
        QFETCH(QString, set);
        SL_REQUIRE_SET(set);
        const Loaded& l = load(pathOf(set));
        SimResult base = simulate(l.graph);
        SimResult serial = simulate(l.graph, knobs({"comm.overlap=false"}));
        QVERIFY(serial.complete);
        QVERIFY2(serial.simulatedIteration >= base.simulatedIteration - 1000,
                 qPrintable(QString("%1 < %2").arg(serial.simulatedIteration).arg(base.simulatedIteration)));
        if (set == "02-dp4" || set == "01-dp8-straggler") {
            QVERIFY(static_cast<double>(serial.simulatedIteration) >
                    1.10 * static_cast<double>(base.simulatedIteration));
            for (const auto& b : simulatedBreakdown(l.set, serial.timeline))
                QVERIFY2(b.exposedCommunication >= b.communication - 2000,
                         qPrintable(QString("rank %1: exposed %2 of %3")
                                        .arg(b.rank)
                                        .arg(b.exposedCommunication)
                                        .arg(b.communication)));
        }
    }

    // A network 1000x faster: exposed communication near zero where it is transfer time (data and
    // tensor parallel); pipeline receives still wait for the previous stage. The A100 file is rank
    // 0 of 2: its peer is a phantom that arrives when it did in the measured run, so what remains
    // exposed there is the wait for that peer (about 30% of it).
    void fastNetworkHidesCommunication_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<double>("remaining");
        QTest::newRow("02-dp4") << "02-dp4" << 0.01;
        QTest::newRow("a100") << "real:single-rank/a100-nccl-metadata-rank0of2.json.gz" << 0.5;
    }
    void fastNetworkHidesCommunication() {
        QFETCH(QString, set);
        SL_REQUIRE_SET(set);
        QFETCH(double, remaining);
        const Loaded& l = load(pathOf(set));
        SimResult base = simulate(l.graph);
        SimResult fast = simulate(l.graph, knobs({"comm.speedup=1000"}));
        TimeNs before = exposedSum(l, base), after = exposedSum(l, fast);
        QVERIFY(before > 0);
        QVERIFY2(static_cast<double>(after) < remaining * static_cast<double>(before),
                 qPrintable(QString("exposed %1 -> %2 ns").arg(before).arg(after)));
        QVERIFY(fast.simulatedIteration <= base.simulatedIteration);
        // The alpha-beta model with 1000x the calibrated bandwidth and no latency does the same.
        SimResult ab = simulate(l.graph, knobs({"comm.model=alpha-beta", "comm.intra_node_GBps=1e5",
                                                "comm.inter_node_GBps=1e5", "comm.latency_us=0"}));
        QVERIFY2(static_cast<double>(exposedSum(l, ab)) < 2 * remaining * static_cast<double>(before),
                 qPrintable(QString("alpha-beta exposed %1").arg(exposedSum(l, ab))));
    }

    // A straggler delays every rank that shares a collective with it.
    void stragglerDelaysPeers_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<int>("straggler");
        QTest::newRow("02-dp4") << "02-dp4" << 2;
        QTest::newRow("03-tp2-pp2") << "03-tp2-pp2" << 0;
        QTest::newRow("04") << "04-dp2-tp2-pp2-2nodes" << 5;
        QTest::newRow("dlrm") << "real:dlrm-8rank-v100/kineto" << 3;
    }
    void stragglerDelaysPeers() {
        QFETCH(QString, set);
        SL_REQUIRE_SET(set);
        QFETCH(int, straggler);
        const Loaded& l = load(pathOf(set));
        SimResult base = simulate(l.graph);
        SimKnobs k;
        k.stragglerRank = straggler;
        k.stragglerSlowdown = 1.5;
        SimResult slow = simulate(l.graph, k);
        // The last collective of every rank ends later; on the GPU-bound samples the iteration of
        // every rank grows too (DLRM is host-bound: ranks that do not wait for their collectives
        // on the host keep their iteration time).
        auto lastCollectiveEnd = [&](const SimResult& r, std::uint32_t rank) {
            TimeNs end = 0;
            for (NodeId n = 0; n < l.graph.nodes.size(); ++n)
                if (l.graph.nodes[n].rank == rank && l.graph.nodes[n].kind == NodeKind::Collective)
                    end = std::max(end, r.nodes[n].end);
            return end;
        };
        for (std::uint32_t r = 0; r < base.ranks.size(); ++r) {
            TimeNs cb = lastCollectiveEnd(base, r), cs = lastCollectiveEnd(slow, r);
            QVERIFY(cb > 0);
            QVERIFY2(cs > cb + 10'000, qPrintable(QString("rank %1: last collective end +%2 us")
                                                      .arg(base.ranks[r].rank)
                                                      .arg(static_cast<double>(cs - cb) / 1000)));
            if (set.startsWith("real:")) continue;
            double b = static_cast<double>(base.ranks[r].simulatedEnd - base.ranks[r].simulatedStart);
            double s = static_cast<double>(slow.ranks[r].simulatedEnd - slow.ranks[r].simulatedStart);
            QVERIFY2(
                s > 1.02 * b,
                qPrintable(
                    QString("rank %1: %2 -> %3 us").arg(base.ranks[r].rank).arg(b / 1000).arg(s / 1000)));
        }
    }
};

QTEST_GUILESS_MAIN(TestKnobs)
#include "test_Knobs.moc"
