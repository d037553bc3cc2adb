#include "io/kineto/PiecePipeline.h"

#include "base/ParallelFor.h"
#include "io/ChunkScanner.h"

#include <algorithm>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sl::kineto {

Rank newRank(const std::string& path, std::int64_t bytes, int loadOrder) {
    Rank rank;
    rank.sourcePath = path;
    rank.fileBytes = bytes;
    rank.rank = loadOrder;
    return rank;
}
void settleRank(Rank& rank, const std::string& path, std::int64_t disk, const LoadOptions& options) {
    if (!rank.rankFromFile) {
        int fromName = rankFromFileName(path);
        if (fromName >= 0) rank.rank = fromName;
    }
    if (options.progress && !options.progress(2 * disk, 2 * disk)) throw LoadCancelled();
}

simdjson::padded_string_view makePiece(std::string& buf, std::string_view prefix, const ReadAt& read,
                                       std::int64_t offset, std::size_t len, std::string_view suffix) {
    const std::size_t n = prefix.size() + len + suffix.size();
    if (buf.size() < n + simdjson::SIMDJSON_PADDING) buf.resize(n + simdjson::SIMDJSON_PADDING);
    std::memcpy(buf.data(), prefix.data(), prefix.size());
    if (len > 0) read(offset, len, buf.data() + prefix.size());
    std::memcpy(buf.data() + prefix.size() + len, suffix.data(), suffix.size());
    std::memset(buf.data() + n, 0, simdjson::SIMDJSON_PADDING);
    return simdjson::padded_string_view(buf.data(), n, n + simdjson::SIMDJSON_PADDING);
}

bool planHead(std::string_view head, PiecePlan& plan) {
    if (head.size() < 3) return false;
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
    if (byte(0) == 0xef && byte(1) == 0xbb && byte(2) == 0xbf) plan.skip = 3;
    // UTF-16 and binary files: the whole-file parse says what they are.
    if (byte(0) == 0 || byte(1) == 0 || byte(0) == 0xff || byte(0) == 0xfe) return false;
    chunk::EventsArray events = chunk::findEventsArray(head.substr(static_cast<std::size_t>(plan.skip)));
    if (events.open == chunk::kNotFound) return false;
    plan.rootIsArray = events.rootIsArray;
    plan.headEnd = plan.skip + static_cast<std::int64_t>(events.open) + 1;
    return true;
}

namespace {

constexpr std::size_t kCutProbe = 1 << 12; // read first, as it usually holds one

// The cuts of a file of size bytes into pieces of about pieceBytes, at event starts; nothing for a
// file too small to cut or one whose head the whole-file parse must see.
std::optional<PiecePlan> planPieces(std::int64_t size, const ReadAt& read, std::int64_t pieceBytes) {
    if (size < 2 * pieceBytes) return std::nullopt;
    std::string head(static_cast<std::size_t>(std::min<std::int64_t>(size, kHeadBytes)), '\0');
    read(0, head.size(), head.data());
    PiecePlan plan;
    if (!planHead(head, plan)) return std::nullopt;
    plan.starts.push_back(plan.headEnd);
    const std::int64_t span = size - plan.headEnd;
    const std::int64_t count = span / pieceBytes;
    std::string window;
    for (std::int64_t k = 1; k < count; ++k) {
        // Never before the previous cut (its search may have run past this one's place).
        const std::int64_t at = std::max(plan.headEnd + span / count * k, plan.starts.back() + 1);
        if (at >= size) break;
        // The first few KB settle most cuts. Their answer is the whole window's when they hold a
        // newline (both scans start after it) and an event start (the scan stops at the first).
        window.resize(static_cast<std::size_t>(std::min<std::int64_t>(kCutProbe, size - at)));
        read(at, window.size(), window.data());
        std::size_t open = chunk::findEventStart(window);
        if (open == chunk::kNotFound || window.find('\n') == std::string::npos) {
            window.resize(static_cast<std::size_t>(std::min<std::int64_t>(kCutWindow, size - at)));
            read(at, window.size(), window.data());
            open = chunk::findEventStart(window);
        }
        if (open == chunk::kNotFound) continue; // one piece fewer
        plan.ends.push_back(at + static_cast<std::int64_t>(window.rfind(',', open)));
        plan.starts.push_back(at + static_cast<std::int64_t>(open));
    }
    plan.ends.push_back(size); // the last piece runs to the end of the file
    if (plan.starts.size() < 2) return std::nullopt;
    return plan;
}

} // namespace

