// Throughput against the baseline and scaling efficiency (analysis/Throughput.h, docs/Scaling.md):
// worked out by hand from StepWork values, then on samples/02-dp4 (4 data-parallel replicas, one
// micro-batch, 4 layer blocks) simulated with the setup and block knobs, and in the JSON that
// `simulate --json` prints (report/SimulationReport.h).
#include "TestSupport.h"

#include "analysis/Throughput.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "report/SimulationReport.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <cmath>

using namespace sl;

namespace {

StepWork traced(int dp) {
    StepWork w;
    w.dp = w.tracedDp = dp;
    w.microbatches = w.tracedMicrobatches = 1;
    w.layers = w.tracedLayers = 4;
    return w;
}

} // namespace

class TestThroughput : public QObject {
    Q_OBJECT
    TraceSet set_;
    ExecutionGraph graph_;
    SimResult replay_;

    SimResult run(const char* knob, SimKnobs& k) {
        for (const auto& kv : QString::fromLatin1(knob).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const auto parts = kv.split(QLatin1Char('='));
            setKnob(k, parts[0].toStdString(), parts[1].toStdString());
        }
        return simulate(graph_, k);
    }

private slots:
    void initTestCase() {
        set_ = loadTraceSet({sltest::samplePath("02-dp4")});
        graph_ = buildExecutionGraph(set_);
        replay_ = simulate(graph_);
    }

