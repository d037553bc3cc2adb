// Never losing work (docs/MainWindow.md, "Never losing work") on the bundled sample
// samples/02-dp4 (always present, so nothing here skips): closing or quitting a modified session
// asks Save / Discard / Cancel (the real box, answered by a timer) and Cancel keeps the window; the
// crash autosave stays until the user restores or declines it; "Open the good ranks" keeps a
// session's scenarios, knobs and view; saves and exports say where they went in the status bar.
#include "Autosave.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "Session.h"
#include "SessionDocument.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestNeverLoseWork : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }
    static ScenarioController* ctl(MainWindow& w) { return sltest::scenarios(w); }
    static void settle(MainWindow& w) { QVERIFY(sltest::settleSimulations(w)); }
    static void load(MainWindow& w, const QStringList& paths) {
        w.sessions()->openTraces(paths);
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
    }
    static SimKnobs fastGpu() {
        SimKnobs k;
        k.computeSpeedup = 2;
        return k;
    }
    // Answers the next modal box named `name` with the button of `which` (from the event loop, as a
    // user would), and records whether one came.
    struct Answer {
        bool asked = false;
    };
    static void answerNextBox(const char* name, QMessageBox::StandardButton which, Answer* answer) {
        QTimer::singleShot(0, qApp, [name, which, answer] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String(name)) {
                QTimer::singleShot(10, qApp, [name, which, answer] { answerNextBox(name, which, answer); });
                return;
            }
            answer->asked = true;
            box->button(which)->click();
        });
    }

    // Clicks a button of the window's restore question (opened without blocking).
    static void restoreBox(MainWindow& w, const char* button) {
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("restoreQuestion"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        box->findChild<QAbstractButton*>(QLatin1String(button))->click();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_NeverLoseWork");
    }

    void closeAsksWhenModified() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        QVERIFY(!w.sessions()->document()->modified());
        // Unmodified: closes without a question.
        QVERIFY(w.close());
        w.show();
        ctl(w)->list()->add(QStringLiteral("Network 2x"), fastGpu());
        QVERIFY(w.sessions()->document()->modified());
        // Cancel keeps the window and the session.
        Answer cancel;
        answerNextBox("closeQuestion", QMessageBox::Cancel, &cancel);
        QVERIFY(!w.close());
        QVERIFY(cancel.asked);
        QVERIFY(w.isVisible());
        QVERIFY(w.sessions()->document()->modified());
        // Ctrl+Q (File > Quit) asks the same.
        Answer quit;
        answerNextBox("closeQuestion", QMessageBox::Cancel, &quit);
        part<QAction>(w, QStringLiteral("quitAction"))->trigger();
        QVERIFY(quit.asked);
        QVERIFY(w.isVisible());
        // Save writes the session (here to the file it already has) and closes.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("work.sightline.json"));
        QCOMPARE(w.sessions()->document()->saveSession(path), QString());
        ctl(w)->list()->add(QStringLiteral("GPU 2x"), fastGpu());
        Answer save;
        answerNextBox("closeQuestion", QMessageBox::Save, &save);
        QVERIFY(w.close());
        QVERIFY(save.asked);
        Session saved;
        QCOMPARE(readSessionFile(path, saved), QString());
        QCOMPARE(saved.scenarios.size(), std::size_t{3});
        QCOMPARE(saved.scenarios.back().name, QStringLiteral("GPU 2x"));
        // Discard closes without writing.
        w.show();
        ctl(w)->list()->add(QStringLiteral("Not kept"), fastGpu());
        Answer discard;
        answerNextBox("closeQuestion", QMessageBox::Discard, &discard);
        QVERIFY(w.close());
        QVERIFY(discard.asked);
        QCOMPARE(readSessionFile(path, saved), QString());
        QCOMPARE(saved.scenarios.size(), std::size_t{3});
        // An answer given by the embedder instead of the box.
        w.show();
        ctl(w)->list()->add(QStringLiteral("Again"), fastGpu());
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Cancel; });
        QVERIFY(!w.close());
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(w.close());
    }

    // Another set opened over unsaved what-if scenarios keeps them, and keeps them unsaved: closing
    // asks. Scenarios already saved carry over clean.
    void unsavedScenariosStayUnsavedOnAnotherSet() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        ctl(w)->list()->add(QStringLiteral("GPU 2x"), fastGpu());
        QVERIFY(w.sessions()->document()->modified());
        const QString other = QString::fromStdString(sltest::samplePath("01-dp8-straggler"));
        load(w, {other});
        QCOMPARE(ctl(w)->list()->count(), 2);
        QVERIFY(w.sessions()->document()->modified());
        QTemporaryDir dir;
        QCOMPARE(w.sessions()->document()->saveSession(dir.filePath(QStringLiteral("s.sightline.json"))),
                 QString());
        QVERIFY(!w.sessions()->document()->modified());
        load(w, {sample()});
        QCOMPARE(ctl(w)->list()->count(), 2);
        QVERIFY(!w.sessions()->document()->modified());
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
    }

    void crashAutosaveStaysUntilAnswered() {
        QTemporaryDir dir;
        {
            MainWindow crashed;
            crashed.sessions()->document()->enableAutosave(dir.path(), 20);
            load(crashed, {sample()});
            ctl(crashed)->list()->add(QStringLiteral("Network 2x"), fastGpu());
            QTRY_VERIFY(QFile::exists(crashed.sessions()->document()->autosave()->sessionPath()));
            QTRY_VERIFY(!crashed.sessions()->document()->autosave()->dirty());
            // No close: as if the program crashed.
        }
        const auto startNext = [&dir](MainWindow& w) {
            w.sessions()->document()->enableAutosave(dir.path(), 20);
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        };
        {
            // The next run: offered; the user neither restores nor declines, opens a set and edits
            // it (its autosave is written), then quits cleanly.
            MainWindow next;
            startNext(next);
            QVERIFY(next.sessions()->document()->autosave()->recoverable());
            next.show();
            next.offerRestore();
            restoreBox(next, "later");
            load(next, {sample()});
            next.sessions()->knobs()->setKnobs(fastGpu());
            QTRY_VERIFY(!next.sessions()->document()->autosave()->dirty());
            QVERIFY(QFile::exists(next.sessions()->document()->autosave()->recoveredPath()));
            QVERIFY(next.close());
        }
        {
            // Still there at the start after that; restoring it brings back its scenarios as unsaved
            // work, and then it is no longer offered.
            MainWindow third;
            startNext(third);
            QVERIFY(third.sessions()->document()->autosave()->recoverable());
            Session recovered;
            QCOMPARE(readSessionFile(third.sessions()->document()->autosave()->recoveredPath(), recovered),
                     QString());
            QCOMPARE(recovered.scenarios.size(), std::size_t{2});
            third.show();
            third.offerRestore();
            restoreBox(third, "restore");
            QVERIFY(third.sessions()->loader()->waitForFinished(60'000));
            settle(third);
            QCOMPARE(ctl(third)->list()->count(), 2);
            QCOMPARE(ctl(third)->list()->at(1).name, QStringLiteral("Network 2x"));
            QVERIFY(third.sessions()->document()->modified());
            QVERIFY(third.isWindowModified());
            QVERIFY(!QFile::exists(third.sessions()->document()->autosave()->recoveredPath()));
            QVERIFY(third.sessions()->document()->sessionPath().isEmpty());
            // Crashes again, with the restored work autosaved.
            QTRY_VERIFY(!third.sessions()->document()->autosave()->dirty());
        }
        {
            // Declined: gone for good.
            MainWindow fourth;
            startNext(fourth);
            QVERIFY(fourth.sessions()->document()->autosave()->recoverable());
            fourth.show();
            fourth.offerRestore();
            restoreBox(fourth, "discard");
            QVERIFY(!QFile::exists(fourth.sessions()->document()->autosave()->recoveredPath()));
            QVERIFY(!fourth.sessions()->document()->autosave()->recoverable());
            QVERIFY(fourth.sessions()->traceSet() == nullptr);
            QVERIFY(fourth.close());
        }
        MainWindow fifth;
        startNext(fifth);
        QVERIFY(!fifth.sessions()->document()->autosave()->recoverable());
    }

    void goodRanksKeepTheSession() {
        // A session on a folder with one bad rank: its scenarios, knobs and view survive "Open the
        // good ranks".
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("kineto"));
        QVERIFY(QDir().mkpath(folder));
        for (int r = 0; r < 4; ++r) {
            const QString name = QStringLiteral("rank-%1.json.gz").arg(r);
            QVERIFY(QFile::copy(sample() + QLatin1Char('/') + name, folder + QLatin1Char('/') + name));
        }
        QFile bad(folder + QStringLiteral("/rank-4.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"traceEvents\": [ {\"ph\": ");
        bad.close();
        Session s;
        s.traces = {folder};
        s.scenarios = {{QStringLiteral("Baseline"), {}}, {QStringLiteral("GPU 2x"), fastGpu()}};
        s.currentScenario = 1;
        s.knobs = fastGpu();
        s.criticalPath = true;
        const QString path = dir.filePath(QStringLiteral("bad-rank.sightline.json"));
        QCOMPARE(writeSessionFile(path, s), QString());

        MainWindow w;
        w.show();
        QCOMPARE(w.sessions()->openSession(path), QString());
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        auto* bar = part<MessageBar>(w);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->text().contains(QStringLiteral("rank-4.json")));
        QVERIFY(bar->actionButton()->isVisible());
        bar->actionButton()->click(); // "Open the good ranks"
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t{4});
        QCOMPARE(ctl(w)->list()->count(), 2);
        QCOMPARE(ctl(w)->list()->current(), 1);
        QCOMPARE(w.sessions()->knobs()->knobs().toJson(), fastGpu().toJson());
        QVERIFY(w.menus()->criticalPathAction()->isChecked());
        QCOMPARE(w.sessions()->document()->sessionPath(), QFileInfo(path).absoluteFilePath());
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
    }

    void savesAndExportsSayWhere() {
        MainWindow w;
        w.show();
        load(w, {sample()});
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QTemporaryDir dir;
        const auto says = [&w](const QString& path) {
            const QString text = w.statusBar()->currentMessage();
            QVERIFY2(text.contains(path), qPrintable(text));
        };
        const QString session = dir.filePath(QStringLiteral("a.sightline.json"));
        QCOMPARE(w.sessions()->document()->saveSession(session), QString());
        says(session);
        const QString report = dir.filePath(QStringLiteral("report.html"));
        QCOMPARE(w.sessions()->exportReport(report), QString());
        says(report);
        const QString trace = dir.filePath(QStringLiteral("simulated.json"));
        QCOMPARE(w.sessions()->exportSimulatedTrace(trace), QString());
        says(trace);
        const QString image = dir.filePath(QStringLiteral("view.png"));
        QCOMPARE(w.saveView(image), QString());
        says(image);
        const QString timeline = dir.filePath(QStringLiteral("timeline.svg"));
        QCOMPARE(w.saveTimelineImage(timeline), QString());
        says(timeline);
        // A failure says so in the message bar, not as a confirmation.
        w.statusBar()->clearMessage();
        QVERIFY(!w.sessions()->exportReport(dir.filePath(QStringLiteral("no/such/dir/r.html"))).isEmpty());
        QVERIFY(w.statusBar()->currentMessage().isEmpty());
    }
};

QTEST_MAIN(TestNeverLoseWork)
#include "test_NeverLoseWork.moc"
