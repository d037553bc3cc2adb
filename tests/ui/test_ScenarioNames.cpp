// Scenarios named by what they are (docs/WhatIfWorkbench.md, "Scenarios"): a name made from the
// knobs follows them until the user renames the scenario, survives a session file, and a number
// typed into a knob field is committed once, when the field is done, never per keystroke (typing
// 4096 into dp.degree simulated and named "dp.degree = 4").
#include "KnobPanel.h"
#include "Scenario.h"
#include "Session.h"

#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
SimKnobs knobs(double compute, double comm = 1.0) {
    SimKnobs k;
    k.computeSpeedup = compute;
    k.commSpeedup = comm;
    return k;
}
} // namespace

class TestScenarioNames : public QObject {
    Q_OBJECT
private slots:
    void nameFollowsTheKnobsUntilRenamed() {
        ScenarioList list;
        QSignalSpy listChanged(&list, &ScenarioList::listChanged);
        // An edit of the baseline starts a scenario named after it.
        const int i = list.setKnobs(0, knobs(2));
        QCOMPARE(i, 1);
        QCOMPARE(list.at(i).name, QStringLiteral("compute.speedup = 2"));
        QVERIFY(list.at(i).nameFollowsKnobs);
        // Edited again: the name says the new knobs.
        list.setKnobs(i, knobs(2, 2));
        QCOMPARE(list.at(i).name, QStringLiteral("comm.speedup = 2, compute.speedup = 2"));
        // Back at the replay's values: a what-if of nothing yet.
        list.setKnobs(i, SimKnobs{});
        QCOMPARE(list.at(i).name, QStringLiteral("What-if"));
        // Renamed by the user: the name stays whatever the knobs become.
        QVERIFY(list.rename(i, QStringLiteral("Faster network")));
        QVERIFY(!list.at(i).nameFollowsKnobs);
        list.setKnobs(i, knobs(1, 4));
        QCOMPARE(list.at(i).name, QStringLiteral("Faster network"));
        // Add in the Scenarios dock: "What-if" until its knobs say more.
        const int added = list.addNamedByKnobs(SimKnobs{});
        QCOMPARE(list.at(added).name, QStringLiteral("What-if"));
        list.setKnobs(added, knobs(1, 2));
        QCOMPARE(list.at(added).name, QStringLiteral("comm.speedup = 2"));
        // Two scenarios with the same knobs: the second name is made unique, never shared.
        const int twin = list.addNamedByKnobs(SimKnobs{});
        list.setKnobs(twin, knobs(1, 2));
        QCOMPARE(list.at(twin).name, QStringLiteral("comm.speedup = 2 2"));
        // ... and keeps its own name on an edit that leaves it as it is.
        list.setKnobs(added, knobs(1, 2));
        QCOMPARE(list.at(added).name, QStringLiteral("comm.speedup = 2"));
        QVERIFY(listChanged.count() > 0);
    }

    void followingNamesSurviveTheSessionFile() {
        Session s;
        s.traces = {QStringLiteral("/runs/a.json")};
        s.scenarios = {{QStringLiteral("Baseline"), {}, false},
                       {QStringLiteral("compute.speedup = 2"), knobs(2), true},
                       {QStringLiteral("Mine"), knobs(3), false}};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("names.sightline.json"));
        QCOMPARE(writeSessionFile(path, s), QString());
        Session back;
        QCOMPARE(readSessionFile(path, back), QString());
        QCOMPARE(back.scenarios.size(), std::size_t{3});
        QVERIFY(back.scenarios[1].nameFollowsKnobs);
        QVERIFY(!back.scenarios[2].nameFollowsKnobs);
    }

    void typedNumberCommitsWhenTheFieldIsDone() {
        KnobPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* degree = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("dp.degree")));
        QVERIFY(degree);
        QSignalSpy changed(&panel, &KnobPanel::changed);
        degree->setFocus();
        degree->selectAll();
        QTest::keyClicks(degree, QStringLiteral("4096"));
        QCOMPARE(changed.count(), 0); // no edit per keystroke
        QTest::keyClick(degree, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.knobs().dpDegree, 4096);
        // A pause of typing commits too.
        degree->selectAll();
        QTest::keyClicks(degree, QStringLiteral("64"));
        QCOMPARE(changed.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 5000);
        QCOMPARE(panel.knobs().dpDegree, 64);
    }
};

QTEST_MAIN(TestScenarioNames)
#include "test_ScenarioNames.moc"
