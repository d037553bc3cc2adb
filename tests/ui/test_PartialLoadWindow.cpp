// A rank set with one bad file: the window says which file is wrong, keeps what was open, and offers
// to open the ranks that do load; those open with a warning naming the file left out.
#include "MainWindow.h"
#include "MessageBar.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QPushButton>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestPartialLoadWindow : public QObject {
    Q_OBJECT
private slots:
    void offersTheGoodRanks() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-0.json", sltest::tinyRankTrace(0, 3));
        sltest::writeFile(dir, "rank-1.json", "{\"traceEvents\": [ {\"ph\": ");
        sltest::writeFile(dir, "rank-2.json", sltest::tinyRankTrace(2, 3));
        MainWindow w;
        w.sessions()->openTraces({dir.path()});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(!w.sessions()->traceSet());
        QVERIFY(part<MessageBar>(w)->isVisibleTo(&w));
        QVERIFY(part<MessageBar>(w)->text().contains("rank-1.json"));
        QPushButton* action = part<MessageBar>(w)->actionButton();
        QVERIFY(action->isVisibleTo(&w));
        action->click();
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t(2));
        bool named = false;
        for (const auto& warning : w.sessions()->traceSet()->warnings)
            if (warning.kind == Warn::FileLeftOut && warning.text.find("rank-1.json") != std::string::npos)
                named = true;
        QVERIFY(named);
    }

    void oneBadFileHasNothingToOffer() {
        QTemporaryDir dir;
        const std::string bad = sltest::writeFile(dir, "one.json", "{\"traceEvents\": [ {\"ph\": ");
        MainWindow w;
        w.sessions()->openTraces({QString::fromStdString(bad)});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(part<MessageBar>(w)->isVisibleTo(&w));
        QVERIFY(!part<MessageBar>(w)->actionButton()->isVisibleTo(&w));
    }
};

QTEST_MAIN(TestPartialLoadWindow)
#include "test_PartialLoadWindow.moc"
