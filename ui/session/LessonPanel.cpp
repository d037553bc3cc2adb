#include "LessonPanel.h"

#include "HighlightModel.h"
#include "KnobPanel.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "Selection.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "ViewController.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
QString canonical(const QString& path) {
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : c;
}
} // namespace

LessonPanel::LessonPanel(SessionController* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("lessonPanel"));
    auto* layout = new QVBoxLayout(this);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    QFont big = title_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    title_->setFont(big);
    progress_ = new QLabel(this);
    bar_ = new QProgressBar(this);
    bar_->setTextVisible(false);
    bar_->setMaximumHeight(8);
    body_ = new QTextBrowser(this);
    body_->setOpenExternalLinks(false);
    // The text, the question and (on demand) the answer in one scrolling document: word-wrapped
    // labels under a text box were squeezed over it when the dock was short.
    body_->setMinimumHeight(160);
    reveal_ = new QPushButton(tr("Show answer"), this);
    reveal_->setObjectName(QStringLiteral("lessonShowAnswer"));
    back_ = new QPushButton(tr("< Back"), this);
    back_->setObjectName(QStringLiteral("lessonBack"));
    next_ = new QPushButton(tr("Next >"), this);
    next_->setObjectName(QStringLiteral("lessonNext"));
    end_ = new QPushButton(tr("End lesson"), this);
    end_->setObjectName(QStringLiteral("lessonEnd"));
    end_->setToolTip(tr("Back to your own session: its scenarios, knobs, traces and view"));
    // Two rows of two: four buttons in a row made the dock, and with it the window, wider than a
    // 1280 px screen (Next and End lesson off screen).
    auto* buttons = new QGridLayout;
    buttons->addWidget(back_, 0, 0);
    buttons->addWidget(next_, 0, 1);
    layout->addWidget(title_);
    layout->addWidget(progress_);
    layout->addWidget(bar_);
    layout->addWidget(body_, 1);
    buttons->addWidget(reveal_, 1, 0);
    buttons->addWidget(end_, 1, 1);
    layout->addLayout(buttons);
    connect(end_, &QPushButton::clicked, this, [this] {
        end();
        if (dock_) dock_->close();
    });
    connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
    connect(reveal_, &QPushButton::clicked, this, [this] {
        answerShown_ = true;
        refresh();
    });
    // A step that opened its trace is applied once the trace is shown.
    connect(session_, &SessionController::shown, this, [this](const QStringList&) {
        if (pending_ >= 0) applyNow(pending_);
    });
    refresh();
}

EventId findLessonEvent(const TraceSet& set, const LessonStep& step) {
    // The rank by its id (Rank::rank), the events whose name contains the text, ordered by start.
    const std::string needle = step.selectName.toStdString();
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        if (rank.rank != step.selectRank) continue;
        std::vector<std::pair<TimeNs, EventId>> found;
        for (std::uint32_t k = 0; k < rank.tracks.size(); ++k) {
            const EventColumns& ev = rank.tracks[k].events;
            for (std::uint32_t i = 0; i < ev.size(); ++i)
                if (rank.name({k, i}).find(needle) != std::string_view::npos)
                    found.push_back({ev.start[i], EventId{static_cast<int>(r), {k, i}}});
        }
        std::stable_sort(found.begin(), found.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        if (static_cast<std::size_t>(step.selectNth) <= found.size())
            return found[static_cast<std::size_t>(step.selectNth - 1)].second;
    }
    return {};
}

QString LessonPanel::open(const QString& path) {
    Lesson l;
    const QString error = readLessonFile(path, l);
    if (!error.isEmpty()) return error;
    start(std::move(l));
    return {};
}

void LessonPanel::start(Lesson lesson) {
    // The user's work is put aside for the lesson (kept as it is when one lesson follows another).
    session_->document()->beginSandbox();
    lesson_ = std::move(lesson);
    step_ = -1;
    pending_ = -1;
    goTo(0);
}

void LessonPanel::end() {
    if (step_ < 0) return;
    lesson_ = {};
    step_ = -1;
    pending_ = -1;
    refresh();
    session_->document()->endSandbox();
    emit ended();
}

void LessonPanel::endOnClose(QWidget* dock) {
    dock_ = dock;
    dock->installEventFilter(this);
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
    // Closing the dock (its close button) ends the lesson; hiding it (F11, tabs) does not.
    if (watched == dock_ && event->type() == QEvent::Close) end();
    return QWidget::eventFilter(watched, event);
}

QString LessonPanel::progressText() const {
    return stepCount() == 0 ? QString() : tr("Step %1 of %2").arg(step_ + 1).arg(stepCount());
}

void LessonPanel::goTo(int step) {
    if (step < 0 || step >= stepCount()) return;
    step_ = step;
    answerShown_ = false;
    refresh();
    const QStringList shown = session_->tracePaths();
    const bool open = shown.size() == 1 && canonical(shown.front()) == canonical(lesson_.trace);
    if (open) {
        applyNow(step);
    } else {
        pending_ = step;
        session_->openTraces({lesson_.trace});
    }
}

