#include "Lesson.h"

#include "Samples.h"

#include "sim/Knobs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace sl::ui {

namespace {

// A lesson file's problem, with where in the file it is.
struct Bad : std::runtime_error {
    using std::runtime_error::runtime_error;
};

QString stringField(const nlohmann::json& j, const char* key, bool required, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required) throw Bad(where + "'" + key + "' is missing");
        return {};
    }
    if (!it->is_string()) throw Bad(where + "'" + key + "' must be a string");
    return QString::fromStdString(it->get<std::string>());
}

// A knob value as text for setKnob: numbers as written, booleans as true/false.
std::string knobValue(const nlohmann::json& v, const std::string& where) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number()) return v.dump();
    throw Bad(where + "a knob value must be a number, a string or true / false");
}

// `focus`: {"ranks": [2, 3], "tracks": ["cpu", "gpu"]}; every key checked, none ignored.
void readFocus(const nlohmann::json& f, const std::string& where, LessonStep& step) {
    const std::string usage = "'focus' must be {\"ranks\": [R, ...], \"tracks\": [\"cpu\", \"gpu\"]}";
    if (!f.is_object() || !f.contains("ranks")) throw Bad(where + usage);
    for (auto it = f.begin(); it != f.end(); ++it)
        if (it.key() != "ranks" && it.key() != "tracks")
            throw Bad(where + "focus: unknown key '" + it.key() + "'; " + usage);
    const nlohmann::json& ranks = f["ranks"];
    if (!ranks.is_array() || ranks.empty()) throw Bad(where + "focus: 'ranks' must be a list of rank ids");
    for (const auto& r : ranks) {
        if (!r.is_number_integer() || r.get<int>() < 0)
            throw Bad(where + "focus: ranks: " + r.dump() + " is not a rank id (an integer >= 0)");
        step.focusRanks.push_back(r.get<int>());
    }
    if (const auto t = f.find("tracks"); t != f.end()) {
        if (!t->is_array() || t->empty())
            throw Bad(where + "focus: 'tracks' must be a list of \"cpu\" / \"gpu\"");
        step.focusGpu = false;
        for (const auto& v : *t) {
            const std::string name = v.is_string() ? v.get<std::string>() : v.dump();
            if (name == "cpu")
                step.focusCpu = true;
            else if (name == "gpu")
                step.focusGpu = true;
            else
                throw Bad(where + "focus: tracks: " + name + " is not \"cpu\" or \"gpu\"");
        }
    }
}

LessonStep readStep(const nlohmann::json& s, int index) {
    const std::string where = "step " + std::to_string(index) + ": ";
    if (!s.is_object()) throw Bad(where + "must be an object");
    // A misspelt key would silently drop what the step means to show.
    static const char* const known[] = {"title",     "text",     "question", "answer", "knobs",
                                        "highlight", "range_ms", "select",   "focus"};
    for (auto it = s.begin(); it != s.end(); ++it)
        if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known))
            throw Bad(where + "unknown key '" + it.key() +
                      "' (title, text, question, answer, knobs, highlight, range_ms, select, focus)");
    LessonStep step;
    step.title = stringField(s, "title", false, where);
    step.text = stringField(s, "text", true, where);
    step.question = stringField(s, "question", false, where);
    step.answer = stringField(s, "answer", false, where);
    if (!step.answer.isEmpty() && step.question.isEmpty())
        throw Bad(where + "an 'answer' needs a 'question'");
    if (const auto k = s.find("knobs"); k != s.end()) {
        if (!k->is_object()) throw Bad(where + "'knobs' must be an object of key: value");
        for (auto it = k->begin(); it != k->end(); ++it) {
            const std::string value = knobValue(it.value(), where + "knobs: " + it.key() + ": ");
            try {
                setKnob(step.knobs, it.key(), value);
            } catch (const std::exception& e) {
                throw Bad(where + "knobs: " + e.what());
            }
            step.knobText << QStringLiteral("%1 = %2").arg(QString::fromStdString(it.key()),
                                                           QString::fromStdString(value));
        }
    }
    if (const auto h = s.find("highlight"); h != s.end()) {
        if (!h->is_array())
            throw Bad(where + "'highlight' must be a list of \"critical-path\" / \"exposed\"");
        for (const auto& v : *h) {
            const std::string name = v.is_string() ? v.get<std::string>() : std::string();
            if (name == "critical-path")
                step.criticalPath = true;
            else if (name == "exposed")
                step.exposed = true;
            else
                throw Bad(where + "highlight: " + (name.empty() ? v.dump() : name) +
                          " is not \"critical-path\" or \"exposed\"");
        }
    }
    if (const auto r = s.find("range_ms"); r != s.end()) {
        if (!r->is_array() || r->size() != 2 || !(*r)[0].is_number() || !(*r)[1].is_number())
            throw Bad(where + "'range_ms' must be [from, to] in ms from the trace's start");
        step.fromMs = (*r)[0].get<double>();
        step.toMs = (*r)[1].get<double>();
        if (step.fromMs < 0 || step.toMs <= step.fromMs)
            throw Bad(where + "range_ms: 'to' must be after 'from' >= 0");
    }
    if (const auto sel = s.find("select"); sel != s.end()) {
        if (!sel->is_object() || !sel->contains("name") || !(*sel)["name"].is_string())
            throw Bad(where +
                      "'select' must be {\"rank\": R, \"name\": \"part of an event name\", \"nth\": N}");
        step.selectName = QString::fromStdString((*sel)["name"].get<std::string>());
        if (step.selectName.isEmpty()) throw Bad(where + "select: 'name' is empty");
        const auto rank = sel->find("rank");
        const auto nth = sel->find("nth");
        if ((rank != sel->end() && !rank->is_number_integer()) ||
            (nth != sel->end() && !nth->is_number_integer()))
            throw Bad(where + "select: 'rank' and 'nth' must be integers");
        step.selectRank = rank != sel->end() ? rank->get<int>() : 0;
        step.selectNth = nth != sel->end() ? nth->get<int>() : 1;
        if (step.selectRank < 0 || step.selectNth < 1)
            throw Bad(where + "select: 'rank' >= 0 and 'nth' >= 1");
    }
    if (const auto f = s.find("focus"); f != s.end()) readFocus(*f, where, step);
    return step;
}

} // namespace

