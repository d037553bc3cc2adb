#include "RecentFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace sl::ui {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    rebuild();
}

QList<QStringList> RecentFiles::entries() const {
    QList<QStringList> out;
    const QStringList raw = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString& e : raw)
        out.push_back(e.split(QChar('\n'), Qt::SkipEmptyParts));
    return out;
}

void RecentFiles::add(const QStringList& paths) {
    QStringList abs;
    for (const QString& p : paths)
        abs.push_back(QFileInfo(p).absoluteFilePath());
    const QString entry = abs.join(QChar('\n'));
    QStringList raw = QSettings().value(QStringLiteral("recent")).toStringList();
    raw.removeAll(entry);
    raw.prepend(entry);
    while (raw.size() > kMax)
        raw.removeLast();
    QSettings().setValue(QStringLiteral("recent"), raw);
    rebuild();
}

QString RecentFiles::label(const QStringList& paths) {
    const QFileInfo first(QDir::cleanPath(paths.value(0)));
    QString name = first.fileName();
    if (name.isEmpty()) name = first.filePath();
    if (paths.size() > 1) name += tr(" and %1 more").arg(paths.size() - 1);
    QString dir = QDir::toNativeSeparators(first.absolutePath());
    const QString home = QDir::homePath();
    if (home.size() > 1 && dir.startsWith(home)) dir = QStringLiteral("~") + dir.mid(home.size());
    // Long folders keep their end (the part that tells sets apart).
    if (dir.size() > 60) dir = QStringLiteral("...") + dir.right(57);
    // '&' would become a mnemonic in a menu.
    QString text = name + QStringLiteral("  \u2014  ") + dir;
    return text.replace(QLatin1Char('&'), QLatin1String("&&"));
}

QString RecentFiles::fullLabel(const QStringList& paths) {
    QString text = QDir::toNativeSeparators(QDir::cleanPath(paths.value(0)));
    if (paths.size() > 1) text += tr(" and %1 more").arg(paths.size() - 1);
    return text;
}

void RecentFiles::rebuild() {
    menu_->clear();
    const auto list = entries();
    for (const QStringList& paths : list) {
        QAction* a = menu_->addAction(label(paths));
        a->setToolTip(paths.join(QChar('\n')));
        connect(a, &QAction::triggered, this, [this, paths] { emit openRequested(paths); });
    }
    menu_->setEnabled(!list.isEmpty());
    emit changed();
}

} // namespace sl::ui
