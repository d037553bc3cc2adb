#pragma once
// Notes and bookmarks for presenting and teaching (docs/Annotations.md): a note is text pinned to a
// time (or a time range) and optionally a rank, drawn in both panes and in exported figures, saved
// in sessions; a bookmark (1-9) remembers a time window to jump back to.
#include "RowLayout.h"
#include "TimeMapping.h"

#include <QJsonObject>
#include <QObject>
#include <QSize>
#include <QString>

#include <array>
#include <vector>

class QPainter;

namespace sl::ui {

// Where a note's arrow points: a time, on a track's row (or the rank's header row) when it names a
// rank; without a rank, on the note's own row (or half way down the pane).
struct NoteTarget {
    bool set = false;
    TimeNs time = 0;
    int rank = -1;  // index into TraceSet::ranks; -1: no row of its own
    int track = -1; // index into that rank's tracks; -1: the rank's header row
};

struct Note {
    TimeNs start = 0;
    TimeNs end = 0; // == start: a point in time; > start: a range
    int rank = -1;  // index into TraceSet::ranks whose row it is pinned to; -1: none
    QString text;
    int track = -1;   // with a rank: the track whose row it is pinned to; -1 (or a hidden track): the
                      // rank's header row
    NoteTarget arrow; // an arrow from the note's flag to an event or a time
};

struct Bookmark {
    bool set = false;
    TimeNs start = 0, end = 0;
};

class AnnotationModel : public QObject {
    Q_OBJECT
public:
    static constexpr int kBookmarks = 9;
    using QObject::QObject;

    const std::vector<Note>& notes() const { return notes_; }
    int addNote(Note note); // returns its index
    void editNote(int index, const QString& text);
    // Points note `index` at `target` (target.set false: removes its arrow).
    void setArrow(int index, const NoteTarget& target);
    void removeNote(int index);
    // The note nearest to time t (within `tolerance`), or -1.
    int noteAt(TimeNs t, TimeNs tolerance) const;
    // Bookmarks 1..9.
    const Bookmark& bookmark(int number) const { return bookmarks_[static_cast<std::size_t>(number - 1)]; }
    void setBookmark(int number, TimeNs start, TimeNs end);
    void clear();
    bool empty() const;

    // {"notes": [{start_ns, end_ns, rank, track, text, arrow: {time_ns, rank, track}}], "bookmarks":
    // {"1": {start_ns, end_ns}}} (times as strings: JSON numbers lose nanoseconds past 2^53; track
    // and arrow are optional, so sessions written before them still load).
    QJsonObject toJson() const;
    // Replaces the contents; an error line (and nothing changed) for a bad object.
    QString fromJson(const QJsonObject& json, int rankCount);

signals:
    void changed();

private:
    std::vector<Note> notes_;
    std::array<Bookmark, kBookmarks> bookmarks_{};
};

// Draws the notes over an event area of `size` (painter origin at its top-left): a dashed line at a
// point note's time or a shaded band over a range, a numbered flag with the text at the top, a
// marker on the track's row (else the rank's header row) when the note names a rank, and an arrow
// from the flag to its target.
void paintNotes(QPainter& p, const std::vector<Note>& notes, const TimeMapping& m, const RowLayout& layout,
                QSize size, int scrollY);

} // namespace sl::ui
