#include "report/JobSummaryFile.h"

#include "base/Error.h"
#include "report/JsonFields.h"
#include "trace/Collective.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace sl {

namespace {

using Json = nlohmann::json;

TimeNs ns(double us) {
    return static_cast<TimeNs>(std::llround(us * 1000.0));
}

CollectiveType typeNamed(const std::string& name) {
    for (int t = 0; t < static_cast<int>(CollectiveType::Count); ++t)
        if (collectiveTypeName(static_cast<CollectiveType>(t)) == name) return static_cast<CollectiveType>(t);
    return CollectiveType::Unknown;
}

// A summary of an older module may lack a field: it reads as 0.
using jsonfields::number;

} // namespace

JobSummaryFile readJobSummaryFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorKind::Read, path, "cannot read the job summary");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw Error(ErrorKind::Parse, path, std::string("not JSON: ") + e.what());
    }
    const auto bad = [&](const std::string& what) {
        return Error(ErrorKind::Format, path, "not a job summary (sightline.summarize(...).save): " + what);
    };
    if (!j.is_object() || !j.contains("ranks") || !j["ranks"].is_array()) throw bad("no 'ranks' list");
    if (!j.contains("collectives") || !j["collectives"].is_object()) throw bad("no 'collectives' object");
    JobSummaryFile out;
    std::map<int, std::uint32_t> indexOf; // rank id -> index into out.ranks
    try {
        for (const Json& r : j["ranks"]) {
            JobSummaryFile::Rank row;
            row.rank = r.at("rank").get<int>();
            row.path = r.value("path", std::string());
            row.measuredUs = number(r, "measured_us");
            if (const auto m = r.find("measured"); m != r.end() && m->is_object()) {
                row.computeUs = number(*m, "compute_us");
                row.commUs = number(*m, "comm_us");
                row.exposedCommUs = number(*m, "exposed_comm_us");
                row.idleUs = number(*m, "idle_us");
            }
            if (const auto a = r.find("alone"); a != r.end() && a->is_object())
                row.pinnedSharePct = number(*a, "pinned_share_pct");
            if (!indexOf.emplace(row.rank, static_cast<std::uint32_t>(out.ranks.size())).second)
                throw bad("rank " + std::to_string(row.rank) + " is listed twice");
            out.ranks.push_back(std::move(row));
        }
        const auto rankIndex = [&](const Json& id) {
            const auto it = indexOf.find(id.get<int>());
            if (it == indexOf.end())
                throw bad("a collective names rank " + id.dump() + ", which 'ranks' lacks");
            return it->second;
        };
        const Json& c = j["collectives"];
        out.arrivals.ranks.resize(out.ranks.size());
        for (std::size_t i = 0; i < out.ranks.size(); ++i) {
            out.arrivals.ranks[i].rank = static_cast<std::uint32_t>(i);
            out.arrivals.ranks[i].rankId = out.ranks[i].rank;
        }
        for (const Json& w : c.value("ranks", Json::array())) {
            RankWaiting& rw = out.arrivals.ranks[rankIndex(w.at("rank"))];
            rw.collectives = w.value("collectives", std::int64_t{0});
            rw.timesLast = w.value("times_last", std::int64_t{0});
            rw.waited = ns(number(w, "waited_us"));
            rw.madeOthersWait = ns(number(w, "made_others_wait_us"));
        }
        out.arrivals.waitedForPhantoms = ns(number(c, "waited_for_phantoms_us"));
        for (const Json& col : c.value("collectives", Json::array())) {
            CollectiveArrival a;
            a.type = typeNamed(col.value("type", std::string()));
            a.processGroup = col.value("group", std::string());
            a.groupRanks = col.value("group_ranks", std::vector<std::int32_t>{});
            a.size = col.value("size", 0);
            a.bytes = col.value("bytes", std::int64_t{-1});
            a.first = ns(number(col, "first_us"));
            a.spread = ns(number(col, "spread_us"));
            a.lastArrival = a.first + a.spread;
            a.phantomPeers = col.value("phantom_peers", 0);
            if (a.phantomPeers > 0) a.phantomArrival = ns(number(col, "phantom_arrival_us"));
            a.lastIsPhantom = col.contains("last_rank") && col["last_rank"].is_string();
            for (const Json& r : col.at("arrivals")) {
                RankArrival ra;
                ra.rank = rankIndex(r.at("rank"));
                ra.arrival = ns(number(r, "arrival_us"));
                ra.start = ns(number(r, "start_us"));
                ra.end = ns(number(r, "end_us"));
                ra.waited = ns(number(r, "waited_us"));
                a.ranks.push_back(ra);
            }
            if (a.ranks.empty()) throw bad("a collective without arrivals");
            out.arrivals.collectives.push_back(std::move(a));
        }
        for (const Json& m : j.value("missing", Json::array()))
            out.missing.push_back({m.value("path", std::string()), m.value("error", std::string())});
        out.collectivesLeftOut = j.value("collectives_left_out", std::int64_t{0});
        out.pointToPointLeftOut = j.value("point_to_point_left_out", std::int64_t{0});
        out.complete = j.value("complete", false);
    } catch (const Json::exception& e) {
        throw bad(e.what());
    }
    return out;
}

} // namespace sl
