// sightline-cli export-chakra and Chakra input to info / simulate (docs/Chakra.md).
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/chakra/ChakraReader.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {

QString trace(const char* rel) {
    return QString::fromStdString(sltest::tracePath(rel));
}

QJsonObject json(const sltest::CliRun& r) {
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestExportChakraCli : public QObject {
    Q_OBJECT
private slots:
    void dlrmRoundTrip() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        const QString kineto = trace("dlrm-8rank-v100/kineto"), et = trace("dlrm-8rank-v100/et");
        const QString out = dir.filePath("chakra");
        auto exp = sltest::runCli({"export-chakra", kineto, "--et", et, "--out", out});
        QVERIFY2(exp.code == 0, exp.err.constData());
        QVERIFY2(!exp.err.contains("have no size"), exp.err.constData());
        // One file per rank; every collective sized: DLRM has 5 SendRecv (all_to_all) and 3
        // AllReduce kernels per rank (traces README), 64 in all, and --et sizes all 64.
        QStringList files = QDir(out).entryList({"*.et"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 8);
        int sized = 0, allToAll = 0, allReduce = 0;
        for (const auto& f : files) {
            sl::ChakraFile cf = sl::readChakraFile(QDir(out).filePath(f).toStdString());
            for (const auto& n : cf.nodes) {
                if (n.type != sl::ChakraNodeType::CommColl) continue;
                QVERIFY2(n.commSize > 0, qPrintable(f + ": " + QString::fromStdString(n.name)));
                ++sized;
                allToAll += n.commType == static_cast<int>(sl::ChakraCommType::AllToAll);
                allReduce += n.commType == static_cast<int>(sl::ChakraCommType::AllReduce);
            }
        }
        QCOMPARE(sized, 64);
        QCOMPARE(allToAll, 40);
        QCOMPARE(allReduce, 24);

        // Import: the 8 collectives per rank match across the 8 ranks.
        sl::TraceSet set = sl::loadTraceSet({out.toStdString()});
        QCOMPARE(set.ranks.size(), std::size_t(8));
        sl::ExecutionGraph g = sl::buildExecutionGraph(set);
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(8));

        // Simulate both: the job iteration within 1% of the Kineto replay.
        auto kin = sltest::runCli({"simulate", kineto, "--et", et, "--json"});
        QVERIFY2(kin.code == 0, kin.err.constData());
        auto chak = sltest::runCli({"simulate", out, "--json"});
        QVERIFY2(chak.code == 0, chak.err.constData());
        const double a = json(kin)["iteration"].toObject()["simulated_us"].toDouble();
        const double b = json(chak)["iteration"].toObject()["simulated_us"].toDouble();
        QVERIFY(a > 0);
        qInfo("Kineto replay %.2f us, Chakra round trip %.2f us (%.3f%%)", a, b, 100.0 * std::abs(b - a) / a);
        QVERIFY2(std::abs(b - a) / a < 0.01, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
        // ... and says it has nothing measured.
        QCOMPARE(json(chak)["measured_times"].toBool(true), false);
        QVERIFY(json(chak)["iteration"].toObject()["measured_us"].isNull());
    }

    void allReduceSetSimulates() {
        SL_REQUIRE_TRACES();
        auto r = sltest::runCli({"simulate", trace("chakra/allreduce-8npus"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject j = json(r);
        QCOMPARE(j["ranks"].toArray().size(), 8);
        // 5 us + 1 MiB x 2(8-1)/8 / 150 GB/s = 17.233 us (by hand), the same on every rank.
        for (const auto& rank : j["ranks"].toArray()) {
            QCOMPARE(rank.toObject()["simulated_us"].toDouble(), 17.23);
            QVERIFY(rank.toObject()["measured_us"].isNull());
        }
        auto table = sltest::runCli({"simulate", trace("chakra/allreduce-8npus")});
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.contains("no measured times"));
        QVERIFY(table.out.contains("1 collectives matched"));
    }

    void infoSummarisesChakra() {
        SL_REQUIRE_TRACES();
        auto r = sltest::runCli({"info", trace("chakra/real-1rank/chakra.0.et")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject j = json(r);
        QCOMPARE(j["measured_times"].toBool(true), false);
        QJsonObject c = j["ranks"].toArray()[0].toObject()["chakra"].toObject();
        // Counts decoded independently from the wire format (see test_ChakraReader).
        QCOMPARE(c["nodes_by_type"].toObject()["COMP_NODE"].toInt(), 3643);
        QCOMPARE(c["nodes_by_type"].toObject()["COMM_COLL_NODE"].toInt(), 21);
        QCOMPARE(c["data_deps"].toInt(), 181878);
        QCOMPARE(c["ctrl_deps"].toInt(), 3664);
        QCOMPARE(c["comm_nodes_sized"].toInt(), 7);
    }

    void badInputAndUsage() {
        QTemporaryDir dir;
        auto noOut = sltest::runCli({"export-chakra", QString::fromStdString(sltest::samplePath("."))});
        QCOMPARE(noOut.code, 1);
        const std::string bad = sltest::writeFile(dir, "bad.0.et", QByteArray("\x05\x0a\x03", 3));
        auto r = sltest::runCli({"simulate", QString::fromStdString(bad)});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("error: " + QByteArray::fromStdString(bad) + ": "), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestExportChakraCli)
#include "test_ExportChakraCli.moc"
