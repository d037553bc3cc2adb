// The Details dock (ui/panels/DetailsPanel): at a narrow dock width its lines break between words
// only, never inside one (it cut "user_annotation" into "user_anno" / "tation" at 165 px).
#include "DetailsPanel.h"

#include "io/KinetoLoader.h"

#include <QAbstractTextDocumentLayout>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

#include <fstream>

using namespace sl;
using namespace sl::ui;

namespace {
bool wordChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}
// The lines of the document that start inside a word ("tation" after "user_anno"), as text.
QStringList midWordBreaks(QTextDocument* doc) {
    QStringList out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        const QString text = b.text();
        QTextLayout* layout = b.layout();
        for (int i = 1; i < layout->lineCount(); ++i) {
            const int at = layout->lineAt(i).textStart();
            if (at > 0 && at < text.size() && wordChar(text[at - 1]) && wordChar(text[at]))
                out << text.left(at) + QStringLiteral(" | ") + text.mid(at);
        }
    }
    return out;
}
} // namespace

class TestDetailsPanel : public QObject {
    Q_OBJECT

private slots:
    void narrowDockBreaksBetweenWords() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one.json").toStdString();
        std::ofstream(path) << "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                               "\"forward_backward_optimizer_step\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
                               "\"dur\": 2}]}";
        auto set = std::make_shared<TraceSet>(loadTraceSet({path}));
        DetailsPanel panel;
        panel.resize(165, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setData(TimelineData::measured(set), nullptr);
        panel.showDetails(EventId{0, {0, 0}});
        QCoreApplication::processEvents();
        QVERIFY(panel.toPlainText().contains(QStringLiteral("user_annotation")));
        // Laid out at the dock's width.
        QVERIFY(panel.document()->textWidth() > 0 && panel.document()->textWidth() <= 165);
        (void)panel.document()->documentLayout()->documentSize();
        const QStringList breaks = midWordBreaks(panel.document());
        QVERIFY2(breaks.isEmpty(), qPrintable(breaks.join(QStringLiteral("; "))));
    }
};

QTEST_MAIN(TestDetailsPanel)
#include "test_DetailsPanel.moc"
