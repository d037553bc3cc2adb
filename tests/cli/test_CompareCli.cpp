// sightline-cli compare: the table, --json, --out (HTML, CSV, JSON), the prediction with --set, and
// the command-line contract on bad input (exit 2 with one line naming the file, 1 on bad usage).
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using sltest::runCli;

namespace {

QJsonObject parse(const QByteArray& out) {
    QJsonParseError e;
    QJsonDocument d = QJsonDocument::fromJson(out, &e);
    if (e.error != QJsonParseError::NoError) qWarning("bad JSON: %s", qPrintable(e.errorString()));
    return d.object();
}

// A generated two-layer job on four GPUs in dir/name, with extra generator options.
QString generate(const QTemporaryDir& dir, const QString& name, const QStringList& extra = {}) {
    const QString out = dir.filePath(name);
    auto r = runCli(QStringList{"generate", "--out", out, "--layers", "2", "--dp", "4", "--hidden", "1024",
                                "--seq", "1024", "--vocab", "8192", "--quiet"} +
                    extra);
    if (r.code != 0) qWarning("generate failed: %s", r.err.constData());
    return out;
}

// stderr is exactly one line starting with `prefix`.
void checkOneLine(const QByteArray& err, const char* prefix) {
    const QByteArray e = err.trimmed();
    QVERIFY2(e.startsWith(prefix), e.constData());
    QVERIFY2(!e.contains('\n'), e.constData());
}

} // namespace

