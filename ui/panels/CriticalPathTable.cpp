#include "CriticalPathTable.h"

#include "analysis/StepExplanation.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace sl::ui {

namespace {
QString withWork(EmbeddingWork work, std::string_view name) {
    return QString::fromStdString(withEmbeddingWork(work, name));
}
QString msText(TimeNs t) {
    return QString::number(static_cast<double>(t) / 1e6, 'f', 3);
}
} // namespace

const CriticalPath* CriticalPathModel::path() const {
    return output_.analysis ? &output_.analysis->path : nullptr;
}

void CriticalPathModel::setSimulation(const SimOutput& output) {
    beginResetModel();
    output_ = output;
    groups_.clear();
    // Grouped in the simulation's worker when it ran there (tens of ms on a 200 MB trace).
    if (output_.pathByName)
        groups_ = *output_.pathByName;
    else if (path() && output_.graph)
        groups_ = criticalPathByName(*output_.graph, *path());
    endResetModel();
}

void CriticalPathModel::setGrouped(bool grouped) {
    beginResetModel();
    grouped_ = grouped;
    endResetModel();
}

int CriticalPathModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !path()) return 0;
    return static_cast<int>(grouped_ ? groups_.size() : path()->segments.size());
}

int CriticalPathModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : grouped_ ? int(GroupColumnCount) : int(ColumnCount);
}

EventId CriticalPathModel::eventOf(int row) const {
    if (grouped_ || !path() || row < 0 || row >= rowCount()) return {};
    const PathSegment& s = path()->segments[static_cast<std::size_t>(row)];
    if (s.node == kNoNode) return {};
    const GraphNode& n = output_.graph->nodes[s.node];
    return {static_cast<int>(n.rank), n.event};
}

int CriticalPathModel::rowOfEvent(const EventId& e) const {
    if (grouped_ || !e.valid()) return -1;
    for (int r = 0; r < rowCount(); ++r)
        if (eventOf(r) == e) return r;
    return -1;
}

TimeNs CriticalPathModel::totalOf(PathLabel label) const {
    TimeNs t = 0;
    if (path())
        for (const PathSegment& s : path()->segments)
            if (s.label == label) t += s.end - s.start;
    return t;
}

TimeNs CriticalPathModel::groupTotal(int row) const {
    return row >= 0 && row < static_cast<int>(groups_.size()) ? groups_[static_cast<std::size_t>(row)].time
                                                              : 0;
}

QVariant CriticalPathModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !path()) return {};
    const int c = index.column();
    if (role == Qt::TextAlignmentRole) {
        const bool number =
            grouped_ ? (c == GSegments || c == GTotal || c == GShare) : (c == Start || c == Duration);
        return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (grouped_) {
        const PathNameShare& g = groups_[static_cast<std::size_t>(index.row())];
        switch (c) {
        case GOp:
            return withWork(g.work, g.name);
        case GKind:
            return QString::fromUtf8(pathLabelName(g.label).data(),
                                     static_cast<int>(pathLabelName(g.label).size()));
        case GSegments:
            return static_cast<qlonglong>(g.segments);
        case GTotal:
            return msText(g.time);
        case GShare:
            return path()->length > 0 ? QString::number(100.0 * static_cast<double>(g.time) /
                                                            static_cast<double>(path()->length),
                                                        'f', 1)
                                      : QString();
        default:
            return {};
        }
    }
    const PathSegment& s = path()->segments[static_cast<std::size_t>(index.row())];
    const TimeNs origin = path()->segments.front().start;
    const ExecutionGraph& g = *output_.graph;
    switch (c) {
    case Start:
        return msText(s.start - origin);
    case Duration:
        return msText(s.end - s.start);
    case Kind:
        return QString::fromUtf8(pathLabelName(s.label).data(),
                                 static_cast<int>(pathLabelName(s.label).size()));
    default:
        break;
    }
    if (s.node == kNoNode) return {};
    const GraphNode& n = g.nodes[s.node];
    const sl::Rank& rank = g.trace->ranks[n.rank];
    switch (c) {
    case Rank:
        return rank.rank;
    case Track:
        return QString::fromStdString(rank.tracks[n.event.track].name);
    case Op: { // CPU time between calls: the op that ran then (analysis/CriticalPath.h)
        return withWork(pathSegmentWork(g, s), s.op.valid() ? rank.name(s.op) : g.nodeName(s.node));
    }
    default:
        return {};
    }
}

