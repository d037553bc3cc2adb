// The result card and the knob notes in the window: on the bundled sample samples/02-dp4 (GPU
// bound: the CLI shows gpu_compute and gpu_comm holding 99% of its critical path) the baseline card
// reads the CLI's measured and simulated iteration, a faster host barely moves the step and the card
// says why (CPU work is not on the critical path), a faster GPU moves it and the card gives no
// excuse; on a one-rank trace without collectives dp.scale cannot apply and its field says so; the
// card names the rank that limits the step (01-dp8-straggler: rank 5; DLRM: rank 7).
#include "core/GraphFixture.h"

#include "KnobPanel.h"
#include "MainWindow.h"
#include "ResultCard.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "ScenarioRunner.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include <QLabel>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace sl;
using namespace sl::ui;

class TestResultCard : public QObject {
    Q_OBJECT
    static void settle(MainWindow& w) {
        auto* ctl = w.findChild<ScenarioController*>();
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
            QVERIFY(ctl->runner()->waitForIdle(60'000));
        }
    }
    static double iterationMs(const QString& sample, const QString& set, const char* which) {
        QStringList args{QStringLiteral("simulate"), sample, QStringLiteral("--json")};
        if (!set.isEmpty()) args << QStringLiteral("--set") << set;
        const sltest::CliRun run = sltest::runCli(args);
        if (run.code != 0) qFatal("sightline-cli failed: %s", run.err.constData());
        return nlohmann::json::parse(run.out.toStdString())["iteration"][which].get<double>() / 1000;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ResultCard");
    }

    void cardSaysWhatAndWhy() {
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        MainWindow w;
        w.show();
        w.sessions()->openTraces({sample});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        auto* card = w.findChild<ResultCard*>();
        QVERIFY(card->isVisible());
        // The baseline: measured -> replay, from the CLI's numbers, two decimals of ms.
        const double measured = iterationMs(sample, {}, "measured_us");
        const double replay = iterationMs(sample, {}, "simulated_us");
        QVERIFY2(
            card->text().startsWith(QStringLiteral("Baseline (replay of the trace): measured %1 ms -> %2 ms")
                                        .arg(measured, 0, 'f', 2)
                                        .arg(replay, 0, 'f', 2)),
            qPrintable(card->text()));
        QVERIFY(card->text().contains(QStringLiteral("Knobs: all at their replay defaults")));
        QVERIFY(card->text().contains(QStringLiteral("What limits this window: ")));
        QVERIFY(!card->text().contains(QStringLiteral("Why so little change")));

        // cpu.speedup = 2: the CLI moves the step by less than 0.5%, and the card says why.
        const double host = iterationMs(sample, QStringLiteral("cpu.speedup=2"), "simulated_us");
        QVERIFY(std::abs(host - replay) / replay < 0.005);
        SimKnobs k;
        k.cpuSpeedup = 2;
        w.sessions()->knobs()->setKnobs(k);
        settle(w);
        QVERIFY2(card->text().contains(QStringLiteral("Why so little change: the window is bound by GPU")),
                 qPrintable(card->text()));
        QVERIFY2(card->text().contains(QStringLiteral("CPU work is not on the critical path")),
                 qPrintable(card->text()));
        QVERIFY(card->text().contains(QStringLiteral("Knobs: cpu.speedup = 2")));

        // compute.speedup = 2 moves it (the CLI: more than 0.5%): no excuse on the card.
        const double gpu = iterationMs(sample, QStringLiteral("compute.speedup=2"), "simulated_us");
        QVERIFY(std::abs(gpu - replay) / replay > 0.005);
        k = {};
        k.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(k);
        settle(w);
        QVERIFY2(!card->text().contains(QStringLiteral("Why so little change")), qPrintable(card->text()));
        QVERIFY(card->text().contains(QStringLiteral("faster)")));
    }

    // The card names the rank and what it did: the straggler sample's slow rank (not its 65 us late
    // start), and on DLRM rank 7's late entry into the step.
    void cardNamesTheRank() {
        struct Case {
            std::string path;
            QString expected;
        };
        std::vector<Case> cases{
            {sltest::samplePath("01-dp8-straggler"),
             QStringLiteral("What limits this window: rank 5 runs 1.3x slower than the others "
                            "and every collective waits for it")}};
        if (sltest::haveTraces())
            cases.push_back({sltest::tracePath("dlrm-8rank-v100/kineto"),
                             QStringLiteral("What limits this step: rank 7 enters the step 7.5")});
        for (const Case& c : cases) {
            MainWindow w;
            w.show();
            w.sessions()->openTraces({QString::fromStdString(c.path)});
            QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
            settle(w);
            const QString text = w.findChild<ResultCard*>()->text();
            QVERIFY2(text.contains(c.expected), qPrintable(text));
        }
    }

    void titleWrapsAndCompactFoldsTheNote() {
        // A long first line wraps instead of holding the card wide, and a compact card (a short
        // window) keeps the path note in the limit line's tooltip.
        ScenarioResult r;
        r.name = QStringLiteral("compute.speedup = 2 and a long scenario name that goes on");
        r.headline = QStringLiteral("19.02 ms -> 12.40 ms (-34.8%, 1.53x faster)");
        r.changedKnobs = {QStringLiteral("compute.speedup = 2")};
        r.limit = QStringLiteral("rank 7 enters the step 7.51 ms after rank 1");
        r.pathNote = QStringLiteral("critical path 20.86 ms, iteration 19.01 ms");
        ResultCard card;
        card.setResult(&r, false, QStringLiteral("Baseline"));
        card.resize(420, card.heightForWidth(420));
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        QVERIFY2(card.minimumSizeHint().width() < 420,
                 qPrintable(QString::number(card.minimumSizeHint().width())));
        QVERIFY(card.titleLine()->height() > 2 * card.fontMetrics().height()); // wrapped
        QVERIFY(card.text().contains(r.pathNote));
        QVERIFY(card.text().contains(QStringLiteral("Knobs: compute.speedup = 2")));
        QVERIFY(!card.text().contains(QStringLiteral("Layout: ")));
        // A layout knob's modelled parts are said on the card (docs/Layouts.md).
        r.modelled = QStringLiteral("modelled, not measured: 32 sharded GEMMs");
        card.setResult(&r, false, QStringLiteral("Baseline"));
        QVERIFY(card.text().contains(QStringLiteral("Layout: modelled, not measured: 32 sharded GEMMs")));
        card.setCompact(true);
        QCoreApplication::processEvents();
        QVERIFY(!card.text().contains(r.pathNote));
        QLabel* limit = nullptr;
        for (QLabel* l : card.findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("What limits this step"))) limit = l;
        QVERIFY(limit);
        QCOMPARE(limit->toolTip(), r.pathNote);
    }

