#include "Samples.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sl::ui {

namespace {
struct Known {
    const char* name;
    const char* description;
    const char* lookAt;
};
// Written for the samples scripts/make-samples.sh generates.
constexpr Known kKnown[] = {
    {"01-dp8-straggler", "8 data-parallel ranks; rank 5 runs 1.3x slower",
     "Rank 5 is a straggler: watch the other ranks wait in their all-reduce kernels (press E for exposed "
     "communication, C for the critical path), then set the straggler knob's slowdown to 1 to see what it "
     "costs."},
    {"02-dp4", "4 data-parallel ranks, all alike",
     "Gradient all-reduces overlap the backward pass: press E to see which communication stays exposed, then "
     "try comm.speedup or turn overlap off in the knobs."},
    {"03-tp2-pp2", "tensor parallel 2 x pipeline parallel 2, 4 microbatches",
     "Pipeline stages wait for each other (the bubbles at the start and end of each step) and "
     "tensor-parallel "
     "all-reduces sit on the critical path: press C."},
    {"04-dp2-tp2-pp2-2nodes", "8 ranks on 2 nodes of 4 A100s: DP 2 x TP 2 x PP 2",
     "Data-parallel all-reduces cross the slower inter-node link: compare their length with the "
     "tensor-parallel ones inside a node, and try the alpha-beta network model."},
    {"05-rec-embeddings", "a recommendation model on 4 ranks: 8 embedding tables, the heavy two on rank 0",
     "Rank 0's embedding lookups are the longest and every rank's pooled all-to-all waits for them: open the "
     "Embedding tables tab, then right-click a table on rank 0 and move it to another rank."},
};
} // namespace

QString bundledDir(const QString& name, const QString& sourceDir) {
    const QString app = QCoreApplication::applicationDirPath();
    for (const QString& dir : {app + QStringLiteral("/../share/sightline/") + name, sourceDir})
        if (QFileInfo(dir).isDir()) return QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    return {};
}

QString samplesDir() {
    return bundledDir(QStringLiteral("samples"), QStringLiteral(SIGHTLINE_SAMPLES_DIR));
}

QList<Sample> bundledSamples() {
    QList<Sample> out;
    const QString dir = samplesDir();
    if (dir.isEmpty()) return out;
    for (const QFileInfo& info : QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        Sample s = sampleFor(info.absoluteFilePath());
        s.name = info.fileName();
        s.path = info.absoluteFilePath();
        if (s.description.isEmpty())
            s.description = QCoreApplication::translate("Samples", "a bundled sample");
        out.push_back(s);
    }
    return out;
}

Sample sampleFor(const QString& path) {
    Sample s;
    const QString name = QFileInfo(QDir::cleanPath(path)).fileName();
    for (const Known& k : kKnown)
        if (name == QLatin1String(k.name)) {
            s.name = name;
            s.path = path;
            s.description = QCoreApplication::translate("Samples", k.description);
            s.lookAt = QCoreApplication::translate("Samples", k.lookAt);
        }
    return s;
}

} // namespace sl::ui
