#include "io/ProfilerFileSet.h"

#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/RankFinalizer.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>

namespace sl {

namespace fs = std::filesystem;

TraceSet loadProfilerFileSet(const std::vector<std::string>& files, const LoadOptions& options,
                             const ProfilerFileLoader& loadFile) {
    if (files.empty()) throw LoadError(ErrorKind::Read, "(no input)", "no trace files given");
    TraceSet set;
    std::vector<std::string> leftOut;
    std::int64_t total = 0, done = 0;
    std::vector<std::int64_t> sizes;
    for (const auto& f : files) {
        std::error_code ec;
        const auto s = fs::file_size(f, ec);
        sizes.push_back(ec ? 0 : static_cast<std::int64_t>(s));
        total += 2 * sizes.back();
    }
    int next = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        try {
            std::vector<Rank> ranks = loadFile(files[i], next, options);
            for (auto& r : ranks) {
                next = std::max(next, r.rank + 1);
                set.ranks.push_back(std::move(r));
            }
        } catch (const LoadError& e) {
            if (!options.skipBadFiles) throw;
            leftOut.push_back(e.what());
        }
        done += 2 * sizes[i];
        if (options.progress && !options.progress(done, total)) throw LoadCancelled();
    }
    if (set.ranks.empty()) {
        if (!leftOut.empty()) throw LoadError(files.front(), leftOut.front());
        throw LoadError(files.front(), "no rank with GPU work in the file", -1, ErrorKind::Format);
    }
    for (const auto& s : leftOut)
        set.warnings.add(Warn::FileLeftOut, s + " (this file was left out)");
    finalizeTraceSet(set);
    return set;
}

namespace {

// Calls f on each regular file directly inside folder (not in its subfolders: a path such as "/"
// must not start a walk of the whole disk) until f returns false.
template <typename F> void forFilesIn(const std::string& folder, F&& f) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && !f(it->path().string())) return;
}

} // namespace

std::vector<std::string> expandProfilerFolders(const std::vector<std::string>& paths,
                                               const std::function<bool(const std::string&)>& accepts) {
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> inside;
        forFilesIn(p, [&](const std::string& f) {
            if (accepts(f)) inside.push_back(f);
            return true;
        });
        std::sort(inside.begin(), inside.end());
        out.insert(out.end(), inside.begin(), inside.end());
    }
    return out;
}

bool allProfilerInputs(const std::vector<std::string>& paths,
                       const std::function<bool(const std::string&)>& accepts) {
    if (paths.empty()) return false;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            bool any = false;
            forFilesIn(p, [&](const std::string& f) {
                any = accepts(f);
                return !any;
            });
            if (!any) return false;
        } else if (!accepts(p)) {
            return false;
        }
    }
    return true;
}

std::int64_t wholeFileByteLimit(const LoadOptions& options) {
    const std::int64_t budget = memoryBudgetBytes(options.memoryLimitBytes);
    if (budget < 0) return kMaxUncompressedBytes;
    return std::min(kMaxUncompressedBytes,
                    static_cast<std::int64_t>(static_cast<double>(budget) / kWholeParseMemoryPerJsonByte));
}

TraceBuffer readWholeProfilerFile(const std::string& path, const LoadOptions& options) {
    checkMemoryForWholeParse(path, estimateUncompressedBytes(path),
                             memoryBudgetBytes(options.memoryLimitBytes));
    return readTraceFile(path, {}, wholeFileByteLimit(options));
}

TraceBuffer decodeWholeProfilerBytes(std::string_view bytes, const std::string& name,
                                     const LoadOptions& options) {
    return decodeTraceBytes(name, bytes, wholeFileByteLimit(options));
}

std::string readFileHead(const std::string& path, std::size_t maxBytes) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return {};
    // gzread reads plain files as they are and inflates gzip ones.
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return {};
    std::string head(maxBytes, '\0');
    const int n = gzread(f, head.data(), static_cast<unsigned>(maxBytes));
    gzclose(f);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return head;
}

} // namespace sl
