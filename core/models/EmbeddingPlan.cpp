#include "models/EmbeddingPlan.h"

#include "base/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace sl {

namespace {

[[noreturn]] void bad(const std::string& file, const std::string& what) {
    throw Error(ErrorKind::Format, file, what);
}

nlohmann::json parseObject(std::string_view text, const std::string& file) {
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) throw Error(ErrorKind::Parse, file, "not valid JSON");
    return j;
}

double number(const nlohmann::json& o, const char* key, const std::string& file, const std::string& where,
              double fallback, bool required) {
    auto it = o.find(key);
    if (it == o.end()) {
        if (required) bad(file, where + " has no \"" + key + "\"");
        return fallback;
    }
    if (!it->is_number()) bad(file, where + ": \"" + key + "\" is not a number");
    const double v = it->get<double>();
    if (!std::isfinite(v)) bad(file, where + ": \"" + key + "\" is not finite");
    return v;
}

int rankValue(const nlohmann::json& v, const std::string& file, const std::string& table, int worldSize) {
    if (!v.is_number_integer()) bad(file, "table " + table + ": a rank is not an integer");
    const auto r = v.get<std::int64_t>();
    if (r < 0 || r >= worldSize)
        bad(file, "table " + table + ": rank " + std::to_string(r) + " is not in the job (ranks 0.." +
                      std::to_string(worldSize - 1) + ")");
    return static_cast<int>(r);
}

Sharding shardingFromName(const std::string& s, const std::string& file, const std::string& table) {
    for (Sharding k : {Sharding::TableWise, Sharding::RowWise, Sharding::ColumnWise, Sharding::DataParallel})
        if (shardingName(k) == s) return k;
    bad(file, "table " + table + ": unknown sharding \"" + s +
                  "\" (table_wise, row_wise, column_wise, data_parallel)");
}

TablePlacement placementOf(const nlohmann::json& v, int table, const std::string& name,
                           const std::string& file, int worldSize) {
    TablePlacement p;
    p.table = table;
    if (v.is_number()) {
        p.ranks = {rankValue(v, file, name, worldSize)};
        return p;
    }
    if (v.is_string()) {
        p.sharding = shardingFromName(v.get<std::string>(), file, name);
        if (p.sharding != Sharding::DataParallel)
            bad(file, "table " + name + ": " + v.get<std::string>() + " needs \"ranks\"");
        return p;
    }
    if (!v.is_object())
        bad(file, "table " + name + ": a placement is a rank, \"data_parallel\" or an object");
    if (auto s = v.find("sharding"); s != v.end()) {
        if (!s->is_string()) bad(file, "table " + name + ": \"sharding\" is not text");
        p.sharding = shardingFromName(s->get<std::string>(), file, name);
    }
    if (auto r = v.find("rank"); r != v.end()) p.ranks = {rankValue(*r, file, name, worldSize)};
    if (auto rs = v.find("ranks"); rs != v.end()) {
        if (!rs->is_array()) bad(file, "table " + name + ": \"ranks\" is not a list");
        p.ranks.clear();
        for (const auto& r : *rs)
            p.ranks.push_back(rankValue(r, file, name, worldSize));
    }
    std::set<int> distinct(p.ranks.begin(), p.ranks.end());
    if (distinct.size() != p.ranks.size()) bad(file, "table " + name + ": a rank is listed twice");
    if (p.sharding == Sharding::DataParallel) {
        p.ranks.clear();
    } else if (p.ranks.empty()) {
        bad(file, "table " + name + ": no rank");
    } else if (p.sharding == Sharding::TableWise && p.ranks.size() != 1) {
        bad(file, "table " + name + ": table_wise takes one rank");
    }
    return p;
}

} // namespace

int EmbeddingTables::find(std::string_view name) const {
    for (std::size_t i = 0; i < tables.size(); ++i)
        if (tables[i].name == name) return static_cast<int>(i);
    return -1;
}

std::string_view shardingName(Sharding s) {
    switch (s) {
    case Sharding::TableWise:
        return "table_wise";
    case Sharding::RowWise:
        return "row_wise";
    case Sharding::ColumnWise:
        return "column_wise";
    case Sharding::DataParallel:
        return "data_parallel";
    }
    return "table_wise";
}

