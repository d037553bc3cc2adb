#pragma once
// Helpers of the Kineto loader's tests (test_KinetoLoader, test_KinetoPieces, test_KinetoVariants):
// small hand-made traces and the questions they ask of a loaded rank.
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace sltest {
using namespace sl;

inline std::int64_t countName(const Rank& r, std::string_view prefix, EventKind kind) {
    std::int64_t n = 0;
    for (const auto& t : r.tracks)
        for (std::size_t i = 0; i < t.events.size(); ++i)
            if (t.events.kind[i] == kind &&
                r.strings.str(t.events.name[i]).substr(0, prefix.size()) == prefix)
                ++n;
    return n;
}

inline const Track* gpuTrack(const Rank& r, std::int64_t stream) {
    for (const auto& t : r.tracks)
        if (t.isGpu() && t.stream() == stream) return &t;
    return nullptr;
}

inline QByteArray minimalTrace(const QByteArray& events) {
    return "{\"schemaVersion\":1,\"traceEvents\":[" + events + "]}";
}

// The runtime call a GPU op is linked to (its launch), if any.
struct Launch {
    std::string_view name;
    EventKind kind;
};
inline std::optional<Launch> launchOf(const Rank& r, const Track& t, std::size_t i) {
    if (t.events.link[i] == kNoLink) return std::nullopt;
    EventRef ref = EventRef::unpack(t.events.link[i]);
    return Launch{r.name(ref), r.tracks[ref.track].events.kind[ref.index]};
}

// One GPU op by name: its track and index.
inline std::pair<const Track*, std::size_t> gpuOp(const Rank& r, std::string_view name) {
    for (const auto& t : r.tracks)
        for (std::size_t i = 0; t.isGpu() && i < t.events.size(); ++i)
            if (r.strings.str(t.events.name[i]) == name) return {&t, i};
    return {nullptr, 0};
}

// The message of the LoadError that loading content throws (empty when it loads).
inline QString loadErrorOf(const QByteArray& content, const std::string& name = "bad.json") {
    try {
        loadKinetoBytes(content.toStdString(), name);
    } catch (const LoadError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

// Loads text whole (one piece) and in pieces of pieceBytes on two threads.
struct WholeAndPieces {
    Rank whole, pieces;
    LoadReport report;
};
inline WholeAndPieces loadBothWays(const std::string& text, const std::string& name,
                                   std::int64_t pieceBytes) {
    WholeAndPieces out;
    LoadOptions whole;
    whole.chunkBytes = std::int64_t{1} << 40;
    LoadReport wholeReport;
    whole.report = &wholeReport;
    out.whole = loadKinetoBytes(text, name, 0, whole);
    if (wholeReport.pieces != 0) qFatal("the whole-file load was cut");
    LoadOptions cut;
    cut.chunkBytes = pieceBytes;
    cut.threads = 2;
    cut.report = &out.report;
    out.pieces = loadKinetoBytes(text, name, 0, cut);
    return out;
}

} // namespace sltest
