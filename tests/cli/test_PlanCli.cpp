// sightline-cli plan (docs/Layouts.md): the layouts of 8 GPUs predicted from one generated trace at
// (dp 4, tp 2), the global batch kept, against the same job generated in each layout (same seed):
// every step within 5%, the ranking the generated runs' ranking, and bad input one line.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <map>

namespace {

using Run = sltest::CliRun;

// Four layers, 5 x 1024 tokens per micro-batch, PCIe-class links (the oracle of tp.degree:
// tests/core/test_LayoutOracle.cpp); the global batch is 8 micro-batches.
QStringList job(int dp, int tp, bool shapes = true) {
    QStringList a{"--layers",       "4",
                  "--hidden",       "4096",
                  "--seq",          "1024",
                  "--microbatch",   "5",
                  "--intra-GBps",   "120",
                  "--dp",           QString::number(dp),
                  "--tp",           QString::number(tp),
                  "--microbatches", QString::number(8 / dp)};
    if (shapes) a << "--record-shapes";
    return a;
}

double measuredIteration(const QString& dir) {
    Run r = sltest::runCli({"simulate", dir, "--json"});
    if (r.code != 0) return -1;
    return QJsonDocument::fromJson(r.out).object()["iteration"].toObject()["measured_us"].toDouble();
}

} // namespace

