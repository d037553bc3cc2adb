// The GPU table (models/GpuTable.h, resources/gpus.json): every GPU the model promises, figures as
// the vendors' datasheets print them (values typed in here from the datasheets, not read from the
// table), lookups by name and by deviceProperties, fallbacks between data types, and bad tables.
#include "TestSupport.h"

#include "io/KinetoLoader.h"
#include "models/GpuTable.h"

using namespace sl;

namespace {

double peak(const GpuSpec& g, PeakType t) {
    return g.peakTflops[static_cast<std::size_t>(t)];
}

DeviceProperties device(const char* name, double memGB) {
    DeviceProperties d;
    d.id = 0;
    d.name = name;
    d.totalGlobalMem = static_cast<std::int64_t>(memGB * 1e9);
    return d;
}

} // namespace

class TestGpuTable : public QObject {
    Q_OBJECT

private slots:
    void everyPromisedGpuIsThere() {
        const GpuTable& t = GpuTable::builtin();
        for (const char* n : {"V100", "A100-40GB", "A100-80GB", "H100-SXM", "H100-PCIe", "H200", "B200",
                              "L40S", "RTX4090", "MI250X", "MI300X"}) {
            const GpuSpec* g = t.find(n);
            QVERIFY2(g, n);
            QVERIFY2(g->memoryGBps > 0 && g->vectorPeakTflops() > 0 && g->sms > 0 && g->linkGBps > 0, n);
            for (const char* f : {"peak_tflops", "memory_GBps", "memory_GB", "sms", "link_GBps"})
                QVERIFY2(!g->sources.at(f).empty(), n);
        }
    }

    void datasheetFigures() {
        const GpuTable& t = GpuTable::builtin();
        // H100 SXM datasheet: BF16 1,979 TFLOPS with sparsity -> 989.4 dense; FP8 3,958 -> 1978.9;
        // 3.35 TB/s; NVLink 900 GB/s.
        const GpuSpec& h = *t.find("H100-SXM");
        QCOMPARE(peak(h, PeakType::Bf16), 989.4);
        QCOMPARE(peak(h, PeakType::Fp8), 1978.9);
        QCOMPARE(h.memoryGBps, 3350.0);
        QCOMPARE(h.linkGBps, 900.0);
        QCOMPARE(h.sms, 132);
        // A100 datasheet: BF16 312 dense, FP32 19.5; 40 GB 1,555 GB/s, 80 GB 2,039 GB/s.
        QCOMPARE(peak(*t.find("A100-80GB"), PeakType::Bf16), 312.0);
        QCOMPARE(t.find("A100-40GB")->memoryGBps, 1555.0);
        QCOMPARE(t.find("A100-80GB")->memoryGBps, 2039.0);
        // MI300X datasheet: FP16 1,307.4 dense, 5.3 TB/s, 304 CUs.
        QCOMPARE(peak(*t.find("MI300X"), PeakType::Fp16), 1307.4);
        QCOMPARE(t.find("MI300X")->sms, 304);
        // V100 has no BF16 / TF32 / FP8 tensor cores.
        QCOMPARE(peak(*t.find("V100"), PeakType::Bf16), 0.0);
    }

    void namesAndAliases() {
        const GpuTable& t = GpuTable::builtin();
        QCOMPARE(t.find("h100")->name, std::string("H100-SXM"));
        QCOMPARE(t.find("H100 sxm")->name, std::string("H100-SXM"));
        QCOMPARE(t.find("a100")->name, std::string("A100-80GB"));
        QCOMPARE(t.find("rtx 4090")->name, std::string("RTX4090"));
        QVERIFY(!t.find("Z9000"));
        QVERIFY(t.names().find("MI300X") != std::string::npos);
    }

    void matchesDeviceProperties() {
        const GpuTable& t = GpuTable::builtin();
        auto m = [&](const char* name, double gb) {
            const GpuSpec* g = t.match(device(name, gb));
            return g ? g->name : std::string("-");
        };
        QCOMPARE(m("Tesla V100-SXM2-32GB", 34.08), std::string("V100"));
        QCOMPARE(m("NVIDIA A100-SXM4-40GB", 42.5), std::string("A100-40GB"));
        QCOMPARE(m("NVIDIA A100-SXM4-80GB", 85.1), std::string("A100-80GB"));
        QCOMPARE(m("NVIDIA H100 80GB HBM3", 85.5), std::string("H100-SXM"));
        QCOMPARE(m("NVIDIA H100 PCIe", 85.0), std::string("H100-PCIe"));
        QCOMPARE(m("NVIDIA H200", 150.0), std::string("H200"));
        QCOMPARE(m("AMD Instinct MI300X", 205.0), std::string("MI300X"));
        QCOMPARE(m("NVIDIA GeForce RTX 2080 Ti", 11.0), std::string("-"));
        // Device names compare case-blind (ASCII).
        QCOMPARE(m("nvidia h100 80gb hbm3", 85.5), std::string("H100-SXM"));
        QCOMPARE(m("amd instinct mi300x", 205.0), std::string("MI300X"));
    }

