#include "Annotations.h"

#include <QFontMetrics>
#include <QJsonArray>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <optional>

namespace sl::ui {

namespace {
const QColor kNoteColor(0xd6336c);
const QColor kNoteFill(214, 51, 108, 40);
} // namespace

int AnnotationModel::addNote(Note note) {
    if (note.end < note.start) std::swap(note.start, note.end);
    notes_.push_back(std::move(note));
    emit changed();
    return static_cast<int>(notes_.size()) - 1;
}

void AnnotationModel::editNote(int index, const QString& text) {
    if (index < 0 || index >= static_cast<int>(notes_.size())) return;
    notes_[static_cast<std::size_t>(index)].text = text;
    emit changed();
}

void AnnotationModel::setArrow(int index, const NoteTarget& target) {
    if (index < 0 || index >= static_cast<int>(notes_.size())) return;
    notes_[static_cast<std::size_t>(index)].arrow = target.set ? target : NoteTarget{};
    emit changed();
}

void AnnotationModel::removeNote(int index) {
    if (index < 0 || index >= static_cast<int>(notes_.size())) return;
    notes_.erase(notes_.begin() + index);
    emit changed();
}

int AnnotationModel::noteAt(TimeNs t, TimeNs tolerance) const {
    int best = -1;
    TimeNs bestDistance = tolerance + 1;
    for (std::size_t i = 0; i < notes_.size(); ++i) {
        const Note& n = notes_[i];
        const TimeNs d = t < n.start ? n.start - t : t > n.end ? t - n.end : 0;
        if (d < bestDistance) {
            best = static_cast<int>(i);
            bestDistance = d;
        }
    }
    return best;
}

void AnnotationModel::setBookmark(int number, TimeNs start, TimeNs end) {
    if (number < 1 || number > kBookmarks || end <= start) return;
    bookmarks_[static_cast<std::size_t>(number - 1)] = {true, start, end};
    emit changed();
}

void AnnotationModel::clear() {
    if (empty()) return;
    notes_.clear();
    bookmarks_ = {};
    emit changed();
}

bool AnnotationModel::empty() const {
    return notes_.empty() &&
           std::none_of(bookmarks_.begin(), bookmarks_.end(), [](const Bookmark& b) { return b.set; });
}

QJsonObject AnnotationModel::toJson() const {
    QJsonArray notes;
    for (const Note& n : notes_) {
        QJsonObject o{{QStringLiteral("start_ns"), QString::number(n.start)},
                      {QStringLiteral("end_ns"), QString::number(n.end)},
                      {QStringLiteral("rank"), n.rank},
                      {QStringLiteral("track"), n.track},
                      {QStringLiteral("text"), n.text}};
        if (n.arrow.set)
            o[QStringLiteral("arrow")] =
                QJsonObject{{QStringLiteral("time_ns"), QString::number(n.arrow.time)},
                            {QStringLiteral("rank"), n.arrow.rank},
                            {QStringLiteral("track"), n.arrow.track}};
        notes.append(o);
    }
    QJsonObject marks;
    for (int i = 0; i < kBookmarks; ++i) {
        const Bookmark& b = bookmarks_[static_cast<std::size_t>(i)];
        if (b.set)
            marks[QString::number(i + 1)] =
                QJsonObject{{QStringLiteral("start_ns"), QString::number(b.start)},
                            {QStringLiteral("end_ns"), QString::number(b.end)}};
    }
    return {{QStringLiteral("notes"), notes}, {QStringLiteral("bookmarks"), marks}};
}

QString AnnotationModel::fromJson(const QJsonObject& json, int rankCount) {
    std::vector<Note> notes;
    std::array<Bookmark, kBookmarks> marks{};
    auto time = [](const QJsonObject& o, const char* key, TimeNs& out) {
        bool ok = false;
        out = o.value(QLatin1String(key)).toString().toLongLong(&ok);
        return ok;
    };
    const QJsonArray list = json.value(QStringLiteral("notes")).toArray();
    for (int i = 0; i < list.size(); ++i) {
        const QJsonObject o = list[i].toObject();
        Note n;
        if (!time(o, "start_ns", n.start) || !time(o, "end_ns", n.end) || n.end < n.start)
            return QObject::tr("\"annotations\": note %1: bad time").arg(i + 1);
        n.rank = o.value(QStringLiteral("rank")).toInt(-1);
        if (n.rank < -1 || n.rank >= rankCount) n.rank = -1; // a rank the set does not have: no marker
        // A track the rank does not show (or does not have) draws on the rank's header row.
        n.track = n.rank >= 0 ? std::max(-1, o.value(QStringLiteral("track")).toInt(-1)) : -1;
        n.text = o.value(QStringLiteral("text")).toString();
        if (o.contains(QStringLiteral("arrow"))) {
            const QJsonObject a = o.value(QStringLiteral("arrow")).toObject();
            if (!time(a, "time_ns", n.arrow.time))
                return QObject::tr("\"annotations\": note %1: bad arrow time").arg(i + 1);
            n.arrow.set = true;
            n.arrow.rank = a.value(QStringLiteral("rank")).toInt(-1);
            if (n.arrow.rank < -1 || n.arrow.rank >= rankCount) n.arrow.rank = -1;
            n.arrow.track = n.arrow.rank >= 0 ? std::max(-1, a.value(QStringLiteral("track")).toInt(-1)) : -1;
        }
        notes.push_back(std::move(n));
    }
    const QJsonObject b = json.value(QStringLiteral("bookmarks")).toObject();
    for (auto it = b.begin(); it != b.end(); ++it) {
        bool ok = false;
        const int number = it.key().toInt(&ok);
        if (!ok || number < 1 || number > kBookmarks)
            return QObject::tr("\"annotations\": bookmark \"%1\" is not 1 to 9").arg(it.key());
        Bookmark& m = marks[static_cast<std::size_t>(number - 1)];
        const QJsonObject o = it.value().toObject();
        if (!time(o, "start_ns", m.start) || !time(o, "end_ns", m.end) || m.end <= m.start)
            return QObject::tr("\"annotations\": bookmark %1: bad time range").arg(number);
        m.set = true;
    }
    notes_ = std::move(notes);
    bookmarks_ = marks;
    emit changed();
    return {};
}

namespace {

// The middle of the row a note or arrow names: the track's row when shown, else the rank's header
// row; nullopt when neither is laid out (or no rank is named).
std::optional<double> rowMiddle(const RowLayout& layout, int rank, int track, int scrollY) {
    if (rank < 0) return std::nullopt;
    const auto& rows = layout.rows();
    const int at = track >= 0 ? layout.rowOf(rank, track) : -1;
    if (at >= 0) {
        const Row& r = rows[static_cast<std::size_t>(at)];
        return r.y - scrollY + r.height / 2.0;
    }
    const auto header =
        std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.header() && r.rank == rank; });
    if (header == rows.end()) return std::nullopt;
    return header->y - scrollY + header->height / 2.0;
}

