#include "KnobPresets.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <exception>

namespace sl::ui {

std::vector<KnobPreset> builtinPresets() {
    std::vector<KnobPreset> out;
    auto add = [&](const char* name, const char* description, auto edit) {
        KnobPreset p{QCoreApplication::translate("KnobPresets", name),
                     QCoreApplication::translate("KnobPresets", description),
                     {}};
        edit(p.knobs);
        out.push_back(std::move(p));
    };
    add("Replay (measured)", "Every knob at its default: the simulator replays the trace.", [](SimKnobs&) {});
    add("2x faster GPU compute", "compute.speedup = 2", [](SimKnobs& k) { k.computeSpeedup = 2; });
    add("2x faster network", "comm.speedup = 2", [](SimKnobs& k) { k.commSpeedup = 2; });
    add("No compute/comm overlap", "comm.overlap = false", [](SimKnobs& k) { k.commOverlap = false; });
    add("Rank 0 straggles 1.5x", "straggler.rank = 0, straggler.slowdown = 1.5", [](SimKnobs& k) {
        k.stragglerRank = 0;
        k.stragglerSlowdown = 1.5;
    });
    add("4x data-parallel scale", "dp.scale = 4", [](SimKnobs& k) { k.dpScale = 4; });
    return out;
}

std::vector<KnobPreset> loadPresetDir(const QString& dir, QStringList* errors) {
    std::vector<KnobPreset> out;
    const QDir d(dir);
    for (const QString& name : d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile f(d.filePath(name));
        try {
            if (!f.open(QIODevice::ReadOnly) || f.size() > 1024 * 1024)
                throw std::runtime_error("cannot read");
            const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString());
            KnobPreset p;
            applyKnobsJson(p.knobs, j);
            p.name = j.contains("name") && j["name"].is_string()
                         ? QString::fromStdString(j["name"].get<std::string>())
                         : QFileInfo(name).baseName();
            if (j.contains("description") && j["description"].is_string())
                p.description = QString::fromStdString(j["description"].get<std::string>());
            out.push_back(std::move(p));
        } catch (const std::exception& e) {
            if (errors)
                errors->push_back(QStringLiteral("%1: %2").arg(f.fileName(), QString::fromUtf8(e.what())));
        }
    }
    return out;
}

QStringList presetDirs() {
    QStringList dirs;
    if (QCoreApplication::instance())
        dirs.push_back(QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                       QStringLiteral("/../share/sightline/presets")));
#ifdef SIGHTLINE_PRESETS_DIR
    dirs.push_back(QStringLiteral(SIGHTLINE_PRESETS_DIR));
#endif
    return dirs;
}

std::vector<KnobPreset> mergePresets(std::vector<KnobPreset> base, const std::vector<KnobPreset>& extra) {
    for (const KnobPreset& p : extra) {
        auto same = std::find_if(base.begin(), base.end(), [&](const KnobPreset& b) {
            return b.knobs == p.knobs || b.name.compare(p.name, Qt::CaseInsensitive) == 0;
        });
        if (same != base.end())
            *same = p;
        else
            base.push_back(p);
    }
    return base;
}

std::vector<KnobPreset> availablePresets() {
    for (const QString& dir : presetDirs())
        if (QDir(dir).exists()) return mergePresets(builtinPresets(), loadPresetDir(dir));
    return builtinPresets();
}

} // namespace sl::ui
