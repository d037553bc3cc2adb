// A rank set with one bad file: the window says which file is wrong, keeps what was open, and offers
// to open the ranks that do load; those open with a warning naming the file left out.
#include "MainWindow.h"
#include "MessageBar.h"
#include "TraceLoader.h"

#include "TestSupport.h"

#include <QPushButton>

using namespace sl;
using namespace sl::ui;

class TestPartialLoadWindow : public QObject {
    Q_OBJECT
private slots:
    void offersTheGoodRanks() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", sltest::tinyRankTrace(0, 3));
        sltest::writeFile(dir, "rank-1.json", "{\"traceEvents\": [ {\"ph\": ");
        sltest::writeFile(dir, "rank-2.json", sltest::tinyRankTrace(2, 3));
        MainWindow w;
        w.openTraces({dir.path()});
        QVERIFY(w.loader()->waitForFinished(60'000));
        QVERIFY(!w.traceSet());
        QVERIFY(w.messageBar()->isVisibleTo(&w));
        QVERIFY(w.messageBar()->text().contains("rank-1.json"));
        QPushButton* action = w.messageBar()->actionButton();
        QVERIFY(action->isVisibleTo(&w));
        action->click();
        QVERIFY(w.loader()->waitForFinished(60'000));
        QVERIFY(w.traceSet());
        QCOMPARE(w.traceSet()->ranks.size(), std::size_t(2));
        bool named = false;
        for (const auto& warning : w.traceSet()->warnings)
            if (warning.find("rank-1.json") != std::string::npos) named = true;
        QVERIFY(named);
    }

    void oneBadFileHasNothingToOffer() {
        QTemporaryDir dir;
        const std::string bad = sltest::writeFile(dir, "one.json", "{\"traceEvents\": [ {\"ph\": ");
        MainWindow w;
        w.openTraces({QString::fromStdString(bad)});
        QVERIFY(w.loader()->waitForFinished(60'000));
        QVERIFY(w.messageBar()->isVisibleTo(&w));
        QVERIFY(!w.messageBar()->actionButton()->isVisibleTo(&w));
    }
};

QTEST_MAIN(TestPartialLoadWindow)
#include "test_PartialLoadWindow.moc"