EmbeddingPlan tracedPlan(const EmbeddingTables& tables) {
    EmbeddingPlan plan;
    plan.source = "traced";
    for (std::size_t t = 0; t < tables.tables.size(); ++t) {
        const auto& tb = tables.tables[t];
        if (tb.tracedRank < 0)
            bad(tables.source, "table " + tb.name + " has no \"rank\": where the traced job holds it");
        plan.placements.push_back({static_cast<int>(t), Sharding::TableWise, {tb.tracedRank}});
    }
    return plan;
}

EmbeddingTables parseEmbeddingTables(std::string_view json, const std::string& file) {
    const auto j = parseObject(json, file);
    if (!j.is_object() || !j.contains("tables") || !j["tables"].is_array())
        bad(file, "expected an object with a \"tables\" list");
    EmbeddingTables out;
    out.source = file;
    const double batch = number(j, "batch_per_rank", file, "the file", 0, false);
    if (batch < 0 || batch > 1e9) bad(file, "\"batch_per_rank\" must be in [0, 1e9]");
    out.batchPerRank = static_cast<std::int64_t>(batch);
    for (const auto& t : j["tables"]) {
        if (!t.is_object() || !t.contains("name") || !t["name"].is_string())
            bad(file, "every table needs a \"name\"");
        EmbeddingTable tb;
        tb.name = t["name"].get<std::string>();
        const std::string where = "table " + tb.name;
        if (out.find(tb.name) >= 0) bad(file, where + " is listed twice");
        // Checked against their ranges before any conversion to an integer.
        const double rows = number(t, "rows", file, where, 0, true),
                     dim = number(t, "dim", file, where, 0, true);
        const double bytes = number(t, "bytes_per_element", file, where, 4, false);
        const double rank = number(t, "rank", file, where, -1, false);
        tb.pooling = number(t, "pooling", file, where, 1, false);
        if (rows <= 0 || dim <= 0 || tb.pooling <= 0 || bytes <= 0)
            bad(file, where + ": rows, dim, pooling and bytes_per_element must be above 0");
        if (rows > 1e15 || dim > 1e6 || tb.pooling > 1e6 || bytes > 16 || rank > 1e6 || rank < -1)
            bad(file,
                where +
                    ": rows (at most 1e15), dim, pooling (1e6), bytes_per_element (16) or rank out of range");
        tb.rows = static_cast<std::int64_t>(rows);
        tb.dim = static_cast<int>(dim);
        tb.bytesPerElement = static_cast<int>(bytes);
        tb.tracedRank = static_cast<int>(rank);
        if (auto r = t.find("reuse"); r != t.end()) {
            if (!r->is_array()) bad(file, where + ": \"reuse\" is not a list of [distance, share]");
            double total = 0, last = -1;
            for (const auto& bin : *r) {
                if (!bin.is_array() || bin.size() != 2 || !bin[0].is_number() || !bin[1].is_number())
                    bad(file, where + ": a \"reuse\" entry is not [distance, share]");
                const double d = bin[0].get<double>(), s = bin[1].get<double>();
                if (d <= last || s < 0) bad(file, where + ": \"reuse\" distances must grow, shares be >= 0");
                last = d;
                total += s;
                tb.reuse.emplace_back(d, s);
            }
            if (total > 1.0 + 1e-9) bad(file, where + ": \"reuse\" shares add up to more than 1");
        }
        out.tables.push_back(std::move(tb));
    }
    if (out.tables.empty()) bad(file, "no tables");
    return out;
}

EmbeddingPlan parseEmbeddingPlan(std::string_view json, const std::string& file,
                                 const EmbeddingTables& tables, int worldSize) {
    const auto j = parseObject(json, file);
    EmbeddingPlan plan;
    plan.source = file;
    std::vector<int> given(tables.tables.size(), 0);
    auto place = [&](const std::string& name, const nlohmann::json& v) {
        const int t = tables.find(name);
        if (t < 0)
            bad(file, "table " + name + " is not in " +
                          (tables.source.empty() ? std::string("the trace's tables") : tables.source));
        if (given[static_cast<std::size_t>(t)]++) bad(file, "table " + name + " is listed twice");
        plan.placements.push_back(placementOf(v, t, name, file, worldSize));
    };
    const nlohmann::json* list = &j;
    if (j.is_object() && j.contains("tables")) list = &j["tables"];
    if (list->is_object()) {
        for (auto it = list->begin(); it != list->end(); ++it)
            place(it.key(), it.value());
    } else if (list->is_array()) {
        for (const auto& e : *list) {
            if (!e.is_object() || !e.contains("table") || !e["table"].is_string())
                bad(file, "every entry needs a \"table\" name");
            place(e["table"].get<std::string>(), e);
        }
    } else {
        bad(file, "expected {\"tables\": {NAME: placement}} or a list of placements");
    }
    // Tables the plan leaves out stay where the trace has them.
    for (std::size_t t = 0; t < tables.tables.size(); ++t) {
        if (given[t]) continue;
        const int r = tables.tables[t].tracedRank;
        if (r < 0 || r >= worldSize)
            bad(file, "table " + tables.tables[t].name +
                          " has no place: the plan does not name it and the "
                          "trace's rank for it is unknown");
        plan.placements.push_back({static_cast<int>(t), Sharding::TableWise, {r}});
    }
    std::sort(plan.placements.begin(), plan.placements.end(),
              [](const TablePlacement& a, const TablePlacement& b) { return a.table < b.table; });
    return plan;
}

