// The menus for presenting and teaching: notes and bookmarks (docs/Annotations.md) and guided
// lessons (docs/Lessons.md).
#include "MainMenus.h"
#include "TimelineNavigator.h"

#include "TraceFigure.h"

#include "Annotations.h"
#include "ComparisonController.h"
#include "ComparisonWindow.h"
#include "DialogDir.h"
#include "EtAttach.h"
#include "FindBar.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "Lesson.h"
#include "LessonPanel.h"
#include "MessageBar.h"
#include "RecentFiles.h"
#include "Selection.h"
#include "Session.h"
#include "SessionController.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"
#include "io/TraceFormat.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QToolBar>

namespace sl::ui {

void MainMenus::buildNotesMenu(QMenu* notes) {
    notes->setObjectName(QStringLiteral("notesMenu"));
    SessionController* session = p_.session;
    AnnotationModel* model = session->annotations();
    notes
        ->addAction(tr("&Add Note..."), QKeySequence(tr("Ctrl+Shift+N")), this,
                    [this, session, model] {
                        if (!session->measured()) return;
                        bool ok = false;
                        const QString text = QInputDialog::getText(window_, tr("Add note"), tr("Note:"),
                                                                   QLineEdit::Normal, {}, &ok);
                        if (ok && !text.trimmed().isEmpty())
                            model->addNote(noteAtSelection(*session, text.trimmed()));
                    })
        ->setObjectName(QStringLiteral("addNoteAction"));
    notes->addAction(tr("&Edit or Remove a Note..."), this, [this, model] {
        QStringList items;
        for (std::size_t i = 0; i < model->notes().size(); ++i)
            items << QStringLiteral("%1 %2").arg(i + 1).arg(model->notes()[i].text);
        if (items.isEmpty()) return;
        bool ok = false;
        const QString item =
            QInputDialog::getItem(window_, tr("Edit note"), tr("Note:"), items, 0, false, &ok);
        if (!ok) return;
        const int index = static_cast<int>(items.indexOf(item));
        const QString text = QInputDialog::getText(window_, tr("Edit note"),
                                                   tr("Text (empty removes the note):"), QLineEdit::Normal,
                                                   model->notes()[static_cast<std::size_t>(index)].text, &ok);
        if (!ok) return;
        if (text.trimmed().isEmpty())
            model->removeNote(index);
        else
            model->editNote(index, text.trimmed());
    });
    // An arrow from a note to the selected event (or range): pick the note by number.
    notes
        ->addAction(tr("&Point a Note at the Selection..."), this,
                    [this, session, model] {
                        const NoteTarget target = arrowTargetAtSelection(*session);
                        if (model->notes().empty() || !target.set) {
                            emit session->message(model->notes().empty()
                                                      ? tr("Add a note first (Ctrl+Shift+N)")
                                                      : tr("Select an event or a time range to point at"),
                                                  MessageBar::Level::Info);
                            return;
                        }
                        QStringList items;
                        for (std::size_t i = 0; i < model->notes().size(); ++i)
                            items << QStringLiteral("%1 %2").arg(i + 1).arg(model->notes()[i].text);
                        int index = 0;
                        if (items.size() > 1) {
                            bool ok = false;
                            const QString item =
                                QInputDialog::getItem(window_, tr("Point a note"), tr("Arrow from note:"),
                                                      items, static_cast<int>(items.size()) - 1, false, &ok);
                            if (!ok) return;
                            index = static_cast<int>(items.indexOf(item));
                        }
                        model->setArrow(index, target);
                    })
        ->setObjectName(QStringLiteral("pointNoteAction"));
    notes->addSeparator();
    // Bookmarks: Ctrl+N remembers the visible window as bookmark N, the key N jumps back to it.
    for (int n = 1; n <= AnnotationModel::kBookmarks; ++n) {
        const auto digit = static_cast<Qt::Key>(Qt::Key_0 + n);
        QAction* set = addKeyAction(QStringLiteral("setBookmark%1").arg(n), tr("Set Bookmark %1").arg(n),
                                    {QKeySequence(Qt::CTRL | digit)});
        connect(set, &QAction::triggered, this, [session, model, n] {
            model->setBookmark(n, session->view()->windowStart(), session->view()->windowEnd());
        });
        QAction* go = addKeyAction(QStringLiteral("goBookmark%1").arg(n), tr("Go to Bookmark %1").arg(n),
                                   {QKeySequence(digit)});
        connect(go, &QAction::triggered, this, [session, model, n] {
            const Bookmark& b = model->bookmark(n);
            if (b.set && session->measured()) session->view()->setWindow(b.start, b.end);
        });
        notes->addAction(set);
        notes->addAction(go);
    }
}

void MainMenus::buildLessonsMenu(QMenu* help) {
    auto* lessons = help->addMenu(tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    for (const QString& file : bundledLessons()) {
        Lesson l;
        const bool ok = readLessonFile(file, l).isEmpty();
        lessons->addAction(ok ? l.title : QFileInfo(file).fileName(), this,
                           [this, file] { openLesson(file); });
    }
    lessons->addSeparator();
    lessons->addAction(tr("Open Lesson &File..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(window_, tr("Open lesson"), lessonsDir(),
                                                          tr("Sightline lesson (*.json);;All files (*)"));
        if (!path.isEmpty()) openLesson(path);
    });
}

QString MainMenus::openLesson(const QString& path) {
    if (!lessonPanel_) {
        lessonPanel_ = new LessonPanel(p_.session);
        lessonDock_ = new QDockWidget(tr("Lesson"), window_);
        lessonDock_->setObjectName(QStringLiteral("lessonDock"));
        lessonDock_->setWidget(lessonPanel_);
        lessonPanel_->endOnClose(lessonDock_);
        // A step's own what-if notices ("this edit made the new scenario ...") would stay on
        // through the next steps: the lesson's text says what a step does.
        connect(lessonPanel_, &LessonPanel::stepApplied, this, [this] {
            if (auto* bar = window_->findChild<MessageBar*>(); bar && bar->level() == MessageBar::Level::Info)
                bar->hide();
        });
        connect(lessonPanel_, &LessonPanel::missingEvent, this, [this](const QString& line) {
            if (auto* bar = window_->findChild<MessageBar*>())
                bar->showMessage(line, MessageBar::Level::Warning);
        });
        // The navigator brings what a step talks about into view (it exists once the window is built).
        if (auto* navigator = window_->findChild<TimelineNavigator*>()) {
            connect(lessonPanel_, &LessonPanel::focusRequested, navigator, &TimelineNavigator::focusRanks);
            connect(lessonPanel_, &LessonPanel::eventPointed, navigator,
                    [navigator](EventId e, bool keepTime) {
                        keepTime ? navigator->revealEventRow(e) : navigator->revealEvent(e);
                    });
        }
        window_->addDockWidget(Qt::RightDockWidgetArea, lessonDock_);
        // The right column's top, as a tab beside Details: the text gets the column's height.
        if (auto* details = window_->findChild<QDockWidget*>(QStringLiteral("detailsDock")))
            window_->tabifyDockWidget(details, lessonDock_);
        lessonDock_->hide();
    }
    const QString error = lessonPanel_->open(path);
    if (!error.isEmpty()) {
        if (auto* bar = window_->findChild<MessageBar*>()) bar->showMessage(error, MessageBar::Level::Error);
        return error;
    }
    lessonDock_->show();
    lessonDock_->raise();
    return {};
}

} // namespace sl::ui
