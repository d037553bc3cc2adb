// First run: the welcome page (bundled samples with a line each, recent sets with their full paths),
// a sample's "what to look at" note, Open Recent labels that tell sets apart, dialogs that start in
// the last used folder, and the Warnings panel with the loader's warnings.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "RecentFiles.h"
#include "Samples.h"
#include "SimRunner.h"
#include "TraceLoader.h"
#include "WarningsPanel.h"
#include "WelcomePage.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"

#include <QCommandLinkButton>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestWelcome : public QObject {
    Q_OBJECT
private slots:
    void init() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Welcome");
        QSettings().clear();
    }

    void samplesAreFound() {
        const QList<Sample> samples = bundledSamples();
        QVERIFY(samples.size() >= 4);
        QCOMPARE(samples.front().name, QStringLiteral("01-dp8-straggler"));
        for (const Sample& s : samples) {
            QVERIFY(QFileInfo(s.path).isDir());
            QVERIFY2(!s.lookAt.isEmpty(), qPrintable(s.name)); // every shipped sample has a note
        }
        QVERIFY(samples.front().description.contains(QStringLiteral("rank 5")));
        QVERIFY(sampleFor(QStringLiteral("/anything/02-dp4/")).lookAt.contains(QStringLiteral("overlap")));
        QVERIFY(sampleFor(QStringLiteral("/my/own/traces")).name.isEmpty());
    }

    void welcomeOpensASample() {
        MainWindow w;
        w.show();
        QVERIFY(sltest::showsWelcome(w));
        auto* button =
            part<WelcomePage>(w)->findChild<QCommandLinkButton*>(QStringLiteral("sample:01-dp8-straggler"));
        QVERIFY(button);
        QVERIFY(button->description().contains(QStringLiteral("slower")));
        button->click();
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(!sltest::showsWelcome(w));
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t{8});
        // The sample says what to look at.
        QVERIFY(part<MessageBar>(w)->isVisible());
        QCOMPARE(part<MessageBar>(w)->level(), MessageBar::Level::Info);
        QVERIFY2(part<MessageBar>(w)->text().contains(QStringLiteral("straggler")),
                 qPrintable(part<MessageBar>(w)->text()));
        // And it is now the first recent entry of the welcome page, with its full path.
        const auto recent = part<WelcomePage>(w)->findChildren<QPushButton*>(QStringLiteral("recentEntry"));
        QVERIFY(!recent.isEmpty());
        QVERIFY2(recent.front()->text().endsWith(QStringLiteral("samples/01-dp8-straggler")),
                 qPrintable(recent.front()->text()));
        QVERIFY(QDir::isAbsolutePath(recent.front()->text()));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
    }

    void recentLabelsTellSetsApart() {
        const QStringList a = {QStringLiteral("/data/runs/dlrm-8rank-v100/kineto")};
        const QStringList b = {QStringLiteral("/data/runs/llama-64rank/kineto")};
        QVERIFY(RecentFiles::label(a).startsWith(QStringLiteral("kineto")));
        QVERIFY(RecentFiles::label(a).contains(QStringLiteral("dlrm-8rank-v100")));
        QVERIFY(RecentFiles::label(a) != RecentFiles::label(b));
        QCOMPARE(RecentFiles::fullLabel(a), QStringLiteral("/data/runs/dlrm-8rank-v100/kineto"));
        QVERIFY(RecentFiles::label({QStringLiteral("/x/R&D/t.json")}).contains(QStringLiteral("R&&D")));
        QCOMPARE(RecentFiles::fullLabel({QStringLiteral("/x/a.json"), QStringLiteral("/x/b.json")}),
                 QStringLiteral("/x/a.json and 1 more"));
        // The Open Recent menu uses those labels.
        QMenu menu;
        RecentFiles recent(&menu);
        recent.add(a);
        recent.add(b);
        QCOMPARE(menu.actions().size(), 2);
        QVERIFY(menu.actions()[0]->text().contains(QStringLiteral("llama-64rank")));
        QVERIFY(menu.actions()[1]->text().contains(QStringLiteral("dlrm-8rank-v100")));
        QCOMPARE(menu.actions()[1]->toolTip(), a.front());
    }

    void dialogsStartInTheLastFolder() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("rank-0.json"));
        QVERIFY(dialogDir().startsWith(QDir::homePath()));
        rememberDir(file);
        QCOMPARE(dialogDir(), QDir(dir.path()).absolutePath());
        QCOMPARE(dialogDir(QStringLiteral("x.csv")), QDir(dir.path()).filePath(QStringLiteral("x.csv")));
        // A folder of traces: the next dialog starts beside it.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("kineto")));
        rememberDir(dir.filePath(QStringLiteral("kineto")));
        QCOMPARE(dialogDir(), QDir(dir.path()).absolutePath());
        // Loading a set remembers its folder too (command line, drop, recent, welcome page).
        MainWindow w;
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        w.sessions()->openTraces({sample});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QCOMPARE(dialogDir(), QDir::cleanPath(QString::fromStdString(sltest::samplePath(""))));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
    }

    // Teaching: every knob's label says what it models (and the field says the same).
    void knobLabelsExplain() {
        KnobPanel panel;
        auto* form = qobject_cast<QFormLayout*>(panel.layout());
        QVERIFY(form);
        int labelled = 0;
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem* label = form->itemAt(row, QFormLayout::LabelRole);
            QLayoutItem* field = form->itemAt(row, QFormLayout::FieldRole);
            if (!label || !label->widget() || !field || !field->widget()) continue;
            ++labelled;
            const QString tip = label->widget()->toolTip();
            QVERIFY2(tip.size() > 40, qPrintable(qobject_cast<QLabel*>(label->widget())->text()));
            QCOMPARE(field->widget()->toolTip(), tip);
        }
        QVERIFY(labelled >= 9);
    }

    void glossary() {
        MainWindow w;
        w.show();
        part<HelpSheets>(w)->showGlossary();
        QVERIFY(part<HelpSheets>(w)->glossary() && part<HelpSheets>(w)->glossary()->isVisible());
        auto* text =
            part<HelpSheets>(w)->glossary()->findChild<QTextBrowser*>(QStringLiteral("glossaryText"));
        QVERIFY(text);
        for (const char* word : {"Iteration", "Critical path", "Exposed communication", "Overlap",
                                 "Straggler", "Collective wait", "Launch latency", "Knobs"})
            QVERIFY2(text->toPlainText().contains(QLatin1String(word)), word);
    }

    void warningsPanel() {
        MainWindow w;
        w.show();
        auto set = sltest::makeMutableSyntheticSet(2, 1, 50);
        set->warnings.add(Warn::RanksMissing, "rank 2 missing (ranks 0..2 expected)");
        set->warnings.add(Warn::ClockBasesDiffer, "rank-1.json: clock base differs by 3 s");
        w.sessions()->showTraceSet(set, {QStringLiteral("/synthetic/warn")});
        WarningsPanel* panel = part<WarningsPanel>(w);
        QCOMPARE(panel->count(), 2);
        QCOMPARE(panel->topLevelItem(0)->child(0)->text(0),
                 QStringLiteral("rank 2 missing (ranks 0..2 expected)"));
        auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget());
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Warnings (2)"));
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("Warnings panel")));
        // A simulation adds its own (graph and simulator) and the loader's stay.
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCoreApplication::processEvents();
        QVERIFY(panel->count() >= 2);
        const int graph = panel->topLevelItem(1)->childCount();
        const int sim = panel->topLevelItem(2)->childCount();
        QCOMPARE(panel->count(), 2 + graph + sim);
        QCOMPARE(static_cast<std::size_t>(graph), w.sessions()->simulation().graph->warnings.size());
        // Another set replaces them.
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(1, 1, 20), {QStringLiteral("/synthetic/clean")});
        QCOMPARE(panel->count(), 0);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Warnings"));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
    }
};

QTEST_MAIN(TestWelcome)
#include "test_Welcome.moc"
