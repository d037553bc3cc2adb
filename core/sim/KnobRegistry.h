#pragma once
// The one table of what-if knobs (docs/ARCHITECTURE.md, "Knob registry"). Parsing, validation,
// JSON, the replay predicate, `sightline-cli knobs`, the knob lists in --help and the GUI's knob
// panel all read it, so a knob is added in one place:
//   1. a member in SimKnobs (sim/Knobs.h) whose default means "as traced";
//   2. one KnobSpec row in KnobRegistry.cpp (scalar knobs) or one KnobFamily (keys with a
//      parameter, such as kernel.speedup[<regex>]);
//   3. the simulator code that reads the member.
#include "sim/Knobs.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sl {

enum class KnobType {
    Factor,  // a speed-up or slow-down factor, shown as "x"
    Number,  // a real number with a unit
    Integer, // a whole number
    Bool,    // true | false (also 1/0, on/off, yes/no)
    Choice,  // one of a list of words
};

// The knob panel's groups, in the panel's order (docs/WhatIfWorkbench.md, "Knob panel").
enum class KnobGroup { Gpu, Network, Cpu, DataLoading, DataParallel, Setup, Hardware, Embeddings, Other };
// "GPU", "Network", "CPU", "Data loading", "Data parallel", "Job setup", "Hardware", "Embeddings",
// "Other".
const char* knobGroupName(KnobGroup group);
// The group of a knob's key (sim/KnobGroups.cpp: one line per knob; a new knob adds its line there).
KnobGroup knobGroupOf(std::string_view key);

// The member of a Choice knob stored as an enum (SimKnobs::commModel, ...): reads and writes the
// index of its word in KnobSpec::choices, which lists the words in the enum's order.
struct KnobEnumMember {
    std::function<std::size_t(const SimKnobs&)> get;
    std::function<void(SimKnobs&, std::size_t)> set;
};

// A knob with one value (compute.speedup, comm.model, ...).
struct KnobSpec {
    std::string key;
    std::string label; // short GUI label (the knob panel's, the sweep's)
    KnobGroup group = KnobGroup::Other;
    std::string help; // what it models and a typical value, one or two sentences
    std::string unit; // "x", "us", "GB/s" or empty
    KnobType type = KnobType::Number;
    // Valid range of Factor / Number / Integer values; a Factor's lower bound is open.
    double min = 0;
    double max = 0;
    // A value outside the range with a meaning of its own ("-1 = from the trace"), and its name.
    std::optional<double> sentinel;
    std::string sentinelText;
    // Choice: the valid words. Filled when the registry is built; a knob whose words depend on data
    // (a table read at run time) gives them through choicesFn.
    std::vector<std::string> choices;
    std::function<std::vector<std::string>()> choicesFn;
    std::variant<double SimKnobs::*, int SimKnobs::*, bool SimKnobs::*, std::string SimKnobs::*,
                 KnobEnumMember>
        member;

    std::vector<std::string> validChoices() const { return choicesFn ? choicesFn() : choices; }
    // The knob's value in `k` as text ("2", "alpha-beta", "true").
    std::string valueText(const SimKnobs& k) const;
    // Parses and checks `value`, then stores it in `k`. Throws KnobError naming the key.
    void set(SimKnobs& k, const std::string& value) const;
    // The value as JSON (a number, a bool or a string; an enum choice as its word).
    nlohmann::json toJson(const SimKnobs& k) const;
    // The value range as people read it: "(0, 1e6]", "ring | tree", "true | false".
    std::string rangeText() const;
};

// Knobs whose key carries a parameter: compute.speedup.<class>, kernel.speedup[<regex>],
// kernel.class.<class>, comm.<type>.<param>, cpu.speedup[<regex>].
struct KnobFamily {
    std::string pattern; // the key as documented, e.g. "kernel.speedup[<regex>]"
    std::string help;
    // The parameter part of `key` when the key belongs to this family ("gemm" for
    // compute.speedup.gemm), nullopt otherwise.
    std::function<std::optional<std::string>(const std::string& key)> match;
    std::function<void(SimKnobs&, const std::string& key, const std::string& param, const std::string& value)>
        set;
    // Writes every entry set in `k` as "key": value.
    std::function<void(const SimKnobs&, nlohmann::json&)> write;
};

const std::vector<KnobSpec>& knobSpecs();
const std::vector<KnobFamily>& knobFamilies();
// The row of a scalar knob, nullptr when `key` is not one.
const KnobSpec* findKnobSpec(const std::string& key);

// Every knob as a table for people (`sightline-cli knobs`): key, range, default, help.
std::string knobReferenceText();
// The same as JSON: [{key, type, unit, min, max, default, choices, help}, ...].
nlohmann::json knobReferenceJson();

} // namespace sl
