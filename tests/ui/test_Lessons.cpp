// Guided lessons (ui/model/Lesson.h, ui/session/LessonPanel.h, docs/Lessons.md): every bundled
// lesson loads, opens its sample and applies each step's knobs, highlights and zoom in the window;
// Back / Next and the progress line follow the steps; a broken lesson file gives one line naming
// the file and what is wrong, never a crash, in the panel's open() and through Help > Lessons.
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "Lesson.h"
#include "LessonPanel.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "RowLayout.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "Selection.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QMenu>
#include <QPushButton>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestLessons : public QObject {
    Q_OBJECT

    static QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
        return QString::fromStdString(sltest::writeFile(dir, name, text));
    }
    // Waits until the panel's step is applied (its trace loaded) and the simulations settled.
    static bool settle(MainWindow& w, LessonPanel& panel) {
        QElapsedTimer clock;
        clock.start();
        while (!panel.applied() && clock.elapsed() < 60'000)
            QTest::qWait(20);
        return panel.applied() && sltest::settleSimulations(w);
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Lessons");
    }

    // At least five bundled lessons, each on a bundled sample, every step with text.
    void bundledLessonsRead() {
        const QStringList files = bundledLessons();
        QVERIFY2(files.size() >= 5, qPrintable(QString::number(files.size())));
        for (const QString& f : files) {
            Lesson l;
            QCOMPARE(readLessonFile(f, l), QString());
            QVERIFY(!l.title.isEmpty());
            QVERIFY(QFileInfo(l.trace).isDir());
            QVERIFY(l.steps.size() >= 3);
            int questions = 0;
            for (const LessonStep& s : l.steps) {
                QVERIFY(!s.text.isEmpty());
                questions += s.question.isEmpty() ? 0 : 1;
            }
            QVERIFY2(questions >= 1, qPrintable(f)); // every lesson asks the learner something
        }
    }

    // Each lesson in the window: every step opens the sample and sets its knobs, highlights, zoom.
    void everyStepApplies() {
        MainWindow w;
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        QVERIFY(menus);
        for (const QString& f : bundledLessons()) {
            QCOMPARE(menus->openLesson(f), QString());
            LessonPanel& panel = *menus->lessonPanel();
            QVERIFY(panel.isVisible());
            for (int i = 0; i < panel.stepCount(); ++i) {
                if (i > 0) QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
                QVERIFY2(settle(w, panel), qPrintable(QStringLiteral("%1 step %2").arg(f).arg(i + 1)));
                const LessonStep& s = panel.lesson().steps[static_cast<std::size_t>(i)];
                QCOMPARE(panel.step(), i);
                QCOMPARE(panel.progressText(),
                         QStringLiteral("Step %1 of %2").arg(i + 1).arg(panel.stepCount()));
                QCOMPARE(w.sessions()->tracePaths().size(), 1);
                QCOMPARE(QFileInfo(w.sessions()->tracePaths().front()).fileName(),
                         QFileInfo(panel.lesson().trace).fileName());
                QVERIFY2(w.sessions()->knobs()->knobs().toJson() == s.knobs.toJson(),
                         qPrintable(QStringLiteral("%1 step %2").arg(f).arg(i + 1)));
                QCOMPARE(w.sessions()->highlights()->criticalPath(), s.criticalPath);
                QCOMPARE(w.sessions()->highlights()->exposed(), s.exposed);
                if (s.fromMs >= 0) {
                    const TimeNs origin = w.sessions()->measured()->start();
                    QCOMPARE(w.sessions()->view()->windowStart(),
                             origin + static_cast<TimeNs>(s.fromMs * 1e6));
                    QCOMPARE(w.sessions()->view()->windowEnd(), origin + static_cast<TimeNs>(s.toMs * 1e6));
                }
                // The event the step points at is selected (rank id and name as the step says).
                const EventId sel = w.sessions()->selection()->event();
                QCOMPARE(sel.valid(), !s.selectName.isEmpty());
                if (sel.valid()) {
                    const Rank& rank = w.sessions()->traceSet()->ranks[static_cast<std::size_t>(sel.rank)];
                    QCOMPARE(rank.rank, s.selectRank);
                    QVERIFY(QString::fromStdString(std::string(rank.name(sel.ref))).contains(s.selectName));
                }
                QCOMPARE(panel.backButton()->isEnabled(), i > 0);
                QCOMPARE(panel.nextButton()->isEnabled(), i + 1 < panel.stepCount());
                QVERIFY(panel.text().contains(s.text.split(QStringLiteral("\n\n")).front().left(40)));
            }
            // Back goes to the step before, with its knobs.
            if (panel.stepCount() > 1) {
                QTest::mouseClick(panel.backButton(), Qt::LeftButton);
                QVERIFY(settle(w, panel));
                QCOMPARE(panel.step(), panel.stepCount() - 2);
                QVERIFY(w.sessions()->knobs()->knobs().toJson() ==
                        panel.lesson().steps[static_cast<std::size_t>(panel.step())].knobs.toJson());
            }
        }
    }

    // A lesson runs in a sandbox: the user's scenarios, knobs, traces and modified flag are put aside
    // and come back when it ends (its scenarios stayed in the user's list, carried over to the next
    // sample, and marked the session modified).
    void lessonRunsInASandbox() {
        for (const bool userModified : {true, false}) {
            MainWindow w;
            w.show();
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
            SessionController* s = w.sessions();
            // The user's work: 01-dp8-straggler, a scenario of their own (and, the first time, unsaved).
            const QString mine = QString::fromStdString(sltest::samplePath("01-dp8-straggler"));
            s->openTraces({mine});
            QVERIFY(s->loader()->waitForFinished(60'000));
            QVERIFY(sltest::settleSimulations(w));
            SimKnobs k;
            k.computeSpeedup = 3;
            s->knobs()->setKnobs(k);
            QVERIFY(sltest::settleSimulations(w));
            if (!userModified) {
                QTemporaryDir dir;
                QCOMPARE(s->document()->saveSession(dir.filePath(QStringLiteral("mine.sightline.json"))),
                         QString());
            }
            QCOMPARE(s->document()->modified(), userModified);
            const int userScenarios = sltest::scenarios(w)->list()->count();
            QCOMPARE(userScenarios, 2);
            // The lesson on another sample: its own list, and nothing it does is an edit.
            auto* menus = w.findChild<MainMenus*>();
            const QString lesson = bundledLessons().front(); // 01-overlap, on 02-dp4
            QCOMPARE(menus->openLesson(lesson), QString());
            LessonPanel& panel = *menus->lessonPanel();
            QVERIFY(s->document()->sandboxed());
            for (int i = 0; i < panel.stepCount(); ++i) {
                if (i > 0) panel.next();
                QVERIFY(settle(w, panel));
                QCOMPARE(s->document()->modified(), userModified);
                for (const Scenario& sc : sltest::scenarios(w)->list()->scenarios())
                    QVERIFY2(!(sc.knobs == k), qPrintable(sc.name)); // the user's what-if is not in it
            }
            QVERIFY(QFileInfo(s->tracePaths().front()).fileName() == QStringLiteral("02-dp4"));
            // Save during the lesson writes the user's session.
            QCOMPARE(s->document()->currentSession().traces, QStringList{QDir::cleanPath(mine)});
            QCOMPARE(s->document()->currentSession().scenarios.size(), std::size_t(userScenarios));
            // Ended: the user's traces, scenarios and flag are back.
            QTest::mouseClick(panel.endButton(), Qt::LeftButton);
            QVERIFY(!s->document()->sandboxed());
            QVERIFY(s->loader()->waitForFinished(60'000));
            QVERIFY(sltest::settleSimulations(w));
            QCOMPARE(s->tracePaths(), QStringList{QDir::cleanPath(mine)});
            QCOMPARE(sltest::scenarios(w)->list()->count(), userScenarios);
            QVERIFY(sltest::scenarios(w)->list()->at(1).knobs == k);
            QCOMPARE(s->document()->modified(), userModified);
        }
    }

    // A broken lesson: one line naming the file and what is wrong.
    void badLessonFiles() {
        QTemporaryDir dir;
        const std::vector<std::pair<QByteArray, QString>> cases = {
            {"{ \"title\": ", "not JSON: parse error"},
            {"[1, 2]", "a lesson is a JSON object"},
            {R"({"sample": "02-dp4", "steps": [{"text": "t"}]})", "'title' is missing"},
            {R"({"title": "x", "steps": [{"text": "t"}]})", "give either 'sample'"},
            {R"({"title": "x", "sample": "99-nothing", "steps": [{"text": "t"}]})",
             "sample '99-nothing' is not"},
            {R"({"title": "x", "trace": "missing.json", "steps": [{"text": "t"}]})",
             "trace 'missing.json' does not"},
            {R"({"title": "x", "sample": "02-dp4", "steps": []})", "'steps' must be a list of at least one"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"title": "no text"}]})",
             "step 1: 'text' is missing"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t"}, {"text": "t", "knobs": {"foo": 1}}]})",
             "step 2: knobs: unknown knob 'foo'"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "knobs": {"compute.speedup": -3}}]})",
             "step 1: knobs: "},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "knobs": {"compute.speedup": [2]}}]})",
             "a knob value must be"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "highlight": ["glow"]}]})",
             "highlight: glow is not"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "range_ms": [5, 2]}]})",
             "range_ms"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "answer": "a"}]})",
             "needs a 'question'"},
            {R"({"title": 3, "sample": "02-dp4", "steps": [{"text": "t"}]})", "'title' must be a string"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "select": {"rank": 0}}]})",
             "'select' must be"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "select": {"name": "k", "nth": 0}}]})",
             "'nth' >= 1"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "focus": {"ranks": [1], "track": ["cpu"]}}]})",
             "focus: unknown key 'track'"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "focus": {"ranks": [-1]}}]})",
             "focus: ranks: -1 is not a rank id"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "focus": {"ranks": [1], "tracks": ["disk"]}}]})",
             "focus: tracks: disk is not"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "focus": [1]}]})",
             "'focus' must be"},
            {R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "foucs": {"ranks": [1]}}]})",
             "step 1: unknown key 'foucs'"},
        };
        int i = 0;
        for (const auto& [text, expected] : cases) {
            const QString path = write(dir, QStringLiteral("bad%1.json").arg(i++), text);
            Lesson l;
            const QString error = readLessonFile(path, l);
            QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
            QVERIFY2(error.contains(expected), qPrintable(error + QStringLiteral(" / ") + expected));
            QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        }
        Lesson l;
        QVERIFY(readLessonFile(dir.filePath(QStringLiteral("none.json")), l)
                    .endsWith("cannot read the lesson file"));
        // A trace beside the lesson file (a teacher's own) is found relative to it.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("run")));
        sltest::writeFile(dir, QStringLiteral("run/rank0.json"), sltest::tinyRankTrace(0, 1));
        const QString own = write(
            dir, QStringLiteral("own.json"),
            R"({"title": "Mine", "trace": "run", "steps": [{"text": "t", "question": "q?", "answer": "a"}]})");
        QCOMPARE(readLessonFile(own, l), QString());
        QCOMPARE(l.trace, QDir(dir.path()).filePath(QStringLiteral("run")));
    }

    // A step pointing at an event the trace does not have: one line, the rest of the step applies.
    void missingEventSaysSo() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        const QString path =
            write(dir, QStringLiteral("missing.json"),
                  R"({"title": "x", "sample": "02-dp4", "steps": [{"text": "t", "knobs": )"
                  R"({"comm.speedup": 2}, "select": {"rank": 1, "name": "noSuchKernel"}}]})");
        QCOMPARE(menus->openLesson(path), QString());
        QSignalSpy missing(menus->lessonPanel(), &LessonPanel::missingEvent);
        QVERIFY(settle(w, *menus->lessonPanel()));
        QTRY_COMPARE_WITH_TIMEOUT(missing.count(), 1, 10'000);
        QVERIFY(missing.front().front().toString().endsWith(
            "step 1: no event \"noSuchKernel\" number 1 on rank 1"));
        QCOMPARE(w.sessions()->knobs()->knobs().commSpeedup, 2.0);
    }

    // A step's focus brings the ranks it talks about on screen with the tracks it names (the CPU
    // threads' nested calls for a burst of launches); a named event below the first screen is
    // scrolled to; the question and the answer are in the step's text, the answer on demand.
    void focusBringsTheRanksIntoView() {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        const QString path = write(
            dir, QStringLiteral("focus.json"),
            R"({"title": "x", "sample": "01-dp8-straggler", "steps": [)"
            R"({"text": "t", "focus": {"ranks": [5], "tracks": ["cpu"]}, "question": "q?", "answer": "because"},)"
            R"({"text": "u", "select": {"rank": 6, "name": "AllReduce"}},)"
            R"({"text": "v", "focus": {"ranks": [42]}}]})");
        QCOMPARE(menus->openLesson(path), QString());
        LessonPanel& panel = *menus->lessonPanel();
        QVERIFY(settle(w, panel));
        // The Lesson dock fits a laptop's screen: its buttons once widened the window past 1280 px.
        QCOMPARE(w.width(), 1280);
        QVERIFY2(w.minimumSizeHint().width() <= 1280,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
        SessionController* s = w.sessions();
        const TraceSet& set = *s->traceSet();
        const RowLayout& layout = w.findChild<TimelinePanes*>()->measured()->layout();
        const int paneHeight = w.findChild<TimelinePanes*>()->measured()->height();
        auto rowOnScreen = [&](int rankIndex, int track) {
            for (const Row& row : layout.rows())
                if (row.rank == rankIndex && row.track == track)
                    return row.y >= s->view()->scrollY() && row.y < s->view()->scrollY() + paneHeight;
            return false;
        };
        int five = -1;
        for (std::size_t r = 0; r < set.ranks.size(); ++r)
            if (set.ranks[r].rank == 5) five = static_cast<int>(r);
        QVERIFY(five >= 0);
        QVERIFY(s->tracks()->rankExpanded(static_cast<std::size_t>(five)));
        bool cpuNested = false;
        for (std::size_t k = 0; k < set.ranks[static_cast<std::size_t>(five)].tracks.size(); ++k) {
            const Track& t = set.ranks[static_cast<std::size_t>(five)].tracks[k];
            if (!t.isGpu() && t.maxDepth > 0) {
                QVERIFY(s->tracks()->trackNested(static_cast<std::size_t>(five), k));
                cpuNested = true;
            }
        }
        QVERIFY(cpuNested);
        QVERIFY(rowOnScreen(five, -1));
        QVERIFY(s->view()->scrollY() > 0); // rank 5 is below the first screen at 1280x720
        QVERIFY(!panel.text().contains(QStringLiteral("because")));
        QVERIFY(panel.text().contains(QStringLiteral("Question: q?")));
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("lessonShowAnswer")), Qt::LeftButton);
        QVERIFY(panel.text().contains(QStringLiteral("Answer: because")));

        panel.next();
        QVERIFY(settle(w, panel));
        const EventId e = s->selection()->event();
        QVERIFY(e.valid());
        QCOMPARE(set.ranks[static_cast<std::size_t>(e.rank)].rank, 6);
        QVERIFY(rowOnScreen(e.rank, static_cast<int>(e.ref.track)));
        QVERIFY(!panel.text().contains(QStringLiteral("because"))); // a new step hides the answer

        QSignalSpy missing(&panel, &LessonPanel::missingEvent);
        panel.next();
        QVERIFY(settle(w, panel));
        QCOMPARE(missing.count(), 1);
        QVERIFY(missing.front().front().toString().endsWith("step 3: focus: no rank 42 in the trace"));
    }

    // Through Help > Lessons: the bad file's line in the message bar; the menu lists the bundled ones.
    void badFileInTheWindow() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        auto* menus = w.findChild<MainMenus*>();
        auto* lessons = w.findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(lessons);
        QStringList titles;
        for (QAction* a : lessons->actions())
            titles << a->text();
        QVERIFY(titles.contains(QStringLiteral("Overlap and exposed communication")));
        QVERIFY(titles.contains(QStringLiteral("Open Lesson &File...")));
        const QString path = write(dir, QStringLiteral("broken.json"), "{ nope");
        const QString error = menus->openLesson(path);
        QVERIFY(error.startsWith(path + QStringLiteral(": not JSON")));
        QVERIFY(!menus->lessonPanel()->isVisible());
        auto* bar = w.findChild<MessageBar*>();
        QVERIFY(bar && bar->isVisible());
        QVERIFY(bar->text().contains(QStringLiteral("broken.json: not JSON")));
    }
};

QTEST_MAIN(TestLessons)
#include "test_Lessons.moc"
