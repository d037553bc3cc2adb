// MainMenus on its own (a bare QMainWindow with a session): the menus and their order, the highlight
// toggles both ways, the single keys, the critical-path segment keys, focus mode and the help.
#include "FindBar.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "MainMenus.h"
#include "SessionController.h"
#include "TimelinePanes.h"

#include "TestSupport.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalSpy>
#include <QToolBar>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
struct Rig {
    QMainWindow window;
    SessionController* session = new SessionController(&window);
    TimelinePanes* panes =
        new TimelinePanes(session->view(), session->selection(), session->tracks(), &window);
    FindBar* find = new FindBar(&window);
    HelpSheets* help = new HelpSheets(&window);
    QDockWidget* dock = new QDockWidget(QStringLiteral("A dock"), &window);
    MainMenus* menus = nullptr;
    Rig() {
        dock->setObjectName(QStringLiteral("aDock"));
        window.addDockWidget(Qt::RightDockWidgetArea, dock);
        window.setCentralWidget(panes);
        menus = new MainMenus(&window, {session, panes, find, help});
    }
    QAction* action(const char* name) const {
        auto* a = window.findChild<QAction*>(QLatin1String(name));
        if (!a) qFatal("no action %s", name);
        return a;
    }
};

QStringList titles(const QList<QAction*>& actions) {
    QStringList out;
    for (const QAction* a : actions)
        if (!a->isSeparator()) out.push_back(a->text());
    return out;
}
} // namespace

class TestMainMenus : public QObject {
    Q_OBJECT
private slots:
    void menusInOrder() {
        Rig r;
        QCOMPARE(titles(r.window.menuBar()->actions()),
                 (QStringList{QStringLiteral("&File"), QStringLiteral("&View"), QStringLiteral("&Help")}));
        const QStringList file = titles(r.window.menuBar()->actions()[0]->menu()->actions());
        QCOMPARE(file.first(), QStringLiteral("&Open Files..."));
        QCOMPARE(file.last(), QStringLiteral("&Quit"));
        QVERIFY(file.contains(QStringLiteral("Export &Report (HTML, JSON, CSV)...")));
        QVERIFY(file.contains(QStringLiteral("Attach E&xecution Traces...")));
        // The View menu ends with a toggle per dock (built before the menus).
        const QList<QAction*> view = r.window.menuBar()->actions()[1]->menu()->actions();
        QCOMPARE(view.last(), r.dock->toggleViewAction());
        QVERIFY(view.contains(r.menus->criticalPathAction()));
        QVERIFY(view.contains(r.menus->focusModeAction()));
        const QStringList help = titles(r.window.menuBar()->actions()[2]->menu()->actions());
        QCOMPARE(help, (QStringList{QStringLiteral("&Keyboard and Mouse"), QStringLiteral("&Glossary"),
                                    QStringLiteral("&Lessons")}));
    }

    void highlightTogglesBothWays() {
        Rig r;
        HighlightModel* h = r.session->highlights();
        QVERIFY(!h->criticalPath());
        r.menus->criticalPathAction()->trigger();
        QVERIFY(h->criticalPath());
        r.menus->exposedAction()->trigger();
        QVERIFY(h->exposed());
        // The model changed elsewhere (a session restored): the toggles follow.
        h->setArrows(!h->arrows());
        QCOMPARE(r.menus->arrowsAction()->isChecked(), h->arrows());
        h->setCriticalPath(false);
        QVERIFY(!r.menus->criticalPathAction()->isChecked());
        // The same three on the toolbar.
        auto* bar = r.window.findChild<QToolBar*>(QStringLiteral("highlightsToolBar"));
        QVERIFY(bar);
        QCOMPARE(bar->actions(), (QList<QAction*>{r.menus->criticalPathAction(), r.menus->exposedAction(),
                                                  r.menus->arrowsAction()}));
    }

    void singleKeys() {
        Rig r;
        // W/S/A/D/F, application-wide (whatever has focus).
        QStringList keys;
        for (const QAction* a : r.menus->navigationActions()) {
            QCOMPARE(a->shortcutContext(), Qt::ApplicationShortcut);
            keys.push_back(a->shortcut().toString());
        }
        QCOMPARE(keys, (QStringList{QStringLiteral("W"), QStringLiteral("S"), QStringLiteral("A"),
                                    QStringLiteral("D"), QStringLiteral("F")}));
        QCOMPARE(r.menus->criticalPathAction()->shortcut().toString(), QStringLiteral("C"));
        QCOMPARE(r.menus->exposedAction()->shortcut().toString(), QStringLiteral("E"));
        QCOMPARE(r.menus->arrowsAction()->shortcut().toString(), QStringLiteral("G"));
        QCOMPARE(r.menus->shiftAction()->shortcut().toString(), QStringLiteral("H"));
        QSignalSpy segment(r.menus, &MainMenus::segmentRequested);
        r.action("nextSegmentAction")->trigger();
        r.action("previousSegmentAction")->trigger();
        QCOMPARE(segment.count(), 2);
        QCOMPARE(segment[0][0].toBool(), true);
        QCOMPARE(segment[1][0].toBool(), false);
        // ? and F1 open the key sheet.
        QVERIFY(!r.help->keySheet());
        r.action("keySheetAction")->trigger();
        QVERIFY(r.help->keySheet() && r.help->keySheet()->isVisible());
    }

    void focusMode() {
        Rig r;
        r.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&r.window));
        auto* bar = r.window.findChild<QToolBar*>(QStringLiteral("highlightsToolBar"));
        QVERIFY(r.dock->isVisible() && bar->isVisible());
        r.menus->focusModeAction()->trigger();
        QVERIFY(!r.dock->isVisible());
        QVERIFY(!bar->isVisible());
        QVERIFY(r.panes->isVisible());
        r.menus->setFocusMode(false); // also from code: the action follows
        QVERIFY(!r.menus->focusModeAction()->isChecked());
        QVERIFY(r.dock->isVisible() && bar->isVisible());
        // A dock the user had closed stays closed after focus mode.
        r.dock->hide();
        r.menus->setFocusMode(true);
        r.menus->setFocusMode(false);
        QVERIFY(!r.dock->isVisible());
    }
};

QTEST_MAIN(TestMainMenus)
#include "test_MainMenus.moc"