void parseHead(KinetoParser& whole, od::parser& parser, std::string& buf, const PiecePlan& plan,
               const ReadAt& read) {
    if (plan.rootIsArray)
        whole.markTraceEvents();
    else
        whole.parseRootPiece(parser, makePiece(buf, "", read, plan.skip,
                                               static_cast<std::size_t>(plan.headEnd - plan.skip), "]}"));
}

std::optional<Rank> finishChunkedLoad(Rank& rank, KinetoParser& whole, const std::string& path,
                                      std::int64_t disk, const LoadOptions& options,
                                      const std::function<std::size_t()>& merge) {
    std::size_t pieces = 0;
    try {
        pieces = merge();
#if defined(__GLIBC__)
        // The merged pieces' memory stayed in the malloc arenas of the threads that parsed them,
        // for the next pieces (no page faults on it again); the model's finish, the load's peak,
        // goes without it.
        malloc_trim(0);
#endif
        whole.setFinishThreads(threadsFor(options.threads));
        whole.finish();
#if defined(__GLIBC__)
        // The finish's own buffers (sort orders, the launch index) went back to malloc, which keeps
        // them; give them back to the system.
        malloc_trim(0);
#endif
    } catch (const LoadCancelled&) {
        throw;
    } catch (...) {
        if (options.report) options.report->reparsed = true;
        return std::nullopt;
    }
    if (options.report) {
        options.report->pieces = static_cast<int>(pieces);
        options.report->fastEvents = whole.fastEvents();
    }
    settleRank(rank, path, disk, options);
    return std::move(rank);
}

void reserveForFile(Rank& rank, double scale, bool lazy) {
    scale *= 1.05;
    std::size_t projected = 0;
    // Less room left than a sixteenth of the projection: several pieces' worth.
    auto shortOfRoom = [&](std::size_t size, std::size_t capacity) {
        projected = static_cast<std::size_t>(static_cast<double>(size) * scale);
        return capacity < projected && capacity - size < projected / 16;
    };
    if (shortOfRoom(rank.argsArena.size(), rank.argsArena.capacity())) rank.argsArena.reserve(projected);
    for (auto& track : rank.tracks) {
        EventColumns& ev = track.events;
        if (!shortOfRoom(ev.size(), ev.start.capacity())) continue;
        ev.reserve(projected);
        if (lazy) {
            ev.argsFileOffset.reserve(projected);
            ev.argsFileLength.reserve(projected);
        }
    }
}

