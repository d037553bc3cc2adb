// sightline-cli shard (docs/Embeddings.md, "Picking a plan"): a generated recommendation job traced
// with its tables crowded on two ranks, the candidates ranked best first, given plans, bad plans
// (one line naming the file, exit 2), tables inferred without a side file; and generate's
// --rec-tables / --rec-plan.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

// Eight tables of a 4-rank job, the traced plan puts the four heaviest on rank 0.
const char* kTables = R"({"batch_per_rank": 8192, "tables": [
    {"name": "big0", "rows": 8000000, "dim": 128, "pooling": 30, "rank": 0},
    {"name": "big1", "rows": 6000000, "dim": 128, "pooling": 30, "rank": 0},
    {"name": "big2", "rows": 5000000, "dim": 128, "pooling": 25, "rank": 0},
    {"name": "big3", "rows": 4000000, "dim": 128, "pooling": 25, "rank": 0},
    {"name": "s0", "rows": 100000, "dim": 32, "pooling": 2, "rank": 1},
    {"name": "s1", "rows": 100000, "dim": 32, "pooling": 2, "rank": 2},
    {"name": "s2", "rows": 100000, "dim": 32, "pooling": 2, "rank": 3},
    {"name": "s3", "rows": 100000, "dim": 32, "pooling": 2, "rank": 3}]})";

} // namespace

class TestShardCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString tables_, trace_;

private slots:
    void initTestCase() {
        tables_ = QString::fromStdString(sltest::writeFile(dir_, "tables.json", kTables));
        trace_ = dir_.filePath("trace");
        const auto g =
            sltest::runCli({"generate", "--out", trace_, "--dp", "4", "--rec-tables", tables_, "--quiet"});
        QVERIFY2(g.code == 0, g.err.constData());
    }

    void ranksCandidatesBestFirst() {
        const auto r = sltest::runCli({"shard", trace_, "--tables", tables_, "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["tables"].toObject()["count"].toInt(), 8);
        QCOMPARE(o["tables"].toObject()["inferred"].toBool(), false);
        const QJsonArray plans = o["plans"].toArray();
        QVERIFY(plans.size() >= 4);
        double last = 0, traced = -1;
        for (const auto& p : plans) {
            const double it = p.toObject()["iteration_us"].toDouble();
            QVERIFY(it >= last);
            last = it;
            if (p.toObject()["name"].toString() == "traced") traced = it;
            QCOMPARE(p.toObject()["lookup_us"].toArray().size(), 4);
        }
        // The traced plan replays the trace, and spreading the heavy tables beats it.
        QVERIFY(traced > 0);
        QVERIFY(std::abs(traced - o["replay_us"].toDouble()) < 0.005 * traced);
        QVERIFY(plans.first().toObject()["iteration_us"].toDouble() < 0.97 * traced);
        QVERIFY(plans.first().toObject()["name"].toString() != "traced");
    }

    void givenPlansAndText() {
        const auto p =
            sltest::writeFile(dir_, "spread.json", R"({"tables": {"big1": 1, "big2": 2, "big3": 3}})");
        const auto r =
            sltest::runCli({"shard", trace_, "--tables", tables_, "--plans", QString::fromStdString(p)});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("spread.json"));
        QVERIFY(r.out.contains("best plan"));
    }

    void inferredWithoutSideFile() {
        const auto r = sltest::runCli({"shard", trace_, "--top", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("inferred evenly from the trace's per-rank totals"));
    }

    void badPlans_data() {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing table") << R"({"tables": {"nope": 1}})"
                                       << "table nope is not in";
        QTest::newRow("missing rank") << R"({"tables": {"big0": 4}})"
                                      << "rank 4 is not in the job";
        QTest::newRow("listed twice") << R"([{"table": "s0", "rank": 1}, {"table": "s0", "rank": 2}])"
                                      << "table s0 is listed twice";
    }
    void badPlans() {
        QFETCH(QString, plan);
        QFETCH(QString, message);
        const auto p = sltest::writeFile(dir_, "bad.json", plan.toUtf8());
        const auto r =
            sltest::runCli({"shard", trace_, "--tables", tables_, "--plans", QString::fromStdString(p)});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        const QByteArray err = r.err.trimmed();
        QVERIFY2(err.startsWith(QByteArray("error: ") + QByteArray::fromStdString(p) + ": "),
                 err.constData());
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
        QVERIFY(!err.contains('\n'));
        // The same plan as a knob of simulate: the same line.
        const auto s = sltest::runCli({"simulate", trace_, "--set", "embedding.tables=" + tables_, "--set",
                                       "embedding.plan=" + QString::fromStdString(p)});
        QCOMPARE(s.code, 2);
        QVERIFY2(s.err.trimmed().startsWith(QByteArray("error: ") + QByteArray::fromStdString(p)),
                 s.err.constData());
    }

    void sideFileDisagrees() {
        const auto t = sltest::writeFile(dir_, "wrong.json",
                                         R"({"tables": [{"name": "x", "rows": 10, "dim": 4, "rank": 0}]})");
        const auto r = sltest::runCli({"shard", trace_, "--tables", QString::fromStdString(t)});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QByteArray("error: ") + QByteArray::fromStdString(t) + ": rank 0 holds"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestShardCli)
#include "test_ShardCli.moc"
