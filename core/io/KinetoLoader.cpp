#include "io/KinetoLoader.h"

#include "io/FileReader.h"
#include "io/GzipIndex.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/kineto/GzipPipeline.h"
#include "io/kineto/KinetoParser.h"
#include "io/kineto/PiecePipeline.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <regex>

// The loader's entry points for one file. The parser and the piece pipelines are in io/kineto/
// (docs/Loader.md); a set of files is loaded by io/TraceSetLoader.cpp.
namespace sl {

using namespace kineto;

namespace {

// tryPieces: parse in pieces when the file is large enough (false when that was tried already).
// lazy: buffer holds the contents of the file at lazy->path() as it is on disk.
Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options, bool tryPieces = true, const LazyArgs& lazy = nullptr);

// The most uncompressed JSON one file may hold within a memory budget (see io/MemoryLimits.h).
// perJsonByte: kWholeParseMemoryPerJsonByte for a file read whole.
std::int64_t perFileLimit(std::int64_t budget, double perJsonByte = kMemoryPerJsonByte) {
    if (budget < 0) return kMaxUncompressedBytes;
    return std::min(kMaxUncompressedBytes,
                    static_cast<std::int64_t>(static_cast<double>(budget) / perJsonByte));
}

} // namespace

int rankFromFileName(const std::string& path) {
    std::string base = std::filesystem::path(path).filename().string();
    static const std::regex patterns[] = {
        std::regex(R"((?:^|[^a-z])rank[-_]?(\d+))", std::regex::icase),
        std::regex(R"((?:^|[^a-z])worker[-_]?(\d+))", std::regex::icase),
    };
    for (const auto& re : patterns) {
        std::smatch m;
        if (std::regex_search(base, m, re)) {
            try {
                long v = std::stol(m[1].str());
                if (v >= 0 && v < (1 << 24)) return static_cast<int>(v);
            } catch (...) {
            }
        }
    }
    return -1;
}

Rank loadKinetoFile(const std::string& path, int loadOrder, const LoadOptions& options) {
    std::int64_t disk = std::max<std::int64_t>(fileSizeOnDisk(path), 0);
    ByteProgressFn readProgress;
    if (options.progress) readProgress = [&](std::int64_t done) { return options.progress(done, 2 * disk); };
    std::int64_t budget = memoryBudgetBytes(options.memoryLimitBytes);
    checkMemoryForLoad({path}, path, budget);
    bool triedPieces = false;
    LazyArgs lazy;
    std::optional<TraceBuffer> small;
    if (BlockFile file; file.open(path)) {
        // A plain file: events keep the byte range of their args, read back on demand.
        lazy = std::make_shared<const LazyArgsFile>(path, file.stamp());
        if (file.size() <= perFileLimit(budget)) {
            // Read piece by piece: only the pieces being parsed are in memory.
            ReadAt read = [&](std::int64_t offset, std::size_t len, char* dst) {
                file.read(offset, len, dst);
            };
            if (auto rank = loadInPieces(path, file.size(), read, disk, loadOrder, options, lazy))
                return std::move(*rank);
            triedPieces = true;
        }
    } else {
        // gzip: inflated in a producer thread and parsed in pieces as the data comes.
        if (auto rank = loadGzipInPieces(path, disk, loadOrder, options, perFileLimit(budget), small, lazy))
            return std::move(*rank);
        triedPieces = true;
    }
    // The whole text, its index and the model at once (io/MemoryLimits.h, limit 4).
    if (!small) checkMemoryForWholeParse(path, estimateUncompressedBytes(path), budget);
    // A gzip file parsed whole after its pieces failed is inflated again, with new checkpoints.
    std::shared_ptr<GzipIndex> index;
    const FileStamp stampBefore = FileStamp::ofPath(path);
    if (!lazy && !small) index = std::make_shared<GzipIndex>();
    TraceBuffer buffer = small
                             ? std::move(*small)
                             : readTraceFile(path, readProgress,
                                             perFileLimit(budget, kWholeParseMemoryPerJsonByte), index.get());
    if (index && index->finished()) lazy = std::make_shared<const LazyArgsFile>(path, stampBefore, index);
    // The whole-file read is the file the args are read back from only if it did not change in between.
    if (lazy && (FileStamp::ofPath(path) != lazy->stamp() ||
                 buffer.size() != (lazy->contents() ? lazy->contents()->size()
                                                    : static_cast<std::uint64_t>(lazy->stamp().size))))
        lazy = nullptr;
    return loadKinetoBuffer(path, buffer, disk, loadOrder, options, !triedPieces, lazy);
}

Rank loadKinetoBytes(std::string_view bytes, const std::string& name, int loadOrder,
                     const LoadOptions& options) {
    TraceBuffer buffer =
        decodeTraceBytes(name, bytes, perFileLimit(memoryBudgetBytes(options.memoryLimitBytes)));
    return loadKinetoBuffer(name, buffer, static_cast<std::int64_t>(bytes.size()), loadOrder, options);
}

namespace {

Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options, bool tryPieces, const LazyArgs& lazy) {
    // Inflated gzip and bytes in memory are parsed in pieces too (the parser's index stays small).
    ReadAt read = [&](std::int64_t offset, std::size_t len, char* dst) {
        std::memcpy(dst, buffer.data() + offset, len);
    };
    if (tryPieces) {
        if (auto pieces = loadInPieces(path, static_cast<std::int64_t>(buffer.size()), read, disk, loadOrder,
                                       options, lazy))
            return std::move(*pieces);
    }
    Rank rank = newRank(path, static_cast<std::int64_t>(buffer.size()), loadOrder);
    std::function<bool(std::int64_t)> parseProgress;
    if (options.progress) {
        double scale = buffer.size() ? static_cast<double>(disk) / static_cast<double>(buffer.size()) : 0.0;
        parseProgress = [&, scale](std::int64_t parsed) {
            return options.progress(disk + static_cast<std::int64_t>(static_cast<double>(parsed) * scale),
                                    2 * disk);
        };
    }
    rank.argsFile = lazy;
    KinetoParser parser(path, buffer, rank, options, parseProgress);
    if (lazy) parser.setLazyArgs(); // the buffer is the file from byte 0: file base 0
    parser.parse();
    settleRank(rank, path, disk, options);
    return rank;
}

} // namespace

} // namespace sl
