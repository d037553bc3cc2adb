#pragma once
// Chunked parsing of a plain file or a buffer (docs/Loader.md, "Chunked parsing"): the file is cut
// at event starts into pieces, worker threads parse them, and the pieces are merged in file order.
// The cut planning and the merge helpers here also serve the gzip pipeline (GzipPipeline.h).
#include "io/kineto/KinetoParser.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace sl::kineto {

// A file's args are read back from it on demand (docs/Loader.md, "Lazy args"): a plain file with
// pread, a gzip file through its inflate checkpoints; null for bytes in memory.
using LazyArgs = std::shared_ptr<const LazyArgsFile>;

// Reads bytes [offset, offset + len) of the uncompressed file into dst.
using ReadAt = std::function<void(std::int64_t offset, std::size_t len, char* dst)>;

// simdjson's index for a piece is about 4 bytes per byte: smaller pieces, less memory per thread.
constexpr std::int64_t kDefaultPieceBytes = 2 << 20;
constexpr std::size_t kHeadBytes = 1 << 20; // the events array must start within this
constexpr std::size_t kCutWindow = 1 << 16; // searched for an event start at each cut

// A rank before parsing, and after: the rank number from the file name unless the file said it.
Rank newRank(const std::string& path, std::int64_t bytes, int loadOrder);
void settleRank(Rank& rank, const std::string& path, std::int64_t disk, const LoadOptions& options);

// prefix + file[offset, offset + len) + suffix, followed by simdjson's padding, in buf (reused
// from piece to piece, so its pages are touched once).
simdjson::padded_string_view makePiece(std::string& buf, std::string_view prefix, const ReadAt& read,
                                       std::int64_t offset, std::size_t len, std::string_view suffix);

// Where the pieces start and end in the file.
struct PiecePlan {
    bool rootIsArray = false;
    std::int64_t headEnd = 0; // just past the events array's '['
    std::int64_t skip = 0;    // byte order mark
    std::vector<std::int64_t> starts, ends;
};

// The events array in the file's head (its first kHeadBytes): fills rootIsArray, skip and headEnd;
// false for a head the whole-file parse must see (UTF-16, binary, no events array found).
bool planHead(std::string_view head, PiecePlan& plan);

// The root's fields before the events array (the array emptied), into the merging parser.
void parseHead(KinetoParser& whole, od::parser& parser, std::string& buf, const PiecePlan& plan,
               const ReadAt& read);

// Runs merge (parses the pieces and merges them into whole, returns how many there were), then
// finishes the model; nothing when anything but a cancellation failed (the caller then parses the
// whole file, which words the error).
std::optional<Rank> finishChunkedLoad(Rank& rank, KinetoParser& whole, const std::string& path,
                                      std::int64_t disk, const LoadOptions& options,
                                      const std::function<std::size_t()>& merge);

// The worker threads of a chunked load: when the load ends, however it ends, stop is set (under
// mutex, where the workers wait on wake) and they are joined.
class WorkerThreads {
public:
    WorkerThreads(std::atomic<bool>& stop, std::mutex& mutex, std::condition_variable& wake)
        : stop_(stop), mutex_(mutex), wake_(wake) {}
    WorkerThreads(const WorkerThreads&) = delete;
    WorkerThreads& operator=(const WorkerThreads&) = delete;
    void start(std::size_t count, const std::function<void()>& work) {
        for (std::size_t t = 0; t < count; ++t)
            pool_.emplace_back(work);
    }
    ~WorkerThreads() { stop(); }
    // Stops and joins the workers now (their parsers' memory goes before the model is finished).
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : pool_)
            t.join();
        pool_.clear();
    }

private:
    std::atomic<bool>& stop_;
    std::mutex& mutex_;
    std::condition_variable& wake_;
    std::vector<std::thread> pool_;
};

// The args text and the columns grow with the file. After each merged piece, those about to run
// out of room get room for their share of the whole file, projected from the part merged so far
// (scale: the file's size over the bytes merged). A doubling vector would copy itself over and
// over (the tracks first seen after the first piece did), and the copies' pages stay resident in
// malloc's heap; room reserved and not written costs nothing.
void reserveForFile(Rank& rank, double scale, bool lazy);

// Parses the file in pieces on options.threads threads; the caller parses the whole file when
// this returns nothing (a piece that does not parse, a file too small to cut, or a file whose
// head is not a plain Kineto object). Throws only LoadCancelled.
// lazy: read() reads the plain file at lazy->path().
std::optional<Rank> loadInPieces(const std::string& path, std::int64_t size, const ReadAt& read,
                                 std::int64_t disk, int loadOrder, const LoadOptions& options,
                                 const LazyArgs& lazy);

} // namespace sl::kineto
