// gpu.target across vendors (docs/GpuModel.md, "Achieved efficiency"), an oracle through the command
// line: the same generated job on an A100 and on an MI300X whose kernels reach the per-family
// efficiencies of a GPU table (generate --measured-efficiency, the table given by
// SIGHTLINE_GPU_TABLE), the MI300X run predicted from the A100 trace with gpu.target=MI300X. With the
// families' efficiencies the prediction lands within 3%; with a table that has none (each kernel
// keeps the efficiency it showed on the A100, the old model) it misses by far more, so a swap that
// ignored the efficiencies fails. A bad table file is one line naming it.
#include "TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args, const QString& table) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SIGHTLINE_GPU_TABLE", table);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SIGHTLINE_CLI), args);
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The builtin entries of A100-80GB and MI300X with the given efficiencies (none when empty).
QByteArray tableWith(const QJsonObject& a100Efficiency, const QJsonObject& mi300xEfficiency) {
    QFile f(QStringLiteral(SIGHTLINE_SOURCE_DIR "/resources/gpus.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QJsonArray gpus = QJsonDocument::fromJson(f.readAll()).object()["gpus"].toArray();
    QJsonArray out;
    for (const auto& v : gpus) {
        QJsonObject g = v.toObject();
        const QString name = g["name"].toString();
        if (name != "A100-80GB" && name != "MI300X") continue;
        const QJsonObject eff = name == "MI300X" ? mi300xEfficiency : a100Efficiency;
        QJsonObject sources = g["sources"].toObject();
        g.remove("efficiency");
        g.remove("min_kernel_us");
        sources.remove("efficiency");
        sources.remove("min_kernel_us");
        if (!eff.isEmpty()) {
            g["efficiency"] = eff;
            g["min_kernel_us"] = name == "MI300X" ? 4.5 : 2.0;
            sources["efficiency"] = "test";
            sources["min_kernel_us"] = "test";
        }
        g["sources"] = sources;
        out.append(g);
    }
    return QJsonDocument(QJsonObject{{"gpus", out}}).toJson();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return f.fileName();
}

double iterationUs(const Run& r, const char* field) {
    return QJsonDocument::fromJson(r.out.toUtf8()).object()["iteration"].toObject()[field].toDouble();
}

} // namespace

class TestGpuEfficiencyOracleCli : public QObject {
    Q_OBJECT

private slots:
    void predictsAnotherVendorsGpuFromItsFamilies() {
        QTemporaryDir dir;
        // cuBLAS-class GEMMs at 0.75 of the A100's roofline and hipBLASLt's at 0.35 of the MI300X's,
        // and so on per family (the orders of the real measurements in resources/gpus.json).
        const QJsonObject a100{{"gemm.blas", 0.75},
                               {"attention.flash", 0.6},
                               {"elementwise", 0.7},
                               {"reduction", 0.5},
                               {"copy", 0.8}};
        const QJsonObject mi300x{{"gemm.blas", 0.35},
                                 {"attention.flash", 0.3},
                                 {"elementwise", 0.55},
                                 {"reduction", 0.4},
                                 {"copy", 0.6}};
        const QString measured = writeFile(dir, "measured.json", tableWith(a100, mi300x));
        const QString plain = writeFile(dir, "plain.json", tableWith({}, {}));
        const QStringList job = {"--dp",
                                 "1",
                                 "--layers",
                                 "2",
                                 "--hidden",
                                 "4096",
                                 "--heads",
                                 "32",
                                 "--seq",
                                 "2048",
                                 "--vocab",
                                 "32000",
                                 "--quiet",
                                 "--record-shapes",
                                 "--measured-efficiency"};
        const QString a = dir.filePath("a100"), b = dir.filePath("mi300x");
        QCOMPARE(cli(QStringList{"generate", "--out", a, "--gpu", "a100"} + job, measured).code, 0);
        QCOMPARE(cli(QStringList{"generate", "--out", b, "--gpu", "mi300x"} + job, measured).code, 0);
        const Run truth = cli({"simulate", "--json", b}, measured);
        QCOMPARE(truth.code, 0);
        const double after = iterationUs(truth, "measured_us");
        const Run pred = cli({"simulate", "--json", "--set", "gpu.target=MI300X", a}, measured);
        QVERIFY2(pred.code == 0, qPrintable(pred.err));
        const Run old = cli({"simulate", "--json", "--set", "gpu.target=MI300X", a}, plain);
        QVERIFY2(old.code == 0, qPrintable(old.err));
        const Run none = cli({"simulate", "--json", a}, measured);
        const double predicted = iterationUs(pred, "simulated_us"), kept = iterationUs(old, "simulated_us"),
                     before = iterationUs(none, "measured_us");
        const double err = 100.0 * std::abs(predicted - after) / after;
        const double errKept = 100.0 * std::abs(kept - after) / after;
        const double errNone = 100.0 * std::abs(before - after) / after;
        qInfo("MI300X measured %.0f us; predicted %.0f us (%.2f%%); source efficiency kept %.0f us (%.1f%%); "
              "no change %.0f us (%.1f%%)",
              after, predicted, err, kept, errKept, before, errNone);
        QVERIFY2(err < 3.0, qPrintable(QString("error %1%").arg(err)));
        QVERIFY2(errKept > 10.0, "the efficiencies must matter, or the test cannot fail");
        QVERIFY2(err < errNone, "the prediction must beat no change");
        // The JSON names each family's two efficiencies.
        const QJsonObject swap = QJsonDocument::fromJson(pred.out.toUtf8()).object()["gpu_swap"].toObject();
        bool gemm = false;
        for (const auto& f : swap["efficiency"].toArray()) {
            const QJsonObject o = f.toObject();
            if (o["family"].toString() != "gemm.blas") continue;
            gemm = true;
            QCOMPARE(o["source_efficiency"].toDouble(), 0.75);
            QCOMPARE(o["target_efficiency"].toDouble(), 0.35);
            QCOMPARE(o["source_efficiency_from"].toString(), QString("table"));
        }
        QVERIFY(gemm);
        QCOMPARE(swap["min_kernel_us"].toObject()["target"].toDouble(), 4.5);
    }

    void badTableFileIsOneLine() {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, "bad.json", "{\"gpus\": [{\"name\": \"X\"}]}");
        const Run r = cli({"simulate", "--set", "gpu.target=H100", "--json",
                           QStringLiteral(SIGHTLINE_SOURCE_DIR "/samples/02-dp4")},
                          bad);
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("bad.json"), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        const Run missing = cli(
            {"simulate", "--set", "gpu.target=H100", QStringLiteral(SIGHTLINE_SOURCE_DIR "/samples/02-dp4")},
            dir.filePath("none.json"));
        QVERIFY(missing.code != 0);
        QVERIFY2(missing.err.contains("none.json") && missing.err.contains("cannot read"),
                 qPrintable(missing.err));
    }
};

QTEST_GUILESS_MAIN(TestGpuEfficiencyOracleCli)
#include "test_GpuEfficiencyOracleCli.moc"