std::optional<Rank> loadInPieces(const std::string& path, std::int64_t size, const ReadAt& read,
                                 std::int64_t disk, int loadOrder, const LoadOptions& options,
                                 const LazyArgs& lazy) {
    const std::int64_t pieceBytes = options.chunkBytes > 0 ? options.chunkBytes : kDefaultPieceBytes;
    std::optional<PiecePlan> planned;
    try {
        planned = planPieces(size, read, pieceBytes);
    } catch (const LoadError&) {
        return std::nullopt; // a read error: the whole-file read reports it
    }
    if (!planned) return std::nullopt;
    const PiecePlan& plan = *planned;
    const std::size_t pieces = plan.starts.size();

    struct Piece {
        Rank rank;
        std::unique_ptr<KinetoParser> parser;
        std::exception_ptr error;
        std::int64_t tailAt = 0; // last piece: where the root's remainder starts in the file
    };
    std::vector<std::unique_ptr<Piece>> done(pieces);
    constexpr std::size_t kMaxJoined = 4; // a piece that does not parse is joined with at most this many
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    const std::function<bool(std::int64_t)> keepGoing = [&](std::int64_t) { return !stop.load(); };
    const std::string_view lastPrefix = plan.rootIsArray ? "[" : "{\"traceEvents\":[";

    // Parses pieces first..last as one piece (last > first when a cut between them was wrong).
    auto parseRange = [&](od::parser& parser, std::string& buf, std::size_t first, std::size_t last) {
        auto piece = std::make_unique<Piece>();
        try {
            piece->parser = std::make_unique<KinetoParser>(path, piece->rank, options, keepGoing);
            piece->parser->setChunkMode();
            if (lazy) piece->parser->setLazyArgs();
            const auto len = static_cast<std::size_t>(plan.ends[last] - plan.starts[first]);
            if (last + 1 < pieces) {
                piece->parser->setFileBase(plan.starts[first] - 1); // after the "[" put in front
                piece->parser->parseEventsPiece(parser,
                                                makePiece(buf, "[", read, plan.starts[first], len, "]"));
            } else {
                piece->parser->setFileBase(plan.starts[first] - static_cast<std::int64_t>(lastPrefix.size()));
                auto text = makePiece(buf, lastPrefix, read, plan.starts[first], len, "");
                std::size_t tail = piece->parser->parseLastPiece(parser, text, plan.rootIsArray);
                piece->tailAt = plan.starts[first] + static_cast<std::int64_t>(tail) -
                                static_cast<std::int64_t>(lastPrefix.size());
            }
        } catch (...) {
            piece->error = std::current_exception();
        }
        return piece;
    };
    // Parsed pieces wait for the merge in file order: a worker does not run further ahead of it
    // than this, so that a slow merge does not pile up parsed pieces (docs/Loader.md, "Memory").
    std::size_t merged = 0; // pieces absorbed so far (under mutex)
    std::size_t ahead = 1;  // set below: the threads' pieces plus those a rejoin takes
    std::condition_variable room;
    auto worker = [&] {
        od::parser parser;
        std::string buf;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= pieces || stop) return;
            {
                std::unique_lock lock(mutex);
                room.wait(lock, [&] { return stop || i < merged + ahead; });
            }
            if (stop) return;
            auto piece = parseRange(parser, buf, i, i);
            {
                std::lock_guard lock(mutex);
                done[i] = std::move(piece);
            }
            ready.notify_all();
        }
    };
    const std::size_t threads = std::min(threadsFor(options.threads), pieces);
    ahead = threads + kMaxJoined;
    WorkerThreads pool(stop, mutex, room);
    pool.start(threads, worker);

    Rank rank = newRank(path, size, loadOrder);
    rank.argsFile = lazy;
    KinetoParser whole(path, rank, options, keepGoing);
    if (lazy) whole.setLazyArgs();
    return finishChunkedLoad(rank, whole, path, disk, options, [&] {
        od::parser parser;
        std::string buf;
        parseHead(whole, parser, buf, plan, read);
        // The pieces in file order, each merged (and freed) as soon as it and those before are done.
        // A piece starts where the one before it ended, after that one parsed: its start is a real
        // event boundary. When it does not parse, its end (the next cut) may be wrong: it is parsed
        // again together with the next piece, a few times at most, before the whole file is.
        auto take = [&](std::size_t i) {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return done[i] != nullptr; });
            return std::move(done[i]);
        };
        auto onlyBadCut = [](const std::exception_ptr& error) {
            try {
                std::rethrow_exception(error);
            } catch (const ChunkAbort&) {
                return false;
            } catch (const LoadCancelled&) {
                return false;
            } catch (...) {
                return true;
            }
        };
        std::int64_t tailAt = size;
        for (std::size_t i = 0; i < pieces;) {
            std::unique_ptr<Piece> piece = take(i);
            std::size_t last = i;
            while (piece->error && onlyBadCut(piece->error) && last + 1 < pieces && last - i < kMaxJoined) {
                take(++last); // parsed from a wrong start: not used
                piece = parseRange(parser, buf, i, last);
                if (options.report) ++options.report->rejoined;
            }
            if (piece->error) std::rethrow_exception(piece->error);
            whole.absorb(*piece->parser);
            reserveForFile(rank,
                           static_cast<double>(size) / static_cast<double>(plan.ends[last] - plan.starts[0]),
                           lazy != nullptr);
            if (last + 1 == pieces) tailAt = piece->tailAt;
            piece.reset(); // before the workers go on: the next pieces reuse its memory
            if (options.progress &&
                !options.progress(static_cast<std::int64_t>(2.0 * static_cast<double>(disk) *
                                                            static_cast<double>(plan.ends[last]) /
                                                            static_cast<double>(size)),
                                  2 * disk))
                throw LoadCancelled();
            i = last + 1;
            {
                std::lock_guard lock(mutex);
                merged = i;
            }
            room.notify_all();
        }
        // The root's fields after the events array.
        whole.parseRootPiece(parser, makePiece(buf, plan.rootIsArray ? "[]" : "{\"traceEvents\":[]", read,
                                               tailAt, static_cast<std::size_t>(size - tailAt), ""));
        pool.stop(); // the workers' parsers and buffers go before the model is finished
        return pieces;
    });
}

} // namespace sl::kineto
