#pragma once
#include <QObject>
#include <QStringList>

class QMenu;

namespace sl::ui {

// The File > Open Recent menu, kept in QSettings ("recent"): each entry is the list of paths of one
// opened trace set (files or a folder).
class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent = nullptr);
    void add(const QStringList& paths);
    QList<QStringList> entries() const;

signals:
    void openRequested(QStringList paths);

private:
    void rebuild();
    QMenu* menu_;
    static constexpr int kMax = 10;
};

} // namespace sl::ui
