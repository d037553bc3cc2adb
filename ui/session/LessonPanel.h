#pragma once
// The guided-lesson panel (Help > Lessons, docs/Lessons.md): the lesson's title, "Step 2 of 5" with
// a progress bar, the step's text, its question with the answer on demand, Back, Next and End. Each
// step opens the lesson's trace when another is shown, sets the step's knobs (every other knob at its
// replay default), the highlights and the zoom. The lesson runs in a sandbox: the user's session is
// put aside when it starts and comes back when it ends.
#include "Lesson.h"
#include "Selection.h"

#include "trace/TraceSet.h"

#include <QWidget>

#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace sl::ui {

class SessionController;

// The event a lesson step points at ("select": the nth event by start of a rank whose name contains
// a text), or an invalid EventId.
EventId findLessonEvent(const TraceSet& set, const LessonStep& step);

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(SessionController* session, QWidget* parent = nullptr);
    // Reads a lesson file and starts it at its first step; the file's one-line error otherwise
    // (the lesson shown, if any, stays).
    QString open(const QString& path);
    void start(Lesson lesson);
    const Lesson& lesson() const { return lesson_; }
    int step() const { return step_; }
    int stepCount() const { return static_cast<int>(lesson_.steps.size()); }
    QString progressText() const;
    // Whether the step's trace, knobs and view are in place (false while its trace loads).
    bool applied() const { return pending_ < 0; }
    // Ends the lesson: the user's session comes back (SessionController::endSandbox). Also what the
    // "End lesson" button and closing the dock set by endOnClose() do.
    void end();
    void endOnClose(QWidget* dock);
    QPushButton* endButton() const { return end_; }
    QPushButton* backButton() const { return back_; }
    QPushButton* nextButton() const { return next_; }
    QString text() const; // the step as shown (title, text, question), for tests

public slots:
    void goTo(int step);
    void next() { goTo(step_ + 1); }
    void back() { goTo(step_ - 1); }

signals:
    void stepApplied(int step);
    // A step's "select" names no event of the trace (one line: file, step, what).
    void missingEvent(QString line);
    // The step's focus and the event it names, for the navigator to bring into view (the
    // panel selects the event itself; the view moves only where someone listens). keepTime: the
    // step sets its own time range, so only the rows move.
    void focusRequested(const std::vector<int>& ranks, bool cpu, bool gpu);
    void eventPointed(EventId e, bool keepTime);
    void ended();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyNow(int step);
    void refresh();

    SessionController* session_;
    Lesson lesson_;
    int step_ = -1;
    int pending_ = -1; // the step waiting for its trace to load
    QLabel* title_;
    QLabel* progress_;
    QProgressBar* bar_;
    QTextBrowser* body_;
    QPushButton* reveal_;
    bool answerShown_ = false; // the learner asked for this step's answer
    QPushButton* back_;
    QPushButton* next_;
    QPushButton* end_;
    QWidget* dock_ = nullptr;
};

} // namespace sl::ui
