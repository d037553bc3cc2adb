#include "DialogDir.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace sl::ui {

QString dialogDir(const QString& fileName) {
    QString dir = QSettings().value(QStringLiteral("dialogs/lastDir")).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QDir::homePath();
    return fileName.isEmpty() ? dir : QDir(dir).filePath(fileName);
}

void rememberDir(const QString& path) {
    const QFileInfo info(path);
    const QString dir = info.isDir() ? info.absoluteDir().absolutePath() : info.absolutePath();
    QSettings().setValue(QStringLiteral("dialogs/lastDir"), dir);
}

} // namespace sl::ui
