// The scenario traps (docs/WhatIfWorkbench.md) on the bundled sample samples/02-dp4
// (always present, so nothing here skips): Add starts from the baseline and Duplicate copies the
// selected scenario; a knob edit on the baseline makes a new scenario named after what changed and
// says so; the panes' labels follow renames (without Qt's closeEditor warning); the result card
// compares the two scenarios on screen, upper against lower.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "ResultCard.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "analysis/StepExplanation.h"

#include "TestSupport.h"

#include <QLineEdit>
#include <QListWidget>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {
QStringList g_warnings;
void collect(QtMsgType type, const QMessageLogContext&, const QString& text) {
    if (type == QtWarningMsg) g_warnings << text;
}
} // namespace

class TestScenarioTraps : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }
    static ScenarioController* ctl(MainWindow& w) { return sltest::scenarios(w); }
    static void settle(MainWindow& w) { QVERIFY(sltest::settleSimulations(w)); }
    static void open(MainWindow& w) {
        w.show();
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        w.sessions()->openTraces({sample()});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
    }
    static SimKnobs knobs(double gpu, double net) {
        SimKnobs k;
        k.computeSpeedup = gpu;
        k.commSpeedup = net;
        return k;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ScenarioTraps");
    }

    void addStartsFromBaselineDuplicateCopies() {
        MainWindow w;
        open(w);
        ScenarioList* list = ctl(w)->list();
        // An edit of the baseline: a new scenario named after the change, and the window says so.
        w.sessions()->knobs()->setKnobs(knobs(2, 1));
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->current(), 1);
        QCOMPARE(list->at(1).name, QStringLiteral("GPU 2x"));
        QVERIFY(list->at(0).knobs.isReplay());
        auto* bar = part<MessageBar>(w);
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(QStringLiteral("\"GPU 2x\"")), qPrintable(bar->text()));
        // Add: from the baseline, whatever is selected ("Network 2x" must not keep GPU 2x).
        auto* dock = w.findChild<ScenariosDock*>();
        dock->addScenario();
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->current(), 2);
        QVERIFY(list->at(2).knobs.isReplay());
        QVERIFY(w.sessions()->knobs()->knobs().isReplay());
        // Duplicate: the selected one, knobs included.
        list->setCurrent(1);
        dock->duplicateScenario();
        QCOMPARE(list->count(), 4);
        QCOMPARE(list->current(), 3);
        QCOMPARE(list->at(3).knobs.toJson(), knobs(2, 1).toJson());
        QCOMPARE(list->at(3).name, QStringLiteral("GPU 2x copy"));
        // Four changed knobs: three named as people say them, the rest counted.
        SimKnobs four = knobs(2, 3);
        four.commOverlap = false;
        four.cpuSpeedup = 2;
        QCOMPARE(ScenarioList::nameFor(four), QStringLiteral("GPU 2x + network 3x + no overlap + 1 more"));
        settle(w);
    }

    void labelsFollowRenames() {
        MainWindow w;
        open(w);
        ScenarioList* list = ctl(w)->list();
        w.sessions()->knobs()->setKnobs(knobs(2, 1));
        settle(w);
        auto* panes = part<TimelinePanes>(w);
        QCOMPARE(panes->simulated()->note(), QStringLiteral("Scenario: GPU 2x"));
        // Renamed in the list, as a user does it: the editor, a name, Enter.
        auto* dock = w.findChild<ScenariosDock*>();
        QListWidget* view = dock->listWidget();
        g_warnings.clear();
        const QtMessageHandler old = qInstallMessageHandler(collect);
        view->editItem(view->item(1));
        auto* editor = view->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->setText(QStringLiteral("Faster GPU"));
        QTest::keyClick(editor, Qt::Key_Return);
        QCoreApplication::processEvents();
        qInstallMessageHandler(old);
        QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
        QCOMPARE(list->at(1).name, QStringLiteral("Faster GPU"));
        QCOMPARE(view->item(1)->text(), QStringLiteral("Faster GPU"));
        QCOMPARE(panes->simulated()->note(), QStringLiteral("Scenario: Faster GPU"));
        QVERIFY(part<ResultCard>(w)->text().startsWith(QStringLiteral("Faster GPU vs Baseline:")));
        // In the upper pane too, through another rename.
        dock->setTopPane(1);
        QCOMPARE(panes->measured()->note(), QStringLiteral("Scenario: Faster GPU"));
        QVERIFY(list->rename(1, QStringLiteral("Fast GPU")));
        QCOMPARE(panes->measured()->note(), QStringLiteral("Scenario: Fast GPU"));
        QCOMPARE(panes->simulated()->note(), QStringLiteral("Scenario: Fast GPU"));
        settle(w);
    }

    void cardComparesThePanesOnScreen() {
        MainWindow w;
        open(w);
        ScenarioList* list = ctl(w)->list();
        w.sessions()->knobs()->setKnobs(knobs(2, 1)); // scenario 1
        settle(w);
        QVERIFY(list->rename(1, QStringLiteral("GPU 2x")));
        const int both = list->add(QStringLiteral("GPU and network 2x"), knobs(2, 2));
        list->setCurrent(both);
        settle(w);
        auto* card = part<ResultCard>(w);
        const auto iteration = [&](int i) { return ctl(w)->result(i)->output.result->simulatedIteration; };
        QVERIFY(ctl(w)->result(0) && ctl(w)->result(1) && ctl(w)->result(both));
        // Upper pane: the measured trace. The card: lower against the baseline.
        QVERIFY2(
            card->text().startsWith(QStringLiteral("GPU and network 2x vs Baseline: ") +
                                    QString::fromStdString(resultHeadline(iteration(0), iteration(both)))),
            qPrintable(card->text()));
        // Upper pane: GPU 2x. The card: lower against upper.
        w.findChild<ScenariosDock*>()->setTopPane(1);
        QVERIFY2(
            card->text().startsWith(QStringLiteral("GPU and network 2x vs GPU 2x: ") +
                                    QString::fromStdString(resultHeadline(iteration(1), iteration(both)))),
            qPrintable(card->text()));
        QVERIFY(iteration(1) != iteration(0));
        // And back.
        w.findChild<ScenariosDock*>()->setTopPane(-1);
        QVERIFY(card->text().startsWith(QStringLiteral("GPU and network 2x vs Baseline: ")));
    }
};

QTEST_MAIN(TestScenarioTraps)
#include "test_ScenarioTraps.moc"
