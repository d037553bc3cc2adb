// File > Export Figure... (docs/Exports.md, "Where"): one menu item for every picture the window
// makes, the kind chosen in one list and the format by the file's extension.
#include "MainMenus.h"

#include "DialogDir.h"
#include "FigureRender.h"
#include "MessageBar.h"
#include "PlanView.h"
#include "SessionController.h"
#include "SweepView.h"
#include "TraceFigure.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>

namespace sl::ui {

QString exportFigureFormatError(const QString& path, bool pdfToo) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("svg")) return {};
    if (suffix == QLatin1String("pdf") && pdfToo) return {};
    return QObject::tr("%1: the format comes from the file's extension: use %2")
        .arg(path, pdfToo ? QObject::tr(".png, .svg or .pdf") : QObject::tr(".png or .svg"));
}

void MainMenus::buildExportFigureAction(QMenu* file) {
    SessionController* session = p_.session;
    auto* action =
        file->addAction(tr("Export &Figure..."), QKeySequence(tr("Ctrl+Shift+S")), this, [this, session] {
            // Rendered figures first (ui/export/FigureRender.h: the card's headline, every rank, both
            // panes to their ends); pictures of the window as it is after them.
            const QStringList kinds = {tr("Timeline figure: both panes, every rank"),
                                       tr("Timeline figure: both panes, ranks and tracks as shown"),
                                       tr("Timeline figure: the measured pane"),
                                       tr("Timeline figure: the simulated pane"),
                                       tr("The chart on screen (Sweep, Plan or Charts tab)"),
                                       tr("The timeline as shown, with the result card"),
                                       tr("The whole window as shown")};
            // The Sweep or Plan tab in front with an answer in it: its chart is what the user looks at.
            const auto inFront = [](const QWidget* w) {
                return w && w->isVisible() && !w->visibleRegion().isEmpty();
            };
            const auto* sweep = window_->findChild<SweepView*>();
            const auto* plan = window_->findChild<PlanView*>();
            const bool chartTab = (inFront(sweep) && !sweep->points().empty()) ||
                                  (inFront(plan) && plan->model()->rowCount() > 0);
            bool ok = false;
            const QString kind = QInputDialog::getItem(window_, tr("Export figure"), tr("Figure:"), kinds,
                                                       chartTab ? 4 : 0, false, &ok);
            if (!ok) return;
            const int which = static_cast<int>(kinds.indexOf(kind));
            const bool figure = which <= 3;
            QSize px;
            if (figure) {
                const QStringList sizes = {QStringLiteral("1920x1080"), QStringLiteral("3840x2160"),
                                           QStringLiteral("1280x720")};
                const QString size = QInputDialog::getItem(window_, tr("Export figure"), tr("Size (pixels):"),
                                                           sizes, 0, true, &ok);
                if (!ok) return;
                if (!parseFigureSize(size, px)) {
                    // A typed size that is not one says so instead of closing without a figure.
                    if (auto* bar = window_->findChild<MessageBar*>())
                        bar->showMessage(tr("Export figure: \"%1\" is not a size in pixels (WIDTHxHEIGHT, "
                                            "e.g. 1920x1080)")
                                             .arg(size),
                                         MessageBar::Level::Error);
                    return;
                }
            }
            const QString path = QFileDialog::getSaveFileName(
                window_, tr("Export figure"), dialogDir(QStringLiteral("figure.png")),
                figure ? tr("PNG, SVG or PDF (*.png *.svg *.pdf);;All files (*)")
                       : tr("PNG or SVG (*.png *.svg);;All files (*)"));
            if (path.isEmpty()) return;
            rememberDir(path);
            if (const QString bad = exportFigureFormatError(path, figure); !bad.isEmpty()) {
                if (auto* bar = window_->findChild<MessageBar*>())
                    bar->showMessage(bad, MessageBar::Level::Error);
                return;
            }
            if (figure) {
                FigureContent content;
                content.windowTracks = which == 1;
                content.measured = which != 3;
                content.simulated = which != 2;
                session->exportTimelineFigure(path, px, content);
            } else if (which == 4) {
                emit saveChartRequested(path);
            } else if (which == 5) {
                emit saveTimelineRequested(path);
            } else {
                emit saveViewRequested(path);
            }
        });
    action->setObjectName(QStringLiteral("exportFigureAction"));
}

} // namespace sl::ui
