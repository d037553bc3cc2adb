// A rank set with one bad file: by default the load fails with that file's error; with
// skipBadFiles the good ranks load and a warning names the file that was left out.
#include "TestSupport.h"

#include "io/KinetoLoader.h"
#include "io/LoadError.h"

using namespace sl;

class TestPartialLoad : public QObject {
    Q_OBJECT
private slots:
    void badFileFailsTheSetByDefault() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", sltest::tinyRankTrace(0, 3));
        sltest::writeFile(dir, "rank-1.json", "{\"traceEvents\": [ {\"ph\": ");
        sltest::writeFile(dir, "rank-2.json", sltest::tinyRankTrace(2, 3));
        QVERIFY_THROWS_EXCEPTION(LoadError, loadTraceSet({dir.path().toStdString()}));
    }

    void goodRanksLoadWhenAsked() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", sltest::tinyRankTrace(0, 3));
        sltest::writeFile(dir, "rank-1.json", "{\"traceEvents\": [ {\"ph\": ");
        sltest::writeFile(dir, "rank-2.json", sltest::tinyRankTrace(2, 3));
        LoadOptions options;
        options.skipBadFiles = true;
        options.progress = [](std::int64_t, std::int64_t) { return true; };
        TraceSet set = loadTraceSet({dir.path().toStdString()}, options);
        QCOMPARE(set.ranks.size(), std::size_t(2));
        QCOMPARE(set.ranks[0].rank, 0);
        QCOMPARE(set.ranks[1].rank, 2);
        bool named = false;
        for (const auto& w : set.warnings)
            if (w.kind == Warn::FileLeftOut && w.text.find("rank-1.json") != std::string::npos) named = true;
        QVERIFY(named);
    }

    void allBadStillFails() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", "not json");
        sltest::writeFile(dir, "rank-1.json", "{}");
        LoadOptions options;
        options.skipBadFiles = true;
        QVERIFY_THROWS_EXCEPTION(LoadError, loadTraceSet({dir.path().toStdString()}, options));
    }
};

QTEST_GUILESS_MAIN(TestPartialLoad)
#include "test_PartialLoad.moc"