// A line from `from` to `to` with a filled head at `to`.
void drawArrow(QPainter& p, QPointF from, QPointF to) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(kNoteColor, 2));
    p.drawLine(from, to);
    const double len = std::hypot(to.x() - from.x(), to.y() - from.y());
    if (len < 1) return p.restore();
    const QPointF u((to.x() - from.x()) / len, (to.y() - from.y()) / len), n(-u.y(), u.x());
    const double head = 10, half = 5;
    const QPointF base = to - u * head;
    p.setPen(Qt::NoPen);
    p.setBrush(kNoteColor);
    p.drawPolygon(QPolygonF({to, base + n * half, base - n * half}));
    p.restore();
}

} // namespace

void paintNotes(QPainter& p, const std::vector<Note>& notes, const TimeMapping& m, const RowLayout& layout,
                QSize size, int scrollY) {
    if (notes.empty()) return;
    p.save();
    QFont f = p.font();
    f.setBold(true);
    p.setFont(f);
    const QFontMetrics fm(f);
    for (std::size_t i = 0; i < notes.size(); ++i) {
        const Note& n = notes[i];
        const double x0 = m.x(n.start), x1 = m.x(n.end);
        const bool arrow = n.arrow.set;
        const double tx = arrow ? m.x(n.arrow.time) : x0;
        // Off screen, unless its arrow comes into view.
        if ((x1 < -200 || x0 > size.width()) && (!arrow || tx < 0 || tx > size.width())) continue;
        if (n.end > n.start) p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), size.height()), kNoteFill);
        p.setPen(QPen(kNoteColor, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x0, 0), QPointF(x0, size.height()));
        // Pinned to a row: a dot on the track's row (or the rank's header row).
        const std::optional<double> pinY = rowMiddle(layout, n.rank, n.track, scrollY);
        if (pinY) {
            p.setPen(Qt::NoPen);
            p.setBrush(kNoteColor);
            p.drawEllipse(QPointF(x0, *pinY), 5, 5);
        }
        // The flag: "1 text", stacked so that neighbours do not overlap.
        const QString label = QStringLiteral("%1 %2").arg(i + 1).arg(n.text);
        const int w = std::min(fm.horizontalAdvance(label) + 10, 420);
        // Right of the line, or left of it where the pane ends.
        const double fx = x0 + 2 + w > size.width() ? std::max(0.0, x0 - 2 - w) : x0 + 2;
        const QRectF flag(fx, 2 + static_cast<double>(i % 3) * (fm.height() + 4), w, fm.height() + 2);
        // The arrow, under the flag: from the flag's lower edge to the target's row (the note's own
        // row when the target names none, else half way down).
        if (arrow) {
            const std::optional<double> ty = rowMiddle(layout, n.arrow.rank, n.arrow.track, scrollY);
            const QPointF to(tx, ty ? *ty : pinY ? *pinY : size.height() / 2.0);
            const QPointF from(std::clamp(tx, flag.left() + 4, std::max(flag.left() + 4, flag.right() - 4)),
                               flag.bottom());
            drawArrow(p, from, to);
        }
        p.setPen(Qt::NoPen);
        p.setBrush(kNoteColor);
        p.drawRect(flag);
        p.setPen(Qt::white);
        p.drawText(flag.adjusted(5, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, w - 8));
    }
    p.restore();
}

} // namespace sl::ui
