// A run folder (kineto/ and et/ inside, as ../shared/traces/dlrm-8rank-v100) given alone to info,
// simulate, report and export-chakra: the Kineto traces of kineto/ with the execution traces of et/,
// exactly as `PATH/kineto --et PATH/et` (io/EtFolder.h isRunFolder, docs/Chakra.md).
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {

QString dlrm(const char* sub = "") {
    return QString::fromStdString(sltest::tracePath("dlrm-8rank-v100")) + sub;
}

} // namespace

class TestRunFolderCli : public QObject {
    Q_OBJECT
private slots:
    // info and simulate print the same as with the paths spelled out, and say where they came from.
    void sameAsKinetoWithEt_data() {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("info") << QStringList{"info"};
        QTest::newRow("simulate") << QStringList{"simulate", "--json"};
    }
    void sameAsKinetoWithEt() {
        SL_REQUIRE_TRACES();
        QFETCH(QStringList, command);
        auto run = sltest::runCli(command + QStringList{dlrm()});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains("is a run folder"), run.err.constData());
        // The ET sizes all 64 collective kernels (traces README: none is sized by Kineto).
        QVERIFY2(run.err.contains("64 of 64"), run.err.constData());
        auto spelled = sltest::runCli(command + QStringList{dlrm("/kineto"), "--et", dlrm("/et")});
        QVERIFY2(spelled.code == 0, spelled.err.constData());
        QCOMPARE(run.out, spelled.out);
        // ... which info tells from the Kineto folder alone (no sizes without the ET; the replay
        // times collectives by their measured transfers either way, so simulate prints the same).
        if (command.front() == "info")
            QVERIFY(sltest::runCli(command + QStringList{dlrm("/kineto")}).out != run.out);
    }

    void reportAndExport() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        auto report = sltest::runCli(
            {"report", dlrm(), "--out", dir.filePath("r.html"), "--json", dir.filePath("r.json")});
        QVERIFY2(report.code == 0, report.err.constData());
        QVERIFY(QFile::exists(dir.filePath("r.html")));
        QFile json(dir.filePath("r.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(json.readAll()).isObject());
        // export-chakra: every collective sized from the ET, none estimated.
        auto exp = sltest::runCli({"export-chakra", dlrm(), "--out", dir.filePath("chakra")});
        QVERIFY2(exp.code == 0, exp.err.constData());
        QVERIFY2(!exp.err.contains("estimated"), exp.err.constData());
        QCOMPARE(QDir(dir.filePath("chakra")).entryList({"*.et"}, QDir::Files).size(), 8);
    }

    // An explicit --et wins over the run folder's et/; a folder with neither traces nor kineto/ is
    // still an error naming it.
    void explicitEtAndBadFolder() {
        SL_REQUIRE_TRACES();
        QTemporaryDir dir;
        auto r = sltest::runCli({"simulate", dlrm(), "--et", dlrm("/et/dlrm_eg_0.json.gz"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(!r.err.contains("is a run folder"));
        QVERIFY2(r.err.contains("1 file(s) linked"), r.err.constData());
        QVERIFY(QDir(dir.path()).mkpath("empty/et"));
        auto bad = sltest::runCli({"info", dir.filePath("empty")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("contains no trace files"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRunFolderCli)
#include "test_RunFolderCli.moc"
