#include "io/kineto/GzipPipeline.h"

#include "base/ParallelFor.h"

#include "io/ChunkScanner.h"
#include "io/GzipIndex.h"

#include <algorithm>
#include <cstring>
#include <deque>

namespace sl::kineto {

std::optional<Rank> loadGzipInPieces(const std::string& path, std::int64_t disk, int loadOrder,
                                     const LoadOptions& options, std::int64_t maxBytes,
                                     std::optional<TraceBuffer>& small, LazyArgs& lazy) {
    const std::int64_t pieceBytes = options.chunkBytes > 0 ? options.chunkBytes : kDefaultPieceBytes;
    std::atomic<bool> stop{false};
    GzipBlocks in;
    // Progress counts compressed bytes read; parsing follows a few pieces behind.
    ByteProgressFn readProgress = [&](std::int64_t done) {
        return !stop && (!options.progress || options.progress(2 * done, 2 * disk));
    };
    // The inflate records checkpoints (complete when the data has ended) for reading args back.
    auto index = std::make_shared<GzipIndex>();
    if (!in.open(path, maxBytes, readProgress, index)) return std::nullopt;
    const LazyArgs fileArgs = std::make_shared<const LazyArgsFile>(path, in.stamp(), index);
    std::string pending;        // inflated bytes from file offset pendingAt on
    std::int64_t pendingAt = 0; // (uncompressed) file offset of pending[0]
    bool ended = false;
    auto fill = [&](std::size_t want) { // until pending holds want bytes or the data ends
        while (!ended && pending.size() < want)
            ended = !in.next(pending);
    };
    PiecePlan plan;
    try {
        fill(static_cast<std::size_t>(2 * pieceBytes));
    } catch (const LoadError&) {
        return std::nullopt;
    }
    if (ended && pending.size() < static_cast<std::size_t>(2 * pieceBytes)) {
        const std::size_t n = pending.size();
        pending.resize(n + simdjson::SIMDJSON_PADDING, '\0');
        small.emplace(std::move(pending), n);
        lazy = fileArgs;
        return std::nullopt;
    }
    if (!planHead(std::string_view(pending).substr(0, kHeadBytes), plan)) return std::nullopt;
    ReadAt fromPending = [&](std::int64_t offset, std::size_t len, char* dst) {
        std::memcpy(dst, pending.data() + (offset - pendingAt), len);
    };

    struct Piece {
        Rank rank;
        std::unique_ptr<KinetoParser> parser;
        std::exception_ptr error;
        std::string text; // "[" + events + "]" (or the last piece's prefix + rest), padded
        std::size_t length = 0;
        bool last = false;
        std::size_t tail = 0; // last piece: where the root's remainder starts in text
        std::int64_t end = 0; // where the piece ends in the inflated file
        bool done = false;
    };
    std::deque<std::unique_ptr<Piece>> inFlight; // cut, not merged yet, in file order
    std::deque<Piece*> jobs;
    std::mutex mutex;
    std::condition_variable changed;
    const std::function<bool(std::int64_t)> keepGoing = [&](std::int64_t) { return !stop.load(); };
    const std::string_view lastPrefix = plan.rootIsArray ? "[" : "{\"traceEvents\":[";
    auto worker = [&] {
        od::parser parser;
        for (;;) {
            Piece* p = nullptr;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stop || !jobs.empty(); });
                if (stop) return;
                p = jobs.front();
                jobs.pop_front();
            }
            try {
                p->parser->setChunkMode();
                auto text = simdjson::padded_string_view(p->text.data(), p->length, p->text.size());
                if (p->last)
                    p->tail = p->parser->parseLastPiece(parser, text, plan.rootIsArray);
                else
                    p->parser->parseEventsPiece(parser, text);
            } catch (...) {
                p->error = std::current_exception();
            }
            if (!p->last) std::string().swap(p->text);
            {
                std::lock_guard lock(mutex);
                p->done = true;
            }
            changed.notify_all();
        }
    };
    const std::size_t threads = threadsFor(options.threads);
    WorkerThreads pool(stop, mutex, changed);
    pool.start(threads, worker);

    Rank rank = newRank(path, 0, loadOrder);
    rank.argsFile = fileArgs; // its index is complete once the data has ended, before the load returns
    std::size_t pieceCount = 0;
    KinetoParser whole(path, rank, options, keepGoing);
    whole.setLazyArgs();
    return finishChunkedLoad(rank, whole, path, disk, options, [&] {
        od::parser parser;
        std::string buf;
        parseHead(whole, parser, buf, plan, fromPending);
        auto submit = [&](std::string_view prefix, std::int64_t from, std::size_t len,
                          std::string_view suffix, bool last) {
            auto p = std::make_unique<Piece>();
            p->parser = std::make_unique<KinetoParser>(path, p->rank, options, keepGoing);
            p->parser->setLazyArgs();
            p->parser->setFileBase(from - static_cast<std::int64_t>(prefix.size()));
            p->text.reserve(prefix.size() + len + suffix.size() + simdjson::SIMDJSON_PADDING);
            makePiece(p->text, prefix, fromPending, from, len, suffix);
            p->length = prefix.size() + len + suffix.size();
            p->end = from + static_cast<std::int64_t>(len);
            p->last = last;
            std::lock_guard lock(mutex);
            jobs.push_back(p.get());
            inFlight.push_back(std::move(p));
            ++pieceCount;
            changed.notify_all();
        };
        // Merges the oldest piece when it is parsed (waiting for it when wait); false when it is not.
        auto mergeFront = [&](bool wait) {
            std::unique_ptr<Piece> p;
            {
                std::unique_lock lock(mutex);
                if (inFlight.empty()) return false;
                if (wait) changed.wait(lock, [&] { return inFlight.front()->done; });
                if (!inFlight.front()->done) return false;
                p = std::move(inFlight.front());
                inFlight.pop_front();
            }
            if (p->error) std::rethrow_exception(p->error);
            whole.absorb(*p->parser);
            // The size the gzip trailer states (exact for one member) scales the share merged so far.
            if (in.statedSize() > p->end)
                reserveForFile(rank, static_cast<double>(in.statedSize()) / static_cast<double>(p->end),
                               true);
            if (p->last)
                whole.parseRootPiece(parser,
                                     makePiece(
                                         buf, plan.rootIsArray ? "[]" : "{\"traceEvents\":[]",
                                         [&](std::int64_t offset, std::size_t len, char* dst) {
                                             std::memcpy(dst, p->text.data() + offset, len);
                                         },
                                         static_cast<std::int64_t>(p->tail), p->length - p->tail, ""));
            p.reset();
            return true;
        };
        std::int64_t start = plan.headEnd;
        std::int64_t probe = start + pieceBytes; // where the next cut is looked for
        std::string window;
        for (;;) {
            fill(static_cast<std::size_t>(probe - pendingAt) + kCutWindow);
            const std::int64_t end = pendingAt + static_cast<std::int64_t>(pending.size());
            // The window is shorter only at the end of the data.
            const std::size_t open =
                probe >= end ? chunk::kNotFound
                             : chunk::findEventStart(window.assign(
                                   pending, static_cast<std::size_t>(probe - pendingAt),
                                   std::min<std::size_t>(kCutWindow, static_cast<std::size_t>(end - probe))));
            if (open == chunk::kNotFound) {
                if (ended && end - probe <= static_cast<std::int64_t>(kCutWindow)) { // no cut left
                    submit(lastPrefix, start, static_cast<std::size_t>(end - start), "", true);
                    rank.fileBytes = end;
                    break;
                }
                probe += static_cast<std::int64_t>(kCutWindow); // a longer piece
                continue;
            }
            const std::int64_t cutEnd = probe + static_cast<std::int64_t>(window.rfind(',', open));
            submit("[", start, static_cast<std::size_t>(cutEnd - start), "]", false);
            start = probe + static_cast<std::int64_t>(open);
            probe = start + pieceBytes;
            pending.erase(0, static_cast<std::size_t>(start - pendingAt));
            pendingAt = start;
            while (inFlight.size() > threads) // bounded: the pieces parsed ahead wait for the merge
                mergeFront(true);
            while (mergeFront(false)) {
            }
        }
        std::string().swap(pending);
        while (mergeFront(true)) {
        }
        pool.stop();
        return pieceCount;
    });
}

} // namespace sl::kineto
