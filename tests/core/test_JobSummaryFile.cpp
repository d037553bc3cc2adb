// A saved job summary read back for the window (report/JobSummaryFile.h): the rank overview and
// who waited for whom of a job summarised rank by rank equal what the whole set gives (the
// 8-rank straggler sample: rank 5 is last, the same spread at every collective), and a file that
// is no job summary gives one line naming it.
#include "GraphFixture.h"
#include "JobSummaryFixture.h"

#include "analysis/CollectiveArrivals.h"
#include "base/Error.h"
#include "report/JobSummaryFile.h"

#include "TestSupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace sl;
using slgraph::loadCached;
using slgraph::LoadedSet;

namespace {

nlohmann::json summarizeJob(const std::string& folder) {
    return sltest::summarizeJob(folder, {{"/runs/rank-9.json", "rank-9.json: not JSON"}});
}

std::string write(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestJobSummaryFile : public QObject {
    Q_OBJECT
private slots:
    void readsWhatTheWholeSetGives() {
        const std::string folder = sltest::samplePath("01-dp8-straggler");
        QTemporaryDir dir;
        const std::string path = write(dir, "job.json", summarizeJob(folder).dump());
        const JobSummaryFile job = readJobSummaryFile(path);
        QCOMPARE(job.ranks.size(), std::size_t(8));
        QCOMPARE(job.missing.size(), std::size_t(1));
        QCOMPARE(job.missing.front().path, std::string("/runs/rank-9.json"));
        QVERIFY(!job.complete);
        for (const auto& r : job.ranks) {
            QVERIFY(QFileInfo::exists(QString::fromStdString(r.path)));
            QVERIFY(r.measuredUs > 0 && r.computeUs > 0 && r.commUs > 0);
        }
        // Against the whole set loaded at once.
        const LoadedSet& whole = loadCached(folder);
        const CollectiveArrivals all = collectiveArrivals(whole.graph);
        QCOMPARE(job.arrivals.collectives.size(), all.collectives.size());
        auto idOfJob = [&](std::uint32_t i) { return job.ranks[i].rank; };
        auto idOfSet = [&](std::uint32_t i) { return whole.graph.ranks[i].rankId; };
        for (std::size_t c = 0; c < all.collectives.size(); ++c) {
            const CollectiveArrival& a = job.arrivals.collectives[c];
            const CollectiveArrival& b = all.collectives[c];
            QCOMPARE(a.type, b.type);
            QCOMPARE(a.ranks.size(), b.ranks.size());
            QVERIFY(std::llabs(a.spread - b.spread) <= 10); // the file keeps 0.01 us
            if (b.spread > 0) QCOMPARE(idOfJob(a.last().rank), idOfSet(b.last().rank));
        }
        for (const RankWaiting& w : all.ranks) {
            const auto it = std::find_if(job.arrivals.ranks.begin(), job.arrivals.ranks.end(),
                                         [&](const RankWaiting& x) { return x.rankId == w.rankId; });
            QVERIFY(it != job.arrivals.ranks.end());
            QVERIFY(std::llabs(it->madeOthersWait - w.madeOthersWait) <= 10);
            QCOMPARE(it->timesLast, w.timesLast);
        }
        // Rank 5, the straggler, made the others wait.
        const auto top = std::max_element(
            job.arrivals.ranks.begin(), job.arrivals.ranks.end(),
            [](const RankWaiting& a, const RankWaiting& b) { return a.madeOthersWait < b.madeOthersWait; });
        QCOMPARE(top->rankId, idOfSet(static_cast<std::uint32_t>(
                                  std::find_if(whole.graph.ranks.begin(), whole.graph.ranks.end(),
                                               [](const RankWindow& r) { return r.rankId == 5; }) -
                                  whole.graph.ranks.begin())));
    }

    void notAJobSummary_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{ nope") << "not JSON";
        QTest::newRow("a trace") << QByteArray(R"({"traceEvents": []})") << "not a job summary";
        QTest::newRow("no collectives") << QByteArray(R"({"ranks": []})") << "no 'collectives' object";
        QTest::newRow("twice") << QByteArray(R"({"ranks": [{"rank": 1}, {"rank": 1}], "collectives": {}})")
                               << "rank 1 is listed twice";
        QTest::newRow("unknown rank")
            << QByteArray(
                   R"({"ranks": [{"rank": 0}], "collectives": {"collectives": [{"arrivals": [{"rank": 4}]}]}})")
            << "names rank 4";
    }
    void notAJobSummary() {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = write(dir, "bad.json", text.toStdString());
        try {
            readJobSummaryFile(path);
            QFAIL("no error");
        } catch (const Error& e) {
            const QString line = QString::fromUtf8(e.what());
            QVERIFY2(line.startsWith(QString::fromStdString(path)), qPrintable(line));
            QVERIFY2(line.contains(expected), qPrintable(line));
            QVERIFY(!line.contains(QLatin1Char('\n')));
        }
        try {
            readJobSummaryFile(dir.filePath(QStringLiteral("none.json")).toStdString());
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), ErrorKind::Read);
        }
    }
};

QTEST_MAIN(TestJobSummaryFile)
#include "test_JobSummaryFile.moc"
