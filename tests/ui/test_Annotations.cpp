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
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QImage>
#include <QJsonArray>
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
        QCOMPARE(m.addNote({100, 100, 2, QStringLiteral("all-reduce starts")}), 0);
        QCOMPARE(m.addNote({900, 500, -1, QStringLiteral("bubble")}), 1); // swapped to 500..900
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
        QVERIFY(writeSessionFile(path, s->currentSession()).isEmpty());
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

    void badSessionNotes() {
        QTemporaryDir dir;
        MainWindow w;
        openSample(w);
        Session session = w.sessions()->currentSession();
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
