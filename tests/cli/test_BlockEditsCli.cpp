// sightline-cli with the block-edit knobs (docs/Structure.md): `sweep --set model.layers=4,8` and
// `sweep --set pp.microbatches=2,4` on generated jobs predict the iteration of the job generated
// with 8 layers / 4 micro-batches (same seed) within 3%, the unchanged value is the baseline, and
// `simulate --json` reports what the edit did in setup.notes.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

namespace {

using Run = sltest::CliRun;

// A 4096-wide model on 2 stages x 2 TP ranks x 2 replicas (GPU-bound, so host jitter does not
// decide waits; the replicas' gradient all-reduces tell model.layers how the optimizer grows).
QStringList job(int layers, int microbatches) {
    return {"--layers",       QString::number(layers),
            "--hidden",       "4096",
            "--seq",          "1024",
            "--tp",           "2",
            "--dp",           "2",
            "--pp",           "2",
            "--microbatches", QString::number(microbatches)};
}

double measuredIteration(const QString& dir) {
    Run r = sltest::runCli({"simulate", dir, "--json"});
    if (r.code != 0) return -1;
    return QJsonDocument::fromJson(r.out).object()["iteration"].toObject()["measured_us"].toDouble();
}

} // namespace

class TestBlockEditsCli : public QObject {
    Q_OBJECT
private slots:
    void sweepPredictsTheGeneratedJobs() {
        QTemporaryDir a, deeper, longer;
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", a.path()} + job(4, 2)).code, 0);
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", deeper.path()} + job(8, 2)).code, 0);
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", longer.path()} + job(4, 4)).code, 0);
        struct Case {
            const char* set;
            double expected;
        } cases[] = {{"model.layers=4,8", measuredIteration(deeper.path())},
                     {"pp.microbatches=2,4", measuredIteration(longer.path())}};
        for (const auto& c : cases) {
            Run r = sltest::runCli({"sweep", a.path(), "--set", c.set, "--json"});
            QCOMPARE(r.code, 0);
            QJsonObject j = QJsonDocument::fromJson(r.out).object();
            QJsonArray pts = j["points"].toArray();
            QCOMPARE(pts.size(), 2);
            const double base = j["baseline"].toObject()["iteration_us"].toDouble();
            QCOMPARE(pts[0].toObject()["iteration_us"].toDouble(), base); // the traced value
            const double predicted = pts[1].toObject()["iteration_us"].toDouble();
            QVERIFY(c.expected > 0);
            qInfo("%s: predicted %.1f us, generated %.1f us", c.set, predicted, c.expected);
            QVERIFY2(std::abs(predicted - c.expected) / c.expected < 0.03,
                     qPrintable(QString("%1: predicted %2 us, generated %3 us")
                                    .arg(c.set)
                                    .arg(predicted)
                                    .arg(c.expected)));
            QVERIFY(pts[1].toObject()["warnings"].toArray().isEmpty());
        }
    }

    void simulateReportsTheEdit() {
        QTemporaryDir a;
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", a.path()} + job(4, 2)).code, 0);
        Run r = sltest::runCli({"simulate", a.path(), "--set", "model.layers=8", "--json"});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QString notes =
            QString::fromUtf8(QJsonDocument(j["setup"].toObject()["notes"].toArray()).toJson());
        // 2 layers per stage become 4.
        QVERIFY2(notes.contains("2 -> 4 layers"), qPrintable(notes));
    }

    // pp.degree that the trace cannot make (3 stages of 4 layers): exit 2 and one line naming it.
    void pipelineThatCannotBeMadeIsOneLine() {
        QTemporaryDir a;
        QCOMPARE(sltest::runCli({"generate", "--out", a.path(), "--layers", "4", "--dp", "2"}).code, 0);
        Run r = sltest::runCli({"simulate", a.path(), "--set", "pp.degree=3"});
        QCOMPARE(r.code, 2);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.contains("pp.degree=3: 3 does not divide the 4 layers"), qPrintable(err));
        QVERIFY2(!err.contains('\n'), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestBlockEditsCli)
#include "test_BlockEditsCli.moc"
