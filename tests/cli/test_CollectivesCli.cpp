// sightline-cli collectives: who waited for whom. The straggler sample (always present): rank 5 is
// the rank the others wait for; DLRM: rank 7 enters the first all_to_all last; a single rank of a
// two-rank job: phantom peers; bad input and usage errors.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

using Run = sltest::CliRun;

QString trace(const char* rel) {
    return QString::fromStdString(sltest::tracePath(rel));
}

} // namespace

class TestCollectivesCli : public QObject {
    Q_OBJECT
private slots:
    void stragglerSampleNamesRank5() {
        const QString sample = QString::fromStdString(sltest::samplePath("01-dp8-straggler"));
        Run r = sltest::runCli({"collectives", sample, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QJsonArray ranks = j["ranks"].toArray();
        QCOMPARE(ranks.size(), 8);
        // Sorted by the time made others wait: the straggler first, nobody else made anyone wait.
        QCOMPARE(ranks[0].toObject()["rank"].toInt(), 5);
        QVERIFY(ranks[0].toObject()["made_others_wait_us"].toDouble() > 1000);
        QCOMPARE(ranks[1].toObject()["made_others_wait_us"].toDouble(), 0.0);
        double waited = 0, made = 0;
        for (const auto& v : ranks) {
            waited += v.toObject()["waited_us"].toDouble();
            made += v.toObject()["made_others_wait_us"].toDouble();
        }
        QVERIFY(std::abs(waited - made) < 0.1);
        const QJsonArray colls = j["collectives"].toArray();
        QVERIFY(!colls.isEmpty());
        const QJsonObject first = colls[0].toObject();
        QCOMPARE(first["type"].toString(), QString("all_reduce"));
        QCOMPARE(first["size"].toInt(), 8);
        QCOMPARE(first["arrivals"].toArray().size(), 8);
        QCOMPARE(first["last_rank"].toInt(), 5);
        QVERIFY(first["spread_us"].toDouble() > 100);
        QCOMPARE(first["phantom_peers"].toInt(), 0);
        // The table names the straggler too.
        Run t = sltest::runCli({"collectives", sample});
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains("rank 5"));
        QVERIFY(t.out.contains("12 collectives, 8 ranks"));
    }

    void dlrmRank7EntersTheFirstAllToAllLast() {
        SL_REQUIRE_TRACES();
        Run r = sltest::runCli({"collectives", trace("dlrm-8rank-v100/kineto"), "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject first =
            QJsonDocument::fromJson(r.out).object()["collectives"].toArray()[0].toObject();
        QCOMPARE(first["last_rank"].toInt(), 7);
        QVERIFY(std::abs(first["spread_us"].toDouble() - 7624) < 30);
        const QJsonArray arrivals = first["arrivals"].toArray();
        QCOMPARE(arrivals.size(), 8);
        QCOMPARE(arrivals[0].toObject()["rank"].toInt(), 1);
        QCOMPARE(arrivals[7].toObject()["rank"].toInt(), 7);
        QCOMPARE(arrivals[7].toObject()["waited_us"].toDouble(), 0.0);
    }

    void phantomPeersAreMarked() {
        SL_REQUIRE_TRACES();
        Run r = sltest::runCli(
            {"collectives", trace("single-rank/a100-nccl-metadata-rank0of2.json.gz"), "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QJsonArray colls = j["collectives"].toArray();
        QVERIFY(!colls.isEmpty());
        for (const auto& v : colls) {
            const QJsonObject c = v.toObject();
            QCOMPARE(c["phantom_peers"].toInt(), 1);
            QCOMPARE(c["size"].toInt(), 2);
            QVERIFY(c.contains("phantom_arrival_us"));
        }
        QVERIFY(j["waited_for_phantoms_us"].toDouble() > 0);
    }

    // A 20-rank data-parallel job: the table keeps a line per collective readable, the first and
    // last eight arrivals and a count of the rest, the group as a range; --json keeps all of them.
    void largeGroupsStayReadable() {
        QTemporaryDir dir;
        QCOMPARE(sltest::runCli({"generate", "--out", dir.path(), "--dp", "20", "--layers", "1", "--seq",
                                 "256", "--hidden", "512", "--heads", "8"})
                     .code,
                 0);
        Run t = sltest::runCli({"collectives", dir.path()});
        QCOMPARE(t.code, 0);
        QVERIFY2(t.out.contains("... (4 more)"), t.out.constData());
        QVERIFY(t.out.contains("[0-19]"));
        Run j = sltest::runCli({"collectives", dir.path(), "--json"});
        QCOMPARE(j.code, 0);
        const QJsonObject first =
            QJsonDocument::fromJson(j.out).object()["collectives"].toArray()[0].toObject();
        QCOMPARE(first["arrivals"].toArray().size(), 20);
        QCOMPARE(first["group_ranks"].toArray().size(), 20);
    }

    void badInputAndUsage() {
        Run missing = sltest::runCli({"collectives", "/nonexistent/x.json"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("/nonexistent/x.json"));
        QCOMPARE(missing.err.count('\n'), 1);
        QCOMPARE(sltest::runCli({"collectives"}).code, 1);
        QCOMPARE(sltest::runCli({"collectives", "--bogus", "x"}).code, 1);
        Run help = sltest::runCli({"collectives", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("usage: sightline-cli collectives"));
        QVERIFY(sltest::runCli({"--help"}).out.contains("collectives"));
    }
};

QTEST_GUILESS_MAIN(TestCollectivesCli)
#include "test_CollectivesCli.moc"
