#pragma once
// How the UI tests reach the parts of a MainWindow: through its SessionController and MainMenus, or
// a child by type (and object name) with part<T>(), which ends the test program when it is missing
// (a renamed or removed part fails loudly instead of skipping).
#include "ChartsPanel.h"
#include "DetailsPanel.h"
#include "DialogDir.h"
#include "FindBar.h"
#include "FindResultsModel.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "RangeStatsModel.h"
#include "RangeStatsPanel.h"
#include "RangeStatsWorker.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "TestSupport.h"
#include "TimelineNavigator.h"
#include "TimelinePanes.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"
#include "WarningsPanel.h"
#include "WelcomePage.h"

#include <QCoreApplication>
#include <QStackedWidget>
#include <QTableView>
#include <QtGlobal>

namespace sltest {

template <class T> T* part(const QObject& window, const QString& name = {}) {
    T* p = window.findChild<T*>(name);
    if (!p) qFatal("the window has no %s named '%s'", T::staticMetaObject.className(), qPrintable(name));
    return p;
}

// Whether the window shows its welcome page (no set open yet).
inline bool showsWelcome(const QObject& window) {
    return part<QStackedWidget>(window, QStringLiteral("pages"))->currentIndex() == 0;
}

// The window's scenarios (the list, the runner).
inline sl::ui::ScenarioController* scenarios(const QObject& window) {
    return part<sl::ui::ScenarioController>(window);
}

// Waits until the window's simulation and its scenarios' runs are done (a few rounds: a finished
// simulation starts the scenarios' runs). False on a timeout.
inline bool settleSimulations(const sl::ui::MainWindow& w, int timeoutMs = 60'000) {
    for (int i = 0; i < 3; ++i) {
        if (!w.sessions()->simRunner()->waitForIdle(timeoutMs)) return false;
        if (!scenarios(w)->runner()->waitForIdle(timeoutMs)) return false;
        QCoreApplication::processEvents();
    }
    return true;
}

// Shows `w` at width x height, opens the bundled sample and waits for it and its simulations; false
// when either does not finish.
inline bool openSample(sl::ui::MainWindow& w, const char* sample, int width = 1600, int height = 1000) {
    w.resize(width, height);
    w.show();
    w.sessions()->openTraces({QString::fromStdString(samplePath(sample))});
    return w.sessions()->loader()->waitForFinished(60'000) && settleSimulations(w);
}

} // namespace sltest