QString readLessonFile(const QString& path, Lesson& out) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("%1: cannot read the lesson file").arg(path);
    if (file.size() > 4 * 1024 * 1024)
        return QStringLiteral("%1: too large for a lesson (over 4 MB)").arg(path);
    const QByteArray bytes = file.readAll();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const nlohmann::json::parse_error& e) {
        // "parse error at line 3, column 5: syntax error ..." without the library's prefix.
        std::string what = e.what();
        if (const auto at = what.find("parse error"); at != std::string::npos) what = what.substr(at);
        return QStringLiteral("%1: not JSON: %2").arg(path, QString::fromStdString(what));
    }
    try {
        if (!j.is_object())
            throw Bad("a lesson is a JSON object with 'title', 'sample' (or 'trace') and 'steps'");
        Lesson l;
        l.path = path;
        l.title = stringField(j, "title", true, "");
        l.summary = stringField(j, "summary", false, "");
        const QString sample = stringField(j, "sample", false, "");
        const QString trace = stringField(j, "trace", false, "");
        if (sample.isEmpty() == trace.isEmpty())
            throw Bad("give either 'sample' (a bundled sample) or 'trace'");
        if (!sample.isEmpty()) {
            const QString dir = samplesDir();
            l.trace = dir.isEmpty() ? QString() : QDir(dir).filePath(sample);
            if (l.trace.isEmpty() || !QFileInfo(l.trace).isDir())
                throw Bad("sample '" + sample.toStdString() + "' is not a bundled sample");
        } else {
            l.trace = QFileInfo(QFileInfo(path).dir(), trace).absoluteFilePath();
            if (!QFileInfo::exists(l.trace)) throw Bad("trace '" + trace.toStdString() + "' does not exist");
        }
        const auto steps = j.find("steps");
        if (steps == j.end() || !steps->is_array() || steps->empty())
            throw Bad("'steps' must be a list of at least one step");
        int index = 1;
        for (const auto& s : *steps)
            l.steps.push_back(readStep(s, index++));
        out = std::move(l);
    } catch (const Bad& e) {
        return QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
    }
    return {};
}

QString lessonsDir() {
    return bundledDir(QStringLiteral("lessons"), QStringLiteral(SIGHTLINE_LESSONS_DIR));
}

QStringList bundledLessons() {
    QStringList out;
    const QString dir = lessonsDir();
    if (dir.isEmpty()) return out;
    for (const QFileInfo& info : QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        out << info.absoluteFilePath();
    return out;
}

} // namespace sl::ui
