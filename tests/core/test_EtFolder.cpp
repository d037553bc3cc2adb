// core/io/EtFolder: the execution-trace folder logic shared by the CLI (--et) and the GUI.
#include "TestSupport.h"

#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace sl;

class TestEtFolder : public QObject {
    Q_OBJECT
private slots:
    void folderBesideKineto() {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath("run/kineto");
        QDir(dir.path()).mkpath("run/et");
        const std::string kineto = dir.filePath("run/kineto").toStdString();
        // An empty et/ folder is not an execution-trace folder.
        QCOMPARE(etFolderBeside(kineto), std::string());
        sltest::writeFile(dir, "run/et/rank_0.json", "{}");
        const std::string et = dir.filePath("run/et").toStdString();
        QCOMPARE(etFolderBeside(kineto), et);
        // A file inside kineto/ finds it too; the et/ folder itself has no et/ beside it.
        const std::string file = sltest::writeFile(dir, "run/kineto/worker0.json", "{}");
        QCOMPARE(etFolderBeside(file), et);
        QCOMPARE(etFolderBeside(et), std::string());
        // The run folder itself (kineto/ and et/ inside): its et/, and its kineto/ files to load.
        const std::string run = dir.filePath("run").toStdString();
        QVERIFY(isRunFolder(run));
        QVERIFY(!isRunFolder(kineto));
        QCOMPARE(etFolderBeside(run), et);
        QCOMPARE(expandTracePaths({run}), std::vector<std::string>{file});
        // A trace file of its own makes it an ordinary trace folder.
        sltest::writeFile(dir, "run/rank0.json", "{}");
        QVERIFY(!isRunFolder(run));
    }

    void expandsSorted() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "b_1.json.gz", "x");
        sltest::writeFile(dir, "a_0.json", "x");
        sltest::writeFile(dir, "notes.txt", "x");
        auto files = expandEtPaths({dir.path().toStdString()});
        QCOMPARE(files.size(), std::size_t(2));
        QVERIFY(QString::fromStdString(files[0]).endsWith("a_0.json"));
        QVERIFY_THROWS_EXCEPTION(LoadError, expandEtPaths({dir.filePath("missing").toStdString()}));
    }

    void dlrmSizesEveryCollective() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        const std::string et = etFolderBeside(sltest::tracePath("dlrm-8rank-v100/kineto"));
        QCOMPARE(et, sltest::tracePath("dlrm-8rank-v100/et"));
        EtApplied a = applyExecutionTraces(set, {et});
        // 8 ET files, 8 collectives per rank (5 SendRecv + 3 AllReduce, traces README): 64, all sized.
        QCOMPARE(a.files, 8);
        QCOMPARE(a.ranksLinked, 8);
        QCOMPARE(a.matchedBy, std::string("file name"));
        QCOMPARE(a.collectives, 64);
        QCOMPARE(a.filled, 64);
        QCOMPARE(a.unmatched, 0);
    }
};

QTEST_GUILESS_MAIN(TestEtFolder)
#include "test_EtFolder.moc"
