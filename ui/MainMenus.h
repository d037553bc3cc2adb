#pragma once
// The main window's menus, toolbar and application-wide keys (docs/ARCHITECTURE.md, "GUI"): File
// (open, recent, attach execution traces, sessions, images, exports), View (find, navigation,
// highlights, focus mode, the docks) and Help, the Highlights toolbar, and the single-key shortcuts
// that work whatever has focus. File dialogs are asked here; what they name goes to the session or,
// for pictures of parts of the window, out through the save*Requested signals.
#include <QByteArray>
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace sl::ui {

class FindBar;
class HelpSheets;
class LessonPanel;
class RecentFiles;
class SessionController;
class TimelinePanes;

struct Note;
struct NoteTarget;
// A note with `text` at the selected event (pinned to its track row), else over the selected range, else in
// the middle of the visible window (View > Notes and Bookmarks > Add Note).
Note noteAtSelection(const SessionController& session, const QString& text);
// Where an arrow added now points (docs/Annotations.md): the selected event's start on its track's
// row, else the start of the selected range; target.set is false when nothing is selected.
NoteTarget arrowTargetAtSelection(const SessionController& session);

// Export Figure's check of the file name: empty when its extension names a format the figure can
// be written in (.png, .svg, and .pdf for rendered figures), else one line naming the file.
QString exportFigureFormatError(const QString& path, bool pdfToo);

class MainMenus : public QObject {
    Q_OBJECT
public:
    struct Parts {
        SessionController* session = nullptr;
        TimelinePanes* panes = nullptr;
        FindBar* findBar = nullptr;
        HelpSheets* help = nullptr;
    };
    // Builds the menus into window's menu bar (after its docks: View lists them) and its toolbar.
    MainMenus(QMainWindow* window, const Parts& parts);

    // Checkable toggles of the session's highlights (C, E, G) and of the shift colouring (H).
    QAction* criticalPathAction() const { return criticalPath_; }
    QAction* exposedAction() const { return exposed_; }
    QAction* arrowsAction() const { return arrows_; }
    QAction* shiftAction() const { return shift_; }
    QAction* focusModeAction() const { return focusMode_; }
    // W/S/A/D/F: zoom, pan and fit the active pane.
    const QList<QAction*>& navigationActions() const { return navigation_; }
    RecentFiles* recent() const { return recent_; }
    // File > Open Job Summary...'s work (docs/Python.md): the summary in the Job summary tab, or the
    // one-line error (also in the message bar).
    QString openJobSummary(const QString& path);

    // Focus mode (F11): only the timeline, the docks and toolbar hidden; off restores the layout
    // exactly as it was. inFocusMode(): the state before it, to save instead of the bare timeline.
    bool inFocusMode() const { return !focusState_.isEmpty(); }
    const QByteArray& stateBeforeFocus() const { return focusState_; }
    void setFocusMode(bool on);
    // The open dialogs of File > Open Files / Open Folder (also the welcome page's buttons).
    void openFilesDialog();
    void openFolderDialog();
    // File > Save Session (asks where when the session has no file yet) and Save Session As: true
    // when the session was written, false when the user cancelled the dialog or the write failed.
    bool saveSession();
    bool saveSessionAs();
    // Help > Lessons (docs/Lessons.md): opens a lesson file in the Lesson dock at its first step; its
    // one-line error (also in the message bar) when the file is bad.
    QString openLesson(const QString& path);
    LessonPanel* lessonPanel() const { return lessonPanel_; }

signals:
    void saveViewRequested(QString path);
    void saveTimelineRequested(QString path);
    void saveChartRequested(QString path);
    void copyChartRequested();
    // N / Shift+N: the next or previous critical-path segment.
    void segmentRequested(bool forward);
    // View > Reset Layout (focus mode already left).
    void resetLayoutRequested();

private:
    void buildHighlightActions();
    void buildNavigationActions();
    void buildFileMenu();
    void buildViewMenu();
    void buildLessonsMenu(QMenu* help);
    void buildNotesMenu(QMenu* notes);
    void buildComparisonActions(QMenu* file);
    void buildExportFigureAction(QMenu* file);
    // A tab of the bottom row that needs room (comparison tables, a job summary): shown in front,
    // the row a third of the window high; hidden again with the row's height given back.
    void showBottomTab(QDockWidget* dock);
    void hideBottomTab(QDockWidget* dock);
    int bottomBefore_ = 0, bottomGrown_ = 0;
    int focusScrollY_ = 0; // the panes' scroll when focus mode began
    QAction* addKeyAction(const QString& name, const QString& text, const QList<QKeySequence>& keys);

    QMainWindow* window_;
    Parts p_;
    QAction* criticalPath_ = nullptr;
    QAction* exposed_ = nullptr;
    QAction* arrows_ = nullptr;
    QAction* shift_ = nullptr;
    QAction* comparisonPane_ = nullptr;
    QAction* focusMode_ = nullptr;
    QAction* keySheet_ = nullptr;
    QList<QAction*> navigation_;
    QByteArray focusState_;
    RecentFiles* recent_ = nullptr;
    LessonPanel* lessonPanel_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
};

} // namespace sl::ui
