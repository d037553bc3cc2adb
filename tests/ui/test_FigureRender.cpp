// Timeline figures rendered off-screen (ui/export/FigureRender.h, docs/Exports.md) on the bundled
// samples: a 1920x1080 PNG has every rank of the set (their header rows counted in the picture, in
// both panes) and the legend (its swatches' colours found in the picture); the SVG parses and names
// the knobs; the PDF is a PDF; bad formats, sizes and ranges give one line; File > Export Figure
// writes the window's scenario; `sightline-cli render` writes a figure and fails with one line.
#include "FigureRender.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "Palette.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "TraceFigure.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "io/KinetoLoader.h"
#include "sim/Knobs.h"

#include "TestSupport.h"

#include <QImage>
#include <QXmlStreamReader>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestFigureRender : public QObject {
    Q_OBJECT

    static Figure figureOf(const char* sample, const SimKnobs& knobs = {}) {
        auto set = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath(sample)}));
        const SimOutput sim = SimRunner::runNow(set, knobs);
        Figure f;
        f.measured = TimelineData::measured(set);
        f.simulated = sim.timeline;
        f.title = QString::fromLatin1(sample);
        f.knobs = QStringList{QStringLiteral("compute.speedup = 2")};
        return f;
    }
    // Runs of rank-header rows down the gutter's left edge: one per rank shown, per pane.
    static int headerRuns(const QImage& image) {
        const QRgb header = palette::rankHeader().rgb();
        // Just inside the gutter's left edge (24 px at 1080 high), left of the rank names.
        const int x = static_cast<int>(24.0 * image.height() / 1080.0) + 2;
        int runs = 0;
        bool in = false;
        for (int y = 0; y < image.height(); ++y) {
            const bool h = image.pixel(x, y) == header;
            if (h && !in) ++runs;
            in = h;
        }
        return runs;
    }
    static bool hasColour(const QImage& image, QRect area, QColor c) {
        for (int y = area.top(); y <= area.bottom(); ++y)
            for (int x = area.left(); x <= area.right(); ++x)
                if (image.pixel(x, y) == c.rgb()) return true;
        return false;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_FigureRender");
    }

    // 1920x1080: four ranks in each pane, expanded, and the legend's colours at the bottom.
    void pngHasEveryRankAndTheLegend() {
        QTemporaryDir dir;
        const Figure f = figureOf("02-dp4");
        FigureStats stats;
        QCOMPARE(renderFigure(f, dir.filePath("t.png"), &stats), QString());
        const QImage image(dir.filePath("t.png"));
        QCOMPARE(image.size(), QSize(1920, 1080));
        QCOMPARE(stats.ranks, 4);
        QVERIFY(!stats.collapsed && !stats.cpuHidden);
        QCOMPARE(headerRuns(image), 2 * 4);
        QCOMPARE(stats.legendItems, kCategoryCount);
        const QRect legend(0, 1080 - 70, 1300, 60);
        for (Category c : {Category::Compute, Category::Communication, Category::CpuOp, Category::Other})
            QVERIFY2(hasColour(image, legend, palette::color(c)), qPrintable(categoryLabel(c)));
        QVERIFY(stats.boxes > 100);
        // 4K is the same picture at twice the detail.
        QCOMPARE(renderFigure(Figure(f), dir.filePath("t4k.png"), &stats), QString());
        Figure big = f;
        big.size = QSize(3840, 2160);
        QCOMPARE(renderFigure(big, dir.filePath("t4k.png"), &stats), QString());
        QCOMPARE(QImage(dir.filePath("t4k.png")).size(), QSize(3840, 2160));
    }

    // Eight ranks: the CPU threads give way so that every rank's GPU streams fit.
    void manyRanksFit() {
        QTemporaryDir dir;
        FigureStats stats;
        QCOMPARE(renderFigure(figureOf("01-dp8-straggler"), dir.filePath("t.png"), &stats), QString());
        QCOMPARE(stats.ranks, 8);
        QVERIFY(stats.cpuHidden);
        QVERIFY(!stats.collapsed);
        QCOMPARE(headerRuns(QImage(dir.filePath("t.png"))), 2 * 8);
    }

    void svgParsesAndPdfIsAPdf() {
        QTemporaryDir dir;
        const Figure f = figureOf("02-dp4");
        QCOMPARE(renderFigure(f, dir.filePath("t.svg")), QString());
        QFile svg(dir.filePath("t.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QXmlStreamReader xml(text);
        int elements = 0;
        QString viewBox;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                if (++elements == 1) viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
            }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(elements > 100);
        QCOMPARE(viewBox, QStringLiteral("0 0 1920 1080"));
        // 96 dpi (CSS pixels): 1920 px is 508 mm wide, not 677 mm; the type is the generic sans-serif.
        QVERIFY2(text.contains("width=\"508mm\""), text.left(400).constData());
        QVERIFY(text.contains("font-family=\"sans-serif\""));
        QVERIFY(text.contains("compute.speedup = 2"));
        QVERIFY(text.contains("Rank 3"));
        QCOMPARE(renderFigure(f, dir.filePath("t.pdf")), QString());
        QFile pdf(dir.filePath("t.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
    }

    void badRequestsGiveOneLine() {
        QTemporaryDir dir;
        Figure f = figureOf("02-dp4");
        QString e = renderFigure(f, dir.filePath("t.gif"));
        QVERIFY(e.startsWith(dir.filePath("t.gif") + ": unknown image format"));
        f.size = QSize(10, 10);
        QVERIFY(renderFigure(f, dir.filePath("t.png")).contains("outside"));
        f.size = QSize(1920, 1080);
        QVERIFY(renderFigure(f, dir.filePath("no/such/dir/t.png")).endsWith("cannot write the image"));
        TimeNs a = 0, b = 0;
        QVERIFY(parseTimeRange(QStringLiteral("2ms:8ms"), a, b, nullptr));
        QCOMPARE(a, TimeNs(2'000'000));
        QCOMPARE(b, TimeNs(8'000'000));
        QVERIFY(parseTimeRange(QStringLiteral("500us:1.5"), a, b, nullptr));
        QCOMPARE(a, TimeNs(500'000));
        QCOMPARE(b, TimeNs(1'500'000));
        QString why;
        QVERIFY(!parseTimeRange(QStringLiteral("5:2"), a, b, &why));
        QCOMPARE(why, QStringLiteral("--range 5:2: the end must be after the start"));
        QVERIFY(!parseTimeRange(QStringLiteral("abc"), a, b, &why));
        QVERIFY(!parseTimeRange(QStringLiteral("1h:2h"), a, b, &why));
        QSize s;
        QVERIFY(parseFigureSize(QStringLiteral("3840x2160"), s));
        QCOMPARE(s, QSize(3840, 2160));
        QVERIFY(!parseFigureSize(QStringLiteral("big"), s));
    }

    // A range shows that time only: the axis starts at its first label.
    void rangeAndOnePane() {
        QTemporaryDir dir;
        TraceFigureRequest r;
        r.output = dir.filePath("r.svg");
        r.traces = {QString::fromStdString(sltest::samplePath("02-dp4"))};
        r.knobs = {QStringLiteral("compute.speedup=2")};
        r.range = QStringLiteral("2ms:4ms");
        r.panes = QStringLiteral("simulated");
        QCOMPARE(renderTraceFigure(r), QString());
        QFile f(r.output);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains(">2.5 ms<") || text.contains(">3.0 ms<"));
        QVERIFY(!text.contains(">10 ms<"));
        QVERIFY(!text.contains(">Measured<"));
        QVERIFY(text.contains("Simulated (what-if)"));
        r.knobs = {QStringLiteral("nope=1")};
        QVERIFY(renderTraceFigure(r).startsWith("--set nope=1: unknown knob"));
        r.knobs.clear();
        r.panes = QStringLiteral("top");
        QVERIFY(renderTraceFigure(r).startsWith("--pane top"));
    }

    // File > Export Figure: the window's panes over the visible window.
    void exportFromTheWindow() {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(!w.sessions()->exportTimelineFigure(dir.filePath("none.png"), {1920, 1080}).isEmpty());
        w.show();
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("02-dp4"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
        QCOMPARE(w.sessions()->exportTimelineFigure(dir.filePath("w.png"), {1280, 720}), QString());
        const QImage image(dir.filePath("w.png"));
        QCOMPARE(image.size(), QSize(1280, 720));
        QCOMPARE(headerRuns(image), 2 * 4);
        // One pane: four ranks once.
        FigureContent measuredOnly;
        measuredOnly.simulated = false;
        QCOMPARE(w.sessions()->exportTimelineFigure(dir.filePath("m.png"), {1280, 720}, measuredOnly),
                 QString());
        QCOMPARE(headerRuns(QImage(dir.filePath("m.png"))), 4);
        // As the window shows them: tracks hidden there are left out of the figure too.
        FigureStats all, shown;
        QCOMPARE(renderFigure(w.sessions()->timelineFigure({1280, 720}), dir.filePath("a.png"), &all),
                 QString());
        for (std::size_t k = 0; k < w.sessions()->traceSet()->ranks[0].tracks.size(); ++k)
            w.sessions()->tracks()->setTrackHidden(0, k, true);
        FigureContent window;
        window.windowTracks = true;
        QCOMPARE(
            renderFigure(w.sessions()->timelineFigure({1280, 720}, window), dir.filePath("v.png"), &shown),
            QString());
        QVERIFY2(shown.boxes < all.boxes,
                 qPrintable(QStringLiteral("%1 %2").arg(shown.boxes).arg(all.boxes)));
        QCOMPARE(w.sessions()->exportTimelineFigure(dir.filePath("v.png"), {1280, 720}, window), QString());
        // A data-parallel what-if: the figure carries the card's headline with the throughput and
        // scaling efficiency, and reaches to the simulated pane's end.
        w.sessions()->view()->fitAll();
        SimKnobs dp;
        dp.dpDegree = 32;
        w.sessions()->knobs()->setKnobs(dp);
        QVERIFY(sltest::settleSimulations(w));
        const Figure fig = w.sessions()->timelineFigure({1920, 1080});
        QVERIFY2(fig.subtitle.contains(QStringLiteral("vs Baseline")), qPrintable(fig.subtitle));
        QVERIFY2(fig.subtitle.contains(QStringLiteral("throughput")) &&
                     fig.subtitle.contains(QStringLiteral("scaling efficiency")),
                 qPrintable(fig.subtitle));
        QVERIFY(fig.simulated);
        QVERIFY(fig.end >= fig.simulated->end());
        // The 28 added ranks under the simulated pane, as in the window: the 8 slowest drawn.
        QVERIFY(fig.added);
        QCOMPARE(fig.added->rows().size(), std::size_t(28));
        FigureStats dpStats;
        QCOMPARE(renderFigure(fig, dir.filePath("dp.png"), &dpStats), QString());
        QCOMPARE(dpStats.addedRows, 8);
        Figure without = fig;
        without.added = nullptr;
        FigureStats plain;
        QCOMPARE(renderFigure(without, dir.filePath("plain.png"), &plain), QString());
        QCOMPARE(plain.addedRows, 0);
        QVERIFY(QImage(dir.filePath("dp.png")) != QImage(dir.filePath("plain.png")));
    }

    // File > Export Report as HTML: a timeline picture per scenario; the JSON keeps numbers alone.
    void reportHasATimelinePerScenario() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("02-dp4"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(sltest::settleSimulations(w));
        SimKnobs fast;
        fast.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(fast); // a what-if scenario beside the baseline
        QVERIFY(sltest::settleSimulations(w));
        QCOMPARE(w.sessions()->scenarioFigures().size(), std::size_t(2));
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.html")), QString());
        QFile html(dir.filePath("r.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray text = html.readAll();
        QCOMPARE(text.count("<figure class=\"timeline\">"), 2);
        QVERIFY(text.contains("compute.speedup = 2</figcaption><svg"));
        QVERIFY(!text.contains("<script"));
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.json")), QString());
        QFile json(dir.filePath("r.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(!json.readAll().contains("\"figures\""));
    }

    // The command line: sightline-cli render runs the program's renderer (built beside it).
    void cliRender() {
        if (!QFileInfo::exists(
                QFileInfo(QStringLiteral(SIGHTLINE_CLI)).dir().filePath(QStringLiteral("sightline"))))
            QSKIP("the sightline program is not built next to sightline-cli");
        QTemporaryDir dir;
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        sltest::CliRun run =
            sltest::runCli({QStringLiteral("render"), sample, QStringLiteral("--out"), dir.filePath("c.png"),
                            QStringLiteral("--size"), QStringLiteral("1600x900"), QStringLiteral("--set"),
                            QStringLiteral("dp.degree=8")});
        QCOMPARE(run.code, 0);
        QCOMPARE(QImage(dir.filePath("c.png")).size(), QSize(1600, 900));
        run = sltest::runCli({QStringLiteral("render"), QStringLiteral("/no/such/trace"),
                              QStringLiteral("--out"), dir.filePath("d.png")});
        QCOMPARE(run.code, 2);
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY(run.err.startsWith("error: /no/such/trace"));
        run = sltest::runCli({QStringLiteral("render"), sample});
        QCOMPARE(run.code, 1);
    }
};

QTEST_MAIN(TestFigureRender)
#include "test_FigureRender.moc"