    void dataTypeFallbacks() {
        const GpuTable& t = GpuTable::builtin();
        const GpuSpec& v = *t.find("V100");
        QCOMPARE(v.matrixPeakTflops(PeakType::Bf16), 125.0); // runs as FP16 tensor math
        QCOMPARE(v.matrixPeakTflops(PeakType::Fp8), 125.0);
        QCOMPARE(v.matrixPeakTflops(PeakType::Tf32), 15.7);                  // FP32
        QCOMPARE(t.find("MI250X")->matrixPeakTflops(PeakType::Fp32), 47.85); // FP32 matrix cores
        QCOMPARE(t.find("A100-80GB")->matrixPeakTflops(PeakType::Fp8), 312.0);
        QCOMPARE(t.find("H100-SXM")->matrixPeakTflops(PeakType::Tf32), 494.7);
    }

    void badTables() {
        auto error = [](const char* json) -> QString {
            try {
                GpuTable::fromJson(json, "my.json");
            } catch (const GpuTableError& e) {
                return e.what();
            }
            return {};
        };
        QVERIFY(error("{").startsWith("my.json: not valid JSON"));
        QVERIFY(error(R"({"gpus": []})").contains("empty"));
        const char* noSource = R"({"gpus": [{"name": "X", "memory_GB": 1, "sms": 1, "memory_GBps": 1,
            "link_GBps": 1, "peak_tflops": {"fp32": 1}, "sources": {"peak_tflops": "a", "memory_GBps": "b",
            "memory_GB": "c", "sms": "d"}}]})";
        QVERIFY2(error(noSource).contains("sources.link_GBps"), qPrintable(error(noSource)));
        const char* dup = R"({"gpus": [
            {"name": "X", "memory_GB": 1, "sms": 1, "memory_GBps": 1, "link_GBps": 1, "peak_tflops": {"fp32": 1},
             "sources": {"peak_tflops": "a", "memory_GBps": "b", "memory_GB": "c", "sms": "d", "link_GBps": "e"}},
            {"name": "Y", "aliases": ["x"], "memory_GB": 1, "sms": 1, "memory_GBps": 1, "link_GBps": 1,
             "peak_tflops": {"fp32": 1},
             "sources": {"peak_tflops": "a", "memory_GBps": "b", "memory_GB": "c", "sms": "d", "link_GBps": "e"}}]})";
        QVERIFY2(error(dup).contains("appears twice"), qPrintable(error(dup)));
    }

    void sourceOfATraceSet() {
        const GpuTable& t = GpuTable::builtin();
        TraceSet set;
        set.ranks.emplace_back();
        set.ranks[0].sourcePath = "r0.json";
        // No deviceProperties: the error asks for gpu.source.
        try {
            sourceGpu(set, t, "");
            QFAIL("no error");
        } catch (const GpuTableError& e) {
            QVERIFY2(QString(e.what()).contains("gpu.source=NAME"), e.what());
            QVERIFY(QString(e.what()).startsWith("r0.json"));
        }
        QCOMPARE(sourceGpu(set, t, "a100").name, std::string("A100-80GB"));
        QVERIFY_THROWS_EXCEPTION(GpuTableError, sourceGpu(set, t, "nope"));
        set.ranks[0].devices.push_back(device("NVIDIA GeForce RTX 2080 Ti", 11));
        try {
            sourceGpu(set, t, "");
            QFAIL("no error");
        } catch (const GpuTableError& e) {
            QVERIFY2(QString(e.what()).contains("'NVIDIA GeForce RTX 2080 Ti' is not in the GPU table"),
                     e.what());
        }
        set.ranks[0].devices[0] = device("NVIDIA H100 80GB HBM3", 85.5);
        QCOMPARE(sourceGpu(set, t, "").name, std::string("H100-SXM"));
    }

    void realTraceDevice() {
        SL_REQUIRE_TRACES();
        TraceSet set;
        set.ranks.push_back(loadKinetoFile(
            sltest::tracePath("dlrm-8rank-v100/kineto/worker0_step_12.1694128201545.pt.trace.json")));
        QCOMPARE(sourceGpu(set, GpuTable::builtin(), "").name, std::string("V100"));
    }
};

QTEST_APPLESS_MAIN(TestGpuTable)
#include "test_GpuTable.moc"