QVariant CriticalPathModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (grouped_) {
        switch (section) {
        case GOp:
            return tr("Op");
        case GKind:
            return tr("Kind");
        case GSegments:
            return tr("Segments");
        case GTotal:
            return tr("Total (ms)");
        case GShare:
            return tr("% of path");
        default:
            return {};
        }
    }
    switch (section) {
    case Start:
        return tr("Start (ms)");
    case Duration:
        return tr("Duration (ms)");
    case Kind:
        return tr("Kind");
    case Rank:
        return tr("Rank");
    case Track:
        return tr("Track");
    case Op:
        return tr("Op");
    default:
        return {};
    }
}

CriticalPathTable::CriticalPathTable(QWidget* parent) : QWidget(parent), model_(new CriticalPathModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    summary_ = new QLabel(tr("The critical path of the simulated step, after the simulation."), this);
    summary_->setWordWrap(true);
    grouped_ = new QCheckBox(tr("Group by op (totals)"), this);
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("criticalPathTable"));
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    // Column widths from the first rows (and the visible ones), not all: a 200 MB trace's path has
    // thousands of segments, and measuring every row took 30-50 ms of the UI thread.
    view_->horizontalHeader()->setResizeContentsPrecision(200);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setToolTip(
        tr("Double-click (or Enter) a segment to go to its event; N / Shift+N in the panes walk the path"));
    layout->addWidget(summary_);
    layout->addWidget(grouped_);
    layout->addWidget(view_, 1);
    connect(grouped_, &QCheckBox::toggled, this, [this](bool on) {
        model_->setGrouped(on);
        view_->resizeColumnsToContents();
    });
    connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) { activate(i.row()); });
}

void CriticalPathTable::setSimulation(const SimOutput& output) {
    model_->setSimulation(output);
    view_->resizeColumnsToContents();
    const CriticalPath* p = model_->path();
    if (!p || !output.result) {
        summary_->setText(tr("The critical path of the simulated step, after the simulation."));
        return;
    }
    QStringList kinds;
    for (int l = 0; l < kPathLabelCount; ++l) {
        const TimeNs t = p->byLabel[static_cast<std::size_t>(l)];
        if (p->length > 0 && t * 200 >= p->length)
            kinds << QStringLiteral("%1 %2%")
                         .arg(QString::fromUtf8(pathLabelName(static_cast<PathLabel>(l)).data()))
                         .arg(100.0 * static_cast<double>(t) / static_cast<double>(p->length), 0, 'f', 1);
    }
    // Embedding work as a part of the kinds (docs/Embeddings.md, "On the critical path").
    for (const auto& [work, t] : {std::pair{EmbeddingWork::Lookup, p->embeddingLookup},
                                  std::pair{EmbeddingWork::AllToAll, p->embeddingAllToAll}})
        if (p->length > 0 && t > 0)
            kinds << tr("of which %1 %2%")
                         .arg(QString::fromUtf8(embeddingWorkName(work).data(),
                                                static_cast<int>(embeddingWorkName(work).size())))
                         .arg(100.0 * static_cast<double>(t) / static_cast<double>(p->length), 0, 'f', 1);
    summary_->setText(tr("%1 segments. %2.\n%3")
                          .arg(p->segments.size())
                          .arg(QString::fromStdString(pathVersusIteration(*p, *output.result)))
                          .arg(kinds.join(QStringLiteral(", "))));
}

QString CriticalPathTable::summary() const {
    return summary_->text();
}

void CriticalPathTable::activate(int row) {
    const EventId e = model_->eventOf(row);
    if (e.valid()) emit eventActivated(e);
}

void CriticalPathTable::step(int delta) {
    if (model_->grouped()) {
        const QSignalBlocker block(grouped_);
        grouped_->setChecked(false);
        model_->setGrouped(false);
    }
    const int n = model_->rowCount();
    if (n == 0) return;
    const QModelIndex cur = view_->currentIndex();
    int row = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : n - 1);
    row = std::clamp(row, 0, n - 1);
    view_->selectRow(row);
    view_->scrollTo(model_->index(row, 0));
    activate(row);
}

void CriticalPathTable::next() {
    step(1);
}

void CriticalPathTable::previous() {
    step(-1);
}

void CriticalPathTable::followEvent(const EventId& e) {
    // A node can own several segments (its own time and the gap it waited in): the row selected
    // already may be one of them.
    if (view_->currentIndex().isValid() && model_->eventOf(view_->currentIndex().row()) == e) return;
    const int row = model_->rowOfEvent(e);
    if (row < 0) return;
    const QSignalBlocker block(view_);
    view_->selectRow(row);
    view_->scrollTo(model_->index(row, 0));
}

} // namespace sl::ui
