#pragma once
#include <QList>
#include <QString>

namespace sl::ui {

// A bundled sample trace set (samples/ in the source tree, share/sightline/samples when installed),
// with what it shows and what to look at once it is open.
struct Sample {
    QString name; // folder name, e.g. "01-dp8-straggler"
    QString path; // absolute folder path
    QString description;
    QString lookAt;
};

// A folder of bundled data: share/sightline/<name> next to the installed program, else `sourceDir`
// (the source tree's); empty when neither exists.
QString bundledDir(const QString& name, const QString& sourceDir);
// The folder holding the bundled samples: next to the installed program, else the source tree's;
// empty when neither exists.
QString samplesDir();
// The bundled samples found in samplesDir(), in name order (with their descriptions when known).
QList<Sample> bundledSamples();
// The sample a loaded path is (matched by folder name), or an empty Sample.
Sample sampleFor(const QString& path);

} // namespace sl::ui
