// sightline-cli --et: execution traces give DLRM's collectives (no Kineto metadata) their sizes.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QString trace(const char* rel) {
    return QString::fromStdString(sltest::tracePath(rel));
}

// Whether `simulate --json` counted collective kernels without sizes (docs/Diagnostics.md).
bool mentionsNoSize(const QJsonArray& stats) {
    for (const auto& s : stats)
        if (s.toObject()["key"].toString() == QStringLiteral("alpha_beta_no_size")) return true;
    return false;
}

} // namespace

class TestEtCli : public QObject {
    Q_OBJECT
private slots:
    void simulateAlphaBetaWithEt() {
        SL_REQUIRE_TRACES();
        const QString kineto = trace("dlrm-8rank-v100/kineto"), et = trace("dlrm-8rank-v100/et");
        auto without = sltest::runCli({"simulate", kineto, "--set", "comm.model=alpha-beta", "--json"});
        QCOMPARE(without.code, 0);
        QVERIFY(mentionsNoSize(QJsonDocument::fromJson(without.out).object()["warning_stats"].toArray()));

        auto with =
            sltest::runCli({"simulate", kineto, "--et", et, "--set", "comm.model=alpha-beta", "--json"});
        QVERIFY2(with.code == 0, with.err.constData());
        QJsonObject j = QJsonDocument::fromJson(with.out).object();
        QVERIFY(j["warning_stats"].isArray());
        QVERIFY(!mentionsNoSize(j["warning_stats"].toArray()));
        QVERIFY2(with.err.contains("by file name") && with.err.contains("64 of 64") &&
                     with.err.contains("unmatched 0"),
                 with.err.constData());
        QVERIFY(j["iteration"].toObject()["error_pct"].toDouble() < 3.0);
    }

    void calibrateFitsAllReduceAndAllToAll() {
        SL_REQUIRE_TRACES();
        auto r = sltest::runCli(
            {"calibrate", trace("dlrm-8rank-v100/kineto"), "--et", trace("dlrm-8rank-v100/et")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject cal = QJsonDocument::fromJson(r.out).object()["calibration"].toObject();
        QCOMPARE(cal["collectives_without_bytes"].toInt(), 0);
        int allReduce = 0, allToAll = 0;
        for (const auto& f : cal["fits"].toArray()) {
            QJsonObject o = f.toObject();
            if (o["type"] == "all_reduce") allReduce = o["samples"].toInt();
            if (o["type"] == "all_to_all") allToAll = o["samples"].toInt();
            if (o["type"] == "all_reduce" || o["type"] == "all_to_all") QVERIFY(o["bus_GBps"].toDouble() > 0);
        }
        QCOMPARE(allReduce, 3); // 3 AllReduce and 5 all-to-all per rank, matched across 8 ranks
        QCOMPARE(allToAll, 5);
        QVERIFY(cal["check"].toObject()["error_pct"].toDouble() < 3.0);
    }

    void etFilesInAnyOrderMatchByName() {
        SL_REQUIRE_TRACES();
        QStringList args{"simulate", trace("dlrm-8rank-v100/kineto")};
        for (int r = 7; r >= 0; --r)
            args << "--et" << trace("dlrm-8rank-v100/et/dlrm_eg_") + QString::number(r) + ".json.gz";
        auto run = sltest::runCli(args);
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains("by file name") && run.err.contains("64 of 64"), run.err.constData());
    }

    void missingEtRankIsWarned() {
        SL_REQUIRE_TRACES();
        auto run = sltest::runCli({"info", trace("dlrm-8rank-v100/kineto"), "--et",
                                   trace("dlrm-8rank-v100/et/dlrm_eg_2.json.gz"), "--compact"});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains("1 rank(s) by file name") && run.err.contains("8 of 8"),
                 run.err.constData());
        // The seven ranks without one, counted under their key (base/Diagnostics.h).
        double without = 0;
        for (const auto& s : QJsonDocument::fromJson(run.out).object()["warning_stats"].toArray())
            if (s.toObject()["key"].toString() == "et_rank_without_trace")
                without = s.toObject()["count"].toDouble();
        QCOMPARE(without, 7.0);
    }

    void badEtIsExit2() {
        QTemporaryDir dir;
        std::string bad = sltest::writeFile(dir, "bad_et.json", "{\"nodes\": [");
        std::string notEt = sltest::writeFile(dir, "not_et.json", "{\"traceEvents\": []}");
        const QString sample = QString::fromStdString(sltest::samplePath("04-dp2-tp2-pp2-2nodes"));
        for (const auto& et :
             {QString::fromStdString(bad), QString::fromStdString(notEt), dir.filePath("missing.json")}) {
            auto r = sltest::runCli({"simulate", sample, "--et", et});
            QCOMPARE(r.code, 2);
            QByteArray err = r.err.trimmed();
            QVERIFY2(err.startsWith("error: " + et.toUtf8() + ": "), err.constData());
            QVERIFY2(!err.contains('\n'), err.constData());
        }
        QTemporaryDir empty;
        auto r = sltest::runCli({"simulate", sample, "--et", empty.path()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no execution trace files"));
    }
};

QTEST_GUILESS_MAIN(TestEtCli)
#include "test_EtCli.moc"