    // Weak scaling 4 -> 32: 8x the samples; the throughput is 8 x base / step; the efficiency is
    // base / step. Strong scaling keeps the samples: efficiency = base / step / 8.
    void byHand() {
        StepWork base = traced(4), weak = traced(4), strong = traced(4);
        weak.dp = 32;
        weak.gpus = weak.samples = 8;
        strong.dp = 32;
        strong.gpus = 8;
        strong.strong = true;
        Throughput t = throughputFrom(base, 20'000'000, weak, 25'000'000);
        QVERIFY(t.applies);
        QCOMPARE(t.samplesRatio, 8.0);
        QCOMPARE(t.throughputRatio, 8.0 * 20.0 / 25.0);
        QCOMPARE(t.efficiency, 0.8);
        QCOMPARE(t.kind, std::string("weak scaling"));
        QVERIFY2(
            t.sentence.find("6.40x baseline throughput (8x the samples per step, 1.25x the step time)") == 0,
            t.sentence.c_str());
        QVERIFY(t.sentence.find("scaling efficiency 80% (weak scaling, 4 -> 32 replicas)") !=
                std::string::npos);
        t = throughputFrom(base, 20'000'000, strong, 10'000'000);
        QCOMPARE(t.samplesRatio, 1.0);
        QCOMPARE(t.throughputRatio, 2.0);
        QCOMPARE(t.efficiency, 0.25);
        QCOMPARE(t.kind, std::string("strong scaling"));
        // The same work: nothing to say, whatever the step times.
        t = throughputFrom(base, 20'000'000, traced(4), 10'000'000);
        QVERIFY(!t.applies);
        QVERIFY(t.sentence.empty());
        // Twice the layers in 1.5x the time: work per sample 2x, throughput 0.67x, efficiency 1.33.
        StepWork deeper = traced(4);
        deeper.layers = 8;
        deeper.workPerSample = 2;
        t = throughputFrom(base, 20'000'000, deeper, 30'000'000);
        QVERIFY(std::abs(t.throughputRatio - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(t.efficiency - 4.0 / 3.0) < 1e-12);
    }

    // On the sample: dp.degree=32 is 8x the samples, throughput 8 x (replay step / new step).
    void weakScalingOnSample() {
        SimKnobs k;
        SimResult res = run("dp.degree=32", k);
        const StepWork w = stepWork(graph_, k, res);
        QCOMPARE(w.tracedDp, 4);
        QCOMPARE(w.dp, 32);
        QCOMPARE(w.samples, 8.0);
        QCOMPARE(w.gpus, 8.0);
        const Throughput t = throughputVsBaseline(graph_, replay_, SimKnobs{}, res, k);
        QVERIFY(t.applies);
        const double expected = 8.0 * static_cast<double>(replay_.simulatedIteration) /
                                static_cast<double>(res.simulatedIteration);
        QCOMPARE(t.throughputRatio, expected);
        QVERIFY2(t.throughputRatio > 6.0 && t.throughputRatio < 8.0,
                 std::to_string(t.throughputRatio).c_str());
        QCOMPARE(t.efficiency, expected / 8.0);
        // simulate --json: iteration.throughput_vs_baseline and scaling_efficiency.
        const nlohmann::json j = simulationResultJson(graph_, res, k, &replay_);
        QVERIFY(j["iteration"].contains("throughput_vs_baseline"));
        QVERIFY(std::abs(j["iteration"]["throughput_vs_baseline"].get<double>() - expected) < 0.001);
        QVERIFY(std::abs(j["iteration"]["scaling_efficiency"].get<double>() - expected / 8.0) < 0.001);
        QCOMPARE(j["iteration"]["samples_per_step_vs_baseline"].get<double>(), 8.0);
    }

    // A faster GPU beside dp.degree: the efficiency above 100% is the GPU's speed-up, not fixed
    // costs shared (the window once explained it so).
    void otherKnobsAreNoFixedCosts() {
        SimKnobs k;
        SimResult res = run("dp.degree=32 compute.speedup=2", k);
        const Throughput t = throughputVsBaseline(graph_, replay_, SimKnobs{}, res, k);
        QVERIFY(t.applies);
        QVERIFY2(t.efficiency > 1.0, std::to_string(t.efficiency).c_str());
        QVERIFY2(t.sentence.find("the other knobs' speed-up") != std::string::npos, t.sentence.c_str());
        QVERIFY(t.sentence.find("fixed costs") == std::string::npos);
    }

    // Strong scaling keeps the samples: the throughput is the step time's ratio alone.
    void strongScalingOnSample() {
        SimKnobs k;
        SimResult res = run("dp.degree=32 dp.strong=true", k);
        const Throughput t = throughputVsBaseline(graph_, replay_, SimKnobs{}, res, k);
        QVERIFY(t.applies);
        QCOMPARE(t.samplesRatio, 1.0);
        QCOMPARE(t.gpusRatio, 8.0);
        QCOMPARE(t.throughputRatio, static_cast<double>(replay_.simulatedIteration) /
                                        static_cast<double>(res.simulatedIteration));
        QCOMPARE(t.efficiency, t.throughputRatio / 8.0);
        QCOMPARE(t.kind, std::string("strong scaling"));
    }

    // Against a baseline that has the edit too: dp.degree 8 -> 32 is 4x the samples.
    void baselineWithKnobs() {
        SimKnobs b, k;
        SimResult base = run("dp.degree=8", b);
        SimResult res = run("dp.degree=32", k);
        const Throughput t = throughputVsBaseline(graph_, base, b, res, k);
        QCOMPARE(t.samplesRatio, 4.0);
        QVERIFY(t.sentence.find("8 -> 32 replicas") != std::string::npos);
    }

    // Micro-batches and layers change the work per step on the same GPUs.
    void blockKnobsOnSample() {
        SimKnobs k;
        SimResult res = run("pp.microbatches=4", k);
        StepWork w = stepWork(graph_, k, res);
        QCOMPARE(w.tracedMicrobatches, 1);
        QCOMPARE(w.samples, 4.0);
        QCOMPARE(w.gpus, 1.0);
        SimKnobs l;
        SimResult deeper = run("model.layers=8", l);
        w = stepWork(graph_, l, deeper);
        QCOMPARE(w.tracedLayers, 4);
        QCOMPARE(w.workPerSample, 2.0);
        const Throughput t = throughputVsBaseline(graph_, replay_, SimKnobs{}, deeper, l);
        QCOMPARE(t.kind, std::string("layers"));
        QVERIFY(t.throughputRatio < 1.0);
    }

    // Knobs that do not change the work: no throughput fields in the JSON.
    void noWorkChange() {
        SimKnobs k;
        SimResult res = run("compute.speedup=2", k);
        QVERIFY(!throughputVsBaseline(graph_, replay_, SimKnobs{}, res, k).applies);
        const nlohmann::json j = simulationResultJson(graph_, res, k, &replay_);
        QVERIFY(!j["iteration"].contains("throughput_vs_baseline"));
        // An edit the simulator ignored (the traced degree) is no change either.
        SimKnobs same;
        SimResult four = run("dp.degree=4", same);
        QVERIFY(!throughputVsBaseline(graph_, replay_, SimKnobs{}, four, same).applies);
    }

    // Absolute throughput (batch.samples / batch.tokens): the batch over the step. Doubling the step
    // halves samples/s; without a batch there is none.
    void rateByHand() {
        SimKnobs b;
        setKnob(b, "batch.samples", "256");
        setKnob(b, "batch.tokens", "1048576");
        const Rate r = rateOf(b, 1.0, 20'000'000); // 20 ms
        QCOMPARE(r.samplesPerSecond, 256.0 / 0.02);
        QCOMPARE(r.tokensPerSecond, 1048576.0 / 0.02);
        const Rate twice = rateOf(b, 1.0, 40'000'000);
        QCOMPARE(twice.samplesPerSecond, r.samplesPerSecond / 2.0);
        QCOMPARE(twice.tokensPerSecond, r.tokensPerSecond / 2.0);
        // 8x the samples per step (dp.degree 4 -> 32) in the same time: 8x samples/s.
        QCOMPARE(rateOf(b, 8.0, 20'000'000).samplesPerStep, 2048.0);
        QCOMPARE(rateText(r), std::string("12,800 samples/s, 52.4M tokens/s"));
        QVERIFY(!rateOf(SimKnobs{}, 1.0, 20'000'000).known());
        QVERIFY(rateText(rateOf(SimKnobs{}, 1.0, 20'000'000)).empty());
    }

    // The batch describes the trace: setting it is still a replay. A bad value is one line naming
    // the knob and what is wrong.
    void batchKnob() {
        SimKnobs k;
        setKnob(k, "batch.samples", "512");
        QVERIFY(k.isReplay());
        QCOMPARE(k.toJson()["batch.samples"].get<double>(), 512.0);
        for (const char* bad : {"-1", "abc", "1e13", "inf"}) {
            try {
                setKnob(k, "batch.samples", bad);
                QFAIL(bad);
            } catch (const KnobError& e) {
                const std::string what = e.what();
                QVERIFY2(what.find("batch.samples") != std::string::npos &&
                             what.find('\n') == std::string::npos,
                         what.c_str());
                QVERIFY2(what.find(bad) != std::string::npos, what.c_str());
            }
        }
        QCOMPARE(k.batchSamples, 512.0);
    }

    // On the sample: samples/s x the simulated step = the batch (x 8 under dp.degree=32), in the
    // JSON of simulate --json; the ratio of the two rates is throughput_vs_baseline; the what-if takes
    // the baseline's batch when it gives none of its own.
    void rateOnSample() {
        SimKnobs b;
        setKnob(b, "batch.samples", "256");
        const SimResult replay = simulate(graph_, b);
        const nlohmann::json base = simulationResultJson(graph_, replay, b);
        const double stepS = static_cast<double>(replay.simulatedIteration) * 1e-9;
        QCOMPARE(base["iteration"]["samples_per_step"].get<double>(), 256.0);
        QVERIFY(std::abs(base["iteration"]["samples_per_s"].get<double>() * stepS - 256.0) < 0.001);
        QVERIFY(!base["iteration"].contains("tokens_per_s"));
        SimKnobs k; // dp.degree=32 without a batch of its own
        SimResult res = run("dp.degree=32", k);
        const nlohmann::json j = simulationResultJson(graph_, res, k, &replay, &b);
        const nlohmann::json& it = j["iteration"];
        QCOMPARE(it["samples_per_step"].get<double>(), 8.0 * 256.0);
        const double resS = static_cast<double>(res.simulatedIteration) * 1e-9;
        QVERIFY(std::abs(it["samples_per_s"].get<double>() * resS - 2048.0) < 0.001);
        const double ratio =
            it["samples_per_s"].get<double>() / base["iteration"]["samples_per_s"].get<double>();
        QVERIFY2(std::abs(ratio - it["throughput_vs_baseline"].get<double>()) < 0.002,
                 std::to_string(ratio).c_str());
        QVERIFY(it["rate_note"].get<std::string>().find("samples/s") != std::string::npos);
        // No batch anywhere: no absolute numbers.
        QVERIFY(!simulationResultJson(graph_, res, k, &replay_)["iteration"].contains("samples_per_s"));
    }
};

QTEST_GUILESS_MAIN(TestThroughput)
#include "test_Throughput.moc"
