// sightline-cli simulate: the command-line contract of docs/ARCHITECTURE.md.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace {

using Run = sltest::CliRun;

Run cli(const QStringList& args) {
    return sltest::runCli(args);
}

QString trace(const char* rel) {
    return QString::fromStdString(sltest::tracePath(rel));
}

} // namespace

class TestSimulateCli : public QObject {
    Q_OBJECT
private slots:
    // The replay metrics of the JSON contract, on a bundled sample (always present).
    void replayMetricsAndKnobEffect() {
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        Run r = cli({"simulate", sample, "--json", "--set", "compute.speedup=2"});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QJsonObject rank = j["ranks"].toArray()[0].toObject();
        for (const char* key :
             {"gpu_span_error_pct", "unexplained_wait_us", "unexplained_gpu_wait_us", "prewindow_ops",
              "by_class_us", "comm_wait_us", "comm_transfer_us", "exposed_comm_error_pct", "idle_error_pct"})
            QVERIFY2(rank.contains(key), key);
        QVERIFY(rank["measured"].toObject()["by_class_us"].toObject()["gemm"].toDouble() > 0);
        QVERIFY(rank["stream_idle"].toArray()[0].toObject().contains("idle_error_pct"));
        QVERIFY(j["kernel_start_error_pct"].toObject().contains("within_1pct_share"));
        // A 2x GPU on a GPU-bound sample moves the answer, and the note says what it acts on.
        QJsonObject effect = j["knob_effect"].toObject();
        QVERIFY(effect["iteration_change_pct"].toDouble() < -10.0);
        QVERIFY(effect["note"].toString().contains("critical path"));
    }

