// Notes and bookmarks (ui/timeline/Annotations.h, docs/Annotations.md) on the bundled
// samples/02-dp4: a note at the selected event is drawn in both panes and in an exported figure,
// edited and removed, saved in a session and restored from it; bookmarks remember a window (Ctrl+N)
// and the key N jumps back; a session with bad notes opens without them and says so.
#include "Annotations.h"
#include "FigureRender.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "Selection.h"
#include "Session.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include "io/KinetoLoader.h"

#include <QAction>
#include <QImage>
#include <QJsonArray>
#include <QPainter>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestAnnotations : public QObject {
    Q_OBJECT

    static void openSample(MainWindow& w) { QVERIFY(sltest::openSample(w, "02-dp4")); }
    static int notePixels(const QImage& image) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) == QColor(0xd6336c).rgb()) ++n;
        return n;
    }
    static QAction* action(MainWindow& w, const QString& name) { return w.findChild<QAction*>(name); }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Annotations");
    }

    void modelAndJson() {
        AnnotationModel m;
        QVERIFY(m.empty());
        QSignalSpy changed(&m, &AnnotationModel::changed);
        QCOMPARE(m.addNote({100, 100, 2, QStringLiteral("all-reduce starts"), -1, {}}), 0);
        QCOMPARE(m.addNote({900, 500, -1, QStringLiteral("bubble"), -1, {}}), 1); // swapped to 500..900
        QCOMPARE(m.notes()[1].start, TimeNs(500));
        QCOMPARE(m.noteAt(120, 50), 0);
        QCOMPARE(m.noteAt(700, 0), 1);
        QCOMPARE(m.noteAt(300, 10), -1);
        m.editNote(0, QStringLiteral("exposed from here"));
        m.setBookmark(3, 1000, 5000);
        m.setBookmark(4, 10, 5); // empty: ignored
        QCOMPARE(changed.count(), 4);
        const QJsonObject json = m.toJson();
        AnnotationModel copy;
        QCOMPARE(copy.fromJson(json, 4), QString());
        QCOMPARE(copy.notes().size(), std::size_t(2));
        QCOMPARE(copy.notes()[0].text, QStringLiteral("exposed from here"));
        QCOMPARE(copy.notes()[0].rank, 2);
        QVERIFY(copy.bookmark(3).set);
        QCOMPARE(copy.bookmark(3).end, TimeNs(5000));
        QVERIFY(!copy.bookmark(4).set);
        // A rank the set does not have loses its marker, not the note.
        QCOMPARE(copy.fromJson(json, 2), QString());
        QCOMPARE(copy.notes()[0].rank, -1);
        QJsonObject bad = json;
        bad[QStringLiteral("bookmarks")] = QJsonObject{{QStringLiteral("12"), QJsonObject{}}};
        QVERIFY(copy.fromJson(bad, 4).contains("bookmark \"12\" is not 1 to 9"));
        QCOMPARE(copy.notes().size(), std::size_t(2)); // unchanged
        m.removeNote(0);
        QCOMPARE(m.notes().size(), std::size_t(1));
        m.clear();
        QVERIFY(m.empty());
    }

    // A note at the selected event: in both panes, in the figure, in the session.
    void noteInPanesFigureAndSession() {
        QTemporaryDir dir;
        MainWindow w;
        openSample(w);
        SessionController* s = w.sessions();
        const int before = notePixels(w.grab().toImage());
        // The longest kernel of rank 1's compute stream, selected.
        const TimelineData& data = *s->measured();
        EventId e;
        for (std::uint32_t k = 0; k < data.ranks()[1].tracks.size() && !e.valid(); ++k)
            if (data.ranks()[1].tracks[k].track->isGpu()) e = {1, {k, 0}};
        QVERIFY(e.valid());
        s->selection()->setEvent(e);
        const Note n = noteAtSelection(*s, QStringLiteral("first kernel of rank 1"));
        QCOMPARE(n.rank, 1);
        QCOMPARE(n.start, data.track(1, e.ref.track).start[0]);
        s->annotations()->addNote(n);
        QCoreApplication::processEvents();
        auto* panes = w.findChild<TimelinePanes*>();
        const int measured = notePixels(panes->measured()->grab().toImage());
        const int simulated = notePixels(panes->simulated()->grab().toImage());
        QVERIFY2(measured > 50 && simulated > 50,
                 qPrintable(QStringLiteral("%1 %2").arg(measured).arg(simulated)));
        QVERIFY(notePixels(w.grab().toImage()) > before);
        // In the exported figure, text and all.
        QCOMPARE(s->exportTimelineFigure(dir.filePath("f.svg"), {1920, 1080}), QString());
        QFile svg(dir.filePath("f.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("first kernel of rank 1"));
        QCOMPARE(s->exportTimelineFigure(dir.filePath("f.png"), {1920, 1080}), QString());
        QVERIFY(notePixels(QImage(dir.filePath("f.png"))) > 100);
        // Bookmark 2: the window now; the key 2 comes back to it.
        s->view()->setWindow(data.start() + 1'000'000, data.start() + 3'000'000);
        action(w, QStringLiteral("setBookmark2"))->trigger();
        s->view()->fitAll();
        QVERIFY(s->view()->windowStart() != data.start() + 1'000'000);
        QTest::keyClick(&w, Qt::Key_2);
        QCOMPARE(s->view()->windowStart(), data.start() + 1'000'000);
        QCOMPARE(s->view()->windowEnd(), data.start() + 3'000'000);
        // Saved and opened again.
        const QString path = dir.filePath(QStringLiteral("notes") + QLatin1String(Session::kSuffix));
        QVERIFY(writeSessionFile(path, s->document()->currentSession()).isEmpty());
        MainWindow again;
        again.show();
        QCOMPARE(again.sessions()->openSession(path), QString());
        QVERIFY(again.sessions()->loader()->waitForFinished(60'000));
        QTRY_COMPARE_WITH_TIMEOUT(again.sessions()->annotations()->notes().size(), std::size_t(1), 30'000);
        QCOMPARE(again.sessions()->annotations()->notes()[0].text, QStringLiteral("first kernel of rank 1"));
        QVERIFY(again.sessions()->annotations()->bookmark(2).set);
        // Other traces start without the notes.
        again.sessions()->openTraces({QString::fromStdString(sltest::samplePath("03-tp2-pp2"))});
        QVERIFY(again.sessions()->loader()->waitForFinished(60'000));
        QTRY_VERIFY_WITH_TIMEOUT(again.sessions()->annotations()->empty(), 30'000);
    }

    // A note pinned to a track row (not only a rank) with an arrow to an event on another rank's
    // track: saved and read back; sessions written before both still load (no track, no arrow).
    void trackAndArrowJson() {
        AnnotationModel m;
        Note n{100, 100, 1, QStringLiteral("waits here"), 3, {}};
        m.addNote(n);
        QSignalSpy changed(&m, &AnnotationModel::changed);
        m.setArrow(0, {true, 700, 2, 4});
        QCOMPARE(changed.count(), 1);
        AnnotationModel copy;
        QCOMPARE(copy.fromJson(m.toJson(), 4), QString());
        const Note& c = copy.notes()[0];
        QCOMPARE(c.track, 3);
        QVERIFY(c.arrow.set);
        QCOMPARE(c.arrow.time, TimeNs(700));
        QCOMPARE(c.arrow.rank, 2);
        QCOMPARE(c.arrow.track, 4);
        // Written before tracks and arrows: {start_ns, end_ns, rank, text}.
        const QJsonObject old{{QStringLiteral("notes"),
                               QJsonArray{QJsonObject{{QStringLiteral("start_ns"), QStringLiteral("5")},
                                                      {QStringLiteral("end_ns"), QStringLiteral("5")},
                                                      {QStringLiteral("rank"), 1},
                                                      {QStringLiteral("text"), QStringLiteral("old")}}}}};
        QCOMPARE(copy.fromJson(old, 4), QString());
        QCOMPARE(copy.notes()[0].rank, 1);
        QCOMPARE(copy.notes()[0].track, -1);
        QVERIFY(!copy.notes()[0].arrow.set);
        QJsonObject bad = m.toJson();
        QJsonArray notes = bad[QStringLiteral("notes")].toArray();
        QJsonObject first = notes[0].toObject();
        first[QStringLiteral("arrow")] = QJsonObject{{QStringLiteral("time_ns"), QStringLiteral("soon")}};
        notes[0] = first;
        bad[QStringLiteral("notes")] = notes;
        QVERIFY(copy.fromJson(bad, 4).contains("note 1: bad arrow time"));
        m.setArrow(0, {});
        QVERIFY(!m.notes()[0].arrow.set);
    }

    // Drawn where it is pinned: the dot on the track's row, not on the rank's header row; the arrow
    // ends at the target's row and time.
    void trackPinAndArrowDrawn() {
        const TraceSet set = loadTraceSet({sltest::samplePath("02-dp4")});
        TrackState state;
        state.reset(set);
        RowLayout layout;
        layout.build(set, state);
        // Rank 1's last track row, and rank 3's first, both laid out.
        int pinRow = -1, targetRow = -1, pinTrack = -1, targetTrack = -1;
        for (std::size_t k = 0; k < set.ranks[1].tracks.size(); ++k)
            if (layout.rowOf(1, static_cast<int>(k)) >= 0) {
                pinRow = layout.rowOf(1, static_cast<int>(k));
                pinTrack = static_cast<int>(k);
            }
        for (std::size_t k = 0; k < set.ranks[3].tracks.size() && targetRow < 0; ++k)
            if ((targetRow = layout.rowOf(3, static_cast<int>(k))) >= 0) targetTrack = static_cast<int>(k);
        QVERIFY(pinRow >= 0 && targetRow >= 0);
        const Row& pin = layout.rows()[static_cast<std::size_t>(pinRow)];
        const Row& target = layout.rows()[static_cast<std::size_t>(targetRow)];
        int headerY = -1;
        for (const Row& r : layout.rows())
            if (r.header() && r.rank == 1) headerY = r.y + r.height / 2;
        QVERIFY(headerY >= 0 && std::abs(headerY - (pin.y + pin.height / 2)) > 8);
        const QSize size(1000, layout.height());
        const TimeMapping m = TimeMapping::fromWindow(0, 1'000'000, size.width());
        Note n{200'000, 200'000, 1, QStringLiteral("pinned"), pinTrack, {}};
        n.arrow = {true, 700'000, 3, targetTrack};
        QImage image(size, QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            paintNotes(p, {n}, m, layout, size, 0);
        }
        auto near = [&](int cx, int cy, int radius) {
            int count = 0;
            for (int y = std::max(0, cy - radius); y <= std::min(size.height() - 1, cy + radius); ++y)
                for (int x = std::max(0, cx - radius); x <= std::min(size.width() - 1, cx + radius); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (std::abs(c.red() - 0xd6) < 40 && std::abs(c.green() - 0x33) < 40 &&
                        std::abs(c.blue() - 0x6c) < 40)
                        ++count;
                }
            return count;
        };
        // The dot (radius 5) at x = 200 on the track's row; beside the dashed line, on the header
        // row, nothing but the line.
        QVERIFY2(near(204, pin.y + pin.height / 2, 1) >= 6, "no dot on the pinned track's row");
        QVERIFY2(near(204, headerY, 1) == 0, "a dot on the rank's header row");
        // The arrow's head at x = 700 on rank 3's track row.
        // 5 px back from the tip along the arrow (it comes from the flag, at the top near x = 300).
        const int tipY = target.y + target.height / 2;
        const double dx = 700 - 300, dy = tipY - 20, len = std::hypot(dx, dy);
        const int hx = static_cast<int>(std::lround(700 - 5 * dx / len)),
                  hy = static_cast<int>(std::lround(tipY - 5 * dy / len));
        QVERIFY2(near(hx, hy, 3) >= 8, qPrintable(QStringLiteral("no arrow head at 700,%1").arg(tipY)));
        // Without the arrow, nothing there.
        n.arrow = {};
        image.fill(Qt::white);
        {
            QPainter p(&image);
            paintNotes(p, {n}, m, layout, size, 0);
        }
        QCOMPARE(near(hx, hy, 3), 0);
    }

    void badSessionNotes() {
        QTemporaryDir dir;
        MainWindow w;
        openSample(w);
        Session session = w.sessions()->document()->currentSession();
        session.annotations =
            QJsonObject{{QStringLiteral("notes"),
                         QJsonArray{QJsonObject{{QStringLiteral("start_ns"), QStringLiteral("x")}}}}};
        const QString path = dir.filePath(QStringLiteral("bad") + QLatin1String(Session::kSuffix));
        QVERIFY(writeSessionFile(path, session).isEmpty());
        MainWindow again;
        again.show();
        QCOMPARE(again.sessions()->openSession(path), QString());
        QVERIFY(again.sessions()->loader()->waitForFinished(60'000));
        QTRY_VERIFY_WITH_TIMEOUT(!again.sessions()->tracePaths().isEmpty(), 30'000);
        QVERIFY(again.sessions()->annotations()->empty());
    }
};

QTEST_MAIN(TestAnnotations)
#include "test_Annotations.moc"
