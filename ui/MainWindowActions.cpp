// The main window's navigation: application-wide keys, the key sheet, revealing an event (find) and the
// context menus of events and track labels.
#include "FindBar.h"
#include "HighlightModel.h"
#include "MainWindow.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QGuiApplication>
#include <QMenu>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace sl::ui {

namespace {

// The rows of the key sheet: keys, then what they do.
constexpr const char* kKeys[][2] = {
    {"W / S", "zoom in / out (at the mouse when it is over a pane)"},
    {"A / D", "pan left / right"},
    {"F", "fit the selection (event, else range, else everything)"},
    {"Home", "fit everything"},
    {"Wheel", "zoom at the cursor; Shift+wheel scrolls the tracks"},
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
    {"F11", "focus mode: only the timeline (the panels hide; F11 again brings them back)"},
    {"? or F1", "this sheet"},
};

QString keySheetHtml() {
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

QString glossaryHtml() {
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

void MainWindow::showGlossary() {
    if (!glossary_) glossary_ = textWindow(this, QStringLiteral("glossary"), tr("Glossary"), glossaryHtml());
    glossary_->show();
    glossary_->raise();
}

void MainWindow::buildNavigationActions() {
    auto make = [this](const QString& name, const QString& text, const QList<QKeySequence>& keys, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcuts(keys);
        // Application-wide: the keys work whatever has focus (the track tree, a dock, a floating
        // dock), as in Perfetto. Text fields still get their letters: they claim the key first.
        a->setShortcutContext(Qt::ApplicationShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        navigationActions_.push_back(a);
        return a;
    };
    make(QStringLiteral("zoomInAction"), tr("Zoom &In"), {QKeySequence(Qt::Key_W)},
         [this] { panes_->activePane()->zoomStep(true); });
    make(QStringLiteral("zoomOutAction"), tr("Zoom &Out"), {QKeySequence(Qt::Key_S)},
         [this] { panes_->activePane()->zoomStep(false); });
    make(QStringLiteral("panLeftAction"), tr("Pan &Left"), {QKeySequence(Qt::Key_A)},
         [this] { panes_->activePane()->panStep(-1); });
    make(QStringLiteral("panRightAction"), tr("Pan &Right"), {QKeySequence(Qt::Key_D)},
         [this] { panes_->activePane()->panStep(1); });
    make(QStringLiteral("fitAction"), tr("&Fit Selection"), {QKeySequence(Qt::Key_F)},
         [this] { panes_->activePane()->fitSelection(); });
    keySheetAction_ =
        make(QStringLiteral("keySheetAction"), tr("&Keyboard and Mouse"),
             // X11 reports "?" as Shift+? on layouts where it needs Shift; others as a plain "?".
             {QKeySequence(Qt::Key_Question), QKeySequence(Qt::SHIFT | Qt::Key_Question),
              QKeySequence(Qt::Key_F1)},
             [this] { showKeySheet(); });
    navigationActions_.removeAll(keySheetAction_);
}

void MainWindow::showKeySheet() {
    // A tool window, not a modal box: it can stay open beside the timeline while the keys work.
    if (!keySheet_)
        keySheet_ = textWindow(this, QStringLiteral("keySheet"), tr("Keyboard and mouse"), keySheetHtml());
    keySheet_->show();
    keySheet_->raise();
}

void MainWindow::revealEvent(EventId e) {
    if (!e.valid() || !measured_ || !set_ || !tracks_->matches(*set_)) return;
    const auto r = static_cast<std::size_t>(e.rank);
    const std::size_t k = e.ref.track;
    if (r >= set_->ranks.size() || k >= set_->ranks[r].tracks.size()) return;
    const TrackTimeline& t = measured_->track(r, k);
    const int depth = t.track->events.depth[e.ref.index];
    // The event's row must exist before anything can scroll to it: show the track, open its rank
    // (unless the track is pinned at the top) and its nested rows. One change signal, one relayout.
    bool changed = false;
    {
        const QSignalBlocker block(tracks_);
        if (tracks_->trackHidden(r, k)) tracks_->setTrackHidden(r, k, false), changed = true;
        if (!tracks_->trackPinned(r, k) && !tracks_->rankExpanded(r))
            tracks_->setRankExpanded(r, true), changed = true;
        if (depth > 0 && !tracks_->trackNested(r, k)) tracks_->setTrackNested(r, k, true), changed = true;
    }
    if (changed) emit tracks_->changed();
    selection_->setEvent(e);

    const TimeNs s = t.start[e.ref.index];
    const TimeNs d = t.duration[e.ref.index];
    const TimeNs w = controller_->windowDuration();
    if (d * 10 > w * 8) controller_->fitRange(s, s + d);
    // Re-centred unless it is well inside: an event at the very edge of the window is easy to miss.
    else if (s < controller_->windowStart() + w / 20 || s + d > controller_->windowEnd() - w / 20)
        controller_->setWindow(s + d / 2 - w / 2, s + d / 2 - w / 2 + w);

    const RowLayout& layout = panes_->measured()->layout();
    const int row = layout.rowOf(e.rank, static_cast<int>(k));
    if (row >= 0) {
        const Row& rw = layout.rows()[static_cast<std::size_t>(row)];
        const int y = rw.y + RowLayout::laneY(std::min(depth, std::max(0, rw.lanes - 1)));
        const int h = panes_->measured()->height();
        // Pinned rows sit at the top of the content; anything else is scrolled to a third of the pane.
        if (y < controller_->scrollY() || y + RowLayout::kLaneHeight > controller_->scrollY() + h - 24)
            controller_->setScrollY(std::max(0, y - h / 3));
    }
    // The track tree follows: its row current and in view.
    const auto& order = tracks_->order(r);
    const auto pos = std::find(order.begin(), order.end(), k) - order.begin();
    const QModelIndex index = trackModel_->index(static_cast<int>(pos), 0, trackModel_->index(e.rank, 0));
    if (index.isValid()) {
        trackTree_->setCurrentIndex(index);
        trackTree_->scrollTo(index);
    }
}

QMenu* MainWindow::eventMenu(EventId e, bool simulatedPane, QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("eventMenu"));
    auto add = [menu](const QString& name, const QString& text, auto slot) {
        QAction* a = menu->addAction(text);
        a->setObjectName(name);
        QObject::connect(a, &QAction::triggered, menu, slot);
        return a;
    };
    const std::shared_ptr<const TimelineData> pane =
        simulatedPane ? panes_->simulated()->data() : panes_->measured()->data();
    const bool valid = e.valid() && set_ && pane && &pane->set() == set_.get() &&
                       static_cast<std::size_t>(e.rank) < set_->ranks.size() &&
                       e.ref.track < set_->ranks[static_cast<std::size_t>(e.rank)].tracks.size();
    if (valid) {
        const auto r = static_cast<std::size_t>(e.rank);
        const std::size_t k = e.ref.track;
        const std::string_view raw = set_->ranks[r].name(e.ref);
        const QString name = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
        QString title = name;
        if (title.size() > 60) title = title.left(57) + QStringLiteral("...");
        menu->addSection(title);
        add(QStringLiteral("findSimilar"), tr("&Find All Named Like This"), [this, name, e] {
            selection_->setEvent(e);
            findBar_->findName(name, e);
        });
        add(QStringLiteral("zoomToEvent"), tr("&Zoom to Event"), [this, e, pane] {
            selection_->setEvent(e);
            const TrackTimeline& t = pane->track(static_cast<std::size_t>(e.rank), e.ref.track);
            if (t.start[e.ref.index] >= 0) controller_->fitRange(t.start[e.ref.index], t.end(e.ref.index));
        });
        add(QStringLiteral("rangeOfEvent"), tr("Select Its Time &Range"), [this, e, pane] {
            const TrackTimeline& t = pane->track(static_cast<std::size_t>(e.rank), e.ref.track);
            if (t.start[e.ref.index] >= 0) selection_->setRange(t.start[e.ref.index], t.end(e.ref.index));
        });
        add(QStringLiteral("copyName"), tr("&Copy Name"),
            [name] { QGuiApplication::clipboard()->setText(name); });
        menu->addSeparator();
        const bool pinned = tracks_->matches(*set_) && tracks_->trackPinned(r, k);
        add(QStringLiteral("pinTrack"), pinned ? tr("Unpin Its Track") : tr("&Pin Its Track to the Top"),
            [this, r, k, pinned] {
                if (tracks_->rankCount() > r) tracks_->setTrackPinned(r, k, !pinned);
            });
        add(QStringLiteral("hideTrack"), tr("&Hide Its Track"), [this, r, k] {
            if (tracks_->rankCount() > r) tracks_->setTrackHidden(r, k, true);
        });
        menu->addSeparator();
        // The critical path toggle itself (checked when shown), with its key.
        menu->addAction(criticalPathAction_);
        menu->addAction(arrowsAction_);
    }
    if (selection_->hasRange())
        add(QStringLiteral("clearRange"), tr("Clear Time Range"), [this] { selection_->clearRange(); });
    add(QStringLiteral("fitAll"), tr("Fit &All"), [this] { controller_->fitAll(); });
    return menu;
}

QMenu* MainWindow::trackMenu(int rank, int track, QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("trackMenu"));
    if (!set_ || !tracks_->matches(*set_) || rank < 0 || static_cast<std::size_t>(rank) >= set_->ranks.size())
        return menu;
    const auto r = static_cast<std::size_t>(rank);
    const Rank& rk = set_->ranks[r];
    auto add = [menu](const QString& name, const QString& text, auto slot) {
        QAction* a = menu->addAction(text);
        a->setObjectName(name);
        QObject::connect(a, &QAction::triggered, menu, slot);
        return a;
    };
    // Many changes, one change signal (sent once the blocker is gone: a blocked emit is lost).
    auto collapseOthers = [this, r] {
        {
            const QSignalBlocker block(tracks_);
            for (std::size_t o = 0; o < tracks_->rankCount(); ++o)
                tracks_->setRankExpanded(o, o == r);
        }
        emit tracks_->changed();
    };
    if (track >= 0 && static_cast<std::size_t>(track) < rk.tracks.size()) {
        const auto k = static_cast<std::size_t>(track);
        menu->addSection(
            QStringLiteral("%1 (rank %2)").arg(QString::fromStdString(rk.tracks[k].name)).arg(rk.rank));
        const bool pinned = tracks_->trackPinned(r, k);
        add(QStringLiteral("pinTrack"), pinned ? tr("Unpin") : tr("&Pin to Top"),
            [this, r, k, pinned] { tracks_->setTrackPinned(r, k, !pinned); });
        const bool hidden = tracks_->trackHidden(r, k);
        add(QStringLiteral("hideTrack"), hidden ? tr("&Show") : tr("&Hide"),
            [this, r, k, hidden] { tracks_->setTrackHidden(r, k, !hidden); });
        if (rk.tracks[k].maxDepth > 0) {
            const bool nested = tracks_->trackNested(r, k);
            add(QStringLiteral("nestTrack"), nested ? tr("Fold Nested Rows") : tr("Show &Nested Rows"),
                [this, r, k, nested] { tracks_->setTrackNested(r, k, !nested); });
        }
        menu->addSeparator();
        const auto& order = tracks_->order(r);
        const int pos = static_cast<int>(std::find(order.begin(), order.end(), k) - order.begin());
        const int last = static_cast<int>(order.size()) - 1;
        add(QStringLiteral("moveUp"), tr("Move &Up"), [this, rank, pos] {
            trackModel_->moveTrack(rank, pos, pos - 1);
        })->setEnabled(pos > 0);
        add(QStringLiteral("moveDown"), tr("Move &Down"), [this, rank, pos] {
            trackModel_->moveTrack(rank, pos, pos + 1);
        })->setEnabled(pos < last);
        add(QStringLiteral("moveTop"), tr("Move to &Top of Rank"), [this, rank, pos] {
            trackModel_->moveTrack(rank, pos, 0);
        })->setEnabled(pos > 0);
        menu->addSeparator();
        add(QStringLiteral("collapseRank"), tr("&Collapse Rank %1").arg(rk.rank), [this, r] {
            tracks_->setRankExpanded(r, false);
        })->setEnabled(tracks_->rankExpanded(r));
    } else {
        menu->addSection(tr("Rank %1").arg(rk.rank));
        const bool expanded = tracks_->rankExpanded(r);
        add(QStringLiteral("collapseRank"), expanded ? tr("&Collapse Rank") : tr("&Expand Rank"),
            [this, r, expanded] { tracks_->setRankExpanded(r, !expanded); });
        std::size_t hidden = 0;
        for (std::size_t k = 0; k < rk.tracks.size(); ++k)
            hidden += tracks_->trackHidden(r, k) && rk.tracks[k].events.size() > 0 ? 1 : 0;
        add(QStringLiteral("showHidden"), tr("Show %n Hidden Track(s)", nullptr, static_cast<int>(hidden)),
            [this, r] {
                {
                    const QSignalBlocker block(tracks_);
                    for (std::size_t k = 0; k < set_->ranks[r].tracks.size(); ++k)
                        if (set_->ranks[r].tracks[k].events.size() > 0) tracks_->setTrackHidden(r, k, false);
                }
                emit tracks_->changed();
            })
            ->setEnabled(hidden > 0);
    }
    add(QStringLiteral("collapseOthers"), tr("Collapse &Other Ranks"), collapseOthers);
    add(QStringLiteral("expandAll"), tr("E&xpand All Ranks"), [this] { tracks_->setAllRanksExpanded(true); });
    return menu;
}

} // namespace sl::ui