    void jsonOnRankSet() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        QString exported = dir.filePath("sim.json");
        Run r = cli({"simulate", trace("dlrm-8rank-v100/kineto"), "--json", "--export-trace", exported});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["iteration"].toObject()["measured_us"].toDouble(), 19019.0);
        QVERIFY(j["iteration"].toObject()["error_pct"].toDouble() < 1.0);
        QJsonArray ranks = j["ranks"].toArray();
        QCOMPARE(ranks.size(), 8);
        for (const auto& v : ranks) {
            QVERIFY(v.toObject().contains("rank"));
            QVERIFY(v.toObject()["error_pct"].toDouble() < 1.0);
        }
        QVERIFY(j["kernel_start_error_us"].toObject().contains("p90"));
        QVERIFY(j["warnings"].isArray());
        // Breakdown: simulated at the top level of each rank, measured in `measured`; both close
        // (the replay is within a fraction of a percent) and consistent with each other.
        for (const auto& v : ranks) {
            QJsonObject rk = v.toObject();
            QJsonObject m = rk["measured"].toObject();
            for (const char* key : {"compute_us", "comm_us", "exposed_comm_us", "idle_us", "overlap_pct"}) {
                QVERIFY2(rk.contains(key) && m.contains(key), key);
                QVERIFY(rk[key].toDouble() >= 0);
            }
            QVERIFY(m["comm_us"].toDouble() > 0); // 8 collectives per rank
            QVERIFY(rk["exposed_comm_us"].toDouble() <= rk["comm_us"].toDouble() + 0.01);
            QVERIFY(std::abs(rk["comm_us"].toDouble() - m["comm_us"].toDouble()) <
                    0.05 * m["comm_us"].toDouble());
            QVERIFY(rk["stream_idle"].toArray().size() >= 2);
        }
        QJsonObject cp = j["critical_path"].toObject();
        QVERIFY(cp["length_us"].toDouble() > 0.9 * j["iteration"].toObject()["simulated_us"].toDouble());
        QVERIFY(cp["by_kind"].toObject().contains("gpu_comm"));
        QVERIFY(!cp["top_events"].toArray().isEmpty());

        QFile f(exported);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject t = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(t["traceEvents"].toArray().size() > 1000);
    }

    // The text output names the simulated job of a setup edit (sample 02-dp4: 4 replicas).
    void tableNamesTheSimulatedSetup() {
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        Run shrunk = cli({"simulate", sample, "--set", "dp.degree=2"});
        QCOMPARE(shrunk.code, 0);
        QVERIFY2(
            shrunk.out.contains("setup: dp 2 x tp 1 x pp 1 = 2 ranks (0 added, 2 measured ranks dropped)"),
            shrunk.out.constData());
        Run grown = cli({"simulate", sample, "--set", "dp.degree=8"});
        QCOMPARE(grown.code, 0);
        QVERIFY2(
            grown.out.contains("setup: dp 8 x tp 1 x pp 1 = 8 ranks (4 added, 0 measured ranks dropped)"),
            grown.out.constData());
    }

    void tableAndStep() {
        SL_REQUIRE_TRACES();
        Run r = cli({"simulate", trace("dlrm-8rank-v100/kineto"), "--step", "10"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("measured_us"));
        Run missing = cli({"simulate", trace("dlrm-8rank-v100/kineto"), "--step", "999"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.startsWith("error: "));
        QVERIFY(missing.err.contains("ProfilerStep#999"));
        QCOMPARE(missing.err.count('\n'), 1);
    }

    void knobs() {
        SL_REQUIRE_TRACES();
        Run r = cli({"simulate", trace("single-rank/a100-cuda-sync-multistream.json.gz"), "--json", "--set",
                     "compute.speedup=2"});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["knobs"].toObject()["compute.speedup"].toDouble(), 2.0);
    }

    void criticalPathCommand() {
        SL_REQUIRE_TRACES();
        Run t = cli({"critical-path", trace("single-rank/a100-cuda-sync-multistream.json.gz")});
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains("critical path: 19930.00 us"));
        QVERIFY(t.out.contains("cudaDeviceSynchronize"));
        QVERIFY(t.out.contains("launch_latency"));
        Run j =
            cli({"critical-path", trace("dlrm-8rank-v100/kineto"), "--rank", "3", "--step", "10", "--json"});
        QCOMPARE(j.code, 0);
        QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QVERIFY(o["length_us"].toDouble() > 0);
        QJsonArray segs = o["segments"].toArray();
        QVERIFY(segs.size() > 10);
        double sum = 0;
        for (const auto& v : segs)
            sum += v.toObject()["dur_us"].toDouble();
        QVERIFY(std::abs(sum - o["length_us"].toDouble()) < 0.01 * o["length_us"].toDouble());
        QCOMPARE(segs.last().toObject()["rank"].toInt(), 3);
        QCOMPARE(cli({"critical-path", trace("dlrm-8rank-v100/kineto"), "--rank", "42"}).code, 1);
        QCOMPARE(cli({"critical-path"}).code, 1);
        QCOMPARE(cli({"critical-path", "/nonexistent/x.json"}).code, 2);
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::newRow("no path") << QStringList{"simulate"} << 1;
        QTest::newRow("unknown option") << QStringList{"simulate", "x.json", "--frobnicate"} << 1;
        QTest::newRow("bad step") << QStringList{"simulate", "x.json", "--step", "abc"} << 1;
        QTest::newRow("bad knob") << QStringList{"simulate", "x.json", "--set", "no.such=1"} << 1;
        QTest::newRow("missing file") << QStringList{"simulate", "/nonexistent/trace.json"} << 2;
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        Run r = cli(args);
        QCOMPARE(r.code, code);
        if (code == 2) QVERIFY(r.err.startsWith("error: "));
    }

    void badInputFiles() {
        QTemporaryDir dir;
        std::string bad = sltest::writeFile(dir, "bad.json", "{\"traceEvents\": [ {\"ph\": ");
        std::string cfg = sltest::writeFile(dir, "cfg.json", "{not json");
        Run r = cli({"simulate", QString::fromStdString(bad)});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("error: "));
        std::string ok = sltest::writeFile(
            dir, "ok.json",
            R"({"traceEvents":[{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},)"
            R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"dur":10,"args":{"correlation":1,"stream":7,"device":0}}]})");
        Run c = cli({"simulate", QString::fromStdString(ok), "--config", QString::fromStdString(cfg)});
        QCOMPARE(c.code, 2);
        QVERIFY(c.err.contains("cfg.json"));
        Run j = cli({"simulate", QString::fromStdString(ok), "--json"}); // kernel before its launch
        QCOMPARE(j.code, 0);
        QVERIFY(j.out.contains("before their launch"));
    }
};

QTEST_GUILESS_MAIN(TestSimulateCli)
#include "test_SimulateCli.moc"
