// The help windows on their own: created on first use, one per kind, non-modal tool windows whose
// text names the keys of the program and the words of the panes.
#include "HelpSheets.h"

#include <QTextBrowser>
#include <QWidget>
#include <QtTest>

using namespace sl::ui;

class TestHelpSheets : public QObject {
    Q_OBJECT
private slots:
    void keySheet() {
        QWidget window;
        HelpSheets help(&window);
        QVERIFY(!help.keySheet());
        help.showKeySheet();
        QWidget* sheet = help.keySheet();
        QVERIFY(sheet && sheet->isVisible());
        QVERIFY(!sheet->isModal());
        QCOMPARE(sheet->objectName(), QStringLiteral("keySheet"));
        QCOMPARE(window.findChild<QWidget*>(QStringLiteral("keySheet")), sheet);
        const QString text = sheet->findChild<QTextBrowser*>(QStringLiteral("keySheetText"))->toPlainText();
        // The single keys of the menus (MainMenus.cpp) and the mouse gestures.
        for (const char* key : {"W / S", "A / D", "F", "Home", "Ctrl+F", "Esc", "C", "E", "G", "F11",
                                "? or F1", "Shift+drag, right-drag"})
            QVERIFY2(text.contains(QLatin1String(key)), key);
        // Shown again: the same window, not a second one.
        sheet->hide();
        help.showKeySheet();
        QCOMPARE(help.keySheet(), sheet);
        QVERIFY(sheet->isVisible());
        QCOMPARE(window.findChildren<QTextBrowser*>().size(), 1);
    }

    void glossary() {
        QWidget window;
        HelpSheets help(&window);
        QVERIFY(!help.glossary());
        help.showGlossary();
        QVERIFY(help.glossary() && help.glossary()->isVisible());
        const QString text =
            help.glossary()->findChild<QTextBrowser*>(QStringLiteral("glossaryText"))->toPlainText();
        for (const char* word :
             {"Rank", "Iteration", "Critical path", "Exposed communication", "Overlap", "Straggler", "Knobs"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
        // The HTML escapes what it shows: no raw markup of the entries leaks into the text.
        QVERIFY(!text.contains(QLatin1String("<b>")));
        QVERIFY(HelpSheets::glossaryHtml().startsWith(QLatin1String("<dl>")));
    }
};

QTEST_MAIN(TestHelpSheets)
#include "test_HelpSheets.moc"
