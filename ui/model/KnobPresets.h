#pragma once
#include "sim/Knobs.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace sl::ui {

// A named knob setting for the knob panel's preset list.
struct KnobPreset {
    QString name;
    QString description;
    SimKnobs knobs;
};

// The presets compiled into the program (the first is replay).
std::vector<KnobPreset> builtinPresets();
// Every *.json in dir (flat knob objects with "name" and "description", as resources/presets/
// ships them), sorted by file name. Files that do not parse are skipped and named in errors.
std::vector<KnobPreset> loadPresetDir(const QString& dir, QStringList* errors = nullptr);
// Where shipped presets are looked for, first found wins: next to the installed binary
// (../share/sightline/presets), then the source tree this was built from.
QStringList presetDirs();
// base plus extra; an extra preset with the same knobs or the same name as one already listed
// replaces it in place (it has the description), so no preset appears twice.
std::vector<KnobPreset> mergePresets(std::vector<KnobPreset> base, const std::vector<KnobPreset>& extra);
// builtinPresets() merged with the first directory of presetDirs() that exists.
std::vector<KnobPreset> availablePresets();

} // namespace sl::ui
