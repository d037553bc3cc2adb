#pragma once
// Guided lessons (docs/Lessons.md): a short sequence of steps on a bundled sample (or a trace beside
// the lesson file), each setting knobs and highlights, zooming to a time range, explaining what to
// look at and asking the learner a question. Lessons are JSON files: the bundled ones in
// resources/lessons/, any other opened from disk. A bad file gives one line, never a crash.
#include "sim/Knobs.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace sl::ui {

struct LessonStep {
    QString title;
    QString text;         // what to look at and why (plain text; blank lines separate paragraphs)
    QString question;     // optional: asked at the end of the step
    QString answer;       // optional: shown on demand
    SimKnobs knobs;       // the knobs of this step (every other knob at its replay default)
    QStringList knobText; // "compute.speedup = 2", for the panel
    bool criticalPath = false;
    bool exposed = false;
    double fromMs = -1, toMs = -1; // zoom, relative to the trace's start; -1: the whole trace
    // The event the step points at (selected in both panes, its details shown): the nth event
    // (1-based, by start) of rank `selectRank` whose name contains `selectName`; empty: none.
    QString selectName;
    int selectRank = 0;
    int selectNth = 1;
    // The ranks the step talks about (`focus`): expanded, the first scrolled to the top of both
    // panes, with their CPU threads (nested ops shown) and/or GPU streams open; empty: the view's.
    std::vector<int> focusRanks;
    bool focusCpu = false;
    bool focusGpu = true;
};

struct Lesson {
    QString path; // the lesson file
    QString title;
    QString summary;
    QString trace; // absolute path of the trace file or folder the lesson opens
    std::vector<LessonStep> steps;
};

// Reads and checks a lesson file: its JSON, every field's type, every knob (as the knob panel would
// set it), the trace it names. Returns an empty string on success, else one line "PATH: what is
// wrong" (the step and field named: "lesson.json: step 3: knobs: unknown knob 'foo'").
QString readLessonFile(const QString& path, Lesson& out);

// The folder of the bundled lessons: next to the installed program, else the source tree's
// resources/lessons; empty when neither exists.
QString lessonsDir();
// The bundled lesson files, in name order.
QStringList bundledLessons();

} // namespace sl::ui