std::string embeddingPlanJson(const EmbeddingPlan& plan, const EmbeddingTables& tables) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    nlohmann::ordered_json t = nlohmann::ordered_json::object();
    for (const auto& p : plan.placements) {
        const std::string& name = tables.tables[static_cast<std::size_t>(p.table)].name;
        if (p.sharding == Sharding::TableWise)
            t[name] = p.ranks.front();
        else if (p.sharding == Sharding::DataParallel)
            t[name] = "data_parallel";
        else
            t[name] = {{"sharding", shardingName(p.sharding)}, {"ranks", p.ranks}};
    }
    out["tables"] = std::move(t);
    return out.dump();
}

std::vector<TableShard> planShards(const EmbeddingPlan& plan, const EmbeddingTables& tables, int worldSize,
                                   std::int64_t batchPerRank) {
    std::vector<TableShard> out;
    const double W = worldSize, B = static_cast<double>(batchPerRank);
    for (const auto& p : plan.placements) {
        const auto& tb = tables.tables[static_cast<std::size_t>(p.table)];
        if (p.sharding == Sharding::DataParallel) {
            for (int r = 0; r < worldSize; ++r)
                out.push_back({p.table, r, 1, 1, B * tb.pooling, B, false});
            continue;
        }
        const double k = static_cast<double>(p.ranks.size());
        for (int r : p.ranks) {
            TableShard s{p.table, r, 1, 1, W * B * tb.pooling, W * B, true};
            if (p.sharding == Sharding::RowWise) {
                s.rowShare = 1 / k;
                s.lookups /= k;
            } else if (p.sharding == Sharding::ColumnWise) {
                s.dimShare = 1 / k;
            }
            out.push_back(s);
        }
    }
    return out;
}

double ExchangeBytes::peak() const {
    double m = 0;
    for (std::size_t r = 0; r < send.size(); ++r)
        m = std::max({m, send[r], receive[r]});
    return m;
}

double ExchangeBytes::total() const {
    double t = 0;
    for (double s : send)
        t += s;
    return t;
}

ExchangeBytes pooledExchange(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                             int worldSize, std::int64_t batchPerRank) {
    ExchangeBytes x{std::vector<double>(static_cast<std::size_t>(worldSize)),
                    std::vector<double>(static_cast<std::size_t>(worldSize))};
    const double B = static_cast<double>(batchPerRank), others = worldSize - 1;
    for (const auto& s : shards) {
        if (!s.exchanged) continue;
        const auto& tb = tables.tables[static_cast<std::size_t>(s.table)];
        const double perPeer = B * tb.rowBytes() * s.dimShare;
        x.send[static_cast<std::size_t>(s.rank)] += perPeer * others;
        for (int r = 0; r < worldSize; ++r)
            if (r != s.rank) x.receive[static_cast<std::size_t>(r)] += perPeer;
    }
    return x;
}

ExchangeBytes indexExchange(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                            int worldSize, std::int64_t batchPerRank) {
    ExchangeBytes x{std::vector<double>(static_cast<std::size_t>(worldSize)),
                    std::vector<double>(static_cast<std::size_t>(worldSize))};
    const double B = static_cast<double>(batchPerRank), others = worldSize - 1;
    constexpr double kIndexBytes = 8;
    for (const auto& s : shards) {
        if (!s.exchanged) continue;
        const auto& tb = tables.tables[static_cast<std::size_t>(s.table)];
        const double perPeer = B * tb.pooling * s.rowShare * kIndexBytes;
        x.receive[static_cast<std::size_t>(s.rank)] += perPeer * others;
        for (int r = 0; r < worldSize; ++r)
            if (r != s.rank) x.send[static_cast<std::size_t>(r)] += perPeer;
    }
    return x;
}

} // namespace sl
