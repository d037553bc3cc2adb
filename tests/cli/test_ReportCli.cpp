// sightline-cli report: HTML, JSON and CSV of one simulation agree; the page is self-contained;
// the exit-code contract of docs/ARCHITECTURE.md.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

#include <map>

namespace {

using Run = sltest::CliRun;

Run cli(const QStringList& args) {
    return sltest::runCli(args);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

// CSV rows "section,rank,metric,value" keyed by "section|rank|metric" (numbers are never quoted).
std::map<QString, QString> parseCsv(const QByteArray& csv) {
    std::map<QString, QString> rows;
    const QList<QByteArray> lines = csv.split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QStringList f = QString::fromUtf8(lines[i]).split(',');
        if (f.size() == 4) rows[f[0] + "|" + f[1] + "|" + f[2]] = f[3];
    }
    return rows;
}

void verifySelfContained(const QByteArray& html) {
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(!html.contains("http://"));
    QVERIFY(!html.contains("https://"));
    QVERIFY(!html.contains("<script"));
    QVERIFY(!QString::fromUtf8(html).contains(QRegularExpression("\\b(src|href)\\s*=")));
    QVERIFY(!html.contains("@import") && !html.contains("@font-face"));
}

// A small generated set (2 data-parallel ranks) shared by the tests.
QTemporaryDir& generated() {
    static QTemporaryDir dir;
    static bool done = false;
    if (!done) {
        Run g = cli({"generate", "--out", dir.filePath("set"), "--dp", "2", "--layers", "1", "--hidden",
                     "512", "--heads", "8", "--seq", "256", "--vocab", "1024", "--quiet"});
        if (g.code != 0) qFatal("generate failed: %s", g.err.constData());
        done = true;
    }
    return dir;
}

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT
private slots:
    void threeOutputsAgree() {
        QTemporaryDir& gen = generated();
        QTemporaryDir dir;
        const QString set = gen.filePath("set");
        const QString html = dir.filePath("r.html"), json = dir.filePath("r.json"),
                      csv = dir.filePath("r.csv");
        Run r = cli({"report", set, "--out", html, "--json", json, "--csv", csv, "--set", "comm.speedup=2"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());

        QJsonObject j = QJsonDocument::fromJson(readAll(json)).object();
        QJsonArray ranks = j["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(j["knobs"].toObject()["comm.speedup"].toDouble(), 2.0);
        QCOMPARE(j["changed_knobs"].toArray(), QJsonArray({"comm.speedup"}));
        QCOMPARE(j["source"].toObject()["paths"].toArray(), QJsonArray({set}));
        QVERIFY(j["source"].toObject()["step"].isNull());

        // The same numbers as `simulate --json` with the same knobs.
        Run s = cli({"simulate", set, "--json", "--set", "comm.speedup=2"});
        QCOMPARE(s.code, 0);
        QJsonObject sj = QJsonDocument::fromJson(s.out).object();
        for (const QString& k : sj.keys())
            QVERIFY2(j[k] == sj[k], qPrintable(k));

        // CSV == JSON, value by value.
        auto rows = parseCsv(readAll(csv));
        auto val = [&](const QString& key) {
            auto it = rows.find(key);
            if (it == rows.end()) qFatal("missing CSV row %s", qPrintable(key));
            return it->second.toDouble();
        };
        QJsonObject it = j["iteration"].toObject();
        for (const char* k : {"measured_us", "simulated_us", "error_pct"})
            QCOMPARE(val(QString("iteration||") + k), it[k].toDouble());
        for (const auto& v : ranks) {
            QJsonObject rk = v.toObject();
            QString id = QString::number(rk["rank"].toInt());
            for (const char* k : {"measured_us", "simulated_us", "error_pct"})
                QCOMPARE(val("rank|" + id + "|" + k), rk[k].toDouble());
            for (const char* k : {"compute_us", "comm_us", "exposed_comm_us", "memory_us", "idle_us",
                                  "gpu_span_us", "overlap_pct"}) {
                QCOMPARE(val("rank|" + id + "|simulated." + k), rk[k].toDouble());
                QCOMPARE(val("rank|" + id + "|measured." + k), rk["measured"].toObject()[k].toDouble());
            }
        }
        QJsonObject cp = j["critical_path"].toObject();
        QCOMPARE(val("critical_path||length_us"), cp["length_us"].toDouble());
        for (const QString& k : cp["by_kind"].toObject().keys()) {
            QCOMPARE(val("critical_path||" + k + "_us"),
                     cp["by_kind"].toObject()[k].toObject()["us"].toDouble());
            QCOMPARE(val("critical_path||" + k + "_pct"),
                     cp["by_kind"].toObject()[k].toObject()["pct"].toDouble());
        }
        QJsonObject ks = j["kernel_start_error_us"].toObject();
        QCOMPARE(val("kernel_start_error||median_us"), ks["median"].toDouble());
        QCOMPARE(val("kernel_start_error||p90_us"), ks["p90"].toDouble());
        QCOMPARE(val("knobs||comm.speedup"), 2.0);

        // HTML: every rank, the knobs, nothing fetched from anywhere.
        QByteArray page = readAll(html);
        verifySelfContained(page);
        for (const auto& v : ranks) {
            QByteArray id = QByteArray::number(v.toObject()["rank"].toInt());
            QVERIFY(page.contains("<tbody class=\"rank\" data-rank=\"" + id + "\">"));
            QVERIFY(page.contains("<tr class=\"rank\" data-rank=\"" + id + "\">"));
        }
        QVERIFY(page.contains("comm.speedup = 2"));
        QVERIFY(page.contains(set.toUtf8()));
    }

    void formatFromExtension() {
        QTemporaryDir& gen = generated();
        QTemporaryDir dir;
        const QString set = gen.filePath("set");
        Run j = cli({"report", set, "--out", dir.filePath("r.JSON"), "--step", "1"});
        QVERIFY2(j.code == 0, j.err.constData());
        QJsonObject o = QJsonDocument::fromJson(readAll(dir.filePath("r.JSON"))).object();
        QCOMPARE(o["ranks"].toArray().size(), 2);
        QCOMPARE(o["source"].toObject()["step"].toInt(), 1);
        QVERIFY(o["changed_knobs"].toArray().isEmpty());
        Run c = cli({"report", set, "--out", dir.filePath("r.csv")});
        QCOMPARE(c.code, 0);
        QVERIFY(readAll(dir.filePath("r.csv")).startsWith("section,rank,metric,value\n"));
        Run h = cli({"report", set, "--out", dir.filePath("r.htm")});
        QCOMPARE(h.code, 0);
        QByteArray page = readAll(dir.filePath("r.htm"));
        verifySelfContained(page);
        QVERIFY(page.contains("every knob at its default"));
    }

    // A Chakra execution trace has durations, not timestamps: every output says so in the same way
    // as `simulate --json` (measured figures null, not 0) and the page shows the simulation alone.
    void chakraInputHasNoMeasuredFigures() {
        QTemporaryDir& gen = generated();
        QTemporaryDir dir;
        const QString et = dir.filePath("chakra");
        Run e = cli({"export-chakra", gen.filePath("set"), "--out", et});
        QVERIFY2(e.code == 0, e.err.constData());
        const QString html = dir.filePath("r.html"), json = dir.filePath("r.json"),
                      csv = dir.filePath("r.csv");
        Run r = cli({"report", et, "--out", html, "--json", json, "--csv", csv});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(j["measured_times"].toBool(true), false);
        QVERIFY(j["iteration"].toObject()["measured_us"].isNull());
        QVERIFY(j["iteration"].toObject()["error_pct"].isNull());
        QVERIFY(j["kernel_start_error_us"].isNull());
        QCOMPARE(j["ranks"].toArray().size(), 2);
        for (const auto& rank : j["ranks"].toArray()) {
            QVERIFY(rank.toObject()["measured_us"].isNull());
            QVERIFY(!rank.toObject().contains("measured"));
            QVERIFY(rank.toObject()["simulated_us"].toDouble() > 0);
        }
        // The same object as `simulate --json` of the same input.
        Run s = cli({"simulate", et, "--json"});
        QCOMPARE(s.code, 0);
        const QJsonObject sj = QJsonDocument::fromJson(s.out).object();
        for (const QString& k : sj.keys())
            QVERIFY2(j[k] == sj[k], qPrintable(k));
        // CSV: empty cells, not zeros.
        auto rows = parseCsv(readAll(csv));
        QCOMPARE(rows.at("iteration||measured_us"), QString());
        QVERIFY(rows.at("iteration||simulated_us").toDouble() > 0);
        // The page: no replay error or measured bars, and it says why.
        const QByteArray page = readAll(html);
        verifySelfContained(page);
        QVERIFY(page.contains("No measured times in this input"));
        QVERIFY(page.contains("Simulation of the execution trace"));
        QVERIFY(!page.contains("Replay error"));
        QVERIFY(!page.contains(" measured: "));
    }

    void realTraceRankSet() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        const QString html = dir.filePath("dlrm.html"), csv = dir.filePath("dlrm.csv");
        Run r = cli({"report", QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto")), "--step",
                     "10", "--out", html, "--csv", csv, "--set", "compute.speedup=2"});
        QVERIFY2(r.code == 0, r.err.constData());
        QByteArray page = readAll(html);
        verifySelfContained(page);
        for (int i = 0; i < 8; ++i)
            QVERIFY(page.contains("data-rank=\"" + QByteArray::number(i) + "\""));
        QVERIFY(page.contains("ProfilerStep#10"));
        QVERIFY(page.contains("compute.speedup = 2"));
        auto rows = parseCsv(readAll(csv));
        QVERIFY(rows.count("rank|7|simulated.exposed_comm_us"));
        QVERIFY(rows.at("rank|7|measured.comm_us").toDouble() > 0);
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no path") << QStringList{"report", "--out", "r.html"};
        QTest::newRow("no output") << QStringList{"report", "x.json"};
        QTest::newRow("unknown extension") << QStringList{"report", "x.json", "--out", "r.txt"};
        QTest::newRow("unknown option") << QStringList{"report", "x.json", "--out", "r.html", "--frobnicate"};
        QTest::newRow("bad step") << QStringList{"report", "x.json", "--out", "r.html", "--step", "abc"};
        QTest::newRow("bad knob") << QStringList{"report", "x.json", "--out", "r.html", "--set", "no.such=1"};
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(QStringLiteral(SIGHTLINE_CLI), args);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().startsWith("usage error: "));
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void badInputAndUnwritableOutput() {
        QTemporaryDir dir;
        std::string bad = sltest::writeFile(dir, "bad.json", "{\"traceEvents\": [ {\"ph\": ");
        const QString out = dir.filePath("r.html");
        Run r = cli({"report", QString::fromStdString(bad), "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("error: " + QByteArray::fromStdString(bad) + ": "));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(out));

        Run missing = cli({"report", "/nonexistent/trace.json", "--out", out});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.startsWith("error: /nonexistent/trace.json: "));

        const QString set = generated().filePath("set");
        Run noDir = cli({"report", set, "--out", "/nonexistent/dir/r.html"});
        QCOMPARE(noDir.code, 2);
        QVERIFY(noDir.err.startsWith("error: /nonexistent/dir/r.html: cannot write the report"));
        QCOMPARE(noDir.err.count('\n'), 1);

        Run proc = cli({"report", set, "--json", "/proc/sightline-report.json"}); // fails at the write
        QCOMPARE(proc.code, 2);
        QVERIFY(proc.err.startsWith("error: /proc/sightline-report.json: cannot write the report"));
        QCOMPARE(proc.err.count('\n'), 1);

        Run isDir = cli({"report", set, "--csv", dir.path()});
        QCOMPARE(isDir.code, 2);
        QVERIFY(isDir.err.startsWith("error: " + dir.path().toUtf8() + ": cannot write the report"));
        QVERIFY(isDir.err.contains("directory"));

        Run config = cli({"report", set, "--out", out, "--config", QString::fromStdString(bad)});
        QCOMPARE(config.code, 2);
        QVERIFY(config.err.contains("bad.json"));
    }

    void helpDocumentsTheOutputs() {
        Run h = cli({"report", "--help"});
        QCOMPARE(h.code, 0);
        for (const char* s :
             {"--out", "--json", "--csv", "--step", "--config", "--set", ".html", "section,rank"})
            QVERIFY2(h.out.contains(s), s);
    }
};

QTEST_GUILESS_MAIN(TestReportCli)
#include "test_ReportCli.moc"
