// The window's layout (docs/MainWindow.md, "Layout"): default dock sizes, a chart tab's room (Sweep,
// Plan) while it is in front, whether the user rearranged the docks, and the layout saved between runs.
#include "MainWindow.h"

#include "MainMenus.h"
#include "MessageBar.h"
#include "PlanView.h"
#include "ResultCard.h"
#include "SessionController.h"
#include "SweepView.h"
#include "ViewController.h"

#include <QChartView>
#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTabBar>
#include <QTimer>

#include <algorithm>

namespace sl::ui {

void MainWindow::applyDefaultSizes() {
    // Timeline first (docs/MainWindow.md, "Layout"): narrow side columns and a short bottom row, so
    // that the panes get most of the height (>= 60% at 1600x1000 and at 1280x720).
    // On laptop screens (under 800 px) the bottom row starts as a strip of its tabs and a header;
    // dragging it taller is one move.
    const int bottom = std::min(200, height() * (height() < 800 ? 8 : 15) / 100);
    resizeDocks({tracksDock_, detailsDock_}, {std::min(260, width() / 6), std::min(380, width() / 4)},
                Qt::Horizontal);
    resizeDocks({scenariosDock_, deltaDock_}, {std::min(300, width() / 5), width()}, Qt::Horizontal);
    resizeDocks({deltaDock_}, {bottom}, Qt::Vertical);
    // The columns' splits too, so that Reset Layout gives the same as a first start.
    resizeDocks({tracksDock_, knobsDock_}, {2, 3}, Qt::Vertical);
    resizeDocks({detailsDock_, rangeDock_, chartsDock_}, {1, 1, 1}, Qt::Vertical);
}

void MainWindow::fitChartTab(QDockWidget* dock, bool front) {
    // The bottom row is short so that the panes keep the height (docs/MainWindow.md, "Layout"); the
    // sweep's and the plan's plots need more to be read, so they take it while their tab is in
    // front. Focus mode, Reset Layout and a restored state bring their own sizes; a floating tab
    // sizes itself.
    if (arranging_ || (menus_ && menus_->inFocusMode()) || dock->isFloating() ||
        dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    if (!front) {
        // Another tab in front: give the height back when the row is still as the chart tab left it.
        if (sweepGrownFrom_ > 0 && dock->height() == sweepGrownTo_)
            resizeDocks({deltaDock_}, {sweepGrownFrom_ + sweepTabBar_}, Qt::Vertical);
        sweepGrownFrom_ = sweepGrownTo_ = 0;
        return;
    }
    growChartTab(dock);
}

void MainWindow::growChartTab(QDockWidget* dock) {
    // On the event loop: the tab's contents get their size there. Each step lays out the docks and
    // the chart (whose plot follows its view by layout requests) before measuring the plot.
    QTimer::singleShot(0, this, [this, dock] {
        for (int step = 0; step < 4; ++step) {
            for (int i = 0; i < 3; ++i)
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            if (!dock->isVisible() || dock->visibleRegion().isEmpty() || dock->isFloating() || arranging_ ||
                (menus_ && menus_->inFocusMode()))
                return;
            // From sizes that agree with each other: the chart's plot with its own view (the titles
            // and axes around it), the panel with the scroll area's viewport it sits in. A panel
            // laid out for a taller row while its tab was behind keeps its size and scrolls.
            QWidget* panel = dock == planDock_ ? static_cast<QWidget*>(plan_) : sweep_;
            const QChartView* view = dock == planDock_ ? plan_->chart() : sweep_->chart();
            const int plot = static_cast<int>(view->chart()->plotArea().height());
            const int viewNeed = SweepView::kPlotHeight + view->height() - plot;
            const int panelNeed = panel->height() - view->height() + viewNeed;
            const auto* scroll = qobject_cast<const QScrollArea*>(dock->widget());
            const int shown = scroll ? scroll->viewport()->height() : panel->height();
            const int now = dock->height();
            const int need = std::min(height() * 45 / 100, now + panelNeed - shown);
            if (need <= now) return;
            if (sweepGrownFrom_ == 0) sweepGrownFrom_ = now;
            // The size given is the tab group's, its tab bar included: sweepTabBar_ is what a step
            // learnt that costs.
            resizeDocks({dock}, {need + sweepTabBar_}, Qt::Vertical);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            sweepGrownTo_ = dock->height();
            sweepTabBar_ = std::max(sweepTabBar_, need + sweepTabBar_ - sweepGrownTo_);
        }
    });
}

void MainWindow::watchLayout() {
    // The layout is saved only when the user changed it: a dock moved, floated, closed or shown
    // from the View menu, a separator dragged. Focus mode and Reset Layout are no such change.
    const auto touched = [this] {
        if (!arranging_ && menus_ && !menus_->inFocusMode()) layoutTouched_ = true;
    };
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        connect(dock, &QDockWidget::dockLocationChanged, this, touched);
        connect(dock, &QDockWidget::topLevelChanged, this, touched);
        connect(dock->toggleViewAction(), &QAction::triggered, this, touched);
        dock->installEventFilter(this);
    }
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // A dock's own close button.
    if (event->type() == QEvent::Close && qobject_cast<QDockWidget*>(watched)) layoutTouched_ = true;
    return QMainWindow::eventFilter(watched, event);
}

bool MainWindow::event(QEvent* event) {
    // Under 800 px high the card folds its path note into a tooltip and cuts "What limits" to two
    // lines (docs/MainWindow.md, "Layout")...
    if (event->type() == QEvent::Resize && card_) {
        card_->setCompact(height() < 800);
        // ... and the message bar its sentence into one line (whole in its tooltip).
        messageBar_->setCompact(height() < 800);
    }
    // A separator between docks is dragged on the window itself: press, move, release.
    if (event->type() == QEvent::MouseButtonPress)
        pressState_ = saveState();
    else if (event->type() == QEvent::MouseButtonRelease && !pressState_.isEmpty()) {
        if (saveState() != pressState_) layoutTouched_ = true;
        pressState_.clear();
    }
    return QMainWindow::event(event);
}

void MainWindow::resetLayout() {
    arranging_ = true;
    sweepGrownFrom_ = sweepGrownTo_ = 0;
    restoreState(defaultState_);
    for (QDockWidget* dock : {deltaDock_, chartsDock_})
        dock->raise();
    applyDefaultSizes();
    // Once more when the restored state is laid out (it brings the sizes of before the first show).
    QTimer::singleShot(0, this, [this] {
        arranging_ = true;
        applyDefaultSizes();
        arranging_ = false;
    });
    arranging_ = false;
    layoutTouched_ = false;
    QSettings().remove(QStringLiteral("window/state"));
}

void MainWindow::saveLayout() {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/labelColumn"), sessions_->view()->gutterWidth());
    if (layoutTouched_)
        s.setValue(QStringLiteral("window/state"),
                   menus_->inFocusMode() ? menus_->stateBeforeFocus() : saveState());
}

void MainWindow::restoreLayout() {
    QSettings s;
    arranging_ = true;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        // First run: the default size, but never larger than the screen (1280x720 laptops).
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            resize(size().boundedTo(screen->availableGeometry().size() * 0.95));
    } else {
        fitToScreen();
    }
    layoutRestored_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    arranging_ = false;
    ViewController* view = sessions_->view();
    view->setGutterWidth(s.value(QStringLiteral("window/labelColumn"), view->gutterWidth()).toInt());
}

void MainWindow::fitToScreen() {
    // A geometry saved on a larger screen (a monitor at the office, a laptop at home) would put the
    // docks and the status bar off this one: the window shrinks to the screen and moves onto it.
    if (isMaximized() || isFullScreen()) return;
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen) return;
    const QRect available = screen->availableGeometry();
    const QRect frame = frameGeometry();
    if (available.contains(frame)) return;
    // The frame (title bar, borders) around the client area, as the window manager drew it.
    const QSize margins = frame.size() - geometry().size();
    const QSize client = geometry().size().boundedTo(available.size() - margins);
    resize(client);
    const QSize outer = client + margins;
    const int x = std::clamp(frame.x(), available.left(), available.right() + 1 - outer.width());
    const int y = std::clamp(frame.y(), available.top(), available.bottom() + 1 - outer.height());
    move(x, y);
}

} // namespace sl::ui
