#include "HelpSheets.h"

#include <QDialog>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sl::ui {

namespace {

// The rows of the key sheet: keys, then what they do.
constexpr const char* kKeys[][2] = {
    {"W / S", "zoom in / out (at the mouse when it is over a pane)"},
    {"A / D", "pan left / right"},
    {"F", "fit the selection (event, else range, else everything)"},
    {"Home", "fit everything"},
    {"Wheel", "scroll the tracks; Shift+wheel pans; Ctrl+wheel zooms at the cursor"},
    {"Drag", "pan (and scroll)"},
    {"Shift+drag, right-drag", "select a time range: statistics per name, both panes"},
    {"Click", "select an event (in both panes); double-click zooms to it"},
    {"Right-click", "menu of an event (find similar, zoom to, copy name, pin its track) or of a track "
                    "label (pin, hide, move, collapse the rank)"},
    {"Click a track label", "collapse or expand (a rank, or a thread's nested rows)"},
    {"Ctrl+F", "find events by name; Enter / Shift+Enter (F3 / Shift+F3) next / previous"},
    {"Esc", "clear the selection (in a pane), close the find bar (in it)"},
    {"C", "critical path on / off (other events dimmed)"},
    {"E", "exposed communication on / off"},
    {"G", "dependency arrows of the selection on / off"},
    {"N / Shift+N", "next / previous stretch of the critical path"},
    {"Ctrl+Shift+N", "add a note at the selected event or range (Notes menu: arrows, edit, delete)"},
    {"Ctrl+1 ... Ctrl+9", "remember the visible time window as bookmark 1 ... 9"},
    {"1 ... 9", "go back to bookmark 1 ... 9"},
    {"Ctrl+Shift+S", "export a figure (timeline, chart or window; PNG, SVG or PDF by the file's name)"},
    {"F11", "focus mode: only the timeline (the panels hide; F11 again brings them back)"},
    {"? or F1", "this sheet"},
};

QString keySheetHtmlText() {
    QString html = QStringLiteral("<p>Single keys work wherever the focus is, except while typing in a text "
                                  "field.</p><table cellspacing='0' cellpadding='3'>");
    for (const auto& row : kKeys)
        html +=
            QStringLiteral("<tr><td style='padding-right:14px'><b>%1</b></td><td>%2</td></tr>")
                .arg(QString::fromUtf8(row[0]).toHtmlEscaped(), QString::fromUtf8(row[1]).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

// The glossary: the words of the panes, the charts and the knobs, for someone new to distributed
// training (definitions as the analyses compute them).
constexpr const char* kGlossary[][2] = {
    {"Rank", "One process of the training job, usually one GPU. Each rank's trace has CPU threads (Python, "
             "the autograd engine) and GPU streams (queues of kernels)."},
    {"Iteration", "One training step (ProfilerStep#N): from a rank's first to its last modelled CPU or GPU "
                  "event. The job's iteration time is that of its slowest rank."},
    {"Measured / simulated",
     "The top pane shows the trace as recorded; the bottom pane shows the simulator's "
     "replay of the same work with the knobs applied. With every knob at its default "
     "the two should agree (the replay error says how closely)."},
    {"Collective", "An operation all ranks of a group take part in (all-reduce, all-gather, reduce-scatter, "
                   "...), run by NCCL kernels. It cannot finish before the last rank arrives."},
    {"Collective wait", "The part of a collective spent waiting for the last participant to arrive, before "
                        "any data moves. Large waits on all ranks but one point at a straggler."},
    {"Critical path",
     "The chain of events, across ranks and through collectives, that sets the iteration "
     "time: making anything else faster does not shorten the step. Segments are labelled GPU "
     "compute, GPU comm, collective wait, CPU, launch latency, sync or idle (key C)."},
    {"Exposed communication", "Communication time not overlapped by any compute kernel on the same GPU: the "
                              "part of communication the step pays for in full (key E, hatched)."},
    {"Overlap", "The share of communication time hidden behind computation: overlapped communication / all "
                "communication. 100% means the network costs nothing extra."},
    {"Straggler", "A rank slower than the others (a throttled GPU, a busy host). In data-parallel training "
                  "every collective waits for it, so the whole job runs at its pace."},
    {"Launch latency", "The time from the CPU's kernel launch call to the kernel's start on an idle GPU. "
                       "When the CPU cannot launch fast enough, the GPU idles between kernels."},
    {"Sync", "A CPU call that waits for the GPU (cudaDeviceSynchronize, a blocking copy, .item()): the CPU "
             "stops launching until the GPU catches up."},
    {"Idle", "GPU time with no kernel running inside the iteration."},
    {"Knobs", "What-if settings: compute.speedup (faster kernels), comm.speedup (faster network), "
              "cpu.speedup (faster host), launch latency, overlap on or off, a straggler, dp.scale (more "
              "data-parallel ranks). Each label's tooltip says what it models and a typical value."},
};

QString glossaryHtmlText() {
    QString html = QStringLiteral("<dl>");
    for (const auto& entry : kGlossary)
        html += QStringLiteral("<dt><b>%1</b></dt><dd style='margin-bottom:8px'>%2</dd>")
                    .arg(QString::fromUtf8(entry[0]).toHtmlEscaped(),
                         QString::fromUtf8(entry[1]).toHtmlEscaped());
    return html + QStringLiteral("</dl>");
}

// A non-modal tool window with one text.
QWidget* textWindow(QWidget* parent, const QString& name, const QString& title, const QString& html) {
    auto* dialog = new QDialog(parent, Qt::Tool);
    dialog->setObjectName(name);
    dialog->setWindowTitle(title);
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(name + QStringLiteral("Text"));
    text->setHtml(html);
    text->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(620, 470);
    return dialog;
}

} // namespace

HelpSheets::HelpSheets(QWidget* parent) : QObject(parent), parent_(parent) {
    setObjectName(QStringLiteral("helpSheets"));
}

QString HelpSheets::keySheetHtml() {
    return keySheetHtmlText();
}

QString HelpSheets::glossaryHtml() {
    return glossaryHtmlText();
}

void HelpSheets::showKeySheet() {
    // A tool window, not a modal box: it can stay open beside the timeline while the keys work.
    if (!keySheet_)
        keySheet_ = textWindow(parent_, QStringLiteral("keySheet"), tr("Keyboard and mouse"), keySheetHtml());
    keySheet_->show();
    keySheet_->raise();
}

void HelpSheets::showGlossary() {
    if (!glossary_)
        glossary_ = textWindow(parent_, QStringLiteral("glossary"), tr("Glossary"), glossaryHtml());
    glossary_->show();
    glossary_->raise();
}

} // namespace sl::ui