    void knobThatCannotApplySaysSo() {
        // One rank, one kernel, no collective: dp.scale has nothing to re-time.
        QTemporaryDir dir;
        const std::string path = sltest::writeFile(
            dir, QStringLiteral("rank-0.json"),
            slgraph::trace({slgraph::cpu("cudaLaunchKernel", 0, 5, 1), slgraph::gpu("k", 10, 1000, 1),
                            slgraph::cpu("cudaDeviceSynchronize", 6, 1006, 2)}));
        MainWindow w;
        w.show();
        w.sessions()->openTraces({QString::fromStdString(path)});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        QVERIFY(w.sessions()->knobs()->knobNote(QStringLiteral("dp.scale")).isEmpty());
        SimKnobs k;
        k.dpScale = 4;
        w.sessions()->knobs()->setKnobs(k);
        settle(w);
        QVERIFY2(w.sessions()
                     ->knobs()
                     ->knobNote(QStringLiteral("dp.scale"))
                     .startsWith(QStringLiteral("dp.scale: no data-parallel")),
                 qPrintable(w.sessions()->knobs()->knobNote(QStringLiteral("dp.scale"))));
        // ... and the card's reason starts with that note.
        QVERIFY2(
            w.findChild<ResultCard*>()->text().contains(QStringLiteral("Why so little change: dp.scale: ")),
            qPrintable(w.findChild<ResultCard*>()->text()));
        // Back to replay: the note goes.
        w.findChild<ScenarioController*>()->list()->setCurrent(0);
        settle(w);
        QVERIFY(w.sessions()->knobs()->knobNote(QStringLiteral("dp.scale")).isEmpty());
    }
};

QTEST_MAIN(TestResultCard)
#include "test_ResultCard.moc"
