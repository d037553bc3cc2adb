#include "io/EtFolder.h"

#include "io/EtLinker.h"
#include "io/ExecutionTrace.h"
#include "io/LoadError.h"
#include "io/PathExpand.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace sl {

namespace {

bool endsWith(const std::string& s, std::string_view e) {
    return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

} // namespace

std::vector<std::string> expandEtPaths(const std::vector<std::string>& paths) {
    return expandFolders(
        paths, [](const std::string& name) { return endsWith(name, ".json") || endsWith(name, ".json.gz"); },
        "no execution trace files (.json, .json.gz) in this folder", "execution trace not found");
}

std::string EtApplied::summary() const {
    return "execution traces: " + std::to_string(files) + " file(s) linked to " +
           std::to_string(ranksLinked) + " rank(s) by " + matchedBy +
           "; collective kernels sized from them: " + std::to_string(filled) + " of " +
           std::to_string(collectives) + " (already sized " + std::to_string(alreadySized) + ", unmatched " +
           std::to_string(unmatched) + ")" +
           (opsShaped ? "; CPU ops given input shapes from them: " + std::to_string(opsShaped) : "") +
           (equalized ? "; all-to-all sizes made equal across ranks: " + std::to_string(equalized) : "");
}

EtApplied applyExecutionTraces(TraceSet& set, const std::vector<std::string>& etPaths) {
    EtApplied out;
    if (etPaths.empty()) return out;
    std::vector<std::string> files = expandEtPaths(etPaths);
    out.files = static_cast<int>(files.size());
    // Pair files with ranks: by the rank number in every file name when those are distinct and
    // loaded, else by order.
    std::vector<int> byName;
    std::set<int> distinct;
    bool namesUsable = true;
    for (const auto& f : files) {
        int r = rankFromEtFileName(f);
        byName.push_back(r);
        namesUsable = namesUsable && r >= 0 && set.findRank(r) && distinct.insert(r).second;
    }
    std::vector<std::pair<std::string, Rank*>> pairs;
    if (namesUsable) {
        out.matchedBy = "file name";
        for (std::size_t i = 0; i < files.size(); ++i)
            for (auto& r : set.ranks)
                if (r.rank == byName[i]) {
                    pairs.emplace_back(files[i], &r);
                    break;
                }
    } else {
        out.matchedBy = "order";
        if (files.size() != set.ranks.size())
            out.warnings.add(Warn::EtMatchedByOrder,
                             std::to_string(files.size()) + " execution trace(s) for " +
                                 std::to_string(set.ranks.size()) +
                                 " rank(s), and their file names do not name loaded ranks: matched by order");
        for (std::size_t i = 0; i < files.size() && i < set.ranks.size(); ++i)
            pairs.emplace_back(files[i], &set.ranks[i]);
        for (std::size_t i = set.ranks.size(); i < files.size(); ++i)
            out.warnings.add(Warn::EtNoRank, files[i] + ": no rank left for this execution trace; ignored");
    }
    std::set<int> covered;
    for (auto& [file, rank] : pairs) {
        ExecutionTrace et = loadExecutionTrace(file);
        EtLinkStats st = attachExecutionTrace(*rank, et);
        covered.insert(rank->rank);
        ++out.ranksLinked;
        out.collectives += st.collectives;
        out.filled += st.filled;
        out.alreadySized += st.alreadySized;
        out.unmatched += st.unmatched;
        out.opsShaped += st.opsShaped;
        out.warnings.append(st.warnings, "rank " + std::to_string(rank->rank) + ": ");
        if (st.linkedOps == 0)
            out.warnings.add(Warn::EtNoMatchingOps,
                             file + ": no CPU op of rank " + std::to_string(rank->rank) +
                                 " matches this execution trace (a different rank or run?)");
    }
    for (const auto& r : set.ranks)
        if (!covered.count(r.rank) && !r.collectives.empty())
            out.warnings.add(
                Warn::EtRankWithout,
                "rank " + std::to_string(r.rank) +
                    " has no execution trace: its collectives keep the sizes of the Kineto trace");
    out.equalized = harmonizeAllToAllSizes(set, &out.warnings);
    return out;
}

std::string etFolderBeside(const std::string& kinetoPath) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p(kinetoPath);
    if (!fs::is_directory(p, ec)) p = p.parent_path();
    fs::path et = isRunFolder(p.string()) ? p / "et" : p.parent_path() / "et";
    if (p.filename() == "et" || !fs::is_directory(et, ec)) return {};
    for (const auto& e : fs::directory_iterator(et, ec)) {
        std::string name = e.path().filename().string();
        if (e.is_regular_file(ec) && (endsWith(name, ".json") || endsWith(name, ".json.gz")))
            return et.string();
    }
    return {};
}

bool isRunFolder(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec) || !fs::is_directory(fs::path(path) / "kineto", ec)) return false;
    for (const auto& e : fs::directory_iterator(path, ec)) {
        std::string name = e.path().filename().string();
        if (e.is_regular_file(ec) && (endsWith(name, ".json") || endsWith(name, ".json.gz"))) return false;
    }
    return !ec;
}

} // namespace sl
