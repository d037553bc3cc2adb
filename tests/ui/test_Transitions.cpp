// Transitions between scenarios (ui/model/Transition.h) on the bundled samples/02-dp4: frames
// interpolate every event between the two timelines; switching the current scenario moves the
// simulated pane's events over about 400 ms while data() is the new timeline at once; View > Animate
// Scenario Switches off switches at once.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "Transition.h"
#include "WindowParts.h"

#include "io/KinetoLoader.h"

#include "TestSupport.h"

#include <QAction>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestTransitions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Transitions");
    }

    void framesInterpolate() {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        SimKnobs fast;
        fast.computeSpeedup = 2;
        const auto a = SimRunner::runNow(set, {}).timeline;
        const auto b = SimRunner::runNow(set, fast).timeline;
        const auto half = interpolateTimeline(*a, *b, 0.5);
        const auto end = interpolateTimeline(*a, *b, 1.0);
        QVERIFY(half && end);
        int moved = 0;
        for (std::size_t k = 0; k < set->ranks[0].tracks.size(); ++k) {
            const TrackTimeline &ta = a->track(0, k), &tb = b->track(0, k), &th = half->track(0, k),
                                &te = end->track(0, k);
            for (std::size_t i = 0; i < set->ranks[0].tracks[k].events.size(); ++i) {
                if (ta.start[i] < 0 || tb.start[i] < 0) continue;
                QVERIFY(std::abs(th.start[i] - (ta.start[i] + tb.start[i]) / 2) <= 1);
                QCOMPARE(te.start[i], tb.start[i]);
                QCOMPARE(te.duration[i], tb.duration[i]);
                moved += ta.start[i] != tb.start[i] ? 1 : 0;
            }
        }
        QVERIFY(moved > 100);
        // Timelines of two sets do not mix.
        auto other = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("02-dp4")}));
        QVERIFY(!interpolateTimeline(*a, *TimelineData::measured(other), 0.5));
    }

    void switchingScenariosAnimates() {
        MainWindow w;
        QVERIFY(sltest::openSample(w, "02-dp4"));
        SimKnobs fast;
        fast.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(fast); // a what-if scenario, now current
        QVERIFY(sltest::settleSimulations(w));
        auto* transitions = w.findChild<QAction*>(QStringLiteral("transitionsAction"));
        QVERIFY(transitions);
        transitions->setChecked(true);
        TimelineView* pane = w.findChild<TimelinePanes*>()->simulated();
        QTRY_VERIFY_WITH_TIMEOUT(!pane->transitioning(), 2000);
        const auto before = pane->data();
        ScenarioList* list = w.sessions()->scenarios()->list();
        QCOMPARE(list->count(), 2);
        list->setCurrent(0); // back to the baseline
        QTRY_VERIFY_WITH_TIMEOUT(pane->data() != before, 30'000);
        QVERIFY(pane->transitioning());
        QTRY_VERIFY_WITH_TIMEOUT(!pane->transitioning(), 3000); // about 400 ms
        // Off: the next switch is at once.
        transitions->setChecked(false);
        const auto baseline = pane->data();
        list->setCurrent(1);
        QTRY_VERIFY_WITH_TIMEOUT(pane->data() != baseline, 30'000);
        QVERIFY(!pane->transitioning());
        transitions->setChecked(true); // the setting is kept: leave it on
    }
};

QTEST_MAIN(TestTransitions)
#include "test_Transitions.moc"