class TestPlanCli : public QObject {
    Q_OBJECT
private slots:
    void ranksTheLayoutsOfTheGpus() {
        QTemporaryDir traced;
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", traced.path()} + job(4, 2)).code, 0);
        std::map<int, double> truth; // by tp
        for (int tp : {1, 2, 4, 8}) {
            QTemporaryDir d;
            QCOMPARE(sltest::runCli(QStringList{"generate", "--out", d.path()} + job(8 / tp, tp)).code, 0);
            truth[tp] = measuredIteration(d.path());
            QVERIFY(truth[tp] > 0);
        }
        Run r = sltest::runCli({"plan", traced.path(), "--gpus", "8", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QJsonArray layouts = j["layouts"].toArray();
        QCOMPARE(layouts.size(), 4);
        QCOMPARE(j["model"].toObject()["hidden"].toInt(), 4096);
        QCOMPARE(j["model"].toObject()["heads"].toInt(), 32);
        QCOMPARE(j["model"].toObject()["vocab"].toInt(), 32000);
        double previous = 0;
        for (const auto& v : layouts) {
            const QJsonObject l = v.toObject();
            const int tp = l["tp"].toInt();
            QCOMPARE(l["dp"].toInt() * tp * l["pp"].toInt(), 8);
            QCOMPARE(l["microbatches"].toInt(), 8 / l["dp"].toInt());
            QVERIFY2(!l.contains("error"), qPrintable(l["error"].toString()));
            QVERIFY(l["fits"].toBool());
            const double step = l["step_us"].toDouble();
            const double err = 100.0 * std::abs(step - truth[tp]) / truth[tp];
            QVERIFY2(
                err <= 5.0,
                qPrintable(
                    QString("tp %1: predicted %2 us, generated %3 us").arg(tp).arg(step).arg(truth[tp])));
            QVERIFY(step >= previous); // best first
            previous = step;
            QVERIFY(l["memory_gb"].toObject()["total"].toDouble() > 0);
            QCOMPARE(l["modelled"].toArray().isEmpty(), tp == 2);
        }
        int rank = 0;
        std::map<double, int> byTruth;
        for (const auto& [tp, t] : truth)
            byTruth[t] = tp;
        for (const auto& [t, tp] : byTruth)
            QCOMPARE(layouts[rank++].toObject()["tp"].toInt(), tp);

        Run text = sltest::runCli({"plan", traced.path(), "--gpus", "8"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("tokens/s") &&
                     text.out.contains("modelled for dp 8 x tp 1 x pp 1, 1 micro-batches"),
                 text.out.constData());

        // Micro-batches per replica given: every layout with each count, by tokens per second.
        Run mb = sltest::runCli({"plan", traced.path(), "--gpus", "8", "--microbatches", "1,2", "--json"});
        QCOMPARE(mb.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(mb.out).object()["layouts"].toArray();
        QCOMPARE(rows.size(), 8);
        double faster = 1e300;
        for (const auto& v : rows) {
            const QJsonObject l = v.toObject();
            const double tokens = l["tokens_per_s"].toDouble();
            QVERIFY(tokens <= faster);
            faster = tokens;
            // tokens per second = dp x M x 5120 tokens / step
            const double expected =
                l["dp"].toInt() * l["microbatches"].toInt() * 5120.0 / (l["step_us"].toDouble() / 1e6);
            QVERIFY(std::abs(tokens - expected) <= 0.001 * expected + 1);
        }
        QCOMPARE(sltest::runCli({"plan", traced.path(), "--gpus", "8", "--microbatches", "0"}).code, 1);
    }

    // --pp 1,2: the layouts of 8 GPUs with 1 and 2 pipeline stages (pp.degree splits the traced
    // layers), the global batch kept; every 2-stage layout within 5% of the job generated in it.
    void plansPipelineDegrees() {
        QTemporaryDir traced;
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", traced.path()} + job(4, 2)).code, 0);
        Run r = sltest::runCli({"plan", traced.path(), "--gpus", "8", "--pp", "1,2", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray layouts = QJsonDocument::fromJson(r.out).object()["layouts"].toArray();
        QCOMPARE(layouts.size(), 4 + 3); // pp 1: tp 1, 2, 4, 8; pp 2: tp 1, 2, 4
        int staged = 0;
        for (const auto& v : layouts) {
            const QJsonObject l = v.toObject();
            QVERIFY2(!l.contains("error"), qPrintable(l["error"].toString()));
            const int dp = l["dp"].toInt(), tp = l["tp"].toInt(), pp = l["pp"].toInt();
            QCOMPARE(dp * tp * pp, 8);
            QCOMPARE(l["microbatches"].toInt(), 8 / dp);
            if (pp != 2) continue;
            QTemporaryDir d;
            QCOMPARE(sltest::runCli(QStringList{"generate", "--out", d.path()} + job(dp, tp) +
                                    QStringList{"--pp", "2"})
                         .code,
                     0);
            const double truth = measuredIteration(d.path()), step = l["step_us"].toDouble();
            const double err = 100.0 * std::abs(step - truth) / truth;
            qInfo("(%d,%d,2): planned %.1f us, generated %.1f us, %.2f%% off", dp, tp, step, truth, err);
            QVERIFY2(err <= 5.0, qPrintable(QString("(%1,%2,2): planned %3 us, generated %4 us")
                                                .arg(dp)
                                                .arg(tp)
                                                .arg(step)
                                                .arg(truth)));
            ++staged;
        }
        QCOMPARE(staged, 3);
    }

    void badInputIsOneLine() {
        QTemporaryDir noShapes;
        QCOMPARE(sltest::runCli(QStringList{"generate", "--out", noShapes.path()} + job(4, 2, false)).code,
                 0);
        Run r = sltest::runCli({"plan", noShapes.path(), "--gpus", "8"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("error: ") && r.err.contains("no transformer layers recognised") &&
                     r.err.count('\n') == 1,
                 r.err.constData());
        Run odd = sltest::runCli({"plan", noShapes.path(), "--gpus", "6"});
        QCOMPARE(odd.code, 2);
        QCOMPARE(sltest::runCli({"plan", noShapes.path()}).code, 1); // --gpus is required
        Run tp3 = sltest::runCli({"simulate", noShapes.path(), "--set", "tp.degree=3"});
        QCOMPARE(tp3.code, 2);
        QVERIFY2(tp3.err.count('\n') == 1, tp3.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestPlanCli)
#include "test_PlanCli.moc"