class TestCompareCli : public QObject {
    Q_OBJECT

private slots:
    void sampleAgainstItself() {
        const QString s = QString::fromStdString(sltest::samplePath("02-dp4"));
        auto r = runCli({"compare", s, s, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = parse(r.out);
        QCOMPARE(j["alignment"].toObject()["aligned_pct"].toDouble(), 100.0);
        QVERIFY(j["alignment"].toObject()["comparable"].toBool());
        QCOMPARE(j["ranks"].toArray().size(), 4);
        for (const char* table : {"by_class", "by_kernel", "by_cpu_op"})
            for (const auto& row : j[table].toArray()) {
                QCOMPARE(row.toObject()["delta_us"].toDouble(), 0.0);
                QVERIFY(!row.toObject()["changed"].toBool());
            }
        for (const auto& rank : j["ranks"].toArray())
            QCOMPARE(rank.toObject()["iteration"].toObject()["delta_us"].toDouble(), 0.0);
        QVERIFY(!j.contains("prediction"));
    }

    void fasterGpuTableJsonAndPrediction() {
        QTemporaryDir dir;
        const QString a = generate(dir, "a"), b = generate(dir, "b", {"--gpu-speedup", "2"});
        auto t = runCli({"compare", a, b});
        QCOMPARE(t.code, 0);
        QVERIFY2(t.out.contains("gemm -50.0%"), t.out.constData());
        QVERIFY(t.out.contains("100.0% of GPU ops aligned"));
        auto r = runCli({"compare", a, b, "--json", "--set", "compute.speedup=2"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = parse(r.out);
        const QJsonObject p = j["prediction"].toObject();
        QVERIFY(p["iteration"].toObject()["error_pct"].toDouble() < 1.0);
        QVERIFY(p["iteration"].toObject()["unchanged_error_pct"].toDouble() > 15.0);
        QCOMPARE(p["changed_knobs"].toArray().first().toString(), QString("compute.speedup=2.0"));
        QVERIFY(!p["worst_kernels"].toArray().isEmpty());
        auto replay = runCli({"compare", a, b, "--json", "--predict"});
        QCOMPARE(replay.code, 0);
        QVERIFY(parse(replay.out)["prediction"].toObject()["iteration"].toObject()["error_pct"].toDouble() >
                15.0);
    }

    // A GPU 1.25x as fast. compute.speedup=1.25 beats assuming no change; compute.speedup=4 overshoots
    // so far that the prediction is further off than the run before was: the text, the iteration's
    // JSON and the rows that overshoot say so, and nothing says so for the good prediction.
    void predictionWorseThanNoChangeIsFlagged() {
        QTemporaryDir dir;
        const QString a = generate(dir, "a"), b = generate(dir, "b", {"--gpu-speedup", "1.25"});
        auto good = runCli({"compare", a, b, "--set", "compute.speedup=1.25"});
        QCOMPARE(good.code, 0);
        QVERIFY2(good.out.contains("no change assumed"), good.out.constData());
        QVERIFY2(!good.out.contains("WORSE than no change"), good.out.constData());
        auto goodJson = runCli({"compare", a, b, "--json", "--set", "compute.speedup=1.25"});
        QCOMPARE(goodJson.code, 0);
        const QJsonObject gp = parse(goodJson.out)["prediction"].toObject();
        QCOMPARE(gp["iteration"].toObject()["worse_than_no_change"].toBool(), false);
        QVERIFY(gp["iteration"].toObject()["error_pct"].toDouble() <
                gp["iteration"].toObject()["unchanged_error_pct"].toDouble());
        for (const auto& r : gp["ranks"].toArray())
            QCOMPARE(r.toObject()["worse_than_no_change"].toBool(), false);

        auto bad = runCli({"compare", a, b, "--set", "compute.speedup=4"});
        QCOMPARE(bad.code, 0);
        const qsizetype line = bad.out.indexOf("prediction (before + compute.speedup=4.0)");
        QVERIFY2(line >= 0, bad.out.constData());
        const QByteArray iterationLine = bad.out.mid(line, bad.out.indexOf('\n', line) - line);
        QVERIFY2(iterationLine.contains("WORSE than no change"), iterationLine.constData());
        auto badJson = runCli({"compare", a, b, "--json", "--set", "compute.speedup=4"});
        QCOMPARE(badJson.code, 0);
        const QJsonObject bp = parse(badJson.out)["prediction"].toObject();
        const QJsonObject it = bp["iteration"].toObject();
        QCOMPARE(it["worse_than_no_change"].toBool(), true);
        QVERIFY(it["error_pct"].toDouble() > it["unchanged_error_pct"].toDouble());
        for (const auto& r : bp["ranks"].toArray())
            QCOMPARE(r.toObject()["worse_than_no_change"].toBool(), true);
        // The gemm class overshoots too; every row carries the flag.
        bool gemmWorse = false;
        for (const auto& r : bp["by_class"].toArray()) {
            QVERIFY(r.toObject().contains("worse_than_no_change"));
            if (r.toObject()["key"].toString() == "gemm")
                gemmWorse = r.toObject()["worse_than_no_change"].toBool();
        }
        QVERIFY(gemmWorse);
    }

    void writesHtmlCsvAndJson() {
        QTemporaryDir dir;
        const QString a = generate(dir, "a"), b = generate(dir, "b", {"--straggler-rank", "1"});
        const QString html = dir.filePath("cmp.html"), csv = dir.filePath("cmp.csv"),
                      json = dir.filePath("cmp.json");
        for (const QString& out : {html, csv, json})
            QCOMPARE(runCli({"compare", a, b, "--out", out, "--set", "straggler.rank=1"}).code, 0);
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QByteArray page = h.readAll();
        QVERIFY(page.startsWith("<!DOCTYPE html>"));
        QVERIFY(page.contains("Before and after"));
        QVERIFY(page.contains("Prediction vs actual"));
        QVERIFY(!page.contains("<script"));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QByteArray table = c.readAll();
        QVERIFY(table.startsWith("table,rank,key,metric,value\n"));
        QVERIFY(table.contains("rank,1,compute,changed,true"));
        QVERIFY(table.contains("rank,0,compute,changed,false"));
        QFile js(json);
        QVERIFY(js.open(QIODevice::ReadOnly));
        QVERIFY(parse(js.readAll()).contains("by_kernel"));
    }

    void differentProgramsExitTwo() {
        QTemporaryDir dir;
        const QString a =
            QString::fromStdString(sltest::writeFile(dir, "a.json", sltest::tinyRankTrace(0, 1)));
        const QString b = generate(dir, "b");
        auto r = runCli({"compare", a, b});
        QCOMPARE(r.code, 2);
        checkOneLine(r.err, "error: ");
        QVERIFY2(r.err.contains("aligned") && r.err.contains("not look like one program"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void badInputAndUsage() {
        QTemporaryDir dir;
        const QString ok =
            QString::fromStdString(sltest::writeFile(dir, "ok.json", sltest::tinyRankTrace(0, 1)));
        const QString broken =
            QString::fromStdString(sltest::writeFile(dir, "broken.json", "{\"traceEvents\": [ {"));
        auto missing = runCli({"compare", ok, dir.filePath("nope.json")});
        QCOMPARE(missing.code, 2);
        checkOneLine(missing.err, "error: ");
        QVERIFY(missing.err.contains("nope.json"));
        auto bad = runCli({"compare", broken, ok});
        QCOMPARE(bad.code, 2);
        checkOneLine(bad.err, "error: ");
        QVERIFY(bad.err.contains("broken.json"));
        auto step = runCli({"compare", ok, ok, "--step", "9"});
        QCOMPARE(step.code, 2);
        checkOneLine(step.err, "error: ");
        QCOMPARE(runCli({"compare", ok}).code, 1);
        QCOMPARE(runCli({"compare", ok, ok, ok}).code, 1);
        QCOMPARE(runCli({"compare", ok, ok, "--out", dir.filePath("x.txt")}).code, 1);
        QCOMPARE(runCli({"compare", ok, ok, "--set", "no.such.knob=1"}).code, 1);
        QCOMPARE(runCli({"compare", ok, ok, "--et", ok}).code, 1);
        QCOMPARE(runCli({"compare", ok, ok, "--top", "-3"}).code, 1);
        const QString chakra = sltest::tracesDir() + "/chakra/real-1rank";
        if (QDir(chakra).exists()) {
            auto unmeasured = runCli({"compare", chakra, chakra});
            QCOMPARE(unmeasured.code, 2);
            checkOneLine(unmeasured.err, "error: ");
            QVERIFY(unmeasured.err.contains("no measured times"));
        }
        auto unwritable = runCli({"compare", ok, ok, "--out", dir.filePath("no/such/dir/x.html")});
        QCOMPARE(unwritable.code, 2);
        checkOneLine(unwritable.err, "error: ");
    }
};

QTEST_GUILESS_MAIN(TestCompareCli)
#include "test_CompareCli.moc"
