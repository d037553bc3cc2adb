#include "RecentFiles.h"

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

void RecentFiles::rebuild() {
    menu_->clear();
    const auto list = entries();
    for (const QStringList& paths : list) {
        QString label = QFileInfo(paths.value(0)).fileName();
        if (paths.size() > 1) label += tr(" and %1 more").arg(paths.size() - 1);
        QAction* a = menu_->addAction(label);
        a->setToolTip(paths.join(QChar('\n')));
        connect(a, &QAction::triggered, this, [this, paths] { emit openRequested(paths); });
    }
    menu_->setEnabled(!list.isEmpty());
}

} // namespace sl::ui
