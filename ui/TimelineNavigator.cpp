// The timeline's navigation: revealing an event and the context menus of events and track labels.
#include "TimelineNavigator.h"

#include "FindBar.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimAnalysis.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QTreeView>

#include <algorithm>
#include <map>

namespace sl::ui {

TimelineNavigator::TimelineNavigator(const Parts& parts, QWidget* window)
    : QObject(window), p_(parts), window_(window), tracks_(parts.session->tracks()),
      selection_(parts.session->selection()), controller_(parts.session->view()) {
    setObjectName(QStringLiteral("navigator"));
    auto popup = [](QMenu* menu, QPoint at) {
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(at);
    };
    for (TimelineView* pane : {p_.panes->measured(), p_.panes->simulated()}) {
        const bool simulated = pane == p_.panes->simulated();
        connect(pane, &TimelineView::eventMenuRequested, this,
                [this, simulated, popup](EventId e, QPoint at) {
                    if (e.valid()) selection_->setEvent(e);
                    popup(eventMenu(e, simulated, window_), at);
                });
        connect(pane, &TimelineView::trackMenuRequested, this, [this, popup](int rank, int track, QPoint at) {
            popup(trackMenu(rank, track, window_), at);
        });
    }
    p_.trackTree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(p_.trackTree, &QWidget::customContextMenuRequested, this, [this, popup](const QPoint& pos) {
        const auto [r, t] = p_.trackModel->location(p_.trackTree->indexAt(pos));
        if (r >= 0) popup(trackMenu(r, t, window_), p_.trackTree->viewport()->mapToGlobal(pos));
    });
    connect(p_.findBar, &FindBar::found, this, &TimelineNavigator::revealEvent);
}

std::shared_ptr<const TraceSet> TimelineNavigator::set() const {
    return p_.session->traceSet();
}

std::shared_ptr<const TimelineData> TimelineNavigator::measured() const {
    return p_.session->measured();
}

void TimelineNavigator::revealCriticalPath() {
    const SimOutput& out = p_.session->simulation();
    if (!out.analysis || !out.graph || !set() || out.graph->trace != set().get()) return;
    const ExecutionGraph& g = *out.graph;
    const std::vector<PathSegment>& segments = out.analysis->path.segments;
    // By loaded rank: an added rank's time counts for the rank it copies (the one drawn).
    std::map<std::uint32_t, TimeNs> byRank;
    for (const PathSegment& s : segments)
        if (s.node < g.nodes.size()) byRank[g.nodes[s.node].rank] += s.end - s.start;
    if (byRank.empty()) return;
    const std::uint32_t rank =
        std::max_element(byRank.begin(), byRank.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->first;
    const PathSegment* longest = nullptr;
    for (const PathSegment& s : segments)
        if (s.node < g.nodes.size() && g.nodes[s.node].rank == rank && s.label != PathLabel::LateStart &&
            (!longest || s.end - s.start > longest->end - longest->start))
            longest = &s;
    if (!longest) return;
    const EventId e{static_cast<int>(rank), g.nodes[longest->node].event};
    p_.session->document()->navigate([&] { revealEvent(e); });
}

void TimelineNavigator::revealEvent(EventId e) {
    reveal(e, true);
}

void TimelineNavigator::revealEventRow(EventId e) {
    reveal(e, false);
}

void TimelineNavigator::reveal(EventId e, bool centreInTime) {
    if (!e.valid() || !measured() || !set() || !tracks_->matches(*set())) return;
    const auto r = static_cast<std::size_t>(e.rank);
    const std::size_t k = e.ref.track;
    if (r >= set()->ranks.size() || k >= set()->ranks[r].tracks.size()) return;
    const TrackTimeline& t = measured()->track(r, k);
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

    if (centreInTime) {
        const TimeNs s = t.start[e.ref.index];
        const TimeNs d = t.duration[e.ref.index];
        const TimeNs w = controller_->windowDuration();
        if (d * 10 > w * 8) controller_->fitRange(s, s + d);
        // Re-centred unless it is well inside: an event at the very edge of the window is easy to miss.
        else if (s < controller_->windowStart() + w / 20 || s + d > controller_->windowEnd() - w / 20)
            controller_->setWindow(s + d / 2 - w / 2, s + d / 2 - w / 2 + w);
    }

    const RowLayout& layout = p_.panes->measured()->layout();
    const int row = layout.rowOf(e.rank, static_cast<int>(k));
    if (row >= 0) {
        const Row& rw = layout.rows()[static_cast<std::size_t>(row)];
        const int y = rw.y + RowLayout::laneY(std::min(depth, std::max(0, rw.lanes - 1)));
        const int h = p_.panes->measured()->height();
        // Pinned rows sit at the top of the content; anything else is scrolled to a third of the
        // pane, or to its rank's header when the event then stays well in view (the rank's name on
        // screen, not an unlabelled row in the middle of its call stack).
        if (y < controller_->scrollY() || y + RowLayout::kLaneHeight > controller_->scrollY() + h - 24) {
            const int header = layout.headerY(e.rank);
            const bool headerFits = header >= 0 && y - header < h * 2 / 3;
            controller_->setScrollY(std::max(0, headerFits ? header : y - h / 3));
        }
    }
    // The track tree follows: its row current and in view.
    const auto& order = tracks_->order(r);
    const auto pos = std::find(order.begin(), order.end(), k) - order.begin();
    const QModelIndex index = p_.trackModel->index(static_cast<int>(pos), 0, p_.trackModel->index(e.rank, 0));
    if (index.isValid()) {
        p_.trackTree->setCurrentIndex(index);
        p_.trackTree->scrollTo(index);
    }
}

void TimelineNavigator::focusRanks(const std::vector<int>& ranks, bool cpu, bool gpu) {
    if (ranks.empty() || !set() || !tracks_->matches(*set())) return;
    {
        const QSignalBlocker block(tracks_);
        for (const int rank : ranks) {
            if (rank < 0 || static_cast<std::size_t>(rank) >= set()->ranks.size()) continue;
            const auto r = static_cast<std::size_t>(rank);
            tracks_->setRankExpanded(r, true);
            const auto& tracks = set()->ranks[r].tracks;
            for (std::size_t k = 0; k < tracks.size(); ++k) {
                const bool wanted = tracks[k].isGpu() ? gpu : cpu;
                if (!wanted) continue;
                tracks_->setTrackHidden(r, k, false);
                // A CPU thread's calls are nested: the launches a lesson talks about sit below the
                // Python and module rows. (A GPU stream's nested row holds only the 1 us ticks of
                // stream waits: it stays folded.)
                if (!tracks[k].isGpu() && tracks[k].maxDepth > 0) tracks_->setTrackNested(r, k, true);
            }
        }
    }
    emit tracks_->changed();
    // The first rank's header at the top of both panes (they share the vertical scroll).
    if (const int header = p_.panes->measured()->layout().headerY(ranks.front()); header >= 0)
        controller_->setScrollY(header);
}

QMenu* TimelineNavigator::eventMenu(EventId e, bool simulatedPane, QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("eventMenu"));
    auto add = [menu](const QString& name, const QString& text, auto slot) {
        QAction* a = menu->addAction(text);
        a->setObjectName(name);
        QObject::connect(a, &QAction::triggered, menu, slot);
        return a;
    };
    const std::shared_ptr<const TimelineData> pane =
        simulatedPane ? p_.panes->simulated()->data() : p_.panes->measured()->data();
    const bool valid = e.valid() && set() && pane && &pane->set() == set().get() &&
                       static_cast<std::size_t>(e.rank) < set()->ranks.size() &&
                       e.ref.track < set()->ranks[static_cast<std::size_t>(e.rank)].tracks.size();
    if (valid) {
        const auto r = static_cast<std::size_t>(e.rank);
        const std::size_t k = e.ref.track;
        const std::string_view raw = set()->ranks[r].name(e.ref);
        const QString name = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
        QString title = name;
        if (title.size() > 60) title = title.left(57) + QStringLiteral("...");
        menu->addSection(title);
        add(QStringLiteral("findSimilar"), tr("&Find All Named Like This"), [this, name, e] {
            selection_->setEvent(e);
            p_.findBar->findName(name, e);
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
        const bool pinned = tracks_->matches(*set()) && tracks_->trackPinned(r, k);
        add(QStringLiteral("pinTrack"), pinned ? tr("Unpin Its Track") : tr("&Pin Its Track to the Top"),
            [this, r, k, pinned] {
                if (tracks_->rankCount() > r) tracks_->setTrackPinned(r, k, !pinned);
            });
        add(QStringLiteral("hideTrack"), tr("&Hide Its Track"), [this, r, k] {
            if (tracks_->rankCount() > r) tracks_->setTrackHidden(r, k, true);
        });
        menu->addSeparator();
        // The critical path toggle itself (checked when shown), with its key.
        menu->addAction(p_.criticalPath);
        menu->addAction(p_.arrows);
    }
    if (selection_->hasRange())
        add(QStringLiteral("clearRange"), tr("Clear Time Range"), [this] { selection_->clearRange(); });
    add(QStringLiteral("fitAll"), tr("Fit &All"), [this] { controller_->fitAll(); });
    return menu;
}

QMenu* TimelineNavigator::trackMenu(int rank, int track, QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("trackMenu"));
    if (!set() || !tracks_->matches(*set()) || rank < 0 ||
        static_cast<std::size_t>(rank) >= set()->ranks.size())
        return menu;
    const auto r = static_cast<std::size_t>(rank);
    const Rank& rk = set()->ranks[r];
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
            p_.trackModel->moveTrack(rank, pos, pos - 1);
        })->setEnabled(pos > 0);
        add(QStringLiteral("moveDown"), tr("Move &Down"), [this, rank, pos] {
            p_.trackModel->moveTrack(rank, pos, pos + 1);
        })->setEnabled(pos < last);
        add(QStringLiteral("moveTop"), tr("Move to &Top of Rank"), [this, rank, pos] {
            p_.trackModel->moveTrack(rank, pos, 0);
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
            hidden += tracks_->trackHidden(r, k) && rk.tracks[k].events.size() > 0 ? 1U : 0U;
        add(QStringLiteral("showHidden"), tr("Show %n Hidden Track(s)", nullptr, static_cast<int>(hidden)),
            [this, r] {
                {
                    const QSignalBlocker block(tracks_);
                    for (std::size_t k = 0; k < set()->ranks[r].tracks.size(); ++k)
                        if (set()->ranks[r].tracks[k].events.size() > 0) tracks_->setTrackHidden(r, k, false);
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
