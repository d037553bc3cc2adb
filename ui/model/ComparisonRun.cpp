#include "ComparisonRun.h"

#include "DependencyLinks.h"
#include "TimeFormat.h"

#include "graph/ChakraGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "report/ComparisonReport.h"
#include "trace/EventClass.h"

#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

namespace sl::ui {

namespace {

std::vector<std::string> toStd(const QStringList& l) {
    std::vector<std::string> out;
    for (const auto& s : l)
        out.push_back(s.toStdString());
    return out;
}

// The earliest step start of a run (its ranks share one clock): the ProfilerStep's start, or
// without one (the whole trace is the window) the first event's.
TimeNs stepStart(const ExecutionGraph& g) {
    TimeNs t = std::numeric_limits<TimeNs>::max();
    for (const RankWindow& w : g.ranks)
        t = std::min(t,
                     w.windowStart == std::numeric_limits<TimeNs>::min() ? w.measuredStart : w.windowStart);
    return g.ranks.empty() ? 0 : t;
}

template <class T>
T& cell(std::vector<std::vector<std::vector<T>>>& v, const TraceSet& set, std::uint32_t rank, EventRef e,
        T fill) {
    if (v.empty()) {
        v.resize(set.ranks.size());
        for (std::size_t r = 0; r < set.ranks.size(); ++r)
            v[r].resize(set.ranks[r].tracks.size());
    }
    auto& track = v[rank][e.track];
    if (track.empty()) track.assign(set.ranks[rank].tracks[e.track].events.size(), fill);
    return track[e.index];
}

// The delta bins (and, given units, the unit of each op) of one run's events; open: the graph
// compared "before", whose units take their time from openTime (the measured time, or a
// prediction's).
void fill(const ExecutionGraph& g, const ComparisonRun& run, bool open, const std::vector<TimeNs>& openTime,
          EventDeltas& deltas, std::vector<std::vector<std::vector<std::int32_t>>>* units) {
    const TraceSet& set = *g.trace;
    deltas.set = &set;
    for (std::size_t i = 0; i < run.units.size(); ++i) {
        const AlignedUnit& u = run.alignedUnit(i);
        const TimeNs mine = open ? openTime[i] : u.afterTime, other = open ? u.afterTime : openTime[i];
        const auto bin = static_cast<std::int8_t>(deltaBin(mine, other, run.samePct));
        for (NodeId n : open ? u.before : u.after) {
            const GraphNode& node = g.nodes[n];
            cell(deltas.bins, set, node.rank, node.event, kNotCompared) = bin;
            if (units)
                cell(*units, set, node.rank, node.event, std::int32_t{-1}) = static_cast<std::int32_t>(i);
        }
    }
    // GPU ops of the step with no aligned op in the other run.
    for (const auto& nodes : gpuOpNodesByRank(g))
        for (NodeId n : nodes) {
            const GraphNode& node = g.nodes[n];
            std::int8_t& b = cell(deltas.bins, set, node.rank, node.event, kNotCompared);
            if (b == kNotCompared) b = static_cast<std::int8_t>(kDeltaUnmatched);
        }
}

} // namespace

RowMapping mapRows(std::shared_ptr<const TraceSet> from, const TraceSet& to, const RunComparison& cmp) {
    RowMapping m;
    m.rank.assign(from->ranks.size(), -1);
    m.track.resize(from->ranks.size());
    for (std::size_t r = 0; r < from->ranks.size(); ++r)
        m.track[r].assign(from->ranks[r].tracks.size(), -1);
    for (const RankComparison& rc : cmp.ranks) {
        const auto a = static_cast<std::size_t>(rc.beforeIndex), b = static_cast<std::size_t>(rc.afterIndex);
        if (a >= from->ranks.size() || b >= to.ranks.size()) continue;
        m.rank[a] = rc.afterIndex;
        const auto& ta = from->ranks[a].tracks;
        const auto& tb = to.ranks[b].tracks;
        std::vector<bool> used(tb.size(), false);
        // By name and kind first ("stream 7", a thread's name), then the rest by kind in order.
        for (std::size_t k = 0; k < ta.size(); ++k)
            for (std::size_t j = 0; j < tb.size(); ++j)
                if (!used[j] && tb[j].kind == ta[k].kind && tb[j].name == ta[k].name) {
                    m.track[a][k] = static_cast<int>(j);
                    used[j] = true;
                    break;
                }
        for (std::size_t k = 0; k < ta.size(); ++k) {
            if (m.track[a][k] >= 0) continue;
            for (std::size_t j = 0; j < tb.size(); ++j)
                if (!used[j] && tb[j].kind == ta[k].kind) {
                    m.track[a][k] = static_cast<int>(j);
                    used[j] = true;
                    break;
                }
        }
    }
    m.along = std::move(from);
    return m;
}

std::shared_ptr<const ComparisonRun>
loadComparisonRun(std::shared_ptr<const TraceSet> openSet, std::shared_ptr<const ExecutionGraph> openGraph,
                  std::shared_ptr<const SimResult> simulation, const SimKnobs& knobs,
                  const QStringList& openPaths, const QStringList& paths, const std::atomic<bool>* cancel) {
    auto run = std::make_shared<ComparisonRun>();
    run->openPaths = openPaths;
    run->paths = paths;
    run->openGraph = openGraph;
    try {
        if (!openGraph || !openGraph->trace || (openSet && openSet.get() != openGraph->trace))
            throw std::runtime_error("no open run to compare with");
        // Without the set, the graph stands for it (the caller keeps the set while the graph lives).
        if (!openSet) openSet = std::shared_ptr<const TraceSet>(openGraph, openGraph->trace);
        LoadOptions options;
        if (cancel)
            options.progress = [cancel](std::int64_t, std::int64_t) {
                return !cancel->load(std::memory_order_relaxed);
            };
        auto set = std::make_shared<TraceSet>(loadTraceSet(toStd(paths), options));
        if (isUnmeasuredSet(*set))
            throw LoadError(paths.value(0).toStdString(),
                            "has no measured times (a Chakra execution trace): nothing measured to compare");
        auto graph = std::make_shared<const ExecutionGraph>(buildExecutionGraph(*set));
        auto cmp = std::make_shared<const RunComparison>(compareRuns(*openGraph, *graph));
        run->set = set;
        run->graph = graph;
        run->cmp = cmp;
        if (!cmp->comparable()) {
            run->error =
                QString("error: %1: %2").arg(paths.value(0), QString::fromStdString(cmp->alignmentNote()));
            return run;
        }
        std::optional<PredictionCheck> check;
        if (simulation && simulation->complete && simulation->nodes.size() == openGraph->nodes.size())
            check = checkPrediction(*cmp, *openGraph, *simulation, *graph);
        run->report =
            comparisonJson(*cmp, {toStd(openPaths), toStd(paths), -1}, check ? &*check : nullptr, &knobs);

        // The run under the open one: its step start on the open run's (one offset: a run's ranks
        // share a clock), its rows along the open run's.
        run->offset = stepStart(*openGraph) - stepStart(*graph);
        if (run->offset == 0) {
            run->timeline = TimelineData::measured(set);
        } else {
            auto starts = std::make_shared<std::vector<std::vector<std::vector<TimeNs>>>>(set->ranks.size());
            for (std::size_t r = 0; r < set->ranks.size(); ++r)
                for (const Track& t : set->ranks[r].tracks) {
                    auto& s = (*starts)[r].emplace_back(t.events.start);
                    for (TimeNs& v : s)
                        v += run->offset;
                }
            const TraceSet* s = set.get();
            const auto* st = starts.get();
            run->timeline = TimelineData::build(
                set,
                [s, st](std::size_t r, std::size_t k) {
                    return TimeColumns{(*st)[r][k].data(), s->ranks[r].tracks[k].events.duration.data()};
                },
                starts);
        }
        run->rows = std::make_shared<const RowMapping>(mapRows(openSet, *set, *cmp));

        for (std::size_t p = 0; p < cmp->ranks.size(); ++p)
            for (std::size_t u = 0; u < cmp->ranks[p].units.size(); ++u)
                run->units.push_back({static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(u)});
        // A change within the run-to-run noise (3 sigma of a kernel's spread) or under the
        // smallest change reported is "same", as in the tables.
        run->samePct = std::max(kMinChangePct, 3.0 * cmp->noisePct);
        std::vector<TimeNs> measured;
        measured.reserve(run->units.size());
        for (std::size_t i = 0; i < run->units.size(); ++i)
            measured.push_back(run->alignedUnit(i).beforeTime);
        auto openDeltas = std::make_shared<EventDeltas>(), deltas = std::make_shared<EventDeltas>();
        fill(*openGraph, *run, true, measured, *openDeltas, &run->openUnit);
        fill(*graph, *run, false, measured, *deltas, &run->unit);
        run->openDeltas = std::move(openDeltas);
        run->deltas = std::move(deltas);
    } catch (const LoadError& e) {
        run->error = QString("error: %1").arg(QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        run->error = QString("error: %1: %2").arg(paths.value(0), QString::fromStdString(e.what()));
    }
    if (!run->error.isEmpty()) {
        run->report = nlohmann::json();
        run->timeline.reset();
    }
    return run;
}

std::pair<std::shared_ptr<const EventDeltas>, std::shared_ptr<const EventDeltas>>
ComparisonRun::deltasAgainst(const TimelineData& open) const {
    if (!ok() || &open.set() != openGraph->trace) return {};
    // The open run's ops as `open` times them: the measured timeline gives the units' own times.
    std::vector<TimeNs> times(units.size(), 0);
    bool same = true;
    for (std::size_t i = 0; i < units.size(); ++i) {
        for (NodeId n : alignedUnit(i).before) {
            const GraphNode& node = openGraph->nodes[n];
            times[i] += open.track(node.rank, node.event.track).duration[node.event.index];
        }
        same = same && times[i] == alignedUnit(i).beforeTime;
    }
    if (same) return {openDeltas, deltas};
    auto a = std::make_shared<EventDeltas>(), b = std::make_shared<EventDeltas>();
    fill(*openGraph, *this, true, times, *a, nullptr);
    fill(*graph, *this, false, times, *b, nullptr);
    return {std::move(a), std::move(b)};
}

const AlignedUnit& ComparisonRun::alignedUnit(std::size_t i) const {
    const UnitRef& u = units[i];
    return cmp->ranks[u.pair].units[u.unit];
}

namespace {
std::int32_t unitAt(const std::vector<std::vector<std::vector<std::int32_t>>>& v, EventId e) {
    if (!e.valid() || static_cast<std::size_t>(e.rank) >= v.size()) return -1;
    const auto& r = v[static_cast<std::size_t>(e.rank)];
    if (e.ref.track >= r.size() || e.ref.index >= r[e.ref.track].size()) return -1;
    return r[e.ref.track][e.ref.index];
}
} // namespace

EventId ComparisonRun::partnerInRun(EventId open) const {
    const std::int32_t u = unitAt(openUnit, open);
    return u < 0 ? EventId{} : eventOf(*graph, alignedUnit(static_cast<std::size_t>(u)).after.front());
}

EventId ComparisonRun::partnerInOpen(EventId e) const {
    const std::int32_t u = unitAt(unit, e);
    return u < 0 ? EventId{} : eventOf(*openGraph, alignedUnit(static_cast<std::size_t>(u)).before.front());
}

ComparisonRun::Jump ComparisonRun::jumpTo(const QString& tab, const std::string& key) const {
    if (!ok()) return {};
    QString kind = tab;
    std::string k = key;
    // The prediction table's rows: "class X", "kernel X" ("<cpu op> (via CPU op)"), "iteration rank N".
    auto strip = [&k](std::string_view prefix) {
        if (k.rfind(prefix, 0) != 0) return false;
        k = k.substr(prefix.size());
        return true;
    };
    if (tab == QStringLiteral("Predicted vs actual")) {
        constexpr std::string_view via = " (via CPU op)";
        if (strip("class "))
            kind = QStringLiteral("Classes");
        else if (strip("iteration rank "))
            kind = QStringLiteral("Ranks");
        else if (strip("kernel")) {
            k.erase(0, k.find_first_not_of(' '));
            kind = QStringLiteral("Kernels");
            if (k.size() > via.size() && k.compare(k.size() - via.size(), via.size(), via) == 0) {
                k.resize(k.size() - via.size());
                kind = QStringLiteral("CPU ops");
            }
        } else {
            return {};
        }
    }
    const ExecutionGraph* graphs[2] = {openGraph.get(), graph.get()};
    std::unordered_map<std::string_view, EventClass> classes;
    // Whether op n of graph g belongs to the row.
    auto matches = [&](int g, NodeId n) {
        const GraphNode& node = graphs[g]->nodes[n];
        const Rank& rank = graphs[g]->trace->ranks[node.rank];
        if (kind == QStringLiteral("Kernels")) return rank.name(node.event) == k;
        if (kind == QStringLiteral("CPU ops")) {
            const EventRef cpu = launchingCpuOp(rank, node.event);
            return (cpu.valid() ? rank.name(cpu) : std::string_view("(no launching op)")) == k;
        }
        if (kind == QStringLiteral("Classes")) {
            const std::string_view name = rank.name(node.event);
            auto [it, fresh] = classes.try_emplace(name, EventClass::OtherKernel);
            if (fresh)
                it->second =
                    node.kind == NodeKind::Collective
                        ? EventClass::CommKernel
                        : eventClassOf(rank.tracks[node.event.track].events.kind[node.event.index], name);
            return eventClassName(it->second) == k;
        }
        return false;
    };
    std::int64_t bestDelta = -1;
    std::size_t best = units.size();
    for (std::size_t i = 0; i < units.size(); ++i) {
        const AlignedUnit& u = alignedUnit(i);
        bool in = false;
        if (kind == QStringLiteral("Ranks"))
            in = std::to_string(cmp->ranks[units[i].pair].beforeRank) == k;
        else
            in = matches(0, u.before.front()) || matches(1, u.after.front());
        const std::int64_t d = std::abs(u.afterTime - u.beforeTime);
        if (in && d > bestDelta) bestDelta = d, best = i;
    }
    if (best == units.size()) return {};
    const AlignedUnit& u = alignedUnit(best);
    return {eventOf(*openGraph, u.before.front()), eventOf(*graph, u.after.front())};
}

QString ComparisonRun::predictionLine(const SimResult* simulation) const {
    if (!ok() || !simulation || !simulation->complete || simulation->nodes.size() != openGraph->nodes.size())
        return {};
    const PredictionCheck check = checkPrediction(*cmp, *openGraph, *simulation, *graph);
    if (check.actualIteration <= 0) return {};
    const double unchanged = 100.0 *
                             static_cast<double>(std::abs(check.beforeIteration - check.actualIteration)) /
                             static_cast<double>(check.actualIteration);
    return QObject::tr(
               "Against %1 (measured): predicted %2, measured %3, error %4% (%5% assuming no change)%6")
        .arg(runName(paths), formatDuration(check.predictedIteration), formatDuration(check.actualIteration))
        .arg(check.iterationErrorPct(), 0, 'f', 1)
        .arg(unchanged, 0, 'f', 1)
        .arg(check.iterationWorseThanNoChange() ? QObject::tr(": WORSE than no change") : QString());
}

QString ComparisonRun::runName(const QStringList& paths) {
    if (paths.size() > 1) {
        const QString folder = QFileInfo(paths.front()).absolutePath();
        bool oneFolder = true;
        for (const QString& p : paths)
            oneFolder = oneFolder && QFileInfo(p).absolutePath() == folder;
        if (oneFolder) return QFileInfo(folder).fileName();
    }
    return QFileInfo(paths.value(0)).fileName();
}

} // namespace sl::ui