void LessonPanel::applyNow(int step) {
    pending_ = -1;
    if (step < 0 || step >= stepCount()) return;
    const LessonStep& s = lesson_.steps[static_cast<std::size_t>(step)];
    // A step at the replay shows the Baseline (not an earlier step's what-if reset to nothing and
    // named "What-if"); any other step edits the lesson's what-if.
    if (s.knobs.isReplay() && session_->scenarios())
        session_->scenarios()->list()->setCurrent(0);
    else
        session_->knobs()->setKnobs(s.knobs);
    session_->highlights()->setCriticalPath(s.criticalPath);
    session_->highlights()->setExposed(s.exposed);
    ViewController* view = session_->view();
    const bool ranged = s.fromMs >= 0 && session_->measured();
    if (ranged) {
        const TimeNs origin = session_->measured()->start();
        view->setWindow(origin + static_cast<TimeNs>(std::llround(s.fromMs * 1e6)),
                        origin + static_cast<TimeNs>(std::llround(s.toMs * 1e6)));
    } else {
        view->fitAll();
    }
    // What the text talks about, on screen: its ranks and tracks, then the event it names.
    if (!s.focusRanks.empty() && session_->traceSet()) {
        // Rank ids, as `select` names them; the navigator works with positions in the set.
        const std::vector<Rank>& ranks = session_->traceSet()->ranks;
        std::vector<int> shown;
        for (const int id : s.focusRanks) {
            const auto it =
                std::find_if(ranks.begin(), ranks.end(), [id](const Rank& r) { return r.rank == id; });
            if (it != ranks.end())
                shown.push_back(static_cast<int>(it - ranks.begin()));
            else
                emit missingEvent(tr("%1: step %2: focus: no rank %3 in the trace")
                                      .arg(lesson_.path)
                                      .arg(step + 1)
                                      .arg(id));
        }
        if (!shown.empty()) emit focusRequested(shown, s.focusCpu, s.focusGpu);
    }
    // The event the step points at: selected in both panes (the details show it).
    session_->selection()->clearEvent();
    if (!s.selectName.isEmpty() && session_->traceSet()) {
        const EventId e = findLessonEvent(*session_->traceSet(), s);
        if (e.valid()) {
            session_->selection()->setEvent(e);
            emit eventPointed(e, ranged);
        } else {
            emit missingEvent(tr("%1: step %2: no event \"%3\" number %4 on rank %5")
                                  .arg(lesson_.path)
                                  .arg(step + 1)
                                  .arg(s.selectName)
                                  .arg(s.selectNth)
                                  .arg(s.selectRank));
        }
    }
    emit stepApplied(step);
}

void LessonPanel::refresh() {
    const bool any = step_ >= 0 && step_ < stepCount();
    title_->setText(any ? lesson_.title : tr("No lesson open: Help > Lessons"));
    progress_->setText(progressText());
    bar_->setRange(0, std::max(1, stepCount()));
    bar_->setValue(any ? step_ + 1 : 0);
    end_->setEnabled(any);
    back_->setEnabled(any && step_ > 0);
    next_->setEnabled(any && step_ + 1 < stepCount());
    if (!any) {
        body_->clear();
        reveal_->hide();
        return;
    }
    const LessonStep& s = lesson_.steps[static_cast<std::size_t>(step_)];
    QString html;
    if (!s.title.isEmpty()) html += QStringLiteral("<h3>%1</h3>").arg(s.title.toHtmlEscaped());
    // The knobs first, small: the question follows the text directly, not below the fold.
    html += QStringLiteral("<p style='color:#6c757d'>%1</p>")
                .arg(s.knobText.isEmpty()
                         ? tr("Knobs: replay (every knob at its default)")
                         : tr("Knobs: %1").arg(s.knobText.join(QStringLiteral(", "))).toHtmlEscaped());
    for (const QString& para : s.text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(para.toHtmlEscaped());
    if (!s.question.isEmpty())
        html += QStringLiteral("<p style='color:#1c4fb0; font-weight:600'>%1</p>")
                    .arg(tr("Question: %1").arg(s.question).toHtmlEscaped());
    if (answerShown_ && !s.answer.isEmpty())
        html += QStringLiteral("<p><a name='answer'></a><i>%1</i></p>")
                    .arg(tr("Answer: %1").arg(s.answer).toHtmlEscaped());
    body_->setHtml(html);
    // The answer asked for is shown where the eye is: the text scrolls to it.
    if (answerShown_) body_->scrollToAnchor(QStringLiteral("answer"));
    reveal_->setVisible(!s.answer.isEmpty() && !answerShown_);
}

QString LessonPanel::text() const {
    return QStringList{title_->text(), progress_->text(), body_->toPlainText()}.join(QLatin1Char('\n'));
}

} // namespace sl::ui
