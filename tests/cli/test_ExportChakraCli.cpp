// sightline-cli export-chakra and Chakra input to info / simulate (docs/Chakra.md).
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/chakra/ChakraReader.h"

#include <QDir>
#include <QFileInfo>
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

double simulatedUs(const QStringList& args) {
    auto r = sltest::runCli(QStringList{"simulate"} + args + QStringList{"--json"});
    if (r.code != 0) qWarning("%s", r.err.constData());
    return json(r)["iteration"].toObject()["simulated_us"].toDouble(-1);
}

// mlcommons/chakra's schema and reader plus what ASTRA-sim reads (../shared/tools/chakra-check).
QString chakraCheck() {
    return QDir::cleanPath(sltest::tracesDir() + "/../tools/chakra-check/check");
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

    // Exports ASTRA-sim can run: Chakra's own checker reports nothing it or ASTRA-sim would reject
    // (integer pg_name with the comm-group JSON, comm_src / comm_dst / comm_tag on every send and
    // receive, comm_size on every collective), and the round trip replays as the Kineto set does.
    void exportsPassChakraCheck_data() {
        QTest::addColumn<QStringList>("generate"); // generator options, or empty for DLRM
        QTest::addColumn<bool>("withEt");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("dlrm with ET") << QStringList{} << true << 0.01;
        QTest::newRow("dlrm without ET") << QStringList{} << false << 0.05;
        QTest::newRow("data parallel 8") << QStringList{"--dp", "8", "--layers", "2"} << false << 0.01;
        QTest::newRow("tensor 4 x data 2")
            << QStringList{"--dp", "2", "--tp", "4", "--layers", "2"} << false << 0.01;
        QTest::newRow("pipeline 2") << QStringList{"--dp", "1", "--pp", "2", "--layers", "4"} << false
                                    << 0.01;
        QTest::newRow("pipeline 2, 4 micro-batches")
            << QStringList{"--dp", "1", "--pp", "2", "--layers", "4", "--microbatches", "4"} << false << 0.01;
    }
    void exportsPassChakraCheck() {
        SL_REQUIRE_TRACES();
        QFETCH(QStringList, generate);
        QFETCH(bool, withEt);
        QFETCH(double, tolerance);
        if (!QFileInfo(chakraCheck()).isExecutable()) QSKIP("../shared/tools/chakra-check not found");
        QTemporaryDir dir;
        QStringList input;
        if (generate.isEmpty()) {
            input = {trace("dlrm-8rank-v100/kineto")};
            if (withEt) input += QStringList{"--et", trace("dlrm-8rank-v100/et")};
        } else {
            auto gen = sltest::runCli(QStringList{"generate", "--out", dir.filePath("kineto"), "--quiet"} +
                                      generate);
            QVERIFY2(gen.code == 0, gen.err.constData());
            input = {dir.filePath("kineto")};
        }
        const QString out = dir.filePath("chakra");
        auto exp = sltest::runCli(QStringList{"export-chakra"} + input + QStringList{"--out", out});
        QVERIFY2(exp.code == 0, exp.err.constData());
        // Sizes estimated only without the ET, and said once.
        QCOMPARE(exp.err.count("comm_size estimated"), generate.isEmpty() && !withEt ? 1 : 0);

        QProcess check;
        check.start(chakraCheck(), {out});
        QVERIFY(check.waitForFinished(120000));
        const QByteArray report = check.readAllStandardOutput() + check.readAllStandardError();
        QVERIFY2(check.exitCode() == 0 && report.contains("TOTAL ERRORS: 0"), report.right(3000).constData());

        // Every send and receive names its peer and tag; the group file lists every integer pg_name.
        QJsonObject groups;
        if (QFile f(out + "/comm_group.json"); f.open(QIODevice::ReadOnly))
            groups = QJsonDocument::fromJson(f.readAll()).object();
        int p2p = 0, colls = 0, estimated = 0;
        for (const auto& name : QDir(out).entryList({"*.et"}, QDir::Files)) {
            const sl::ChakraFile cf = sl::readChakraFile(QDir(out).filePath(name).toStdString());
            const int self = sl::rankFromChakraFileName(name.toStdString());
            for (const auto& n : cf.nodes) {
                if (n.type == sl::ChakraNodeType::CommSend || n.type == sl::ChakraNodeType::CommRecv) {
                    ++p2p;
                    QVERIFY(n.commSrc >= 0 && n.commDst >= 0 && n.commTag >= 0 && n.commSize > 0);
                    QCOMPARE(n.type == sl::ChakraNodeType::CommSend ? n.commSrc : n.commDst,
                             std::int64_t(self));
                } else if (n.type == sl::ChakraNodeType::CommColl) {
                    ++colls;
                    QVERIFY(n.commSize > 0 && !n.isCpuOp);
                    estimated += n.commSizeEstimated;
                    if (!n.commGroup.empty()) {
                        QVERIFY2(groups.contains(QString::fromStdString(n.commGroup)), n.commGroup.c_str());
                        QVERIFY(groups[QString::fromStdString(n.commGroup)].toArray().contains(self));
                    }
                }
            }
        }
        if (generate.contains("--pp")) QVERIFY(p2p > 0);
        QCOMPARE(estimated, generate.isEmpty() && !withEt ? colls : 0);

        // Round trip: export, import, simulate against the Kineto replay.
        const double a = simulatedUs(input), b = simulatedUs({out});
        QVERIFY(a > 0 && b > 0);
        qInfo("Kineto replay %.2f us, Chakra round trip %.2f us (%.3f%%)", a, b, 100.0 * std::abs(b - a) / a);
        QVERIFY2(std::abs(b - a) / a < tolerance, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
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
            // A COMM_COLL node is communication by its type (its name, "all_reduce", is no kernel's).
            QCOMPARE(rank.toObject()["comm_us"].toDouble(), 17.23);
            QCOMPARE(rank.toObject()["compute_us"].toDouble(-1), 0.0);
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
