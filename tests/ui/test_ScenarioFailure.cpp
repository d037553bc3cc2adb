// One failure path (docs/WhatIfWorkbench.md): a scenario whose simulation throws (a straggler on a
// rank the 4-rank sample does not have: KnobError when it is simulated) reaches the message bar with
// the scenario named, and the delta table stops saying it is busy.
#include "DeltaTable.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QLabel>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestScenarioFailure : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ScenarioFailure");
    }

    void aThrowingScenarioIsNamedInTheMessageBar() {
        MainWindow w;
        QVERIFY(sltest::openSample(w, "02-dp4", 1280, 720));
        ScenarioController* scenarios = sltest::scenarios(w);
        QSignalSpy failed(scenarios->runner(), &ScenarioRunner::failed);
        SimKnobs impossible;
        impossible.stragglerRank = 100; // the sample has ranks 0..3
        impossible.stragglerSlowdown = 2;
        scenarios->list()->add(QStringLiteral("Rank 100 slow"), impossible);
        QVERIFY(sltest::settleSimulations(w));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60'000);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("Rank 100 slow"));
        auto* bar = part<MessageBar>(w);
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(QStringLiteral("Rank 100 slow")), qPrintable(bar->text()));
        // What the core said, too (the rank it does not have).
        QVERIFY2(bar->text().contains(QStringLiteral("100")), qPrintable(bar->text()));
        // The delta table no longer says it is simulating.
        bool busy = false;
        for (const QLabel* label : part<DeltaTable>(w)->findChildren<QLabel*>())
            busy = busy || label->text().startsWith(QStringLiteral("Simulating scenarios"));
        QVERIFY(!busy);
    }
};

QTEST_MAIN(TestScenarioFailure)
#include "test_ScenarioFailure.moc"
