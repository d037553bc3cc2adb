// Roofline maths (models/Roofline.h): times, the bound, achieved fractions and intensity, against
// values worked out by hand from the datasheet peaks (typed here, not read from the table).
#include "TestSupport.h"

#include "io/KinetoLoader.h"
#include "models/Roofline.h"

using namespace sl;

class TestRoofline : public QObject {
    Q_OBJECT

private slots:
    void times() {
        const GpuSpec& h = *GpuTable::builtin().find("H100-SXM");
        OpCost gemm;
        gemm.family = OpFamily::Gemm;
        gemm.matrix = true;
        gemm.peak = PeakType::Bf16;
        gemm.flops = 989.4e9; // at 989.4 TFLOP/s: 1000 us
        gemm.bytes = 1.675e9; // at 3350 GB/s: 500 us
        RooflineTime t = rooflineTime(h, gemm);
        QCOMPARE(t.computeUs, 1000.0);
        QCOMPARE(t.memoryUs, 500.0);
        QCOMPARE(t.us(), 1000.0);
        QVERIFY(t.computeBound());
        // The same FLOPs as elementwise math use the FP32 vector peak, 67 TFLOP/s: 14767.16 us.
        OpCost ew = gemm;
        ew.matrix = false;
        QCOMPARE(rooflineTime(h, ew).computeUs, 989.4e9 / 67e12 * 1e6);
        // A100 80GB: 2.039 GB in 1000 us at 2039 GB/s; memory-bound against 1 GFLOP at 19.5 TFLOP/s (51.3
        // us).
        OpCost copy;
        copy.bytes = 2.039e9;
        copy.flops = 1e9;
        RooflineTime a = rooflineTime(*GpuTable::builtin().find("A100-80GB"), copy);
        QCOMPARE(a.memoryUs, 1000.0);
        QVERIFY(!a.computeBound());
    }

    void achievedFractions() {
        const GpuSpec& h = *GpuTable::builtin().find("H100-SXM");
        OpCost gemm;
        gemm.matrix = true;
        gemm.peak = PeakType::Bf16;
        gemm.flops = 494.7e9;
        gemm.bytes = 0.67e9;
        // Measured 1000 us: 494.7 TFLOP/s = half of 989.4; 0.67 TB/s = 0.2 of 3.35 TB/s;
        // 494.7e9 / 0.67e9 = 738.358 FLOPs per byte; roofline 500 us -> efficiency 0.5.
        Achieved a = achieved(h, gemm, 1000.0);
        QCOMPARE(a.tflops, 494.7);
        QCOMPARE(a.computeFraction, 0.5);
        QCOMPARE(a.tbps, 0.67);
        QCOMPARE(a.memoryFraction, 0.2);
        QCOMPARE(a.intensity, 494.7 / 0.67);
        QCOMPARE(a.efficiency, 0.5);
        QCOMPARE(achieved(h, gemm, 0).tflops, 0.0);
    }

    void infoJsonOnRealTrace() {
        SL_REQUIRE_TRACES();
        TraceSet set;
        set.ranks.push_back(loadKinetoFile(
            sltest::tracePath("dlrm-8rank-v100/kineto/worker0_step_12.1694128201545.pt.trace.json")));
        auto j = rooflineJson(set);
        QCOMPARE(j["gpu"]["name"].get<std::string>(), std::string("V100"));
        QVERIFY(j["by_class"].contains("gemm"));
        QVERIFY(j["top_kernels"].size() > 0);
        // Fractions of peak of a real run can never exceed the datasheet.
        for (const auto& k : j["top_kernels"])
            if (k.contains("compute_fraction")) {
                QVERIFY2(k["compute_fraction"].get<double>() <= 1.0, k.dump().c_str());
                QVERIFY2(k["memory_fraction"].get<double>() <= 1.0, k.dump().c_str());
            }
        // Without deviceProperties and gpu.source: an error, no crash.
        TraceSet bare;
        bare.ranks.emplace_back();
        QVERIFY(rooflineJson(bare).contains("error"));
    }
};

QTEST_APPLESS_MAIN(TestRoofline)
#include "test_Roofline.moc"
