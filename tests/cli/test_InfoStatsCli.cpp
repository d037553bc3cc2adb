// `sightline-cli info` prints the warning counters (base/Diagnostics.h): "warning_stats" in the
// JSON, one object per kind, and `--stats` as a table; the warnings' lines stay beside them.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

class TestInfoStatsCli : public QObject {
    Q_OBJECT

private slots:
    // Two files of rank 0 in a job of 4: one is shown as rank 1, ranks 2 and 3 are missing.
    void countersByKey() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "a.json", sltest::tinyRankTrace(0, 4));
        sltest::writeFile(dir, "b.json", sltest::tinyRankTrace(0, 4));
        auto run = sltest::runCli({"info", dir.path(), "--compact"});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(j["warnings"].toArray().size(), 2);
        QMap<QString, QJsonObject> byKey;
        for (const auto& s : j["warning_stats"].toArray())
            byKey[s.toObject()["key"].toString()] = s.toObject();
        QCOMPARE(byKey.size(), 2);
        QCOMPARE(byKey["duplicate_rank"]["count"].toInt(), 1);
        QCOMPARE(byKey["ranks_missing"]["count"].toInt(), 2);
        QCOMPARE(byKey["ranks_missing"]["lines"].toInt(), 1);
        QCOMPARE(byKey["ranks_missing"]["severity"].toString(), QStringLiteral("info"));
        QVERIFY(!byKey["duplicate_rank"]["message"].toString().isEmpty());
        QVERIFY(byKey["duplicate_rank"]["example"].toString().contains(QStringLiteral("b.json")));

        auto table = sltest::runCli({"info", dir.path(), "--stats"});
        QVERIFY2(table.code == 0, table.err.constData());
        const QString text = QString::fromUtf8(table.out);
        QVERIFY2(text.startsWith(QStringLiteral("key")), qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\nduplicate_rank +warning +1 "))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\nranks_missing +info +2 "))),
                 qPrintable(text));
    }

    void cleanTraceHasNoCounters() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", sltest::tinyRankTrace(0, 1));
        auto run = sltest::runCli({"info", dir.path(), "--compact"});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(run.out).object();
        QVERIFY(j["warning_stats"].isArray());
        QCOMPARE(j["warning_stats"].toArray().size(), 0);
        auto table = sltest::runCli({"info", dir.path(), "--stats"});
        QCOMPARE(QString::fromUtf8(table.out), QStringLiteral("no warnings\n"));
    }
};

QTEST_GUILESS_MAIN(TestInfoStatsCli)
#include "test_InfoStatsCli.moc"
