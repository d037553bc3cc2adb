// sightline-cli export-benchmark (docs/Chakra.md, "Benchmark export"): the script for a DLRM rank
// is valid Python and lists the same operator / shape multiset as the source rank, derived here
// independently from the raw Kineto JSON (not through Sightline's loader).
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>

namespace {

QString trace(const char* rel) {
    return QString::fromStdString(sltest::tracePath(rel));
}

QString compact(const QJsonValue& v) {
    if (v.isArray()) return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QStringLiteral("null");
}

// (aten op name, Input Dims) of the innermost aten:: CPU op with shapes around each runtime call
// that launched a non-NCCL GPU op, one entry per CPU op: the multiset the script must list.
QMap<QString, int> expectedOps(const QString& file) {
    QFile f(file);
    f.open(QIODevice::ReadOnly);
    const QJsonArray events = QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray();
    QMap<double, bool> gpuCorrelations; // correlation ids of non-NCCL GPU ops
    for (const auto& v : events) {
        const QJsonObject e = v.toObject();
        const QString cat = e["cat"].toString();
        if ((cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") &&
            !e["name"].toString().contains("nccl"))
            gpuCorrelations[e["args"].toObject()["correlation"].toDouble()] = true;
    }
    struct CpuOp {
        double ts, dur;
        QString key;
    };
    QMap<QString, QVector<CpuOp>> opsByThread;
    for (const auto& v : events) {
        const QJsonObject e = v.toObject();
        const QJsonObject args = e["args"].toObject();
        if (e["cat"].toString() == "cpu_op" && e["name"].toString().startsWith("aten::") &&
            args.contains("Input Dims")) {
            const QString thread = e["pid"].toVariant().toString() + "/" + e["tid"].toVariant().toString();
            opsByThread[thread].push_back({e["ts"].toDouble(), e["dur"].toDouble(),
                                           e["name"].toString() + " " + compact(args["Input Dims"])});
        }
    }
    QMap<QString, int> out;
    QMap<QString, bool> used; // a CPU op counts once, however many GPU ops it launched
    for (const auto& v : events) {
        const QJsonObject e = v.toObject();
        if (e["cat"].toString() != "cuda_runtime" ||
            !gpuCorrelations.contains(e["args"].toObject()["correlation"].toDouble()))
            continue;
        const double ts = e["ts"].toDouble(), end = ts + e["dur"].toDouble();
        const QString thread = e["pid"].toVariant().toString() + "/" + e["tid"].toVariant().toString();
        const CpuOp* inner = nullptr;
        for (const auto& op : opsByThread[thread])
            if (op.ts <= ts && op.ts + op.dur >= end &&
                (!inner || op.ts > inner->ts || (op.ts == inner->ts && op.dur < inner->dur)))
                inner = &op;
        if (!inner) continue;
        const QString id = thread + "@" + QString::number(inner->ts, 'f', 3) + inner->key;
        if (used.contains(id)) continue;
        used[id] = true;
        ++out[inner->key];
    }
    return out;
}

} // namespace

class TestExportBenchmarkCli : public QObject {
    Q_OBJECT
private slots:
    void dlrmRankZero() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        const QString bench = dir.filePath("bench.py");
        const QString kineto = trace("dlrm-8rank-v100/kineto");
        auto r = sltest::runCli(
            {"export-benchmark", kineto, "--et", trace("dlrm-8rank-v100/et"), "--rank", "0", "--out", bench});
        QVERIFY2(r.code == 0, r.err.constData());

        QProcess py;
        py.start("python3", {"-m", "py_compile", bench});
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());

        QFile f(bench);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        const qsizetype a = text.indexOf("r\"\"\"") + 4, b = text.indexOf("\"\"\")", a);
        QVERIFY(a > 4 && b > a);
        const QJsonArray ops = QJsonDocument::fromJson(text.mid(a, b - a).toUtf8()).array();
        QMap<QString, int> listed;
        int collectives = 0, allReduce = 0, allToAll = 0;
        for (const auto& v : ops) {
            const QJsonObject o = v.toObject();
            if (o["collective"].toBool()) {
                ++collectives;
                QVERIFY(o["bytes"].toDouble() > 0); // --et sized every collective
                allReduce += o["name"].toString() == "all_reduce";
                allToAll += o["name"].toString() == "all_to_all" || o["name"].toString() == "send_recv";
                continue;
            }
            ++listed[o["name"].toString() + " " + compact(o["dims"])];
        }
        // DLRM rank 0: 3 AllReduce and 5 SendRecv (all_to_all) kernels (traces README).
        QCOMPARE(collectives, 8);
        QCOMPARE(allReduce, 3);
        QCOMPARE(allToAll, 5);
        const QString source = QDir(kineto).entryInfoList({"worker0_*.json"}).value(0).filePath();
        const QMap<QString, int> expected = expectedOps(source);
        QVERIFY(expected.size() > 10);
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(
                listed.value(it.key()) == it.value(),
                qPrintable(it.key() +
                           QString(": expected %1, listed %2").arg(it.value()).arg(listed.value(it.key()))));
        for (auto it = listed.begin(); it != listed.end(); ++it)
            QVERIFY2(expected.contains(it.key()), qPrintable("not in the source rank: " + it.key()));
    }

    void usage() {
        QCOMPARE(sltest::runCli({"export-benchmark", QString::fromStdString(sltest::samplePath("."))}).code,
                 1);
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        auto r = sltest::runCli({"export-benchmark", trace("dlrm-8rank-v100/kineto"), "--rank", "9", "--out",
                                 dir.filePath("b.py")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("rank 9"));
    }
};

QTEST_GUILESS_MAIN(TestExportBenchmarkCli)
#include "test_ExportBenchmarkCli.moc"
