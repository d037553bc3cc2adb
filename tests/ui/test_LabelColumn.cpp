// The track-label column can be widened (long device names like "Tesla V100-SXM2-16GB"): dragging its
// edge in either pane resizes it in both panes and the axis, clicks still hit the right events, and
// the width is kept across runs.
#include "MainWindow.h"
#include "SimRunner.h"
#include "TimelinePanes.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"

#include <QSettings>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestLabelColumn : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_LabelColumn");
        QSettings().clear();
    }

    void dragTheEdge() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(2, 2, 200),
                                   {QStringLiteral("/synthetic/labels")});
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        TimelineView* measured = part<TimelinePanes>(w)->measured();
        TimelineView* simulated = part<TimelinePanes>(w)->simulated();
        const int before = w.sessions()->view()->gutterWidth();
        QCOMPARE(before, TimelineRenderer::kGutterWidth);
        const int y = 60;
        QTest::mousePress(simulated, Qt::LeftButton, {}, QPoint(before, y));
        QTest::mouseMove(simulated, QPoint(before + 60, y));
        QTest::mouseMove(simulated, QPoint(before + 130, y));
        QTest::mouseRelease(simulated, Qt::LeftButton, {}, QPoint(before + 130, y));
        QCOMPARE(w.sessions()->view()->gutterWidth(), before + 130);
        QCOMPARE(measured->eventArea().left(), before + 130);
        QCOMPARE(simulated->eventArea().left(), before + 130);
        QCOMPARE(w.sessions()->view()->viewportWidth(), measured->eventArea().width());
        QVERIFY(!w.sessions()->selection()->event().valid()); // dragging the edge selects nothing
        // Clicks land on the events under them with the new column.
        w.sessions()->view()->setWindow(w.sessions()->measured()->start(),
                                        w.sessions()->measured()->start() + 50'000);
        const EventId e{1, {1, 2}};
        const QRectF r = TimelineRenderer::eventRect(*measured->data(), measured->layout(),
                                                     w.sessions()->view()->mapping(), e);
        QVERIFY(!r.isEmpty());
        QTest::mouseClick(measured, Qt::LeftButton, {},
                          QPoint(w.sessions()->view()->gutterWidth() + static_cast<int>(r.center().x()),
                                 static_cast<int>(r.center().y()) - w.sessions()->view()->scrollY()));
        QCOMPARE(w.sessions()->selection()->event(), e);
        // Bounded: never narrower than kMinGutter nor wider than half the pane.
        w.sessions()->view()->setGutterWidth(5);
        QCOMPARE(w.sessions()->view()->gutterWidth(), ViewController::kMinGutter);
        w.sessions()->view()->setGutterWidth(before + 130);
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; }); // the zoom is an edit
        w.close();                                                           // saves it
        MainWindow again;
        again.restoreLayout();
        QCOMPARE(again.sessions()->view()->gutterWidth(), before + 130);
    }
};

QTEST_MAIN(TestLabelColumn)
#include "test_LabelColumn.moc"
